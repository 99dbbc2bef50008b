/* SPDX-License-Identifier: MIT */
/* Every process pmctool forks, forked with every blockable signal blocked: pmctool's own handlers (SIGINT and
 * SIGTERM forward the signal to the workload's process group) must never run in a child, where they would signal the
 * child's own group forever, and a signal that arrives around the fork must reach the parent once its bookkeeping
 * (the child's pid, its process group) is done, not be lost between the two. */
#ifndef PMC_UTIL_FORK_H
#define PMC_UTIL_FORK_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* fork() with every blockable signal blocked in the calling thread; *ret_old gets the mask to restore. In the child
 * (0), every signal with a handler of pmctool's and SIGPIPE (which pmctool ignores for itself) are back to SIG_DFL,
 * all still blocked: the child sets what it needs (SIG_IGN for a guard), then calls pmc_fork_unblock. In the parent
 * (> 0, or -1 with errno when fork failed), signals stay blocked until pmc_fork_unblock, after the caller has recorded
 * the child where its handler looks. */
pid_t pmc_fork_blocked(sigset_t *ret_old);
/* Restore the mask pmc_fork_blocked saved. */
void pmc_fork_unblock(const sigset_t *old);

/* In a child: die with SIGKILL when the parent (parent: its pid before the fork) dies, also when it died before this
 * call (then _exit(status) at once). */
void pmc_fork_die_with_parent(pid_t parent, int status);

#endif
