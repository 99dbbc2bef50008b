/* SPDX-License-Identifier: MIT */
/* The test-bench (libpfc) spelling of seed 001: [*]event.umask[>=N|<N][:flags] -> libpfm4's EVENT:UMASK[:c=N...]. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"

/* Intel JSON names libpfm4 spells differently and no general rule below finds. */
static const struct {
	const char *event, *umask, *libpfm_umask;
} umask_aliases[] = {
	{ "CPU_CLK_UNHALTED", "CORE_CLK", "THREAD_P" }, /* 0x3c umask 0: unhalted core cycles on a GP counter */
};

/* Same '_'-separated words in another order (Intel's MITE_ALL_UOPS is libpfm4's ALL_MITE_UOPS). */
static bool same_words(const char *a, const char *b)
{
	char wa[8][64], wb[8][64];
	int na = 0, nb = 0;
	bool used[8] = { false };

	for (int pass = 0; pass < 2; pass++) {
		const char *s = pass ? b : a;
		char (*w)[64] = pass ? wb : wa;
		int *n = pass ? &nb : &na;

		while (*s) {
			size_t l = strcspn(s, "_");

			if (*n == 8 || l >= 64)
				return false;
			memcpy(w[*n], s, l);
			w[(*n)++][l] = '\0';
			s += l;
			if (*s)
				s++;
		}
	}
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++) {
		int j;

		for (j = 0; j < nb; j++)
			if (!used[j] && !strcasecmp(wa[i], wb[j]))
				break;
		if (j == nb)
			return false;
		used[j] = true;
	}
	return true;
}

/* Map a test-bench umask name to libpfm4's for event idx. Writes the name to out. 0 or -ENOENT. */
static int find_umask(int idx, const char *event, const char *umask, char *out, size_t len)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };
	const char *prefix_hit = NULL;
	int nprefix = 0;

	for (size_t i = 0; i < PMC_ARRAY_SIZE(umask_aliases); i++)
		if (!strcasecmp(event, umask_aliases[i].event) && !strcasecmp(umask, umask_aliases[i].umask))
			umask = umask_aliases[i].libpfm_umask;
	if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return -ENOENT;
	for (int pass = 0; pass < 3; pass++) {
		for (int a = 0; a < ei.nattrs; a++) {
			pfm_event_attr_info_t ai = { .size = sizeof(ai) };

			if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
			    ai.type != PFM_ATTR_UMASK)
				continue;
			if ((pass == 0 && !strcasecmp(ai.name, umask)) || (pass == 1 && same_words(ai.name, umask))) {
				snprintf(out, len, "%s", ai.name);
				return 0;
			}
			/* EMPTY -> EMPTY_CYCLES: a unique prefix among plain umasks (presets hard-wire c/i/e) */
			if (pass == 2 && !ai.equiv && !strncasecmp(ai.name, umask, strlen(umask))) {
				prefix_hit = ai.name;
				nprefix++;
			}
		}
	}
	if (nprefix != 1)
		return -ENOENT;
	snprintf(out, len, "%s", prefix_hit);
	return 0;
}

static bool is_word(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

int pmc_testbench_to_libpfm(const char *spec, char *out, size_t len)
{
	const char *p = spec, *dot, *end;
	char event[128], umask[128], lumask[128], cbuf[16] = "", full[260];
	bool edge = false, inv = false, any = false, u = false, k = false;
	uint64_t cmask = 0;
	bool has_cmask = false;
	int idx, n;

	const char *pfx = "";
	int pfxlen = 0;

	if (*p == '*') {
		edge = true;
		p++;
	}
	/* an optional libpfm4 PMU prefix (hsw::uops_issued.any), as pmctool encode --pmu writes it */
	if (strstr(p, "::") && strstr(p, "::") < p + strcspn(p, ".")) {
		pfx = p;
		pfxlen = (int)(strstr(p, "::") - p) + 2;
		p += pfxlen;
	}
	end = p + strcspn(p, "<>:");
	dot = memchr(p, '.', (size_t)(end - p));
	if (!dot)
		return *spec == '*' || strpbrk(spec, "<>") ? -EINVAL : -ENOENT;
	if (!is_word(p, (size_t)(dot - p)) || !is_word(dot + 1, (size_t)(end - dot - 1)) ||
	    (size_t)(dot - p) >= sizeof(event) || (size_t)(end - dot - 1) >= sizeof(umask))
		return -EINVAL;
	snprintf(event, sizeof(event), "%.*s", (int)(dot - p), p);
	snprintf(umask, sizeof(umask), "%.*s", (int)(end - dot - 1), dot + 1);
	p = end;
	if (*p == '<' || *p == '>') {
		char num[8];
		size_t l;

		inv = *p == '<';
		p += inv ? 1 : (p[1] == '=' ? 2 : 0);
		l = strcspn(p, ":");
		if (l == 0 || l >= sizeof(num))
			return -EINVAL;
		memcpy(num, p, l);
		num[l] = '\0';
		for (size_t i = 0; i < l; i++)
			if (!isdigit((unsigned char)num[i]))
				return -EINVAL;
		if (pmc_parse_u64(num, 0, 255, &cmask))
			return -EINVAL;
		has_cmask = true;
		p += l;
	}
	if (*p == ':') {
		if (!p[1])
			return -EINVAL;
		for (p++; *p; p++) {
			switch (tolower((unsigned char)*p)) {
			case 'a': any = true; break;
			case 'u': u = true; break;
			case 'k': k = true; break;
			default: return -EINVAL;
			}
		}
	}
	if (*p)
		return -EINVAL;
	snprintf(full, sizeof(full), "%.*s%s", pfxlen, pfx, event);
	idx = pfm_find_event(full);
	if (idx < 0)
		return -ENOENT;
	if (!strncasecmp(umask, "0x", 2))
		snprintf(lumask, sizeof(lumask), "%s", umask);
	else if (find_umask(idx, event, umask, lumask, sizeof(lumask)))
		return -ENOENT;
	/* edge counts 0->1 transitions of (count >= cmask): with no cmask given, edge of "any activity" (c=1) */
	if (edge && !has_cmask) {
		cmask = 1;
		has_cmask = true;
	}
	if (has_cmask)
		snprintf(cbuf, sizeof(cbuf), ":c=%llu", (unsigned long long)cmask);
	n = snprintf(out, len, "%s:%s%s%s%s%s%s%s", full, lumask, cbuf, inv ? ":i=1" : "", edge ? ":e=1" : "",
		     any ? ":t=1" : "", u ? ":u" : "", k ? ":k" : "");
	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}

void pmc_event_pattern_parts(const char *pattern, char *event, char *umask, size_t len)
{
	char lib[PMC_NAME_MAX];
	const char *p = pattern, *start, *colon;

	event[0] = umask[0] = '\0';
	if (strpbrk(pattern, "*?"))
		return;
	if (!pmc_testbench_to_libpfm(pattern, lib, sizeof(lib)))
		p = lib;
	start = strstr(p, "::") ? strstr(p, "::") + 2 : p;
	colon = strchr(start, ':');
	if (!colon)
		return;
	snprintf(event, len, "%.*s", (int)(colon - p), p);
	snprintf(umask, len, "%.*s", (int)strcspn(colon + 1, ":"), colon + 1);
	if (strchr(umask, '='))
		umask[0] = '\0';
}
