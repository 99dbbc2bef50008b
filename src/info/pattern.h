/* SPDX-License-Identifier: MIT */
/* The PATTERN of pmctool list: case-insensitive substring, or a glob with * and ? over the whole text. */
#ifndef PMC_INFO_PATTERN_H
#define PMC_INFO_PATTERN_H

#include <stdbool.h>

/* True when the pattern holds * or ?, and is then matched as a glob. */
bool pmc_pattern_is_glob(const char *pattern);

/* Does text match? Glob: '*' any run, '?' one character, whole text; else substring. Case-insensitive (ASCII).
 * Time O(len(pattern) x len(text)) at worst: no exponential backtracking. */
bool pmc_pattern_match(const char *pattern, const char *text);

#endif
