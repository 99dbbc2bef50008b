/* SPDX-License-Identifier: MIT */
/* Diagnostics of library code: the measurement engine (src/engine/) never writes to a stream; it hands each message
 * to the sink its caller installed. The CLI's sink writes "pmctool: MESSAGE" lines on stderr; a program that embeds
 * the engine can collect them instead (a test does). One sink per process, installed before measuring. */
#ifndef PMC_UTIL_DIAG_H
#define PMC_UTIL_DIAG_H

#include <stdarg.h>

enum pmc_diag_kind {
	PMC_DIAG_ERROR,  /* why something failed (the caller also gets an exit status) */
	PMC_DIAG_NOTE,   /* what the engine decided that the user should know (batches rerun, a fallback) */
	PMC_DIAG_TRACE   /* -v records (one perf_event_open each), already formatted */
};

/* A sink: one message without its trailing newline; it may hold further lines ("\n  note: ..."). */
typedef void (*pmc_diag_fn)(void *ctx, enum pmc_diag_kind kind, const char *msg);

/* Install fn (NULL: the default, which writes "pmctool: MESSAGE\n" to stderr, TRACE lines as they are). */
void pmc_diag_set(pmc_diag_fn fn, void *ctx);

/* The sink installed now (for a caller that installs its own for a while and then gives the old one back). */
struct pmc_diag_sink {
	pmc_diag_fn fn;
	void *ctx;
};
/* Install s (fn NULL: the default) and return the sink it replaces. */
struct pmc_diag_sink pmc_diag_exchange(struct pmc_diag_sink s);

/*
 * A request field named in a message: "bad " PMC_FIELD("metrics") " '%s'". The sink gets it spelled by the process's
 * field speller: the command line installs its option's spelling ("--metric": cli/fields.c, the one place that maps
 * fields to flags); without one (a program linking the engine) it is the field's own word ("metrics"). Only for
 * messages given to pmc_diag (the spelling happens there), never for text kept in a report.
 */
#define PMC_FIELD(word) "\x1d" word "\x1e"
/* The spelling of field on the command line, or NULL to keep the field's word. */
typedef const char *(*pmc_diag_speller)(const char *field);
/* Install fn for the whole process (NULL: the fields' own words); the CLI does it once, before any thread. */
void pmc_diag_set_speller(pmc_diag_speller fn);
/* The field the last error message of this thread named first, "" when it named none: the subject of an error for a
 * library caller ({kind, subject, detail}). */
const char *pmc_diag_subject(void);

void pmc_diag(enum pmc_diag_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pmc_diag_v(enum pmc_diag_kind kind, const char *fmt, va_list ap);
#define pmc_diag_error(...) pmc_diag(PMC_DIAG_ERROR, __VA_ARGS__)
#define pmc_diag_note(...) pmc_diag(PMC_DIAG_NOTE, __VA_ARGS__)

/* The default sink, for callers that wrap it. */
void pmc_diag_stderr(void *ctx, enum pmc_diag_kind kind, const char *msg);

#endif
