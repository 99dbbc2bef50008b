/* SPDX-License-Identifier: MIT */
#include "run/launch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "util/fork.h"
#include "util/util.h"

volatile sig_atomic_t pmc_launch_group;
volatile sig_atomic_t pmc_launch_ending;
volatile sig_atomic_t pmc_launch_hurry;

void pmc_launch_signal(int sig, pid_t child)
{
	pid_t g = pmc_launch_group, c = child;

	if (pmc_launch_ending) {
		/* The second: pmctool ends at once with what it has, and the workload with it */
		pmc_launch_hurry = 1;
		sig = SIGKILL;
	} else {
		pmc_launch_ending = sig;
	}
	/* The group, and the command itself should it not be in the group yet (or not have one) */
	if (g > 0)
		kill(-g, sig);
	if (c > 0 && (g <= 0 || c != g))
		kill(c, sig);
}

/* The open-file limit the workload must get: pmctool's own before it raised it for its counters. */
static struct rlimit workload_nofile;
static bool have_workload_nofile;

void pmc_launch_keep_limits(void)
{
	if (!have_workload_nofile && getrlimit(RLIMIT_NOFILE, &workload_nofile) == 0)
		have_workload_nofile = true;
}

int pmc_wait_status_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return PMC_EXIT_INTERNAL;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* What the child runs after the go byte: argv (exec), or fn(ctx) in the forked process, whose return is its exit
 * status. */
struct workload {
	char *const *argv;
	int (*fn)(void *ctx);
	void *ctx;
};

/* The child: wait for the go byte (EOF means cancel), then exec (or run the function); report exec's errno on
 * errpipe. It starts with every signal blocked and pmctool's handlers gone (pmc_fork_blocked); mask: the one pmctool
 * was given. */
static void __attribute__((noreturn)) child_main(const struct workload *w, int go_rd, int err_wr, pid_t parent,
						  bool own_group, int keep_fd, const sigset_t *mask)
{
	char c;
	ssize_t n;
	int e;

	/* The command must never outlive pmctool, even when pmctool is killed with SIGKILL. */
	pmc_fork_die_with_parent(parent, PMC_EXIT_INTERNAL);
	/* Its own process group, so that the guard can take the whole workload down with pmctool (the parent sets it
	 * too: whichever runs first). */
	if (own_group)
		setpgid(0, 0);
	/* pmctool raised its open-file limit for its counters; the workload gets the limit pmctool was given. */
	if (have_workload_nofile)
		setrlimit(RLIMIT_NOFILE, &workload_nofile);
	pmc_fork_unblock(mask); /* a SIGINT or SIGTERM sent meanwhile ends it here, before exec */
	/* Ready (perf's child_ready_pipe): pmctool waits for this before the go byte, so the command is released as a
	 * task that slept, scheduled at once, not as one just forked still queued behind the machine's other work. */
	if (write(err_wr, "r", 1) != 1)
		_exit(PMC_EXIT_INTERNAL);
	do
		n = read(go_rd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(PMC_EXIT_INTERNAL);
	close(go_rd);
	/* stat --regions: the results channel stays open across exec (everything else of pmctool's is close-on-exec). */
	if (keep_fd >= 0)
		fcntl(keep_fd, F_SETFD, 0);
	if (w->fn) {
		close(err_wr); /* end of file: nothing to exec, nothing failed */
		_exit(w->fn(w->ctx));
	}
	execvp(w->argv[0], w->argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0) {
		/* nothing more to tell: the parent sees the exit status */
	}
	_exit(e == ENOENT ? PMC_EXIT_NOTFOUND : PMC_EXIT_NOEXEC);
}

/*
 * When pmctool dies, however it dies, the whole workload goes: the command runs in a process group of its own, and a
 * guard process in that group waits on a pipe only pmctool writes; end of file without pmctool's "done" byte means
 * pmctool is gone, and the guard sends SIGKILL to the group (itself included). PR_SET_PDEATHSIG covers only the
 * direct child. Not when pmctool runs in the foreground of a terminal: there the command stays in pmctool's group,
 * the terminal's foreground, so it can read the terminal and Ctrl-C reaches it (as coreutils' timeout --foreground);
 * only the direct child is then sure to go (pmctool-stat(1) says so).
 */
static bool terminal_foreground(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		pid_t fg = tcgetpgrp(fd);

		if (fg >= 0)
			return fg == getpgrp();
	}
	return false;
}

/* The guard keeps every signal blocked (pmc_fork_blocked): the group's SIGINT, SIGTERM, SIGHUP and SIGTSTP are the
 * workload's, not its; only SIGKILL, its own included, ends it before pmctool does. No PR_SET_PDEATHSIG: it must
 * outlive pmctool to end the group. It is always in the process group of the latest command (pmctool moves it into
 * each new one: pmc_launch_start), which keeps that group's id from being reused while it waits; at end of file it
 * kills its own group, whichever that is then. */
