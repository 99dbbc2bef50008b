/* SPDX-License-Identifier: MIT */
/* perf's -e spelling of a resolved event, so a pmctool event can be pasted into perf stat. */
#include <dirent.h>
#include <limits.h>
#include <linux/hw_breakpoint.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "sys/sysfs.h"
#include "pmu/event.h"
#include "pmu/pmu_internal.h"
#include "sys/pmu_format.h"

/* perf's modifier letters for the exclude bits (u, k; G, H; I); "" when every level counts. One static buffer per
 * attr is enough: each spelling uses one attr's letters. */
static const char *plm_suffix(const struct perf_event_attr *a)
{
	static char buf[8];
	size_t n = 0;

	if (a->exclude_kernel && !a->exclude_user)
		buf[n++] = 'u';
	if (a->exclude_user && !a->exclude_kernel)
		buf[n++] = 'k';
	if (a->exclude_host && !a->exclude_guest)
		buf[n++] = 'G';
	if (a->exclude_guest && !a->exclude_host)
		buf[n++] = 'H';
	if (a->exclude_idle)
		buf[n++] = 'I';
	buf[n] = '\0';
	return buf;
}

static int put(char *buf, size_t len, size_t *off, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return -ENOSPC;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *off)
		return -ENOSPC;
	*off += (size_t)n;
	return 0;
}

#define MAX_TERMS 32

struct term {
	char name[64];
	struct pmc_sysfs_format fmt;
};

/* Terms in perf's usual order: event, umask, then the x86 modifiers, then the rest by name. */
static int term_rank(const char *name)
{
	static const char *const order[] = { "event", "umask", "cmask", "inv", "edge", "any", "pc" };

	for (int i = 0; i < (int)PMC_ARRAY_SIZE(order); i++)
		if (!strcmp(name, order[i]))
			return i;
	return (int)PMC_ARRAY_SIZE(order);
}

static int term_cmp(const void *pa, const void *pb)
{
	const struct term *a = pa, *b = pb;
	int ra = term_rank(a->name), rb = term_rank(b->name);

	return ra != rb ? ra - rb : strcmp(a->name, b->name);
}

/* The PMU's format terms (dir/format/NAME), sorted; the number read (0 when none). */
static size_t read_terms(const char *dir, struct term *t, size_t max)
{
	char path[PATH_MAX], text[128];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/format", dir);
	d = opendir(path);
	if (!d)
		return 0;
	while (n < max && (de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(t[n].name))
			continue;
		snprintf(path, sizeof(path), "%s/format/%s", dir, de->d_name);
		if (pmc_sysfs_read_line(path, text, sizeof(text)) || pmc_sysfs_format_parse(text, &t[n].fmt))
			continue;
		snprintf(t[n].name, sizeof(t[n].name), "%s", de->d_name);
		n++;
	}
	closedir(d);
	qsort(t, n, sizeof(*t), term_cmp);
	return n;
}

/* A core event in its PMU's own terms, as perf parses them: armv8_pmuv3_0/event=0x08/u, cpu/event=0x0e,umask=0x01,
 * cmask=1,inv/. event and umask are always written; a flag term by its name; a term another one already wrote (the
 * overlapping config1 terms offcore_rsp, ldlat, frontend) is left out. -ENOENT when a set bit has no term. */
static int spell_terms(const char *pmu, const struct term *t, size_t n, const struct perf_event_attr *a, char *buf,
		       size_t len)
{
	const uint64_t cfg[3] = { a->config, a->config1, a->config2 };
	uint64_t written[3] = { 0, 0, 0 }, covered[3] = { 0, 0, 0 };
	size_t off = 0;
	int rc = put(buf, len, &off, "%s/", pmu), nw = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		int f = t[i].fmt.field;
		uint64_t m, v = pmc_sysfs_format_extract(&t[i].fmt, cfg[f], &m);
		unsigned w = pmc_sysfs_format_width(&t[i].fmt);
		bool always = f == 0 && term_rank(t[i].name) < 2;
		const char *sep = nw ? "," : "";

		covered[f] |= m;
		if (!always && !(cfg[f] & m & ~written[f]))
			continue;
		written[f] |= cfg[f] & m;
		nw++;
		if (w == 1)
			rc = put(buf, len, &off, "%s%s", sep, t[i].name);
		else if (always || w > 8)
			rc = put(buf, len, &off, "%s%s=0x%02llx", sep, t[i].name, (unsigned long long)v);
		else
			rc = put(buf, len, &off, "%s%s=%llu", sep, t[i].name, (unsigned long long)v);
	}
	for (int f = 0; f < 3; f++)
		if (cfg[f] & ~covered[f])
			return -ENOENT;
	if (!nw)
		return -ENOENT;
	return rc ? rc : put(buf, len, &off, "/%s", plm_suffix(a));
}

