/* SPDX-License-Identifier: MIT */
/* Reading a program's region results (channel.h) into the report. */
#include "engine/rg_collect.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "regions/channel.h"
#include "util/util.h"

int pmc_regions_encode(const struct pmc_event *const *evs, size_t n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < n; k++) {
		struct perf_event_attr a = evs[k]->attr;
		unsigned excl = a.exclude_user | a.exclude_kernel << 1 | a.exclude_hv << 2;
		int w;

		pmc_arch_selfread_attr(&a);
		w = snprintf(buf + off, len - off, "%s@%x:%llx:%llx:%llx:%x:%x", k ? "," : "", a.type,
			     (unsigned long long)a.config, (unsigned long long)a.config1, (unsigned long long)a.config2,
			     a.bp_type, excl);
		if (w < 0 || (size_t)w >= len - off)
			return -ENOSPC;
		off += (size_t)w;
	}
	return 0;
}

/* One line of a block, parsed: the counts of one region in one thread (or top/cost of a thread). */
struct line_vals {
	uint64_t v[PMC_RG_EV_MAX];
	bool have[PMC_RG_EV_MAX];
};

static int values_init(struct pmc_region_values *v, size_t n)
{
	v->sum = calloc(n ? n : 1, sizeof(*v->sum));
	v->n = calloc(n ? n : 1, sizeof(*v->n));
	return v->sum && v->n ? 0 : -ENOMEM;
}

static struct pmc_report_regions *regions_new(size_t nevents)
{
	struct pmc_report_regions *rr = calloc(1, sizeof(*rr));

	if (!rr)
		return NULL;
	rr->nevents = nevents;
	rr->top_sum = calloc(nevents ? nevents : 1, sizeof(*rr->top_sum));
	rr->top_n = calloc(nevents ? nevents : 1, sizeof(*rr->top_n));
	rr->cost = malloc((nevents ? nevents : 1) * sizeof(*rr->cost));
	if (!rr->top_sum || !rr->top_n || !rr->cost) {
		pmc_report_regions_free(rr);
		return NULL;
	}
	for (size_t i = 0; i < nevents; i++)
		rr->cost[i] = NAN;
	return rr;
}

static struct pmc_report_region *find_region(struct pmc_report_regions *rr, const char *name, bool add)
{
	struct pmc_report_region *p, *r;

	for (size_t i = 0; i < rr->n; i++)
		if (!strcmp(rr->r[i].name, name))
			return &rr->r[i];
	if (!add)
		return NULL;
	p = realloc(rr->r, (rr->n + 1) * sizeof(*p));
	if (!p)
		return NULL;
	rr->r = p;
	r = &p[rr->n];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->exec_calls = calloc(rr->execs + 1, sizeof(*r->exec_calls));
	if (values_init(&r->all, rr->nevents) || !r->exec_calls) {
		free(r->exec_calls);
		free(r->all.sum);
		free(r->all.n);
		return NULL;
	}
	r->nexec_calls = rr->execs + 1;
	rr->n++;
	return r;
}

static struct pmc_report_region_thread *find_thread(struct pmc_report_region *r, const char *label, size_t nevents)
{
	struct pmc_report_region_thread *p;

	for (size_t i = 0; i < r->nthreads; i++)
		if (!strcmp(r->threads[i].label, label))
			return &r->threads[i];
	p = realloc(r->threads, (r->nthreads + 1) * sizeof(*p));
	if (!p)
		return NULL;
	r->threads = p;
	memset(&p[r->nthreads], 0, sizeof(*p));
	snprintf(p[r->nthreads].label, sizeof(p->label), "%s", label);
	if (values_init(&p[r->nthreads].val, nevents))
		return NULL;
	return &p[r->nthreads++];
}

/* "V0 V1 ..." after the fixed fields: a number, or "-" (not opened in that thread). */
static int parse_values(const char *s, size_t nev, struct line_vals *lv)
{
	char *end;

	for (size_t i = 0; i < nev; i++) {
		while (*s == ' ')
			s++;
		if (*s == '-') {
			lv->have[i] = false;
			s++;
			continue;
		}
		errno = 0;
		lv->v[i] = strtoull(s, &end, 10);
		if (end == s || errno)
			return -EINVAL;
		lv->have[i] = true;
		s = end;
	}
	return 0;
}

