/* SPDX-License-Identifier: MIT */
/* pmctool info's non-core PMUs (issue 36): each family once, its boxes merged, where its events are opened, its
 * format terms and its aliases with the kernel's scale and unit. */
#include <stdio.h>
#include <string.h>

#include "output/info_uncore.h"
#include "pmu/uncore.h"

void pmc_info_print_uncore(FILE *f)
{
	static struct pmc_uncore u;
	char buf[256];

	if (pmc_uncore_scan(&u) < 0 || !u.n)
		return;
	fprintf(f, "Non-core PMUs (counted system-wide on their cpumask CPUs, one per socket or die; never per task)\n");
	for (size_t i = 0; i < u.n; i++) {
		const struct pmc_uncore_family *fam = &u.fam[i];

		fprintf(f, "  %-16s %s: %s\n", fam->name, pmc_uncore_kind_name(fam->kind),
			pmc_uncore_describe(fam, buf, sizeof(buf)));
		if (fam->nformats) {
			fprintf(f, "    format         ");
			for (unsigned k = 0; k < fam->nformats; k++)
				fprintf(f, "%s%s", k ? " " : "", fam->format[k]);
			fputc('\n', f);
		}
		for (unsigned k = 0; k < fam->naliases; k++) {
			const struct pmc_uncore_alias *a = &fam->alias[k];
			double b = pmc_uncore_bytes_per_count(a);

			fprintf(f, "    %-22s %s", a->name, a->terms);
			if (a->unit[0] || a->scale != 1)
				fprintf(f, "  (x %.17g %s", a->scale, a->unit);
			if (b > 0)
				fprintf(f, " = %g bytes a count", b);
			if (a->unit[0] || a->scale != 1)
				fputc(')', f);
			fputc('\n', f);
		}
		if (fam->aliases_cut)
			fprintf(f, "    (more aliases than shown: %s/bus/event_source/devices/%s/events)\n", "sysfs",
				fam->box[0]);
	}
}
