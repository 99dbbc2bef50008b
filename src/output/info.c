/* SPDX-License-Identifier: MIT */
/* pmctool info's report (output/info.h): the text and the JSON document. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/info.h"
#include "output/info_uncore.h"
#include "pmu/event.h"
#include "tables/tables.h"

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

/* Every top-level member from "cpu" on starts a line (the document's layout since it was written by hand). */
static void line_key(struct pmc_jw *w, const char *key)
{
	pmc_jw_break(w, "\n");
	pmc_jw_key(w, key);
}

static void json_fact(struct pmc_jw *w, const struct pmc_arch_fact *fact)
{
	pmc_jw_key(w, fact->key);
	if (fact->json_string)
		pmc_jw_str(w, fact->json);
	else
		pmc_jw_raw(w, fact->json); /* a value the architecture spelled as JSON (arch/: numbers, lists, null) */
}

/* The "cpu" object, then the architecture's top-level members ("cpuid_arch_perfmon", "amd_perfmon" on every
 * architecture: null where there is no CPUID). */
static void json_cpu(struct pmc_jw *w, const struct pmc_inventory *inv)
{
	line_key(w, "cpu");
	pmc_jw_object_begin(w);
	for (size_t i = 0; i < inv->ncpu_facts; i++)
		if (inv->cpu_facts[i].key && !inv->cpu_facts[i].top)
			json_fact(w, &inv->cpu_facts[i]);
	pmc_jw_object_end(w);
	for (size_t i = 0; i < inv->ncpu_facts; i++)
		if (inv->cpu_facts[i].key && inv->cpu_facts[i].top) {
			pmc_jw_break(w, "\n");
			json_fact(w, &inv->cpu_facts[i]);
		}
}

static void json_libpfm(struct pmc_jw *w, const struct pmc_inventory *inv)
{
	const struct pmc_tables_report *r = vendor_table();
	char version[32];

	snprintf(version, sizeof(version), "%u.%u", inv->pfm_major, inv->pfm_minor);
	line_key(w, "libpfm4");
	pmc_jw_object_begin(w);
	pmc_jw_kbool(w, "initialized", !inv->pfm_error);
	pmc_jw_kstr_or_null(w, "version", inv->pfm_major || inv->pfm_minor ? version : NULL);
	pmc_jw_kstr_or_null(w, "release", inv->pfm_release);
	pmc_jw_kobject_begin(w, "event_names");
	pmc_jw_key(w, "vendor_table"); /* "" for a table without a model name: null is "no table" */
	if (r)
		pmc_jw_str(w, r->model ? r->model : "");
	else
		pmc_jw_null(w);
	pmc_jw_key(w, "vendor_table_dir");
	if (r && r->dir)
		pmc_jw_str(w, r->dir);
	else
		pmc_jw_null(w);
	pmc_jw_kstr_or_null(w, "libpfm4_table", inv->pfm_core);
	pmc_jw_object_end(w);
	pmc_jw_karray_begin(w, "detected_pmus");
	for (unsigned i = 0; i < inv->npfm_pmus; i++)
		pmc_jw_str(w, inv->pfm_pmus[i]);
	pmc_jw_array_end(w);
	pmc_jw_kstr_or_null(w, "core_pmu", inv->pfm_core);
	pmc_jw_kint_if(w, "table_gp_counters", inv->pfm_core[0], inv->pfm_table_gp);
	pmc_jw_kint_if(w, "table_fixed_counters", inv->pfm_core[0], inv->pfm_table_fixed);
	pmc_jw_object_end(w);
}

static void json_pmus(struct pmc_jw *w, const struct pmc_inventory *inv)
{
	json_libpfm(w, inv);
	line_key(w, "kernel_pmus");
	pmc_jw_array_begin(w);
	for (size_t i = 0; i < inv->npmus; i++) {
		const struct pmc_sysfs_pmu *p = &inv->pmus[i];

		pmc_jw_break(w, "\n ");
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "name", p->name);
		pmc_jw_kint(w, "type", p->type);
		pmc_jw_kuint(w, "events", p->nevents);
		pmc_jw_kstr_or_null(w, "pmu_name", p->pmu_name);
		pmc_jw_kint_if(w, "max_precise", p->max_precise >= 0, p->max_precise);
		pmc_jw_kint_if(w, "branches", p->branches >= 0, p->branches);
		pmc_jw_kint_if(w, "rdpmc", p->rdpmc >= 0, p->rdpmc);
		pmc_jw_kstr_or_null(w, "cpus", p->cpus);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	line_key(w, "core_pmu");
	pmc_jw_str_or_null(w, inv->core_pmu >= 0 ? inv->pmus[inv->core_pmu].name : NULL);
	line_key(w, "rdpmc");
	if (inv->rdpmc >= 0)
		pmc_jw_int(w, inv->rdpmc);
	else
		pmc_jw_null(w);
}

