/* SPDX-License-Identifier: MIT */
/* Request fields as the command line spells them (fields.h). A field is the name of the engine's request member
 * (struct pmc_engine_opts, include/pmctool_engine.h), or the name of the report-replay request's. */
#include "cli/fields.h"

#include <stddef.h>
#include <string.h>

static const struct {
	const char *field, *flag;
} fields[] = {
	{ "topdown_level", "--topdown" },
	{ "topdown_def", "--topdown-def" },
};

const char *pmc_cli_field_flag(const char *field)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(fields[i].field, field))
			return fields[i].flag;
	return NULL;
}
