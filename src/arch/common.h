/* SPDX-License-Identifier: MIT */
/* Internal to src/arch: helpers the architectures' hooks share. */
#ifndef PMC_ARCH_COMMON_H
#define PMC_ARCH_COMMON_H

#include <stddef.h>

/* The value of the first "KEY<blanks>: value" line of path (NULL: /proc/cpuinfo). 0, -ENOENT, or -errno. */
int pmc_arch_cpuinfo_field(const char *path, const char *key, char *buf, size_t len);

/* $sysfs/bus/event_source/devices/NAME into buf; 0 when it has a readable type file, else -errno. */
int pmc_arch_pmu_dir(const char *name, char *buf, size_t len);

#endif
