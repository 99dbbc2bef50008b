/* SPDX-License-Identifier: MIT */
/* The standalone report as JSON: one pmctool stat report (schema/pmctool-report.schema.json, kind "stat", mode
 * "standalone") whose regions block is the one `pmctool stat --regions --json` writes, so that pmctool merge reads the
 * reports of the ranks of a job like any other. What the library does not measure is said, never made up: the whole
 * program's events are "not counted" (only the regions are), the TSC is unknown (null); the wall time is the library's
 * own (from its start to the report), user and system times the process's (getrusage). */
#include "regions/lib/rg_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <linux/hw_breakpoint.h>

#include "config.h"
#include "util/json_write.h"
#include "util/path_template.h"

#define NOT_COUNTED_WHY "libpmctool standalone counts the regions only (pmctool stat --regions counts the whole program too)"

/* The command line from /proc/self/cmdline (arguments joined with spaces), else the program's name. */
static void workload(struct pmc_jw *w)
{
	char buf[512];
	ssize_t n = -1;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n <= 0) {
		pmc_jw_kstr(w, "workload", program_invocation_name);
		return;
	}
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	pmc_jw_kstr(w, "workload", buf);
}

static void origin(struct pmc_jw *w)
{
	struct pmc_origin o;

	pmc_origin_get(&o);
	pmc_jw_kobject_begin(w, "origin");
	pmc_jw_kstr(w, "host", o.host);
	pmc_jw_kint(w, "pid", o.pid);
	pmc_jw_kint_if(w, "rank", o.rank >= 0, o.rank);
	pmc_jw_kstr_or_null(w, "rank_from", o.rank_from);
	pmc_jw_kstr_or_null(w, "job", o.job);
	pmc_jw_object_end(w);
}

static uint64_t ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/* runs, executions, the exit and the times: one execution, the process itself. */
static void run_part(struct pmc_jw *w)
{
	struct timespec now;
	struct rusage ru;
	uint64_t wall, user = 0, sys = 0;
	/* Unknown (-1) when the program called pmctool_regions_finish() before its exit, or without glibc's on_exit:
	 * nothing had failed by the report, and ended_by says the status is not in it. */
	int st = pmc_rg.exit_status < 0 ? 0 : pmc_rg.exit_status;
	const char *state = st ? "failed" : "ok";
	char what[128];

	clock_gettime(CLOCK_MONOTONIC, &now);
	wall = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec - pmc_rg.start_ns;
	if (!getrusage(RUSAGE_SELF, &ru)) {
		user = ns(&ru.ru_utime);
		sys = ns(&ru.ru_stime);
	}
	snprintf(what, sizeof(what), "process %d (counted by itself: libpmctool standalone)", (int)getpid());
	pmc_jw_kstr(w, "mode", "standalone");
	pmc_jw_kint(w, "batches", 1);
	pmc_jw_kobject_begin(w, "target");
	pmc_jw_kstr(w, "kind", "self");
	pmc_jw_kstr(w, "description", what);
	pmc_jw_kstr(w, "aggregation", "none");
	pmc_jw_kstr(w, "ended_by", pmc_rg.exit_status >= 0 ? "the program exited" :
		    "the report was written before the program's exit (its exit status is not in it)");
	pmc_jw_knull(w, "interval_ms");
	pmc_jw_kint(w, "intervals", 0);
	pmc_jw_object_end(w);
	snprintf(what, sizeof(what), "%s runs", state);
	pmc_jw_kobject_begin(w, "runs");
	pmc_jw_kint(w, "count", 1);
	pmc_jw_kint(w, "ok", !st);
	pmc_jw_kint(w, "failed", !!st);
	pmc_jw_kint(w, "partial", 0);
	pmc_jw_kint(w, "used", 1);
	pmc_jw_kstr(w, "statistics_over", what);
	pmc_jw_object_end(w);
	pmc_jw_karray_begin(w, "executions");
	pmc_jw_object_begin(w);
	pmc_jw_kint(w, "run", 1);
	pmc_jw_kint(w, "batch", 1);
	pmc_jw_kstr(w, "state", state);
	pmc_jw_kbool(w, "used", true);
	pmc_jw_kint(w, "exit_status", st);
	pmc_jw_knull(w, "signal");
	pmc_jw_kbool(w, "interrupted", false);
	pmc_jw_kuint(w, "wall_ns", wall);
	pmc_jw_kuint(w, "user_ns", user);
	pmc_jw_kuint(w, "sys_ns", sys);
	pmc_jw_object_end(w);
	pmc_jw_array_end(w);
	pmc_jw_kbool(w, "partial", false);
	pmc_jw_kint(w, "exit_status", st);
	pmc_jw_knull(w, "signal");
	pmc_jw_kobject_begin(w, "wall_ns");
	pmc_jw_kuint(w, "mean", wall);
	pmc_jw_kuint(w, "min", wall);
	pmc_jw_kuint(w, "max", wall);
	pmc_jw_object_end(w);
	pmc_jw_kuint(w, "user_ns", user);
	pmc_jw_kuint(w, "sys_ns", sys);
	pmc_jw_knull(w, "tsc_hz");
	pmc_jw_knull(w, "tsc_source");
	pmc_jw_kobject_begin(w, "constants");
	pmc_jw_object_end(w);
}

