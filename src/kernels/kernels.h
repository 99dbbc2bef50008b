/* SPDX-License-Identifier: MIT */
/* Built-in kernels (assembly per architecture in src/arch/<arch>/, C kernels here), what one iteration of each
 * executes, and measuring one in-process with user-space counter reads. */
#ifndef PMC_KERNELS_H
#define PMC_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h" /* enum pmc_isa */
#include "report/report.h"
#include "perf/measure.h"

/* Width of the FLOP instructions of a kernel. */
enum pmc_kernel_width {
	PMC_WIDTH_NONE = 0, /* no floating point */
	PMC_WIDTH_SCALAR,
	PMC_WIDTH_128,
	PMC_WIDTH_256,
	PMC_WIDTH_512,
};

/* The quantities a kernel may declare. */
enum pmc_kx {
	PMC_KX_INSTRUCTIONS = 0,
	PMC_KX_BRANCHES,
	PMC_KX_FLOPS_SP,
	PMC_KX_FLOPS_DP,
	PMC_KX_BYTES_LOADED,
	PMC_KX_BYTES_STORED,
	PMC_KX_COUNT
};

/* What a kernel executes: total = fixed + per_iter x iterations, for each quantity whose bit (1 << PMC_KX_x) is in
 * declared. Undeclared quantities are unknown, never 0. */
struct pmc_kernel_expect {
	unsigned declared;
	uint64_t fixed[PMC_KX_COUNT];
	uint64_t per_iter[PMC_KX_COUNT];
};

enum pmc_kparam_kind {
	PMC_KPARAM_UINT = 0, /* decimal or 0x-hex integer */
	PMC_KPARAM_BYTES,    /* integer with an optional K, M, G suffix (KiB, MiB, GiB) */
	PMC_KPARAM_CHOICE,   /* one of choices[]; the value is its index */
};

struct pmc_kernel_param_desc {
	const char *name;
	const char *desc;
	enum pmc_kparam_kind kind;
	uint64_t min, max, dfl;     /* UINT/BYTES: limits and default; CHOICE: dfl is an index */
	const char *const *choices; /* CHOICE: NULL-terminated */
};

#define PMC_KERNEL_MAX_PARAMS 4

/* Parameter values of one kernel; start from pmc_kernel_params_init(). */
struct pmc_kernel_params {
	const struct pmc_kernel *k;
	uint64_t v[PMC_KERNEL_MAX_PARAMS]; /* in the order of k->params */
};

struct pmc_kernel {
	const char *name;
	const char *desc;                            /* one line */
	const struct pmc_kernel_param_desc *params;  /* nparams entries */
	size_t nparams;
	unsigned isa;                                /* enum pmc_isa bits (arch/arch.h) */
	enum pmc_kernel_width width;
	bool assembly;                               /* instruction and branch counts exact (assembly kernel) */
	const char *symbol;                          /* the function measured (assembly kernels), for profilers */
	void *const *loop_head;                      /* -> the address of an instruction run once per iteration; NULL
							for C kernels */
	/* Fill the declared counts for these parameters. */
	void (*expect)(const struct pmc_kernel_params *p, struct pmc_kernel_expect *ret);
	/* Iterations for about 0.1-0.5 s on a current core. */
	uint64_t (*default_iters)(const struct pmc_kernel_params *p);
	/* Allocate and fill the kernel's data (before measuring); NULL when the kernel needs none. 0 or -errno + err. */
	int (*prepare)(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen);
	void (*release)(void *ctx);
	/* The code measured: iters >= 1 iterations. The return value keeps the work observable. */
	uint64_t (*run)(uint64_t iters, void *ctx);
	/* C kernels whose code depends on a parameter: the function for these parameters (overrides run). */
	uint64_t (*(*select)(const struct pmc_kernel_params *p))(uint64_t iters, void *ctx);
};