static int spell_formats(const char *pmu, const char *dir, const struct perf_event_attr *a, char *buf, size_t len)
{
	struct term t[MAX_TERMS];

	return spell_terms(pmu, t, read_terms(dir, t, MAX_TERMS), a, buf, len);
}

/* The builtin layout of the core PMU in use (pmc_arch_core_format), sorted like read_terms; the number of terms. */
static size_t builtin_terms(struct term *t, size_t max)
{
	const struct pmc_arch_format *f = pmc_arch_core_format(pmc_pmu_core_name());
	size_t n = 0;

	for (size_t i = 0; f && i < f->nterms && n < max; i++)
		if (!pmc_sysfs_format_parse(f->terms[i].format, &t[n].fmt))
			snprintf(t[n++].name, sizeof(t[0].name), "%s", f->terms[i].term);
	qsort(t, n, sizeof(*t), term_cmp);
	return n;
}

/* A core event in the builtin layout's terms (cpu/event=..,umask=..[,cmask=N][,inv][,edge][,any][,pc]/), r.. when bits
 * fall outside the layout, cpu/config=..,config1=..,config2=../ when config1 or config2 is set (rNN cannot carry
 * them). */
static int spell_core(const struct pmc_event *ev, char *buf, size_t len)
{
	const struct perf_event_attr *a = &ev->attr;
	struct term t[MAX_TERMS];
	size_t n, off = 0;
	int rc;

	if (a->config1 || a->config2)
		return put(buf, len, &off, "cpu/config=%#llx,config1=%#llx,config2=%#llx/%s",
			   (unsigned long long)a->config, (unsigned long long)a->config1,
			   (unsigned long long)a->config2, plm_suffix(a));
	n = builtin_terms(t, MAX_TERMS);
	rc = n ? spell_terms("cpu", t, n, a, buf, len) : -ENOENT;
	if (rc != -ENOENT)
		return rc;
	buf[0] = '\0';
	return put(buf, len, &off, "r%llx%s%s", (unsigned long long)a->config, *plm_suffix(a) ? ":" : "",
		   plm_suffix(a));
}

/* A raw core event (PERF_TYPE_RAW): in the terms of the kernel's core PMU, whatever its name (the arch seam finds it:
 * cpu, armv8_pmuv3_0...); without one in sysfs, perf's rNN, which it parses on every architecture; the x86 layout
 * only for config1/config2, which rNN cannot carry. */
static int spell_raw(const struct pmc_event *ev, char *buf, size_t len)
{
	const struct perf_event_attr *a = &ev->attr;
	char dir[PATH_MAX];
	size_t off = 0;
	int rc;

	if (!pmc_arch_core_pmu_dir(dir, sizeof(dir))) {
		rc = spell_formats(strrchr(dir, '/') + 1, dir, a, buf, len);
		if (rc != -ENOENT)
			return rc;
	}
	buf[0] = '\0';
	if (!a->config1 && !a->config2)
		return put(buf, len, &off, "r%llx%s%s", (unsigned long long)a->config, *plm_suffix(a) ? ":" : "",
			   plm_suffix(a));
	return spell_core(ev, buf, len);
}

