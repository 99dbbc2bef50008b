/* SPDX-License-Identifier: MIT */
/* JSON strings (json_write.h). */
#include "util/json_write.h"

#include <stdint.h>

size_t pmc_utf8_seq(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp, min;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	else
		return 0; /* a continuation byte alone, an overlong lead (0xc0, 0xc1), or past U+10FFFF */
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* the terminating NUL stops here too */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0; /* overlong, out of range, or a UTF-16 surrogate */
	return n;
}

void pmc_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	while (s && *s) {
		unsigned char c = (unsigned char)*s;
		size_t n = pmc_utf8_seq(s);

		if (!n) {
			fputs("\\ufffd", f); /* a byte that is not UTF-8: the replacement character, one per byte */
			s++;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

void pmc_json_string_or_null(FILE *f, const char *s)
{
	if (s && *s)
		pmc_json_string(f, s);
	else
		fputs("null", f);
}
