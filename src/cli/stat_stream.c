/* SPDX-License-Identifier: MIT */
/* pmctool stat -I: the interval records are written as the engine hands them over, to where the report goes, and
 * the report follows them on the same stream. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/stat.h"

static void sink_begin(void *ctx, bool per_row)
{
	struct stat_stream *s = ctx;

	s->per_row = per_row;
	if (s->out->interval_clear)
		fputs("\033[H\033[2J", s->f); /* --interval-clear: each interval on a clear terminal, header first */
	pmc_output_interval_begin(s->f, s->out, per_row);
}

static void sink_record(void *ctx, const struct pmc_interval_record *r)
{
	struct stat_stream *s = ctx;

	if (pmc_output_interval_grouped(s->out)) { /* held until the interval ends (its records point at the engine's
						       events and rows, which outlive it) */
		if (pmc_grow((void **)&s->held, &s->capheld, s->nheld, sizeof(*s->held))) {
			pmc_output_interval(s->f, s->out, r); /* out of memory: this record alone, without its metric */
			return;
		}
		s->held[s->nheld++] = *r;
		return;
	}
	pmc_output_interval(s->f, s->out, r);
}

/* --topdown: the interval's tree after its records (those a format holds go out first). */
static void sink_topdown(void *ctx, const struct pmc_report_topdown *td)
{
	struct stat_stream *s = ctx;

	if (s->nheld)
		pmc_output_interval_group(s->f, s->out, s->held, s->nheld);
	s->nheld = 0;
	pmc_output_topdown_interval(s->f, s->out, td);
}

/* A write to -o's file failed (a full disk): the same rule as without -I, the counts go to stderr instead, never
 * lost: say so once, then the remaining intervals and the report follow on stderr. A pipe whose reader left, or
 * stderr itself, has nowhere else to go. */
static void fall_back(struct stat_stream *s, int err)
{
	int fd = s->dest ? pmc_output_path_fd(s->dest) : STDERR_FILENO, d;
	FILE *f;

	if (s->err)
		return;
	s->err = err;
	if (fd == STDERR_FILENO || (err == -EPIPE && fd >= 0) || (d = dup(STDERR_FILENO)) < 0)
		return;
	if (!(f = fdopen(d, "w"))) {
		close(d);
		return;
	}
	fclose(s->f); /* what it still buffered cannot be written either */
	s->f = f;
	s->said = true;
	fprintf(stderr, "pmctool: cannot write the interval records to '%s': %s; the remaining intervals and the report "
		"follow on stderr instead\n", s->dest, pmc_output_strerror(s->dest, err));
	pmc_output_interval_begin(s->f, s->out, s->per_row);
}

static void sink_end(void *ctx)
{
	struct stat_stream *s = ctx;

	if (s->nheld)
		pmc_output_interval_group(s->f, s->out, s->held, s->nheld);
	s->nheld = 0;
	if (fflush(s->f) || ferror(s->f)) /* each interval is seen when it ends */
		fall_back(s, -(errno ? errno : EIO));
	if (s->out->interval_clear) { /* the next one replaces it on the screen */
		fputs("\033[H\033[2J", s->f);
		pmc_output_interval_begin(s->f, s->out, s->per_row);
	}
}

int stat_stream_open(const char *dest, const struct pmc_output_opts *out, struct stat_stream *s,
		     struct pmc_interval_sink *sink)
{
	int fd = dest ? pmc_output_path_fd(dest) : STDERR_FILENO;

	s->f = NULL;
	s->out = out;
	s->dest = dest;
	s->err = 0;
	s->said = false;
	if (fd >= 0) {
		int d = dup(fd);
		s->f = d >= 0 ? fdopen(d, "w") : NULL;
		if (!s->f && d >= 0)
			close(d);
	} else {
		/* A file: the records are written as they happen, so it cannot be replaced whole at the end. */
		fd = pmc_output_open_stream(dest);
		if (fd >= 0 && !(s->f = fdopen(fd, "w")))
			close(fd);
		else if (fd < 0)
			errno = -fd;
	}
	if (!s->f) {
		fprintf(stderr, "pmctool: cannot write the interval records to '%s': %s\n", dest ? dest : "stderr",
			dest ? pmc_output_strerror(dest, -errno) : strerror(errno));
		return PMC_EXIT_OUTPUT;
	}
	setvbuf(s->f, NULL, _IOFBF, 1 << 16);
	if (dest)
		pmc_output_started(s->f, out);
	*sink = (struct pmc_interval_sink){ sink_begin, sink_record, sink_end, s, sink_topdown };
	return 0;
}

int stat_stream_finish(struct stat_stream *s, const struct pmc_report *rep)
{
	int r = 0;

	if (s->nheld) /* an interval that never ended (an error part way): its records still go out */
		pmc_output_interval_group(s->f, s->out, s->held, s->nheld);
	free(s->held);
	s->held = NULL;
	s->nheld = s->capheld = 0;
	if (!s->f)
		return 0;
	for (int tries = 0; tries < 2; tries++) {
		if (rep) {
			bool perfs = s->out->format == PMC_OUTPUT_SEP || s->out->format == PMC_OUTPUT_PERF_JSON;

			errno = 0;
			if (perfs && !s->out->interval_summary) { /* perf's formats: the intervals alone, unless --summary */
				if (s->out->format == PMC_OUTPUT_SEP)
					pmc_output_sep_notes(s->f, rep);
			} else if (s->out->format == PMC_OUTPUT_CSV)
				r = pmc_output_csv_body(s->f, rep, false);
			else
				r = pmc_output_write(s->f, rep, s->out);
		}
		if (fflush(s->f) || ferror(s->f))
			r = -(errno ? errno : EIO);
		if (!r || !rep || s->err)
			break;
		FILE *was = s->f;
		fall_back(s, r < 0 ? r : -EIO); /* the report itself did not fit: it goes to stderr */
		if (s->f == was)
			break;
		r = 0;
	}
	if (fclose(s->f) && !r)
		r = -(errno ? errno : EIO);
	s->f = NULL;
	if (s->err)
		return s->err;
	return r < 0 ? r : r ? -EIO : 0;
}
