/* SPDX-License-Identifier: MIT */
/* pmctool merge run.*.json: per-rank reports (stat -o 'run.%h.%r.json' under mpirun or srun) as one: a row per rank,
 * and per event and metric the total, min, mean, max and the imbalance (max / mean); failed and partial ranks named. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/multi.h"
#include "output/multi.h"
#include "output/plot.h"
#include "report/multi.h"

struct merge_cli {
	enum pmc_output_format fmt;
	const char *out, *svgpath, *yname;
};

enum { MERGE_FORMAT = 1 }; /* the one-of group of --csv and --json */

static const struct pmc_opt merge_opts[] = {
	{ .long_name = "csv", .kind = PMC_OPT_FLAG, .conflict = MERGE_FORMAT, .apply = pmc_opt_set_format,
	  .field = PMC_OPT_FIELD(struct merge_cli, fmt), .left = "    --csv, --json", .help = "CSV or one JSON document (schema kind 'merge')" },
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .conflict = MERGE_FORMAT, .apply = pmc_opt_set_format,
	  .field = PMC_OPT_FIELD(struct merge_cli, fmt) }, /* on --csv's line */
	{ .short_name = 'o', .long_name = "output", .kind = PMC_OPT_VALUE, .metavar = "FILE",
	  .field = PMC_OPT_FIELD(struct merge_cli, out), .help = "write there ('-' for stdout; the default)" },
	{ .long_name = "plot", .kind = PMC_OPT_VALUE, .metavar = "FILE.svg", .field = PMC_OPT_FIELD(struct merge_cli, svgpath),
	  .help = "plot one series (--y) against the rank as a standalone SVG" },
	{ .long_name = "y", .kind = PMC_OPT_VALUE, .metavar = "NAME", .field = PMC_OPT_FIELD(struct merge_cli, yname),
	  .help = "the event, metric or wall-time to plot (default: the first event measured); in the\n"
		  "table output a terminal plot of it follows" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group merge_groups[] = {
	{ MERGE_FORMAT, "--csv and --json both choose the format: give one", false },
	{ 0, NULL, false },
};

const struct pmc_opts_cmd pmc_opts_merge = {
	.name = "merge",
	.opts = merge_opts,
	.groups = merge_groups,
	.usage = "Usage: pmctool merge [OPTIONS] REPORT.json...\n"
		 "\n"
		 "Merge stat reports of the ranks of one job (written with 'pmctool stat --json -o run.%h.%r.json' under\n"
		 "mpirun or srun, or by a program's region library with PMCTOOL_REGIONS_OUT=regions.%h.%r.json): a row per\n"
		 "rank (its rank, host and state), then per event, metric, the wall time, and per region its calls and\n"
		 "counts, the total over the ranks, min, mean, max, the imbalance max / mean and the rank with the maximum.\n"
		 "A rank whose command failed, was interrupted, or whose report cannot be read is named. Ranks come from\n"
		 "each report's origin (OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID); a report without one\n"
		 "takes its position.\n"
		 "\n",
	.epilogue = "\n"
		    "Exit status: 0 every rank ok; 1 some rank failed, was partial or unreadable (the rest is merged); 2 bad\n"
		    "usage, or no report could be read; 4 the output could not be written.\n"
		    "See pmctool-merge(1).\n",
	.col = 23,
	.long_indent = "    ",
	.bad_option = pmc_opts_bad_option_see_help,
};

static int read_ranks(int n, char **files, struct pmc_merge *m)
{
	m->ranks = calloc((size_t)n, sizeof(*m->ranks));
	if (!m->ranks)
		return PMC_EXIT_INTERNAL;
	for (int i = 0; i < n; i++) {
		struct pmc_merge_rank *r = &m->ranks[m->nranks++];
		char err[256];

		snprintf(r->file, sizeof(r->file), "%s", files[i]);
		r->rank = i;
		r->state = "ok";
		if (pmc_loaded_read_file(files[i], &r->data, err, sizeof(err)) < 0) {
			r->state = "unreadable";
			snprintf(r->why, sizeof(r->why), "%s", err);
			fprintf(stderr, "pmctool merge: cannot read '%s': %s\n", files[i], err);
			m->unreadable++;
			continue;
		}
		if (r->data.rank >= 0)
			r->rank = r->data.rank;
		snprintf(r->host, sizeof(r->host), "%s", r->data.host);
		if (r->data.partial) {
			r->state = "partial";
			snprintf(r->why, sizeof(r->why), "interrupted: its counts are partial");
			m->partial++;
		} else if (r->data.exit_status || r->data.runs_failed) {
			r->state = "failed";
			snprintf(r->why, sizeof(r->why), "the command exited with status %d", r->data.exit_status);
			m->failed++;
		}
	}
	for (size_t i = 0; i < m->nranks; i++) /* two reports of one rank: a mistake in the file list */
		for (size_t k = i + 1; k < m->nranks; k++)
			if (m->ranks[i].rank == m->ranks[k].rank && strcmp(m->ranks[i].state, "unreadable") &&
			    strcmp(m->ranks[k].state, "unreadable"))
				fprintf(stderr, "pmctool merge: warning: '%s' and '%s' are both rank %ld\n", m->ranks[i].file,
					m->ranks[k].file, m->ranks[i].rank);
	return m->unreadable == m->nranks ? PMC_EXIT_USAGE : 0;
}

static const char *default_y(const struct pmc_merge *m)
{
	for (size_t k = 0; k < m->nrows; k++)
		if (m->rows[k].kind == PMC_SERIES_EVENT && m->rows[k].n)
			return m->rows[k].name;
	return "wall-time";
}

static int plot(const struct pmc_merge *m, const char *yname, FILE *term, char **svg, size_t *svglen)
{
	size_t n = m->nranks;
	double *x = calloc(n + 1, sizeof(double)), *y = calloc(n + 1, sizeof(double));
	char title[256], ylabel[200], unit[24] = "";
	struct pmc_plot pl;
	FILE *f;
	int rc = 0;

	if (!x || !y) {
		free(x);
		free(y);
		return PMC_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pmc_series *s = pmc_loaded_find(&m->ranks[i].data, yname);
		x[i] = (double)m->ranks[i].rank;
		y[i] = s && s->ok ? s->mean : NAN;
		if (s && s->unit[0])
			snprintf(unit, sizeof(unit), " (%s)", s->unit);
	}
	snprintf(title, sizeof(title), "%s per rank (%zu reports)", yname, n);
	snprintf(ylabel, sizeof(ylabel), "%s%s", yname, unit);
	memset(&pl, 0, sizeof(pl));
	pl.title = title;
	pl.xlabel = "rank";
	pl.ylabel = ylabel;
	pl.n = n;
	pl.x = x;
	pl.y = y;
	if (term)
		pmc_plot_term(term, &pl, 80, 12);
	if (svg) {
		f = open_memstream(svg, svglen);
		if (!f || (pmc_plot_svg(f, &pl), fclose(f)))
			rc = PMC_EXIT_INTERNAL;
	}
	free(x);
	free(y);
	return rc;
}

static bool known(const struct pmc_merge *m, const char *name)
{
	for (size_t k = 0; k < m->nrows; k++)
		if (m->rows[k].kind != PMC_SERIES_REGION && !strcasecmp(m->rows[k].name, name))
			return true;
	return false;
}

int pmc_cmd_merge(int argc, char **argv)
{
	struct merge_cli o = { .fmt = PMC_OUTPUT_TABLE };
	const char *out, *svgpath, *yname;
	struct pmc_merge m;
	char *buf = NULL, *svg = NULL;
	size_t len = 0, svglen = 0;
	FILE *f;
	int first, rc;

	memset(&m, 0, sizeof(m));
	rc = pmc_opts_parse(&pmc_opts_merge, argc, argv, &o, &first);
	if (rc)
		return rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
	out = o.out;
	svgpath = o.svgpath;
	yname = o.yname;
	if (first >= argc) {
		fprintf(stderr, "pmctool merge: give the reports to merge: pmctool merge run.*.json\n");
		return PMC_EXIT_USAGE;
	}
	if ((out && (rc = pmc_output_check_path(out)) < 0) || (svgpath && (rc = pmc_output_check_path(svgpath)) < 0)) {
		fprintf(stderr, "pmctool merge: cannot write '%s': %s\n", out ? out : svgpath,
			pmc_output_strerror(out ? out : svgpath, rc));
		return PMC_EXIT_OUTPUT;
	}
	rc = read_ranks(argc - first, argv + first, &m);
	if (!rc && pmc_merge_build(&m) < 0)
		rc = PMC_EXIT_INTERNAL;
	if (rc)
		goto out;
	if (yname && !known(&m, yname)) {
		fprintf(stderr, "pmctool merge: --y '%s' is not an event, metric or wall-time of these reports\n", yname);
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	pmc_merge_write(f, &m, o.fmt);
	if (o.fmt == PMC_OUTPUT_TABLE && yname) {
		fputc('\n', f);
		plot(&m, yname, f, NULL, NULL);
	}
	if (fclose(f) || (svgpath && plot(&m, yname ? yname : default_y(&m), NULL, &svg, &svglen))) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	rc = multi_emit("merge", out, buf, len, false);
	if (!rc && svgpath)
		rc = multi_emit("merge", svgpath, svg, svglen, false);
	if (!rc)
		rc = m.failed || m.partial || m.unreadable ? 1 : 0;
out:
	free(buf);
	free(svg);
	pmc_merge_fini(&m);
	return rc;
}
