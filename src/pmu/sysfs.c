/* SPDX-License-Identifier: MIT */
/* sysfs PMU syntax: pmu/term=val,term,.../[:mods], resolved from <root>/<pmu>/{type,format/,events/}. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "arch/arch.h"
#include "pmu/event.h"
#include "pmu/pmu_internal.h"
#include "tables/tables.h"
#include "sys/sysfs.h"
#include "sys/pmu_format.h"

struct term_ctx {
	char pmudir[1024];      /* empty: the built-in layout */
	const char *pmu;        /* as written */
	const char *spec;       /* the whole event, for messages */
	uint64_t cfg[3];
	int depth;              /* alias expansion depth */
	struct pmc_resolve_error *err;
	int rc;
	const char *source;     /* a vendor table's file, when a term was a table event (cpu/uops_issued.any/) */
};

const char *pmc_event_source_dir(void)
{
	static char dir[1024];
	const char *r = pmc_sysfs_root();

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices", r);
	return dir;
}

/* Read a small sysfs file into buf (NUL-terminated, trailing whitespace removed). 0 or -errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

/* Find name in dir case-insensitively (sysfs names are lower case; users may write MSR/TSC/). */
static int find_ci(const char *dir, const char *name, char *ret, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = -ENOENT;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] != '.' && !strcasecmp(de->d_name, name)) {
			snprintf(ret, len, "%s/%s", dir, de->d_name);
			rc = 0;
			break;
		}
	}
	closedir(d);
	return rc;
}

/* The core PMUs whose builtin layout (pmc_arch_core_format: x86's cpu, cpu_core, cpu_atom) stands in for a sysfs
 * directory the kernel does not have. */
static bool builtin_layout_pmu(const char *pmu)
{
	const struct pmc_arch_format *f = pmc_arch_core_format(NULL);

	for (size_t i = 0; f && f->pmus[i]; i++)
		if (!strcasecmp(pmu, f->pmus[i]))
			return true;
	return false;
}

static int term_cb(const char *name, const char *value, void *vctx);

static int apply_format(struct term_ctx *c, const char *name, const char *value, const char *fmt_text)
{
	struct pmc_sysfs_format fmt;
	uint64_t v = 1;

	if (pmc_sysfs_format_parse(fmt_text, &fmt))
		return pmc_resolve_fail(c->err, PMC_RESOLVE_UNSUPPORTED, -EINVAL,
					"'%s': PMU '%s': cannot parse the format of term '%s' ('%s')",
					c->spec, c->pmu, name, fmt_text);
	if (value && pmc_parse_u64(value, 0, UINT64_MAX, &v))
		return pmc_resolve_fail(c->err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"'%s': PMU '%s': term '%s=%s' needs a decimal or 0x-hex number",
					c->spec, c->pmu, name, value);
	if (pmc_sysfs_format_apply(&fmt, v, c->cfg))
		return pmc_resolve_fail(c->err, PMC_RESOLVE_SYNTAX, -ERANGE,
					"'%s': PMU '%s': value %s of term '%s' does not fit its field (%s)",
					c->spec, c->pmu, value, name,
					fmt_text);
	return 0;
}

static int apply_alias(struct term_ctx *c, const char *name, const char *path)
{
	char text[1024];
	int rc;

	if (read_small(path, text, sizeof(text)))
		return pmc_resolve_fail(c->err, PMC_RESOLVE_UNSUPPORTED, -EIO, "'%s': PMU '%s': cannot read event '%s'",
					c->spec, c->pmu, name);
	if (strchr(text, '?'))
		return pmc_resolve_fail(c->err, PMC_RESOLVE_UNSUPPORTED, -EINVAL,
					"'%s': PMU '%s': event '%s' needs parameters ('%s'): spell its terms out",
					c->spec, c->pmu, name,
					text);
	c->depth++;
	rc = pmc_sysfs_terms_parse(text, term_cb, c);
	c->depth--;
	if (rc && !c->err->code)
		return pmc_resolve_fail(c->err, PMC_RESOLVE_UNSUPPORTED, rc,
					"'%s': PMU '%s': cannot parse event '%s' ('%s')",
					c->spec, c->pmu, name, text);
	return rc;
}

