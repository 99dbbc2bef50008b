/* SPDX-License-Identifier: MIT */
/*
 * The emulated backend (issue 25): where no PMU counts, valgrind (its lackey tool's basic counts) counts the
 * user-mode instructions a command executes, exactly (for the CPU valgrind emulates), at a large slowdown. Chosen explicitly only
 * (stat --emulate, instructions:u@emulated); never substituted for a counter.
 */
#ifndef PMC_RUN_EMULATE_H
#define PMC_RUN_EMULATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PMC_EMULATE_MAX_ARGS 16 /* valgrind's own words before the command's */

/* valgrind on PATH (the file execvp would run: run/launch.h's pmc_path_resolve), into buf; NULL when none. */
const char *pmc_emulator_find(char *buf, size_t len);

#define PMC_EMULATE_MAX_LOG (1u << 20) /* a valgrind log is a few KiB */

/* valgrind's argv for counting argv's instructions into dir (its logs vg.PID.N.log, one per process image): words
 * (PMC_EMULATE_MAX_ARGS + the command's + 1 pointers) is filled, the option text lives in store (storelen bytes).
 * 0, or -E2BIG. */
int pmc_emulate_argv(const char *valgrind, const char *dir, char *const argv[], char **words, size_t nwords,
		     char *store, size_t storelen);

struct pmc_emulate_count {
	uint64_t instructions;  /* the sum over every process image valgrind counted */
	unsigned images;        /* how many it counted */
	unsigned uncounted;     /* images it started but never summed: replaced by exec (or killed by SIGKILL) */
	bool top_seen;          /* a log is of the command itself; false: it exec'd (its log was reused by the new image) */
	char uncounted_cmd[160]; /* the first of those, for the warning */
};

/* Read and remove every valgrind log in dir; argv: the command, to find its own log. 0 and *ret; -ENOENT when no image was counted (why says so), -EINVAL
 * when a log is not one of lackey's, -EIO. */
int pmc_emulate_collect(const char *dir, char *const argv[], struct pmc_emulate_count *ret, char *why, size_t whylen);

/* Parse one log's text: 0 with its "guest instrs:" count (and its "Command:"), -ENODATA when it has a command but no
 * count (the image exec'd), -EINVAL when it is not a valgrind log with either (the fuzz target's entry). */
int pmc_emulate_parse(const char *text, uint64_t *ret_count, char *cmd, size_t cmdlen);

#endif
