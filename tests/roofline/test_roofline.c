/* SPDX-License-Identifier: MIT */
/* The roofline: working sets from the caches, the ceilings' text form and its parser, the cache file's safety, a
 * point's placement from injected counts, the SVG, and the ceilings measured for real (no PMU needed). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "output/roofline.h"
#include "roofline/roofline.h"

#define KIB UINT64_C(1024)
#define MIB (KIB * 1024)

static void test_footprint_sizes_each_level_from_the_caches(void **state)
{
	static const struct {
		int line;
		struct pmc_rf_caches c;
		enum pmc_rf_level level;
		unsigned threads;
		uint64_t want;
	} rows[] = {
		{ __LINE__, { { 32 * KIB, 512 * KIB, 32 * MIB }, { 1, 1, 2 }, { 0 } }, PMC_RF_L1, 1, 16 * KIB },
		{ __LINE__, { { 32 * KIB, 512 * KIB, 32 * MIB }, { 1, 1, 2 }, { 0 } }, PMC_RF_L1, 2, 16 * KIB },
		{ __LINE__, { { 32 * KIB, 512 * KIB, 32 * MIB }, { 1, 1, 2 }, { 0 } }, PMC_RF_L2, 1, 256 * KIB },
		/* the shared L3 holds both threads' arrays */
		{ __LINE__, { { 32 * KIB, 512 * KIB, 32 * MIB }, { 1, 1, 2 }, { 0 } }, PMC_RF_L3, 1, 16 * MIB },
		{ __LINE__, { { 32 * KIB, 512 * KIB, 32 * MIB }, { 1, 1, 2 }, { 0 } }, PMC_RF_L3, 2, 8 * MIB },
		{ __LINE__, { { 32 * KIB, 512 * KIB, 32 * MIB }, { 1, 1, 2 }, { 0 } }, PMC_RF_MEM, 1, 256 * MIB },
		{ __LINE__, { { 32 * KIB, 512 * KIB, 32 * MIB }, { 1, 1, 2 }, { 0 } }, PMC_RF_MEM, 2, 128 * MIB },
		/* 8 x a 96 MiB L3 */
		{ __LINE__, { { 48 * KIB, 2 * MIB, 96 * MIB }, { 2, 2, 32 }, { 0 } }, PMC_RF_MEM, 1, 768 * MIB },
		{ __LINE__, { { 48 * KIB, 2 * MIB, 96 * MIB }, { 2, 2, 32 }, { 0 } }, PMC_RF_MEM, 64, 64 * MIB },
		/* no L3: 0, never a made-up size */
		{ __LINE__, { { 64 * KIB, 1 * MIB, 0 }, { 1, 1, 0 }, { 0 } }, PMC_RF_L3, 1, 0 },
		{ __LINE__, { { 64 * KIB, 1 * MIB, 0 }, { 1, 1, 0 }, { 0 } }, PMC_RF_MEM, 1, 256 * MIB },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t got = pmc_rf_footprint(&rows[i].c, rows[i].level, rows[i].threads);
		if (got != rows[i].want)
			fail_msg("line %d: footprint %llu, want %llu", rows[i].line, (unsigned long long)got,
				 (unsigned long long)rows[i].want);
	}
}

static void two_ceilings(struct pmc_rf_ceilings *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->fingerprint, "0123456789abcdef");
	strcpy(c->machine, "test machine");
	c->measured_at = 1700000000;
	c->n = 3;
	c->c[0] = (struct pmc_rf_ceiling){ .name = "DP peak", .kind = PMC_RF_COMPUTE, .level = -1, .dp = true,
					   .threads = 1, .kernel = "flops-dp-256", .valid = true, .repeats = 5,
					   .median = 30e9, .min = 28e9, .max = 32e9 };
	c->c[1] = (struct pmc_rf_ceiling){ .name = "memory bandwidth", .kind = PMC_RF_BANDWIDTH, .level = PMC_RF_MEM,
					   .threads = 1, .kernel = "stream mode=triad footprint=256 MiB",
					   .footprint = 256 * MIB, .valid = true, .repeats = 5, .median = 15e9,
					   .min = 14e9, .max = 16e9 };
	c->c[2] = (struct pmc_rf_ceiling){ .name = "L3 bandwidth", .kind = PMC_RF_BANDWIDTH, .level = PMC_RF_L3,
					   .threads = 1, .valid = false, .reason = "no L3 cache in sysfs" };
}

