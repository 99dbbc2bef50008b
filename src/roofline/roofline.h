/* SPDX-License-Identifier: MIT */
/*
 * The roofline (issue 36): the machine's ceilings measured with the built-in kernels, which know their FLOPs and
 * bytes per iteration exactly (so they need no PMU: work over time), cached per machine fingerprint; a program's
 * point (FLOPs, bytes, seconds) placed under them with its operational intensity, the ceiling it is bound by and its
 * distance to it (written out by output/roofline.h).
 */
#ifndef PMC_ROOFLINE_ROOFLINE_H
#define PMC_ROOFLINE_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The memory levels a bandwidth ceiling is measured at. */
enum pmc_rf_level { PMC_RF_L1 = 0, PMC_RF_L2, PMC_RF_L3, PMC_RF_MEM, PMC_RF_NLEVELS };

enum pmc_rf_kind { PMC_RF_COMPUTE = 0, PMC_RF_BANDWIDTH };

#define PMC_RF_MAX_CEILINGS 16
#define PMC_RF_MAX_REPEATS 100

struct pmc_rf_ceiling {
	char name[48];        /* "DP peak", "L1 bandwidth", "memory bandwidth" */
	enum pmc_rf_kind kind;
	int level;            /* bandwidth: enum pmc_rf_level; compute: -1 */
	bool dp;              /* compute: double precision (else single) */
	unsigned threads;     /* 1: one core; else all cores (one thread per CPU allowed to this process) */
	char kernel[96];      /* how it was measured: "flops-dp-256", "stream mode=triad footprint=16 KiB" */
	uint64_t footprint;   /* bandwidth: bytes of one thread's arrays; 0 for compute */
	bool valid;           /* false: not measured, reason says why */
	char reason[160];
	unsigned repeats;     /* measurements the statistics are over */
	double median, min, max; /* FLOP/s or bytes/s over the repeats */
};

/* The roof a ceiling draws: the best rate of its repeats (the machine did that much; a loaded machine's median is
 * lower, and the spread shows it). */
double pmc_rf_ceiling_roof(const struct pmc_rf_ceiling *c);

struct pmc_rf_ceilings {
	char fingerprint[17]; /* 16 hex digits of the machine's fingerprint (pmc_rf_fingerprint) */
	char machine[160];    /* the fingerprint's text, for people: CPU, kernel, CPUs, caches */
	long long measured_at; /* seconds since the epoch */
	struct pmc_rf_ceiling c[PMC_RF_MAX_CEILINGS];
	size_t n;
};

/* The caches of CPU 0 from <sysfs root>/devices/system/cpu/cpu0/cache: data or unified size in bytes per level
 * (0 when the level is absent) and how many CPUs share each. */
struct pmc_rf_caches {
	uint64_t size[PMC_RF_MEM];
	unsigned shared[PMC_RF_MEM];
	unsigned line[PMC_RF_MEM];  /* coherency_line_size in bytes, 0 when sysfs does not say */
};
void pmc_rf_caches_read(struct pmc_rf_caches *ret);

/* The working set of one thread of the stream kernel for a level (threads share the shared caches): half of the
 * level's capacity (per sharing thread), or for memory 8 times the last level, at least 256 MiB over all threads;
 * 0 when the level is absent. */
uint64_t pmc_rf_footprint(const struct pmc_rf_caches *c, enum pmc_rf_level level, unsigned threads);

/* A fingerprint of the machine the ceilings belong to, from the text given (the CLI's environment: CPU, microcode,
 * kernel, pmctool) and this process's CPUs and caches: ret->fingerprint and ret->machine. */
void pmc_rf_fingerprint(const char *env_text, struct pmc_rf_ceilings *ret);

struct pmc_rf_measure_opts {
	unsigned repeats;    /* 1 .. PMC_RF_MAX_REPEATS */
	double target_s;     /* seconds of one measurement (iterations calibrated to it) */
	volatile int *stop;  /* non-zero: stop measuring (a signal); the ceilings so far stay */
};

