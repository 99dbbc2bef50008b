/* SPDX-License-Identifier: MIT */
/* pmctool stat's option effects that stat_opts.c's table names but are long enough to live apart: the scope lists
 * (-p, -t, -C, --control, -G) parsed into the request's data, and perf's options (-d, -M, --td-level, -B,
 * --all-user/--all-kernel, --per-cache). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <unistd.h>

#include "cli/opts.h"
#include "cli/stat.h"
#include "eventsets/eventset.h"
#include "metrics/expr.h"
#include "metrics/metrics.h"
#include "metrics/tmetrics.h"
#include "pmu/event.h"
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

int stat_apply_every_task(struct stat_opts *o)
{
	struct id_list l = { NULL, 0, 0 };
	struct dirent *de;
	DIR *d;
	int rc;

	if (o->e.aggr != PMC_AGGR_THREAD || !o->e.targets.system_wide)
		return 0;
	if ((rc = pmc_eng_scope_guard(&o->e))) /* -a's privilege, as perf asks it */
		return rc;
	if (!(d = opendir("/proc"))) {
		fprintf(stderr, "pmctool stat: --per-thread -a: cannot list the processes in /proc: %s\n", strerror(errno));
		return PMC_EXIT_INTERNAL;
	}
	while ((de = readdir(d))) {
		char *end;
		long id = strtol(de->d_name, &end, 10);

		if (id > 0 && !*end && id != getpid() && take_id(id, &l)) { /* pmctool's own start-up is not counted */
			closedir(d);
			free(l.ids);
			return PMC_EXIT_INTERNAL;
		}
	}
	closedir(d);
	free(o->pid_buf);
	o->pid_buf = l.ids;
	o->e.targets.pids = l.ids;
	o->e.targets.npids = l.n;
	o->e.targets.every_task = true;
	o->e.targets.system_wide = false;
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
	/* fd: digits only, at most 9 (pmc_parse_control): the numbers themselves into the request, -1 for no ACK */
	o->e.control = is_fd ? (struct pmc_control_req){ .given = true, .is_fd = true, .ctl_fd = atoi(o->control_ctl),
							 .ack_fd = o->control_ack[0] ? atoi(o->control_ack) : -1 }
			     : (struct pmc_control_req){ .given = true, .ctl_fd = -1, .ack_fd = -1, .ctl = o->control_ctl,
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
	if (opt->short_name == 'G' && opt->id != STAT_CGROUP_EACH && n > 1)
		return stat_bad_value(flag, val, "one cgroup for every event; perf's -G A,B (the i-th cgroup for the i-th "
					    "event) is not taken: --for-each-cgroup A,B counts every event in each");
	o->e.targets.cgroups = o->cgroup_names;
	o->e.targets.ncgroups = n;
	return 0;
}

int stat_resolve(const struct stat_opts *so, struct pmc_engine_opts *e, struct pmc_metric_def **buf)
{
	int rc = pmc_eng_metrics_parse(so->metric_args, so->nmetric_args, buf);

	e->metrics = *buf;
	e->nmetrics = rc ? 0 : so->nmetric_args;
	if (!rc && so->kernel_name)
		rc = pmc_eng_kernel_find(so->kernel_name, &e->k);
	if (!rc && e->k)
		rc = pmc_eng_kernel_params(e->k, so->params, so->nparams, &e->kp);
	return rc;
}

void stat_opts_fini(struct stat_opts *o)
{
	free(o->metric_buf);
	o->metric_buf = NULL;
	free(o->cgroup_buf);
	o->cgroup_buf = NULL;
	free(o->pid_buf);
	free(o->tid_buf);
	free(o->cpu_buf);
	o->pid_buf = o->tid_buf = NULL;
	o->cpu_buf = NULL;
	memset(&o->e.targets, 0, sizeof(o->e.targets));
	free(o->set_buf);
	o->set_buf = NULL;
	if (o->tm_plan) {
		pmc_tm_plan_fini(o->tm_plan);
		free(o->tm_plan);
		o->tm_plan = NULL;
	}
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

/* -M NAME[,NAME...] (perf's): each item is pmctool's own (an event set, as -g; TopdownL1, TopdownL2: --topdown's
 * levels) or a vendor table's metric or metric group (MetricName, MetricGroup; pmctool-tables(1)). "pmctool:NAME"
 * and "table:NAME" pick one where both have the name; a bare name both have is pmctool's, with a note. The items are
 * resolved after every option was read (--tables DIR may come later): stat_apply_metrics_resolve. */
int stat_apply_metric_group(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)opt;
	if (!*val || val[0] == ',' || val[strlen(val) - 1] == ',' || strstr(val, ",,"))
		return stat_bad_value("-M", val, "expected metric or group names such as TopdownL1 or tma_retiring,IPC");
	o->metrics_arg = val;
	return 0;
}