static void test_ceilings_text_round_trips(void **state)
{
	struct pmc_rf_ceilings a, b;
	char buf[8192], err[256];

	(void)state;
	two_ceilings(&a);
	assert_int_equal(pmc_rf_ceilings_format(&a, buf, sizeof(buf)), 0);
	assert_int_equal(pmc_rf_ceilings_parse(buf, &b, err, sizeof(err)), 0);
	assert_string_equal(b.fingerprint, a.fingerprint);
	assert_int_equal(b.n, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(b.c[i].name, a.c[i].name);
		assert_int_equal(b.c[i].valid, a.c[i].valid);
		assert_true(b.c[i].median == a.c[i].median && b.c[i].max == a.c[i].max);
		assert_int_equal(b.c[i].level, a.c[i].level);
	}
	assert_string_equal(b.c[2].reason, "no L3 cache in sysfs");
	assert_int_equal(pmc_rf_ceilings_format(&a, buf, 64), -ENOSPC);
}

static void test_ceilings_parse_rejects_malformed_files_naming_the_line(void **state)
{
	static const struct {
		int line;
		const char *text;
		const char *where;
	} rows[] = {
		{ __LINE__, "", "line 1" },
		{ __LINE__, "# something else\nfingerprint\t0123456789abcdef\n", "line 1" },
		{ __LINE__, "# pmctool roofline ceilings v1\nmachine\tx\n", "line 2" }, /* no fingerprint */
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123\n", "line 2" },
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123456789abcdef\nbogus\t1\n", "line 3" },
		/* a negative, a NaN, an infinite rate; min > median; valid with 0 repeats; a level past memory */
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123456789abcdef\n"
			    "ceiling\tcompute\t-1\t1\t1\t0\t1\t5\t-1\t-2\t1\tDP\tk\t\n", "line 3" },
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123456789abcdef\n"
			    "ceiling\tcompute\t-1\t1\t1\t0\t1\t5\tnan\t1\t1\tDP\tk\t\n", "line 3" },
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123456789abcdef\n"
			    "ceiling\tcompute\t-1\t1\t1\t0\t1\t5\tinf\t1\tinf\tDP\tk\t\n", "line 3" },
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123456789abcdef\n"
			    "ceiling\tcompute\t-1\t1\t1\t0\t1\t5\t1\t2\t3\tDP\tk\t\n", "line 3" },
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123456789abcdef\n"
			    "ceiling\tcompute\t-1\t1\t1\t0\t1\t0\t2\t1\t3\tDP\tk\t\n", "line 3" },
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123456789abcdef\n"
			    "ceiling\tbandwidth\t4\t0\t1\t0\t1\t5\t2\t1\t3\tB\tk\t\n", "line 3" },
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123456789abcdef\n"
			    "ceiling\tbandwidth\t3\t0\t0\t0\t1\t5\t2\t1\t3\tB\tk\t\n", "line 3" }, /* 0 threads */
		{ __LINE__, "# pmctool roofline ceilings v1\nfingerprint\t0123456789abcdef\n"
			    "ceiling\tbandwidth\t3\t0\t1\t0\t1\t5\t2\t1\t3\tB\tk\n", "line 3" }, /* a field short */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_rf_ceilings c;
		char err[256] = "";

		c.n = 99;
		if (pmc_rf_ceilings_parse(rows[i].text, &c, err, sizeof(err)) != -EINVAL)
			fail_msg("line %d: accepted", rows[i].line);
		if (!strstr(err, rows[i].where) || !strstr(err, "--refresh"))
			fail_msg("line %d: message '%s' lacks '%s' and the way out", rows[i].line, err, rows[i].where);
		if (c.n != 99)
			fail_msg("line %d: the output was written on failure", rows[i].line);
	}
}

