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
static void workload(FILE *f)
{
	char buf[512];
	ssize_t n = -1;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n <= 0) {
		pmc_json_string(f, program_invocation_name);
		return;
	}
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	pmc_json_string(f, buf);
}

static void origin(FILE *f)
{
	struct pmc_origin o;

	pmc_origin_get(&o);
	fputs(",\"origin\":{\"host\":", f);
	pmc_json_string(f, o.host);
	fprintf(f, ",\"pid\":%ld,\"rank\":", o.pid);
	if (o.rank >= 0)
		fprintf(f, "%ld", o.rank);
	else
		fputs("null", f);
	fputs(",\"rank_from\":", f);
	pmc_json_string_or_null(f, o.rank_from);
	fputs(",\"job\":", f);
	pmc_json_string_or_null(f, o.job);
	fputc('}', f);
}

static uint64_t ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/* runs, executions, the exit and the times: one execution, the process itself. */
static void run_part(FILE *f)
{
	struct timespec now;
	struct rusage ru;
	uint64_t wall, user = 0, sys = 0;
	/* Unknown (-1) when the program called pmctool_regions_finish() before its exit, or without glibc's on_exit:
	 * nothing had failed by the report, and ended_by says the status is not in it. */
	int st = pmc_rg.exit_status < 0 ? 0 : pmc_rg.exit_status;
	const char *state = st ? "failed" : "ok";

	clock_gettime(CLOCK_MONOTONIC, &now);
	wall = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec - pmc_rg.start_ns;
	if (!getrusage(RUSAGE_SELF, &ru)) {
		user = ns(&ru.ru_utime);
		sys = ns(&ru.ru_stime);
	}
	fprintf(f, ",\"mode\":\"standalone\",\"batches\":1,\"target\":{\"kind\":\"self\",\"description\":\"process %d "
		"(counted by itself: libpmctool standalone)\",\"aggregation\":\"none\",\"ended_by\":\"%s\","
		"\"interval_ms\":null,\"intervals\":0}", (int)getpid(), pmc_rg.exit_status >= 0 ? "the program exited" :
		"the report was written before the program's exit (its exit status is not in it)");
	fprintf(f, ",\"runs\":{\"count\":1,\"ok\":%d,\"failed\":%d,\"partial\":0,\"used\":1,\"statistics_over\":\"%s "
		"runs\"}", !st, !!st, state);
	fprintf(f, ",\"executions\":[{\"run\":1,\"batch\":1,\"state\":\"%s\",\"used\":true,\"exit_status\":%d,"
		"\"signal\":null,\"interrupted\":false,\"wall_ns\":%llu,\"user_ns\":%llu,\"sys_ns\":%llu}]", state, st,
		(unsigned long long)wall, (unsigned long long)user, (unsigned long long)sys);
	fprintf(f, ",\"partial\":false,\"exit_status\":%d,\"signal\":null,\"wall_ns\":{\"mean\":%llu,\"min\":%llu,"
		"\"max\":%llu},\"user_ns\":%llu,\"sys_ns\":%llu,\"tsc_hz\":null,\"tsc_source\":null,\"constants\":{}", st,
		(unsigned long long)wall, (unsigned long long)wall, (unsigned long long)wall, (unsigned long long)user,
		(unsigned long long)sys);
}

static const char *bp_letters(uint32_t t)
{
	return t == HW_BREAKPOINT_X ? "x" : t == HW_BREAKPOINT_R ? "r" : t == HW_BREAKPOINT_W ? "w" : "rw";
}

/* One event as pmctool's report lists it: its encoding (the class of a hardware event is "programmable": the
 * library does not know which counter the kernel gives it), not counted over the whole program. */
