/* SPDX-License-Identifier: MIT */
/* pmc_event_resolve: dispatch over the spellings, plus raw rHEX, breakpoints, modifiers and -e list splitting. */
#include <ctype.h>
#include <linux/hw_breakpoint.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"

int pmc_resolve_fail(struct pmc_resolve_error *err, int code, int neg_errno, const char *fmt, ...)
{
	va_list ap;

	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return neg_errno;
}

void pmc_event_init(struct pmc_event *ev, const char *spec)
{
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", spec);
	ev->attr.size = sizeof(ev->attr);
	ev->fixed_index = -1;
}

int pmc_apply_plm_mods(const char *mods, struct perf_event_attr *a)
{
	bool u = false, k = false;

	if (!*mods)
		return -EINVAL;
	for (const char *p = mods; *p; p++) {
		if (*p == 'u' || *p == 'U')
			u = true;
		else if (*p == 'k' || *p == 'K')
			k = true;
		else
			return -EINVAL;
	}
	a->exclude_user = !u;
	a->exclude_kernel = !k;
	a->exclude_hv = !k;
	return 0;
}

/* Splits "base:mods" when the last ':' is followed only by u/k letters; mods is then NULL-free. */
static void split_plm(const char *spec, char *base, size_t len, const char **mods)
{
	const char *colon = strrchr(spec, ':');

	snprintf(base, len, "%s", spec);
	*mods = NULL;
	if (!colon || colon == spec || !colon[1] || colon[-1] == ':')
		return;
	for (const char *p = colon + 1; *p; p++)
		if (!strchr("ukUK", *p))
			return;
	base[colon - spec] = '\0';
	*mods = colon + 1;
}

static bool is_hex_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

static int resolve_raw(const char *spec, const char *base, struct pmc_event *ev, struct pmc_resolve_error *err)
{
	uint64_t v;
	char num[PMC_NAME_MAX + 2];

	snprintf(num, sizeof(num), "0x%s", base + 1);
	if (strlen(base + 1) > 16 || pmc_parse_u64(num, 0, UINT64_MAX, &v))
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"'%s': a raw event is r and up to 16 hex digits", spec);
	ev->attr.type = PERF_TYPE_RAW;
	ev->attr.config = v;
	pmc_event_raw_plm(&ev->attr);
	pmc_event_classify_core(ev);
	snprintf(ev->canonical, sizeof(ev->canonical), "r%llx", (unsigned long long)v);
	return 0;
}

/* mem:ADDR[:ACCESS][/LEN] (perf also writes mem:ADDR[/LEN][:ACCESS]), ACCESS r, w, rw or x in any case, followed by
 * perf's modifiers in the same word (mem:0x401136:xu) or after another ':'. The modifiers go to mods. */
static int parse_breakpoint(const char *spec, uint64_t *addr, uint64_t *len, unsigned *type, char *mods, size_t mlen)
{
	char buf[PMC_NAME_MAX];
	char *p, *acc = NULL, *l = NULL, *m = NULL;

	snprintf(buf, sizeof(buf), "%s", spec + 4);
	*type = 0;
	*len = 0;
	mods[0] = '\0';
	p = buf + strcspn(buf, ":/");
	while (*p) {
		char sep = *p;
		char *seg = p + 1;

		*p = '\0';
		p = seg + strcspn(seg, ":/");
		if (sep == '/' && !l)
			l = seg;
		else if (sep == ':' && !acc)
			acc = seg;
		else if (sep == ':' && !m)
			m = seg;
		else
			return -EINVAL;
	}
	if (pmc_parse_u64(buf, 0, UINT64_MAX, addr))
		return -EINVAL;
	for (; acc && *acc && strchr("rwxRWX", *acc); acc++) {
		unsigned bit = tolower((unsigned char)*acc) == 'r' ? HW_BREAKPOINT_R
			     : tolower((unsigned char)*acc) == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;

		if (*type & bit)
			return -EINVAL;
		*type |= bit;
	}
	if (acc && !*type && !*acc)
		return -EINVAL; /* mem:ADDR: */
	if ((acc && *acc && m) || (m && !*m))
		return -EINVAL;
	if (acc && *acc)
		m = acc;
	if (m && (!pmc_mods_word(m) || strlen(m) >= mlen))
		return -EINVAL;
	if (m)
		snprintf(mods, mlen, "%s", m);
	if (l && (pmc_parse_u64(l, 1, 8, len) || (*len & (*len - 1))))
		return -ERANGE;
	return 0;
}