/* Injected counts: 1 s, FLOPs and bytes chosen; one-core ceilings above (roofs: DP 32 GFLOP/s, memory 16 GB/s,
 * ridge at 2 FLOP/byte). */
static void test_point_placed_memory_bound_below_the_ridge_injected(void **state)
{
	struct pmc_rf_ceilings c;
	struct pmc_rf_point p = { .label = "p", .seconds = 1, .flops_valid = true, .flops = 4e9, .bytes_valid = true,
				  .bytes = 8e9, .bytes_level = PMC_RF_MEM };

	(void)state;
	two_ceilings(&c);
	pmc_rf_point_place(&p, &c, false, true);
	assert_true(p.placed);
	assert_true(fabs(p.intensity - 0.5) < 1e-12);
	assert_true(p.memory_bound);
	assert_int_equal(p.bound, 1);
	assert_true(fabs(p.attainable - 8e9) < 1); /* 16 GB/s x 0.5 */
	assert_true(fabs(p.fraction - 0.5) < 1e-12);
}

static void test_point_placed_compute_bound_above_the_ridge_injected(void **state)
{
	struct pmc_rf_ceilings c;
	struct pmc_rf_point p = { .label = "p", .seconds = 2, .flops_valid = true, .flops = 48e9, .bytes_valid = true,
				  .bytes = 1e9, .bytes_level = PMC_RF_MEM };

	(void)state;
	two_ceilings(&c);
	pmc_rf_point_place(&p, &c, false, true);
	assert_true(p.placed);
	assert_false(p.memory_bound);
	assert_int_equal(p.bound, 0);
	assert_true(fabs(p.flop_rate - 24e9) < 1);
	assert_true(fabs(p.fraction - 0.75) < 1e-12);
}

static void test_point_not_placed_keeps_the_reason(void **state)
{
	static const struct {
		int line;
		struct pmc_rf_point p;
		bool all_cores, dp;
		const char *why;
	} rows[] = {
		{ __LINE__, { .seconds = 1, .flops_valid = false, .flops_why = "no hardware PMU", .bytes_valid = true,
			      .bytes = 1 }, false, true, "no hardware PMU" },
		{ __LINE__, { .seconds = 1, .flops_valid = true, .flops = 1, .bytes_valid = false,
			      .bytes_why = "no memory-controller PMU" }, false, true, "no memory-controller PMU" },
		{ __LINE__, { .seconds = 1, .flops_valid = true, .flops = 1, .bytes_valid = true, .bytes = 0 }, false,
		  true, "unbounded" },
		{ __LINE__, { .seconds = 0, .flops_valid = true, .flops = 1, .bytes_valid = true, .bytes = 1 }, false,
		  true, "no wall time" },
		/* no SP peak, and no all-core ceilings, among the ceilings */
		{ __LINE__, { .seconds = 1, .flops_valid = true, .flops = 1, .bytes_valid = true, .bytes = 1 }, false,
		  false, "SP peak" },
		{ __LINE__, { .seconds = 1, .flops_valid = true, .flops = 1, .bytes_valid = true, .bytes = 1 }, true,
		  true, "all cores" },
	};
	struct pmc_rf_ceilings c;

	(void)state;
	two_ceilings(&c);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_rf_point p = rows[i].p;

		p.bytes_level = PMC_RF_MEM;
		pmc_rf_point_place(&p, &c, rows[i].all_cores, rows[i].dp);
		if (p.placed || !strstr(p.why, rows[i].why))
			fail_msg("line %d: placed %d, why '%s'", rows[i].line, p.placed, p.why);
	}
}

