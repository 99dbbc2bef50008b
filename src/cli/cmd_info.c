/* SPDX-License-Identifier: MIT */
/* pmctool info: what this machine can count, and why. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/info_uncore.h"
#include "cli/opts.h"
#include "info/inventory.h"
#include "pmu/event.h"
#include "tables/tables.h"
#include "util/util.h"
#include "output/output.h"

/* Exit statuses of pmctool info (pmctool-info(1)): scripts test them. */
enum { INFO_EXIT_DEGRADED = 10, INFO_EXIT_UNAVAILABLE = 11 };

struct info_cli {
	bool json;
};

static const struct pmc_opt info_opts[] = {
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct info_cli, json),
	  .help = "one JSON document instead of text" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this help" },
	{ .kind = PMC_OPT_END },
};

static int info_bad_argument(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	(void)missing;
	fprintf(stderr, "pmctool info: unknown argument '%s'; run 'pmctool info --help'\n", arg);
	pmc_opts_suggest(cmd, arg);
	return PMC_EXIT_USAGE;
}

const struct pmc_opts_cmd pmc_opts_info = {
	.name = "info",
	.opts = info_opts,
	.usage = "Usage: pmctool info [--json]\n\n"
		 "Show what this machine can count and why: CPU and its counters (CPUID), libpfm4's PMU tables,\n"
		 "the kernel's PMUs, permissions, SMT, NMI watchdog, TSC rate, the programmable-counter budget and a\n"
		 "verdict checked by opening a hardware event.\n\n"
		 "Options:\n",
	.epilogue = "\nExit status: 0 hardware counting available, 10 degraded (e.g. user-only counting, rdpmc off),\n"
		    "11 not available (e.g. no kernel PMU driver), 2 bad option, 4 output could not be written.\n",
	.col = 14,
	.bad_option = info_bad_argument,
};

static const char *errname(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";

	return n ? n : "?";
}

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

/* What the CPU says about itself (x86: CPUID's identity and counter leaves; arm64: the MIDR), as the architecture
 * words it. */
static void print_cpu(FILE *f, const struct pmc_inventory *inv)
{
	fprintf(f, "CPU\n");
	for (size_t i = 0; i < inv->ncpu_facts; i++)
		if (inv->cpu_facts[i].label)
			fprintf(f, "  %-17s%s\n", inv->cpu_facts[i].label, inv->cpu_facts[i].text);
}

/* Which table names this CPU's events: a vendor table that matched (pmctool tables), else libpfm4's, else none. */
static const struct pmc_tables_report *vendor_table(void)
{
	const struct pmc_tables_report *r;

	if (pmc_tables_report(pmc_pmu_tables(), &r) || !r->dir)
		return NULL;
	return r;
}

static void print_names(FILE *f, const struct pmc_inventory *inv)
{
	const struct pmc_tables_report *r = vendor_table();

	fprintf(f, "  event names      ");
	if (r)
		fprintf(f, "vendor table %s (%zu events, %s), then ", r->model ? r->model : "?", r->nevents, r->dir);
	if (inv->pfm_core[0])
		fprintf(f, "libpfm4's table %s\n", inv->pfm_core);
	else
		fprintf(f, "%s\n", r ? "no libpfm4 table (this libpfm4 does not know the CPU)"
				      : "none: neither libpfm4 nor a vendor table knows this CPU (a newer libpfm4, or "
					"vendor tables: pmctool tables)");
}

