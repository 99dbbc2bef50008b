/* SPDX-License-Identifier: MIT */
/* The engine: the environment a report is measured in (report/env.h), for the report and for compare's check. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "arch/arch.h"
#include "engine/engine.h"
#include "tables/tables.h"
#include "config.h"

/* /proc/cpuinfo's first "microcode" line (x86 has one per CPU; other architectures none). */
static void microcode(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[256];

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "microcode", 9)) {
			char *v = strchr(line, ':');

			if (v) {
				v += 1 + strspn(v + 1, " \t");
				v[strcspn(v, "\n")] = '\0';
				snprintf(buf, len, "%.*s", (int)len - 1, v);
			}
			break;
		}
	fclose(f);
}

/* libpfm4's release (pmu/release.c); "API 4.0" when it is not known. */
static void libpfm_version(char *buf, size_t len)
{
	char rel[32];
	unsigned major, minor;

	if (pmc_pfm_release(rel, sizeof(rel))) {
		snprintf(buf, len, "%.15s", rel);
		return;
	}
	if (pmc_pmu_libpfm_version(&major, &minor) == 0)
		snprintf(buf, len, "API %u.%u", major, minor);
	else
		buf[0] = '\0';
}

/* lean: the core PMU's libpfm4 name only where libpfm4 is already started (by the events); starting it costs more
 * than the rest of a short run's own work (its tracepoint table, from tracefs), for a field no table shows. */
void pmc_eng_environment(struct pmc_report *rep, const char *backend, bool lean)
{
	struct pmc_env *e = &rep->env;
	const struct pmc_tables_report *tr = NULL;
	const struct pmc_tables *t = pmc_pmu_tables_loaded();
	struct pmc_arch_cpu cpu;
	struct utsname u;
	const char *from, *core = lean && !pmc_pmu_libpfm_started() ? NULL : pmc_pmu_core_name();

	memset(e, 0, sizeof(*e));
	e->present = true;
	pmc_arch_cpu_identify(&cpu);
	snprintf(e->cpu, sizeof(e->cpu), "%s", cpu.name[0] ? cpu.name : cpu.vendor);
	if (pmc_arch_tables_cpuid(e->cpuid, sizeof(e->cpuid), &from) < 0)
		e->cpuid[0] = '\0';
	microcode(e->microcode, sizeof(e->microcode));
	e->hypervisor = cpu.hypervisor;
	if (uname(&u) == 0) {
		snprintf(e->kernel, sizeof(e->kernel), "%s", u.release);
		snprintf(e->arch, sizeof(e->arch), "%.15s", u.machine);
	}
	libpfm_version(e->libpfm4, sizeof(e->libpfm4));
	snprintf(e->core_pmu, sizeof(e->core_pmu), "%s", core ? core : "");
	if (t && pmc_tables_report(t, &tr) == 0 && tr && tr->dir) {
		snprintf(e->tables, sizeof(e->tables), "%.180s (%.60s)", tr->dir, tr->model ? tr->model : "?");
		/* the CPU the tables were read for (PMCTOOL_CPUID overrides it): pmctool report reads them again so */
		if (tr->cpuid && tr->cpuid_from && !strcmp(tr->cpuid_from, "PMCTOOL_CPUID"))
			snprintf(e->cpuid, sizeof(e->cpuid), "%s", tr->cpuid);
	}
	snprintf(e->pmctool, sizeof(e->pmctool), "%s", PMC_VERSION);
	snprintf(e->backend, sizeof(e->backend), "%s", backend);
}