static char *tmpdir_make(void)
{
	char *d = strdup("/tmp/pmc-roofline-XXXXXX");

	assert_non_null(mkdtemp(d));
	setenv("XDG_CACHE_HOME", d, 1);
	return d;
}

static void rm_rf(const char *d)
{
	char cmd[1100];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	assert_int_equal(system(cmd), 0);
}

static void test_cache_stores_then_loads_only_its_own_fingerprint(void **state)
{
	char *d = tmpdir_make(), path[1024], err[256];
	struct pmc_rf_ceilings a, b = { .n = 0 };
	struct stat st;

	(void)state;
	two_ceilings(&a);
	strcpy(b.fingerprint, a.fingerprint);
	assert_int_equal(pmc_rf_cache_load(&b, err, sizeof(err)), -ENOENT);
	assert_int_equal(pmc_rf_cache_store(&a, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/pmctool", d);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(pmc_rf_cache_load(&b, err, sizeof(err)), 0);
	assert_int_equal(b.n, 3);
	/* Another machine's fingerprint finds nothing. */
	memset(&b, 0, sizeof(b));
	strcpy(b.fingerprint, "fedcba9876543210");
	assert_int_equal(pmc_rf_cache_load(&b, err, sizeof(err)), -ENOENT);
	rm_rf(d);
	free(d);
}

static void test_cache_never_follows_a_link_nor_opens_a_fifo(void **state)
{
	char *d = tmpdir_make(), path[1024], target[1024], err[256];
	struct pmc_rf_ceilings a, b = { .n = 0 };
	struct stat st;

	(void)state;
	two_ceilings(&a);
	strcpy(b.fingerprint, a.fingerprint);
	snprintf(path, sizeof(path), "%s/pmctool", d);
	assert_int_equal(mkdir(path, 0700), 0);
	/* A link in the file's place: load refuses it, store replaces the link, never writes through it. */
	snprintf(target, sizeof(target), "%s/victim", d);
	assert_int_equal(close(open(target, O_CREAT | O_WRONLY, 0600)), 0);
	snprintf(path, sizeof(path), "%s/pmctool/roofline-%s", d, a.fingerprint);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(pmc_rf_cache_load(&b, err, sizeof(err)), -ELOOP);
	assert_non_null(strstr(err, "a link"));
	assert_int_equal(pmc_rf_cache_store(&a, err, sizeof(err)), 0);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	/* A FIFO in its place: refused at once (no blocking open). */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(pmc_rf_cache_load(&b, err, sizeof(err)), -EINVAL);
	assert_int_equal(b.n, 0);
	/* The directory itself a link: refused. */
	snprintf(path, sizeof(path), "%s/pmctool", d);
	rm_rf(path);
	assert_int_equal(symlink(d, path), 0);
	assert_true(pmc_rf_cache_store(&a, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "link"));
	rm_rf(d);
	free(d);
}

static void test_cache_without_a_home_says_so(void **state)
{
	char err[256] = "";
	struct pmc_rf_ceilings a;
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;

	(void)state;
	two_ceilings(&a);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "relative", 1);
	assert_int_equal(pmc_rf_cache_store(&a, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "HOME"));
	if (home)
		setenv("HOME", home, 1);
	free(home);
}

/* buf into path (a golden file being rewritten, or an SVG kept to look at). */
static void save(const char *path, const char *buf, size_t len)
{
	FILE *o = fopen(path, "w");

	assert_non_null(o);
	fwrite(buf, 1, len, o);
	fclose(o);
}

/* The SVG of the points under c, kept in the file $keep_env names when it is set (to look at it). */
static char *plot(const struct pmc_rf_ceilings *c, const struct pmc_rf_point *p, size_t n, const char *keep_env)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(pmc_rf_plot_svg(f, c, false, true, p, n), 0);
	fclose(f);
	if (getenv(keep_env))
		save(getenv(keep_env), buf, len);
	return buf;
}

