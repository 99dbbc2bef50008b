/* SPDX-License-Identifier: MIT */
#include "info/evlist.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "info/pattern.h"
#include "sys/sysfs.h"
#include "pmu/event.h"
#include "pmu/pfm_walk.h"
#include "tables/tables.h"
#include "util/util.h"

struct named {
	const char *name, *desc;
};

/* The generic names pmc_event_resolve accepts (src/pmu/event.h). */
/* Descriptions of perf's own names; an alias (cs, faults...) is described as its target (pmc_generic_at). */
static const struct named generic_desc[] = {
	{ "cycles", "CPU cycles while not halted (PERF_COUNT_HW_CPU_CYCLES)" },
	{ "instructions", "instructions retired (PERF_COUNT_HW_INSTRUCTIONS)" },
	{ "ref-cycles", "reference cycles at a constant rate while not halted (PERF_COUNT_HW_REF_CPU_CYCLES)" },
	{ "branches", "branch instructions retired (PERF_COUNT_HW_BRANCH_INSTRUCTIONS)" },
	{ "branch-misses", "mispredicted branches retired (PERF_COUNT_HW_BRANCH_MISSES)" },
	{ "cache-references", "last-level cache references (PERF_COUNT_HW_CACHE_REFERENCES)" },
	{ "cache-misses", "last-level cache misses (PERF_COUNT_HW_CACHE_MISSES)" },
	{ "bus-cycles", "bus cycles (PERF_COUNT_HW_BUS_CYCLES)" },
	{ "stalled-cycles-frontend", "cycles the front end issued nothing (PERF_COUNT_HW_STALLED_CYCLES_FRONTEND)" },
	{ "stalled-cycles-backend", "cycles the back end took nothing (PERF_COUNT_HW_STALLED_CYCLES_BACKEND)" },
	{ "task-clock", "time the task ran, in nanoseconds (PERF_COUNT_SW_TASK_CLOCK)" },
	{ "cpu-clock", "per-CPU high-resolution timer, in nanoseconds (PERF_COUNT_SW_CPU_CLOCK)" },
	{ "page-faults", "page faults (PERF_COUNT_SW_PAGE_FAULTS)" },
	{ "minor-faults", "page faults served without I/O (PERF_COUNT_SW_PAGE_FAULTS_MIN)" },
	{ "major-faults", "page faults that needed I/O (PERF_COUNT_SW_PAGE_FAULTS_MAJ)" },
	{ "context-switches", "context switches (PERF_COUNT_SW_CONTEXT_SWITCHES)" },
	{ "cpu-migrations", "moves of the task to another CPU (PERF_COUNT_SW_CPU_MIGRATIONS)" },
	{ "alignment-faults", "unaligned accesses the kernel fixed up (PERF_COUNT_SW_ALIGNMENT_FAULTS)" },
	{ "emulation-faults", "instructions the kernel emulated (PERF_COUNT_SW_EMULATION_FAULTS)" },
	{ "cgroup-switches", "context switches to a task in another cgroup (PERF_COUNT_SW_CGROUP_SWITCHES, Linux 5.13)" },
};

static const struct named msr_desc[] = {
	{ "tsc", "time-stamp counter: constant rate, counts in every C-state" },
	{ "aperf", "actual performance clock: cycles at the running frequency while in C0" },
	{ "mperf", "maximum performance clock: ticks at the base frequency while in C0" },
	{ "pperf", "productive performance cycles: aperf minus cycles stalled on memory" },
	{ "smi", "system management interrupts taken" },
	{ "irperf", "instructions retired (AMD fixed counter)" },
	{ "cpu_thermal_margin", "degrees below the throttling temperature" },
};

static const char *lookup(const struct named *t, size_t n, const char *name);

struct walk {
	const struct pmc_list_query *q;
	pmc_list_cb cb;
	void *ctx;
	char event[PMC_NAME_MAX], umask[PMC_NAME_MAX]; /* a pattern written as an event (pmc_event_pattern_parts) */
};

