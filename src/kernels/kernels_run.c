/* SPDX-License-Identifier: MIT */
/* Measuring a kernel in-process: counters on this thread, read with RDPMC through the perf page, else read(). */
#include "kernels/kernels.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "perf/selfread.h"

/* Empty regions measured for the overhead median. */
#define OVERHEAD_SAMPLES 63

struct slot {
	int fd;                /* -1: not opened */
	bool enable;           /* a leader or a lone event: enabled by ioctl */
	struct pmc_selfread sr;
	bool rdpmc;            /* read with RDPMC (probed) */
	bool need_read_times;  /* RDPMC without cap_user_time: times come from read() around the region */
};

struct runner {
	const struct pmc_measure_req *req;
	struct slot *slots;
	size_t n;
	/* The RDPMC events, snapshotted together. */
	const struct perf_event_mmap_page **pages;
	size_t *page_slot;
	size_t npages;
	struct pmc_selfread_value *vals;
	char why[160];         /* why RDPMC could not be used, from the first probe that said no */
};

static uint64_t (*kernel_fn(const struct pmc_kernel *k, const struct pmc_kernel_params *p))(uint64_t, void *)
{
	return k->select ? k->select(p) : k->run;
}

static int open_events(struct runner *r, struct pmc_measure_out *out)
{
	int leader = -1;

	for (size_t i = 0; i < r->n; i++) {
		const struct pmc_event *ev = r->req->events[i];
		struct perf_event_attr attr = ev->attr;
		bool grouped = r->req->group && (ev->flags & PMC_EVF_HARDWARE);
		int fd;

		attr.inherit = 0;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		attr.disabled = !(grouped && leader >= 0);
		fd = pmc_perf_open(&attr, 0, -1, grouped && leader >= 0 ? leader : -1, 0);
		memset(&out->counts[i], 0, sizeof(out->counts[i]));
		if (fd < 0) {
			out->counts[i].status = PMC_COUNT_NOT_SUPPORTED;
			out->counts[i].err = -fd;
			if (fd == -EINVAL && grouped && leader >= 0 && !out->group_err) {
				out->group_err = EINVAL;
				out->group_err_index = (int)i;
			}
			continue;
		}
		r->slots[i].fd = fd;
		r->slots[i].enable = !(grouped && leader >= 0);
		if (grouped && leader < 0)
			leader = fd;
		/* No page, no RDPMC: read() still works. */
		(void)pmc_selfread_map(&r->slots[i].sr, fd);
	}
	return 0;
}

/* After enabling: which events RDPMC can read. */
static void probe_rdpmc(struct runner *r)
{
	char why[160];

	for (size_t i = 0; i < r->n; i++) {
		struct slot *s = &r->slots[i];
		if (s->fd < 0 || !s->sr.page)
			continue;
		if (pmc_selfread_probe(&s->sr, why, sizeof(why))) {
			if (!r->why[0])
				snprintf(r->why, sizeof(r->why), "%s", why);
			continue;
		}
		s->rdpmc = true;
		s->need_read_times = !(s->sr.page->capabilities & (1ull << 3));
		r->pages[r->npages] = s->sr.page;
		r->page_slot[r->npages++] = i;
	}
}

static void read_syscall(struct runner *r, struct pmc_count *ret, bool rdpmc_events)
{
	for (size_t i = 0; i < r->n; i++) {
		struct slot *s = &r->slots[i];
		if (s->fd < 0 || s->rdpmc != rdpmc_events || (rdpmc_events && !s->need_read_times))
			continue;
		if (pmc_perf_read(s->fd, &ret[i]))
			ret[i].status = PMC_COUNT_NOT_COUNTED;
	}
}

/* RDPMC values into ret; an event off the PMU at this instant keeps the read() value taken around it. */
static void read_pages(struct runner *r, struct pmc_count *ret)
{
	pmc_selfread_group_page(r->pages, r->npages, &pmc_selfread_hw_ops, r->vals);
	for (size_t j = 0; j < r->npages; j++) {
		struct pmc_count *c = &ret[r->page_slot[j]];
		if (r->vals[j].from_rdpmc) {
			c->value = r->vals[j].value;
			c->status = PMC_COUNT_OK;
		} else if (!r->slots[r->page_slot[j]].need_read_times) {
			/* Off the PMU at this instant (multiplexed out): the kernel's count is the truth. */
			if (pmc_perf_read(r->slots[r->page_slot[j]].fd, c))
				c->status = PMC_COUNT_NOT_COUNTED;
			continue;
		}
		if (r->vals[j].times_now) {
			c->enabled = r->vals[j].enabled;
			c->running = r->vals[j].running;
		}
	}
}

