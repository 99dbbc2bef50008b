/* SPDX-License-Identifier: MIT */
#include "cli/commands.h"

#include <stddef.h>

const struct pmc_command pmc_commands[] = {
	{ "kernels", pmc_cmd_kernels, "list the built-in kernels and what one iteration of each executes" },
	{ NULL, NULL, NULL },
};