static void __attribute__((noreturn)) guard_main(int rd, pid_t group, pid_t pmctools)
{
	char c = 0;
	ssize_t n;

	prctl(PR_SET_NAME, "pmctool-guard");
	close_range(0, (unsigned)rd - 1, 0);
	close_range((unsigned)rd + 1, ~0u, 0);
	setpgid(0, group);
	do
		n = read(rd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && c == 'd')
		_exit(0);
	if (getpgrp() != pmctools) /* pmctool's group (and its caller's), should no move have taken: never killed */
		kill(0, SIGKILL);
	_exit(0);
}

/* One guard for all the runs of a pmctool process: a fork per run cost a third of what pmctool adds to each run of
 * -r (issue 39). Started with the first command that has a group of its own, moved into each later one, told "done"
 * and reaped once the report is out (pmc_launch_reap_guards). */
static pid_t guard_pid = -1;
static int guard_wr = -1;

static void stop_guard(bool block)
{
	pid_t r;

	if (guard_wr >= 0) {
		if (write(guard_wr, "d", 1) != 1) {
			/* the guard is gone already: nothing to stop */
		}
		close(guard_wr);
		guard_wr = -1;
	}
	if (guard_pid <= 0)
		return;
	do
		r = waitpid(guard_pid, NULL, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r != 0)
		guard_pid = -1; /* reaped, or not ours to reap any more (ECHILD) */
}

void pmc_launch_reap_guards(bool block)
{
	stop_guard(block);
}

/* Put the guard into the process group of pid (starting it the first time); its pid, or -1 when none runs. */
static pid_t guard_group(pid_t pid)
{
	int gp[2];
	sigset_t old;
	pid_t g, pmctools = getpgrp();

	if (guard_pid > 0 && guard_wr >= 0 && setpgid(guard_pid, pid) == 0)
		return guard_pid;
	stop_guard(true); /* gone (killed with the group by a second signal, or by someone): a new one */
	if (pipe2(gp, O_CLOEXEC))
		return -1;
	g = pmc_fork_blocked(&old);
	if (g == 0)
		guard_main(gp[0], pid, pmctools);
	if (g > 0)
		setpgid(g, pid);
	pmc_fork_unblock(&old);
	close(gp[0]);
	if (g < 0) {
		close(gp[1]);
		return -1;
	}
	guard_pid = g;
	guard_wr = gp[1];
	return g;
}

/* /proc/PID/stat's state, parent and process group: 0, or -1 when the process is gone or unreadable. */
static int proc_stat(long pid, char *state, long *ppid, long *pgrp)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the name may hold anything: the fields after it are fixed */
	return p && sscanf(p + 1, " %c %ld %ld", state, ppid, pgrp) == 3 ? 0 : -1;
}

/*
 * A library's caller (pmc_launch_shared_process): the process has children of its own, so pmctool touches only what
 * it started. Its children at each launch are noted (theirs) and never signalled nor reaped; orphans are reaped by
 * their pid, never by waitpid(-1); and the process is a subreaper only while a command runs, as before the launch.
 */
static bool shared_process, subreaper_set_here;
static pid_t *theirs;
static size_t ntheirs, captheirs;

void pmc_launch_shared_process(void)
{
	shared_process = true;
}

void pmc_launch_reset_ending(void)
{
	pmc_launch_ending = 0;
	pmc_launch_hurry = 0;
}

static bool is_theirs(long pid)
{
	for (size_t i = 0; i < ntheirs; i++)
		if (theirs[i] == pid)
			return true;
	return false;
}

/* The calling process's children now (/proc/PID/stat's ppid): the caller's, at a launch in a shared process. */
static void note_theirs(void)
{
	pid_t self = getpid();
	struct dirent *d;
	DIR *dir = opendir("/proc");

	ntheirs = 0;
	while (dir && (d = readdir(dir))) {
		char *p, state;
		long pid = strtol(d->d_name, &p, 10), ppid, pgrp;

		if (*p || pid <= 0 || proc_stat(pid, &state, &ppid, &pgrp) || ppid != self)
			continue;
		if (ntheirs == captheirs) {
			size_t cap = captheirs ? 2 * captheirs : 16;
			pid_t *t = realloc(theirs, cap * sizeof(*t));

			if (!t)
				break;
			theirs = t;
			captheirs = cap;
		}
		theirs[ntheirs++] = (pid_t)pid;
	}
	if (dir)
		closedir(dir);
}

