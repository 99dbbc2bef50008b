/* SPDX-License-Identifier: MIT */
/* Launching a command the way perf does (libperf's prepare/start workload): fork, hold the child on a pipe until the
 * caller has opened its counters on the child's pid (the engine does: engine/exec_cmd.c), release it, reap it. run/
 * launches, holds, releases and reaps processes only: it opens no counter. */
#ifndef PMC_RUN_LAUNCH_H
#define PMC_RUN_LAUNCH_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>


enum pmc_launch_fail {
	PMC_LAUNCH_OK = 0,
	PMC_LAUNCH_EXEC,     /* the command could not be executed: err is execvp's errno */
	PMC_LAUNCH_SYSTEM,   /* fork/pipe/wait failed: err is the errno */
};

struct pmc_launch_error {
	enum pmc_launch_fail what;
	int err;
};

/* A launched command, held before exec until pmc_launch_go: the caller opens its counters on l->pid in between (with
 * enable_on_exec, pmctool's own start-up is never counted) and waits its own way. */
struct pmc_launch {
	pid_t pid;              /* the child; *child_slot while it runs */
	volatile sig_atomic_t *child_slot; /* pmc_launch_start's child, or NULL */
	pid_t guard;            /* the guard process, -1 when none (terminal foreground) */
	int go_wr, err_rd;
	bool own_group, reaped;
	uint64_t t0, wall_ns;   /* go time; exec to reap */
	int status;             /* wait4's, once reaped */
	struct rusage ru;
};

/* Fork the child, held on its go pipe; its pid goes to *child (when not NULL) until it is reaped, for the caller's
 * signal handler. keep_fd: a descriptor the command inherits across exec (stat --regions' results channel), -1 for
 * none. 0, or -1 with *err filled (nothing left running). */
int pmc_launch_start(char *const argv[], volatile sig_atomic_t *child, int keep_fd, struct pmc_launch *l,
		     struct pmc_launch_error *err);
/* The same, for a function: the forked child runs fn(ctx) after the go byte instead of an exec, and exits with its
 * return (pmctool's own code before it: a few system calls; nothing is exec'd, so enable_on_exec never fires: the
 * caller enables its counters just before pmc_launch_go). fn must not return into pmctool's state: it runs in a copy
 * of the process, with signals as the command would have them. */
int pmc_launch_start_fn(int (*fn)(void *ctx), void *ctx, volatile sig_atomic_t *child, struct pmc_launch *l,
			struct pmc_launch_error *err);
/* Let it exec (the clock starts). 0 or -1 with *err filled (EINTR: pmctool is being ended, the command was cancelled). */
int pmc_launch_go(struct pmc_launch *l, struct pmc_launch_error *err);
/* Never let it exec: it exits at once. */
void pmc_launch_cancel(struct pmc_launch *l);
/* Reap it: 1 when it has ended (l->status, l->ru, l->wall_ns set), 0 when still running (block false). */
int pmc_launch_reap(struct pmc_launch *l, bool block, struct pmc_launch_error *err);
/* Reap it if not done (cancelling first when it never went), stop the guard, and learn whether exec failed (err->what
 * PMC_LAUNCH_EXEC). 0 or -1. Always leaves nothing running. */
int pmc_launch_finish(struct pmc_launch *l, struct pmc_launch_error *err);

/* Remember the limits the workload must get (the open-file limit), before pmctool raises its own for its counters;
 * the command is given them back before exec. */
void pmc_launch_keep_limits(void);

/* Its process group when it has one of its own (not in a terminal's foreground), else 0. */
extern volatile sig_atomic_t pmc_launch_group;
/* The signal pmctool was ended with (pmc_launch_signal), 0 before. */
extern volatile sig_atomic_t pmc_launch_ending;

/* A second SIGINT/SIGTERM came (pmc_launch_signal): no grace for the workload, no work that can be left out. */
extern volatile sig_atomic_t pmc_launch_hurry;

/* For a SIGINT/SIGTERM handler (async-signal-safe), also when no command runs: send sig to the command's process
 * group (to the command alone, child: the pid its launch wrote, when it has none), and remember that pmctool is
 * ending it: from then on every wait for the command is bounded (pmc_launch_end_tree), pmc_launch_finish ends what
 * is left of its tree, and pmc_launch_go never lets another command start. A second call sends SIGKILL instead and
 * sets pmc_launch_hurry. */
void pmc_launch_signal(int sig, pid_t child);
/* The process is a library's caller (libpmctool-engine), with children of its own: launches note them and never
 * signal nor reap them, orphans are reaped by pid, and the process is a subreaper only while a command runs. */
void pmc_launch_shared_process(void);
/* A new measurement in a shared process: the ending of the last one (pmc_launch_signal) is forgotten. */
void pmc_launch_reset_ending(void);

/* How long the workload has to go after it was signalled, before SIGKILL (and again after SIGKILL, before giving
 * up on a process that cannot die). */
#define PMC_LAUNCH_GRACE_MS 2000

/* End the workload's tree: send sig (0: none; it was sent) to the command's process group (the command alone when
 * it has none) and to the processes pmctool collected as subreaper (orphans of the workload, setsid'd ones
 * included), wait until all are gone, at most PMC_LAUNCH_GRACE_MS, then SIGKILL whatever is left of them; the
 * command is reaped (l->status). A process that another subreaper adopted, or that left the group while its parent
 * lives on outside the workload, is not found. */
void pmc_launch_end_tree(struct pmc_launch *l, int sig);

/* Tell the guard (one for all the launches of this process, in the latest command's group) to exit, and reap it:
 * after the report, so its exit is off pmctool's path. block false: only when it has exited at once. */
void pmc_launch_reap_guards(bool block);

/* Whether the kernel will stop counting the command argv0 (found on PATH as execvp finds it) at its exec, because
 * it gains privilege there (run/privexec.c): set-user-ID or set-group-ID of another owner, file capabilities, or
 * not readable by the caller; why says which file and how. Only the command itself: a privileged program its
 * descendants run is not seen. */
bool pmc_launch_gains_privilege(const char *argv0, char *why, size_t len);

/* Exit status a shell would give for a wait status: the exit code, or 128+signal. */
int pmc_wait_status_code(int wait_status);

/* The file execvp would run for name into buf: with a '/', name itself; else the first executable regular file on
 * PATH (/bin:/usr/bin when PATH is unset or empty). false when there is none. */
bool pmc_path_resolve(const char *name, char *buf, size_t len);

#endif
