/* SPDX-License-Identifier: MIT */
/* The engine, -k: resolving the kernel and its parameters, and what its runner reports besides counts. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "engine/engine.h"

int pmc_eng_kernel_find(const char *name, const struct pmc_kernel **ret)
{
	*ret = pmc_kernel_find(name);
	if (!*ret) {
		const char *near = pmc_kernel_suggest(name);
		pmc_diag_error("unknown kernel '%s'%s%s%s; 'pmctool kernels' lists them", name,
			near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		return PMC_EXIT_USAGE;
	}
	return 0;
}

int pmc_eng_kernel_params(const struct pmc_kernel *k, const char *const *params, size_t n, struct pmc_kernel_params *kp)
{
	char err[256];

	pmc_kernel_params_init(k, kp);
	for (size_t i = 0; i < n; i++) {
		if (pmc_kernel_params_parse(k, params[i], kp, err, sizeof(err)) < 0) {
			pmc_diag_error("%s", err); /* err names the kernel */
			return PMC_EXIT_USAGE;
		}
	}
	return 0;
}

int pmc_eng_kernel_prepare(struct pmc_engine_opts *o)
{
	char err[256];

	if (pmc_kernel_check_cpu(o->k, err, sizeof(err)) < 0) {
		pmc_diag_error("kernel %s cannot run on this CPU: %s", o->k->name, err);
		return PMC_EXIT_USAGE;
	}
	return pmc_eng_hybrid_pin(o);
}

static void add_metric(struct pmc_report *rep, const char *name, const char *unit, const char *desc, double v)
{
	struct pmc_metric_value m;

	memset(&m, 0, sizeof(m));
	snprintf(m.name, sizeof(m.name), "%s", name);
	snprintf(m.unit, sizeof(m.unit), "%s", unit);
	snprintf(m.desc, sizeof(m.desc), "%s", desc);
	m.valid = true;
	m.value = v;
	pmc_report_add_metric(rep, &m);
}

void pmc_eng_kernel_report(const struct pmc_engine_opts *o, const struct pmc_kernel_info *info, struct pmc_report *rep)
{
	struct pmc_named_value vals[PMC_REPORT_MAX_CONSTS];
	char params[160] = "", name[64], desc[96];
	const char *tname, *tunit;
	size_t n = 0;

	if (pmc_kernel_params_format(&o->kp, params, sizeof(params)) < 0)
		params[0] = '\0';
	snprintf(rep->workload, sizeof(rep->workload), "kernel %s (iters=%llu%s%s, cpu %d)", o->k->name,
		 (unsigned long long)info->iters, params[0] ? ", " : "", params, info->cpu);
	/* Stopped by a signal: the iterations done are unknown, so no expectation applies to the counts so far. */
	if (info->stopped)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "kernel-stopped",
				     "the kernel was stopped by a signal before its %llu iterations were done: the counts "
				     "are those of the part that ran; no expected count applies",
				     (unsigned long long)info->iters);
	else if (pmc_kernel_expectations(o->k, &o->kp, info->iters, vals, PMC_ARRAY_SIZE(vals), &n) == 0)
		for (size_t i = 0; i < n; i++)
			pmc_report_set_const(rep, vals[i].name, (double)vals[i].value);
	/* The region timer by its own name: the TSC on x86-64, CNTVCT_EL0 on arm64 (never "TSC" there). */
	tname = pmc_arch_timer_name();
	tunit = strcmp(tname, "TSC") ? "ticks" : "cycles";
	if (!strcmp(tname, "TSC"))
		pmc_report_set_const(rep, "REGION_TSC_CYCLES", (double)info->tsc_cycles);
	pmc_report_set_const(rep, "REGION_TIMER_TICKS", (double)info->tsc_cycles);
	if (info->wall_unresolved)
		snprintf(rep->wall_unresolved, sizeof(rep->wall_unresolved),
			 "the region's wall time after --subtract-overhead (%llu ns) is below the overhead taken from "
			 "it (%llu ns): noise, not time; measure more --iters",
			 (unsigned long long)info->wall_ns, (unsigned long long)info->overhead_wall_ns);
	/* How much of the wall window the reads themselves take: the descheduled check allows that much. */
	pmc_report_set_const(rep, "REGION_OVERHEAD_WALL_NS", (double)info->overhead_wall_ns);
	if (info->counter_width)
		pmc_report_set_const(rep, "COUNTER_WIDTH", (double)info->counter_width);
	snprintf(name, sizeof(name), "region %s %s", tname, tunit);
	snprintf(desc, sizeof(desc), "measured with %s around the kernel", pmc_arch_timer_how());
	add_metric(rep, name, "", desc, (double)info->tsc_cycles);
	if (info->iters && !info->stopped) {
		snprintf(name, sizeof(name), "%s %s per iteration", tname, tunit);
		snprintf(desc, sizeof(desc), "region %s %s / iterations", tname, tunit);
		add_metric(rep, name, "", desc, (double)info->tsc_cycles / (double)info->iters);
	}
	rep->read_in_process = info->all_in_process;
	if (!strncmp(info->read_method, "none", 4)) {
		snprintf(rep->read_method, sizeof(rep->read_method), "no counter was read: no event could be opened "
			 "(the notes on the events say why; pmctool info shows what this user may count)");
		pmc_report_add_check(rep, PMC_CHECK_WARN, "read-method", "%s", rep->read_method);
	} else {
		snprintf(rep->read_method, sizeof(rep->read_method), "%s", info->read_method);
		pmc_report_add_check(rep, PMC_CHECK_INFO, "read-method", "counters read with %s", info->read_method);
	}
	pmc_report_add_check(rep, PMC_CHECK_INFO, "overhead",
			     "an empty measured region costs %llu %s %s (median of %u)%s",
			     (unsigned long long)info->overhead_tsc, tname, tunit, info->overhead_samples,
			     info->overhead_subtracted ? "; subtracted from the counts and the region timer "
							 "(--subtract-overhead)"
						       : "; not subtracted (--subtract-overhead to do so)");
}