static void print_pfm(FILE *f, const struct pmc_inventory *inv)
{
	fprintf(f, "libpfm4\n  version          ");
	if (inv->pfm_release[0])
		fprintf(f, "%s (%s; API %u.%u)\n", inv->pfm_release,
			inv->pfm_release_how && !strcmp(inv->pfm_release_how, "shared") ? "the shared library loaded"
											: "linked statically when built",
			inv->pfm_major, inv->pfm_minor);
	else if (inv->pfm_major || inv->pfm_minor)
		fprintf(f, "API %u.%u (pfm_get_version; linked statically, its release is not known at run time)\n",
			inv->pfm_major, inv->pfm_minor);
	else
		fprintf(f, "unknown\n");
	print_names(f, inv);
	fprintf(f, "  detected PMUs    ");
	if (inv->pfm_error)
		fprintf(f, "none (pfm_initialize failed: %d)", inv->pfm_error);
	for (unsigned i = 0; i < inv->npfm_pmus; i++)
		fprintf(f, "%s%s", i ? ", " : "", inv->pfm_pmus[i]);
	if (inv->pfm_core[0])
		fprintf(f, "\n  core PMU         %s (%s): %d GP / %d fixed counters in libpfm4's table (static, not live)\n",
			inv->pfm_core, inv->pfm_core_desc, inv->pfm_table_gp, inv->pfm_table_fixed);
	else
		fprintf(f, "\n  core PMU         none: libpfm4 has no table for this CPU (LIBPFM_FORCE_PMU=hsw etc. forces one)\n");
}

static void print_kernel(FILE *f, const struct pmc_inventory *inv)
{
	fprintf(f, "Kernel PMUs (/sys/bus/event_source/devices)\n");
	if (inv->sysfs_error)
		fprintf(f, "  unreadable: %s\n", strerror(-inv->sysfs_error));
	for (size_t i = 0; i < inv->npmus; i++) {
		const struct pmc_sysfs_pmu *p = &inv->pmus[i];

		fprintf(f, "  %-16s type %d", p->name, p->type);
		if (p->nevents)
			fprintf(f, ", %u events", p->nevents);
		if (p->pmu_name[0])
			fprintf(f, ", pmu_name %s", p->pmu_name);
		if (p->max_precise >= 0)
			fprintf(f, ", max_precise %d", p->max_precise);
		if (p->branches >= 0)
			fprintf(f, ", branches %d", p->branches);
		if (p->rdpmc >= 0)
			fprintf(f, ", rdpmc %d", p->rdpmc);
		if (p->cpus[0])
			fprintf(f, ", CPUs %s", p->cpus);
		fputc('\n', f);
	}
	fprintf(f, "  core PMU         %s", inv->core_pmu >= 0 ? inv->pmus[inv->core_pmu].name :
				 "none: the kernel has no driver for this CPU's counters");
	/* Hybrid CPUs (cpu_core + cpu_atom): every core PMU, with the CPUs it counts on. */
	for (size_t i = 0, k = 0; i < inv->npmus; i++)
		if (inv->pmus[i].is_core && inv->pmus[i].cpus[0])
			fprintf(f, "%s%s (CPUs %s)", k++ ? ", " : " (hybrid: ", inv->pmus[i].name, inv->pmus[i].cpus);
	for (size_t i = 0; i < inv->npmus; i++)
		if (inv->pmus[i].is_core && inv->pmus[i].cpus[0]) {
			fprintf(f, "; each hardware event is opened once per core PMU)");
			break;
		}
	fputc('\n', f);
	if (inv->rdpmc >= 0)
		fprintf(f, "  rdpmc            %d (%s)\n", inv->rdpmc, inv->rdpmc == 0 ? "never" :
			inv->rdpmc == 1 ? "while an event is mmapped" : "always");
	fprintf(f, "  user-space reads ");
	if (!inv->user_read_name)
		fprintf(f, "none: %s\n", inv->user_read_why);
	else if (inv->user_read_error)
		fprintf(f, "%s off: %s\n", inv->user_read_name, inv->user_read_why);
	else
		fprintf(f, "%s allowed for this process's own events (read() where the page says index 0)\n",
			inv->user_read_name);
}