/* The kernel table. */
const struct pmc_kernel *pmc_kernel_find(const char *name); /* NULL if unknown */
size_t pmc_kernel_count(void);
const struct pmc_kernel *pmc_kernel_at(size_t i);          /* NULL past the end */

/* The nearest kernel name to a misspelt one, or NULL. */
const char *pmc_kernel_suggest(const char *name);

/* Parameters at their defaults. */
void pmc_kernel_params_init(const struct pmc_kernel *k, struct pmc_kernel_params *p);

/* Parse one "KEY=VALUE" (as given to --param) into p (p->k must be k: call pmc_kernel_params_init first).
 * 0, or -EINVAL (unknown key, malformed value) / -ERANGE (outside the limits) with a one-line message in err naming
 * the input and the accepted values. p is unchanged on failure. */
int pmc_kernel_params_parse(const struct pmc_kernel *k, const char *kv, struct pmc_kernel_params *p, char *err,
			    size_t errlen);

/* A parameter value for people: a choice's name, "64 MiB" for byte counts, else decimal. Returns buf. */
const char *pmc_kernel_format_value(const struct pmc_kernel_param_desc *d, uint64_t v, char *buf, size_t len);

/* "key=value,key=value" of every parameter (for a report's workload line). 0 or -ENOSPC. */
int pmc_kernel_params_format(const struct pmc_kernel_params *p, char *buf, size_t len);

/* The value of parameter 'name' (CHOICE: the index). 0 or -ENOENT. */
int pmc_kernel_param_get(const struct pmc_kernel_params *p, const char *name, uint64_t *ret);

/* The declared counts (per iteration and fixed). */
void pmc_kernel_expect(const struct pmc_kernel *k, const struct pmc_kernel_params *p, struct pmc_kernel_expect *ret);

/* Totals for 'iters' iterations as named constants: ITERATIONS always, then EXPECTED_INSTRUCTIONS,
 * EXPECTED_BRANCHES, EXPECTED_FLOPS_SP, EXPECTED_FLOPS_DP, EXPECTED_FLOPS (SP + DP), EXPECTED_BYTES_LOADED,
 * EXPECTED_BYTES_STORED for the quantities the kernel declares (others omitted). 0, or -ENOSPC when max is too
 * small (ret_n says how many were needed). */
int pmc_kernel_expectations(const struct pmc_kernel *k, const struct pmc_kernel_params *p, uint64_t iters,
			    struct pmc_named_value *ret, size_t max, size_t *ret_n);

/* Default iterations for these parameters. */
uint64_t pmc_kernel_default_iters(const struct pmc_kernel *k, const struct pmc_kernel_params *p);

/* "AVX2 FMA" style names of isa bits, written into buf. */
const char *pmc_isa_names(unsigned isa, char *buf, size_t len);

/* The isa bits this CPU and OS do not support (0: all supported). */
unsigned pmc_isa_missing(unsigned isa);

/* 0 when the kernel can run here, else -ENOTSUP with err naming the missing extension(s). */
int pmc_kernel_check_cpu(const struct pmc_kernel *k, char *err, size_t errlen);

/* Limits on the runner's inputs. */
#define PMC_KERNEL_MAX_ITERS (UINT64_C(1) << 40)
#define PMC_KERNEL_MAX_WARMUP_S 60.0

struct pmc_kernel_opts {
	uint64_t iters;         /* 0: pmc_kernel_default_iters() */
	int cpu;                /* pin to this CPU; -1 = the CPU pmctool is running on */
	double warmup_s;        /* run the same kernel this long before measuring (seed 003: SIMD width, frequency) */
	bool subtract_overhead; /* subtract the empty region's median counts and TSC cycles */
	bool syscall_reads;     /* read every counter with read(), never in process (to cross-check the two paths) */
};