static void note(const struct stat_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(const struct stat_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet)
		return;
	fputs("pmctool stat: note: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* pmctool's own -M names: 1 TopdownLN (level in *level), 2 an event set, 0 neither. */
static int builtin_item(const char *name, int *level)
{
	struct pmc_eventset *set = NULL;
	char err[256];

	if (!strncasecmp(name, "TopdownL", 8) && (name[8] == '1' || name[8] == '2') && !name[9]) {
		*level = name[8] - '0';
		return 1;
	}
	if (pmc_eventset_find(name, &set, err, sizeof(err)) < 0)
		return 0;
	pmc_eventset_free(set);
	return 2;
}

static int table_metrics(struct stat_opts *o, const struct pmc_tables *t, const bool *sel)
{
	struct pmc_tm_literals lits;
	struct pmc_tm_plan *p = calloc(1, sizeof(*p));

	if (!p)
		return PMC_EXIT_INTERNAL;
	o->tm_plan = p;
	const struct pmc_tm_scope scope = { .cpus = pmc_target_req_cpus(&o->e.targets), .cpu = o->e.targets.cpus,
					    .ncpu = o->e.targets.ncpus };

	pmc_tm_literals_read(&lits, &scope);
	if (pmc_tm_plan(t, sel, &lits, pmc_tm_resolve_here, NULL, pmc_metric_name_reserved, p))
		return PMC_EXIT_INTERNAL;
	for (size_t i = 0; i < p->nnotes; i++) /* with -q too when they explain the error below */
		if (!o->quiet || !p->ndefs)
			fprintf(stderr, "pmctool stat: note: -M: %s\n", p->notes[i]);
	if (!p->ndefs) {
		fprintf(stderr, "pmctool stat: -M %s: none of the table's metrics can be counted here (the notes above say "
			"why)\n", o->metrics_arg);
		return PMC_EXIT_USAGE;
	}
	o->e.metric_list_first = o->e.nlists;
	o->e.metric_list_n = p->ngroups;
	for (size_t i = 0; i < p->ngroups; i++) {
		if (o->e.nlists == PMC_ARRAY_SIZE(o->e.event_lists)) {
			fprintf(stderr, "pmctool stat: -M %s needs more event lists than the %zu -e allows\n", o->metrics_arg,
				PMC_ARRAY_SIZE(o->e.event_lists));
			return PMC_EXIT_USAGE;
		}
		o->e.event_lists[o->e.nlists++] = p->groups[i];
	}
	o->e.metric_defs = p->defs;
	o->e.nmetric_defs = p->ndefs;
	return 0;
}

/* -M's table metrics whose events were not planned as one group (a weak group that did not fit the counters, split;
 * or events another group counts): one line each into buf. The number of such metrics. Only events that take a
 * counter of the CPU's PMU count: a metric of one such event, or of software events alone, cannot be split. */
static size_t split_metrics(const struct stat_opts *o, const struct pmc_engine *se, char *buf, size_t len)
{
	size_t n = 0, used = 0;

	buf[0] = '\0';
	for (size_t d = 0; o->tm_plan && d < o->tm_plan->ndefs; d++) {
		struct pmc_expr *e;
		unsigned group = 0, nhw = 0;
		bool apart = false;

		if (pmc_expr_parse(o->tm_plan->defs[d].formula, &e, NULL, 0))
			continue;
		for (size_t k = 0; k < pmc_expr_name_count(e); k++) {
			for (size_t i = 0; i < se->n; i++) { /* the first of that name: the one the formula reads */
				if (strcmp(se->evs[i].name, pmc_expr_name(e, k)))
					continue;
				if (se->evs[i].flags & PMC_EVF_HARDWARE) {
					apart |= !se->evs[i].group || (nhw && se->evs[i].group != group);
					group = se->evs[i].group;
					nhw++;
				}
				break;
			}
		}
		pmc_expr_free(e);
		bool split = apart && nhw > 1;
		if (split && used < len) {
			used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? ", " : "", o->tm_plan->defs[d].name);
			n++;
		}
	}
	return n;
}

void stat_metrics_split_check(const struct stat_opts *o, const struct pmc_engine *se, struct pmc_report *rep)
{
	char names[1024];
	size_t n = split_metrics(o, se, names, sizeof(names));

	if (!n)
		return;
	if (rep)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "metric-split", "-M: the events of %s were not counted as one "
				     "group (they did not fit the counters together): %s combine%s counts taken apart", names,
				     n == 1 ? "it" : "they", n == 1 ? "s" : "");
	else
		note(o, "-M: the events of %s are not planned as one group (they do not fit the counters together)",
		     names);
}

