/* SPDX-License-Identifier: MIT */
/* pmctool stat -k: resolving the kernel and its parameters, and what its runner reports besides counts. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/stat.h"

int stat_kernel_prepare(struct stat_opts *o)
{
	char err[256];

	o->k = pmc_kernel_find(o->kernel);
	if (!o->k) {
		const char *near = pmc_kernel_suggest(o->kernel);
		fprintf(stderr, "pmctool: unknown kernel '%s'%s%s%s; 'pmctool kernels' lists them\n", o->kernel,
			near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		return PMC_EXIT_USAGE;
	}
	pmc_kernel_params_init(o->k, &o->kp);
	for (size_t i = 0; i < o->nparams; i++) {
		if (pmc_kernel_params_parse(o->k, o->params[i], &o->kp, err, sizeof(err)) < 0) {
			fprintf(stderr, "pmctool: %s\n", err); /* err names the kernel */
			return PMC_EXIT_USAGE;
		}
	}
	if (pmc_kernel_check_cpu(o->k, err, sizeof(err)) < 0) {
		fprintf(stderr, "pmctool: kernel %s cannot run on this CPU: %s\n", o->k->name, err);
		return PMC_EXIT_USAGE;
	}
	return stat_hybrid_pin(o);
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

void stat_kernel_report(const struct stat_opts *o, const struct pmc_kernel_info *info, struct pmc_report *rep)
{
	struct pmc_named_value vals[PMC_REPORT_MAX_CONSTS];
	char params[160] = "";
	size_t n = 0;

	if (pmc_kernel_params_format(&o->kp, params, sizeof(params)) < 0)
		params[0] = '\0';
	snprintf(rep->workload, sizeof(rep->workload), "kernel %s (iters=%llu%s%s, cpu %d)", o->k->name,
		 (unsigned long long)info->iters, params[0] ? ", " : "", params, info->cpu);
	if (pmc_kernel_expectations(o->k, &o->kp, info->iters, vals, PMC_ARRAY_SIZE(vals), &n) == 0)
		for (size_t i = 0; i < n; i++)
			pmc_report_set_const(rep, vals[i].name, (double)vals[i].value);
	pmc_report_set_const(rep, "REGION_TSC_CYCLES", (double)info->tsc_cycles);
	add_metric(rep, "region TSC cycles", "", "measured with lfence; rdtsc around the kernel",
		   (double)info->tsc_cycles);
	if (info->iters)
		add_metric(rep, "TSC cycles per iteration", "", "region TSC cycles / iterations",
			   (double)info->tsc_cycles / (double)info->iters);
	if (!strncmp(info->read_method, "none", 4))
		pmc_report_add_check(rep, PMC_CHECK_WARN, "read-method", "no counter was read: no event could be opened "
				     "(the notes on the events say why; pmctool info shows what this user may count)");
	else
		pmc_report_add_check(rep, PMC_CHECK_INFO, "read-method", "counters read with %s", info->read_method);
	pmc_report_add_check(rep, PMC_CHECK_INFO, "overhead",
			     "an empty measured region costs %llu TSC cycles (median of %u)%s",
			     (unsigned long long)info->overhead_tsc, info->overhead_samples,
			     info->overhead_subtracted ? "; subtracted from the counts and TSC cycles (--subtract-overhead)"
						       : "; not subtracted (--subtract-overhead to do so)");
}