static void add_values(struct pmc_region_values *v, const size_t *map, size_t nev, const struct line_vals *lv,
		       const bool *counted)
{
	for (size_t k = 0; k < nev; k++) {
		if (!lv->have[k] || !counted[k])
			continue;
		v->sum[map[k]] += (double)lv->v[k];
	}
}

/* One process's block, from "pmctool-regions 1" to "end". The per-execution sums go into ex_* (one slot per report
 * region), the per-thread values straight into the report. Returns the characters used, or -EINVAL when cut. */
struct block_ctx {
	struct pmc_report_regions *rr;
	const size_t *map;
	size_t nmap;
	int launcher;
	unsigned proc;            /* the block's process ordinal in this execution (0: the launched program) */
	unsigned nextproc;
	int pid;                  /* the block's process */
	char (*rname)[PMC_RG_NAME_MAX + 1]; /* the block's region ids -> names */
	unsigned nrname;
	size_t nev;
	bool counted[PMC_RG_EV_MAX];
	uint64_t *ex_calls;       /* per report region: this execution's calls (exact, saturating) */
	double *ex_sum;           /* per report region x report event */
	bool *ex_seen;            /* per report region x report event: counted in this execution */
	bool apply;               /* false: only check the block (a block is taken whole or not at all) */
};

static int grow_ex(struct block_ctx *c, size_t oldn)
{
	size_t n = c->rr->n, ne = c->rr->nevents ? c->rr->nevents : 1;
	uint64_t *calls = realloc(c->ex_calls, n * sizeof(*calls));
	double *sum = calls ? realloc(c->ex_sum, n * ne * sizeof(*sum)) : NULL;
	bool *seen = sum ? realloc(c->ex_seen, n * ne * sizeof(*seen)) : NULL;

	if (calls)
		c->ex_calls = calls;
	if (sum)
		c->ex_sum = sum;
	if (seen)
		c->ex_seen = seen;
	if (!seen)
		return -ENOMEM;
	for (size_t r = oldn; r < n; r++) {
		c->ex_calls[r] = 0;
		for (size_t i = 0; i < ne; i++) {
			c->ex_sum[r * ne + i] = 0;
			c->ex_seen[r * ne + i] = false;
		}
	}
	return 0;
}

