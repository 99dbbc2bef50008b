/* SPDX-License-Identifier: MIT */
/* --pre / --post (perf stat's): a shell command run to its end around each run of the measured command. */
#include "run/hook.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int pmc_run_hook(const char *cmd, int *status)
{
	char *const argv[] = { "sh", "-c", (char *)cmd, NULL };
	posix_spawnattr_t attr;
	sigset_t none;
	pid_t pid;
	int r, w;

	/* The hook starts with no signal blocked and SIGINT/SIGTERM as the defaults, whatever pmctool set for itself */
	if ((r = posix_spawnattr_init(&attr)))
		return -r;
	sigemptyset(&none);
	{
		sigset_t deflt;

		sigemptyset(&deflt);
		sigaddset(&deflt, SIGINT);
		sigaddset(&deflt, SIGTERM);
		sigaddset(&deflt, SIGPIPE);
		posix_spawnattr_setsigdefault(&attr, &deflt);
	}
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	r = posix_spawn(&pid, "/bin/sh", NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (r)
		return -r;
	/* To its end, Ctrl-C included (the terminal sends it the signal too): never left running */
	while (waitpid(pid, &w, 0) < 0)
		if (errno != EINTR)
			return -errno;
	*status = WIFEXITED(w) ? WEXITSTATUS(w) : WIFSIGNALED(w) ? 128 + WTERMSIG(w) : 1;
	return 0;
}