int stat_apply_metrics_resolve(struct stat_opts *o)
{
	const struct pmc_tables *t = NULL;
	const struct pmc_table_metric *ms;
	size_t nms = 0;
	bool *sel = NULL, any = false;
	char *items, *save = NULL;
	int rc = 0;

	if (!o->metrics_arg)
		return 0;
	items = strdup(o->metrics_arg);
	if (!items)
		return PMC_EXIT_INTERNAL;
	for (char *it = strtok_r(items, ",", &save); it && !rc; it = strtok_r(NULL, ",", &save)) {
		bool want_table = !strncasecmp(it, "table:", 6), want_own = !strncasecmp(it, "pmctool:", 8);
		const char *name = want_table ? it + 6 : want_own ? it + 8 : it;
		int level = 0, own = want_table ? 0 : builtin_item(name, &level);
		size_t nt = 0;

		if (!want_own && !t) {
			t = pmc_pmu_tables();
			nms = pmc_tables_metrics(t, &ms);
			sel = calloc(nms + 1, sizeof(*sel));
			if (!sel) {
				rc = PMC_EXIT_INTERNAL;
				break;
			}
		}
		if (!want_own && !own)
			nt = pmc_tm_select(t, name, sel);
		else if (!want_own && nms) { /* a bare name both have: say which one wins */
			bool *p = calloc(nms, sizeof(*p));

			if (p && pmc_tm_select(t, name, p))
				note(o, "-M %s is pmctool's own (%s); the vendor table's %s is -M table:%s", name,
				     own == 1 ? "--topdown's level" : "event set, as -g", name, name);
			free(p);
		}
		if (own == 1) {
			o->e.topdown_level = level > o->e.topdown_level ? level : o->e.topdown_level;
		} else if (own == 2) {
			if (o->e.set_name && strcmp(o->e.set_name, name))
				rc = stat_bad_value("-M", o->metrics_arg, "one of pmctool's event sets at a time ('pmctool "
						    "sets' lists them); table metrics may be added beside it");
			free(o->set_buf);
			o->e.set_name = o->set_buf = strdup(name);
			if (!o->set_buf)
				rc = PMC_EXIT_INTERNAL;
		} else if (nt) {
			any = true;
		} else if (!rc) {
			const struct pmc_tables_report *tr = NULL;

			if (t)
				pmc_tables_report(t, &tr);
			rc = stat_bad_value("-M", name, want_own ? "no such metric group of pmctool's: its event sets ('pmctool "
							"sets' lists them) and TopdownL1, TopdownL2 (--topdown's levels)"
							: tr && tr->dir ? "no such metric or metric group in the vendor tables or "
							"pmctool's event sets ('pmctool tables' says which tables were read, 'pmctool sets' lists the sets)"
							: "no such metric group: -M takes pmctool's event sets ('pmctool sets' lists "
							"them), TopdownL1, TopdownL2 (--topdown's levels) and the metrics and groups of "
							"vendor tables, none of which were found for this CPU ('pmctool tables' says "
							"where it looked; --tables DIR names one)");
		}
	}
	if (!rc && any)
		rc = table_metrics(o, t, sel);
	free(sel);
	free(items);
	return rc;
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
