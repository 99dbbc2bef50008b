/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>

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

void pmc_diag_v(enum pmc_diag_kind kind, const char *fmt, va_list ap)
{
	char buf[2048];

	/* Longer messages are cut (every message names its input within the first few hundred bytes). */
	vsnprintf(buf, sizeof(buf), fmt, ap);
	sink(sink_ctx, kind, buf);
}

void pmc_diag(enum pmc_diag_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pmc_diag_v(kind, fmt, ap);
	va_end(ap);
}