/*
 * The workload's tree: the processes of the command's group (own_group), and pmctool's children other than the
 * command and the guards: orphans of the workload, collected as subreaper (a daemon, a grandchild whose parent
 * died, also when it left the group with setsid). Each living one is sent sig (0: none) and counted; collected
 * ones that have exited are reaped. The command itself is counted while it runs, reaped only by pmc_launch_reap.
 */
static size_t scan_tree(struct pmc_launch *l, int sig)
{
	pid_t self = getpid(), pgid = l->own_group ? l->pid : 0;
	size_t alive = 0;
	bool group_signalled = false;
	struct dirent *d;
	DIR *dir = opendir("/proc");

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		char *p, state;
		long pid = strtol(d->d_name, &p, 10), ppid, pgrp;

		if (*p || pid <= 0 || pid == l->guard || pid == guard_pid || proc_stat(pid, &state, &ppid, &pgrp))
			continue;
		if (!(pgid > 0 && pgrp == pgid) && ppid != self)
			continue;
		if (shared_process && ppid == self && is_theirs(pid))
			continue; /* the library's caller's own child */
		if (state == 'Z' || state == 'X') {
			if (ppid == self && pid != l->pid)
				waitpid((pid_t)pid, NULL, WNOHANG);
			continue;
		}
		alive++;
		if (!sig)
			continue;
		if (pgid > 0 && pgrp == pgid) {
			if (!group_signalled)
				kill(-pgid, sig);
			group_signalled = true;
		} else {
			kill((pid_t)pid, sig);
		}
	}
	closedir(dir);
	return alive;
}

/* Orphans of the workload that have exited (pmctool is their subreaper): by now pmctool's only other children are
 * the guards, one system call when there are none. */
static void reap_orphans(void)
{
	pid_t r;

	while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
		if (r == guard_pid)
			guard_pid = -1; /* killed (its group's SIGKILL): the next run starts another */
}

void pmc_launch_end_tree(struct pmc_launch *l, int sig)
{
	struct pmc_launch_error e = { 0 };
	uint64_t deadline = pmc_now_ns() + (pmc_launch_hurry ? 0 : PMC_LAUNCH_GRACE_MS * 1000000ull);
	bool killed = false;

	if (sig && l->pid > 0 && !l->reaped && !l->own_group)
		kill(l->pid, sig);
	scan_tree(l, sig);
	for (;;) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		pmc_launch_reap(l, false, &e);
		if (!scan_tree(l, 0) && l->reaped)
			return;
		if (pmc_now_ns() >= deadline || (pmc_launch_hurry && !killed)) {
			if (killed)
				break; /* SIGKILL did not take them (a process in uninterruptible sleep): give up */
			if (l->pid > 0 && !l->reaped)
				kill(l->pid, SIGKILL);
			scan_tree(l, SIGKILL);
			killed = true;
			deadline = pmc_now_ns() + PMC_LAUNCH_GRACE_MS * 1000000ull;
		}
		nanosleep(&ts, NULL);
	}
}

static bool subreaper;


static int launch_start(const struct workload *w, volatile sig_atomic_t *child, int keep_fd, struct pmc_launch *l,
			struct pmc_launch_error *err)
{
	int go[2] = { -1, -1 }, ep[2] = { -1, -1 };
	pid_t parent = getpid();
	sigset_t old;

	memset(err, 0, sizeof(*err));
	memset(l, 0, sizeof(*l));
	l->pid = -1;
	l->guard = -1;
	l->go_wr = -1;
	l->err_rd = -1;
	l->child_slot = child;
	l->own_group = !terminal_foreground();
	/* Orphans of the workload (a child whose parent died, a daemon) come to pmctool, which can then end them */
	if (shared_process) {
		int was = 0;

		note_theirs();
		if (!subreaper && prctl(PR_GET_CHILD_SUBREAPER, &was) == 0 && !was)
			subreaper_set_here = subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
	} else if (!subreaper) {
		subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
	}
	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC)) {
		err->what = PMC_LAUNCH_SYSTEM;
		err->err = errno;
		close_fd(&go[0]);
		close_fd(&go[1]);
		return -1;
	}
	l->pid = pmc_fork_blocked(&old);
	if (l->pid < 0) {
		err->what = PMC_LAUNCH_SYSTEM;
		err->err = errno;
		pmc_fork_unblock(&old);
		close_fd(&go[0]);
		close_fd(&go[1]);
		close_fd(&ep[0]);
		close_fd(&ep[1]);
		return -1;
	}
	if (l->pid == 0) {
		close(go[1]);
		close(ep[0]);
		child_main(w, go[0], ep[1], parent, l->own_group, keep_fd, &old);
	}
	/* Where the signal handler looks, before it can run: a signal from now on reaches the command */
	if (l->own_group)
		setpgid(l->pid, l->pid);
	if (l->child_slot)
		*l->child_slot = l->pid;
	if (l->own_group)
		pmc_launch_group = l->pid;
	pmc_fork_unblock(&old);
	close_fd(&go[0]);
	close_fd(&ep[1]);
	l->go_wr = go[1];
	l->err_rd = ep[0];
	if (l->own_group)
		l->guard = guard_group(l->pid);
	return 0;
}