static int unknown_term(struct term_ctx *c, const char *name)
{
	char dir[1100];
	int rc = pmc_resolve_fail(c->err, PMC_RESOLVE_UNKNOWN, -ENOENT,
				  "'%s': PMU '%s' has no term or event '%s': see %s/%s/format and events",
				c->spec, c->pmu, name,
				  pmc_event_source_dir(), c->pmu);

	if (c->pmudir[0]) {
		char fmt[300];

		char key[300];

		snprintf(fmt, sizeof(fmt), "%s/%%s/", c->pmu);
		snprintf(key, sizeof(key), "%s/%s/", c->pmu, name);
		snprintf(dir, sizeof(dir), "%s/events", c->pmudir);
		pmc_suggest_dir(dir, key, fmt, c->err);
	}
	return rc;
}

static bool is_core_pmu(const char *pmu, const char *pmudir);

/* perf's PMU-qualified event name (cpu/uops_issued.any/, cpu_core/..., armv8_pmuv3_0/...): a bare term of a core
 * PMU that names a vendor table event, or else any core event name pmctool resolves (libpfm4's, perf's spellings:
 * pmu/perfname.c), gives that event's config and config1; the terms after it modify them. 0, or -ENOENT. */
static int table_term(struct term_ctx *c, const char *name, const char *value)
{
	struct pmc_resolve_error e;
	struct pmc_event tmp;

	if (value || c->depth || !is_core_pmu(c->pmu, c->pmudir))
		return -ENOENT;
	pmc_event_init(&tmp, name);
	/* cpu_core/NAME/, cpu_atom/NAME/: that core type's entry of a hybrid table */
	if (pmc_pmu_table_event_on(name, strncmp(c->pmu, "cpu_", 4) ? NULL : c->pmu, &tmp)) {
		const struct pmc_table_event *te;

		/* not a generic name (cpu/cycles/ is the PMU's own alias or nothing): a core encoding only; and not a
		 * table's name of the other core type (cpu_atom/big_only.fake/) */
		if (strchr(name, ':') || !pmc_tables_find(pmc_pmu_tables(), name, &te) || pmc_event_resolve(name, &tmp, &e) || tmp.attr.type == PERF_TYPE_HARDWARE ||
		    !(tmp.flags & PMC_EVF_HARDWARE) || (tmp.attr.type != PERF_TYPE_RAW && tmp.attr.type < PERF_TYPE_MAX))
			return -ENOENT;
	}
	c->cfg[0] |= tmp.attr.config;
	c->cfg[1] |= tmp.attr.config1;
	c->source = tmp.source;
	return 0;
}

static int term_cb(const char *name, const char *value, void *vctx)
{
	struct term_ctx *c = vctx;
	char path[1200], dir[1100];
	char text[256];

	if (c->depth > 1)
		return pmc_resolve_fail(c->err, PMC_RESOLVE_UNSUPPORTED, -ELOOP,
					"'%s': PMU '%s': nested event alias '%s'",
					c->spec, c->pmu, name);
	for (int i = 0; i < 3; i++) {
		static const char *const fields[] = { "config", "config1", "config2" };
		char fmt[32];

		if (strcasecmp(name, fields[i]))
			continue;
		if (!value)
			return pmc_resolve_fail(c->err, PMC_RESOLVE_SYNTAX, -EINVAL,
						"'%s': PMU '%s': '%s' needs a value",
						c->spec, c->pmu, name);
		snprintf(fmt, sizeof(fmt), "%s:0-63", fields[i]);
		return apply_format(c, name, value, fmt);
	}
	if (!c->pmudir[0]) {
		const struct pmc_arch_format *f = pmc_arch_core_format(pmc_pmu_core_name());

		for (size_t i = 0; f && i < f->nterms; i++)
			if (!strcasecmp(name, f->terms[i].term))
				return apply_format(c, name, value, f->terms[i].format);
		if (!table_term(c, name, value))
			return 0;
		return unknown_term(c, name);
	}
	snprintf(dir, sizeof(dir), "%s/format", c->pmudir);
	if (!find_ci(dir, name, path, sizeof(path))) {
		if (read_small(path, text, sizeof(text)))
			return pmc_resolve_fail(c->err, PMC_RESOLVE_UNSUPPORTED, -EIO, "cannot read %s", path);
		return apply_format(c, name, value, text);
	}
	snprintf(dir, sizeof(dir), "%s/events", c->pmudir);
	if (!value && c->depth == 0 && !find_ci(dir, name, path, sizeof(path)))
		return apply_alias(c, name, path);
	if (!table_term(c, name, value))
		return 0;
	return unknown_term(c, name);
}

