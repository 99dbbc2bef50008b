/* SPDX-License-Identifier: MIT */
/* The engine: who and where a scoped measurement counts (-p, -t, -a, -C), and the rows its counts fold into
 * (-A, --per-core, --per-die, --per-socket from sysfs topology; --per-thread). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/fields.h"
#include "engine/scope.h"
#include "sys/cgroup.h"
#include "sys/sysfs.h"
#include "run/session.h"

#define MAX_CPUS 8192

static int add_target(struct scope_targets *st, size_t *cap, pid_t pid, int cpu)
{
	if (pmc_grow((void **)&st->t, cap, st->ntargets, sizeof(*st->t)))
		return -ENOMEM;
	st->t[st->ntargets++] = (struct pmc_target){ .pid = pid, .cpu = cpu };
	return 0;
}

static bool have_watch(const struct scope_targets *st, pid_t pid)
{
	for (size_t w = 0; w < st->nwatch; w++)
		if (st->watch[w] == pid)
			return true;
	return false;
}

struct attach_ctx {
	struct scope_targets *st;
	size_t cap, wcap;
	bool threads; /* -t: the id is a thread; -p: a process, all its threads */
};

static void read_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[96], line[80]; /* a kernel worker's name is longer than a task's 16 bytes ("kworker/u8:0-events") */

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if (pmc_sysfs_read_line(path, line, sizeof(line)) < 0)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%.*s", (int)(len - 1), line);
}

static int add_task(struct attach_ctx *a, pid_t pid, pid_t tid)
{
	struct scope_targets *st = a->st;
	struct pmc_row_scope *r;

	if (add_target(st, &a->cap, tid, -1))
		return -ENOMEM;
	/* rows and row_of grow with the targets: a row per task, used by --per-thread */
	r = realloc(st->rows, (st->nrows + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	st->rows = r;
	r = &st->rows[st->nrows++];
	memset(r, 0, sizeof(*r));
	r->kind = PMC_ROW_THREAD;
	r->pid = pid;
	r->tid = tid;
	read_comm(pid, tid, r->comm, sizeof(r->comm));
	snprintf(r->label, sizeof(r->label), "%s-%d", r->comm, (int)tid);
	return 0;
}

void scope_note_id(char *list, size_t len, long id)
{
	size_t off = strlen(list);

	if (off < len - 16)
		snprintf(list + off, len - off, "%s%ld", off ? "," : "", id);
	else if (off < len - 4 && strcmp(list + off - 3, "..."))
		snprintf(list + off, len - off, ",...");
}

static void note_missing(struct scope_targets *st, long id)
{
	scope_note_id(st->missing, sizeof(st->missing), id);
}

/* Whether tid is a target already: counting a task twice would double its counts (perf merges them too). */
static bool have_task(const struct scope_targets *st, pid_t tid)
{
	for (size_t t = 0; t < st->ntargets; t++)
		if (st->t[t].pid == tid)
			return true;
	return false;
}

static int attach_one(long id, void *ctx)
{
	struct attach_ctx *a = ctx;
	struct scope_targets *st = a->st;
	char path[64];
	pid_t pid = (pid_t)id;
	DIR *d;
	struct dirent *de;
	bool dup_noted = false;

	if (!pmc_task_alive(pid)) {
		note_missing(st, id);
		return 0;
	}
	if (a->threads ? have_task(st, pid) : have_watch(st, pid)) {
		scope_note_id(st->duplicate, sizeof(st->duplicate), id);
		return 0;
	}
	if (pmc_grow((void **)&st->watch, &a->wcap, st->nwatch, sizeof(*st->watch)))
		return -ENOMEM;
	st->watch[st->nwatch++] = pid;
	if (a->threads) {
		/* A thread's process: the Tgid line of its status. */
		char line[64];
		FILE *f;
		pid_t tgid = pid;

		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "Tgid: %d", &tgid) == 1)
				break;
		if (f)
			fclose(f);
		return add_task(a, tgid, pid);
	}
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d) {
		note_missing(st, id);
		st->nwatch--;
		return 0;
	}
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);
		if (tid > 0 && have_task(st, (pid_t)tid)) {
			/* a thread of a process named before (its tid given with -p) */
			if (!dup_noted)
				scope_note_id(st->duplicate, sizeof(st->duplicate), id);
			dup_noted = true;
			continue;
		}
		if (tid > 0 && add_task(a, pid, (pid_t)tid)) {
			closedir(d);
			return -ENOMEM;
		}
	}
	closedir(d);
	return 0;
}

