/* SPDX-License-Identifier: MIT */
/* pmctool info: what this machine can count, and why. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "info/inventory.h"
#include "util/util.h"
#include "output/info.h"

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
	pmc_info_write(f, &inv, status, json ? PMC_OUTPUT_JSON : PMC_OUTPUT_TABLE);
	if (fclose(f)) {
		free(buf);
		fprintf(stderr, "pmctool info: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	rc = pmc_cli_write_stdout("info", "report", buf, len);
	free(buf);
	return rc != PMC_EXIT_OK ? rc : status;
}