static void test_plot_svg_draws_every_roof_and_the_point_injected(void **state)
{
	struct pmc_rf_ceilings c;
	struct pmc_rf_point p = { .label = "injected point", .seconds = 1, .flops_valid = true, .flops = 4e9,
				  .bytes_valid = true, .bytes = 8e9, .bytes_level = PMC_RF_MEM };
	char *buf;

	(void)state;
	two_ceilings(&c);
	pmc_rf_point_place(&p, &c, false, true);
	buf = plot(&c, &p, 1, "PMC_ROOFLINE_SVG"); /* to look at it: PMC_ROOFLINE_SVG=FILE */
	assert_non_null(strstr(buf, "<svg"));
	assert_non_null(strstr(buf, "</svg>"));
	assert_non_null(strstr(buf, "DP peak: 32 GFLOP/s"));
	assert_non_null(strstr(buf, "memory bandwidth: 16 GB/s"));
	assert_non_null(strstr(buf, "class=\"point\""));
	assert_non_null(strstr(buf, "data-x=\"0.5\""));
	assert_non_null(strstr(buf, "injected point memory (50% of roof)"));
	assert_null(strstr(buf, "L3 bandwidth")); /* not measured: not drawn */
	free(buf);
}

/* Ceilings with a cache level: DP 32 GFLOP/s, L2 64 GB/s, memory 16 GB/s (L3 not measured). */
static void level_ceilings(struct pmc_rf_ceilings *c)
{
	two_ceilings(c);
	c->c[c->n++] = (struct pmc_rf_ceiling){ .name = "L2 bandwidth", .kind = PMC_RF_BANDWIDTH, .level = PMC_RF_L2,
						.threads = 1, .kernel = "stream mode=triad footprint=256 KiB",
						.footprint = 256 * KIB, .valid = true, .repeats = 5, .median = 60e9,
						.min = 50e9, .max = 64e9 };
}

/* Points per level and per -I interval from injected counts: the program's L2 and memory points (the same FLOPs,
 * each level its own bytes, intensity and ceiling), an L3 point with no L3 ceiling, two intervals (one whose
 * memory bytes are not measured). */
static size_t level_points(struct pmc_rf_point *p, const struct pmc_rf_ceilings *c)
{
	static const struct pmc_rf_point rows[] = {
		{ .label = "interval 1", .interval = 1, .start_s = 0, .seconds = 0.5, .flops_valid = true, .flops = 2e9,
		  .bytes_valid = true, .bytes = 1e9, .bytes_level = PMC_RF_L2,
		  .bytes_source = "L1D:REPLACEMENT x 64 B: lines filled into L1D" },
		{ .label = "interval 1", .interval = 1, .start_s = 0, .seconds = 0.5, .flops_valid = true, .flops = 2e9,
		  .bytes_valid = false, .bytes_level = PMC_RF_MEM, .bytes_why = "memory bytes (uncore_imc, uncore) are "
		  "counted in a second run of the command, not per interval of this one" },
		{ .label = "interval 2", .interval = 2, .start_s = 0.5, .seconds = 0.5, .flops_valid = false,
		  .flops_why = "FP_ARITH:SCALAR_DOUBLE: not counted in this interval", .bytes_valid = true, .bytes = 2e9,
		  .bytes_level = PMC_RF_L2, .bytes_source = "L1D:REPLACEMENT x 64 B: lines filled into L1D" },
		{ .label = "program", .seconds = 1, .flops_valid = true, .flops = 4e9, .bytes_valid = true, .bytes = 1e9,
		  .bytes_level = PMC_RF_L2, .bytes_source = "L1D:REPLACEMENT x 64 B: lines filled into L1D" },
		{ .label = "program", .seconds = 1, .flops_valid = true, .flops = 4e9, .bytes_valid = true, .bytes = 2e9,
		  .bytes_level = PMC_RF_L3, .bytes_source = "L2_LINES_IN:ALL x 64 B: lines filled into L2" },
		{ .label = "program", .seconds = 1, .flops_valid = true, .flops = 4e9, .bytes_valid = true, .bytes = 8e9,
		  .bytes_level = PMC_RF_MEM, .bytes_source = "LONGEST_LAT_CACHE:MISS x 64 B: L3 misses" },
	};
	size_t n = sizeof(rows) / sizeof(rows[0]);

	for (size_t i = 0; i < n; i++) {
		p[i] = rows[i];
		pmc_rf_point_place(&p[i], c, false, true);
	}
	return n;
}

