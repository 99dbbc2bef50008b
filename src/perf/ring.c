/* SPDX-License-Identifier: MIT */
#include "perf/ring.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sys/perf_open.h"

#define SCRATCH_LEN 65536 /* a record's size is 16 bits */

int pmc_threads_init(struct pmc_threads *th, size_t nev, pid_t tid, const char *comm)
{
	memset(th, 0, sizeof(*th));
	th->ring_fd = th->side_fd = th->created_fd = -1;
	th->nev = nev;
	th->ids = calloc(nev ? nev : 1, sizeof(*th->ids));
	th->scratch = malloc(SCRATCH_LEN);
	th->cap = 16;
	th->t = calloc(th->cap, sizeof(*th->t));
	th->counts = calloc(th->cap * (nev ? nev : 1), sizeof(*th->counts));
	if (!th->ids || !th->scratch || !th->t || !th->counts) {
		pmc_threads_fini(th);
		return -ENOMEM;
	}
	th->n = 1;
	th->t[0].pid = th->t[0].tid = tid;
	snprintf(th->t[0].comm, sizeof(th->t[0].comm), "%s", comm ? comm : "?");
	for (size_t i = 0; i < nev; i++)
		th->counts[i].status = PMC_COUNT_NOT_COUNTED;
	return 0;
}

/* comm may point into th->t itself (a new task takes its creator's name): it is copied before the array moves. */
static int add_task(struct pmc_threads *th, pid_t pid, pid_t tid, const char *comm)
{
	size_t nev = th->nev ? th->nev : 1;
	char name[PMC_THREADS_COMM_LEN];

	snprintf(name, sizeof(name), "%s", comm);
	if (th->n == th->cap) {
		size_t cap = th->cap * 2;
		struct pmc_thread *t = realloc(th->t, cap * sizeof(*t));
		struct pmc_count *c;

		if (!t) {
			th->nomem = true;
			return -1;
		}
		th->t = t;
		c = realloc(th->counts, cap * nev * sizeof(*c));
		if (!c) {
			th->nomem = true;
			return -1;
		}
		th->counts = c;
		th->cap = cap;
	}
	memset(&th->t[th->n], 0, sizeof(th->t[0]));
	th->t[th->n].pid = pid;
	th->t[th->n].tid = tid;
	memcpy(th->t[th->n].comm, name, sizeof(name));
	for (size_t i = 0; i < nev; i++)
		th->counts[th->n * nev + i] = (struct pmc_count){ .status = PMC_COUNT_NOT_COUNTED };
	return (int)th->n++;
}

/* The latest task with this tid (tids are reused), -1 when none. */
static int find_task(const struct pmc_threads *th, uint32_t tid)
{
	for (size_t k = th->n; k-- > 0;)
		if ((uint32_t)th->t[k].tid == tid)
			return (int)k;
	return -1;
}

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* PERF_RECORD_READ: pid, tid, value, enabled, running (read_format TOTAL_TIME_ENABLED|RUNNING), the id last. */
static void on_read(struct pmc_threads *th, const unsigned char *r, size_t len)
{
	uint64_t id = u64_at(r + len - 8);
	uint32_t pid = u32_at(r + 8), tid = u32_at(r + 12);
	size_t ev = 0;
	int k;

	while (ev < th->nev && th->ids[ev] != id)
		ev++;
	if (ev == th->nev || !id) {
		th->foreign++;
		return;
	}
	k = find_task(th, tid);
	/* The first task never writes one; a second record for the same event is a new task with a reused tid */
	if (k <= 0 || th->counts[(size_t)k * th->nev + ev].status == PMC_COUNT_OK)
		k = add_task(th, (pid_t)pid, (pid_t)tid, th->t[0].comm);
	if (k < 0)
		return;
	struct pmc_count *c = &th->counts[(size_t)k * th->nev + ev];
	c->value += u64_at(r + 16);
	c->enabled += u64_at(r + 24);
	c->running += u64_at(r + 32);
	c->status = PMC_COUNT_OK;
	th->t[k].nread++;
	th->reads++;
}

/* PERF_RECORD_FORK / EXIT: pid, ppid, tid, ptid, time. */
static void on_task(struct pmc_threads *th, bool fork, const unsigned char *r)
{
	uint32_t pid = u32_at(r + 8), tid = u32_at(r + 16), ptid = u32_at(r + 20);
	int k = find_task(th, tid), parent;

	if (!fork) {
		if (k >= 0)
			th->t[k].exited = true;
		return;
	}
	if (k > 0 && !th->t[k].exited && !th->t[k].nread)
		return; /* told twice */
	parent = find_task(th, ptid);
	/* A new thread has its creator's name until it sets its own (PERF_RECORD_COMM) */
	k = add_task(th, (pid_t)pid, (pid_t)tid, th->t[parent >= 0 ? parent : 0].comm);
	if (k >= 0)
		th->t[k].forked = true;
}

