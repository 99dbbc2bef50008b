/* SPDX-License-Identifier: MIT */
/* Writing a report: a readable table, perf's -x separated layout, CSV (RFC 4180) or one JSON document. */
#ifndef PMC_OUTPUT_H
#define PMC_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "report/report.h"
#include "util/json_write.h"

enum pmc_output_format {
	PMC_OUTPUT_TABLE = 0,
	PMC_OUTPUT_SEP,  /* perf stat -x SEP */
	PMC_OUTPUT_CSV,
	PMC_OUTPUT_JSON,
	PMC_OUTPUT_PERF_JSON, /* perf stat -j: a JSON object per event and line */
	PMC_OUTPUT_PERF_STD,  /* --perf-layout: perf stat's own table (output/perf_std.c) */
};

struct pmc_output_opts {
	enum pmc_output_format format;
	char sep[16]; /* for PMC_OUTPUT_SEP */
	bool append;  /* --append: a regular file gets the report after what it holds (pmc_output_append_path) */
	bool no_big_num;    /* --no-big-num: the table's counts without thousands' separators */
	bool interval_clear; /* --interval-clear: the table's -I clears the terminal before each interval */
	bool run_table;     /* --table: the table lists each run's time (perf's table of individual measurements) */
	bool metric_only;   /* --metric-only: the metrics alone, a column each (output/metric_only.c) */
	bool interval_summary; /* -I --summary: -x and -j end with the whole measurement after the intervals, as perf's
				  (without it they end with the last interval); the table, CSV and JSON always do */
	bool no_csv_summary;   /* --no-csv-summary: -x's summary lines without perf's "summary" first field */
	time_t started;        /* -o FILE with the table or -x: perf's "# started on DATE" and an empty line first, so
				  --append files split into runs (0: none; -j, CSV and JSON have none, as newer perf's -j) */
};

/* interval.c: -I records as they happen. begin writes the header (table, -x: a comment line; CSV: the report's
 * header, whose columns the records and then the final report (pmc_output_csv_body without its header) share;
 * JSON: nothing, each record is one line). */
void pmc_output_interval_begin(FILE *f, const struct pmc_output_opts *o, bool rows);
void pmc_output_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r);
/* Whether o's format writes an interval's records together when it ends (pmc_output_interval_group: -x and -j, whose
 * lines carry perf's metric beside each event), rather than each as it comes. */
bool pmc_output_interval_grouped(const struct pmc_output_opts *o);
void pmc_output_interval_group(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r, size_t n);
/* Whether an interval's records have rows (-A, --per-*, --per-thread) beside their total. */
bool pmc_output_interval_rows(const struct pmc_interval_record *r, size_t n);
void pmc_output_interval_csv_header(FILE *f);
/* running / enabled in percent (0 when the counter was never enabled), for the -I writers. */
double pmc_output_running_pct(const struct pmc_count *c);
void pmc_output_interval_csv(FILE *f, const struct pmc_interval_record *r);
/* The CSV report, with or without its header line. */
int pmc_output_csv_body(FILE *f, const struct pmc_report *rep, bool header);

/* Write rep to f in the chosen format. 0, or -EIO when a write failed (f's error flag is set). */
int pmc_output_write(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o);

/* Render to a string first, then write it whole with pmc_output_write_path(): to path ("-" = stdout), or to stderr
 * when path is NULL. 0, or -errno (EPIPE included: the caller exits quietly). */
int pmc_output_emit(const struct pmc_report *rep, const struct pmc_output_opts *o, const char *path);

/* s for a terminal, in buf (len bytes, cut short to fit): every control character (C0, DEL, C1) and every byte that
 * is not UTF-8 written as \xHH, so text read from a report (an event's name, a workload) cannot move the cursor,
 * rewrite a line or change the terminal's state. Returns buf. */
const char *pmc_output_safe(const char *s, char *buf, size_t len);