static void snapshot_start(struct runner *r, struct pmc_count *ret)
{
	read_syscall(r, ret, true);
	read_syscall(r, ret, false);
	read_pages(r, ret);
}

static void snapshot_stop(struct runner *r, struct pmc_count *ret)
{
	read_pages(r, ret);
	read_syscall(r, ret, false);
	read_syscall(r, ret, true);
}

struct region {
	uint64_t tsc, wall_ns, result;
};

/* One measured region; fn NULL measures the empty region. Identical code on both paths but the call. */
static void region(struct runner *r, uint64_t (*fn)(uint64_t, void *), uint64_t iters, void *ctx,
		   struct pmc_count *c0, struct pmc_count *c1, struct region *ret)
{
	uint64_t t0, t1, w0, w1, res = 0;

	snapshot_start(r, c0);
	w0 = pmc_now_ns();
	t0 = pmc_arch_timer_begin();
	if (fn)
		res = fn(iters, ctx);
	t1 = pmc_arch_timer_end();
	w1 = pmc_now_ns();
	snapshot_stop(r, c1);
	ret->tsc = t1 - t0;
	ret->wall_ns = w1 - w0;
	ret->result = res;
}

static void count_delta(const struct pmc_count *a, const struct pmc_count *b, struct pmc_count *ret)
{
	ret->value = b->value - a->value;
	ret->enabled = b->enabled - a->enabled;
	ret->running = b->running - a->running;
	ret->err = 0;
	ret->status = b->status == PMC_COUNT_OK && a->status == PMC_COUNT_OK && ret->running ? PMC_COUNT_OK
											       : PMC_COUNT_NOT_COUNTED;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median counts and TSC cycles of OVERHEAD_SAMPLES empty regions. */
static int measure_overhead(struct runner *r, struct pmc_kernel_info *info)
{
	size_t n = r->n, ns = OVERHEAD_SAMPLES;
	uint64_t *samples = calloc((n + 1) * ns, sizeof(*samples));
	struct pmc_count *c0 = calloc(3 * (n ? n : 1), sizeof(*c0)), *c1 = c0 + n, *d = c1 + n;
	bool *ok = calloc(n ? n : 1, sizeof(*ok));
	struct region reg;

	if (!samples || !c0 || !ok) {
		free(samples);
		free(c0);
		free(ok);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		ok[i] = r->slots[i].fd >= 0;
	for (size_t s = 0; s < ns; s++) {
		region(r, NULL, 0, NULL, c0, c1, &reg);
		samples[n * ns + s] = reg.tsc;
		for (size_t i = 0; i < n; i++) {
			count_delta(&c0[i], &c1[i], &d[i]);
			samples[i * ns + s] = d[i].value;
			/* A software event may legitimately not advance in an empty region: only a failed read spoils it. */
			if (c0[i].status != PMC_COUNT_OK || c1[i].status != PMC_COUNT_OK)
				ok[i] = false;
		}
	}
	for (size_t i = 0; i <= n; i++)
		qsort(samples + i * ns, ns, sizeof(*samples), cmp_u64);
	info->overhead_tsc = samples[n * ns + ns / 2];
	for (size_t i = 0; i < n; i++) {
		info->overhead_valid[i] = ok[i];
		info->overhead[i] = ok[i] ? samples[i * ns + ns / 2] : 0;
	}
	info->overhead_samples = (unsigned)ns;
	free(samples);
	free(c0);
	free(ok);
	return 0;
}

static void warm_up(uint64_t (*fn)(uint64_t, void *), void *ctx, double secs, struct pmc_kernel_info *info)
{
	uint64_t chunk = 1, start = pmc_now_ns(), now = start, limit = (uint64_t)(secs * 1e9);

	while (secs > 0 && now - start < limit) {
		uint64_t t = pmc_now_ns();
		info->result ^= fn(chunk, ctx);
		now = pmc_now_ns();
		/* Calls of a few milliseconds: the clock is read rarely and the end is not overshot by much. */
		if (now - t < 2000000 && chunk < PMC_KERNEL_MAX_ITERS / 2)
			chunk *= 2;
	}
	info->warmup_s = (double)(now - start) / 1e9;
}

static void tv_sub(struct timeval *a, const struct timeval *b)
{
	a->tv_sec -= b->tv_sec;
	a->tv_usec -= b->tv_usec;
	if (a->tv_usec < 0) {
		a->tv_sec--;
		a->tv_usec += 1000000;
	}
}

static void rusage_sub(struct rusage *a, const struct rusage *b)
{
	tv_sub(&a->ru_utime, &b->ru_utime);
	tv_sub(&a->ru_stime, &b->ru_stime);
	a->ru_minflt -= b->ru_minflt;
	a->ru_majflt -= b->ru_majflt;
	a->ru_nvcsw -= b->ru_nvcsw;
	a->ru_nivcsw -= b->ru_nivcsw;
	a->ru_inblock -= b->ru_inblock;
	a->ru_oublock -= b->ru_oublock;
}

static int check_inputs(const struct pmc_kernel *k, const struct pmc_kernel_params *p,
			const struct pmc_kernel_opts *o, const struct pmc_measure_req *req,
			const struct pmc_measure_out *out, char *err, size_t errlen)
{
	if (!k || !p || p->k != k || !o || !req || !out || (req->n && (!req->events || !out->counts))) {
		snprintf(err, errlen, "internal: kernel measurement called with missing arguments");
		return -EINVAL;
	}
	if (o->iters > PMC_KERNEL_MAX_ITERS) {
		snprintf(err, errlen, "%llu iterations is too many: at most 2^40", (unsigned long long)o->iters);
		return -EINVAL;
	}
	if (!(o->warmup_s >= 0 && o->warmup_s <= PMC_KERNEL_MAX_WARMUP_S)) {
		snprintf(err, errlen, "warm-up of %g s is out of range: use 0 to %g seconds", o->warmup_s,
			 PMC_KERNEL_MAX_WARMUP_S);
		return -EINVAL;
	}
	if (o->cpu < -1 || o->cpu >= CPU_SETSIZE) {
		snprintf(err, errlen, "CPU %d does not exist: use 0 to %d, or -1 for the current one", o->cpu,
			 CPU_SETSIZE - 1);
		return -EINVAL;
	}
	if (req->n > PMC_MAX_EVENTS) {
		snprintf(err, errlen, "%zu events in one batch: at most %d", req->n, PMC_MAX_EVENTS);
		return -EINVAL;
	}
	return pmc_kernel_check_cpu(k, err, errlen);
}

static int pin(int cpu, cpu_set_t *old, int *ret_cpu, char *err, size_t errlen)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(*old), old))
		return -errno;
	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0)
		return -errno;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		int e = errno;
		snprintf(err, errlen, "cannot pin to CPU %d: %s (is it online and in this process's allowed set?)", cpu,
			 strerror(e));
		return -e;
	}
	*ret_cpu = cpu;
	return 0;
}