struct cpus_ctx {
	struct scope_targets *st;
	const struct pmc_engine_opts *o;
	const char *online;
	size_t cap;
};

static int add_cpu(long c, void *ctx)
{
	struct cpus_ctx *x = ctx;

	if (c < 0 || c >= MAX_CPUS || !pmc_cpulist_has(x->online, (int)c)) {
		pmc_diag_error(RQ_CPUS ": CPU %ld is not online (online: %s)", c, x->online);
		return PMC_EXIT_USAGE;
	}
	for (size_t t = 0; t < x->st->ntargets; t++)
		if (x->st->t[t].cpu == (int)c)
			return 0;
	return add_target(x->st, &x->cap, -1, (int)c) ? PMC_EXIT_INTERNAL : 0;
}

/* The online CPUs, or those of -C (each must be online). 0, or an exit status after the message. */
static int build_cpus(const struct pmc_engine_opts *o, struct scope_targets *st)
{
	char online[1024], path[512];
	struct cpus_ctx x = { .st = st, .o = o, .online = online };
	int r;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", pmc_sysfs_root());
	if (pmc_sysfs_read_line(path, online, sizeof(online)) < 0) {
		pmc_diag_error("cannot read the online CPUs from %s", path);
		return PMC_EXIT_INTERNAL;
	}
	if (o->targets.ncpus) {
		for (size_t i = 0; i < o->targets.ncpus; i++)
			if ((r = add_cpu(o->targets.cpus[i], &x)))
				return r;
	} else {
		for (int c = 0; c < MAX_CPUS; c++)
			if (pmc_cpulist_has(online, c) && add_target(st, &x.cap, -1, c))
				return PMC_EXIT_INTERNAL;
	}
	st->cpus = true;
	return 0;
}

/* The NUMA node of CPU cpu: the nodeN entry of its sysfs directory (0 when the kernel has no NUMA). */
static int node_of(int cpu)
{
	char path[512];
	struct dirent *de;
	DIR *d;
	int node = 0;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d", pmc_sysfs_root(), cpu);
	d = opendir(path);
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' && de->d_name[4] <= '9') {
			node = atoi(de->d_name + 4);
			break;
		}
	if (d)
		closedir(d);
	return node;
}

/* --per-cache: the data or unified cache of CPU cpu at level (0: the highest it has): "S0-D0-L3-ID0", perf's label,
 * from cache/index*: its level, type and id (the first CPU of shared_cpu_list where the kernel gives no id). */
static void cache_label(int cpu, int level, int socket, int die, char *buf, size_t len)
{
	char path[512], line[256];
	int best = -1;
	long lvl, id = -1, best_id = 0;

	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/level", pmc_sysfs_root(), cpu, i);
		if (pmc_sysfs_read_long(path, &lvl) < 0)
			break;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/type", pmc_sysfs_root(), cpu, i);
		if (pmc_sysfs_read_line(path, line, sizeof(line)) == 0 && !strcmp(line, "Instruction"))
			continue;
		if (level ? lvl != level : lvl <= best)
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/id", pmc_sysfs_root(), cpu, i);
		if (pmc_sysfs_read_long(path, &id) < 0) {
			snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
				 pmc_sysfs_root(), cpu, i);
			id = pmc_sysfs_read_line(path, line, sizeof(line)) == 0 ? strtol(line, NULL, 10) : cpu;
		}
		best = (int)lvl;
		best_id = id;
	}
	if (best < 0)
		snprintf(buf, len, "S%d-D%d-L?-ID%d", socket, die, cpu); /* no such cache: a row of its own */
	else
		snprintf(buf, len, "S%d-D%d-L%d-ID%ld", socket, die, best, best_id);
}

static int topo_id(int cpu, const char *file)
{
	char path[512];
	long v;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", pmc_sysfs_root(), cpu, file);
	return pmc_sysfs_read_long(path, &v) == 0 && v >= 0 ? (int)v : 0;
}

