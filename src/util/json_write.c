/* SPDX-License-Identifier: MIT */
/* JSON strings (json_write.h). */
#include "util/json_write.h"

void pmc_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
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