int pmc_list_event_attr(const struct pmc_list_event *ev, unsigned i, struct pmc_list_attr *ret)
{
	struct pmc_pfm_attr a;

	if (ev->pfm_idx < 0 || i >= ev->nattrs || pmc_pfm_event_attr(ev->pfm_idx, i, false, &a))
		return -EINVAL;
	*ret = (struct pmc_list_attr){ .name = a.name, .desc = a.desc, .is_dfl = a.is_dfl, .code = a.code };
	ret->type = a.type == PMC_PFM_UMASK ? PMC_LIST_UMASK :
		    a.type == PMC_PFM_MOD_INTEGER ? PMC_LIST_MOD_INTEGER : PMC_LIST_MOD_BOOL;
	return 0;
}

/* Whether one of ev's umasks is accepted by match(arg, name). Matching needs only the names, so libpfm4 is asked
 * without the OS layer (PFM_OS_NONE): each call rebuilds the event's attribute list, and the perf layer's modifiers
 * made that list, and so every lookup while matching, longer. Umasks come first in either list. */
static bool umask_matches(const struct pmc_list_event *ev, bool (*match)(const char *, const char *), const char *arg)
{
	for (unsigned i = 0; i < ev->nattrs; i++) {
		struct pmc_pfm_attr a;

		if (pmc_pfm_event_attr(ev->pfm_idx, i, true, &a))
			continue;
		if (a.type != PMC_PFM_UMASK)
			break; /* past the umasks */
		if (match(arg, a.name))
			return true;
	}
	return false;
}

static bool same_name(const char *a, const char *b)
{
	return !strcasecmp(a, b);
}

static bool selected(const struct walk *w, const struct pmc_list_event *ev)
{
	const char *p = w->q->pattern;

	if (!p || pmc_pattern_match(p, ev->name) || pmc_pattern_match(p, ev->spelling) ||
	    pmc_pattern_match(p, ev->desc))
		return true;
	if (w->event[0] && ev->pfm_idx >= 0) {
		/* EVENT:UMASK or event.umask: this event with that umask */
		if (strcasecmp(w->event, ev->name) && strcasecmp(w->event, ev->spelling))
			return false;
		return !w->umask[0] || umask_matches(ev, same_name, w->umask);
	}
	return ev->pfm_idx >= 0 && umask_matches(ev, pmc_pattern_match, p);
}

static int emit(const struct walk *w, const struct pmc_list_event *ev)
{
	return selected(w, ev) ? w->cb(ev, w->ctx) : 0;
}

/* One libpfm4 PMU's events, spelled bare (the default core PMU's) or with its prefix. */
struct pfm_walk {
	const struct walk *w;
	const struct pmc_pfm_pmu *pmu;
	bool bare;
	bool first_core;               /* walk_default: the next present core PMU is the default one */
};

static int list_pfm_event(const struct pmc_pfm_event *pe, void *ctx)
{
	const struct pfm_walk *pw = ctx;
	char spelling[PMC_NAME_MAX];
	struct pmc_list_event ev;

	snprintf(spelling, sizeof(spelling), "%s%s%s", pw->bare ? "" : pw->pmu->name, pw->bare ? "" : "::", pe->name);
	ev = (struct pmc_list_event){ .pmu = pw->pmu->name, .source = "libpfm4", .name = pe->name,
				      .spelling = spelling, .desc = pe->desc, .pfm_idx = pe->idx, .nattrs = pe->nattrs };
	return emit(pw->w, &ev);
}

static int walk_pfm_pmu(const struct walk *w, const struct pmc_pfm_pmu *pmu, bool bare)
{
	struct pfm_walk pw = { .w = w, .pmu = pmu, .bare = bare };

	return pmc_pfm_walk_events(pmu, list_pfm_event, &pw);
}

/* perf's generic names of one type, aliases included (the resolver's table, so both take the same names). */
static int walk_generic(const struct walk *w, bool software)
{
	const char *name, *canon;
	bool sw;
	char desc[300];

	for (size_t i = 0; !pmc_generic_at(i, &name, &canon, &sw); i++) {
		const char *d = lookup(generic_desc, PMC_ARRAY_SIZE(generic_desc), canon);
		struct pmc_list_event ev = { .pmu = software ? "software" : "hardware", .source = "kernel",
					     .name = name, .spelling = name, .desc = desc, .pfm_idx = -1 };
		int rc;

		if (sw != software)
			continue;
		if (strcmp(name, canon))
			snprintf(desc, sizeof(desc), "perf's alias of %s: %s", canon, d ? d : "");
		else
			snprintf(desc, sizeof(desc), "%s", d ? d : "");
		rc = emit(w, &ev);
		if (rc)
			return rc;
	}
	return 0;
}