static int resolve_breakpoint(const char *spec, struct pmc_event *ev, struct pmc_resolve_error *err)
{
	char mods[16], why[200];
	uint64_t a, l;
	unsigned type;
	int rc = parse_breakpoint(spec, &a, &l, &type, mods, sizeof(mods));

	if (rc == -ERANGE)
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"'%s': breakpoint length must be 1, 2, 4 or 8", spec);
	if (rc)
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"'%s': a breakpoint is written mem:ADDRESS[:r|w|rw|x][/LEN], perf's modifiers "
					"after the access letters (mem:0x401136:xu)", spec);
	if (!type)
		type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if ((type & HW_BREAKPOINT_X) && type != HW_BREAKPOINT_X)
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"'%s': an execute breakpoint (x) cannot also watch reads or writes", spec);
	if (!l)
		l = type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	if (type == HW_BREAKPOINT_X && l != sizeof(long))
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"'%s': an execute breakpoint has length %zu on this machine", spec,
					sizeof(long));
	ev->attr.type = PERF_TYPE_BREAKPOINT;
	ev->attr.bp_type = type;
	ev->attr.bp_addr = a;
	ev->attr.bp_len = l;
	ev->cls = PMC_CLASS_BREAKPOINT;
	if (mods[0] && pmc_apply_mods(mods, ev, why, sizeof(why)))
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL, "'%s': %s", spec, why);
	snprintf(ev->canonical, sizeof(ev->canonical), "mem:%#llx:%s%s%s/%llu", (unsigned long long)a,
		 type & HW_BREAKPOINT_R ? "r" : "", type & HW_BREAKPOINT_W ? "w" : "",
		 type & HW_BREAKPOINT_X ? "x" : "",
		 (unsigned long long)l);
	return 0;
}

/* libpfm4 result -> event: class from the PMU the event belongs to. */
static int finish_libpfm(struct pmc_event *ev, const struct perf_event_attr *a, const char *fstr)
{
	ev->attr = *a;
	snprintf(ev->canonical, sizeof(ev->canonical), "%s", fstr);
	ev->fixed_index = -1;
	if (a->type == PERF_TYPE_SOFTWARE) {
		ev->cls = PMC_CLASS_FREE;
		if (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK)
			ev->flags |= PMC_EVF_TIME_NS;
	} else if (a->type == PERF_TYPE_HARDWARE) {
		/* perf::PERF_COUNT_HW_*: same classes as the generic names */
		const char *g = pmc_generic_name(a->type, a->config);
		struct pmc_event tmp;

		pmc_event_init(&tmp, "");
		if (g && !pmc_generic_lookup(g, &tmp)) {
			ev->cls = tmp.cls;
			ev->fixed_index = tmp.fixed_index;
			ev->flags |= tmp.flags & PMC_EVF_ABSENT;
		}
		ev->flags |= PMC_EVF_HARDWARE;
	} else if (a->type == PERF_TYPE_RAW) {
		pmc_event_classify_core(ev);
	} else if (a->type == PERF_TYPE_HW_CACHE) {
		ev->flags |= PMC_EVF_HARDWARE;
		ev->cls = PMC_CLASS_GP;
	} else {
		ev->cls = PMC_CLASS_FREE;
	}
	return 0;
}

static int try_libpfm(const char *str, struct pmc_event *ev, int *pfm_rc)
{
	struct perf_event_attr a;
	char fstr[PMC_NAME_MAX];

	*pfm_rc = pmc_libpfm_encode(str, &a, fstr, sizeof(fstr));
	if (*pfm_rc != PFM_SUCCESS)
		return -ENOENT;
	return finish_libpfm(ev, &a, fstr);
}