/* Measure every ceiling on this machine into ret (ret->fingerprint kept): compute peaks (widest flops-dp-* and
 * flops-sp-* kernel this CPU runs) and stream triad bandwidth at each level, one core and all cores. A ceiling that
 * could not be measured is kept with valid false and its reason. 0 or -errno with err (out of memory). */
int pmc_rf_measure(const struct pmc_rf_measure_opts *o, struct pmc_rf_ceilings *ret, char *err, size_t errlen);

/* The ceilings cache: $XDG_CACHE_HOME/pmctool (else $HOME/.cache/pmctool), file roofline-FINGERPRINT. The
 * directory is made 0700 when absent, never followed through a symlink; the file is read only when it is a regular
 * file (never a FIFO or a link) of sane size, written whole through a temporary file and a rename. */
/* The cache file's path into buf: 0, or -ENOENT when neither variable names a directory. */
int pmc_rf_cache_path(const char *fingerprint, char *buf, size_t len);
/* Load the ceilings cached for ret->fingerprint: 0; -ENOENT when none is cached; -EINVAL when the file is malformed
 * (err says where); -errno. ret is unchanged on failure. */
int pmc_rf_cache_load(struct pmc_rf_ceilings *ret, char *err, size_t errlen);
/* Store them: 0 or -errno with err. */
int pmc_rf_cache_store(const struct pmc_rf_ceilings *c, char *err, size_t errlen);
/* The text form (the cache file's), and its parser (0, or -EINVAL with err naming the line). */
int pmc_rf_ceilings_format(const struct pmc_rf_ceilings *c, char *buf, size_t len);
int pmc_rf_ceilings_parse(const char *text, struct pmc_rf_ceilings *ret, char *err, size_t errlen);

/* A program's point. Inputs with valid false carry the reason they are not measured. */
struct pmc_rf_point {
	char label[64];       /* "program", a region's name, "interval 3" */
	double seconds;       /* wall time the counts are over */
	bool flops_valid;
	double flops;
	char flops_why[160];
	bool bytes_valid;
	double bytes;         /* moved at bytes_level */
	int bytes_level;      /* enum pmc_rf_level the bytes come from (L2: between L2 and L1; PMC_RF_MEM: memory);
	                       * the point is placed under that level's bandwidth ceiling */
	char bytes_why[160];
	char bytes_source[256]; /* what the bytes are counted from ("L1D:REPLACEMENT x 64 B: lines filled into L1D") */
	unsigned interval;    /* -I: the interval (1-based); 0: the whole run or a region */
	double start_s;       /* -I: the interval's start, seconds since counting started */
	/* Derived by pmc_rf_point_place: */
	bool placed;          /* intensity, rates, bound and distance are valid */
	char why[200];        /* not placed: why */
	double flop_rate, bandwidth, intensity; /* FLOP/s, bytes/s, FLOP/byte (each valid when its inputs are) */
	int bound;            /* index of the ceiling attained at this intensity (the lowest roof), -1 none */
	bool memory_bound;    /* the bound is a bandwidth ceiling */
	double attainable;    /* FLOP/s the bound allows at this intensity */
	double fraction;      /* flop_rate / attainable */
};

/* The roof at intensity I for the compute ceiling 'peak' and bandwidth ceiling 'bw': min(peak, bw x I). */
double pmc_rf_roof(double peak, double bw, double intensity);

/* Place p under the ceilings of one thread count (1 or all: 'threads' 0 means all cores), precision dp: its rates,
 * intensity, the ceiling that bounds it (memory level or compute), the attainable FLOP rate there and the fraction
 * of it reached. */
void pmc_rf_point_place(struct pmc_rf_point *p, const struct pmc_rf_ceilings *c, bool all_cores, bool dp);

#endif
