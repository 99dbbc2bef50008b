/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "report/env.h"

const char *pmc_env_field(const struct pmc_env *e, size_t i, const char **ret_name, char *buf, size_t len)
{
	static const char *const names[PMC_ENV_FIELDS] = { "cpu",	"cpuid",    "microcode", "hypervisor",
							   "kernel",	"arch",	    "libpfm4",	 "core_pmu",
							   "tables",	"pmctool",  "backend" };
	const char *v;

	*ret_name = i < PMC_ENV_FIELDS ? names[i] : "";
	switch (i) {
	case 0: v = e->cpu; break;
	case 1: v = e->cpuid; break;
	case 2: v = e->microcode; break;
	case 3: v = e->hypervisor ? "yes" : "no"; break;
	case 4: v = e->kernel; break;
	case 5: v = e->arch; break;
	case 6: v = e->libpfm4; break;
	case 7: v = e->core_pmu; break;
	case 8: v = e->tables; break;
	case 9: v = e->pmctool; break;
	case 10: v = e->backend; break;
	default: v = ""; break;
	}
	snprintf(buf, len, "%s", v);
	return buf;
}

size_t pmc_env_diff(const struct pmc_env *a, const struct pmc_env *b, char *buf, size_t len)
{
	size_t n = 0, used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < PMC_ENV_FIELDS; i++) {
		char va[256], vb[256];
		const char *name;

		pmc_env_field(a, i, &name, va, sizeof(va));
		pmc_env_field(b, i, &name, vb, sizeof(vb));
		if (!strcmp(va, vb))
			continue;
		n++;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s '%s' vs '%s'", used ? "; " : "", name,
						 va[0] ? va : "(none)", vb[0] ? vb : "(none)");
	}
	return n;
}
