/* SPDX-License-Identifier: MIT */
/* Subcommands: one file each (cmd_<name>.c), each with its own options, help text and a run returning an exit status. */
#ifndef PMC_CLI_COMMANDS_H
#define PMC_CLI_COMMANDS_H
#include <stdbool.h>
#include <stddef.h>

struct pmc_command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
	const char *summary;
};

int pmc_cmd_stat(int argc, char **argv);
int pmc_cmd_info(int argc, char **argv);
int pmc_cmd_list(int argc, char **argv);
int pmc_cmd_encode(int argc, char **argv);
int pmc_cmd_decode(int argc, char **argv);

int pmc_cmd_kernels(int argc, char **argv);
int pmc_cmd_sets(int argc, char **argv);
int pmc_cmd_sweep(int argc, char **argv);
int pmc_cmd_compare(int argc, char **argv);
int pmc_cmd_merge(int argc, char **argv);
int pmc_cmd_tables(int argc, char **argv);
int pmc_cmd_check(int argc, char **argv);
/* The check's items measured here (stat --check runs the quick part); 0 or an exit status. */
struct pmc_check_result;
int pmc_check_measure_here(bool quick, struct pmc_check_result *res);
int pmc_cmd_report(int argc, char **argv);
int pmc_cmd_roofline(int argc, char **argv);
int pmc_cmd_serve(int argc, char **argv);

/* The option tables (cli/opts.h) of the commands that have one; pmc_opts_tables lists them, ending with NULL (the
 * unit tests check every table's help against its golden file's options and its spellings for clashes). */
struct pmc_opts_cmd;
extern const struct pmc_opts_cmd pmc_opts_info, pmc_opts_list, pmc_opts_encode, pmc_opts_decode, pmc_opts_kernels,
	pmc_opts_sets, pmc_opts_merge, pmc_opts_stat, pmc_opts_compare, pmc_opts_tables_cmd, pmc_opts_check;
extern const struct pmc_opts_cmd pmc_opts_report, pmc_opts_roofline, pmc_opts_serve;
extern const struct pmc_opts_cmd pmc_opts_sweep; /* its more (stat's table) is set where it parses */
extern const struct pmc_opts_cmd *const pmc_opts_tables[];

/* The table, ending with a NULL name. */
extern const struct pmc_command pmc_commands[];

/* Write a command's whole output (built in memory first, so it is never half-made by our own failure) to stdout:
 * PMC_EXIT_OK, also when the reader went away (EPIPE); else PMC_EXIT_OUTPUT after "pmctool CMD: cannot write the
 * WHAT to stdout: ..." on stderr. */
int pmc_cli_write_stdout(const char *cmd, const char *what, const char *buf, size_t len);

#endif
