/* SPDX-License-Identifier: MIT */
/* The vendor-table reader (src/tables): any bytes as a table file (perf's array, perfmon's object, Neoverse's
 * object) and the first line as a mapfile pattern matched against a CPUID: no crash, no leak, no out-of-bounds read,
 * and every event taken has a lower-case name and a config within the layout. The input is not NUL-terminated. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tables/tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), why[200];
	struct pmc_tables *t;
	const struct pmc_table_event *ev, *found;
	const struct pmc_table_metric *met;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if ((t = pmc_tables_new())) {
		if (size % 2) /* odd sizes read as arm64's files (uncore NodeType/EventidCode terms, Compat) */
			pmc_tables_set_enc(t, PMC_TABLE_ENC_ARM64);
		(void)pmc_tables_parse_text(t, buf, size, "fuzz.json", why, sizeof(why));
		size_t n = pmc_tables_events(t, &ev);
		for (size_t i = 0; i < n; i++) {
			for (const char *p = ev[i].name; *p; p++)
				if (isupper((unsigned char)*p))
					abort();
			if (ev[i].enc == PMC_TABLE_ENC_X86 ? (ev[i].config >> 36) != 0 : ev[i].config > 0xffff)
				abort(); /* beyond cmask and the AMD code bits, or the arm64 event number */
			if (ev[i].terms && (!ev[i].pmu || strpbrk(ev[i].terms, "/ ") || strpbrk(ev[i].pmu, " ,/=")))
				abort(); /* an uncore event's family and terms make one sysfs spelling FAMILY/TERMS/ */
			(void)pmc_tables_find(t, ev[i].name, &found);
		}
		size_t m = pmc_tables_metrics(t, &met);
		for (size_t i = 0; i < m; i++)
			if (!met[i].name || !met[i].expr)
				abort();
		pmc_tables_free(t);
	}
	char *nl = memchr(buf, '\n', size);
	if (nl) {
		*nl = '\0';
		(void)pmc_table_cpuid_match(buf, nl + 1);
	}
	free(buf);
	return 0;
}
