/* SPDX-License-Identifier: MIT */
/* A libpfm4 PMU name given by the user (LIBPFM_FORCE_PMU, --pmu): known, or an error naming the nearest. libpfm4
 * itself ignores an unknown LIBPFM_FORCE_PMU and detects nothing, which reads as "PMU (none)". */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"

/* Case-insensitive substring. */
static bool contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

int pmc_pmu_name_check(const char *name, char *err, size_t errlen)
{
	const char *best[3] = { NULL, NULL, NULL };
	unsigned dist[3] = { ~0u, ~0u, ~0u };
	size_t off;
	pfm_pmu_t p;

	if (pfm_initialize() != PFM_SUCCESS) {
		snprintf(err, errlen, "libpfm4 failed to initialize, so PMU '%s' cannot be checked", name);
		return -ENODEV;
	}
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info = { .size = sizeof(info) };
		unsigned d;

		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS || !info.name)
			continue;
		if (!strcasecmp(info.name, name))
			return 0;
		/* zen3 -> amd64_fam19h_zen3: a part of the real name is nearest of all */
		d = contains(info.name, name) ? 0 : pmc_edit_distance(name, info.name, 3);
		for (int i = 0; i < 3; i++)
			if (d < dist[i]) {
				memmove(&best[i + 1], &best[i], (size_t)(2 - i) * sizeof(best[0]));
				memmove(&dist[i + 1], &dist[i], (size_t)(2 - i) * sizeof(dist[0]));
				best[i] = info.name;
				dist[i] = d;
				break;
			}
	}
	off = (size_t)snprintf(err, errlen, "libpfm4 has no PMU named '%s'", name);
	for (int i = 0; i < 3 && best[i] && dist[i] < 3 && off < errlen; i++)
		off += (size_t)snprintf(err + off, errlen - off, "%s'%s'", i ? ", " : "; nearest: ", best[i]);
	if (off < errlen)
		snprintf(err + off, errlen - off, "; 'pmctool list --pmu NAME' takes any of libpfm4's PMUs "
			 "(hsw, skl, icx, amd64_fam19h_zen3...)");
	return -ENOENT;
}
