/* SPDX-License-Identifier: MIT */
#ifndef PMC_RUN_HOOK_H
#define PMC_RUN_HOOK_H

#include <signal.h>

/* Run cmd with /bin/sh -c and wait for its end: 0 with *status its exit status (128+N when killed by signal N), or
 * -errno when it could not be started (-EINTR: pmctool is being ended and it was not). It is launched as the measured
 * command is (pmc_launch_start): its pid in *child (when not NULL) while it runs, its own process group and guard, so
 * a SIGINT or SIGTERM of pmctool's stops it at once, and nothing of it outlives pmctool, even a SIGKILLed one. */
int pmc_run_hook(const char *cmd, volatile sig_atomic_t *child, int *status);

#endif
