/* SPDX-License-Identifier: MIT */
/* pmctool stat's whole command line on arbitrary bytes: the input is split at newlines into argv, then parsed the
 * way 'pmctool stat' does before it runs anything: options, --metric formulas, -k and --param, the events of -e and
 * -g (libpfm4 forced to hsw), the batch plan and its --dry-run print. Nothing is measured. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/stat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

static void plan_and_print(struct stat_opts *o)
{
	struct pmc_metric_def *metrics = NULL;
	struct pmc_engine_ctx ctx = { 0 };
	struct pmc_engine se;
	FILE *null = fopen("/dev/null", "w");

	pmc_engine_init(&se, &ctx);
	if (stat_resolve(o, &o->e, &o->metric_buf) == 0 && pmc_engine_prepare(&se, &o->e, &metrics) == 0 && null)
		stat_events_print_plan(&se, null);
	if (null)
		fclose(null);
	free(metrics);
	pmc_eng_events_fini(&se);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited;
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
	struct stat_opts o;
	int argc = 0;

	if (!buf)
		return 0;
	if (!inited) {
		setenv("LIBPFM_FORCE_PMU", "hsw", 0);
		pmc_pmu_init(NULL, 0);
		inited = 1;
	}
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "stat";
	for (char *p = buf, *nl; p && argc < MAX_ARGS + 1; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		argv[argc++] = p;
	}
	argv[argc] = NULL;
	memset(&o, 0, sizeof(o));
	if (stat_parse_opts(argc, argv, &o) == 0) {
		if ((o.e.argv && o.e.argv < argv) || (o.e.argv && o.e.argv > argv + argc) || o.e.runs < 1 || o.e.runs > PMC_MAX_RUNS)
			abort(); /* the command is a tail of argv; -r is within its documented range */
		plan_and_print(&o);
		stat_opts_fini(&o);
	}
	free(buf);
	return 0;
}