static void read_method(struct runner *r, struct pmc_kernel_info *info)
{
	size_t opened = 0;

	for (size_t i = 0; i < r->n; i++)
		opened += r->slots[i].fd >= 0;
	info->rdpmc = r->npages > 0;
	if (opened == 0)
		snprintf(info->read_method, sizeof(info->read_method), "none: no event could be opened");
	else if (r->npages == opened)
		snprintf(info->read_method, sizeof(info->read_method), "rdpmc");
	else
		snprintf(info->read_method, sizeof(info->read_method), "%s: %s", r->npages ? "rdpmc + read()" : "read()",
			 r->why[0] ? r->why : "an event's perf page could not be mapped");
}

static void subtract(struct pmc_measure_out *out, struct pmc_kernel_info *info, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pmc_count *c = &out->counts[i];
		if (c->status != PMC_COUNT_OK || !info->overhead_valid[i])
			continue;
		c->value = c->value > info->overhead[i] ? c->value - info->overhead[i] : 0;
	}
	info->tsc_cycles = info->tsc_cycles > info->overhead_tsc ? info->tsc_cycles - info->overhead_tsc : 0;
	info->overhead_subtracted = true;
}

static int alloc_runner(struct runner *r, size_t n, struct pmc_kernel_info *info)
{
	size_t m = n ? n : 1;

	r->n = n;
	r->slots = calloc(m, sizeof(*r->slots));
	r->pages = calloc(m, sizeof(*r->pages));
	r->page_slot = calloc(m, sizeof(*r->page_slot));
	r->vals = calloc(m, sizeof(*r->vals));
	info->overhead = calloc(m, sizeof(*info->overhead));
	info->overhead_valid = calloc(m, sizeof(*info->overhead_valid));
	info->event_rdpmc = calloc(m, sizeof(*info->event_rdpmc));
	if (!r->slots || !r->pages || !r->page_slot || !r->vals || !info->overhead || !info->overhead_valid ||
	    !info->event_rdpmc)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		r->slots[i].fd = -1;
		r->slots[i].sr.fd = -1;
	}
	return 0;
}