static const char *bp_letters(uint32_t t)
{
	return t == HW_BREAKPOINT_X ? "x" : t == HW_BREAKPOINT_R ? "r" : t == HW_BREAKPOINT_W ? "w" : "rw";
}

static void hex_member(struct pmc_jw *w, const char *key, unsigned long long v)
{
	char hex[24];

	snprintf(hex, sizeof(hex), "0x%llx", v);
	pmc_jw_kstr(w, key, hex);
}

/* One event as pmctool's report lists it: its encoding (the class of a hardware event is "programmable": the
 * library does not know which counter the kernel gives it), not counted over the whole program. */
static void event(struct pmc_jw *w, int i)
{
	/* the statistics a report has for a counted event, null here */
	static const char *const nulls[] = { "mean", "median", "stddev", "min", "max", "running_pct",
					     "batch_spread_pct", "core_pmu", "core_share_pct", "merged_from" };
	static const char *const scope_nulls[] = { "label", "cpu", "core", "die", "socket", "pid", "tid", "comm" };
	const struct perf_event_attr *a = &pmc_rg.attr[i];
	const char *name = pmc_rg.evname[i];
	char canon[96], perf[96];
	bool bp = a->type == PERF_TYPE_BREAKPOINT, sw = a->type == PERF_TYPE_SOFTWARE;

	snprintf(canon, sizeof(canon), "%s", name);
	snprintf(perf, sizeof(perf), "%s", name[0] == '@' ? "" : name);
	if (bp) {
		snprintf(canon, sizeof(canon), "mem:0x%llx:%s/%llu", (unsigned long long)a->bp_addr,
			 bp_letters(a->bp_type), (unsigned long long)a->bp_len);
		snprintf(perf, sizeof(perf), "mem:0x%llx/%llu:%s", (unsigned long long)a->bp_addr,
			 (unsigned long long)a->bp_len, bp_letters(a->bp_type));
	}
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", name);
	pmc_jw_kstr(w, "canonical", canon);
	pmc_jw_kuint(w, "type", a->type);
	hex_member(w, "config", a->config);
	hex_member(w, "config1", a->config1);
	hex_member(w, "config2", a->config2);
	pmc_jw_kbool(w, "exclude_user", a->exclude_user);
	pmc_jw_kbool(w, "exclude_kernel", a->exclude_kernel);
	pmc_jw_kbool(w, "exclude_hv", a->exclude_hv);
	pmc_jw_kstr(w, "class", bp ? "breakpoint" : sw ? "software" : "programmable");
	pmc_jw_knull(w, "fixed_index");
	pmc_jw_kstr_or_null(w, "perf", perf);
	pmc_jw_kbool(w, "anchor", false);
	pmc_jw_kbool(w, "every_batch", true);
	pmc_jw_knull(w, "batch");
	pmc_jw_kstr_or_null(w, "unit",
			    sw && (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK) ? "ns" : NULL);
	pmc_jw_kstr(w, "status", "not counted");
	pmc_jw_kstr(w, "reason", NOT_COUNTED_WHY);
	pmc_jw_kint(w, "n", 0);
	for (size_t k = 0; k < sizeof(nulls) / sizeof(nulls[0]); k++)
		pmc_jw_knull(w, nulls[k]);
	pmc_jw_kobject_begin(w, "scope");
	pmc_jw_kstr(w, "kind", "all");
	for (size_t k = 0; k < sizeof(scope_nulls) / sizeof(scope_nulls[0]); k++)
		pmc_jw_knull(w, scope_nulls[k]);
	pmc_jw_object_end(w);
	pmc_jw_karray_begin(w, "samples");
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

/* ",KEY:[{"event":NAME,"value":V...}...]" per event: v[i], or null where have[i] is false; with executions, how
 * many executions counted it (1 or 0); with cost, the markers' share (overhead_pct: calls x cost / value, as pmctool's
 * collector computes it). */
static void event_values(struct pmc_jw *w, const char *key, const uint64_t *v, const bool *have, bool executions,
			 uint64_t calls, const uint64_t *cost, const bool *have_cost)
{
	pmc_jw_karray_begin(w, key);
	for (int i = 0; i < pmc_rg.nev; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "event", pmc_rg.evname[i]);
		pmc_jw_kuint_if(w, "value", have[i], v[i]);
		if (executions)
			pmc_jw_kint(w, "executions", have[i]);
		if (cost && have[i] && have_cost[i] && v[i] > 0 && calls > 0)
			pmc_jw_kprec(w, "overhead_pct", 17, 100.0 * (double)calls * (double)cost[i] / (double)v[i]);
		else if (cost)
			pmc_jw_knull(w, "overhead_pct");
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
}

static unsigned not_left(unsigned r)
{
	unsigned n = 0;

	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next)
		for (unsigned d = 0; d < pmc_rg_depth(t); d++)
			n += RG_KEY_REGION(t->stack[d].key) == (int)r;
	return n;
}

