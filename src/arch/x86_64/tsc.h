/* SPDX-License-Identifier: MIT */
/* The TSC's rate from the CPU's and the kernel's own words (x86_64 only; the rate itself is pmc_arch_timer_hz, whose
 * sources are, best first: "cpuid-0x15" (crystal x ratio), "perf-mmap" (the kernel's own calibration: the mmap page
 * of a software event, sys/perf_time.h), "kernel-tsc-known-freq" (the kernel's rate as /proc/cpuinfo's cpu MHz),
 * "cpuinfo-model-name" (the "@ X.XXGHz" of /proc/cpuinfo), or "calibration" (rdtsc against CLOCK_MONOTONIC_RAW over
 * 100 ms)). Pure parsers: built on every architecture so their unit tests run anywhere. */
#ifndef PMC_ARCH_X86_64_TSC_H
#define PMC_ARCH_X86_64_TSC_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel's TSC rate from a /proc/cpuinfo file: its "cpu MHz" (cpu_khz, to the kHz) when the flags say
 * tsc_known_freq (the kernel took the rate from CPUID or the hypervisor, not a calibration), and nothing reports a live
 * clock instead (no aperfmperf flag, has_cpufreq false: no cpufreq driver). -ENODATA otherwise, -errno when the file
 * cannot be read. */
int pmc_tsc_from_kernel_cpuinfo(const char *cpuinfo, bool has_cpufreq, double *ret_hz);

/* CPUID 0x15: ecx (crystal Hz) x ebx / eax. -ENODATA when a register is 0 (incomplete leaf). */
int pmc_tsc_from_cpuid15(uint32_t eax, uint32_t ebx, uint32_t ecx, double *ret_hz);

/* The "@ 2.40GHz" (or MHz) of a /proc/cpuinfo model name. -ENODATA when there is none. */
int pmc_tsc_from_model_name(const char *model_name, double *ret_hz);

#endif
