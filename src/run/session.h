/* SPDX-License-Identifier: MIT */
/* The wait of a scoped measurement (attach, system-wide, intervals): until the launched command exits, the attached
 * tasks are gone, --timeout, --interval-count, a signal or a 'stop' command; starting the counters after -D and on
 * --control's 'enable'/'disable'; an interval callback every -I. The counters are the caller's (perf/evlist.h). */
#ifndef PMC_RUN_SESSION_H
#define PMC_RUN_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "run/launch.h"

enum pmc_session_end {
	PMC_END_NONE = 0,
	PMC_END_COMMAND,   /* the launched command exited */
	PMC_END_TASKS,     /* every attached task is gone */
	PMC_END_TIMEOUT,   /* --timeout */
	PMC_END_INTERVALS, /* --interval-count */
	PMC_END_SIGNAL,    /* SIGINT / SIGTERM */
	PMC_END_CONTROL,   /* 'stop' on the control fd */
};

struct pmc_session {
	uint64_t interval_ns;         /* -I, 0 for none */
	unsigned interval_count;      /* --interval-count, 0 for no limit */
	uint64_t timeout_ns;          /* --timeout, 0 for none */
	long delay_ms;                /* -D: 0 counting from the start, > 0 after that long, -1 until 'enable' */
	int ctl_fd, ack_fd;           /* --control, -1 for none */
	struct pmc_launch *cmd;       /* the launched command (already released with pmc_launch_go), or NULL */
	const pid_t *tasks;           /* attached tasks: the session ends when all are gone */
	size_t ntasks;
	volatile sig_atomic_t *stop;  /* set by a signal handler */
	void (*enable)(void *ctx, bool on); /* start / stop the counters */
	int (*tick)(void *ctx, unsigned n, bool last); /* interval n (1-based) ended: non-zero ends the session */
	uint64_t drain_ns;            /* > 0: call drain(drain_ctx) this often while waiting (--per-thread's buffer) */
	void (*drain)(void *drain_ctx);
	void *drain_ctx;
	void *ctx;

	/* filled by pmc_session_run */
	enum pmc_session_end end;
	uint64_t t0, elapsed_ns;      /* start (CLOCK_MONOTONIC) and length */
	unsigned ticks;
	bool enabled;                 /* the counters' state now */
	unsigned enables, disables;   /* control commands obeyed */
	unsigned bad_commands;        /* control lines that were no command */
};

/* Wait as s says. s->enabled must say whether the counters run now. 0, or -errno when waiting failed. */
int pmc_session_run(struct pmc_session *s);

/* Whether task tid still runs (not gone, not a zombie), from /proc. */
bool pmc_task_alive(pid_t tid);

/* The session's end for a person: "the command exited", "timeout"... */
const char *pmc_session_end_name(enum pmc_session_end e);

#endif