static void free_runner(struct runner *r)
{
	for (size_t i = 0; r->slots && i < r->n; i++) {
		pmc_selfread_unmap(&r->slots[i].sr);
		if (r->slots[i].fd >= 0)
			close(r->slots[i].fd);
	}
	free(r->slots);
	free(r->pages);
	free(r->page_slot);
	free(r->vals);
}

static void enable_all(struct runner *r, unsigned long req)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->slots[i].fd >= 0 && r->slots[i].enable)
			ioctl(r->slots[i].fd, req, PERF_IOC_FLAG_GROUP);
}

/* Open, warm up, enable, measure the overhead and the region. The counts land in out, the rest in info. */
static int run_measured(struct runner *r, uint64_t (*fn)(uint64_t, void *), void *ctx,
			const struct pmc_kernel_opts *o, struct pmc_measure_out *out, struct pmc_kernel_info *info)
{
	struct pmc_count *c0 = calloc(2 * (r->n ? r->n : 1), sizeof(*c0)), *c1 = c0 + r->n;
	struct rusage ru0, ru1;
	struct region reg;
	int rc;

	if (!c0)
		return -ENOMEM;
	open_events(r, out);
	warm_up(fn, ctx, o->warmup_s, info);
	enable_all(r, PERF_EVENT_IOC_ENABLE);
	probe_rdpmc(r);
	rc = measure_overhead(r, info);
	if (rc)
		goto out;
	getrusage(RUSAGE_THREAD, &ru0);
	region(r, fn, info->iters, ctx, c0, c1, &reg);
	getrusage(RUSAGE_THREAD, &ru1);
	enable_all(r, PERF_EVENT_IOC_DISABLE);
	for (size_t i = 0; i < r->n; i++) {
		if (r->slots[i].fd < 0)
			continue;
		count_delta(&c0[i], &c1[i], &out->counts[i]);
		info->event_rdpmc[i] = r->slots[i].rdpmc;
	}
	rusage_sub(&ru1, &ru0);
	out->ru = ru1;
	out->wall_ns = reg.wall_ns;
	info->tsc_cycles = reg.tsc;
	info->result = reg.result;
	if (o->subtract_overhead)
		subtract(out, info, r->n);
	read_method(r, info);
out:
	free(c0);
	return rc;
}

int pmc_kernel_measure(const struct pmc_kernel *k, const struct pmc_kernel_params *p, const struct pmc_kernel_opts *o,
		       const struct pmc_measure_req *req, struct pmc_measure_out *out, struct pmc_kernel_info *info,
		       char *err, size_t errlen)
{
	struct runner r = { .req = req };
	cpu_set_t old;
	void *ctx = NULL;
	bool pinned = false;
	int rc;

	memset(info, 0, sizeof(*info));
	rc = check_inputs(k, p, o, req, out, err, errlen);
	if (rc)
		return rc;
	out->wall_ns = 0;
	out->wait_status = 0;
	out->interrupted = false;
	out->group_err = 0;
	out->group_err_index = -1;
	info->nevents = req->n;
	info->iters = o->iters ? o->iters : pmc_kernel_default_iters(k, p);
	rc = alloc_runner(&r, req->n, info);
	if (rc) {
		snprintf(err, errlen, "out of memory for %zu events", req->n);
		goto out;
	}
	rc = pin(o->cpu, &old, &info->cpu, err, errlen);
	if (rc) {
		if (!err[0])
			snprintf(err, errlen, "cannot read or set the CPU affinity: %s", strerror(-rc));
		goto out;
	}
	pinned = true;
	if (k->prepare) {
		err[0] = '\0';
		rc = k->prepare(p, &ctx, err, errlen);
		if (rc) {
			if (!err[0])
				snprintf(err, errlen, "kernel '%s': cannot prepare its data: %s", k->name, strerror(-rc));
			goto out;
		}
	}
	rc = run_measured(&r, kernel_fn(k, p), ctx, o, out, info);
	if (rc)
		snprintf(err, errlen, "out of memory while measuring");
out:
	if (rc)
		pmc_kernel_info_fini(info);
	if (ctx && k->release)
		k->release(ctx);
	free_runner(&r);
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
	return rc;
}

void pmc_kernel_info_fini(struct pmc_kernel_info *info)
{
	if (!info)
		return;
	free(info->overhead);
	free(info->overhead_valid);
	free(info->event_rdpmc);
	info->overhead = NULL;
	info->overhead_valid = NULL;
	info->event_rdpmc = NULL;
}