int pmc_launch_start(char *const argv[], volatile sig_atomic_t *child, int keep_fd, struct pmc_launch *l,
		     struct pmc_launch_error *err)
{
	const struct workload w = { .argv = argv };

	return launch_start(&w, child, keep_fd, l, err);
}

int pmc_launch_start_fn(int (*fn)(void *ctx), void *ctx, volatile sig_atomic_t *child, struct pmc_launch *l,
			struct pmc_launch_error *err)
{
	const struct workload w = { .fn = fn, .ctx = ctx };

	return launch_start(&w, child, -1, l, err);
}

int pmc_launch_go(struct pmc_launch *l, struct pmc_launch_error *err)
{
	/* pmctool is being ended (a signal came before the command could have it): the command never starts */
	if (pmc_launch_ending) {
		pmc_launch_cancel(l);
		if (err->what == PMC_LAUNCH_OK) {
			err->what = PMC_LAUNCH_SYSTEM;
			err->err = EINTR;
		}
		return -1;
	}
	{
		char c;
		ssize_t n;

		do
			n = read(l->err_rd, &c, 1); /* its ready byte, or end of file: it died first */
		while (n < 0 && errno == EINTR && !pmc_launch_ending);
	}
	l->t0 = pmc_now_ns();
	if (write(l->go_wr, "g", 1) != 1 && err->what == PMC_LAUNCH_OK) {
		err->what = PMC_LAUNCH_SYSTEM;
		err->err = errno;
	}
	close_fd(&l->go_wr);
	return err->what == PMC_LAUNCH_OK ? 0 : -1;
}

void pmc_launch_cancel(struct pmc_launch *l)
{
	close_fd(&l->go_wr); /* EOF: the child exits without exec */
}

int pmc_launch_reap(struct pmc_launch *l, bool block, struct pmc_launch_error *err)
{
	pid_t r;

	if (l->reaped)
		return 1;
	do {
		r = wait4(l->pid, &l->status, block ? 0 : WNOHANG, &l->ru);
		/* Interrupted: the command had the signal; it gets a bounded time to go (pmc_launch_end_tree) */
		if (r < 0 && errno == EINTR && block && pmc_launch_ending) {
			pmc_launch_end_tree(l, 0);
			if (l->reaped)
				return 1;
		}
	} while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	if (r < 0 && err->what == PMC_LAUNCH_OK) {
		err->what = PMC_LAUNCH_SYSTEM;
		err->err = errno;
	}
	l->wall_ns = l->t0 ? pmc_now_ns() - l->t0 : 0;
	l->reaped = true;
	if (l->child_slot)
		*l->child_slot = 0;
	return 1;
}

int pmc_launch_finish(struct pmc_launch *l, struct pmc_launch_error *err)
{
	int exec_errno = 0;
	ssize_t n;

	if (l->pid > 0 && !l->reaped) {
		pmc_launch_cancel(l);
		pmc_launch_reap(l, true, err);
	}
	if (pmc_launch_ending && l->pid > 0)
		pmc_launch_end_tree(l, 0); /* what is left of the workload after an interrupt */
	else if (shared_process)
		scan_tree(l, 0); /* the workload's exited orphans, by pid: the caller's children are not ours */
	else
		reap_orphans();
	if (shared_process && guard_pid > 0 && waitpid(guard_pid, NULL, WNOHANG) == guard_pid)
		guard_pid = -1;
	if (subreaper_set_here) { /* the caller's process as it was: not a subreaper */
		prctl(PR_SET_CHILD_SUBREAPER, 0);
		subreaper = subreaper_set_here = false;
	}
	pmc_launch_group = 0;
	close_fd(&l->go_wr);
	if (l->err_rd >= 0) {
		do
			n = read(l->err_rd, &exec_errno, sizeof(exec_errno));
		while (n < 0 && errno == EINTR);
		close_fd(&l->err_rd);
		if (n == (ssize_t)sizeof(exec_errno) && err->what == PMC_LAUNCH_OK) {
			err->what = PMC_LAUNCH_EXEC;
			err->err = exec_errno;
		}
	}
	return err->what == PMC_LAUNCH_OK ? 0 : -1;
}
