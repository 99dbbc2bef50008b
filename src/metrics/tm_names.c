/* SPDX-License-Identifier: MIT */
/* Metrics from the vendor tables, the machine's side: the values of perf's '#' literals, the spellings pmctool tries
 * for a table's event name, and the resolver that tries them on this machine. */
#include "metrics/tmetrics.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "arch/arch.h"
#include "metrics/tm_internal.h"
#include "metrics/topdown.h"
#include "pmu/event.h"
#include "pmu/uncore.h"
#include "sys/sysfs.h"
#include "util/util.h"

/* ---- the machine's literals ---- */

static const char *const literal_names[PMC_TM_LITERALS] = {
	"#smt_on", "#core_wide", "#num_cpus", "#num_cpus_online", "#num_cores", "#num_dies", "#num_packages", "#slots",
	"#system_tsc_freq",
};

int pmc_tm_literal_set(struct pmc_tm_literals *lits, const char *name, double value, const char *source)
{
	for (size_t i = 0; i < PMC_TM_LITERALS; i++) {
		if (strcasecmp(literal_names[i], name))
			continue;
		lits->l[i].name = literal_names[i];
		lits->l[i].known = true;
		lits->l[i].value = value;
		snprintf(lits->l[i].source, sizeof(lits->l[i].source), "%s", source);
		return 0;
	}
	return -ENOENT;
}

void pmc_tm_literals_init(struct pmc_tm_literals *ret, const char *why)
{
	memset(ret, 0, sizeof(*ret));
	for (size_t i = 0; i < PMC_TM_LITERALS; i++) {
		ret->l[i].name = literal_names[i];
		snprintf(ret->l[i].source, sizeof(ret->l[i].source), "%s", why);
	}
}

void pmc_tm_literal_unknown(struct pmc_tm_literals *lits, const char *name, const char *why)
{
	for (size_t i = 0; i < PMC_TM_LITERALS; i++)
		if (!strcmp(literal_names[i], name) && !lits->l[i].known)
			snprintf(lits->l[i].source, sizeof(lits->l[i].source), "%s", why);
}

/* The distinct values of one topology file over the online CPUs (physical_package_id, die_id, core_id pairs). */
static int count_distinct(const char *file, bool per_package, unsigned *ret)
{
	char path[600], list[4096];
	unsigned n = 0;
	long seen[1024][2];
	unsigned nseen = 0;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", pmc_sysfs_root());
	if (pmc_sysfs_read_line(path, list, sizeof(list)) < 0)
		return -ENOENT;
	for (int cpu = 0; cpu < 8192 && nseen < 1024; cpu++) {
		long v, pkg = 0;
		bool dup = false;

		if (!pmc_cpulist_has(list, cpu))
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", pmc_sysfs_root(), cpu, file);
		if (pmc_sysfs_read_long(path, &v) < 0)
			return -ENOENT;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/physical_package_id",
			 pmc_sysfs_root(), cpu);
		if (per_package && pmc_sysfs_read_long(path, &pkg) < 0)
			return -ENOENT;
		for (unsigned k = 0; k < nseen && !dup; k++)
			dup = seen[k][0] == v && seen[k][1] == pkg;
		if (!dup) {
			seen[nseen][0] = v;
			seen[nseen++][1] = pkg;
			n++;
		}
	}
	*ret = n;
	return n ? 0 : -ENOENT;
}

struct sibling_ctx {
	const int *cpu;
	size_t n;
};

/* Each CPU a..b of a core is among -C's; returns 1 (stop) at one that is not. */
static int sibling_missing(long a, long b, void *vctx)
{
	const struct sibling_ctx *c = vctx;

	for (long x = a; x <= b; x++) {
		bool in = false;

		for (size_t k = 0; k < c->n && !in; k++)
			in = c->cpu[k] == x;
		if (!in)
			return 1;
	}
	return 0;
}

