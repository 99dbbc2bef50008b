/* SPDX-License-Identifier: MIT */
/* libpfm4 life cycle, the core PMU's identity, and encoding through libpfm4's perf_event OS layer. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/arch.h"
#include "sys/sysfs.h"
#include "util/fork.h"
#include "pmu/event.h"
#include "pmu/pmu_internal.h"

static struct {
	bool tried;     /* pfm_initialize() was called (it is not reentrant: once per process until fini) */
	bool ready;     /* and it succeeded */
	int rc;         /* what pfm_initialize() returned */
	int core;       /* pfm_pmu_t of the default core PMU, or -1 */
	struct pmc_arch_core_id pfm_id;  /* what the arch seam says that libpfm4 PMU is (its vendor, fixed counters) */
	int table_gp;     /* libpfm4's num_cntrs for the core PMU */
	bool id_known;    /* id is filled */
	struct pmc_arch_core_id id;      /* the core PMU whose encodings are in use: a forced one's, else this CPU's */
	char core_name[64];
} pmu_state = { .core = -1 };

static void find_core_pmu(void)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present || pi.type != PFM_PMU_TYPE_CORE)
			continue;
		/* The arch seam knows which libpfm4 tables are a CPU's core PMU, and whose. */
		if (!pmc_arch_pfm_core(pi.name, pi.desc, pi.num_fixed_cntrs, &pmu_state.pfm_id))
			continue;
		pmu_state.core = (int)p;
		snprintf(pmu_state.core_name, sizeof(pmu_state.core_name), "%s", pi.name);
		pmu_state.table_gp = pi.num_cntrs;
		return;
	}
}

int pmc_pmu_force_core(const char *pmu)
{
	char id[64];
	const char *from = NULL;

	const char *forced = getenv("LIBPFM_FORCE_PMU");

	if (!pmu || !*pmu || (forced && *forced) || setenv("LIBPFM_FORCE_PMU", pmu, 1))
		return 0;
	if (!pmc_arch_tables_cpuid(id, sizeof(id), &from) && from && !strcmp(from, "LIBPFM_FORCE_PMU"))
		return 1;
	unsetenv("LIBPFM_FORCE_PMU");
	return 0;
}

int pmc_pmu_init(char *err, size_t errlen)
{
	int rc;

	if (!pmu_state.tried) {
		pmu_state.tried = true;
		pmu_state.rc = pfm_initialize();
		if (pmu_state.rc == PFM_SUCCESS) {
			pmu_state.ready = true;
			find_core_pmu();
		}
	}
	rc = pmu_state.rc;
	/* No PMU activated: generic, sysfs, raw and breakpoint spellings still work, so this is not fatal. */
	if (rc == PFM_SUCCESS || rc == PFM_ERR_NOTSUPP)
		return 0;
	/* Started lazily by whatever needed it first: every later caller hears of the failure too. */
	if (err && errlen)
		snprintf(err, errlen, "libpfm4 initialization failed: %s", pfm_strerror(rc));
	return -EIO;
}

void pmc_pmu_fini(void)
{
	pmc_suggest_fini();
	if (pmu_state.ready)
		pfm_terminate();
	memset(&pmu_state, 0, sizeof(pmu_state));
	pmu_state.core = -1;
}

/* The core PMU whose encodings are in use. A forced PMU encodes for another CPU than this one: its table is the only
 * model there is (libpfm4 is started to learn it). Else this CPU's, from the arch seam alone (no libpfm4). */
static const struct pmc_arch_core_id *core_id(void)
{
	if (!pmu_state.id_known) {
		if (getenv("LIBPFM_FORCE_PMU")) {
			pmc_pmu_init(NULL, 0);
			pmu_state.id = pmu_state.pfm_id;
		} else {
			pmc_arch_cpu_core(&pmu_state.id);
		}
		pmu_state.id_known = true;
	}
	return &pmu_state.id;
}

int pmc_pmu_core_alias(const char *name, struct pmc_event *ev)
{
	const struct pmc_arch_core_id *c = core_id();
	uint64_t config;

	if (!c->alias || c->alias(name, c->nfixed, &config))
		return -ENOENT;
	ev->attr.type = PERF_TYPE_RAW;
	ev->attr.config = config;
	pmc_event_raw_plm(&ev->attr);
	pmc_event_classify_core(ev);
	snprintf(ev->canonical, sizeof(ev->canonical), "%s", name);
	return 0;
}

static int place(const struct perf_event_attr *a, unsigned nfixed, const char *name, struct pmc_arch_placement *ret,
		 char *why, size_t len)
{
	pmc_arch_place_fn *f = core_id()->place;

	return (f ? f : pmc_arch_core_placement)(a, nfixed, name, ret, why, len);
}

unsigned pmc_pmu_fixed_counters(void)
{
	return core_id()->nfixed;
}

bool pmc_pmu_has_intel_fixed(void)
{
	return pmc_pmu_fixed_counters() > 0;
}

