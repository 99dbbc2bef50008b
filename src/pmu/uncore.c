/* SPDX-License-Identifier: MIT */
/* Non-core PMUs from sysfs, grouped into box families (see uncore.h). */
#include "pmu/uncore.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/event.h"
#include "sys/sysfs.h"

const char *pmc_uncore_family_of(const char *pmu, char *buf, size_t len)
{
	size_t n = strlen(pmu), k = n;

	while (k > 0 && isdigit((unsigned char)pmu[k - 1]))
		k--;
	if (k < n && k > 1 && pmu[k - 1] == '_')
		n = k - 1;
	snprintf(buf, len, "%.*s", (int)n, pmu);
	return buf;
}

/* The box number of "uncore_imc_12": 12; -1 for a PMU without one. */
static long box_number(const char *pmu)
{
	const char *u = strrchr(pmu, '_');
	char *end;
	long v;

	if (!u || !isdigit((unsigned char)u[1]))
		return -1;
	v = strtol(u + 1, &end, 10);
	return *end ? -1 : v;
}

static bool skipped(const char *name)
{
	static const char *const core[] = { "cpu", "cpu_core", "cpu_atom", "software", "tracepoint", "breakpoint",
					     "kprobe", "uprobe", "msr", NULL };

	if (name[0] == '.')
		return true;
	for (size_t i = 0; core[i]; i++)
		if (!strcmp(name, core[i]))
			return true;
	return !strncmp(name, "armv8_", 6) || !strncmp(name, "armv9_", 6) || !strncmp(name, "arm_cortex", 10) ||
	       !strncmp(name, "ibs_", 4) || !strcmp(name, "intel_pt") || !strcmp(name, "intel_bts") ||
	       !strncmp(name, "cs_etm", 6) || !strncmp(name, "arm_spe", 7);
}

static enum pmc_uncore_kind kind_of(const char *fam)
{
	static const struct {
		const char *prefix;
		enum pmc_uncore_kind kind;
	} t[] = {
		{ "uncore_imc", PMC_UNCORE_MEMORY }, { "uncore_cha", PMC_UNCORE_CACHE }, { "uncore_cbox", PMC_UNCORE_CACHE },
		{ "amd_l3", PMC_UNCORE_CACHE }, { "uncore_upi", PMC_UNCORE_INTERCONNECT },
		{ "uncore_qpi", PMC_UNCORE_INTERCONNECT }, { "amd_df", PMC_UNCORE_INTERCONNECT },
		{ "arm_cmn", PMC_UNCORE_INTERCONNECT }, { "arm_dsu", PMC_UNCORE_INTERCONNECT },
		{ "power", PMC_UNCORE_ENERGY }, { "cstate_", PMC_UNCORE_CSTATE },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strncmp(fam, t[i].prefix, strlen(t[i].prefix)))
			return t[i].kind;
	return PMC_UNCORE_OTHER;
}