/* What the runner did, besides counts. Arrays are allocated by pmc_kernel_measure: pmc_kernel_info_fini(). */
struct pmc_kernel_info {
	uint64_t iters;          /* iterations measured */
	int cpu;                 /* the CPU it ran on */
	double warmup_s;         /* seconds of warm-up actually run */
	bool rdpmc;              /* at least one event was read with RDPMC */
	char read_method[256];   /* "RDPMC (in process)", "read(): why", or both, and why read() was needed */
	bool all_in_process;     /* every opened event was read in process (and at least one was opened) */
	uint64_t tsc_cycles;     /* region timer ticks (TSC, CNTVCT; fenced on both sides), after subtraction if done */
	uint64_t overhead_tsc;   /* median timer ticks of the empty region */
	uint64_t overhead_wall_ns; /* median wall time of the empty region: the reads, which the wall window contains */
	size_t nevents;          /* = req->n */
	uint64_t *overhead;      /* nevents: median count of each event over the empty region (0 when not counted) */
	bool *overhead_valid;    /* nevents: whether overhead[i] was measured */
	bool *event_rdpmc;       /* nevents: event i was read with RDPMC */
	unsigned counter_width;  /* bits of a hardware counter (the perf page's pmc_width); 0 when no page said */
	bool overhead_subtracted;
	bool wall_unresolved;    /* subtracted: the region's wall time came out shorter than the overhead taken from it,
				    so task-clock / wall is a ratio of two residuals (noise), not a measurement */
	uint64_t wall_ns;        /* the region's wall time, after subtraction if done */
	unsigned overhead_samples; /* empty regions measured */
	uint64_t result;         /* the kernel's return value */
	bool stopped;            /* SIGINT/SIGTERM ended the kernel early: counts are those of the part that ran, the
				    iterations done are unknown (expectations do not apply) */
};

void pmc_kernel_info_fini(struct pmc_kernel_info *info); /* accepts NULL */

/*
 * Measure a kernel in this process: pin to one CPU, prepare its data, open req's events on this thread (pid 0,
 * cpu -1, inherit 0; hardware events as one group when req->group, others alone), mmap each, warm up, enable,
 * read (RDPMC or read()), run, read again; stop - start goes to out->counts[i] for req->events[i]. An event whose
 * open failed gets PMC_COUNT_NOT_SUPPORTED and its errno (one refused in the group is tried alone first); the kernel
 * runs anyway. A member refused in the group but accepted alone: out->group_err and out->group_err_index name it
 * (the batch must be split), no counter stays open and the kernel is not run. out->wall_ns, out->ru
 * (RUSAGE_THREAD delta) and info are filled. The affinity is restored before returning.
 * 0, or -errno with a message in err: bad input (-EINVAL), CPU lacks the ISA (-ENOTSUP), out of memory, pinning
 * failed. SIGINT or SIGTERM while the kernel runs stops it at once (out->interrupted, info->stopped: the counts are
 * those measured so far) and is then re-raised to the handler installed before; the return value stays 0.
 */
int pmc_kernel_measure(const struct pmc_kernel *k, const struct pmc_kernel_params *p, const struct pmc_kernel_opts *o,
		       const struct pmc_measure_req *req, struct pmc_measure_out *out, struct pmc_kernel_info *info,
		       char *err, size_t errlen);

/* Run kernel k once with parameters p (iters 0: its default), pinned to cpu (-1: where it is, unpinned), counting
 * nothing: the workload of a process that is counted from outside (check's launched loop, a forked child). The
 * affinity is restored before returning. 0, or -errno with a message in err (pinning: sched_setaffinity's errno,
 * -EINVAL for a CPU not in the allowed set; preparing its data). */
int pmc_kernel_run_plain(const struct pmc_kernel *k, const struct pmc_kernel_params *p, uint64_t iters, int cpu,
			 char *err, size_t errlen);

/* stop - start of one event into ret. a_full/b_full: read in process with enabled == running on the page (the event
 * ran all the time, times as of its last update): the region's wall_ns is then its enabled and running time. */
void pmc_kernel_count_delta(const struct pmc_count *a, bool a_full, const struct pmc_count *b, bool b_full,
			    uint64_t wall_ns, struct pmc_count *ret);

#endif