static void test_points_per_level_each_under_its_own_ceiling_injected(void **state)
{
	struct pmc_rf_ceilings c;
	struct pmc_rf_point p[8];

	(void)state;
	level_ceilings(&c);
	assert_int_equal(level_points(p, &c), 6);
	/* interval 1 at L2: 4 FLOP/byte, 64 GB/s x 4 = 256 GFLOP/s above the 32 GFLOP/s peak: compute-bound */
	assert_true(p[0].placed && !p[0].memory_bound && fabs(p[0].intensity - 2) < 1e-12);
	assert_true(fabs(p[0].flop_rate - 4e9) < 1 && fabs(p[0].bandwidth - 2e9) < 1);
	assert_false(p[1].placed); /* its memory bytes are not measured: the reason, never a 0 */
	assert_non_null(strstr(p[1].why, "second run"));
	assert_false(p[2].placed);
	assert_non_null(strstr(p[2].why, "not counted in this interval"));
	/* the program at L2: I = 4, compute-bound at 32 GFLOP/s, 4/32 of it */
	assert_true(p[3].placed && !p[3].memory_bound && fabs(p[3].intensity - 4) < 1e-12);
	assert_true(fabs(p[3].fraction - 0.125) < 1e-12);
	/* at L3: no L3 ceiling measured: not placed, saying which */
	assert_false(p[4].placed);
	assert_non_null(strstr(p[4].why, "no measured L3 ceiling"));
	/* at memory: I = 0.5, under the memory roof 16 GB/s x 0.5 = 8 GFLOP/s, half of it */
	assert_true(p[5].placed && p[5].memory_bound && fabs(p[5].intensity - 0.5) < 1e-12);
	assert_string_equal(c.c[p[5].bound].name, "memory bandwidth");
	assert_true(fabs(p[5].attainable - 8e9) < 1 && fabs(p[5].fraction - 0.5) < 1e-12);
}

/* The table, CSV and JSON of per-level and per-interval points, against golden files (tests/roofline/golden/;
 * PMC_UPDATE_GOLDEN=1 rewrites them). */
static void test_points_output_matches_golden_files_injected(void **state)
{
	static const struct {
		enum pmc_rf_format fmt;
		const char *file;
	} rows[] = {
		{ PMC_RF_TABLE, "points.txt" },
		{ PMC_RF_CSV, "points.csv" },
		{ PMC_RF_JSON, "points.json" },
	};
	const char *src = getenv("PMC_SOURCE_DIR");
	struct pmc_rf_ceilings c;
	struct pmc_rf_point p[8];
	size_t n;

	(void)state;
	if (!src)
		skip();
	level_ceilings(&c);
	n = level_points(p, &c);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char path[4200], *buf = NULL, *want = NULL;
		size_t len = 0, wlen = 0;
		FILE *f = open_memstream(&buf, &len), *g;

		assert_int_equal(pmc_rf_write(f, rows[i].fmt, &c, true, p, n), 0);
		fclose(f);
		snprintf(path, sizeof(path), "%s/tests/roofline/golden/%s", src, rows[i].file);
		if (getenv("PMC_UPDATE_GOLDEN"))
			save(path, buf, len);
		g = fopen(path, "r");
		if (!g)
			fail_msg("golden file %s missing (PMC_UPDATE_GOLDEN=1 creates it)", path);
		want = malloc(65536);
		assert_non_null(want);
		wlen = fread(want, 1, 65535, g);
		want[wlen] = '\0';
		fclose(g);
		if (wlen != len || memcmp(want, buf, len))
			fail_msg("%s differs from the output:\n%s", path, buf);
		free(want);
		free(buf);
	}
}