static int resolve_unknown(const char *spec, int pfm_rc, struct pmc_resolve_error *err)
{
	if (pfm_rc == PFM_ERR_ATTR && (strcasestr(spec, ":e=1") || strcasestr(spec, ":e:") ||
				       !strcasecmp(spec + strlen(spec) - 2, ":e")) && !strcasestr(spec, ":c="))
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"event '%s': edge detect (e=1) needs a counter mask: add :c=1 to count the "
					"cycles where the event starts (c=N: where at least N occur)", spec);
	if (pfm_rc == PFM_ERR_ATTR) {
		/* the event exists, a umask or modifier does not: suggest EVENT:UMASK spellings */
		pmc_resolve_fail(err, PMC_RESOLVE_UNKNOWN, -ENOENT,
				 "event '%s': unknown umask or modifier; run 'pmctool list PATTERN' to see them", spec);
		pmc_suggest(spec, err);
		return -ENOENT;
	}
	if (pfm_rc != PFM_SUCCESS && pfm_rc != PFM_ERR_NOTFOUND && pfm_rc != PFM_ERR_NOTSUPP)
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"event '%s': %s (libpfm4); run 'pmctool list PATTERN' to see its umasks and "
					"modifiers", spec, pmc_libpfm_strerror(pfm_rc));
	pmc_resolve_fail(err, PMC_RESOLVE_UNKNOWN, -ENOENT,
			 "unknown event '%s': run 'pmctool list PATTERN' to search the event names", spec);
	pmc_suggest(spec, err);
	return -ENOENT;
}

/* Appends the suggestions to the one-line message, so a caller printing msg alone shows them. */
static void append_suggestions(struct pmc_resolve_error *err)
{
	size_t n = strlen(err->msg);

	for (int i = 0; i < err->nsuggest && n < sizeof(err->msg); i++)
		n += (size_t)snprintf(err->msg + n, sizeof(err->msg) - n, "%s'%s'", i ? ", " : "; did you mean ",
				      err->suggest[i]);
	if (err->nsuggest && n < sizeof(err->msg))
		snprintf(err->msg + n, sizeof(err->msg) - n, "?");
}

/* libpfm4's perf:: table (perf::cycles, perf::PERF_COUNT_HW_CPU_CYCLES) is not loaded under LIBPFM_FORCE_PMU: its
 * names are perf's generic and cache names, which resolve without it. */
static int perf_table_name(const char *name, struct pmc_event *ev)
{
	char buf[PMC_NAME_MAX];
	size_t n = 0;

	if (!pmc_generic_lookup(name, ev) || !pmc_cache_lookup(name, ev))
		return 0;
	if (strncasecmp(name, "PERF_COUNT_HW_", 14) && strncasecmp(name, "PERF_COUNT_SW_", 14))
		return -ENOENT;
	for (const char *p = name + 14; *p && n + 1 < sizeof(buf); p++)
		buf[n++] = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
	buf[n] = '\0';
	if (!strcmp(buf, "ref-cpu-cycles"))
		snprintf(buf, sizeof(buf), "ref-cycles");
	else if (!strcmp(buf, "page-faults-min") || !strcmp(buf, "page-faults-maj"))
		snprintf(buf, sizeof(buf), "%s-faults", buf[13] == 'i' ? "minor" : "major");
	return pmc_generic_lookup(buf, ev);
}