/* The row of CPU cpu under aggregation aggr: found among the rows so far, or added. -1 on ENOMEM. */
static int cpu_row(struct scope_targets *st, size_t *cap, enum pmc_aggr aggr, int cache_level, int cpu)
{
	struct pmc_row_scope r;

	memset(&r, 0, sizeof(r));
	r.socket = topo_id(cpu, "physical_package_id");
	r.die = topo_id(cpu, "die_id");
	r.core = topo_id(cpu, "core_id");
	r.cpu = cpu;
	switch (aggr) {
	case PMC_AGGR_CPU:
		r.kind = PMC_ROW_CPU;
		snprintf(r.label, sizeof(r.label), "CPU%d", cpu);
		break;
	case PMC_AGGR_CORE:
		r.kind = PMC_ROW_CORE;
		snprintf(r.label, sizeof(r.label), "S%d-D%d-C%d", r.socket, r.die, r.core);
		break;
	case PMC_AGGR_CACHE:
		r.kind = PMC_ROW_CACHE;
		cache_label(cpu, cache_level, r.socket, r.die, r.label, sizeof(r.label));
		break;
	case PMC_AGGR_NODE:
		r.kind = PMC_ROW_NODE;
		snprintf(r.label, sizeof(r.label), "N%d", node_of(cpu));
		break;
	case PMC_AGGR_DIE:
		r.kind = PMC_ROW_DIE;
		snprintf(r.label, sizeof(r.label), "S%d-D%d", r.socket, r.die);
		break;
	default:
		r.kind = PMC_ROW_SOCKET;
		snprintf(r.label, sizeof(r.label), "S%d", r.socket);
		break;
	}
	for (size_t i = 0; i < st->nrows; i++)
		if (!strcmp(st->rows[i].label, r.label)) {
			st->rows[i].ncpus++;
			return (int)i;
		}
	if (pmc_grow((void **)&st->rows, cap, st->nrows, sizeof(*st->rows)))
		return -1;
	r.ncpus = 1;
	st->rows[st->nrows] = r;
	return (int)st->nrows++;
}

/* A cgroup that cannot be opened: why, and what to do. An exit status. */
static int cgroup_error(const char *name, int err)
{
	char mount[4096] = "";

	if (pmc_cgroup_mount(mount, sizeof(mount)) < 0) {
		pmc_diag_error("cgroup '%s': no cgroup file system holding the perf_event controller is mounted (cgroup v2, "
			       "or v1's perf_event): events cannot be restricted to a cgroup here", name);
		return PMC_EXIT_NOCOUNT;
	}
	if (err == -ENOENT || err == -ENOTDIR || err == -EINVAL) {
		pmc_diag_error("no cgroup '%s' under %s (the hierarchy holding perf_event; names are paths under it, as "
			       "perf's " RQ_CGROUPS " takes them): 'ls %s' lists them", name, mount, mount);
		return PMC_EXIT_USAGE;
	}
	pmc_diag_error("cgroup '%s' under %s: %s", name, mount, strerror(-err));
	return PMC_EXIT_NOCOUNT;
}

/* --for-each-cgroup / -G: the CPU targets once per cgroup (its directory's descriptor, PERF_FLAG_PID_CGROUP), a row
 * per cgroup. 0 or an exit status after the message. */
static int build_cgroups(const struct pmc_engine_opts *o, struct scope_targets *st)
{
	size_t ncpu = st->ntargets, cap = 0, n = o->targets.ncgroups;
	struct pmc_target *cpus = st->t;
	int r = 0;

	st->t = NULL;
	st->ntargets = 0;
	st->cgroup_fds = malloc(n * sizeof(*st->cgroup_fds));
	st->rows = calloc(n, sizeof(*st->rows));
	if (!st->cgroup_fds || !st->rows) {
		free(cpus);
		return PMC_EXIT_INTERNAL;
	}
	for (size_t c = 0; c < n && !r; c++) {
		int fd = pmc_cgroup_open(o->targets.cgroups[c]);

		if (fd < 0) {
			r = cgroup_error(o->targets.cgroups[c], fd);
			break;
		}
		st->cgroup_fds[st->ncgroups++] = fd;
		st->rows[c].kind = PMC_ROW_CGROUP;
		snprintf(st->rows[c].label, sizeof(st->rows[c].label), "%s", o->targets.cgroups[c]);
		st->rows[c].ncpus = (unsigned)ncpu;
		st->nrows = c + 1;
		for (size_t k = 0; k < ncpu && !r; k++) {
			if (add_target(st, &cap, fd, cpus[k].cpu))
				r = PMC_EXIT_INTERNAL;
			else
				st->t[st->ntargets - 1].cgroup = true;
		}
	}
	free(cpus);
	return r;
}

