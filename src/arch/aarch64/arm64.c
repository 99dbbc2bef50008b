/* SPDX-License-Identifier: MIT */
#include "arch/aarch64/arm64.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch/common.h"
#include "sys/sysfs.h"
#include "sys/pmu_format.h"

void pmc_arm64_midr_decode(uint32_t midr, struct pmc_arm64_midr *ret)
{
	ret->midr = midr;
	ret->implementer = midr >> 24;
	ret->variant = (midr >> 20) & 0xf;
	ret->architecture = (midr >> 16) & 0xf;
	ret->part = (midr >> 4) & 0xfff;
	ret->revision = midr & 0xf;
}

static const struct {
	unsigned id;
	const char *name;
} implementers[] = {
	{ 0x41, "ARM" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" }, { 0x46, "Fujitsu" }, { 0x48, "HiSilicon" },
	{ 0x4e, "NVIDIA" }, { 0x50, "APM" }, { 0x51, "Qualcomm" }, { 0x61, "Apple" }, { 0xc0, "Ampere" },
};

/* Parts by implementer, from the vendors' technical reference manuals (MIDR part numbers). */
static const struct {
	unsigned impl, part;
	const char *name;
} parts[] = {
	{ 0x41, 0xd03, "Cortex-A53" }, { 0x41, 0xd04, "Cortex-A35" }, { 0x41, 0xd05, "Cortex-A55" },
	{ 0x41, 0xd07, "Cortex-A57" }, { 0x41, 0xd08, "Cortex-A72" }, { 0x41, 0xd09, "Cortex-A73" },
	{ 0x41, 0xd0a, "Cortex-A75" }, { 0x41, 0xd0b, "Cortex-A76" }, { 0x41, 0xd0c, "Neoverse-N1" },
	{ 0x41, 0xd0d, "Cortex-A77" }, { 0x41, 0xd40, "Neoverse-V1" }, { 0x41, 0xd41, "Cortex-A78" },
	{ 0x41, 0xd44, "Cortex-X1" }, { 0x41, 0xd46, "Cortex-A510" }, { 0x41, 0xd47, "Cortex-A710" },
	{ 0x41, 0xd48, "Cortex-X2" }, { 0x41, 0xd49, "Neoverse-N2" }, { 0x41, 0xd4f, "Neoverse-V2" },
	{ 0x41, 0xd80, "Cortex-A520" }, { 0x41, 0xd81, "Cortex-A720" }, { 0x41, 0xd82, "Cortex-X4" },
	{ 0x41, 0xd84, "Neoverse-V3" }, { 0x41, 0xd8e, "Neoverse-N3" },
	{ 0x43, 0x0af, "ThunderX2" }, { 0x46, 0x001, "A64FX" }, { 0x48, 0xd01, "TaiShan v110" },
	{ 0xc0, 0xac3, "AmpereOne" },
};

const char *pmc_arm64_implementer_name(unsigned implementer)
{
	for (size_t i = 0; i < sizeof(implementers) / sizeof(implementers[0]); i++)
		if (implementers[i].id == implementer)
			return implementers[i].name;
	return NULL;
}

const char *pmc_arm64_part_name(unsigned implementer, unsigned part)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].impl == implementer && parts[i].part == part)
			return parts[i].name;
	return NULL;
}

const char *pmc_arm64_cpu_name(const struct pmc_arm64_midr *m, char *buf, size_t len)
{
	const char *impl = pmc_arm64_implementer_name(m->implementer);
	const char *part = pmc_arm64_part_name(m->implementer, m->part);

	if (impl && part)
		snprintf(buf, len, "%s %s (r%up%u)", impl, part, m->variant, m->revision);
	else if (impl)
		snprintf(buf, len, "%s part %#x (r%up%u)", impl, m->part, m->variant, m->revision);
	else
		snprintf(buf, len, "implementer %#x part %#x (r%up%u)", m->implementer, m->part, m->variant,
			 m->revision);
	return buf;
}