/* The sysfs PMU of a dynamic type: "msr/tsc/" when one of its event aliases gives the same config. */
static int spell_sysfs(const struct pmc_event *ev, char *buf, size_t len)
{
	const char *root = pmc_event_source_dir();
	const struct perf_event_attr *a = &ev->attr;
	struct dirent *de;
	size_t off = 0;
	DIR *d = opendir(root);
	int rc = -ENOENT;

	if (!d)
		return -ENOENT;
	while (rc == -ENOENT && (de = readdir(d))) {
		char path[1100], name[300];
		struct pmc_event tmp;
		struct pmc_resolve_error err;
		struct dirent *ee;
		DIR *ed;

		if (de->d_name[0] == '.' || strlen(de->d_name) > 200)
			continue;
		snprintf(name, sizeof(name), "%s/config=%#llx/", de->d_name, (unsigned long long)a->config);
		if (pmc_event_resolve(name, &tmp, &err) || tmp.attr.type != a->type)
			continue;
		snprintf(path, sizeof(path), "%s/%s/events", root, de->d_name);
		ed = opendir(path);
		while (ed && (ee = readdir(ed))) {
			snprintf(name, sizeof(name), "%s/%s/", de->d_name, ee->d_name);
			if (ee->d_name[0] != '.' && !strchr(ee->d_name, '.') && !pmc_event_resolve(name, &tmp, &err) &&
			    tmp.attr.config == a->config && tmp.attr.config1 == a->config1 &&
			    tmp.attr.config2 == a->config2)
				break;
		}
		if (ed && ee)
			rc = put(buf, len, &off, "%s/%s/%s", de->d_name, ee->d_name, plm_suffix(a));
		else if (a->config1 || a->config2)
			rc = put(buf, len, &off, "%s/config=%#llx,config1=%#llx,config2=%#llx/%s", de->d_name,
				 (unsigned long long)a->config, (unsigned long long)a->config1,
				 (unsigned long long)a->config2, plm_suffix(a));
		else
			rc = put(buf, len, &off, "%s/config=%#llx/%s", de->d_name, (unsigned long long)a->config,
				 plm_suffix(a));
		if (ed)
			closedir(ed);
	}
	closedir(d);
	return rc;
}

/* A hybrid CPU's copy of a core event (pmu/hybrid.h): perf's cpu_core/cycles/, cpu_atom/event=0xc0,umask=0x00/. */
static int spell_hybrid(const struct pmc_event *ev, const char *pmu, int pmulen, char *buf, size_t len)
{
	const struct perf_event_attr *a = &ev->attr;
	char core[PATH_MAX], name[PMC_NAME_MAX];
	size_t off = 0;
	int rc;

	if (a->type == PERF_TYPE_HARDWARE) {
		const char *g = pmc_generic_name(PERF_TYPE_HARDWARE, a->config & PERF_HW_EVENT_MASK);
		if (g)
			return put(buf, len, &off, "%.*s/%s/%s", pmulen, pmu, g, plm_suffix(a));
	}
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE)
		return put(buf, len, &off, "%s", ev->canonical);
	snprintf(core, sizeof(core), "%s/%.*s", pmc_event_source_dir(), pmulen, pmu);
	snprintf(name, sizeof(name), "%.*s", pmulen, pmu);
	rc = spell_formats(name, core, a, buf, len);
	if (rc != -ENOENT)
		return rc;
	buf[0] = '\0';
	rc = spell_core(ev, core, sizeof(core));
	if (rc)
		return rc;
	if (!strncmp(core, "cpu/", 4))
		return put(buf, len, &off, "%.*s/%s", pmulen, pmu, core + 4);
	return put(buf, len, &off, "%.*s/config=%#llx/%s", pmulen, pmu, (unsigned long long)a->config, plm_suffix(a));
}

int pmc_event_perf_spelling(const struct pmc_event *ev, char *buf, size_t len)
{
	const struct perf_event_attr *a = &ev->attr;
	const char *g = NULL;
	size_t off = 0;
	int rc;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	if (ev->core_pmu && strchr(ev->canonical, '/'))
		return spell_hybrid(ev, ev->canonical, (int)strcspn(ev->canonical, "/"), buf, len);
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_SOFTWARE)
		g = pmc_generic_name(a->type, a->config);
	if (g)
		return put(buf, len, &off, "%s%s%s", g, *plm_suffix(a) ? ":" : "", plm_suffix(a));
	if (a->type == PERF_TYPE_BREAKPOINT)
		return put(buf, len, &off, "mem:%#llx/%llu:%s%s%s%s", (unsigned long long)a->bp_addr,
			   (unsigned long long)a->bp_len, a->bp_type & HW_BREAKPOINT_R ? "r" : "",
			   a->bp_type & HW_BREAKPOINT_W ? "w" : "", a->bp_type & HW_BREAKPOINT_X ? "x" : "",
			   plm_suffix(a));
	if (a->type == PERF_TYPE_HW_CACHE && !pmc_cache_name(a->config, buf, len)) {
		off = strlen(buf);
		return put(buf, len, &off, "%s%s", *plm_suffix(a) ? ":" : "", plm_suffix(a));
	}
	if (a->type == PERF_TYPE_TRACEPOINT && strchr(ev->canonical, ':') && !strchr(ev->canonical, '/'))
		return put(buf, len, &off, "%s", ev->canonical);
	if (a->type == PERF_TYPE_RAW)
		return spell_raw(ev, buf, len);
	rc = spell_sysfs(ev, buf, len);
	if (rc != -ENOENT)
		return rc;
	return put(buf, len, &off, "%s", ev->canonical);
}