static void event(FILE *f, int i)
{
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
	fputs(i ? ",{\"name\":" : "{\"name\":", f);
	pmc_json_string(f, name);
	fputs(",\"canonical\":", f);
	pmc_json_string(f, canon);
	fprintf(f, ",\"type\":%u,\"config\":\"0x%llx\",\"config1\":\"0x%llx\",\"config2\":\"0x%llx\",\"exclude_user\":%s,"
		"\"exclude_kernel\":%s,\"exclude_hv\":%s,\"class\":\"%s\",\"fixed_index\":null,\"perf\":", a->type,
		(unsigned long long)a->config, (unsigned long long)a->config1, (unsigned long long)a->config2,
		a->exclude_user ? "true" : "false", a->exclude_kernel ? "true" : "false", a->exclude_hv ? "true" : "false",
		bp ? "breakpoint" : sw ? "software" : "programmable");
	pmc_json_string_or_null(f, perf);
	fprintf(f, ",\"anchor\":false,\"every_batch\":true,\"batch\":null,\"unit\":%s,\"status\":\"not counted\","
		"\"reason\":\"" NOT_COUNTED_WHY "\",\"n\":0,\"mean\":null,\"median\":null,\"stddev\":null,\"min\":null,"
		"\"max\":null,\"running_pct\":null,\"batch_spread_pct\":null,\"core_pmu\":null,\"core_share_pct\":null,"
		"\"merged_from\":null,\"scope\":{\"kind\":\"all\",\"label\":null,\"cpu\":null,\"core\":null,\"die\":null,"
		"\"socket\":null,\"pid\":null,\"tid\":null,\"comm\":null},\"samples\":[]}",
		sw && (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK) ? "\"ns\"" : "null");
}

/* ",KEY:[{"event":NAME,"value":V...}...]" per event: v[i], or null where have[i] is false; with executions, how
 * many executions counted it (1 or 0); with cost, the markers' share (overhead_pct: calls x cost / value, as pmctool's
 * collector computes it). */
static void event_values(FILE *f, const char *key, const uint64_t *v, const bool *have, bool executions,
			 uint64_t calls, const uint64_t *cost, const bool *have_cost)
{
	fprintf(f, ",\"%s\":[", key);
	for (int i = 0; i < pmc_rg.nev; i++) {
		fputs(i ? ",{\"event\":" : "{\"event\":", f);
		pmc_json_string(f, pmc_rg.evname[i]);
		if (have[i])
			fprintf(f, ",\"value\":%llu", (unsigned long long)v[i]);
		else
			fputs(",\"value\":null", f);
		if (executions)
			fprintf(f, ",\"executions\":%d", have[i]);
		if (cost && have[i] && have_cost[i] && v[i] > 0 && calls > 0)
			fprintf(f, ",\"overhead_pct\":%.17g", 100.0 * (double)calls * (double)cost[i] / (double)v[i]);
		else if (cost)
			fputs(",\"overhead_pct\":null", f);
		fputc('}', f);
	}
	fputc(']', f);
}

static unsigned not_left(unsigned r)
{
	unsigned n = 0;

	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next)
		for (unsigned d = 0; d < pmc_rg_depth(t); d++)
			n += RG_KEY_REGION(t->stack[d].key) == (int)r;
	return n;
}

static void region(FILE *f, unsigned r, bool first, const uint64_t *cost, const bool *have_cost)
{
	uint64_t sum[1 + RG_EV];
	bool have[RG_EV];
	bool tfirst = true;

	pmc_rg_region_all(r, sum, have);
	fputs(first ? "{\"name\":" : ",{\"name\":", f);
	pmc_json_string(f, pmc_rg_region_name(r));
	fprintf(f, ",\"calls\":%llu,\"calls_per_execution\":[%llu],\"not_left\":%u", (unsigned long long)sum[0],
		(unsigned long long)sum[0], not_left(r));
	event_values(f, "counts", sum + 1, have, true, sum[0], cost, have_cost);
	fputs(",\"metrics\":[],\"threads\":[", f);
	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
		uint64_t row[1 + RG_EV];
		bool th[RG_EV];

		pmc_rg_row(t, r, row);
		if (!row[0])
			continue;
		for (int i = 0; i < t->nev; i++)
			th[i] = !t->err[i];
		fprintf(f, "%s{\"thread\":\"%u\",\"calls\":%llu", tfirst ? "" : ",", t->ordinal,
			(unsigned long long)row[0]);
		event_values(f, "counts", row + 1, th, true, row[0], NULL, NULL);
		fputc('}', f);
		tfirst = false;
	}
	fputs("]}", f);
}