static void region(struct pmc_jw *w, unsigned r, const uint64_t *cost, const bool *have_cost)
{
	uint64_t sum[1 + RG_EV];
	bool have[RG_EV];

	pmc_rg_region_all(r, sum, have);
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", pmc_rg_region_name(r));
	pmc_jw_kuint(w, "calls", sum[0]);
	pmc_jw_karray_begin(w, "calls_per_execution");
	pmc_jw_uint(w, sum[0]);
	pmc_jw_array_end(w);
	pmc_jw_kuint(w, "not_left", not_left(r));
	event_values(w, "counts", sum + 1, have, true, sum[0], cost, have_cost);
	pmc_jw_karray_begin(w, "metrics");
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "threads");
	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
		uint64_t row[1 + RG_EV];
		bool th[RG_EV];
		char ord[16];

		pmc_rg_row(t, r, row);
		if (!row[0])
			continue;
		for (int i = 0; i < t->nev; i++)
			th[i] = !t->err[i];
		snprintf(ord, sizeof(ord), "%u", t->ordinal);
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "thread", ord);
		pmc_jw_kuint(w, "calls", row[0]);
		event_values(w, "counts", row + 1, th, true, row[0], NULL, NULL);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

static void regions(struct pmc_jw *w)
{
	uint64_t cost[RG_EV], top[RG_EV] = { 0 }, unmatched = 0, invalid = 0, deep = 0, refused = pmc_rg_refused_early();
	bool have[RG_EV] = { false };

	for (int i = 0; i < pmc_rg.nev; i++)
		cost[i] = UINT64_MAX;
	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
		uint64_t tt[RG_EV];

		unmatched += t->unmatched;
		invalid += t->invalid;
		deep += t->deep_ignored;
		refused += t->refused;
		pmc_rg_top(t, tt);
		for (int i = 0; i < t->nev; i++) {
			if (t->err[i])
				continue;
			have[i] = true;
			top[i] += tt[i];
			if (t->cost[i] < cost[i])
				cost[i] = t->cost[i];
		}
	}
	pmc_jw_kobject_begin(w, "regions");
	pmc_jw_kstr(w, "read", pmc_rg_read_method_all());
	pmc_jw_kint(w, "executions", 1);
	pmc_jw_kint(w, "silent_executions", 0);
	pmc_jw_kint(w, "cut_blocks", 0);
	pmc_jw_kint(w, "processes_max", 1);
	pmc_jw_kobject_begin(w, "misuse");
	pmc_jw_kuint(w, "unmatched_leaves", unmatched);
	pmc_jw_kuint(w, "invalid_handles", invalid);
	pmc_jw_kuint(w, "too_deep", deep);
	pmc_jw_kuint(w, "refused_names", pmc_rg_bad_names());
	pmc_jw_kuint(w, "refused_calls", refused);
	pmc_jw_object_end(w);
	event_values(w, "pair_cost", cost, have, false, 0, NULL, NULL);
	event_values(w, "top_level", top, have, false, 0, NULL, NULL);
	pmc_jw_karray_begin(w, "list");
	for (unsigned r = 0; r < pmc_rg_nregions(); r++) {
		bool used = not_left(r) > 0;

		for (const struct rg_thread *t = pmc_rg_threads(); t && !used; t = t->next)
			used = pmc_rg_row_of(t, 0, r)[0] + pmc_rg_row_of(t, 1, r)[0] > 0;
		if (used)
			region(w, r, cost, have);
	}
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