/* -C's CPUs hold every SMT sibling of each core they touch (perf's cpu_topology__core_wide). 1, 0, or -1: the
 * topology cannot be read. */
static int cpus_whole_cores(const int *cpu, size_t n)
{
	struct sibling_ctx c = { cpu, n };
	char list[1024];
	unsigned count;

	for (size_t i = 0; i < n; i++) {
		int r;

		if (pmc_sysfs_smt_siblings(cpu[i], list, sizeof(list), &count))
			return -1;
		r = pmc_cpulist_ranges(list, sibling_missing, &c);
		if (r < 0)
			return -1;
		if (r)
			return 0;
	}
	return 1;
}

static void core_wide(struct pmc_tm_literals *ret, int smt, const struct pmc_tm_scope *scope)
{
	int whole;

	if (!scope || !scope->cpus) {
		pmc_tm_literal_set(ret, "#core_wide", 0, "per thread: a command or task is counted, not its core");
		return;
	}
	if (smt < 0)
		return;
	if (!smt) {
		pmc_tm_literal_set(ret, "#core_wide", 1, "CPUs counted with SMT off: each core is one thread");
		return;
	}
	if (!scope->ncpu) {
		pmc_tm_literal_set(ret, "#core_wide", 1, "-a with SMT on: every thread of each core is counted");
		return;
	}
	whole = cpus_whole_cores(scope->cpu, scope->ncpu);
	if (whole >= 0)
		pmc_tm_literal_set(ret, "#core_wide", whole, whole ? "-C lists every SMT sibling of its cores"
				   : "-C leaves out an SMT sibling of a core it counts");
	else
		pmc_tm_literal_unknown(ret, "#core_wide", "-C's cores: the SMT siblings cannot be read (topology)");
}

void pmc_tm_literals_read(struct pmc_tm_literals *ret, const struct pmc_tm_scope *scope)
{
	char path[600], dir[512], list[4096];
	unsigned n;
	long v;
	double hz;
	const char *src;
	int smt = pmc_sysfs_smt_active();

	pmc_tm_literals_init(ret, "not known on this machine");
	if (smt >= 0)
		pmc_tm_literal_set(ret, "#smt_on", smt > 0, "this machine: /sys/devices/system/cpu/smt/active");
	core_wide(ret, smt, scope);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/possible", pmc_sysfs_root());
	if (pmc_sysfs_read_line(path, list, sizeof(list)) == 0 && pmc_cpulist_count(list, &n) == 0)
		pmc_tm_literal_set(ret, "#num_cpus", n, "this machine: /sys/devices/system/cpu/possible");
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", pmc_sysfs_root());
	if (pmc_sysfs_read_line(path, list, sizeof(list)) == 0 && pmc_cpulist_count(list, &n) == 0)
		pmc_tm_literal_set(ret, "#num_cpus_online", n, "this machine: /sys/devices/system/cpu/online");
	if (count_distinct("core_id", true, &n) == 0)
		pmc_tm_literal_set(ret, "#num_cores", n, "this machine: topology core_id per package");
	if (count_distinct("die_id", true, &n) == 0)
		pmc_tm_literal_set(ret, "#num_dies", n, "this machine: topology die_id per package");
	if (count_distinct("physical_package_id", false, &n) == 0)
		pmc_tm_literal_set(ret, "#num_packages", n, "this machine: topology physical_package_id");
	if (pmc_arch_core_pmu_dir(dir, sizeof(dir)) == 0) {
		snprintf(path, sizeof(path), "%s/caps/slots", dir);
		if (pmc_sysfs_read_long(path, &v) == 0 && v > 0)
			pmc_tm_literal_set(ret, "#slots", (double)v, "this machine: the core PMU's caps/slots");
		else
			pmc_tm_literal_unknown(ret, "#slots", "the core PMU has no caps/slots here");
	} else {
		pmc_tm_literal_unknown(ret, "#slots", "no core PMU here (no caps/slots)");
	}
	if (pmc_arch_tsc_hz(&hz, &src) == 0 && hz > 0)
		pmc_tm_literal_set(ret, "#system_tsc_freq", hz, "this machine's TSC rate");
	else
		pmc_tm_literal_unknown(ret, "#system_tsc_freq", "no TSC rate on this machine");
}

