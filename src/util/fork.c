/* SPDX-License-Identifier: MIT */
#include "util/fork.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <unistd.h>

/* In the child, before anything can be delivered: no handler of pmctool's survives. SIGKILL and SIGSTOP cannot be
 * asked; glibc's own two (SIGCANCEL, SIGSETXID) answer EINVAL. */
static void child_defaults(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	sigemptyset(&dfl.sa_mask);
	for (int s = 1; s < NSIG; s++) {
		struct sigaction cur;

		if (s == SIGKILL || s == SIGSTOP || sigaction(s, NULL, &cur))
			continue;
		if ((cur.sa_flags & SA_SIGINFO) || (cur.sa_handler != SIG_DFL && cur.sa_handler != SIG_IGN) ||
		    (s == SIGPIPE && cur.sa_handler == SIG_IGN))
			sigaction(s, &dfl, NULL);
	}
}

pid_t pmc_fork_blocked(sigset_t *ret_old)
{
	sigset_t all;
	pid_t pid;
	int e;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, ret_old);
	pid = fork();
	e = errno;
	if (pid == 0)
		child_defaults();
	errno = e;
	return pid;
}

void pmc_fork_unblock(const sigset_t *old)
{
	int e = errno;

	pthread_sigmask(SIG_SETMASK, old, NULL);
	errno = e;
}

void pmc_fork_die_with_parent(pid_t parent, int status)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(status);
}