/* perf's hardware cache events: CACHE-OP[-misses] (perf's aliases of each part resolve too). */
static int walk_cache(const struct walk *w)
{
	char name[64], desc[200];

	for (size_t i = 0; !pmc_cache_name_at(i, name, sizeof(name)); i++) {
		struct pmc_list_event ev = { .pmu = "cache", .source = "kernel", .name = name, .spelling = name,
					     .desc = desc, .pfm_idx = -1 };
		int rc;

		snprintf(desc, sizeof(desc), "hardware cache event (PERF_TYPE_HW_CACHE): %s", strstr(name, "miss") ?
			 "misses" : "accesses");
		rc = emit(w, &ev);
		if (rc)
			return rc;
	}
	return 0;
}

static int tracepoint_cb(const char *name, void *ctx)
{
	struct pmc_list_event ev = { .pmu = "tracepoint", .source = "tracefs", .name = name, .spelling = name,
				     .desc = "kernel tracepoint (PERF_TYPE_TRACEPOINT)", .pfm_idx = -1 };

	return emit(ctx, &ev);
}

static const char *lookup(const struct named *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return t[i].desc;
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The events/ directory of one sysfs PMU, sorted; .scale/.unit/.snapshot companions skipped. */
static int walk_sysfs_events(const struct walk *w, const char *pmu, const char *cpus)
{
	char dir[600], path[900], spelling[PMC_NAME_MAX], enc[256], desc[512];
	char *names[512];
	size_t n = 0;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%s/events", pmc_sysfs_root(), pmu);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < PMC_ARRAY_SIZE(names))
		if (de->d_name[0] != '.' && !strchr(de->d_name, '.') && (names[n] = strdup(de->d_name)))
			n++;
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (size_t i = 0; i < n; i++) {
		const char *known = !strcmp(pmu, "msr") ? lookup(msr_desc, PMC_ARRAY_SIZE(msr_desc), names[i]) : NULL;
		struct pmc_list_event ev;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (pmc_sysfs_read_line(path, enc, sizeof(enc)))
			enc[0] = '\0';
		snprintf(spelling, sizeof(spelling), "%s/%s/", pmu, names[i]);
		snprintf(desc, sizeof(desc), "%s%s%s", known ? known : "kernel event", enc[0] ? ": " : "", enc);
		ev = (struct pmc_list_event){ .pmu = pmu, .source = "sysfs", .name = names[i], .spelling = spelling,
					      .desc = desc, .encoding = enc, .pfm_idx = -1, .cpus = cpus };
		if (!rc)
			rc = emit(w, &ev);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	return rc;
}

static int walk_sysfs_pmu(const struct walk *w, const struct pmc_sysfs_pmu *p)
{
	char desc[256];
	struct pmc_list_event ev = { .pmu = p->name, .source = "sysfs", .pfm_idx = -1,
				     .cpus = p->is_core && p->cpus[0] ? p->cpus : NULL };

	if (!strcmp(p->name, "software"))
		return 0; /* the generic names above */
	if (!strcmp(p->name, "tracepoint"))
		return pmc_tracepoint_walk(tracepoint_cb, (void *)w);
	if (!strcmp(p->name, "breakpoint")) {
		ev.name = ev.spelling = "mem:ADDR[:x|r|w|rw][/LEN]";
		ev.desc = "hardware breakpoint (debug register): counts executions (x) or accesses of an address exactly";
		return emit(w, &ev);
	}
	if (!strcmp(p->name, "uprobe") || !strcmp(p->name, "kprobe")) {
		snprintf(desc, sizeof(desc), "%s probes (perf_event type %d): define them with perf probe%s; "
			 "not named by pmctool events", p->name[0] == 'u' ? "user-space" : "kernel", p->type,
			 p->name[0] == 'u' ? " -x BINARY FUNC" : " FUNC");
		ev.name = ev.spelling = p->name;
		ev.desc = desc;
		return emit(w, &ev);
	}
	return walk_sysfs_events(w, p->name, ev.cpus);
}

/* The vendor tables that matched this CPU: events (perf's names, their encodings) and metrics (their formulas). */
static int walk_tables(const struct walk *w)
{
	const struct pmc_tables *t = pmc_pmu_tables();
	const struct pmc_tables_report *r;
	const struct pmc_table_event *te;
	const struct pmc_table_metric *tm;
	char source[PMC_NAME_MAX + 16], enc[96], spelling[PMC_NAME_MAX * 2];
	size_t n;
	int rc = 0;

	if (!t || pmc_tables_report(t, &r) || !r->dir)
		return 0;
	snprintf(source, sizeof(source), "vendor table %s", r->dir);
	n = pmc_tables_events(t, &te);
	for (size_t i = 0; i < n && !rc; i++) {
		struct pmc_list_event ev = { .pmu = r->model ? r->model : "tables", .source = source, .name = te[i].name,
					     .spelling = spelling, .desc = te[i].desc ? te[i].desc : "",
					     .encoding = enc, .pfm_idx = -1, .file = te[i].source };

		/* a hybrid table's entry spelled with its core PMU (cpu_core/NAME/) */
		if (te[i].pmu && strcmp(te[i].pmu, "cpu"))
			snprintf(spelling, sizeof(spelling), "%s/%s/", te[i].pmu, te[i].name);
		else
			snprintf(spelling, sizeof(spelling), "%s", te[i].name);
		snprintf(enc, sizeof(enc), "config=%#llx", (unsigned long long)te[i].config);
		if (te[i].config1)
			snprintf(enc + strlen(enc), sizeof(enc) - strlen(enc), ",config1=%#llx",
				 (unsigned long long)te[i].config1);
		rc = emit(w, &ev);
	}
	n = pmc_tables_metrics(t, &tm);
	for (size_t i = 0; i < n && !rc; i++) {
		struct pmc_list_event ev = { .pmu = "metrics", .source = source, .name = tm[i].name,
					     .spelling = tm[i].name, .desc = tm[i].desc ? tm[i].desc : "",
					     .encoding = tm[i].expr, .pfm_idx = -1, .file = tm[i].source, .metric = true };

		rc = emit(w, &ev);
	}
	return rc;
}

/* Each present core PMU of libpfm4's, the first bare. */
static int core_pmu(const struct pmc_pfm_pmu *p, void *ctx)
{
	struct pfm_walk *pw = ctx;
	bool bare = pw->first_core;

	if (!p->present || !p->core)
		return 0;
	pw->first_core = false;
	return walk_pfm_pmu(pw->w, p, bare);
}

static int walk_default(const struct walk *w)
{
	static struct pmc_sysfs_pmu pmus[PMC_SYSFS_MAX_PMUS];
	struct pfm_walk pw = { .w = w, .first_core = true };
	size_t n = 0;
	int rc;

	rc = pmc_pfm_walk_pmus(core_pmu, &pw);
	if (rc)
		return rc;
	rc = walk_tables(w);
	if (!rc)
		rc = walk_generic(w, false);
	if (!rc)
		rc = walk_cache(w);
	if (!rc)
		rc = walk_generic(w, true);
	if (!rc && !pmc_sysfs_scan_pmus(pmus, PMC_ARRAY_SIZE(pmus), &n))
		for (size_t i = 0; i < n && !rc; i++)
			rc = walk_sysfs_pmu(w, &pmus[i]);
	return rc;
}

/* The libpfm4 PMU name closest to name (edit distance below best_d). */
struct nearest {
	const char *name, *best;
	unsigned best_d;
};

static int nearer(const struct pmc_pfm_pmu *p, void *ctx)
{
	struct nearest *n = ctx;
	unsigned d = pmc_edit_distance(n->name, p->name, n->best_d);

	if (d < n->best_d) {
		n->best = p->name;
		n->best_d = d;
	}
	return 0;
}

/* The closest PMU name to a misspelt one, for the error message. */
static void suggest(const char *name, char *err, size_t errlen)
{
	static struct pmc_sysfs_pmu pmus[PMC_SYSFS_MAX_PMUS];
	struct nearest near = { .name = name, .best_d = 4 };
	const char *best;
	unsigned best_d;
	size_t n = 0;

	pmc_pfm_walk_pmus(nearer, &near);
	best = near.best;
	best_d = near.best_d;
	if (!pmc_sysfs_scan_pmus(pmus, PMC_ARRAY_SIZE(pmus), &n))
		for (size_t i = 0; i < n; i++) {
			unsigned d = pmc_edit_distance(name, pmus[i].name, best_d);
			if (d < best_d) {
				best = pmus[i].name;
				best_d = d;
			}
		}
	const char *forced = getenv("LIBPFM_FORCE_PMU");

	if (forced && *forced) {
		/* libpfm4 loads only the forced table: every other PMU is unknown to it. */
		snprintf(err, errlen, "no PMU named '%s': LIBPFM_FORCE_PMU=%s loads only that libpfm4 table; unset it "
			 "to list other libpfm4 PMUs", name, forced);
		return;
	}
	snprintf(err, errlen, "no PMU named '%s'%s%s%s; 'pmctool info' lists the detected ones, and any libpfm4 PMU "
		 "(hsw, skl, icx, amd64_fam19h_zen3...) or kernel PMU name works", name, best ? " (did you mean '" : "",
		 best ? best : "", best ? "'?)" : "");
}

/* The libpfm4 PMU called name (any case): stops the walk with it. */
struct named_pmu {
	const char *name;
	struct pmc_pfm_pmu pmu;
};

static int named_pmu(const struct pmc_pfm_pmu *p, void *ctx)
{
	struct named_pmu *np = ctx;

	if (strcasecmp(p->name, np->name))
		return 0;
	np->pmu = *p;
	return 1;
}

static int walk_named(const struct walk *w, const char *name, char *err, size_t errlen)
{
	static struct pmc_sysfs_pmu pmus[PMC_SYSFS_MAX_PMUS];
	struct named_pmu np = { .name = name };
	struct pmc_pfm_pmu core;
	size_t n = 0;

	if (pmc_pfm_walk_pmus(named_pmu, &np)) /* bare names only for the default core PMU: others need pmu:: */
		return walk_pfm_pmu(w, &np.pmu, np.pmu.present && !pmc_pfm_default_core(&core) && core.id == np.pmu.id);
	if (!strcasecmp(name, "tables"))
		return walk_tables(w);
	if (!strcasecmp(name, "hardware"))
		return walk_generic(w, false);
	if (!strcasecmp(name, "cache"))
		return walk_cache(w);
	if (!strcasecmp(name, "software"))
		return walk_generic(w, true);
	if (!pmc_sysfs_scan_pmus(pmus, PMC_ARRAY_SIZE(pmus), &n))
		for (size_t i = 0; i < n; i++)
			if (!strcmp(pmus[i].name, name))
				return walk_sysfs_pmu(w, &pmus[i]);
	if (!getenv("LIBPFM_FORCE_PMU") && pmc_pmu_name_check(name, err, errlen) == -ENOENT) {
		size_t len = strlen(err);

		snprintf(err + len, errlen - len, "; or a kernel PMU ('pmctool info'), 'hardware', 'cache' or 'software'");
		return -ENOENT;
	}
	suggest(name, err, errlen);
	return -ENOENT;
}

int pmc_list_events(const struct pmc_list_query *q, pmc_list_cb cb, void *ctx, char *err, size_t errlen)
{
	struct walk w = { .q = q, .cb = cb, .ctx = ctx };

	if (err && errlen)
		err[0] = '\0';
	if (pmc_pfm_walk_init()) {
		snprintf(err, errlen, "libpfm4 failed to initialize: no event tables available");
		return -ENODEV;
	}
	if (q->pattern)
		pmc_event_pattern_parts(q->pattern, w.event, w.umask, sizeof(w.event));
	return q->pmu ? walk_named(&w, q->pmu, err, errlen) : walk_default(&w);
}