const struct pmc_tm_literal *pmc_tm_literal_find(const struct pmc_tm_literals *lits, const char *name)
{
	for (size_t i = 0; i < PMC_TM_LITERALS; i++)
		if (lits->l[i].name && !strcasecmp(lits->l[i].name, name))
			return &lits->l[i];
	return NULL;
}

/* ---- event names ---- */

/* perfmon's PERF_METRICS fields as perf names them (the slots-scaled topdown pseudo-events). */
static const struct { const char *perfmon, *perf; } perf_metrics[] = {
	{ "PERF_METRICS.FRONTEND_BOUND", "topdown-fe-bound" }, { "PERF_METRICS.BAD_SPECULATION", "topdown-bad-spec" },
	{ "PERF_METRICS.RETIRING", "topdown-retiring" }, { "PERF_METRICS.BACKEND_BOUND", "topdown-be-bound" },
	{ "PERF_METRICS.HEAVY_OPERATIONS", "topdown-heavy-ops" },
	{ "PERF_METRICS.BRANCH_MISPREDICTS", "topdown-br-mispredict" },
	{ "PERF_METRICS.FETCH_LATENCY", "topdown-fetch-lat" }, { "PERF_METRICS.MEMORY_BOUND", "topdown-mem-bound" },
};


struct spelling {
	char pmu[48];                 /* "cpu", "cpu_core", "" */
	char event[PMC_TM_SPEC_MAX];         /* the event name, or "" when the terms alone say it (event=0x3c,umask=0) */
	char terms[PMC_TM_SPEC_MAX];         /* perf's terms after the event, "cmask=1,edge" */
	char pfm[PMC_TM_SPEC_MAX];           /* the same as libpfm4 modifiers, ":c=1:e=1" */
	char mods[8];                 /* "u", "k" */
	bool unsupported;             /* a perfmon modifier pmctool cannot express (":u0x80": another umask) */
	bool overrides;               /* a perf term libpfm4 has no modifier for (umask=, ldlat=): only the
	                               * PMU spelling cpu/EVENT,terms/ applies it over the event's own bits */
};

static void append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* One term or modifier: perf's (cmask=1, edge, inv, any, k, u) or perfmon's (c1, e1, i1, SUP, USER). */
static void take_term(struct spelling *s, const char *w, bool perfmon_mod)
{
	const char *eq = strchr(w, '=');
	char key[32];
	size_t kl = eq ? (size_t)(eq - w) : strlen(w);
	const char *val = eq ? eq + 1 : "1";

	snprintf(key, sizeof(key), "%.*s", (int)PMC_MIN(kl, sizeof(key) - 1), w);
	if (!*w)
		return;
	if (perfmon_mod && (key[0] == 'c' || key[0] == 'e' || key[0] == 'i') && isdigit((unsigned char)key[1])) {
		snprintf(key + 1, sizeof(key) - 1, "%s", "");
		val = w + 1;
	}
	if (!strcasecmp(key, "perf_metrics") || !strcasecmp(key, "percore"))
		return; /* perfmon's notes on how the event is read: nothing to encode */
	if (!strcasecmp(key, "SUP") || !strcmp(key, "k")) {
		snprintf(s->mods, sizeof(s->mods), "k");
	} else if (!strcasecmp(key, "USER") || !strcmp(key, "u")) {
		snprintf(s->mods, sizeof(s->mods), "u");
	} else if (!strcasecmp(key, "cmask") || !strcmp(key, "c")) {
		append(s->terms, sizeof(s->terms), "%scmask=%s", s->terms[0] ? "," : "", val);
		append(s->pfm, sizeof(s->pfm), ":c=%s", val);
	} else if (!strcasecmp(key, "edge") || !strcmp(key, "e")) {
		append(s->terms, sizeof(s->terms), "%sedge", s->terms[0] ? "," : "");
		append(s->pfm, sizeof(s->pfm), ":e=%s", strcmp(val, "0") ? "1" : "0");
	} else if (!strcasecmp(key, "inv") || !strcmp(key, "i")) {
		append(s->terms, sizeof(s->terms), "%sinv", s->terms[0] ? "," : "");
		append(s->pfm, sizeof(s->pfm), ":i=%s", strcmp(val, "0") ? "1" : "0");
	} else if (!strcasecmp(key, "any")) {
		append(s->terms, sizeof(s->terms), "%sany", s->terms[0] ? "," : "");
		append(s->pfm, sizeof(s->pfm), ":t=1");
	} else if (!perfmon_mod) {
		append(s->terms, sizeof(s->terms), "%s%s", s->terms[0] ? "," : "", w);
		s->unsupported |= !eq; /* a flag pmctool has no libpfm4 spelling for */
		s->overrides = true;
	} else {
		s->unsupported = true;
	}
}