bool pmc_pmu_cycle_counter(void)
{
	const struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_CPU_CYCLES };
	struct pmc_arch_placement pl = { 0 };

	/* A counter for cycles of its own, beside any fixed counters the PMU reports (arm64's PMCCNTR_EL0). */
	place(&a, 0, "", &pl, NULL, 0);
	return pl.fixed_index >= 0;
}

bool pmc_pmu_has_ref_cycles(void)
{
	char dir[512], path[600];

	if (getenv("LIBPFM_FORCE_PMU"))
		return core_id()->ref_cycles;
	/* The kernel lists the generic events its core PMU has: AMD's has no ref-cycles. */
	if (!pmc_arch_core_pmu_dir(dir, sizeof(dir))) {
		snprintf(path, sizeof(path), "%s/events/ref-cycles", dir);
		return access(path, F_OK) == 0;
	}
	/* No PMU to ask: what this CPU's PMU would have. */
	return core_id()->ref_cycles;
}

int pmc_pmu_hw_event_missing(uint64_t id, char *why, size_t len)
{
	char buf[8];
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	const struct pmc_arch_core_id *core = core_id(); /* first: it starts libpfm4 for a forced PMU */
	pmc_arch_missing_fn *f = core->missing ? core->missing : pmc_arch_hw_event_missing;

	if (!why || !len) {
		why = buf;
		len = sizeof(buf);
	}
	/* A forced PMU's vendor is the only model there is (core_id); else this CPU's. */
	return f(id, core->ref_cycles, !forced ? NULL : pmu_state.core >= 0 ? pmu_state.core_name : forced, why, len);
}

const char *pmc_pmu_core_name(void)
{
	pmc_pmu_init(NULL, 0);
	return pmu_state.core >= 0 ? pmu_state.core_name : NULL;
}

const char *pmc_pmu_core_model(void)
{
	return pmc_pmu_core_name() ? pmc_pmu_core_name() : pmc_arch_cpu_pfm_model();
}

int pmc_pmu_core_table_counters(void)
{
	pmc_pmu_init(NULL, 0);
	return pmu_state.core >= 0 ? pmu_state.table_gp : -1;
}

bool pmc_pmu_libpfm_ready(void)
{
	pmc_pmu_init(NULL, 0);
	return pmu_state.ready;
}

bool pmc_pmu_libpfm_started(void)
{
	return pmu_state.ready;
}

const char *pmc_libpfm_strerror(int code)
{
	return pfm_strerror(code);
}

int pmc_libpfm_encode(const char *str, struct perf_event_attr *attr, char *fstr, size_t fstrlen)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr a;
	char *fq = NULL;
	int rc;

	if (!pmc_pmu_libpfm_ready())
		return PFM_ERR_NOTFOUND;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.fstr = &fq;
	arg.size = sizeof(arg);
	rc = pfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS) {
		free(fq);
		return rc;
	}
	if (fstr && fstrlen)
		snprintf(fstr, fstrlen, "%s", fq ? fq : str);
	free(fq);
	a.size = sizeof(a);
	*attr = a;
	return PFM_SUCCESS;
}

void pmc_event_normalize_excl(struct perf_event_attr *a)
{
	/* x86 has no hypervisor privilege level of its own: libpfm4 sets exclude_hv differently per PMU, so tie it
	 * to kernel and make every spelling of the same event give the same attr. Guest mode is counted: unlike
	 * perf, which sets exclude_guest on every event it parses (event_attr_init, unless 'perf kvm'), pmctool
	 * counts what the workload makes the CPU do, and a KVM guest the workload runs is such work; the msr PMU
	 * also refuses any exclude bit (EINVAL), which would need a per-PMU retry. pmctool-stat(1) says so. */
	a->exclude_hv = a->exclude_kernel;
	a->exclude_guest = 0;
	a->exclude_host = 0;
}

void pmc_event_classify_core(struct pmc_event *ev)
{
	struct pmc_arch_placement pl = { 0 };
	int v;

	ev->flags |= PMC_EVF_HARDWARE;
	ev->flags &= ~(PMC_EVF_ABSENT | PMC_EVF_FIXED_ONLY | PMC_EVF_SUSPECT | PMC_EVF_NO_COUNTER);
	ev->cls = PMC_CLASS_GP;
	ev->fixed_index = -1;
	/* The arch seam knows the fixed counters and the encodings they take (Intel's pseudo-encodings, arm64's cycle
	 * counter); a libpfm4 name goes along for the table errors it can spot. */
	v = place(&ev->attr, pmc_pmu_fixed_counters(), strstr(ev->canonical, "::") ? ev->canonical : "", &pl, NULL, 0);
	if (pl.fixed_index >= 0) {
		ev->cls = PMC_CLASS_FIXED;
		ev->fixed_index = pl.fixed_index;
		if (pl.fixed_only)
			ev->flags |= PMC_EVF_FIXED_ONLY;
	}
	if (pl.no_counter)
		ev->flags |= PMC_EVF_NO_COUNTER;
	if (v > 0)
		ev->flags |= PMC_EVF_SUSPECT;
	else if (v < 0)
		ev->flags |= PMC_EVF_ABSENT;
}