static int block_line(struct block_ctx *c, const char *line)
{
	struct pmc_report_regions *rr = c->rr;
	unsigned a, b, d;
	int pid, ppid, nev, n = 0;
	unsigned long long x[6];
	int nf;
	struct line_vals lv;
	char label[24];

	if (sscanf(line, "process %d %d %d", &pid, &ppid, &nev) == 3) {
		if (nev < 0 || (size_t)nev != c->nmap)
			return -EINVAL;
		c->nev = (size_t)nev;
		c->pid = pid;
		if (c->apply)
			c->proc = ppid == c->launcher ? 0 : ++c->nextproc;
		return 0;
	}
	if (sscanf(line, "event %u %d %u %n", &a, &pid, &b, &n) == 3 && n) {
		if (a >= c->nev)
			return -EINVAL;
		c->counted[a] = pid == 0;
		if (!c->apply)
			return 0;
		if (pid && !rr->open_err) {
			rr->open_err = pid;
			rr->open_err_index = c->map[a];
			snprintf(rr->open_err_event, sizeof(rr->open_err_event), "%s", line + n);
		}
		if (b)
			rr->user_only = true;
		return 0;
	}
	if (sscanf(line, "region %u %n", &a, &n) == 1 && n) {
		void *p;

		if (a != c->nrname || strlen(line + n) > PMC_RG_NAME_MAX)
			return -EINVAL;
		p = realloc(c->rname, (c->nrname + 1) * sizeof(*c->rname));
		if (!p)
			return -ENOMEM;
		c->rname = p;
		snprintf(c->rname[c->nrname++], PMC_RG_NAME_MAX + 1, "%s", line + n);
		return 0;
	}
	x[5] = 0; /* refused calls: a ninth number since libpmctool refuses a signal handler's calls */
	nf = sscanf(line, "thread %u %d %d %llu %llu %llu %llu %llu %llu", &a, &pid, &nev, &x[0], &x[1], &x[2], &x[3],
		    &x[4], &x[5]);
	if (nf == 8 || nf == 9) {
		if (!c->apply)
			return 0;
		rr->refused += x[5];
		rr->reads_inproc += x[0];
		rr->reads_syscall += x[1];
		rr->unmatched += x[2];
		rr->invalid += x[3];
		rr->too_deep += x[4];
		return 0;
	}
	if (sscanf(line, "count %u %u %llu %n", &a, &b, &x[0], &n) == 3 && n) {
		struct pmc_report_region *r;
		struct pmc_report_region_thread *t;
		size_t oldn = rr->n, ri, ne = rr->nevents ? rr->nevents : 1;

		/* calls beyond PMC_RG_CALLS_MAX are no count a program made: the block is malformed */
		if (b >= c->nrname || x[0] > PMC_RG_CALLS_MAX || parse_values(line + n, c->nev, &lv))
			return -EINVAL;
		if (!c->apply)
			return 0;
		r = find_region(rr, c->rname[b], true);
		if (!r || (rr->n != oldn && grow_ex(c, oldn)))
			return -ENOMEM;
		ri = (size_t)(r - rr->r);
		if (c->proc == 0)
			snprintf(label, sizeof(label), "%u", a);
		else
			snprintf(label, sizeof(label), "p%u.%u", c->proc, a);
		t = find_thread(r, label, rr->nevents);
		if (!t)
			return -ENOMEM;
		t->val.calls += (double)x[0];
		t->val.ncalls++;
		add_values(&t->val, c->map, c->nev, &lv, c->counted);
		for (size_t k = 0; k < c->nev; k++)
			if (lv.have[k] && c->counted[k])
				t->val.n[c->map[k]]++;
		/* only thousands of forged lines at the limit could pass 2^64: the total stops at the largest count */
		if (__builtin_add_overflow(c->ex_calls[ri], x[0], &c->ex_calls[ri]))
			c->ex_calls[ri] = UINT64_MAX;
		for (size_t k = 0; k < c->nev; k++) {
			if (!lv.have[k] || !c->counted[k])
				continue;
			c->ex_sum[ri * ne + c->map[k]] += (double)lv.v[k];
			c->ex_seen[ri * ne + c->map[k]] = true;
		}
		return 0;
	}
	if (sscanf(line, "top %u %n", &a, &n) == 1 && n) {
		if (parse_values(line + n, c->nev, &lv))
			return -EINVAL;
		if (!c->apply)
			return 0;
		for (size_t k = 0; k < c->nev; k++)
			if (lv.have[k] && c->counted[k])
				rr->top_sum[c->map[k]] += (double)lv.v[k];
		return 0;
	}
	if (sscanf(line, "cost %u %n", &a, &n) == 1 && n) {
		if (parse_values(line + n, c->nev, &lv))
			return -EINVAL;
		if (!c->apply)
			return 0;
		for (size_t k = 0; k < c->nev; k++)
			if (lv.have[k] && c->counted[k] &&
			    (isnan(rr->cost[c->map[k]]) || (double)lv.v[k] < rr->cost[c->map[k]]))
				rr->cost[c->map[k]] = (double)lv.v[k];
		return 0;
	}
	if (sscanf(line, "open %u %u %u", &a, &b, &d) == 3) {
		struct pmc_report_region *r;
		size_t oldn = rr->n;

		if (b >= c->nrname)
			return -EINVAL;
		if (!c->apply)
			return 0;
		r = find_region(rr, c->rname[b], true);
		if (!r || (rr->n != oldn && grow_ex(c, oldn)))
			return -ENOMEM;
		r->not_left++;
		return 0;
	}
	if (sscanf(line, "badnames %llu", &x[0]) == 1) {
		if (c->apply)
			rr->bad_names += x[0];
		return 0;
	}
	return -EINVAL;
}

/* The next line of [*pp, end) into line (NUL-terminated, without its newline). 1, 0 at the end of the text or for a
 * line without its newline (cut), -1 for a line too long (skipped). */
static int next_line(const char **pp, const char *end, char *line, size_t size)
{
	const char *nl = memchr(*pp, '\n', (size_t)(end - *pp));
	size_t l;

	if (!nl) {
		*pp = end;
		return 0;
	}
	l = (size_t)(nl - *pp);
	if (l >= size) {
		*pp = nl + 1;
		return -1;
	}
	memcpy(line, *pp, l);
	line[l] = '\0';
	*pp = nl + 1;
	return 1;
}

