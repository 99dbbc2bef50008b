/* SPDX-License-Identifier: MIT */
#include "cli/commands.h"

#include <stddef.h>

const struct pmc_command pmc_commands[] = {
	{ "sets", pmc_cmd_sets, "list event sets, or show one (events, metrics, checks)" },
	{ NULL, NULL, NULL },
};