static int resolve_trimmed(const char *spec, struct pmc_event *ev, struct pmc_resolve_error *err)
{
	char base[PMC_NAME_MAX], tb[PMC_NAME_MAX];
	const char *mods;
	int pfm_rc = PFM_ERR_NOTFOUND, rc;

	if (!strncasecmp(spec, "mem:", 4))
		return resolve_breakpoint(spec, ev, err);
	if (pmc_tracepoint_shaped(spec) && !pmc_tracepoint_lookup(spec, ev, err, true))
		return 0;
	if (strchr(spec, '/'))
		return pmc_sysfs_resolve(spec, ev, err);
	split_plm(spec, base, sizeof(base), &mods);
	if (!mods && strchr(spec, ':')) {
		/* cycles:x: a generic or raw name with modifiers other than u/k */
		size_t n = (size_t)(strrchr(spec, ':') - spec);
		struct pmc_event tmp;

		snprintf(base, sizeof(base), "%.*s", (int)n, spec);
		if (!pmc_generic_lookup(base, &tmp) || !pmc_cache_lookup(base, &tmp) ||
		    ((base[0] == 'r' || base[0] == 'R') && is_hex_word(base + 1)))
			return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
						"'%s': unknown modifier '%s' (perf's are u k h G H I p pp ppp P S D)",
						spec, strrchr(spec, ':') + 1);
		snprintf(base, sizeof(base), "%s", spec);
	}
	if ((base[0] == 'r' || base[0] == 'R') && is_hex_word(base + 1))
		rc = resolve_raw(spec, base, ev, err);
	else
		rc = pmc_generic_lookup(base, ev) && pmc_cache_lookup(base, ev) ? 1 : 0;
	if (rc <= 0) {
		if (!rc && mods && pmc_apply_plm_mods(mods, &ev->attr))
			return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL, "'%s': bad modifier", spec);
		return rc;
	}
	if (!pmc_pmu_table_event(base, ev)) {
		if (mods && pmc_apply_plm_mods(mods, &ev->attr))
			return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL, "'%s': bad modifier", spec);
		return 0;
	}
	if (!try_libpfm(spec, ev, &pfm_rc))
		return 0;
	if (!strncasecmp(spec, "perf::", 6) && !perf_table_name(spec + 6, ev))
		return 0;
	rc = pmc_testbench_to_libpfm(spec, tb, sizeof(tb));
	if (!rc && !try_libpfm(tb, ev, &pfm_rc))
		return 0;
	int prc = pmc_perfname_resolve(spec, ev, err);

	if (prc != -ENOENT || err->msg[0])
		return prc;
	if (rc == -EINVAL) {
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
					"'%s': test-bench events are written [*]event.umask[>=N|<N][:auk]", spec);
	}
	if (pmc_tracepoint_shaped(spec) && pmc_tracefs_root()) {
		char dir[PMC_NAME_MAX + 600];

		/* a tracepoint system that exists: its event is misspelt; or tracefs is closed to this user: say so */
		snprintf(dir, sizeof(dir), "%s/events/%.*s", pmc_tracefs_root(), (int)strcspn(spec, ":"), spec);
		if (!access(dir, F_OK) || pmc_tracefs_unreadable())
			return pmc_tracepoint_lookup(spec, ev, err, false);
	}
	snprintf(tb, sizeof(tb), "%.*s", (int)strcspn(spec, ":"), spec); /* the event word, for the hint below */
	rc = resolve_unknown(spec, pfm_rc, err);
	if (pmc_tracepoint_shaped(spec) && pmc_tracefs_root() && !err->nsuggest) {
		struct pmc_resolve_error tp;

		/* a misspelt tracepoint system: the nearest SYSTEM:EVENT */
		memset(&tp, 0, sizeof(tp));
		pmc_tracepoint_lookup(spec, ev, &tp, false);
		memcpy(err->suggest, tp.suggest, sizeof(err->suggest));
		err->nsuggest = tp.nsuggest;
	}
	if (pmc_tracepoint_shaped(spec) && !pmc_tracefs_root() &&
	    (!pmc_pmu_libpfm_ready() || pfm_find_event(tb) < 0)) {
		size_t n = strlen(err->msg);

		snprintf(err->msg + n, sizeof(err->msg) - n, "; if it is a tracepoint: tracefs is not mounted (as root: "
			 "mount -t tracefs nodev /sys/kernel/tracing)");
	}
	return rc;
}

