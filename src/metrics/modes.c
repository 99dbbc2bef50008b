/* SPDX-License-Identifier: MIT */
/* Which events a formula's names mean, so that a metric's events count the same privilege levels (issue 22): with
 * instructions:u, cycles:u and instructions measured, IPC = instructions / cycles is the user-mode pair, never
 * all-mode instructions over user-mode cycles. */
#include "metrics/modes.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

enum { M_EU = 1u << 0, M_EK = 1u << 1, M_EG = 1u << 2, M_EH = 1u << 3 };

/* The length of name without its trailing perf modifiers (":u", ":uk", "/u" after a PMU's terms, ":G"...). */
static size_t base_len(const char *name)
{
	size_t n = strlen(name), k = n;

	while (k > 0 && strchr("ukhGHI", name[k - 1]))
		k--;
	if (k < n && k > 0 && (name[k - 1] == ':' || (name[k - 1] == '/' && memchr(name, '/', k - 1))))
		return k - 1 + (name[k - 1] == '/'); /* "cpu/event=0x3c/u": keep the closing '/' */
	return n;
}

bool pmc_metric_name_has_modifiers(const char *name)
{
	return base_len(name) != strlen(name);
}

/* Whether a's base is the ln bytes of b: the cheap comparison first (it rejects nearly every pair). */
static bool base_is(const char *a, const char *b, size_t ln)
{
	return !strncasecmp(a, b, ln) && base_len(a) == ln;
}

bool pmc_metric_name_matches(const struct pmc_event *ev, const char *name)
{
	size_t ln;

	if (!strcasecmp(ev->name, name) || !strcasecmp(ev->canonical, name))
		return true;
	/* A name written with modifiers means that event exactly; a bare name means any spelling of the event. */
	ln = base_len(name);
	if (name[ln])
		return false;
	return base_is(ev->name, name, ln) || base_is(ev->canonical, name, ln);
}

/* Whether the event counts the same whatever its modifiers: the clocks (task time whatever the mode) and the TSC. */
static bool mode_neutral(const struct pmc_event *ev)
{
	return (ev->flags & PMC_EVF_TSC) || (ev->attr.type == PERF_TYPE_SOFTWARE &&
					     (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
					      ev->attr.config == PERF_COUNT_SW_CPU_CLOCK));
}

/* The privilege levels an event counted: its modifiers, and user mode only where the kernel's paranoid setting made
 * pmctool exclude the kernel. */
static unsigned event_mode(const struct pmc_report_event *e)
{
	const struct perf_event_attr *a = &e->ev.attr;
	unsigned m = (a->exclude_user ? M_EU : 0) | (a->exclude_kernel ? M_EK : 0) | (a->exclude_guest ? M_EG : 0) |
		     (a->exclude_host ? M_EH : 0);

	for (size_t s = 0; s < e->nsamples; s++)
		if (e->samples[s].count.flags & PMC_COUNT_USER_ONLY)
			return m | M_EK;
	return m;
}

static const char *mode_words(unsigned m)
{
	if ((m & (M_EU | M_EK)) == M_EK)
		return "user mode";
	if ((m & (M_EU | M_EK)) == M_EU)
		return "kernel mode";
	if ((m & (M_EU | M_EK)) == (M_EU | M_EK))
		return "neither user nor kernel mode";
	return (m & (M_EG | M_EH)) ? "user and kernel mode (guest or host only)" : "user and kernel mode";
}

const struct pmc_report_event *pmc_metric_find_event(const struct pmc_report *rep, const char *name,
						     const struct pmc_metric_modes *mm)
{
	bool pinned = pmc_metric_name_has_modifiers(name);

	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];

		if (!pmc_metric_name_matches(&e->ev, name))
			continue;
		if (pinned || !mm || !mm->chosen || mode_neutral(&e->ev) || event_mode(e) == mm->mode)
			return e;
	}
	return NULL;
}

/* A name the mode is chosen for: a bare event name (one with modifiers means that event, whatever its mode: the
 * formula says which it uses, as {instructions:k} / instructions does for the kernel's share). */