/* Split a table's event name: PMU@EVENT,terms@mods (perf), EVENT:mod:mod (perf's :k, perfmon's :c1:e1:SUP). */
static void split_name(const char *name, struct spelling *s)
{
	const char *at = strchr(name, '@');
	char body[PMC_TM_SPEC_MAX], *save = NULL, *w;

	memset(s, 0, sizeof(*s));
	if (at && strchr(at + 1, '@')) {
		const char *end = strchr(at + 1, '@');

		snprintf(s->pmu, sizeof(s->pmu), "%.*s", (int)PMC_MIN((size_t)(at - name), sizeof(s->pmu) - 1), name);
		snprintf(body, sizeof(body), "%.*s", (int)PMC_MIN((size_t)(end - at - 1), sizeof(body) - 1), at + 1);
		for (const char *m = end + 1; *m; m++) {
			char one[2] = { *m, 0 };
			take_term(s, one, false);
		}
		w = strtok_r(body, ",", &save);
		if (w && !strchr(w, '='))
			snprintf(s->event, sizeof(s->event), "%s", w);
		else if (w)
			take_term(s, w, false);
		while ((w = strtok_r(NULL, ",", &save)))
			take_term(s, w, false);
		return;
	}
	snprintf(body, sizeof(body), "%s", name);
	w = strtok_r(body, ":", &save);
	snprintf(s->event, sizeof(s->event), "%s", w ? w : "");
	while ((w = strtok_r(NULL, ":", &save)))
		take_term(s, w, true);
}

/* One more spelling into out[*n], unless it does not fit an event name (then it is no candidate). */
static void cand(char out[][PMC_TM_SPEC_MAX], size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void cand(char out[][PMC_TM_SPEC_MAX], size_t *n, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*n >= PMC_TM_CAND_MAX)
		return;
	va_start(ap, fmt);
	r = vsnprintf(out[*n], PMC_TM_SPEC_MAX, fmt, ap);
	va_end(ap);
	if (r > 0 && r < PMC_TM_SPEC_MAX)
		(*n)++;
}