int pmc_event_libpfm_only(const char *name, struct pmc_event *ret)
{
	struct pmc_resolve_error err;
	struct pmc_event ev;
	int pfm_rc;

	memset(&err, 0, sizeof(err));
	pmc_event_init(&ev, name);
	if (try_libpfm(name, &ev, &pfm_rc) && pmc_perfname_resolve(name, &ev, &err))
		return -ENOENT;
	*ret = ev;
	return 0;
}

/* perf's modifiers after the last ':' (cycles:pp, UOPS_ISSUED:ANY:uk, uops_issued.any:D): the name resolved
 * without them, then the letters applied. Tried only when the whole spelling failed, so a libpfm4 umask or modifier
 * that happens to be made of such letters keeps its meaning. */
static int resolve_with_mods(const char *spec, struct pmc_event *ev, struct pmc_resolve_error *err)
{
	const char *colon = strrchr(spec, ':');
	char base[PMC_NAME_MAX], why[200];
	struct pmc_resolve_error e2;
	struct pmc_event tmp = *ev;

	if (!colon || colon == spec || colon[-1] == ':' || !pmc_mods_word(colon + 1) || !strncasecmp(spec, "mem:", 4))
		return -ENOENT;
	snprintf(base, sizeof(base), "%.*s", (int)(colon - spec), spec);
	memset(&e2, 0, sizeof(e2));
	if (resolve_trimmed(base, &tmp, &e2))
		return -ENOENT;
	if (pmc_apply_mods(colon + 1, &tmp, why, sizeof(why)))
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL, "'%s': %s", spec, why);
	memset(err, 0, sizeof(*err));
	*ev = tmp;
	return 0;
}

int pmc_event_resolve(const char *spec, struct pmc_event *ret, struct pmc_resolve_error *err)
{
	struct pmc_resolve_error local;
	struct pmc_event ev;
	char buf[PMC_NAME_MAX];
	size_t len;
	int rc;

	if (!err)
		err = &local;
	memset(err, 0, sizeof(*err));
	if (!spec)
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL, "no event given");
	while (isspace((unsigned char)*spec))
		spec++;
	len = strnlen(spec, PMC_MAX_SPEC_LEN + 1);
	while (len && isspace((unsigned char)spec[len - 1]))
		len--;
	if (len >= sizeof(buf))
		return pmc_resolve_fail(err, PMC_RESOLVE_TOOLONG, -E2BIG,
					"event name '%.40s...' is longer than %d characters", spec, PMC_NAME_MAX - 1);
	memcpy(buf, spec, len);
	buf[len] = '\0';
	if (!len)
		return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL, "empty event name");
	for (size_t i = 0; i < len; i++) {
		if ((unsigned char)buf[i] >= 0x80)
			return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
						"event '%s': character %zu is not ASCII; event names are ASCII letters, "
						"digits and punctuation (a pasted name may hold a typographic dash or "
						"quote)", buf, i + 1);
		if (!isgraph((unsigned char)buf[i]))
			return pmc_resolve_fail(err, PMC_RESOLVE_SYNTAX, -EINVAL,
						"event '%s': names contain no spaces or control characters", buf);
	}
	/* No pmc_pmu_init here: libpfm4's start-up runs CPUID per PMU it knows (milliseconds in a VM, where each
	 * CPUID exits to the hypervisor), so it starts only for a spelling that needs it (pmc_libpfm_encode and the
	 * PMU queries start it). */
	pmc_event_init(&ev, buf);
	rc = resolve_trimmed(buf, &ev, err);
	if (rc && rc != -EACCES && rc != -ENODEV) {
		int r2 = resolve_with_mods(buf, &ev, err);

		if (r2 != -ENOENT)
			rc = r2;
	}
	if (rc) {
		append_suggestions(err);
		return rc;
	}
	pmc_event_normalize_excl(&ev.attr);
	if (ev.flags & PMC_EVF_GUEST_ONLY)
		ev.attr.exclude_host = 1;
	if (ev.flags & PMC_EVF_HOST_ONLY)
		ev.attr.exclude_guest = 1;
	ev.attr.size = sizeof(ev.attr);
	*ret = ev;
	return 0;
}