int pmc_event_why_flagged(const struct pmc_event *ev, char *why, size_t len)
{
	struct pmc_arch_placement pl = { 0 };

	if (len)
		why[0] = '\0';
	if (!(ev->flags & (PMC_EVF_ABSENT | PMC_EVF_SUSPECT)))
		return 0;
	if (ev->attr.type == PERF_TYPE_HARDWARE)
		return pmc_pmu_hw_event_missing(ev->attr.config & PERF_HW_EVENT_MASK, why, len);
	return place(&ev->attr, pmc_pmu_fixed_counters(), strstr(ev->canonical, "::") ? ev->canonical : "", &pl, why,
		     len) != 0;
}

void pmc_event_raw_plm(struct perf_event_attr *a)
{
	uint64_t plm = a->config & (PMC_X86_USR | PMC_X86_OS);

	a->config &= ~PMC_X86_PLM_BITS;
	if (!plm)
		return;
	a->exclude_user = !(plm & PMC_X86_USR);
	a->exclude_kernel = !(plm & PMC_X86_OS);
	a->exclude_hv = a->exclude_kernel;
}

int pmc_pmu_libpfm_version(unsigned *major, unsigned *minor)
{
	int v = pfm_get_version();

	if (v < 0)
		return -1;
	*major = PFM_MAJ_VERSION(v);
	*minor = PFM_MIN_VERSION(v);
	return 0;
}

void pmc_pmu_libpfm_facts(struct pmc_libpfm_facts *f)
{
	int v = pfm_get_version(); /* the library's own, not the headers': a newer libpfm4 knows newer CPUs */
	pfm_pmu_t p;

	memset(f, 0, sizeof(*f));
	f->core_gp = f->core_fixed = -1;
	if (v > 0) {
		f->major = PFM_MAJ_VERSION(v);
		f->minor = PFM_MIN_VERSION(v);
	}
	pmc_pmu_init(NULL, 0);
	f->init_rc = pmu_state.rc;
	if (f->init_rc != PFM_SUCCESS) {
		snprintf(f->init_error, sizeof(f->init_error), "%s", pfm_strerror(f->init_rc));
		return;
	}
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info = { .size = sizeof(info) };

		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (f->npmus < PMC_PFM_MAX_PMUS)
			snprintf(f->pmus[f->npmus++], sizeof(f->pmus[0]), "%s", info.name);
		if (!f->core[0] && info.type == PFM_PMU_TYPE_CORE) { /* libpfm4's default: the first of core type */
			snprintf(f->core, sizeof(f->core), "%s", info.name);
			snprintf(f->core_desc, sizeof(f->core_desc), "%s", info.desc ? info.desc : "");
			f->core_gp = info.num_cntrs;
			f->core_fixed = info.num_fixed_cntrs;
		}
	}
}

/* Restarted without LIBPFM_FORCE_PMU, libpfm4 lists the forced table as present as well, so any other present core
 * PMU is the detected one. The answer is the process's: asked once per forced name (a live set's reads make no
 * fork and no system call for it). */
static void detect_core(const char *forced, char *buf, size_t len);

void pmc_pmu_detected_core(const char *forced, char *buf, size_t len)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	static char for_name[64], answer[64];
	static bool known;

	pthread_mutex_lock(&mu);
	if (!known || strcmp(for_name, forced)) {
		detect_core(forced, answer, sizeof(answer));
		snprintf(for_name, sizeof(for_name), "%s", forced);
		known = strlen(forced) < sizeof(for_name);
	}
	snprintf(buf, len, "%s", answer);
	pthread_mutex_unlock(&mu);
}

static void detect_core(const char *forced, char *buf, size_t len)
{
	int fd[2];
	pid_t pid, parent = getpid();
	ssize_t n = 0;
	sigset_t old;

	buf[0] = '\0';
	if (pipe(fd))
		return;
	pid = pmc_fork_blocked(&old); /* the child keeps every signal blocked: it only asks and exits */
	if (pid == 0) {
		pfm_pmu_t p;

		pmc_fork_die_with_parent(parent, 0);
		close(fd[0]);
		pfm_terminate(); /* the parent's forced start-up, copied by fork */
		unsetenv("LIBPFM_FORCE_PMU");
		if (pfm_initialize() == PFM_SUCCESS)
			pfm_for_all_pmus(p) {
				pfm_pmu_info_t info = { .size = sizeof(info) };

				if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && info.is_present &&
				    info.type == PFM_PMU_TYPE_CORE && strcasecmp(info.name, forced)) {
					(void)!write(fd[1], info.name, strlen(info.name));
					break;
				}
			}
		_exit(0);
	}
	pmc_fork_unblock(&old);
	close(fd[1]);
	if (pid > 0) {
		n = read(fd[0], buf, len - 1);
		waitpid(pid, NULL, 0);
	}
	close(fd[0]);
	buf[n > 0 ? n : 0] = '\0';
}
