/* SPDX-License-Identifier: MIT */
#ifndef PMC_OUTPUT_INFO_UNCORE_H
#define PMC_OUTPUT_INFO_UNCORE_H

#include <stdio.h>

/* The "Non-core PMUs" section of pmctool info (nothing when the kernel has none). */
void pmc_info_print_uncore(FILE *f);

#endif