/* The same rule over a whole text pmctool writes (a report in any format, list, info, check), line breaks and tabs
 * kept (and CR LF, CSV's line end): *ret (malloc'd, NUL-terminated, *ret_len bytes) is text with every other control byte and every byte that is
 * not UTF-8 written \xHH, so a name from a table, a saved report or a command line cannot reach the terminal raw.
 * JSON comes out unchanged (its writer escapes them already). 0 or -ENOMEM. */
int pmc_output_escape_text(const char *text, size_t len, char **ret, size_t *ret_len);

/* dest.c. How a report reaches a path. The kernel opens it as a shell's '>' would (following links under its rules:
 * fs.protected_symlinks and the like), and pmctool works on what was opened:
 *   "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N  written to that descriptor as it is;
 *   an existing non-regular file (device, FIFO, socket)          opened and written through, never replaced (a FIFO
 *                                                                without a reader is waited for 2 s, then -ENXIO);
 *   a regular file with one link, or a new file                  written whole or not at all: a temporary file
 *                                                                beside it, given the old file's mode and owner,
 *                                                                renamed over it;
 *   a regular file with several hard links, or another user's    written in place (the link and owner stay) into
 *                                                                space reserved first: whole, or untouched.
 * pmc_output_write_path writes buf; 0 or -errno (-EINTR: a signal came while waiting for a FIFO's reader).
 * pmc_output_check_path checks, before anything runs, that the write can happen (the file can be opened for writing,
 * a temporary file can be made beside it, the descriptor is open for writing): 0 or -errno. */
int pmc_output_write_path(const char *path, const char *buf, size_t len);
/* perf's -o header when o asks for one: "# started on Sun Nov 29 03:11:33 2026" and an empty line. */
void pmc_output_started(FILE *f, const struct pmc_output_opts *o);
/* Whether the report has rows (-A, --per-*, --per-thread, cgroups) beside its totals. */
bool pmc_output_has_rows(const struct pmc_report *rep);
/* An event's time running on a counter, in ns, averaged over the runs the statistics use (0 when none): perf's
 * "event-runtime" of -x and -j. */
double pmc_output_run_ns(const struct pmc_report *rep, const struct pmc_report_event *e);
/* The runs' wall times (the runs the statistics use): their mean and its standard error in seconds, and perf's
 * precision for them (two digits past the error's first). The number of runs; mean, sem, prec set when >= 2. */
size_t pmc_output_wall_stats(const struct pmc_report *rep, double *mean, double *sem, int *prec);
/* --metric-only: the metrics alone in the table, -x SEP or -j (not CSV or JSON, which hold them anyway). */
int pmc_output_metric_only(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o);
/* The same, but a regular file keeps what it holds and gets buf after it (perf's --append), whole or not at all: the
 * space is reserved first, and a write that fails part way is cut off again. Streams are written as above. */
int pmc_output_append_path(const char *path, const char *buf, size_t len);
int pmc_output_check_path(const char *path);
/* Why writing to path failed with err (from the two above), for a message. */
const char *pmc_output_strerror(const char *path, int err);
/* The descriptor a path names ("-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), or -1. */
int pmc_output_path_fd(const char *path);
/* A path opened for records written as they happen (-I): created or truncated as a shell's '>' would, the kernel's
 * link rules deciding; a FIFO without a reader is waited for a bounded time, then -ENXIO. The descriptor, or -errno
 * (-EINTR when a signal ended the wait). */
int pmc_output_open_stream(const char *path);

/* Internal renderers, shared by pmc_output_write and the golden tests. */
int pmc_output_table(FILE *f, const struct pmc_report *rep);
int pmc_output_sep(FILE *f, const struct pmc_report *rep, const char *sep, const char *lead);
/* -x's '#' notes alone (partial, failed runs, warnings), as they follow the counts: after -I's last interval when no
 * total is printed. */
