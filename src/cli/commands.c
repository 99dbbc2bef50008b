/* SPDX-License-Identifier: MIT */
#include "cli/commands.h"

#include <stddef.h>

const struct pmc_command pmc_commands[] = {
	{ "encode", pmc_cmd_encode, "show how event names encode for perf_event_open (attr, class, perf spelling)" },
	{ "decode", pmc_cmd_decode, "list the libpfm4 event names of a raw code (r5301b1)" },
	{ NULL, NULL, NULL },
};
