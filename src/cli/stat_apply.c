/* SPDX-License-Identifier: MIT */
/* pmctool stat's option effects that stat_opts.c's table names but are long enough to live apart: the scope lists
 * (-p, -t, -C, --control, -G) parsed into the request's data, and perf's options (-d, -M, --td-level, -B,
 * --all-user/--all-kernel, --per-cache). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/opts.h"
#include "cli/stat.h"
#include "eventsets/eventset.h"
#include "sys/lists.h"
#include "sys/sysfs.h"
#include "util/util.h"

#define NAME(opt) pmc_opt_name(opt, name, sizeof(name))

/* -p, -t, -C and --control: the user's spelling parsed into the request's data here (sys/lists.h); the engine
 * never sees the text. Given twice with one value, the second replaces the first. */
struct id_list {
	pid_t *ids;
	size_t n, cap;
};

static int take_id(long id, void *ctx)
{
	struct id_list *l = ctx;

	if (pmc_grow((void **)&l->ids, &l->cap, l->n, sizeof(*l->ids)))
		return -ENOMEM;
	l->ids[l->n++] = (pid_t)id;
	return 0;
}

int stat_apply_tasks(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	bool pids = opt->short_name == 'p';
	pid_t **ids = pids ? &o->pid_buf : &o->tid_buf;
	struct id_list l = { NULL, 0, 0 };
	int r;

	free(*ids);
	r = pmc_parse_id_list(val, take_id, &l);
	*ids = l.ids;
	if (r == -ENOMEM)
		return PMC_EXIT_INTERNAL;
	if (r)
		return stat_bad_value(pids ? "-p" : "-t", val, pids ? "expected process IDs such as 1234,5678"
							       : "expected thread IDs such as 1234,5678");
	if (pids) {
		o->e.targets.pids = *ids;
		o->e.targets.npids = l.n;
	} else {
		o->e.targets.tids = *ids;
		o->e.targets.ntids = l.n;
	}
	return 0;
}

struct cpu_set_list {
	int *cpus;
	size_t n, cap;
};

static int take_cpu(long cpu, void *ctx)
{
	struct cpu_set_list *l = ctx;

	if (pmc_grow((void **)&l->cpus, &l->cap, l->n, sizeof(*l->cpus)))
		return -ENOMEM;
	l->cpus[l->n++] = (int)cpu;
	/* No CPU above this is online: it ends the list here (the engine says so), as "0-99999999" must not fill memory */
	return cpu > PMC_TARGET_MAX_CPU ? 1 : 0;
}

int stat_apply_cpus(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	struct cpu_set_list l = { NULL, 0, 0 };
	char online[256] = "?", path[512], what[384];
	int r;

	(void)opt;
	free(o->cpu_buf);
	o->cpu_buf = NULL;
	r = pmc_parse_cpu_list(val, take_cpu, &l);
	o->cpu_buf = l.cpus;
	if (r == -ENOMEM)
		return PMC_EXIT_INTERNAL;
	if (r == 1)
		r = 0;
	if (r == -ERANGE) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/online", pmc_sysfs_root());
		(void)pmc_sysfs_read_line(path, online, sizeof(online));
		snprintf(what, sizeof(what), "a CPU number is out of range (online CPUs: %s)", online);
		return stat_bad_value("-C", val, what);
	}
	if (r)
		return stat_bad_value("-C", val, "expected a CPU list such as 0,2-3");
	o->e.targets.cpus = l.cpus;
	o->e.targets.ncpus = l.n;
	return 0;
}

int stat_apply_control(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	bool is_fd;

	(void)opt;
	if (pmc_parse_control(val, o->control_ctl, sizeof(o->control_ctl), o->control_ack, sizeof(o->control_ack),
			      &is_fd) < 0) {
		fprintf(stderr, "pmctool stat: --control expects fifo:CTL[,ACK] or fd:CTL[,ACK] (perf's)\n");
		return PMC_EXIT_USAGE;
	}
	o->e.control = (struct pmc_control_req){ .given = true, .is_fd = is_fd, .ctl = o->control_ctl,
						  .ack = o->control_ack };
	return 0;
}

/* -G NAME (one cgroup for every event) and --for-each-cgroup NAME[,NAME...] (every event in each), perf's: the names
 * (paths under the perf_event cgroup hierarchy) into the request; the table's CGROUP group refuses both. */