/* Finds the PMU directory and type. 0, or fails into err. */
static int find_pmu(struct term_ctx *c, uint32_t *type)
{
	char text[64];
	char path[1100];
	uint64_t t;

	if (!find_ci(pmc_event_source_dir(), c->pmu, c->pmudir, sizeof(c->pmudir))) {
		snprintf(path, sizeof(path), "%s/type", c->pmudir);
		if (read_small(path, text, sizeof(text)) || pmc_parse_u64(text, 0, UINT32_MAX, &t))
			return pmc_resolve_fail(c->err, PMC_RESOLVE_UNSUPPORTED, -EIO, "'%s': PMU '%s': cannot read %s",
						c->spec, c->pmu, path);
		*type = (uint32_t)t;
		return 0;
	}
	c->pmudir[0] = '\0';
	if (builtin_layout_pmu(c->pmu)) {
		*type = PERF_TYPE_RAW;
		return 0;
	}
	pmc_resolve_fail(c->err, PMC_RESOLVE_UNKNOWN, -ENOENT,
				"unknown PMU '%s' in '%s': the PMUs are the directories of %s",
			 c->pmu, c->spec, pmc_event_source_dir());
	pmc_suggest_dir(pmc_event_source_dir(), c->pmu, "%s/", c->err);
	return -ENOENT;
}

/* The CPU's core PMU, whatever its name (cpu, cpu_core, armv8_pmuv3_0...: the arch seam knows them), gives core
 * events, classed and planned like rNN; every other PMU's events need no core counter. */
static bool is_core_pmu(const char *pmu, const char *pmudir)
{
	const char *base = pmudir[0] ? strrchr(pmudir, '/') + 1 : pmu;

	return pmudir[0] ? pmc_arch_core_pmu(base, pmudir) : builtin_layout_pmu(base);
}

static void classify(struct pmc_event *ev, const char *pmu, const char *pmudir)
{
	const char *base = pmudir[0] ? strrchr(pmudir, '/') + 1 : pmu;

	ev->fixed_index = -1;
	ev->cls = PMC_CLASS_FREE;
	if (is_core_pmu(pmu, pmudir)) {
		pmc_event_raw_plm(&ev->attr);
		pmc_event_classify_core(ev);
	} else if (!strcasecmp(base, "msr") && ev->attr.config == 0 && !ev->attr.config1) {
		ev->flags |= PMC_EVF_TSC;
	}
}

int pmc_sysfs_resolve(const char *spec, struct pmc_event *ev, struct pmc_resolve_error *err)
{
	const char *s1 = strchr(spec, '/');
	const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	struct term_ctx c = { .err = err };
	char pmu[128], terms[PMC_NAME_MAX], why[200];
	uint32_t type = 0;
	int rc;

	if (!s1 || !s2 || strchr(s2 + 1, '/'))
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"'%s': PMU events are written pmu/term=value,.../ (unbalanced '/')", spec);
	if (s1 == spec || (size_t)(s1 - spec) >= sizeof(pmu) || s2 == s1 + 1)
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"'%s': PMU events are written pmu/term=value,.../ (empty PMU or term list)",
					spec);
	memcpy(pmu, spec, (size_t)(s1 - spec));
	pmu[s1 - spec] = '\0';
	for (const char *p = pmu; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
			return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
						"'%s': bad character in PMU name '%s'",
						spec, pmu);
	memcpy(terms, s1 + 1, (size_t)(s2 - s1 - 1));
	terms[s2 - s1 - 1] = '\0';
	/* perf writes the modifiers right after the slash (msr/tsc/u); a colon is accepted too */
	if (s2[1] && pmc_apply_mods(s2 + 1 + (s2[1] == ':'), ev, why, sizeof(why)))
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL, "'%s': after pmu/.../ come perf's modifiers "
					"(u, k, uk, G, H, I, p, S, D): %s", spec, why);
	c.pmu = pmu;
	c.spec = spec;
	rc = find_pmu(&c, &type);
	if (rc)
		return rc;
	rc = pmc_sysfs_terms_parse(terms, term_cb, &c);
	if (rc) {
		if (!err->code)
			pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, rc, "'%s': malformed term list '%s'", spec, terms);
		return rc < 0 ? rc : -EINVAL;
	}
	ev->attr.type = type;
	ev->attr.config = c.cfg[0];
	ev->attr.config1 = c.cfg[1];
	ev->attr.config2 = c.cfg[2];
	classify(ev, pmu, c.pmudir);
	snprintf(ev->canonical, sizeof(ev->canonical), "%s", spec);
	ev->source = c.source;
	return 0;
}
