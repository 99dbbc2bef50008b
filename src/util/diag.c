/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

/* Per thread: an engine measuring in one thread never sends its messages to another's sink. */
static _Thread_local pmc_diag_fn sink = pmc_diag_stderr;
static _Thread_local void *sink_ctx;

void pmc_diag_stderr(void *ctx, enum pmc_diag_kind kind, const char *msg)
{
	(void)ctx;
	if (kind == PMC_DIAG_TRACE)
		fprintf(stderr, "%s\n", msg);
	else
		fprintf(stderr, "pmctool: %s\n", msg);
}

void pmc_diag_set(pmc_diag_fn fn, void *ctx)
{
	sink = fn ? fn : pmc_diag_stderr;
	sink_ctx = fn ? ctx : NULL;
}

struct pmc_diag_sink pmc_diag_exchange(struct pmc_diag_sink s)
{
	struct pmc_diag_sink old = { sink, sink_ctx };

	pmc_diag_set(s.fn, s.ctx);
	return old;
}

static pmc_diag_speller speller;
static _Thread_local char subject[32];

void pmc_diag_set_speller(pmc_diag_speller fn)
{
	speller = fn;
}

const char *pmc_diag_subject(void)
{
	return subject;
}

/* msg with each PMC_FIELD spelled (in place: a spelling is at most 32 bytes, cut at the buffer's end); an error's
 * first field becomes the thread's subject. */
static void spell(enum pmc_diag_kind kind, char *msg, size_t len)
{
	char out[2048], field[32];
	size_t o = 0;
	bool first = true;

	if (!strchr(msg, '\x1d'))
		return;
	for (const char *p = msg; *p && o + 1 < sizeof(out);) {
		const char *end = *p == '\x1d' ? strchr(p + 1, '\x1e') : NULL;
		const char *word;

		if (!end) {
			out[o++] = *p++;
			continue;
		}
		snprintf(field, sizeof(field), "%.*s", (int)(end - p - 1), p + 1);
		if (kind == PMC_DIAG_ERROR && first)
			memcpy(subject, field, sizeof(subject));
		first = false;
		word = speller ? speller(field) : NULL;
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s", word ? word : field);
		if (o >= sizeof(out))
			o = sizeof(out) - 1;
		p = end + 1;
	}
	out[o] = '\0';
	snprintf(msg, len, "%s", out);
}

void pmc_diag_v(enum pmc_diag_kind kind, const char *fmt, va_list ap)
{
	char buf[2048];

	/* Longer messages are cut (every message names its input within the first few hundred bytes). */
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (kind == PMC_DIAG_ERROR)
		subject[0] = '\0';
	spell(kind, buf, sizeof(buf));
	sink(sink_ctx, kind, buf);
}

void pmc_diag(enum pmc_diag_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pmc_diag_v(kind, fmt, ap);
	va_end(ap);
}