/* Measured beside declared: for each counted event a kernel declares a count for, the ratio (seed 003's
 * "instructions retired / instructions expected"); n/a with the event's reason when it was not counted. */
static void add_measured_vs_declared(struct pmc_report *rep)
{
	static const struct {
		const char *event, *expected, *metric;
	} pairs[] = {
		{ "instructions", "EXPECTED_INSTRUCTIONS", "instructions retired / expected" },
		{ "branches", "EXPECTED_BRANCHES", "branches retired / expected" },
	};

	for (size_t i = 0; i < PMC_ARRAY_SIZE(pairs); i++) {
		const struct pmc_report_event *e = pmc_report_find_event(rep, pairs[i].event);
		struct pmc_metric_value m;
		double want;

		if (!e || pmc_report_get_const(rep, pairs[i].expected, &want) < 0 || want <= 0)
			continue;
		memset(&m, 0, sizeof(m));
		snprintf(m.name, sizeof(m.name), "%s", pairs[i].metric);
		m.valid = e->status == PMC_COUNT_OK;
		m.value = m.valid ? e->mean / want : 0;
		snprintf(m.desc, sizeof(m.desc), "measured %.0f, declared %.0f", m.valid ? e->mean : 0.0, want);
		if (!m.valid)
			snprintf(m.reason, sizeof(m.reason), "%s not counted: %.100s (declared %.0f)", pairs[i].event, e->reason,
				 want);
		pmc_report_add_metric(rep, &m);
	}
}

/* Rates from a kernel's declared work over the measured time: these need no counter at all. */
static void add_declared_rates(struct pmc_report *rep)
{
	double secs = rep->wall_ns_mean / 1e9, v, ld = 0, st = 0;
	struct pmc_metric_value m;

	if (secs <= 0)
		return;
	memset(&m, 0, sizeof(m));
	/* A wall time that is no measurement (the region shorter than the overhead subtracted) gives no rate. */
	m.valid = !rep->wall_unresolved[0];
	snprintf(m.reason, sizeof(m.reason), "%s", rep->wall_unresolved);
	if (pmc_report_get_const(rep, "EXPECTED_FLOPS", &v) == 0 && v > 0) {
		snprintf(m.name, sizeof(m.name), "GFLOP/s (declared work)");
		snprintf(m.desc, sizeof(m.desc), "EXPECTED_FLOPS / SECONDS: the kernel's declared FLOPs over the region time");
		m.value = m.valid ? v / secs / 1e9 : 0;
		pmc_report_add_metric(rep, &m);
	}
	pmc_report_get_const(rep, "EXPECTED_BYTES_LOADED", &ld);
	pmc_report_get_const(rep, "EXPECTED_BYTES_STORED", &st);
	if (ld + st > 0) {
		snprintf(m.name, sizeof(m.name), "GB/s (declared work)");
		snprintf(m.desc, sizeof(m.desc), "(bytes loaded + stored) / SECONDS, from the kernel's declared traffic");
		m.value = m.valid ? (ld + st) / secs / 1e9 : 0;
		pmc_report_add_metric(rep, &m);
	}
}

void pmc_eng_kernel_metrics(struct pmc_report *rep)
{
	add_measured_vs_declared(rep);
	add_declared_rates(rep);
}