/* PERF_RECORD_COMM: pid, tid, the name (NUL-terminated, padded), then the id. */
static void on_comm(struct pmc_threads *th, const unsigned char *r, size_t len)
{
	uint32_t pid = u32_at(r + 8), tid = u32_at(r + 12);
	size_t max = len - 16 - 8, n = 0;
	int k = find_task(th, tid);
	char name[PMC_THREADS_COMM_LEN];

	while (n < max && n < sizeof(name) - 1 && r[16 + n])
		n++;
	memcpy(name, r + 16, n);
	name[n] = '\0';
	if (k < 0)
		k = add_task(th, (pid_t)pid, (pid_t)tid, name);
	if (k >= 0) {
		memcpy(th->t[k].comm, name, n + 1);
		th->t[k].named = true;
	}
}

static void on_record(struct pmc_threads *th, const unsigned char *r, size_t len)
{
	uint32_t type = u32_at(r);

	switch (type) {
	case PERF_RECORD_READ:
		if (len >= 8 + 8 + 24 + 8)
			on_read(th, r, len);
		else
			th->corrupt += len;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (len >= 8 + 24)
			on_task(th, type == PERF_RECORD_FORK, r);
		else
			th->corrupt += len;
		break;
	case PERF_RECORD_COMM:
		if (len >= 8 + 8 + 8)
			on_comm(th, r, len);
		else
			th->corrupt += len;
		break;
	case PERF_RECORD_LOST:
		if (len >= 8 + 16)
			th->lost += u64_at(r + 16);
		else
			th->corrupt += len;
		break;
	default:
		th->unknown++;
		break;
	}
}

/* len bytes from offset off of the ring (wrapping at size) into dst. */
static void copy_out(const unsigned char *ring, uint64_t size, uint64_t off, unsigned char *dst, size_t len)
{
	size_t first = (size_t)(size - off) < len ? (size_t)(size - off) : len;

	memcpy(dst, ring + off, first);
	memcpy(dst + first, ring, len - first);
}

void pmc_threads_feed(struct pmc_threads *th, const unsigned char *ring, uint64_t size, uint64_t *tail, uint64_t head)
{
	while (*tail != head) {
		uint64_t avail = head - *tail, off;
		struct perf_event_header h;
		const unsigned char *rec;

		/* head behind tail, ahead by more than the buffer, or no room for a header: nothing here can be read */
		if (!size || avail > size || avail < sizeof(h)) {
			th->corrupt += avail > size ? size : avail;
			break;
		}
		off = *tail % size;
		copy_out(ring, size, off, (unsigned char *)&h, sizeof(h));
		if (h.size < sizeof(h) || h.size > avail || !th->scratch) {
			th->corrupt += avail;
			break;
		}
		if (off + h.size <= size) {
			rec = ring + off;
		} else {
			copy_out(ring, size, off, th->scratch, h.size);
			rec = th->scratch;
		}
		on_record(th, rec, h.size);
		*tail += h.size;
	}
	*tail = head;
}

void pmc_threads_drain(struct pmc_threads *th)
{
	struct perf_event_mmap_page *mp = th->map;
	uint64_t head, tail;

	if (!mp)
		return;
	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	tail = mp->data_tail;
	pmc_threads_feed(th, (const unsigned char *)th->map + (th->map_len - th->data_size), th->data_size, &tail,
			 head);
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

static int open_dummy(pid_t pid, bool inherit, bool on_exec)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.exclude_kernel = a.exclude_hv = 1; /* allowed at any perf_event_paranoid; side-band records are not filtered */
	a.disabled = 1;
	if (inherit) {
		a.inherit = 1;
		a.comm = a.task = 1;
		a.sample_id_all = 1;
		a.sample_type = PERF_SAMPLE_IDENTIFIER;
		a.enable_on_exec = on_exec;
	}
	return pmc_perf_open_noted(&a, pid, -1, -1, 0,
				   inherit ? "--per-thread: thread creation and names (fork, comm)"
					   : "--per-thread: the buffer the threads' final counts are written to");
}

