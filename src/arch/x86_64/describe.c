/* SPDX-License-Identifier: MIT */
/* What CPUID says about the CPU, as `pmctool info`'s facts: a pure function of the decoded leaves, built on every
 * architecture so its unit test runs anywhere. */
#include <stdio.h>
#include <string.h>

#include "arch/common.h"
#include "arch/x86_64/cpuid.h"

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

/* The names of the architectural events leaf 0xA EBX marks unavailable, joined by ", ", into buf ("none" when
 * none). */
static void unavailable_names(uint32_t unavailable, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (!unavailable)
		snprintf(buf, len, "none");
	for (unsigned i = 0, first = 1; i < 32 && used < len; i++)
		if (unavailable & (1u << i)) {
			const char *n = pmc_cpuid_arch_event_name(i);
			int w = snprintf(buf + used, len - used, "%s%s", first ? "" : ", ", n ? n : "?");

			used += w > 0 ? (size_t)w : 0;
			first = 0;
		}
}

static void describe_text(const struct pmc_x86_cpu_facts *in, struct pmc_arch_fact *ret, size_t max, size_t *n)
{
	const struct pmc_arch_perfmon *a = &in->arch;
	const char *mn = in->model_name ? in->model_name : "";
	char names[400];

	pmc_arch_fact_text(ret, max, n, "vendor", "%s%s%s%s", in->id.vendor_str, mn[0] ? " (" : "", mn,
			   mn[0] ? ")" : "");
	pmc_arch_fact_text(ret, max, n, "family/model", "%#x / %#x, stepping %u", in->id.family, in->id.model,
			   in->id.stepping);
	pmc_arch_fact_text(ret, max, n, "hypervisor", "%s", in->id.hypervisor ? "yes (running in a VM)" : "no");
	if (in->has_arch) {
		pmc_arch_fact_text(ret, max, n, "CPUID 0xA", "perfmon v%u: %u programmable x %u bits, %u fixed x %u bits",
				   a->version, a->gp_counters, a->gp_width, a->fixed_counters, a->fixed_width);
		if (a->has_leaf23)
			pmc_arch_fact_text(ret, max, n, "CPUID 0x23.1", "GP bitmap %#x, fixed bitmap %#x", a->gp_bitmap,
					   a->fixed_bitmap);
		unavailable_names(a->unavailable, names, sizeof(names));
		pmc_arch_fact_text(ret, max, n, "unavailable", "%s (architectural events, CPUID 0xA EBX)", names);
	}
	if (in->has_amd)
		pmc_arch_fact_text(ret, max, n, "AMD counters", "%u core counters (PerfCtrExtCore %s, PerfMonV2 %s%s)",
				   in->amd.core_counters, yes(in->amd.perfctr_core), yes(in->amd.perfmon_v2),
				   in->amd.perfmon_v2 ? ": count from 0x80000022 EBX" : "");
	if (!in->has_arch && !in->has_amd)
		pmc_arch_fact_text(ret, max, n, "CPUID", "reports no performance counters");
}

/* "cpuid_arch_perfmon": leaf 0xA's counters and widths, the events it marks unavailable, leaf 0x23's bitmaps. */
static void arch_perfmon_json(struct pmc_jw *w, const struct pmc_arch_perfmon *a)
{
	pmc_jw_object_begin(w);
	pmc_jw_kuint(w, "version", a->version);
	pmc_jw_kuint(w, "gp_counters", a->gp_counters);
	pmc_jw_kuint(w, "gp_width", a->gp_width);
	pmc_jw_kuint(w, "fixed_counters", a->fixed_counters);
	pmc_jw_kuint(w, "fixed_width", a->fixed_width);
	pmc_jw_karray_begin(w, "unavailable_events");
	for (unsigned i = 0; i < 32; i++)
		if (a->unavailable & (1u << i)) {
			const char *n = pmc_cpuid_arch_event_name(i);

			pmc_jw_str(w, n ? n : "?");
		}
	pmc_jw_array_end(w);
	pmc_jw_kint_if(w, "gp_bitmap", a->has_leaf23, (long)a->gp_bitmap);
	pmc_jw_kint_if(w, "fixed_bitmap", a->has_leaf23, (long)a->fixed_bitmap);
	pmc_jw_object_end(w);
}

static void describe_json(const struct pmc_x86_cpu_facts *in, struct pmc_arch_fact *ret, size_t max, size_t *n)
{
	struct pmc_jw w;

	pmc_arch_fact_json(ret, max, n, "vendor", false, true, "%s", in->id.vendor_str);
	pmc_arch_fact_json(ret, max, n, "model_name", false, true, "%s", in->model_name ? in->model_name : "");
	pmc_arch_fact_json(ret, max, n, "family", false, false, "%u", in->id.family);
	pmc_arch_fact_json(ret, max, n, "model", false, false, "%u", in->id.model);
	pmc_arch_fact_json(ret, max, n, "stepping", false, false, "%u", in->id.stepping);
	pmc_arch_fact_json(ret, max, n, "hypervisor", false, false, "%s", in->id.hypervisor ? "true" : "false");
	pmc_arch_fact_json(ret, max, n, "architecture", false, false, "\"%s\"", in->arch_name);
	pmc_arch_fact_json(ret, max, n, "name", false, true, "%s", in->name ? in->name : "");
	pmc_arch_fact_json(ret, max, n, "midr", false, false, "null");
	if (pmc_arch_fact_json_begin(ret, max, n, "cpuid_arch_perfmon", true, &w)) {
		if (in->has_arch)
			arch_perfmon_json(&w, &in->arch);
		else
			pmc_jw_null(&w);
		pmc_arch_fact_json_end(&w, n);
	}
	if (pmc_arch_fact_json_begin(ret, max, n, "amd_perfmon", true, &w)) {
		if (in->has_amd) {
			pmc_jw_object_begin(&w);
			pmc_jw_kbool(&w, "perfctr_core", in->amd.perfctr_core);
			pmc_jw_kbool(&w, "perfmon_v2", in->amd.perfmon_v2);
			pmc_jw_kuint(&w, "core_counters", in->amd.core_counters);
			pmc_jw_object_end(&w);
		} else {
			pmc_jw_null(&w);
		}
		pmc_arch_fact_json_end(&w, n);
	}
}

size_t pmc_x86_describe(const struct pmc_x86_cpu_facts *in, struct pmc_arch_fact *ret, size_t max)
{
	size_t n = 0;

	describe_text(in, ret, max, &n);
	describe_json(in, ret, max, &n);
	return n;
}