static void regions(FILE *f)
{
	uint64_t cost[RG_EV], top[RG_EV] = { 0 }, unmatched = 0, invalid = 0, deep = 0, refused = pmc_rg_refused_early();
	bool have[RG_EV] = { false }, first = true;

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
	fputs(",\"regions\":{\"read\":", f);
	pmc_json_string(f, pmc_rg_read_method_all());
	fprintf(f, ",\"executions\":1,\"silent_executions\":0,\"cut_blocks\":0,\"processes_max\":1,\"misuse\":{"
		"\"unmatched_leaves\":%llu,\"invalid_handles\":%llu,\"too_deep\":%llu,\"refused_names\":%llu,"
		"\"refused_calls\":%llu}", (unsigned long long)unmatched, (unsigned long long)invalid,
		(unsigned long long)deep, (unsigned long long)pmc_rg_bad_names(), (unsigned long long)refused);
	event_values(f, "pair_cost", cost, have, false, 0, NULL, NULL);
	event_values(f, "top_level", top, have, false, 0, NULL, NULL);
	fputs(",\"list\":[", f);
	for (unsigned r = 0; r < pmc_rg_nregions(); r++) {
		bool used = not_left(r) > 0;

		for (const struct rg_thread *t = pmc_rg_threads(); t && !used; t = t->next)
			used = pmc_rg_row_of(t, 0, r)[0] + pmc_rg_row_of(t, 1, r)[0] > 0;
		if (!used)
			continue;
		region(f, r, first, cost, have);
		first = false;
	}
	fputs("]}", f);
}

static void check(FILE *f, bool *first, const char *name, const char *severity, const char *msg)
{
	fprintf(f, "%s{\"name\":\"%s\",\"severity\":\"%s\",\"message\":", *first ? "" : ",", name, severity);
	pmc_json_string(f, msg);
	fputc('}', f);
	*first = false;
}

static void checks(FILE *f)
{
	char msg[512];
	bool first = true;

	fputs(",\"checks\":[", f);
	check(f, &first, "regions-standalone", "info", "the whole program is not counted: " NOT_COUNTED_WHY);
	if (pmc_rg.setup_err[0])
		check(f, &first, "regions-not-counted", "bad", pmc_rg.setup_err);
	for (int i = 0; i < pmc_rg.nev; i++) {
		int err, uo;

		pmc_rg_event_state(i, &err, &uo);
		if (err) {
			snprintf(msg, sizeof(msg), "%s: not counted in some thread: %s", pmc_rg.evname[i],
				 pmc_rg_event_reason(i, err));
			check(f, &first, "regions-not-counted", "warn", msg);
		} else if (uo) {
			snprintf(msg, sizeof(msg), "%s: user mode only (kernel.perf_event_paranoid)", pmc_rg.evname[i]);
			check(f, &first, "regions-user-only", "info", msg);
		}
	}
	for (unsigned r = 0; r < pmc_rg_nregions(); r++) {
		unsigned n = not_left(r);

		if (!n)
			continue;
		snprintf(msg, sizeof(msg), "region %s was entered and not left %u time%s (the thread or the program ended "
			 "inside it); those entries are not counted", pmc_rg_region_name(r), n, n == 1 ? "" : "s");
		check(f, &first, "region-not-left", "warn", msg);
	}
	snprintf(msg, sizeof(msg), "the program read its region counters %s", pmc_rg_read_method_all());
	check(f, &first, "regions-read", "info", msg);
	fputc(']', f);
}

void pmc_rg_json_report(FILE *f)
{
	fprintf(f, "{\"schema_version\":%d,\"kind\":\"stat\",\"pmctool\":", PMC_JSON_SCHEMA_VERSION);
	pmc_json_string(f, PMC_VERSION);
	fputs(",\"workload\":", f);
	workload(f);
	origin(f);
	/* The environment (report/env.h) is pmctool's to gather: the library alone does not say, and compare then says
	 * it cannot tell whether two such reports were measured alike. */
	fputs(",\"environment\":null", f);
	run_part(f);
	fputs(",\"events\":[", f);
	for (int i = 0; i < pmc_rg.nev; i++)
		event(f, i);
	fputs("],\"metrics\":[]", f);
	regions(f);
	checks(f);
	fputs("}\n", f);
}