static void print_system(FILE *f, const struct pmc_inventory *inv)
{
	fprintf(f, "Permissions\n  perf_event_paranoid ");
	if (inv->paranoid == INT_MIN)
		fprintf(f, "unreadable");
	else
		fprintf(f, "%d", inv->paranoid);
	fprintf(f, "; uid %u; CAP_PERFMON %s; CAP_SYS_ADMIN %s -> kernel-mode counting %s\n", (unsigned)inv->uid,
		yes(inv->cap_perfmon), yes(inv->cap_sys_admin), inv->can_count_kernel ? "allowed" : "denied");
	fprintf(f, "  nmi_watchdog     %s\n", inv->nmi_watchdog < 0 ? "unknown" : inv->nmi_watchdog ? "on" : "off");
	fprintf(f, "SMT\n  active           %s\n", inv->smt_active < 0 ? "unknown" : yes(inv->smt_active));
	if (inv->nsmt_siblings)
		fprintf(f, "  siblings of cpu%d %s (%u logical CPU%s on this core)\n", inv->cpu_index, inv->smt_siblings,
			inv->nsmt_siblings, inv->nsmt_siblings == 1 ? "" : "s");
	fprintf(f, "%s\n  ", inv->timer_name);
	if (inv->tsc_error)
		fprintf(f, "rate unknown: %s\n", strerror(-inv->tsc_error));
	else
		fprintf(f, "%.6f GHz (source: %s)\n", inv->tsc_hz / 1e9, inv->tsc_source);
}

static void print_verdict(FILE *f, const struct pmc_inventory *inv)
{
	const char *why = inv->budget_why;

	fprintf(f, "Programmable counters\n");
	if (!inv->budget_error)
		fprintf(f, "  %u per batch%s\n", inv->gp_budget,
			inv->budget_from_kernel ? " (learnt from the kernel)" : "");
	else
		fprintf(f, "  none usable\n");
	while (*why) {
		size_t n = strcspn(why, "\n");
		fprintf(f, "    %.*s\n", (int)n, why);
		why += n + (why[n] == '\n');
	}
	fprintf(f, "Probe\n  perf_event_open(instructions, user only, self): %s%s%s%s\n",
		inv->probe_errno ? errname(inv->probe_errno) : "opened", inv->probe_errno ? " (" : "",
		inv->probe_errno ? strerror(inv->probe_errno) : "", inv->probe_errno ? ")" : "");
	fprintf(f, "\nhardware counting: %s", pmc_verdict_name(inv->verdict.verdict));
	if (inv->verdict.reason[0])
		fprintf(f, ": %s", inv->verdict.reason);
	if (inv->verdict.action[0])
		fprintf(f, "; %s", inv->verdict.action);
	fputc('\n', f);
}

static void json_int_or_null(FILE *f, long v, bool valid)
{
	if (valid)
		fprintf(f, "%ld", v);
	else
		fputs("null", f);
}

static void json_fact(FILE *f, const struct pmc_arch_fact *fact)
{
	fprintf(f, "\"%s\":", fact->key);
	if (fact->json_string)
		pmc_json_string(f, fact->json);
	else
		fputs(fact->json, f);
}

/* The "cpu" object, then the architecture's top-level members ("cpuid_arch_perfmon", "amd_perfmon" on every
 * architecture: null where there is no CPUID). */
static void json_cpu(FILE *f, const struct pmc_inventory *inv)
{
	bool first = true;

	fprintf(f, "\"cpu\":{");
	for (size_t i = 0; i < inv->ncpu_facts; i++)
		if (inv->cpu_facts[i].key && !inv->cpu_facts[i].top) {
			fputs(first ? "" : ",", f);
			json_fact(f, &inv->cpu_facts[i]);
			first = false;
		}
	fprintf(f, "},\n");
	for (size_t i = 0; i < inv->ncpu_facts; i++)
		if (inv->cpu_facts[i].key && inv->cpu_facts[i].top) {
			json_fact(f, &inv->cpu_facts[i]);
			fprintf(f, ",\n");
		}
}

static void json_str_or_null(FILE *f, const char *s)
{
	if (s)
		pmc_json_string(f, s);
	else
		fputs("null", f);
}