static int cpuinfo_hex(const char *path, const char *key, unsigned max, unsigned *ret)
{
	char buf[64], *end;
	unsigned long v;
	int rc = pmc_arch_cpuinfo_field(path, key, buf, sizeof(buf));

	if (rc)
		return rc;
	errno = 0;
	v = strtoul(buf, &end, 0);
	if (errno || end == buf || v > max)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

int pmc_arm64_midr_from_cpuinfo(const char *path, uint32_t *ret)
{
	unsigned impl, var = 0, arch = 0xf, part, rev = 0;
	int rc;

	rc = cpuinfo_hex(path, "CPU implementer", 0xff, &impl);
	if (!rc)
		rc = cpuinfo_hex(path, "CPU part", 0xfff, &part);
	if (rc)
		return rc;
	/* Optional fields: "CPU architecture: 8" is the ISA version, not MIDR's field (0xf: see ID registers). */
	(void)cpuinfo_hex(path, "CPU variant", 0xf, &var);
	(void)cpuinfo_hex(path, "CPU revision", 0xf, &rev);
	*ret = (uint32_t)impl << 24 | (uint32_t)var << 20 | (uint32_t)arch << 16 | (uint32_t)part << 4 | rev;
	return 0;
}

int pmc_arm64_midr_read(uint32_t *ret, const char **ret_source)
{
	char path[PATH_MAX], buf[64], *end;
	unsigned long long v;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/regs/identification/midr_el1", pmc_sysfs_root());
	if (!pmc_sysfs_read_line(path, buf, sizeof(buf))) {
		errno = 0;
		v = strtoull(buf, &end, 0);
		if (!errno && end != buf && v <= UINT32_MAX) {
			*ret = (uint32_t)v;
			if (ret_source)
				*ret_source = "midr_el1 (sysfs)";
			return 0;
		}
	}
	if (ret_source)
		*ret_source = "/proc/cpuinfo";
	return pmc_arm64_midr_from_cpuinfo(NULL, ret);
}

static bool exists(const char *dir, const char *name, bool want_dir)
{
	char path[PATH_MAX * 2];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st) && (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

bool pmc_arm64_core_pmu_name(const char *name)
{
	return !strcmp(name, "cpu") || !strncmp(name, "armv8_", 6) || !strncmp(name, "armv9_", 6) ||
	       !strncmp(name, "armv7_", 6);
}

/* pass 0: armv8_pmuv3* (or a PMU named cpu, as on x86); pass 1: any PMU that looks like a core PMU. */
static bool is_core(const char *name, const char *dir, void *ctx)
{
	if (*(const int *)ctx == 0)
		return !strcmp(name, "cpu") || !strncmp(name, "armv8_pmuv3", 11);
	return (exists(dir, "cpus", false) || exists(dir, "cpumask", false)) && exists(dir, "format/event", false) &&
	       exists(dir, "events", true);
}

int pmc_arm64_core_pmu_dir(char *buf, size_t len)
{
	for (int pass = 0; pass < 2; pass++)
		if (!pmc_arch_pmu_find(is_core, &pass, buf, len))
			return 0;
	return -ENODEV;
}

int pmc_arm64_rdpmc_term(const char *pmu_dir, int *ret_field, uint64_t *ret_mask)
{
	char path[PATH_MAX], text[128];
	struct pmc_sysfs_format fmt;
	uint64_t cfg[3] = { 0, 0, 0 };
	int rc;

	snprintf(path, sizeof(path), "%s/format/rdpmc", pmu_dir);
	rc = pmc_sysfs_read_line(path, text, sizeof(text));
	if (rc)
		return rc == -ENOENT ? -ENOENT : rc;
	if (pmc_sysfs_format_parse(text, &fmt) || pmc_sysfs_format_apply(&fmt, 1, cfg))
		return -EINVAL;
	*ret_field = fmt.field;
	*ret_mask = cfg[fmt.field];
	return 0;
}

int pmc_arm64_user_access(void)
{
	long v;

	if (pmc_sysfs_read_long("/proc/sys/kernel/perf_user_access", &v))
		return -1;
	return v ? 1 : 0;
}

const char *pmc_arm64_counter_register(uint32_t index, char *buf, size_t len)
{
	if (index == 32)
		snprintf(buf, len, "PMCCNTR_EL0");
	else if (index >= 1 && index <= 31)
		snprintf(buf, len, "PMEVCNTR%u_EL0", index - 1);
	else
		return NULL;
	return buf;
}

bool pmc_arm64_cycle_counter_event(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_HARDWARE)
		return a->config == PERF_COUNT_HW_CPU_CYCLES;
	if (a->type == PERF_TYPE_SOFTWARE || a->type == PERF_TYPE_TRACEPOINT || a->type == PERF_TYPE_BREAKPOINT ||
	    a->type == PERF_TYPE_HW_CACHE)
		return false;
	return a->config == 0x11 && !(a->config1 & ~UINT64_C(3)) && !a->config2;
}

int pmc_arm64_core_placement(const struct perf_event_attr *a, unsigned nfixed, const char *name,
			     struct pmc_arch_placement *ret, char *why, size_t len)
{
	(void)nfixed;
	(void)name;
	(void)why;
	(void)len;
	ret->fixed_index = pmc_arm64_cycle_counter_event(a) ? 1 : -1;
	ret->fixed_only = false; /* CPU_CYCLES fits an event counter too */
	return 0;
}

bool pmc_arm64_pfm_core(const char *name, const char *desc, int table_fixed, struct pmc_arch_core_id *ret)
{
	(void)desc;
	(void)table_fixed; /* arm_kunpeng lists its cycle counter as fixed: it is the cycle counter, planned as above */
	if (strncmp(name, "arm_", 4))
		return false;
	*ret = (struct pmc_arch_core_id){ .vendor = "Arm", .place = pmc_arm64_core_placement,
					  .missing = pmc_arm64_hw_event_missing };
	return true;
}

/* The PMUv3 driver's generic map (armv8_pmuv3_perf_map) has no reference cycles. */
int pmc_arm64_hw_event_missing(uint64_t id, bool ref_cycles, const char *pmu, char *why, size_t len)
{
	if (id != PERF_COUNT_HW_REF_CPU_CYCLES || ref_cycles)
		return 0;
	snprintf(why, len, "the arm64 core PMU%s%s has no reference-cycles event (the kernel's armv8 map has none and "
		 "answers ENOENT), so ref-cycles is not counted; CNTVCT_EL0 counts at a constant rate",
		 pmu ? " " : "", pmu ? pmu : "");
	return 1;
}
