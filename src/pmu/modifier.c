/* SPDX-License-Identifier: MIT */
/* perf's event modifier letters (tools/perf/util/parse-events.c, the modifier_event rule): u k h G H I p P S D W. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"

/* U and K: pmctool took them before it took perf's set, and perf gives them no other meaning. */
#define MOD_LETTERS "ukhUKGHIpPSDW"

bool pmc_mods_word(const char *s)
{
	return *s && strspn(s, MOD_LETTERS) == strlen(s);
}

int pmc_apply_mods(const char *mods, struct pmc_event *ev, char *why, size_t whylen)
{
	bool u = false, k = false, h = false, guest = false, host = false;
	unsigned p = 0;

	if (!*mods) {
		snprintf(why, whylen, "an empty modifier");
		return -EINVAL;
	}
	for (const char *c = mods; *c; c++) {
		switch (*c) {
		case 'u': case 'U': u = true; break;
		case 'k': case 'K': k = true; break;
		case 'h': h = true; break;
		case 'G': guest = true; break;
		case 'H': host = true; break;
		case 'I': ev->attr.exclude_idle = 1; break;
		case 'p': p++; break;
		case 'P': p = 3; break;
		case 'S': ev->flags |= PMC_EVF_SAMPLE_READ; break;
		case 'D': ev->flags |= PMC_EVF_PINNED; break;
		case 'W':
			snprintf(why, whylen, "W (weak) belongs to a group: write {EVENT,EVENT}:W");
			return -EINVAL;
		default:
			snprintf(why, whylen, "unknown modifier '%c' (perf's are u k h G H I p pp ppp P S D, and W after "
				 "a group's '}')", *c);
			return -EINVAL;
		}
	}
	if (p > 3) {
		snprintf(why, whylen, "precision is p, pp or ppp");
		return -EINVAL;
	}
	if (h && !u && !k) {
		snprintf(why, whylen, "h alone counts nothing here: pmctool ties the hypervisor level to the kernel "
			 "level (x86 has none of its own); write :k or :hk");
		return -EINVAL;
	}
	if (u || k) {
		ev->attr.exclude_user = !u;
		ev->attr.exclude_kernel = !k;
		ev->attr.exclude_hv = !k;
	}
	if (p)
		ev->flags |= PMC_EVF_PRECISE;
	if (guest != host)
		ev->flags |= guest ? PMC_EVF_GUEST_ONLY : PMC_EVF_HOST_ONLY;
	return 0;
}

int pmc_event_note(const struct pmc_event *ev, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	if (ev->flags & PMC_EVF_PRECISE && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%sprecise level (:p) only matters for sampling: counting "
					"ignores it", off ? "; " : "");
	if (ev->flags & PMC_EVF_SAMPLE_READ && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%s:S (read the group on each sample) only matters for "
					"sampling: ignored", off ? "; " : "");
	if (ev->flags & PMC_EVF_PINNED && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%s:D (pinned) is not passed on: pmctool's batches fit the "
					"counters, so nothing is multiplexed away (under --batch=multiplex nothing is "
					"pinned)", off ? "; " : "");
	if (ev->flags & (PMC_EVF_ABSENT | PMC_EVF_SUSPECT)) {
		char why[500], mods[600];

		snprintf(mods, sizeof(mods), "%s", len ? buf : "");
		if (!pmc_event_why_flagged(ev, why, sizeof(why)))
			snprintf(why, sizeof(why), "the core PMU does not have this event");
		if (len)
			snprintf(buf, len, "%s%s%s%s", ev->flags & PMC_EVF_ABSENT ? "not supported: " : "", why,
				 mods[0] ? "; " : "", mods);
		return 2;
	}
	return off ? 1 : 0;
}

int pmc_event_group_mods(const char *mods, struct pmc_event *ev, char *why, size_t whylen)
{
	char rest[16];
	size_t n = 0;

	for (const char *c = mods; *c && n + 1 < sizeof(rest); c++) {
		if (*c == 'W')
			ev->flags |= PMC_EVF_WEAK_GROUP;
		else
			rest[n++] = *c;
	}
	rest[n] = '\0';
	if (!n)
		return 0;
	if (pmc_apply_mods(rest, ev, why, whylen))
		return -EINVAL;
	/* the exclude bits follow the kernel level, as pmc_event_resolve leaves them */
	ev->attr.exclude_hv = ev->attr.exclude_kernel;
	if (ev->flags & PMC_EVF_GUEST_ONLY)
		ev->attr.exclude_host = 1;
	if (ev->flags & PMC_EVF_HOST_ONLY)
		ev->attr.exclude_guest = 1;
	return 0;
}
