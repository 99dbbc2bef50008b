/* SPDX-License-Identifier: MIT */
#ifndef PMC_RUN_HOOK_H
#define PMC_RUN_HOOK_H

/* Run cmd with /bin/sh -c and wait for its end: 0 with *status its exit status (128+N when killed by signal N), or
 * -errno when it could not be started. */
int pmc_run_hook(const char *cmd, int *status);

#endif