static bool bare(const char *name)
{
	return !pmc_metric_name_has_modifiers(name);
}

/* Whether every bare event name of the formula has a candidate counting in mode m. */
static bool feasible(const struct pmc_report *rep, const struct pmc_expr *e, unsigned m)
{
	for (size_t k = 0; k < pmc_expr_name_count(e); k++) {
		const char *n = pmc_expr_name(e, k);
		bool event = false, has = false;

		if (!bare(n))
			continue;
		for (size_t i = 0; i < rep->nevents && !has; i++) {
			const struct pmc_report_event *c = &rep->events[i];
			if (!pmc_metric_name_matches(&c->ev, n))
				continue;
			event = true;
			has = mode_neutral(&c->ev) || event_mode(c) == m;
		}
		if (event && !has)
			return false;
	}
	return true;
}

/* "instructions:u (user mode), cycles (user and kernel mode)": each event a bare name may mean, and its mode. */
static void describe_modes(const struct pmc_report *rep, const struct pmc_expr *e, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < pmc_expr_name_count(e) && used < len; k++) {
		const char *n = pmc_expr_name(e, k);

		for (size_t i = 0; i < rep->nevents && used < len && bare(n); i++) {
			const struct pmc_report_event *c = &rep->events[i];
			bool dup = false;

			if (!pmc_metric_name_matches(&c->ev, n) || mode_neutral(&c->ev))
				continue;
			for (size_t j = 0; j < i && !dup; j++)
				dup = !strcmp(rep->events[j].ev.name, c->ev.name);
			if (!dup)
				used += (size_t)snprintf(buf + used, len - used, "%s%s (%s)", used ? ", " : "",
							 c->ev.name, mode_words(event_mode(c)));
		}
	}
}

int pmc_metric_pick_modes(const struct pmc_report *rep, const struct pmc_expr *e, struct pmc_metric_modes *ret,
			  char *reason, size_t len)
{
	bool any = false;
	char what[200];

	memset(ret, 0, sizeof(*ret));
	/* Candidate modes: first those of the events named exactly as written (instructions: the all-mode event), then
	 * the others, each in the report's order (the order the events were given). The first mode every bare name can
	 * be read in wins; a name whose event was not counted then gives the metric's n/a with that event's reason. */
	for (int exact = 1; exact >= 0; exact--) {
		for (size_t k = 0; k < pmc_expr_name_count(e); k++) {
			const char *n = pmc_expr_name(e, k);

			for (size_t i = 0; i < rep->nevents && bare(n); i++) {
				const struct pmc_report_event *c = &rep->events[i];
				bool is_exact = !strcasecmp(c->ev.name, n);

				if (!pmc_metric_name_matches(&c->ev, n) || mode_neutral(&c->ev) || is_exact != (exact == 1))
					continue;
				any = true;
				if (feasible(rep, e, event_mode(c))) {
					ret->chosen = true;
					ret->mode = event_mode(c);
					return 0;
				}
			}
		}
	}
	if (!any) /* no bare event name, or mode-neutral ones only: nothing to choose */
		return 0;
	describe_modes(rep, e, what, sizeof(what));
	snprintf(reason, len, "its events count different privilege levels (%s): a metric's events must share "
		 "their modifiers; measure them with the same ones", what);
	return -1;
}

void pmc_metric_modes_note(const struct pmc_report *rep, const struct pmc_expr *e, const struct pmc_metric_modes *mm,
			   char *buf, size_t len)
{
	size_t used = 0;
	bool plain = true;

	buf[0] = '\0';
	if (!mm->chosen)
		return;
	for (size_t k = 0; k < pmc_expr_name_count(e) && used < len; k++) {
		const struct pmc_report_event *c = pmc_metric_find_event(rep, pmc_expr_name(e, k), mm);
		if (!c || mode_neutral(&c->ev))
			continue;
		plain &= !strcasecmp(c->ev.name, pmc_expr_name(e, k));
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", c->ev.name);
	}
	if (plain) /* every name means the event written so: nothing to say */
		buf[0] = '\0';
	else if (used < len)
		snprintf(buf + used, len - used, " (%s)", mode_words(mm->mode));
}
