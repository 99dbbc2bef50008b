/* SPDX-License-Identifier: MIT */
/* The threads of a launched command, each apart (stat --per-thread), the way perf record -s learns them: the
 * counting events are opened with inherit and inherit_stat, so when an inherited thread or child process exits the
 * kernel writes a PERF_RECORD_READ with its pid, tid and its own count into the parent event's ring buffer (an
 * inherited event writes to its parent's buffer). An inherited per-task event cannot be mmapped itself, so one
 * non-inherited dummy event on the command holds the buffer and the counting events are redirected to it
 * (PERF_EVENT_IOC_SET_OUTPUT; each record ends with its event's id, sample_id_all with PERF_SAMPLE_IDENTIFIER). An
 * inherited dummy with comm and task adds PERF_RECORD_FORK (the order threads are created in), PERF_RECORD_COMM
 * (their names) and PERF_RECORD_EXIT. The first thread never writes a record: its own count is the parent event's
 * total minus what the others wrote. No printing here. */
#ifndef PMC_PERF_RING_H
#define PMC_PERF_RING_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perf/perf.h"

#define PMC_THREADS_COMM_LEN 16

/* One task of the command, in the order it was created (the command itself first). */
struct pmc_thread {
	pid_t pid, tid;           /* process and thread */
	char comm[PMC_THREADS_COMM_LEN];
	bool exited;              /* PERF_RECORD_EXIT seen */
	bool forked;              /* PERF_RECORD_FORK seen (false for the first task) */
	bool named;               /* PERF_RECORD_COMM seen */
	unsigned nread;           /* events whose PERF_RECORD_READ arrived */
};

struct pmc_threads {
	size_t nev;               /* counting events (positions of the request) */
	uint64_t *ids;            /* nev: each event's id (PERF_EVENT_IOC_ID), 0 when not open */
	struct pmc_thread *t;     /* n tasks, creation order; t[0] is the command */
	struct pmc_count *counts; /* n x nev: what each task's PERF_RECORD_READ said (value, enabled, running) */
	size_t n, cap;
	uint64_t lost;            /* records the kernel could not write (PERF_RECORD_LOST) */
	uint64_t corrupt;         /* bytes skipped because a record's size made no sense */
	uint64_t unknown;         /* records of other types, skipped */
	uint64_t foreign;         /* PERF_RECORD_READ with an id of no event here */
	uint64_t reads;           /* PERF_RECORD_READ records taken */
	bool nomem;               /* a task could not be added */

	/* the buffer (pmc_threads_open), and the count of tasks created (pmc_threads_open_created; -1: none) */
	int ring_fd, side_fd, created_fd;
	void *map;
	size_t map_len;
	uint64_t data_size;       /* power of two */
	unsigned char *scratch;   /* a record that wraps the end of the buffer is copied here (64 KiB) */
};

/* Empty table for nev events with the command as its first task (tid, comm: its name, as the kernel would shorten
 * it). 0 or -ENOMEM. pmc_threads_fini frees it. */
int pmc_threads_init(struct pmc_threads *th, size_t nev, pid_t tid, const char *comm);

/* Open the buffer on task pid and redirect fds[0..nev) (-1: not open) to it; on_exec: the side-band event starts at
 * the command's exec (as the counting events do), else at once. Try data_pages (a power of two) and fewer when the
 * locked-memory limit refuses. 0 or -errno (every descriptor opened here closed again). */
int pmc_threads_open(struct pmc_threads *th, pid_t pid, const int *fds, bool on_exec, unsigned data_pages);

/* Count, apart from the buffer, the tasks the command creates: an inherited counting event of the tracepoint whose
 * id is given (sched:sched_process_fork, which the kernel fires in kernel_clone for every new thread and process),
 * on task pid, started as pmc_threads_open's. Nothing is written to the buffer for it, so what the buffer loses
 * cannot touch it. It counts in the kernel, so it needs what a kernel count needs (kernel.perf_event_paranoid 1 or
 * less, or CAP_PERFMON). 0 or -errno (nothing left open). */
int pmc_threads_open_created(struct pmc_threads *th, pid_t pid, uint64_t tracepoint, bool on_exec);

/* After the command's end: *ret = the tasks it had, itself included (1 + the tasks created). 0, -ENOENT when
 * pmc_threads_open_created did not open, or -errno of the read. */
int pmc_threads_created(const struct pmc_threads *th, uint64_t *ret);

/* Tasks the command had (created, from pmc_threads_created) without a final count: the rows missing from the report,
 * whether the task was seen (its FORK or COMM arrived, but no READ) or left no record at all. 0 when as many or more
 * tasks have a count (a tid reused within the run can add one). */
size_t pmc_threads_absent(const struct pmc_threads *th, uint64_t created);

/* Read the records written since the last call (no system call). */
void pmc_threads_drain(struct pmc_threads *th);

/* Parse the records in ring[*tail, head) of a buffer of size bytes (a power of two) into the table: records that
 * wrap are joined, every size is bounds-checked (a record that cannot be one skips the rest: counted in corrupt).
 * *tail is advanced to head. pmc_threads_drain's parser, apart for tests fed with crafted buffers. */
void pmc_threads_feed(struct pmc_threads *th, const unsigned char *ring, uint64_t size, uint64_t *tail, uint64_t head);

/* Split total (nev counts: the parent events' read) into rows (n x nev, the table's order): each task's own
 * records, and for the first task the total minus all of them, so the rows sum to the total exactly. A task with
 * no record for an event (still running, or its record lost) gets NOT_COUNTED there; its count stays in the first
 * row. Returns how many tasks (after the first) lack a record for some event. */
size_t pmc_threads_split(const struct pmc_threads *th, const struct pmc_count *total, struct pmc_count *rows);

/* Tasks (after the first) that exited without a PERF_RECORD_READ for any event, when no READ arrived at all and
 * nothing was lost: the kernel writes none (Linux 5.13 until commit 02a4984a3596, "perf/core: Fix missing read
 * event generation on task exit", Dec 2025, set the exiting task's context to TASK_TOMBSTONE before
 * sync_child_event looked at it). 0 otherwise. */
size_t pmc_threads_kernel_silent(const struct pmc_threads *th);

/* After the command (the first task) has ended: true when it had other tasks and its own PERF_RECORD_EXIT never
 * arrived, although nothing was lost. The kernel writes the exits of all the command's tasks into the one buffer from whatever CPU each runs on,
 * and the buffer's position and nesting counters are CPU-local (local_t): tasks exiting at the same time on two CPUs
 * can leave them so that the kernel stops publishing records (data_head) for the rest of the run, without a
 * PERF_RECORD_LOST. Every task seen after that point has no final count, and tasks created after it have no row. */
bool pmc_threads_stalled(const struct pmc_threads *th);

/* Tasks (after the first) known from their final count alone, with neither a PERF_RECORD_FORK nor a PERF_RECORD_COMM:
 * their names are a guess (the command's). Writers on several CPUs at once can overwrite each other's records in
 * the shared buffer (see pmc_threads_stalled) without a PERF_RECORD_LOST. */
size_t pmc_threads_unnamed(const struct pmc_threads *th);

/* Unmap and close what pmc_threads_open opened (the table stays). Accepts a closed table. */
void pmc_threads_close(struct pmc_threads *th);
/* Close and free everything. Accepts a zeroed th. */
void pmc_threads_fini(struct pmc_threads *th);

#endif
