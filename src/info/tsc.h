/* SPDX-License-Identifier: MIT */
/* The time-stamp counter's rate, from the best source this machine offers. */
#ifndef PMC_INFO_TSC_H
#define PMC_INFO_TSC_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The region timer's rate (pmc_arch_timer_hz: the TSC on x86-64, CNTVCT_EL0 on arm64). On x86-64:
 * TSC frequency in Hz and where it came from, best first: "cpuid-0x15" (crystal x ratio), "perf-mmap" (the kernel's
 * own calibration: the mmap page of a software event), "kernel-tsc-known-freq" (the kernel's rate as /proc/cpuinfo's
 * cpu MHz, see pmc_tsc_from_kernel_cpuinfo), "cpuinfo-model-name" (the "@ X.XXGHz" of /proc/cpuinfo), or
 * "calibration" (rdtsc against CLOCK_MONOTONIC_RAW over 100 ms). The result is cached: later calls are free.
 * 0, or -ENODEV when no source works (not x86, or the clocks fail). ret_source may be NULL.
 */
int pmc_tsc_hz(double *ret_hz, const char **ret_source);

/* The rate the kernel calibrated for the perf mmap page's time conversion (a software event's page):
 * 1e9 x 2^time_shift / time_mult. -ENODATA when the page has no cap_user_time, else -errno. */
int pmc_tsc_from_perf_page(double *ret_hz);

/* The kernel's TSC rate from a /proc/cpuinfo file: its "cpu MHz" (cpu_khz, to the kHz) when the flags say
 * tsc_known_freq (the kernel took the rate from CPUID or the hypervisor, not a calibration), and nothing reports a live
 * clock instead (no aperfmperf flag, has_cpufreq false: no cpufreq driver). -ENODATA otherwise, -errno when the file
 * cannot be read. */
int pmc_tsc_from_kernel_cpuinfo(const char *cpuinfo, bool has_cpufreq, double *ret_hz);

/* CPUID 0x15: ecx (crystal Hz) x ebx / eax. -ENODATA when a register is 0 (incomplete leaf). */
int pmc_tsc_from_cpuid15(uint32_t eax, uint32_t ebx, uint32_t ecx, double *ret_hz);

/* perf mmap page: 1e9 x 2^time_shift / time_mult. -EINVAL when mult is 0 or shift is out of range. */
int pmc_tsc_from_mult_shift(uint32_t time_mult, uint16_t time_shift, double *ret_hz);

/* The "@ 2.40GHz" (or MHz) of a /proc/cpuinfo model name. -ENODATA when there is none. */
int pmc_tsc_from_model_name(const char *model_name, double *ret_hz);

#endif