int stat_apply_cgroups(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	const char *flag = opt->short_name == 'G' ? "-G" : "--for-each-cgroup";
	size_t n = 0;
	char *save = NULL;

	free(o->cgroup_buf);
	o->cgroup_buf = strdup(val);
	if (!o->cgroup_buf)
		return PMC_EXIT_INTERNAL;
	if (!*val || val[strlen(val) - 1] == ',' || strstr(val, ",,"))
		return stat_bad_value(flag, val, "expected cgroup names such as work/a,work/b (paths under the cgroup file "
					    "system), none empty");
	for (char *t = strtok_r(o->cgroup_buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == PMC_ARRAY_SIZE(o->cgroup_names))
			return stat_bad_value(flag, val, "at most 64 cgroups");
		if (strstr(t, ".."))
			return stat_bad_value(flag, val, "a cgroup name is a path under the cgroup file system, without '..'");
		o->cgroup_names[n++] = t;
	}
	if (opt->short_name == 'G' && n > 1)
		return stat_bad_value(flag, val, "one cgroup for every event; perf's -G A,B (the i-th cgroup for the i-th "
					    "event) is not taken: --for-each-cgroup A,B counts every event in each");
	o->e.targets.cgroups = o->cgroup_names;
	o->e.targets.ncgroups = n;
	return 0;
}

void stat_opts_fini(struct stat_opts *o)
{
	free(o->cgroup_buf);
	o->cgroup_buf = NULL;
	free(o->pid_buf);
	free(o->tid_buf);
	free(o->cpu_buf);
	o->pid_buf = o->tid_buf = NULL;
	o->cpu_buf = NULL;
	memset(&o->e.targets, 0, sizeof(o->e.targets));
}

/* -d, -dd, -ddd: each -d one level more of perf's detailed events (three at most, as perf). */
int stat_apply_detailed(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)opt, (void)val;
	if (o->e.detailed < 3)
		o->e.detailed++;
	return 0;
}

/* -M NAME (perf's metric groups): pmctool's event sets are its metric groups, so -M SET is -g SET; vendor metric
 * groups come with the event tables (pmctool tables). One set, as -g. */
int stat_apply_metric_group(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	struct pmc_eventset *set = NULL;
	char err[256];

	(void)opt;
	/* perf's top-down groups: TopdownL1, TopdownL2 are --topdown's levels */
	if (!strncasecmp(val, "TopdownL", 8) && (val[8] == '1' || val[8] == '2') && !val[9]) {
		o->e.topdown_level = val[8] - '0';
		return 0;
	}
	if (strchr(val, ','))
		return stat_bad_value("-M", val, "one metric group: pmctool's groups are its event sets, measured one at a time "
					    "('pmctool sets' lists them), and TopdownL1, TopdownL2");
	if (pmc_eventset_find(val, &set, err, sizeof(err)) < 0)
		return stat_bad_value("-M", val, "no such metric group: -M takes pmctool's event sets ('pmctool sets' lists "
					    "them) and TopdownL1, TopdownL2 (--topdown's levels); vendor metric groups come with "
					    "event tables ('pmctool tables')");
	pmc_eventset_free(set);
	o->e.set_name = val;
	return 0;
}

/* --td-level N (perf's): the top-down tree to level N, 0 its deepest (pmctool's trees go to level 2). */
int stat_apply_td_level(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	char name[64];
	uint64_t u;
	int r = stat_parse_uint(NAME(opt), val, 0, 2, &u);

	if (!r)
		o->e.topdown_level = u ? (int)u : 2;
	return r;
}

/* -B / --no-big-num: the last one given wins, as perf's. */
int stat_apply_big_num(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)val;
	o->out.no_big_num = opt->short_name != 'B';
	return 0;
}

/* --all-user / --all-kernel (the table's PRIV group refuses both). */
int stat_apply_priv(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)val;
	o->e.priv = (enum pmc_priv_override)opt->id;
	return 0;
}

/* --per-cache[=LEVEL] (perf's, "l2", "L3", or "3"): a row per cache instance of that level, the highest without. */
int stat_apply_per_cache(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	char *end;
	long l = 0;

	(void)opt;
	if (val) {
		const char *p = (val[0] == 'l' || val[0] == 'L') ? val + 1 : val;

		l = strtol(p, &end, 10);
		if (!*p || *end || l < 1 || l > 9)
			return stat_bad_value("--per-cache", val, "expected a cache level such as l2 or L3 (1 to 9)");
	}
	o->e.aggr = PMC_AGGR_CACHE;
	o->e.cache_level = (int)l;
	return 0;
}