static void test_plot_svg_colours_points_by_level_and_joins_intervals_injected(void **state)
{
	static const char *const want[] = {
		"class=\"intervals\"", "data-level=\"L2\"", "data-level=\"memory\"", "program L2 (12% of roof)",
		"program memory (50% of roof)", "interval 1 L2",
	};
	struct pmc_rf_ceilings c;
	struct pmc_rf_point p[8];
	size_t n;
	char *buf;

	(void)state;
	level_ceilings(&c);
	n = level_points(p, &c);
	/* a second placed interval at L2, so that the intervals have a path */
	p[2].flops_valid = true;
	p[2].flops = 3e9;
	pmc_rf_point_place(&p[2], &c, false, true);
	buf = plot(&c, p, n, "PMC_ROOFLINE_LEVELS_SVG"); /* to look at it: PMC_ROOFLINE_LEVELS_SVG=FILE */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(buf, want[i]))
			fail_msg("the plot lacks '%s'", want[i]);
	free(buf);
}

/* Real: the ceilings of this machine, quickly (2 repeats of 10 ms). Every compute ceiling is measured where its
 * kernel runs; every value is positive with min <= median <= max. */
static void test_measure_ceilings_for_real_with_their_spread(void **state)
{
	struct pmc_rf_measure_opts o = { .repeats = 2, .target_s = 0.01 };
	struct pmc_rf_ceilings c = { .n = 0 };
	char err[256];
	size_t mem = 0;

	(void)state;
	assert_int_equal(pmc_rf_measure(&o, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 12);
	for (size_t i = 0; i < c.n; i++) {
		const struct pmc_rf_ceiling *x = &c.c[i];

		if (!x->valid) {
			assert_true(x->reason[0] != '\0');
			continue;
		}
		mem += x->kind == PMC_RF_BANDWIDTH && x->level == PMC_RF_MEM;
		assert_int_equal(x->repeats, 2);
		assert_true(x->min > 0 && x->min <= x->median && x->median <= x->max);
		assert_true(x->kernel[0] != '\0');
	}
	/* Memory on one core and on all: always (L1/L2/L3 only where sysfs lists the caches, the peaks where a flops
	 * kernel runs). */
	assert_int_equal(mem, 2);
	o.repeats = 0;
	assert_int_equal(pmc_rf_measure(&o, &c, err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_footprint_sizes_each_level_from_the_caches),
		cmocka_unit_test(test_ceilings_text_round_trips),
		cmocka_unit_test(test_ceilings_parse_rejects_malformed_files_naming_the_line),
		cmocka_unit_test(test_point_placed_memory_bound_below_the_ridge_injected),
		cmocka_unit_test(test_point_placed_compute_bound_above_the_ridge_injected),
		cmocka_unit_test(test_point_not_placed_keeps_the_reason),
		cmocka_unit_test(test_cache_stores_then_loads_only_its_own_fingerprint),
		cmocka_unit_test(test_cache_never_follows_a_link_nor_opens_a_fifo),
		cmocka_unit_test(test_cache_without_a_home_says_so),
		cmocka_unit_test(test_plot_svg_draws_every_roof_and_the_point_injected),
		cmocka_unit_test(test_points_per_level_each_under_its_own_ceiling_injected),
		cmocka_unit_test(test_points_output_matches_golden_files_injected),
		cmocka_unit_test(test_plot_svg_colours_points_by_level_and_joins_intervals_injected),
		cmocka_unit_test(test_measure_ceilings_for_real_with_their_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