/* The timer's "hz" and "source", both null when not known. */
static void json_hz(struct pmc_jw *w, const struct pmc_inventory *inv, bool known)
{
	if (!known) {
		pmc_jw_knull(w, "hz");
		pmc_jw_knull(w, "source");
		return;
	}
	pmc_jw_kfixed(w, "hz", 0, inv->tsc_hz);
	pmc_jw_kstr(w, "source", inv->tsc_source);
}

static void json_system(struct pmc_jw *w, const struct pmc_inventory *inv)
{
	line_key(w, "permissions");
	pmc_jw_object_begin(w);
	pmc_jw_kint_if(w, "perf_event_paranoid", inv->paranoid != INT_MIN, inv->paranoid);
	pmc_jw_kuint(w, "uid", (unsigned)inv->uid);
	pmc_jw_kbool(w, "cap_perfmon", inv->cap_perfmon);
	pmc_jw_kbool(w, "cap_sys_admin", inv->cap_sys_admin);
	pmc_jw_kbool(w, "can_count_kernel", inv->can_count_kernel);
	pmc_jw_object_end(w);
	line_key(w, "nmi_watchdog");
	if (inv->nmi_watchdog >= 0)
		pmc_jw_int(w, inv->nmi_watchdog);
	else
		pmc_jw_null(w);
	line_key(w, "smt");
	pmc_jw_object_begin(w);
	pmc_jw_key(w, "active");
	if (inv->smt_active < 0)
		pmc_jw_null(w);
	else
		pmc_jw_bool(w, inv->smt_active);
	pmc_jw_kint_if(w, "cpu", inv->cpu_index >= 0, inv->cpu_index);
	pmc_jw_kstr_or_null(w, "siblings", inv->nsmt_siblings ? inv->smt_siblings : NULL);
	pmc_jw_kint_if(w, "sibling_count", inv->nsmt_siblings, inv->nsmt_siblings);
	pmc_jw_object_end(w);
	/* "tsc" stays what it was on x86 (null elsewhere); "timer" names the region timer on every architecture. */
	line_key(w, "tsc");
	pmc_jw_object_begin(w);
	json_hz(w, inv, !inv->tsc_error && !strcmp(inv->timer_name, "TSC"));
	pmc_jw_object_end(w);
	line_key(w, "timer");
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", inv->timer_name);
	json_hz(w, inv, !inv->tsc_error);
	pmc_jw_object_end(w);
	line_key(w, "user_read");
	pmc_jw_object_begin(w);
	pmc_jw_kstr_or_null(w, "instruction", inv->user_read_name);
	pmc_jw_kbool(w, "allowed", inv->user_read_name && !inv->user_read_error);
	pmc_jw_kstr_or_null(w, "why", inv->user_read_why);
	pmc_jw_object_end(w);
}

static void json_rest(struct pmc_jw *w, const struct pmc_inventory *inv, int status)
{
	const char *why = inv->budget_why;

	json_system(w, inv);
	line_key(w, "counters");
	pmc_jw_object_begin(w);
	pmc_jw_kint_if(w, "gp_available", !inv->budget_error, inv->gp_budget);
	pmc_jw_kstr(w, "source", inv->budget_from_kernel ? "kernel" : "cpuid");
	pmc_jw_karray_begin(w, "reasoning");
	while (*why) {
		size_t n = strcspn(why, "\n");
		char line[PMC_INV_WHY_LEN];

		snprintf(line, sizeof(line), "%.*s", (int)n, why);
		pmc_jw_str(w, line);
		why += n + (why[n] == '\n');
	}
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
	line_key(w, "probe");
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "event", "instructions:u");
	pmc_jw_kint(w, "errno", inv->probe_errno);
	pmc_jw_kstr_or_null(w, "error", inv->probe_errno ? errname(inv->probe_errno) : NULL);
	pmc_jw_object_end(w);
	line_key(w, "verdict");
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "status", pmc_verdict_name(inv->verdict.verdict));
	pmc_jw_kint(w, "exit_status", status);
	pmc_jw_kstr(w, "reason", inv->verdict.reason);
	pmc_jw_kstr(w, "action", inv->verdict.action);
	pmc_jw_object_end(w);
	pmc_jw_object_end(w);
}

int pmc_info_table(FILE *f, const struct pmc_inventory *inv, int status)
{
	(void)status;
	print_cpu(f, inv);
	print_pfm(f, inv);
	print_kernel(f, inv);
	pmc_info_print_uncore(f);
	print_system(f, inv);
	print_verdict(f, inv);
	return 0;
}

int pmc_info_json(FILE *f, const struct pmc_inventory *inv, int status)
{
	struct pmc_jw w;

	pmc_jw_init(&w, f, 0);
	pmc_json_header(&w, "info"); /* schema/pmctool-report.schema.json */
	pmc_jw_kint(&w, "pmctool_info_version", 1);
	json_cpu(&w, inv);
	json_pmus(&w, inv);
	json_rest(&w, inv, status);
	fputc('\n', f);
	return 0;
}
