/* SPDX-License-Identifier: MIT */
/* The region library's events: the specs it understands (pmctool's encoded attrs, generic perf names, raw codes,
 * breakpoints) and its own small perf_event_open. libc only. */
#include "regions/lib/rg_internal.h"

#include "arch/arch.h"
#include "sys/perf_fallback.h"
#include "sys/perf_generic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/hw_breakpoint.h>

static int parse_hex(const char *s, const char **end, uint64_t *ret)
{
	char *e;

	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	*ret = strtoull(s, &e, 16);
	if (errno || e == s)
		return -EINVAL;
	*end = e;
	return 0;
}

/* "@TYPE:CONFIG:CONFIG1:CONFIG2:BPTYPE:EXCL" (channel.h). */
static int parse_encoded(const char *s, struct perf_event_attr *a)
{
	uint64_t f[6];
	const char *p = s;

	for (int i = 0; i < 6; i++) {
		if (parse_hex(p, &p, &f[i]) || *p != (i == 5 ? '\0' : ':'))
			return -EINVAL;
		if (i < 5)
			p++;
	}
	if (f[0] > UINT32_MAX || f[4] > UINT32_MAX || f[5] > 7)
		return -EINVAL;
	a->type = (uint32_t)f[0];
	a->config = f[1];
	a->config1 = f[2];
	a->config2 = f[3];
	a->bp_type = (uint32_t)f[4];
	a->exclude_user = f[5] & 1;
	a->exclude_kernel = (f[5] >> 1) & 1;
	a->exclude_hv = (f[5] >> 2) & 1;
	return 0;
}

/* "mem:ADDR[/LEN][:r|w|rw|x]": a hardware breakpoint (perf's syntax). */
static int parse_mem(const char *s, struct perf_event_attr *a)
{
	uint64_t addr, len = 0;
	const char *p;

	if (parse_hex(s, &p, &addr))
		return -EINVAL;
	if (*p == '/') {
		char *e;
		len = strtoull(p + 1, &e, 10);
		if (e == p + 1 || !len)
			return -EINVAL;
		p = e;
	}
	a->type = PERF_TYPE_BREAKPOINT;
	a->bp_type = HW_BREAKPOINT_X;
	if (*p == ':') {
		p++;
		if (!strcmp(p, "x"))
			a->bp_type = HW_BREAKPOINT_X;
		else if (!strcmp(p, "r"))
			a->bp_type = HW_BREAKPOINT_R;
		else if (!strcmp(p, "w"))
			a->bp_type = HW_BREAKPOINT_W;
		else if (!strcmp(p, "rw") || !strcmp(p, "wr"))
			a->bp_type = HW_BREAKPOINT_RW;
		else
			return -EINVAL;
	} else if (*p) {
		return -EINVAL;
	}
	a->bp_addr = addr;
	/* An execution breakpoint covers one instruction: sizeof(long), as perf. */
	a->bp_len = a->bp_type == HW_BREAKPOINT_X ? sizeof(long) : (len ? len : HW_BREAKPOINT_LEN_4);
	return 0;
}

/* One spec of a person or of pmctool into a. */
static int parse_one(const char *spec, struct perf_event_attr *a)
{
	char name[PMC_RG_NAME_MAX + 1];
	const char *colon;
	uint64_t v;
	const char *end;

	memset(a, 0, sizeof(*a));
	if (spec[0] == '@')
		return parse_encoded(spec + 1, a);
	if (!strncmp(spec, "mem:", 4))
		return parse_mem(spec + 4, a);
	colon = strchr(spec, ':');
	if (strlen(spec) > PMC_RG_NAME_MAX)
		return -EINVAL;
	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - spec) : (int)strlen(spec), spec);
	if (colon) {
		/* :u user mode only, :k kernel mode only (perf's modifiers). */
		if (!strcmp(colon, ":u"))
			a->exclude_kernel = a->exclude_hv = 1;
		else if (!strcmp(colon, ":k"))
			a->exclude_user = 1;
		else
			return -EINVAL;
	}
	if (name[0] == 'r' && name[1] && !parse_hex(name + 1, &end, &v) && !*end) {
		a->type = PERF_TYPE_RAW;
		a->config = v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(pmc_perf_generic_events) / sizeof(pmc_perf_generic_events[0]); i++) {
		if (!strcasecmp(name, pmc_perf_generic_events[i].name)) {
			a->type = pmc_perf_generic_events[i].type;
			a->config = pmc_perf_generic_events[i].config;
			return 0;
		}
	}
	return -ENOENT;
}

int pmc_rg_parse_events(const char *list, char *why, size_t whylen)
{
	const char *p = list;
	int n = 0;

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char spec[PMC_RG_NAME_MAX + 1];
		int r;

		if (len == 0 || len > PMC_RG_NAME_MAX) {
			snprintf(why, whylen, "%s: an empty event or one over %d bytes", PMC_RG_ENV_EVENTS,
				 PMC_RG_NAME_MAX);
			return -EINVAL;
		}
		if (n == RG_EV) {
			snprintf(why, whylen, "%s: more than %d events", PMC_RG_ENV_EVENTS, RG_EV);
			return -EINVAL;
		}
		memcpy(spec, p, len);
		spec[len] = '\0';
		r = parse_one(spec, &pmc_rg.attr[n]);
		if (r) {
			snprintf(why, whylen, "%s: '%s' is not an event this library knows (generic perf names such as "
				 "instructions or page-faults, rHEX raw codes, mem:ADDR[:x] breakpoints; pmctool stat "
				 "--regions for every other name)", PMC_RG_ENV_EVENTS, spec);
			return -EINVAL;
		}
		memcpy(pmc_rg.evname[n], spec, len + 1);
		n++;
		p += len + (comma ? 1 : 0);
		if (comma && !*p) {
			snprintf(why, whylen, "%s: the list ends with a comma", PMC_RG_ENV_EVENTS);
			return -EINVAL;
		}
	}
	pmc_rg.nev = n;
	return 0;
}

static int open_attr(struct perf_event_attr *a)
{
	long fd = syscall(SYS_perf_event_open, a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/* The same fallback as pmctool's counting open (sys/perf_fallback.h): refused with EACCES/EPERM, an event that counts
 * kernel mode is retried user mode only; one that counts kernel mode only, or the scheduler's (context-switches,
 * cpu-migrations), is never retried: user-only it would count nothing. */
int pmc_rg_open(int i, bool *ret_user_only)
{
	struct perf_event_attr a = pmc_rg.attr[i];
	int fd;

	*ret_user_only = false;
	a.size = sizeof(a);
	a.read_format = 0;
	a.inherit = 0;
	a.disabled = 0;
	pmc_arch_user_read_generic_attr(&a);
	fd = open_attr(&a);
	if (pmc_perf_fallback(&a, fd, true) == PMC_FALLBACK_USER_ONLY) {
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = open_attr(&a);
		*ret_user_only = fd >= 0;
	}
	return fd;
}
