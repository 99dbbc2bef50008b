/* SPDX-License-Identifier: MIT */
#include "cli/commands.h"

#include <stddef.h>

const struct pmc_command pmc_commands[] = {
	{ "stat", pmc_cmd_stat, "measure a command or a built-in kernel with hardware and software counters" },
	{ NULL, NULL, NULL },
};