static void check(struct pmc_jw *w, const char *name, const char *severity, const char *msg)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", name);
	pmc_jw_kstr(w, "severity", severity);
	pmc_jw_kstr(w, "message", msg);
	pmc_jw_object_end(w);
}

static void checks(struct pmc_jw *w)
{
	char msg[512];

	pmc_jw_karray_begin(w, "checks");
	check(w, "regions-standalone", "info", "the whole program is not counted: " NOT_COUNTED_WHY);
	if (pmc_rg.setup_err[0])
		check(w, "regions-not-counted", "bad", pmc_rg.setup_err);
	for (int i = 0; i < pmc_rg.nev; i++) {
		int err, uo;

		pmc_rg_event_state(i, &err, &uo);
		if (err) {
			snprintf(msg, sizeof(msg), "%s: not counted in some thread: %s", pmc_rg.evname[i],
				 pmc_rg_event_reason(i, err));
			check(w, "regions-not-counted", "warn", msg);
		} else if (uo) {
			snprintf(msg, sizeof(msg), "%s: user mode only (kernel.perf_event_paranoid)", pmc_rg.evname[i]);
			check(w, "regions-user-only", "info", msg);
		}
	}
	for (unsigned r = 0; r < pmc_rg_nregions(); r++) {
		unsigned n = not_left(r);

		if (!n)
			continue;
		snprintf(msg, sizeof(msg), "region %s was entered and not left %u time%s (the thread or the program ended "
			 "inside it); those entries are not counted", pmc_rg_region_name(r), n, n == 1 ? "" : "s");
		check(w, "region-not-left", "warn", msg);
	}
	snprintf(msg, sizeof(msg), "the program read its region counters %s", pmc_rg_read_method_all());
	check(w, "regions-read", "info", msg);
	pmc_jw_array_end(w);
}

void pmc_rg_json_report(FILE *f)
{
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_jw_object_begin(w);
	pmc_jw_kint(w, "schema_version", PMC_JSON_SCHEMA_VERSION);
	pmc_jw_kstr(w, "kind", "stat");
	pmc_jw_kstr(w, "pmctool", PMC_VERSION);
	workload(w);
	origin(w);
	/* The environment (report/env.h) is pmctool's to gather: the library alone does not say, and compare then says
	 * it cannot tell whether two such reports were measured alike. */
	pmc_jw_knull(w, "environment");
	run_part(w);
	pmc_jw_karray_begin(w, "events");
	for (int i = 0; i < pmc_rg.nev; i++)
		event(w, i);
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "metrics");
	pmc_jw_array_end(w);
	regions(w);
	checks(w);
	pmc_jw_object_end(w);
	fputc('\n', f);
}