int scope_targets_build(const struct pmc_engine_opts *o, struct scope_targets *st)
{
	struct attach_ctx a = { .st = st, .threads = o->targets.ntids > 0 };
	int r = 0;

	memset(st, 0, sizeof(*st));
	if (pmc_target_req_tasks(&o->targets)) {
		const pid_t *ids = o->targets.npids ? o->targets.pids : o->targets.tids;
		size_t n = o->targets.npids ? o->targets.npids : o->targets.ntids;

		for (size_t i = 0; i < n; i++)
			if (attach_one(ids[i], &a))
				return PMC_EXIT_INTERNAL;
		if (!st->ntargets) {
			pmc_diag_error("no such %s: %s (%s)", o->targets.npids ? "process" : "thread",
				st->missing, "gone, or never existed: 'ps -eLf' lists them");
			return PMC_EXIT_USAGE;
		}
	} else if (pmc_target_req_cpus(&o->targets)) {
		r = build_cpus(o, st);
		if (!r && o->targets.ncgroups)
			r = build_cgroups(o, st);
		if (r)
			return r;
	} else {
		size_t cap = 0;
		if (add_target(st, &cap, 0, -1)) /* the command: its pid once launched */
			return PMC_EXIT_INTERNAL;
	}
	st->row_of = malloc(st->ntargets * sizeof(*st->row_of));
	if (!st->row_of)
		return PMC_EXIT_INTERNAL;
	if (st->ncgroups) { /* cgroup c's CPUs follow each other: a row each */
		for (size_t t = 0; t < st->ntargets; t++)
			st->row_of[t] = (int)(t / (st->ntargets / st->ncgroups));
		return 0;
	}
	if (st->cpus && o->aggr != PMC_AGGR_GLOBAL && o->aggr != PMC_AGGR_THREAD) {
		size_t cap = 0;
		for (size_t t = 0; t < st->ntargets; t++)
			if ((st->row_of[t] = cpu_row(st, &cap, o->aggr, o->cache_level, st->t[t].cpu)) < 0)
				return PMC_EXIT_INTERNAL;
		return 0;
	}
	for (size_t t = 0; t < st->ntargets; t++)
		st->row_of[t] = o->aggr == PMC_AGGR_THREAD && !st->cpus && pmc_target_req_tasks(&o->targets) ? (int)t : -1;
	if (o->aggr != PMC_AGGR_THREAD) {
		free(st->rows);
		st->rows = NULL;
		st->nrows = 0;
	}
	return 0;
}

void scope_targets_mark_cpumask(const struct scope_targets *st, struct pmc_evlist *el)
{
	struct pmc_sysfs_pmu *pmus;
	size_t npmus = 0;

	if (!st->cpus)
		return;
	pmus = calloc(PMC_SYSFS_MAX_PMUS, sizeof(*pmus));
	if (!pmus || pmc_sysfs_scan_pmus(pmus, PMC_SYSFS_MAX_PMUS, &npmus) < 0) {
		free(pmus);
		return;
	}
	for (size_t i = 0; i < pmc_evlist_nevents(el); i++) {
		const struct pmc_event *ev = pmc_evlist_event(el, i);
		char path[512], mask[1024] = "";
		unsigned type = ev->attr.type;

		/* A hybrid CPU's generic event names its core PMU in config's upper half (the extended type). */
		if ((type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE) && (ev->attr.config >> 32))
			type = (unsigned)(ev->attr.config >> 32);
		for (size_t p = 0; p < npmus; p++) {
			if (pmus[p].type != (int)type || type < PERF_TYPE_MAX)
				continue;
			snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/cpumask", pmc_sysfs_root(), pmus[p].name);
			if (pmc_sysfs_read_line(path, mask, sizeof(mask)) < 0 || !mask[0])
				snprintf(mask, sizeof(mask), "%s", pmus[p].cpus);
			break;
		}
		if (!mask[0])
			continue;
		for (size_t t = 0; t < st->ntargets; t++)
			if (!pmc_cpulist_has(mask, st->t[t].cpu))
				pmc_evlist_skip(el, t, i);
	}
	free(pmus);
}

void scope_targets_fini(struct scope_targets *st)
{
	for (size_t c = 0; c < st->ncgroups; c++)
		close(st->cgroup_fds[c]);
	free(st->cgroup_fds);
	free(st->t);
	free(st->row_of);
	free(st->rows);
	free(st->watch);
	memset(st, 0, sizeof(*st));
}

void scope_count_add(struct pmc_count *sum, const struct pmc_count *c)
{
	sum->flags |= c->flags;
	if (c->status == PMC_COUNT_OK) {
		if (sum->status != PMC_COUNT_OK) {
			sum->status = PMC_COUNT_OK;
			sum->err = 0;
		}
		sum->value += c->value;
		sum->enabled += c->enabled;
		sum->running += c->running;
	} else if (sum->status == PMC_COUNT_NOT_RUN || (c->status == PMC_COUNT_NOT_SUPPORTED &&
							sum->status == PMC_COUNT_NOT_COUNTED)) {
		sum->status = c->status;
		sum->err = c->err;
	}
}