int pmc_threads_open(struct pmc_threads *th, pid_t pid, const int *fds, bool on_exec, unsigned data_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	int r = -EINVAL;

	th->ring_fd = open_dummy(pid, false, on_exec);
	if (th->ring_fd < 0) {
		r = th->ring_fd;
		th->ring_fd = -1;
		return r;
	}
	th->side_fd = open_dummy(pid, true, on_exec);
	if (th->side_fd < 0) {
		r = th->side_fd;
		th->side_fd = -1;
		goto fail;
	}
	/* The locked-memory limit (perf_event_mlock_kb, RLIMIT_MEMLOCK) may refuse a large buffer: try smaller */
	for (unsigned p = data_pages ? data_pages : 1; p; p /= 2) {
		th->map_len = (size_t)(p + 1) * (size_t)page;
		th->map = mmap(NULL, th->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, th->ring_fd, 0);
		if (th->map != MAP_FAILED)
			break;
		r = -errno;
		th->map = NULL;
		if (r != -EPERM && r != -ENOMEM)
			goto fail;
	}
	if (!th->map)
		goto fail;
	th->data_size = th->map_len - (size_t)page;
	if (ioctl(th->side_fd, PERF_EVENT_IOC_SET_OUTPUT, th->ring_fd) < 0 ||
	    (!on_exec && ioctl(th->side_fd, PERF_EVENT_IOC_ENABLE, 0) < 0)) {
		r = -errno;
		goto fail;
	}
	for (size_t i = 0; i < th->nev; i++) {
		if (fds[i] < 0)
			continue;
		if (ioctl(fds[i], PERF_EVENT_IOC_SET_OUTPUT, th->ring_fd) < 0 ||
		    ioctl(fds[i], PERF_EVENT_IOC_ID, &th->ids[i]) < 0) {
			r = -errno;
			goto fail;
		}
	}
	return 0;
fail:
	pmc_threads_close(th);
	return r;
}

int pmc_threads_open_created(struct pmc_threads *th, pid_t pid, uint64_t tracepoint, bool on_exec)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = tracepoint;
	a.disabled = 1;
	a.inherit = 1;
	a.enable_on_exec = on_exec;
	fd = pmc_perf_open_noted(&a, pid, -1, -1, 0, "--per-thread: the tasks the command creates (sched_process_fork)");
	if (fd < 0)
		return fd;
	if (!on_exec && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	th->created_fd = fd;
	return 0;
}

int pmc_threads_created(const struct pmc_threads *th, uint64_t *ret)
{
	uint64_t v;
	ssize_t n;

	if (th->created_fd < 0)
		return -ENOENT;
	n = read(th->created_fd, &v, sizeof(v));
	if (n < 0)
		return -errno;
	if (n != sizeof(v))
		return -EIO;
	*ret = v + 1;
	return 0;
}

size_t pmc_threads_absent(const struct pmc_threads *th, uint64_t created)
{
	uint64_t rows = th->n > 0; /* the first task's row is always there: the total minus the others */

	for (size_t k = 1; k < th->n; k++)
		rows += th->t[k].nread > 0;
	return created > rows ? (size_t)(created - rows) : 0;
}

size_t pmc_threads_split(const struct pmc_threads *th, const struct pmc_count *total, struct pmc_count *rows)
{
	size_t nev = th->nev, missing = 0, open = 0;

	for (size_t i = 0; i < nev; i++)
		open += th->ids[i] != 0;
	for (size_t k = 1; k < th->n; k++)
		missing += th->t[k].nread < open;
	for (size_t i = 0; i < nev; i++) {
		struct pmc_count *first = &rows[i];
		*first = total[i];
		for (size_t k = 1; k < th->n; k++) {
			const struct pmc_count *c = &th->counts[k * nev + i];
			rows[k * nev + i] = *c;
			rows[k * nev + i].flags = total[i].flags;
			if (c->status != PMC_COUNT_OK)
				continue;
			/* the total holds every exited task's count: what is left is the first task's own */
			first->value = first->value >= c->value ? first->value - c->value : 0;
			first->enabled = first->enabled >= c->enabled ? first->enabled - c->enabled : 0;
			first->running = first->running >= c->running ? first->running - c->running : 0;
		}
	}
	return missing;
}

size_t pmc_threads_kernel_silent(const struct pmc_threads *th)
{
	size_t exited = 0;

	if (th->reads || th->lost || th->corrupt)
		return 0;
	for (size_t k = 1; k < th->n; k++)
		exited += th->t[k].exited;
	return exited;
}

size_t pmc_threads_unnamed(const struct pmc_threads *th)
{
	size_t n = 0;

	for (size_t k = 1; k < th->n; k++)
		n += !th->t[k].forked && !th->t[k].named;
	return n;
}

bool pmc_threads_stalled(const struct pmc_threads *th)
{
	return th->n > 1 && !th->t[0].exited && !th->lost && !th->corrupt;
}

void pmc_threads_close(struct pmc_threads *th)
{
	if (th->map)
		munmap(th->map, th->map_len);
	th->map = NULL;
	if (th->side_fd >= 0)
		close(th->side_fd);
	if (th->ring_fd >= 0)
		close(th->ring_fd);
	if (th->created_fd >= 0)
		close(th->created_fd);
	th->side_fd = th->ring_fd = th->created_fd = -1;
}

void pmc_threads_fini(struct pmc_threads *th)
{
	if (th->t || th->ids || th->map)
		pmc_threads_close(th);
	free(th->ids);
	free(th->t);
	free(th->counts);
	free(th->scratch);
	memset(th, 0, sizeof(*th));
	th->ring_fd = th->side_fd = th->created_fd = -1;
}