const char *pmc_uncore_kind_name(enum pmc_uncore_kind k)
{
	static const char *const names[] = { "other", "memory controller", "cache", "interconnect", "energy",
					     "C-state residency" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "other";
}

static int cpu_cb(long a, long b, void *ctx)
{
	struct pmc_uncore_family *f = ctx;

	for (long c = a; c <= b; c++) {
		if (f->ncpus == PMC_UNCORE_MAX_CPUS)
			return -E2BIG;
		f->cpus[f->ncpus++] = (int)c;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entry names of a directory (malloc'd array of malloc'd names); *ret_n. -errno. */
static int list_dir(const char *path, char ***ret, size_t *ret_n)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0, cap = 0;

	*ret = NULL;
	*ret_n = 0;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nv = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*ret = v;
	*ret_n = n;
	return 0;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void read_formats(const char *dir, struct pmc_uncore_family *f)
{
	char path[1024], text[96], **v;
	size_t n;

	snprintf(path, sizeof(path), "%s/format", dir);
	if (list_dir(path, &v, &n) < 0)
		return;
	for (size_t i = 0; i < n && f->nformats < PMC_UNCORE_MAX_FORMATS; i++) {
		snprintf(path, sizeof(path), "%s/format/%s", dir, v[i]);
		if (pmc_sysfs_read_line(path, text, sizeof(text)) == 0)
			snprintf(f->format[f->nformats++], sizeof(f->format[0]), "%.40s=%.50s", v[i], text);
	}
	free_list(v, n);
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a > b && !strcmp(s + a - b, suffix);
}

static void read_aliases(const char *dir, struct pmc_uncore_family *f)
{
	char path[1024], text[128], **v;
	size_t n;

	snprintf(path, sizeof(path), "%s/events", dir);
	if (list_dir(path, &v, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		struct pmc_uncore_alias *a;
		char *end;

		if (has_suffix(v[i], ".scale") || has_suffix(v[i], ".unit") || has_suffix(v[i], ".per-pkg") ||
		    has_suffix(v[i], ".snapshot") || strlen(v[i]) >= sizeof(a->name))
			continue;
		if (f->naliases == PMC_UNCORE_MAX_ALIASES) {
			f->aliases_cut = true;
			break;
		}
		snprintf(path, sizeof(path), "%s/events/%s", dir, v[i]);
		a = &f->alias[f->naliases];
		memset(a, 0, sizeof(*a));
		if (pmc_sysfs_read_line(path, a->terms, sizeof(a->terms)) < 0)
			continue;
		snprintf(a->name, sizeof(a->name), "%s", v[i]);
		a->scale = 1;
		snprintf(path, sizeof(path), "%s/events/%s.scale", dir, v[i]);
		if (pmc_sysfs_read_line(path, text, sizeof(text)) == 0) {
			double s = strtod(text, &end);
			if (end != text && isfinite(s) && s > 0)
				a->scale = s;
		}
		snprintf(path, sizeof(path), "%s/events/%s.unit", dir, v[i]);
		if (pmc_sysfs_read_line(path, text, sizeof(text)) == 0)
			snprintf(a->unit, sizeof(a->unit), "%.15s", text);
		f->naliases++;
	}
	free_list(v, n);
}

static int cmp_box(const void *a, const void *b)
{
	return (int)(box_number(*(char *const *)a) - box_number(*(char *const *)b));
}

int pmc_uncore_scan(struct pmc_uncore *ret)
{
	char devs[512], **v;
	size_t n;
	int rc;

	ret->n = 0;
	snprintf(devs, sizeof(devs), "%s/bus/event_source/devices", pmc_sysfs_root());
	if ((rc = list_dir(devs, &v, &n)) < 0)
		return rc;
	/* Boxes in number order, so that uncore_imc_10 follows uncore_imc_9. */
	for (size_t i = 0; i < n;) {
		char fam[64], other[64], dir[1024], line[128];
		struct pmc_uncore_family *f;
		size_t j = i, k;

		pmc_uncore_family_of(v[i], fam, sizeof(fam));
		while (j < n && !strcmp(pmc_uncore_family_of(v[j], other, sizeof(other)), fam))
			j++;
		if (skipped(v[i]) || ret->n == PMC_UNCORE_MAX_FAMILIES) {
			i = j;
			continue;
		}
		qsort(v + i, j - i, sizeof(*v), cmp_box);
		f = &ret->fam[ret->n++];
		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%s", fam);
		f->kind = kind_of(fam);
		for (k = i; k < j && f->nboxes < PMC_UNCORE_MAX_BOXES; k++) {
			long t;

			snprintf(f->box[f->nboxes], sizeof(f->box[0]), "%s", v[k]);
			snprintf(dir, sizeof(dir), "%s/%s/type", devs, v[k]);
			f->type[f->nboxes++] = pmc_sysfs_read_long(dir, &t) == 0 ? (int)t : -1;
		}
		snprintf(dir, sizeof(dir), "%s/%s", devs, v[i]);
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/cpumask");
		if (pmc_sysfs_read_line(dir, line, sizeof(line)) == 0) {
			snprintf(f->cpumask, sizeof(f->cpumask), "%s", line);
			if (pmc_cpulist_ranges(line, cpu_cb, f) < 0)
				f->ncpus = 0;
		}
		snprintf(dir, sizeof(dir), "%s/%s", devs, v[i]);
		read_formats(dir, f);
		read_aliases(dir, f);
		i = j;
	}
	free_list(v, n);
	return 0;
}

const struct pmc_uncore_family *pmc_uncore_find(const struct pmc_uncore *u, const char *name)
{
	for (size_t i = 0; i < u->n; i++) {
		if (!strcmp(u->fam[i].name, name))
			return &u->fam[i];
		for (unsigned b = 0; b < u->fam[i].nboxes; b++)
			if (!strcmp(u->fam[i].box[b], name))
				return &u->fam[i];
	}
	return NULL;
}

const struct pmc_uncore_alias *pmc_uncore_alias(const struct pmc_uncore_family *f, const char *name)
{
	for (unsigned i = 0; i < f->naliases; i++)
		if (!strcmp(f->alias[i].name, name))
			return &f->alias[i];
	return NULL;
}

double pmc_uncore_bytes_per_count(const struct pmc_uncore_alias *a)
{
	static const struct {
		const char *unit;
		double bytes;
	} t[] = {
		{ "B", 1 }, { "Bytes", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
		{ "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(a->unit, t[i].unit))
			return a->scale * t[i].bytes;
	return 0;
}

double pmc_uncore_joules(const struct pmc_uncore_alias *a, double count)
{
	return !strcmp(a->unit, "Joules") ? count * a->scale : NAN;
}

const char *pmc_uncore_describe(const struct pmc_uncore_family *f, char *buf, size_t len)
{
	int lo = f->type[0], hi = f->type[0];
	size_t off;

	for (unsigned b = 1; b < f->nboxes; b++) {
		lo = f->type[b] < lo ? f->type[b] : lo;
		hi = f->type[b] > hi ? f->type[b] : hi;
	}
	if (f->nboxes > 1)
		off = (size_t)snprintf(buf, len, "%u boxes (%s..%s), types %d-%d", f->nboxes, f->box[0],
				       f->box[f->nboxes - 1], lo, hi);
	else
		off = (size_t)snprintf(buf, len, "type %d", lo);
	if (off < len)
		snprintf(buf + off, len - off, ", %s%s", f->cpumask[0] ? "cpumask " : "no cpumask", f->cpumask);
	return buf;
}

/* "pmu/alias/" (one term, no value, no modifier) into pmu and alias; false for any other spelling. */
static bool split_alias_spec(const char *spec, char *pmu, size_t plen, char *alias, size_t alen)
{
	const char *s1 = strchr(spec, '/');
	const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;

	if (!s1 || !s2 || s2[1] || s1 == spec || s2 == s1 + 1 || (size_t)(s1 - spec) >= plen ||
	    (size_t)(s2 - s1 - 1) >= alen || memchr(s1 + 1, '=', (size_t)(s2 - s1 - 1)) ||
	    memchr(s1 + 1, ',', (size_t)(s2 - s1 - 1)))
		return false;
	snprintf(pmu, plen, "%.*s", (int)(s1 - spec), spec);
	snprintf(alias, alen, "%.*s", (int)(s2 - s1 - 1), s1 + 1);
	return true;
}

/* The family spec names when it is perf's family spelling: FAMILY/terms/ with FAMILY a box family's name that is
 * no PMU directory itself (uncore_imc, not uncore_imc_0 nor power); or a bare word that is an alias of exactly the
 * PMUs of one non-core family (cas_count_read, energy-pkg), then *word set. NULL otherwise. */
static const struct pmc_uncore_family *family_of_spec(const struct pmc_uncore *u, const char *spec, bool *word)
{
	const char *slash = strchr(spec, '/');
	const struct pmc_uncore_family *hit = NULL;

	*word = !slash;
	if (slash) {
		char fam[64];

		if ((size_t)(slash - spec) >= sizeof(fam))
			return NULL;
		snprintf(fam, sizeof(fam), "%.*s", (int)(slash - spec), spec);
		for (size_t i = 0; i < u->n; i++)
			if (!strcmp(u->fam[i].name, fam) && strcmp(u->fam[i].box[0], fam))
				return &u->fam[i];
		return NULL;
	}
	if (strpbrk(spec, ":{}@,") || !*spec)
		return NULL;
	for (size_t i = 0; i < u->n; i++) {
		if (!pmc_uncore_alias(&u->fam[i], spec))
			continue;
		if (hit)
			return NULL; /* in two families: the user must say which */
		hit = &u->fam[i];
	}
	return hit;
}

int pmc_uncore_box_specs(const char *spec, char (*out)[PMC_UNCORE_SPEC_MAX], size_t max)
{
	struct pmc_uncore *u = calloc(1, sizeof(*u));
	const struct pmc_uncore_family *f;
	bool word;
	int n = 0;

	if (!u)
		return -ENOMEM;
	if (pmc_uncore_scan(u) < 0 || !(f = family_of_spec(u, spec, &word))) {
		free(u);
		return 0;
	}
	for (unsigned b = 0; b < f->nboxes; b++) {
		int w;

		if ((size_t)n == max) {
			n = -ENOSPC;
			break;
		}
		w = word ? snprintf(out[n], PMC_UNCORE_SPEC_MAX, "%s/%s/", f->box[b], spec)
			 : snprintf(out[n], PMC_UNCORE_SPEC_MAX, "%s%s", f->box[b], strchr(spec, '/'));
		if (w < 0 || w >= PMC_UNCORE_SPEC_MAX) {
			n = -ENAMETOOLONG;
			break;
		}
		n++;
	}
	free(u);
	return n;
}

bool pmc_uncore_spec_scale(const char *spec, double *scale, char *unit, size_t ulen)
{
	char pmu[128], name[64], path[1400], text[64];
	char *end;
	double s;

	if (!split_alias_spec(spec, pmu, sizeof(pmu), name, sizeof(name)) || strchr(pmu, '.') || strchr(name, '.'))
		return false;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/events/%s.scale", pmc_sysfs_root(), pmu, name);
	if (pmc_sysfs_read_line(path, text, sizeof(text)) < 0)
		return false;
	s = strtod(text, &end);
	if (end == text || !isfinite(s) || s <= 0)
		return false;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/events/%s.unit", pmc_sysfs_root(), pmu, name);
	if (pmc_sysfs_read_line(path, text, sizeof(text)) < 0)
		text[0] = '\0';
	*scale = s;
	snprintf(unit, ulen, "%s", text);
	return true;
}

int pmc_uncore_identifier(const char *fam, char *buf, size_t len)
{
	struct pmc_uncore *u = calloc(1, sizeof(*u));
	const struct pmc_uncore_family *f;
	char path[1400];
	int r = -ENOENT;

	if (!u)
		return -ENOMEM;
	if (pmc_uncore_scan(u) == 0 && (f = pmc_uncore_find(u, fam))) {
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/identifier", pmc_sysfs_root(), f->box[0]);
		r = pmc_sysfs_read_line(path, buf, len) < 0 ? -ENODATA : 0;
		if (r < 0)
			snprintf(buf, len, "%s", f->box[0]);
	}
	free(u);
	return r;
}

int pmc_uncore_resolve(const char *spec, struct pmc_event *ev, char *fam, size_t famlen)
{
	static char boxes[PMC_UNCORE_MAX_BOXES][PMC_UNCORE_SPEC_MAX];
	char tspec[PMC_UNCORE_SPEC_MAX];
	struct pmc_resolve_error err;
	const char *f = pmc_pmu_table_uncore_spec(spec, tspec, sizeof(tspec)) == 0 ? tspec : spec;
	int r = -ENOENT;

	memset(&err, 0, sizeof(err));
	if (f != spec && pmc_event_resolve(f, ev, &err) == 0)
		r = 0;
	else if (pmc_uncore_box_specs(f, boxes, PMC_UNCORE_MAX_BOXES) > 0 && pmc_event_resolve(boxes[0], ev, &err) == 0)
		r = 1;
	if (r >= 0 && fam && famlen)
		snprintf(fam, famlen, "%s", f);
	return r;
}
