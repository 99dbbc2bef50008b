/* SPDX-License-Identifier: MIT */
/* The command line's spelling of the request fields the engine's messages name (util/diag.h: PMC_FIELD): the one
 * place that maps a field to its flag, so that `pmctool` says "-e" where a library caller reads "events". */
#ifndef PMC_CLI_FIELDS_H
#define PMC_CLI_FIELDS_H

/* The flag of field ("metrics" -> "--metric"), or NULL when the command line has no spelling of its own. */
const char *pmc_cli_field_flag(const char *field);

#endif
