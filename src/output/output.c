/* SPDX-License-Identifier: MIT */
#include "output/output.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *pmc_output_safe(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return "";
	while (s && *s) {
		size_t n = pmc_utf8_seq(s);
		unsigned char c = (unsigned char)*s;
		/* C0 controls, DEL, C1 controls (U+0080-U+009F) and bytes that are not UTF-8 */
		bool bad = !n || c < 0x20 || c == 0x7f || (c == 0xc2 && (unsigned char)s[1] < 0xa0);

		if (o + (bad ? 4 : n) >= len)
			break;
		if (bad) {
			snprintf(buf + o, 5, "\\x%02x", c);
			o += 4;
			s++;
		} else {
			memcpy(buf + o, s, n);
			o += n;
			s += n;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* One character of text at s (n bytes left): its length, or 0 when it is written \xHH. */
static size_t text_char(const char *s, size_t n)
{
	unsigned char c = (unsigned char)*s;
	size_t k;

	if (c == '\n' || c == '\t' || (c == '\r' && n > 1 && s[1] == '\n')) /* CSV's lines end CR LF (RFC 4180) */
		return 1;
	if (c < 0x20 || c == 0x7f || (c == 0xc2 && n > 1 && (unsigned char)s[1] < 0xa0))
		return 0;
	k = pmc_utf8_seq(s); /* stops at a NUL: a sequence cut by the end of the text is not UTF-8 */
	return k <= n ? k : 0;
}

int pmc_output_escape_text(const char *text, size_t len, char **ret, size_t *ret_len)
{
	char *out = malloc(len * 4 + 1);
	size_t o = 0;

	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < len;) {
		size_t run = i, k;

		/* A run of printable ASCII (most of any report) in one copy. */
		while (run < len && (unsigned char)text[run] >= 0x20 && (unsigned char)text[run] < 0x7f)
			run++;
		if (run > i) {
			memcpy(out + o, text + i, run - i);
			o += run - i;
			i = run;
			continue;
		}
		k = text_char(text + i, len - i);

		if (k) {
			memcpy(out + o, text + i, k);
			o += k;
			i += k;
		} else {
			o += (size_t)sprintf(out + o, "\\x%02x", (unsigned char)text[i]);
			i++;
		}
	}
	out[o] = '\0';
	*ret = out;
	*ret_len = o;
	return 0;
}

const char *pmc_output_status_name(enum pmc_count_status st)
{
	switch (st) {
	case PMC_COUNT_OK:
		return "ok";
	case PMC_COUNT_NOT_COUNTED:
		return "not counted";
	case PMC_COUNT_NOT_SUPPORTED:
		return "not supported";
	case PMC_COUNT_NOT_RUN:
	default:
		return "not run";
	}
}

const char *pmc_output_class_name(enum pmc_counter_class cls)
{
	switch (cls) {
	case PMC_CLASS_GP:
		return "programmable";
	case PMC_CLASS_FIXED:
		return "fixed";
	case PMC_CLASS_FREE:
		return "software";
	case PMC_CLASS_EMULATED:
		return "emulated";
	case PMC_CLASS_BREAKPOINT:
	default:
		return "breakpoint";
	}
}

void pmc_output_fixed_or_sig(double v, int decimals, char *buf, size_t len)
{
	if (v != 0 && isfinite(v) && fabs(v) < 0.5 * pow(10, -decimals))
		snprintf(buf, len, "%.4g", v); /* its decimals would all be 0: four significant digits instead */
	else
		snprintf(buf, len, "%.*f", decimals, v);
}

void pmc_output_group_fixed(double v, int decimals, char *buf, size_t len)
{
	char raw[80], *dot;
	size_t out = 0, lead, ndig;
	const char *p = raw;

	if (!isfinite(v) || fabs(v) >= 1e40) {
		snprintf(buf, len, "%.6g", v);
		return;
	}
	snprintf(raw, sizeof(raw), "%.*f", decimals, v);
	if (*p == '-' && out + 1 < len)
		buf[out++] = *p++;
	dot = strchr(p, '.');
	ndig = dot ? (size_t)(dot - p) : strlen(p);
	lead = ndig % 3 ? ndig % 3 : 3;
	for (size_t i = 0; p[i] && out + 2 < len; i++) {
		if (i < ndig && i >= lead && (i - lead) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = p[i];
	}
	buf[out] = '\0';
}

void pmc_output_group_digits(double v, char *buf, size_t len)
{
	pmc_output_group_fixed(v, 0, buf, len);
}

bool pmc_output_has_rows(const struct pmc_report *rep)
{
	for (size_t i = 0; i < rep->nevents; i++)
		if (rep->events[i].scope.kind != PMC_ROW_ALL)
			return true;
	return false;
}

double pmc_output_run_ns(const struct pmc_report *rep, const struct pmc_report_event *e)
{
	double sum = 0;
	size_t n = 0;

	for (size_t s = 0; s < e->nsamples; s++)
		if (pmc_report_run_used(rep, e->samples[s].run)) {
			sum += (double)e->samples[s].count.running;
			n++;
		}
	return n ? sum / (double)n : 0;
}


void pmc_output_started(FILE *f, const struct pmc_output_opts *o)
{
	char date[64];
	struct tm tm;

	if (!o->started || (o->format != PMC_OUTPUT_TABLE && o->format != PMC_OUTPUT_SEP) ||
	    !localtime_r(&o->started, &tm) || !strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm))
		return;
	fprintf(f, "# started on %s\n\n", date); /* ctime()'s layout, as perf writes it */
}

int pmc_output_emit(const struct pmc_report *rep, const struct pmc_output_opts *o, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int r;

	if (!mem)
		return -ENOMEM;
	if (path)
		pmc_output_started(mem, o);
	r = pmc_output_write(mem, rep, o);
	if (fclose(mem) && !r)
		r = -ENOMEM;
	if (!r)
		r = (o->append ? pmc_output_append_path : pmc_output_write_path)(path ? path : "/dev/stderr", buf, len);
	free(buf);
	return r;
}