static void json_pmus(FILE *f, const struct pmc_inventory *inv)
{
	const struct pmc_tables_report *r = vendor_table();

	fprintf(f, "\"libpfm4\":{\"initialized\":%s,\"version\":", inv->pfm_error ? "false" : "true");
	if (inv->pfm_major || inv->pfm_minor)
		fprintf(f, "\"%u.%u\"", inv->pfm_major, inv->pfm_minor);
	else
		fputs("null", f);
	fprintf(f, ",\"release\":");
	json_str_or_null(f, inv->pfm_release[0] ? inv->pfm_release : NULL);
	fprintf(f, ",\"event_names\":{\"vendor_table\":");
	json_str_or_null(f, r ? (r->model ? r->model : "") : NULL);
	fprintf(f, ",\"vendor_table_dir\":");
	json_str_or_null(f, r ? r->dir : NULL);
	fprintf(f, ",\"libpfm4_table\":");
	json_str_or_null(f, inv->pfm_core[0] ? inv->pfm_core : NULL);
	fprintf(f, "},\"detected_pmus\":[");
	for (unsigned i = 0; i < inv->npfm_pmus; i++) {
		fprintf(f, "%s", i ? "," : "");
		pmc_json_string(f, inv->pfm_pmus[i]);
	}
	fprintf(f, "],\"core_pmu\":");
	if (inv->pfm_core[0])
		pmc_json_string(f, inv->pfm_core);
	else
		fputs("null", f);
	fprintf(f, ",\"table_gp_counters\":");
	json_int_or_null(f, inv->pfm_table_gp, inv->pfm_core[0]);
	fprintf(f, ",\"table_fixed_counters\":");
	json_int_or_null(f, inv->pfm_table_fixed, inv->pfm_core[0]);
	fprintf(f, "},\n\"kernel_pmus\":[");
	for (size_t i = 0; i < inv->npmus; i++) {
		const struct pmc_sysfs_pmu *p = &inv->pmus[i];

		fprintf(f, "%s\n {\"name\":", i ? "," : "");
		pmc_json_string(f, p->name);
		fprintf(f, ",\"type\":%d,\"events\":%u,\"pmu_name\":", p->type, p->nevents);
		if (p->pmu_name[0])
			pmc_json_string(f, p->pmu_name);
		else
			fputs("null", f);
		fprintf(f, ",\"max_precise\":");
		json_int_or_null(f, p->max_precise, p->max_precise >= 0);
		fprintf(f, ",\"branches\":");
		json_int_or_null(f, p->branches, p->branches >= 0);
		fprintf(f, ",\"rdpmc\":");
		json_int_or_null(f, p->rdpmc, p->rdpmc >= 0);
		fprintf(f, ",\"cpus\":");
		if (p->cpus[0])
			pmc_json_string(f, p->cpus);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fprintf(f, "],\n\"core_pmu\":");
	if (inv->core_pmu >= 0)
		pmc_json_string(f, inv->pmus[inv->core_pmu].name);
	else
		fputs("null", f);
	fprintf(f, ",\n\"rdpmc\":");
	json_int_or_null(f, inv->rdpmc, inv->rdpmc >= 0);
	fprintf(f, ",\n");
}

static void json_rest(FILE *f, const struct pmc_inventory *inv, int status)
{
	const char *why = inv->budget_why;

	fprintf(f, "\"permissions\":{\"perf_event_paranoid\":");
	json_int_or_null(f, inv->paranoid, inv->paranoid != INT_MIN);
	fprintf(f, ",\"uid\":%u,\"cap_perfmon\":%s,\"cap_sys_admin\":%s,\"can_count_kernel\":%s},\n",
		(unsigned)inv->uid, inv->cap_perfmon ? "true" : "false", inv->cap_sys_admin ? "true" : "false",
		inv->can_count_kernel ? "true" : "false");
	fprintf(f, "\"nmi_watchdog\":");
	json_int_or_null(f, inv->nmi_watchdog, inv->nmi_watchdog >= 0);
	fprintf(f, ",\n\"smt\":{\"active\":%s,\"cpu\":", inv->smt_active < 0 ? "null" : inv->smt_active ? "true" : "false");
	json_int_or_null(f, inv->cpu_index, inv->cpu_index >= 0);
	fprintf(f, ",\"siblings\":");
	if (inv->nsmt_siblings)
		pmc_json_string(f, inv->smt_siblings);
	else
		fputs("null", f);
	fprintf(f, ",\"sibling_count\":");
	json_int_or_null(f, inv->nsmt_siblings, inv->nsmt_siblings);
	/* "tsc" stays what it was on x86 (null elsewhere); "timer" names the region timer on every architecture. */
	fprintf(f, "},\n\"tsc\":");
	if (inv->tsc_error || strcmp(inv->timer_name, "TSC"))
		fprintf(f, "{\"hz\":null,\"source\":null},\n");
	else
		fprintf(f, "{\"hz\":%.0f,\"source\":\"%s\"},\n", inv->tsc_hz, inv->tsc_source);
	fprintf(f, "\"timer\":{\"name\":\"%s\",\"hz\":", inv->timer_name);
	if (inv->tsc_error)
		fprintf(f, "null,\"source\":null},\n");
	else
		fprintf(f, "%.0f,\"source\":\"%s\"},\n", inv->tsc_hz, inv->tsc_source);
	fprintf(f, "\"user_read\":{\"instruction\":");
	if (inv->user_read_name)
		pmc_json_string(f, inv->user_read_name);
	else
		fputs("null", f);
	fprintf(f, ",\"allowed\":%s,\"why\":", inv->user_read_name && !inv->user_read_error ? "true" : "false");
	if (inv->user_read_why[0])
		pmc_json_string(f, inv->user_read_why);
	else
		fputs("null", f);
	fprintf(f, "},\n");
	fprintf(f, "\"counters\":{\"gp_available\":");
	json_int_or_null(f, inv->gp_budget, !inv->budget_error);
	fprintf(f, ",\"source\":\"%s\"", inv->budget_from_kernel ? "kernel" : "cpuid");
	fprintf(f, ",\"reasoning\":[");
	for (bool first = true; *why; first = false) {
		size_t n = strcspn(why, "\n");
		char line[PMC_INV_WHY_LEN];

		snprintf(line, sizeof(line), "%.*s", (int)n, why);
		fprintf(f, "%s", first ? "" : ",");
		pmc_json_string(f, line);
		why += n + (why[n] == '\n');
	}
	fprintf(f, "]},\n\"probe\":{\"event\":\"instructions:u\",\"errno\":%d,\"error\":", inv->probe_errno);
	if (inv->probe_errno)
		pmc_json_string(f, errname(inv->probe_errno));
	else
		fputs("null", f);
	fprintf(f, "},\n\"verdict\":{\"status\":\"%s\",\"exit_status\":%d,\"reason\":",
		pmc_verdict_name(inv->verdict.verdict), status);
	pmc_json_string(f, inv->verdict.reason);
	fprintf(f, ",\"action\":");
	pmc_json_string(f, inv->verdict.action);
	fprintf(f, "}}\n");
}

int pmc_cmd_info(int argc, char **argv)
{
	static struct pmc_inventory inv;
	bool json = false;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int status, rc;

	struct info_cli o = { .json = false };
	int first;

	rc = pmc_opts_parse(&pmc_opts_info, argc, argv, &o, &first);
	if (rc)
		return rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
	if (first < argc)
		return info_bad_argument(&pmc_opts_info, argv[first], NULL);
	json = o.json;
	pmc_inventory_collect(&inv);
	status = inv.verdict.verdict == PMC_VERDICT_AVAILABLE ? PMC_EXIT_OK :
		 inv.verdict.verdict == PMC_VERDICT_DEGRADED ? INFO_EXIT_DEGRADED : INFO_EXIT_UNAVAILABLE;
	f = open_memstream(&buf, &len);
	if (!f) {
		fprintf(stderr, "pmctool info: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	if (json) {
		pmc_json_header(f, "info"); /* schema/pmctool-report.schema.json */
		fputs(",\"pmctool_info_version\":1,\n", f);
		json_cpu(f, &inv);
		json_pmus(f, &inv);
		json_rest(f, &inv, status);
	} else {
		print_cpu(f, &inv);
		print_pfm(f, &inv);
		print_kernel(f, &inv);
		pmc_info_print_uncore(f);
		print_system(f, &inv);
		print_verdict(f, &inv);
	}
	if (fclose(f)) {
		free(buf);
		fprintf(stderr, "pmctool info: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	rc = pmc_cli_write_stdout("info", "report", buf, len);
	free(buf);
	return rc != PMC_EXIT_OK ? rc : status;
}
