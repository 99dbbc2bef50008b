/* SPDX-License-Identifier: MIT */
/* cli/opts' parser on arbitrary command lines: the first byte picks a command's table (pmc_opts_tables), the rest is
 * split at newlines into argv and parsed into a zeroed context as that command would. The parse must end with 0 and
 * an operand index inside argv, the help, or a usage status: never a crash or a read past argv. */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static alignas(max_align_t) unsigned char ctx[4096]; /* larger than every command's option struct */
	static FILE *null;
	size_t ntables = 0;
	char *buf, *argv[MAX_ARGS + 2];
	const struct pmc_opts_cmd *cmd;
	int argc = 0, first = -1, rc;
	FILE *out = stdout;

	while (pmc_opts_tables[ntables])
		ntables++;
	if (size < 1 || !ntables)
		return 0;
	cmd = pmc_opts_tables[data[0] % ntables];
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[argc++] = (char *)cmd->name;
	for (char *p = buf, *nl; p && argc < MAX_ARGS + 1; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		argv[argc++] = p;
	}
	argv[argc] = NULL;
	memset(ctx, 0, sizeof(ctx));
	if (!null)
		null = fopen("/dev/null", "w");
	if (null)
		stdout = null; /* --help prints */
	rc = pmc_opts_parse(cmd, argc, argv, ctx, &first);
	stdout = out;
	if (rc == 0 && (first < 1 || first > argc))
		abort();
	if (rc != 0 && rc != PMC_OPTS_HELP && rc != 2)
		abort();
	free(buf);
	return 0;
}