void pmc_output_sep_notes(FILE *f, const struct pmc_report *rep);
int pmc_output_csv(FILE *f, const struct pmc_report *rep);
int pmc_output_json(FILE *f, const struct pmc_report *rep);
/* regions_out.c: stat --regions blocks (nothing without rep->regions; JSON writes "regions":null then). */
void pmc_output_regions_table(FILE *f, const struct pmc_report *rep);
void pmc_output_regions_json(struct pmc_jw *w, const struct pmc_report *rep);

/* topdown.c: stat --topdown's tree (nothing without rep->topdown; JSON writes no "topdown" member then). */
void pmc_output_topdown_table(FILE *f, const struct pmc_report *rep);
void pmc_output_topdown_csv(FILE *f, const struct pmc_report *rep);
void pmc_output_topdown_sep(FILE *f, const struct pmc_report *rep, const char *sep);
void pmc_output_topdown_json(struct pmc_jw *w, const struct pmc_report *rep);
/* -I --topdown: one interval's tree in o's format (report/topdown.h). */
struct pmc_report_topdown;
void pmc_output_topdown_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td);
/* The formats' writers of it (the format table's topdown_interval entries). */
void pmc_topdown_interval_table(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td);
void pmc_topdown_interval_sep(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td);
void pmc_topdown_interval_csv(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td);
void pmc_topdown_interval_json(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td);
/* One CSV record of the report's columns, the fields given by column name (the others empty; csv.c). */
void pmc_csv_named_row(FILE *f, const char *const *names, const char *const *vals, size_t n);

/* Helpers the renderers and the other commands' machine-readable output share (json.c), on the one JSON writer
 * (util/json_write.h: PMC_JSON_SCHEMA_VERSION, struct pmc_jw). */
/* One metric's object opened and its members written: name, unit, value (null when n/a), reason, description, scope;
 * the caller adds its own and closes it. */
void pmc_json_metric_fields(struct pmc_jw *w, const struct pmc_metric_value *m);
/* v shortest-round-trip (pmc_json_shortest), for the text formats. */
void pmc_format_shortest(double v, char *buf, size_t len);
/* The document's object opened with the members every JSON document starts with: schema_version, kind, pmctool. */
void pmc_json_header(struct pmc_jw *w, const char *kind);
/* An -I line's start: the header of kind, the interval's number, start_ns and end_ns. */
void pmc_json_interval_header(struct pmc_jw *w, const char *kind, unsigned interval, double start_s, double end_s);
/* A row's scope as a JSON object: kind ("all", "cpu", "core", "die", "socket", "thread"), label, cpu, core, die,
 * socket, pid, tid, comm; each null where the kind has none (all null but kind for the totals; NULL s is the total). */
void pmc_json_scope(struct pmc_jw *w, const struct pmc_row_scope *s);
/* An event's encoding as members of the open object: name, canonical, type, config*, exclude_*, class, fixed_index,
 * perf. The same spellings in stat, encode and the dry-run plan. */
void pmc_json_event_encoding(struct pmc_jw *w, const struct pmc_event *ev);
/* s as one RFC 4180 field: quoted when it holds a comma, quote, CR or LF, with quotes doubled. */
void pmc_csv_field(FILE *f, const char *s);
const char *pmc_output_status_name(enum pmc_count_status st); /* "ok", "not counted", ... */
const char *pmc_output_class_name(enum pmc_counter_class cls);
/* "1,234,567" style integer grouping of a value rounded to an integer. */
void pmc_output_group_digits(double v, char *buf, size_t len);
/* v with a fixed number of decimals ("%.*f"), unless those would all be 0 for a value that is not 0 (1e-20 with 12
 * decimals): then four significant digits ("1e-20"), so a number printed never hides its value. */
void pmc_output_fixed_or_sig(double v, int decimals, char *buf, size_t len);
/* The same with a fixed number of decimals: "1,234.57". Values of 1e40 and more (nonsense) fall back to %.6g. */
void pmc_output_group_fixed(double v, int decimals, char *buf, size_t len);

#endif
