/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "config.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: pmctool [--help] [--version] COMMAND [ARGS...]\n\n"
		   "Measure programs with the CPU's performance counters (Linux perf_event_open, libpfm4).\n\n"
		   "Commands:\n");
	for (const struct pmc_command *c = pmc_commands; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\n'pmctool COMMAND --help' describes a command; man pmctool has the details and exit statuses.\n"
		   "Example: pmctool stat -e cycles,instructions -- ./prog args\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return PMC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return PMC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("pmctool %s\n", PMC_VERSION);
		return PMC_EXIT_OK;
	}
	for (const struct pmc_command *c = pmc_commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->run(argc - 1, argv + 1);
	fprintf(stderr, "pmctool: '%s' is not a command; run 'pmctool --help' for the list\n", argv[1]);
	return PMC_EXIT_USAGE;
}
