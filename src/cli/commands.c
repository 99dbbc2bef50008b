/* SPDX-License-Identifier: MIT */
#include "cli/commands.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "util/util.h"

const struct pmc_command pmc_commands[] = {
	{ "stat", pmc_cmd_stat, "measure a command or a built-in kernel with hardware and software counters" },
	{ "info", pmc_cmd_info, "what this machine can count and why (PMUs, permissions, counter budget)" },
	{ "list", pmc_cmd_list, "list events: libpfm4 PMUs, kernel generic and sysfs events" },
	{ "encode", pmc_cmd_encode, "show how event names encode for perf_event_open (attr, class, perf spelling)" },
	{ "decode", pmc_cmd_decode, "list the libpfm4 event names of a raw code (r5301b1)" },
	{ "kernels", pmc_cmd_kernels, "list the built-in kernels and what one iteration of each executes" },
	{ "sets", pmc_cmd_sets, "list event sets, or show one (events, metrics, checks)" },
	{ "sweep", pmc_cmd_sweep, "measure over a range of a parameter: table, plots, steps (PARAM=RANGE)" },
	{ "compare", pmc_cmd_compare, "compare two reports per event and metric, with a significance test" },
	{ "merge", pmc_cmd_merge, "merge per-rank reports (MPI, Slurm): totals, min/mean/max, imbalance" },
	{ "check", pmc_cmd_check, "can counts be trusted here, now? exact kernels, both read paths, multiplexing: verdicts" },
	{ "report", pmc_cmd_report, "evaluate a saved stat report again: metrics, checks, top-down from its counts" },
	{ "roofline", pmc_cmd_roofline, "the machine's measured ceilings (FLOP/s, bandwidths) and a program's point under them" },
	{ "serve", pmc_cmd_serve, "count continuously and export the counts to Prometheus (OpenMetrics over HTTP)" },
	{ "tables", pmc_cmd_tables, "the vendor event tables found for this CPU, from where, and what was skipped" },
	{ NULL, NULL, NULL },
};

const struct pmc_opts_cmd *const pmc_opts_tables[] = {
	&pmc_opts_info,
	&pmc_opts_list,
	&pmc_opts_encode,
	&pmc_opts_decode,
	&pmc_opts_kernels,
	&pmc_opts_sets,
	&pmc_opts_merge,
	&pmc_opts_stat,
	&pmc_opts_compare,
	&pmc_opts_tables_cmd,
	&pmc_opts_check,
	&pmc_opts_sweep,
	&pmc_opts_report,
	&pmc_opts_roofline,
	&pmc_opts_serve,
	NULL,
};

int pmc_cli_write_stdout(const char *cmd, const char *what, const char *buf, size_t len)
{
	char *safe;
	size_t slen;
	bool done;

	signal(SIGPIPE, SIG_IGN);
	/* output/'s one escaping rule: a table's or a report's name never reaches the terminal raw */
	if (pmc_output_escape_text(buf, len, &safe, &slen)) {
		fprintf(stderr, "pmctool %s: out of memory\n", cmd);
		return PMC_EXIT_INTERNAL;
	}
	done = fwrite(safe, 1, slen, stdout) == slen && fflush(stdout) == 0;
	free(safe);
	if (done)
		return PMC_EXIT_OK;
	if (errno == EPIPE)
		return PMC_EXIT_OK; /* a reader that went away (| head) is not an error */
	fprintf(stderr, "pmctool %s: cannot write the %s to stdout: %s\n", cmd, what, strerror(errno));
	return PMC_EXIT_OUTPUT;
}
