/* SPDX-License-Identifier: MIT */
#include "cli/commands.h"

#include <stddef.h>

const struct pmc_command pmc_commands[] = {
	{ NULL, NULL, NULL },
};
