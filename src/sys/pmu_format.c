/* SPDX-License-Identifier: MIT */
/* Pure parsers for sysfs PMU format and event-alias files. */
#include "sys/pmu_format.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

static const char *skip_ws(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* A decimal bit number 0..63; advances *s. */
static int parse_bit(const char **s, uint8_t *ret)
{
	unsigned v = 0;
	const char *p = *s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > 63)
			return -EINVAL;
		p++;
	}
	*s = p;
	*ret = (uint8_t)v;
	return 0;
}

int pmc_sysfs_format_parse(const char *text, struct pmc_sysfs_format *ret)
{
	struct pmc_sysfs_format f = { 0 };
	const char *p = skip_ws(text);
	unsigned total = 0;

	if (!strncmp(p, "config2:", 8)) {
		f.field = 2;
		p += 8;
	} else if (!strncmp(p, "config1:", 8)) {
		f.field = 1;
		p += 8;
	} else if (!strncmp(p, "config:", 7)) {
		f.field = 0;
		p += 7;
	} else {
		return -EINVAL;
	}
	for (;;) {
		uint8_t lo, hi;

		if (f.nranges == PMC_SYSFS_MAX_RANGES || parse_bit(&p, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_bit(&p, &hi) || hi < lo)
				return -EINVAL;
		}
		total += (unsigned)(hi - lo) + 1;
		f.range[f.nranges].lo = lo;
		f.range[f.nranges].hi = hi;
		f.nranges++;
		if (*p != ',')
			break;
		p++;
	}
	if (*skip_ws(p) || total > 64)
		return -EINVAL;
	*ret = f;
	return 0;
}

int pmc_sysfs_format_apply(const struct pmc_sysfs_format *fmt, uint64_t val, uint64_t cfg[3])
{
	uint64_t out;

	if (fmt->field < 0 || fmt->field > 2)
		return -EINVAL;
	out = cfg[fmt->field];
	for (unsigned i = 0; i < fmt->nranges; i++) {
		unsigned width = (unsigned)(fmt->range[i].hi - fmt->range[i].lo) + 1;
		uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;

		out = (out & ~(mask << fmt->range[i].lo)) | ((val & mask) << fmt->range[i].lo);
		val = width >= 64 ? 0 : val >> width;
	}
	if (val)
		return -ERANGE;
	cfg[fmt->field] = out;
	return 0;
}

int pmc_sysfs_terms_parse(const char *text, int (*cb)(const char *name, const char *value, void *ctx), void *ctx)
{
	const char *p = text;

	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char term[256];
		char *eq, *name, *val = NULL;
		int rc;

		if (len >= sizeof(term))
			return -E2BIG;
		memcpy(term, p, len);
		term[len] = '\0';
		name = (char *)skip_ws(term);
		for (size_t n = strlen(name); n && isspace((unsigned char)name[n - 1]); n--)
			name[n - 1] = '\0';
		eq = strchr(name, '=');
		if (eq) {
			*eq = '\0';
			val = (char *)skip_ws(eq + 1);
			for (size_t n = strlen(name); n && isspace((unsigned char)name[n - 1]); n--)
				name[n - 1] = '\0';
			if (!*val)
				return -EINVAL;
		}
		if (!*name)
			return -EINVAL;
		rc = cb(name, val, ctx);
		if (rc)
			return rc;
		if (!end)
			return 0;
		p = end + 1;
	}
}

uint64_t pmc_sysfs_format_extract(const struct pmc_sysfs_format *fmt, uint64_t field_value, uint64_t *ret_mask)
{
	uint64_t val = 0, covered = 0;
	unsigned shift = 0;

	for (unsigned i = 0; i < fmt->nranges && shift < 64; i++) {
		unsigned width = (unsigned)(fmt->range[i].hi - fmt->range[i].lo) + 1;
		uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;

		val |= ((field_value >> fmt->range[i].lo) & mask) << shift;
		covered |= mask << fmt->range[i].lo;
		shift += width;
	}
	if (ret_mask)
		*ret_mask = covered;
	return val;
}

unsigned pmc_sysfs_format_width(const struct pmc_sysfs_format *fmt)
{
	unsigned w = 0;

	for (unsigned i = 0; i < fmt->nranges; i++)
		w += (unsigned)(fmt->range[i].hi - fmt->range[i].lo) + 1;
	return w;
}