/* One block's lines after its magic, up to "end": 1 when it ended there, 0 when cut or malformed, -ENOMEM. */
static int run_block(struct block_ctx *c, const char **pp, const char *end, char *line, size_t size)
{
	c->nrname = 0;
	c->nev = 0;
	memset(c->counted, 0, sizeof(c->counted));
	while (*pp < end) {
		const char *at = *pp;
		int r = next_line(pp, end, line, size);

		if (r > 0 && !strcmp(line, PMC_RG_MAGIC))
			*pp = at; /* the next block begins: this one was cut */
		if (r <= 0 || !strcmp(line, PMC_RG_MAGIC))
			return 0;
		if (!strcmp(line, "end"))
			return 1;
		r = block_line(c, line);
		if (r == -ENOMEM)
			return r;
		if (r)
			return 0;
	}
	return 0;
}

int pmc_regions_collect(struct pmc_report *rep, const char *text, size_t len, const size_t *map, size_t nmap,
			int launcher)
{
	struct pmc_report_regions *rr = rep->regions;
	struct block_ctx c = { 0 };
	const char *p = text, *end = text + len;
	unsigned blocks = 0;
	char line[512];
	int rc = 0;
	/* the processes that said they started (PMC_RG_STARTED), and those whose whole block came */
	int started[256], wrote[256];
	size_t nstarted = 0, nwrote = 0;

	if (!rr) {
		rr = rep->regions = regions_new(rep->nevents);
		if (!rr)
			return -ENOMEM;
	}
	if (nmap > PMC_RG_EV_MAX)
		return -EINVAL;
	c.rr = rr;
	c.map = map;
	c.nmap = nmap;
	c.launcher = launcher;
	if (rr->n && grow_ex(&c, 0))
		return -ENOMEM;
	while (p < end && !rc) {
		const char *body;
		int r;

		int pid, ppid;

		if (next_line(&p, end, line, sizeof(line)) <= 0)
			continue;
		if (sscanf(line, PMC_RG_STARTED " %d %d", &pid, &ppid) == 2 && nstarted < PMC_ARRAY_SIZE(started))
			started[nstarted++] = pid;
		if (strcmp(line, PMC_RG_MAGIC))
			continue;
		/* Checked whole first, applied only when it ends with "end": a block cut short adds nothing. */
		body = p;
		c.apply = false;
		r = run_block(&c, &p, end, line, sizeof(line));
		if (r < 0) {
			rc = r;
		} else if (r == 0) {
			rr->blocks_cut++;
		} else {
			c.apply = true;
			p = body;
			rc = run_block(&c, &p, end, line, sizeof(line)) < 0 ? -ENOMEM : 0;
			blocks++;
			if (nwrote < PMC_ARRAY_SIZE(wrote))
				wrote[nwrote++] = c.pid;
		}
	}
	if (!rc) {
		size_t ne = rr->nevents ? rr->nevents : 1;

		for (size_t r = 0; r < rr->n; r++) {
			struct pmc_report_region *rg = &rr->r[r];
			uint64_t *ec = realloc(rg->exec_calls, (rr->execs + 1) * sizeof(*ec));

			if (!ec) {
				rc = -ENOMEM;
				break;
			}
			rg->exec_calls = ec;
			for (size_t k = rg->nexec_calls; k <= rr->execs; k++)
				ec[k] = 0;
			rg->nexec_calls = rr->execs + 1;
			ec[rr->execs] = c.ex_calls[r];
			rg->all.calls += (double)c.ex_calls[r];
			rg->all.ncalls++;
			for (size_t i = 0; i < rr->nevents; i++) {
				if (!c.ex_seen[r * ne + i])
					continue;
				rg->all.sum[i] += c.ex_sum[r * ne + i];
				rg->all.n[i]++;
			}
		}
		if (blocks)
			for (size_t k = 0; k < nmap; k++)
				rr->top_n[map[k]]++;
		rr->execs++;
		rr->execs_silent += blocks == 0;
		/* a process that counted regions and wrote no block: ended by _exit or a signal (its results are lost) */
		for (size_t i = 0; blocks && i < nstarted; i++) { /* no block at all: execs_silent says it */
			bool found = false;

			for (size_t k = 0; k < nwrote && !found; k++)
				found = wrote[k] == started[i];
			rr->procs_silent += !found;
		}
		if (blocks > rr->procs_max)
			rr->procs_max = blocks;
	}
	free(c.rname);
	free(c.ex_calls);
	free(c.ex_sum);
	free(c.ex_seen);
	return rc;
}