size_t pmc_tm_candidates(const char *name, char out[PMC_TM_CAND_MAX][PMC_TM_SPEC_MAX])
{
	struct spelling s;
	size_t n = 0;
	const char *ev;

	split_name(name, &s);
	ev = s.event;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(perf_metrics); i++)
		if (!strcasecmp(ev, perf_metrics[i].perfmon))
			ev = perf_metrics[i].perf;
	if (!strcasecmp(ev, "TSC") && !s.terms[0])
		ev = "msr/tsc/";
	if (!strcasecmp(s.pmu, "msr") || !strcasecmp(s.pmu, "power") || !strncasecmp(s.pmu, "cstate", 6)) {
		cand(out, &n, "%s/%s/", s.pmu, ev);
		return n;
	}
	if (!ev[0]) { /* terms alone: perf's PMU/terms/ */
		if (s.terms[0])
			cand(out, &n, "%s/%s/%s", s.pmu[0] ? s.pmu : "cpu", s.terms, s.mods);
		return n;
	}
	if (!s.unsupported) {
		/* EVENT alone would open the event's own umask (IpSWPF's SW_PREFETCH_ACCESS.T0 with umask=0xF) */
		if (!s.overrides)
			cand(out, &n, "%s%s%s%s", ev, s.pfm, s.mods[0] ? ":" : "", s.mods);
		if (s.pmu[0] || s.terms[0])
			cand(out, &n, "%s/%s%s%s/%s", s.pmu[0] ? s.pmu : "cpu", ev, s.terms[0] ? "," : "",
				 s.terms, s.mods);
	}
	/* libpfm4's spelling of a dotted name: EVENT:UMASK, the umask's own dots as '_'
	 * (idq_uops_not_delivered.cycles_0_uops_deliv.core is IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE) */
	if (!s.unsupported && !s.overrides && strchr(ev, '.') && !strchr(ev, '/')) {
		char pfm[PMC_TM_SPEC_MAX];
		char *dot;

		snprintf(pfm, sizeof(pfm), "%s", ev);
		dot = strchr(pfm, '.');
		*dot = ':';
		for (char *q = dot; *q; q++) {
			*q = (char)toupper((unsigned char)*q);
			if (*q == '.')
				*q = '_';
		}
		for (char *q = pfm; q < dot; q++)
			*q = (char)toupper((unsigned char)*q);
		cand(out, &n, "%s%s%s%s", pfm, s.pfm, s.mods[0] ? ":" : "", s.mods);
	}
	/* pmctool's top-down inputs know the raw code of perf's pseudo-events (topdown-fe-bound, slots) */
	for (size_t t = 0; t < pmc_td_tree_count() && n < PMC_TM_CAND_MAX && !s.terms[0] && !s.mods[0]; t++) {
		const struct pmc_td_tree *tree = pmc_td_tree_at(t);

		for (size_t i = 0; i < tree->ninputs && n < PMC_TM_CAND_MAX; i++) {
			const struct pmc_td_input *in = &tree->inputs[i];
			bool dup = false;

			if (!in->perf || !in->raw || !strchr(in->raw, '=') || strcasecmp(in->perf, ev))
				continue;
			for (size_t k = 0; k < n; k++)
				dup |= strstr(out[k], in->raw) != NULL;
			if (!dup)
				cand(out, &n, "%s/%s/", s.pmu[0] ? s.pmu : "cpu", in->raw);
		}
	}
	return n;
}

int pmc_tm_resolve_here(const char *spec, void *ctx, char *why, size_t len)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;
	int r;

	(void)ctx;
	memset(&err, 0, sizeof(err));
	r = pmc_event_resolve(spec, &ev, &err);
	/* perf's family spelling of an uncore event (uncore_imc/cas_count_read/, or the bare alias word), or a table's
	 * uncore event name: the engine opens it once per box and sums them (engine/uncore.c) */
	if (r && pmc_uncore_resolve(spec, &ev, NULL, 0) >= 0)
		return 0;
	if (r && err.code == PMC_RESOLVE_UNKNOWN && !pmc_pmu_core_name()) {
		/* no libpfm4 table for this CPU (libpfm4 4.13 on Zen 5), and the tables' own encodings lack it */
		snprintf(why, len, "named by neither libpfm4 nor the vendor tables");
		return PMC_TM_UNNAMED;
	}
	if (r)
		snprintf(why, len, "%.190s", err.msg[0] ? err.msg : "it does not resolve");
	return r;
}
