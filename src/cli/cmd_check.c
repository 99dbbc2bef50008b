/* SPDX-License-Identifier: MIT */
/* pmctool check: can counts be trusted on this machine, now? (info/check.h judges; this file measures and prints.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/opts.h"
#include "engine/check_req.h"
#include "info/check.h"
#include "engine/check_uncore.h"
#include "output/check.h"
#include "run/emulate.h"
#include "util/util.h"

struct check_cli {
	bool json;
	bool quick;
};

static const struct pmc_opt check_opts[] = {
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct check_cli, json),
	  .help = "one JSON document instead of text" },
	{ .long_name = "quick", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct check_cli, quick),
	  .help = "only the probe, the exact counts and the read paths (what stat --check runs)" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this help" },
	{ .kind = PMC_OPT_END },
};

static int check_bad_argument(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	(void)missing;
	fprintf(stderr, "pmctool check: unknown argument '%s'; run 'pmctool check --help'\n", arg);
	pmc_opts_suggest(cmd, arg);
	return PMC_EXIT_USAGE;
}

const struct pmc_opts_cmd pmc_opts_check = {
	.name = "check",
	.opts = check_opts,
	.usage = "Usage: pmctool check [--json] [--quick]\n\n"
		 "Can counts be trusted on this machine, now? Runs the built-in loop kernel, whose retired\n"
		 "instructions and branches are known exactly, on every core type and through both read paths (in\n"
		 "process and read()), then the fixed counters, a multiplexed run, the counter width and the NMI\n"
		 "watchdog, and gives each item a verdict: trustworthy, degraded (why) or unavailable (why).\n"
		 "Takes a few seconds.\n\n"
		 "Options:\n",
	.epilogue = "\nExit status: 0 trustworthy, 10 degraded (some item is; counts may still be usable, see it),\n"
		    "11 unavailable (no hardware counting here), 2 bad option, 4 output could not be written.\n",
	.col = 14,
	.bad_option = check_bad_argument,
};

/* One measurement of the loop kernel (the ops of info/check.h): in this process, or with q->command in a forked child
 * counted as a launched command. */
static int measure(void *ctx, const struct pmc_check_req *q, struct pmc_check_sample *s)
{
	struct pmc_eng_check_args a;
	struct pmc_engine_opts e;
	struct pmc_report rep;
	int status;

	pmc_engine_opts_init(&e);
	(void)ctx;
	pmc_eng_check_opts(q, &a, &e);
	if (multi_measure_report(NULL, &e, &rep, &status, s->err, sizeof(s->err))) {
		s->rc = -1;
		return 0;
	}
	pmc_eng_check_sample(&rep, s);
	pmc_report_fini(&rep);
	return 0;
}

int pmc_check_measure_here(bool quick, struct pmc_check_result *res)
{
	static struct pmc_inventory inv;
	struct pmc_check_env env;
	struct pmc_check_ops ops = { .measure = measure, .ctx = NULL };
	char vg[4096];

	pmc_inventory_collect(&inv);
	pmc_check_env_from(&inv, &env);
	env.quick = quick;
	env.emulator = pmc_emulator_find(vg, sizeof(vg));
	if (env.pmu.verdict == PMC_VERDICT_UNAVAILABLE) {
		pmc_check_run(&env, &ops, res); /* measures nothing */
		return 0;
	}
	multi_install_signals();
	pmc_check_run(&env, &ops, res);
	return multi_interrupted ? 130 : 0;
}

int pmc_cmd_check(int argc, char **argv)
{
	static struct pmc_check_result res;
	struct check_cli o = { .json = false };
	char *buf = NULL;
	size_t len = 0;
	int first, rc;
	FILE *f;

	rc = pmc_opts_parse(&pmc_opts_check, argc, argv, &o, &first);
	if (rc)
		return rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
	if (first < argc)
		return check_bad_argument(&pmc_opts_check, argv[first], NULL);
	if ((rc = pmc_check_measure_here(o.quick, &res)))
		return rc;
	pmc_check_uncore_items(&res);
	if (!(f = open_memstream(&buf, &len))) {
		fprintf(stderr, "pmctool check: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	pmc_check_write(f, &res, o.json ? PMC_OUTPUT_JSON : PMC_OUTPUT_TABLE);
	if (fclose(f)) {
		free(buf);
		fprintf(stderr, "pmctool check: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	rc = pmc_cli_write_stdout("check", "report", buf, len);
	free(buf);
	return rc ? rc : pmc_check_exit_status(&res);
}
