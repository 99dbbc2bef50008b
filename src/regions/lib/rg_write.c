/* SPDX-License-Identifier: MIT */
/* The region library's results at exit: the block pmctool reads (channel.h) or, standalone, a report for a person.
 * Each process writes once (one write(2) of the whole text), so blocks of several processes never interleave. */
#include "regions/lib/rg_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch/arch.h"
#include "sys/fifo.h"
#include "sys/perf_fallback.h"
#include "sys/perf_reason.h"
#include "util/file_write.h"
#include "util/path_template.h"

/* Whether the kernel has a core PMU: a directory the kernel names for the CPU's cores (x86's cpu, cpu_core,
 * cpu_atom; arm64's armv8_pmuv3*) under /sys/bus/event_source/devices. */
static bool core_pmu_present(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		found = !strcmp(de->d_name, "cpu") || !strcmp(de->d_name, "cpu_core") || !strcmp(de->d_name, "cpu_atom") ||
			!strncmp(de->d_name, "armv8_pmuv3", 11);
	closedir(d);
	return found;
}

const char *pmc_rg_event_reason(int i, int err)
{
	unsigned type = pmc_rg.attr[i].type;
	int hardware = type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW;

	if ((err == EACCES || err == EPERM) && pmc_perf_kernel_side_only(&pmc_rg.attr[i]))
		return pmc_perf_kernel_side_reason(0);
	return pmc_perf_hw_reason(err, hardware, hardware && err == ENOENT && core_pmu_present());
}

static void put_values(FILE *f, const struct rg_thread *t, const uint64_t *v)
{
	for (int i = 0; i < t->nev; i++) {
		if (t->err[i])
			fputs(" -", f);
		else
			fprintf(f, " %llu", (unsigned long long)v[i]);
	}
	fputc('\n', f);
}

void pmc_rg_event_state(int i, int *ret_err, int *ret_user_only)
{
	*ret_err = 0;
	*ret_user_only = 0;
	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
		if (t->err[i] && !*ret_err)
			*ret_err = t->err[i];
		if (t->user_only[i])
			*ret_user_only = 1;
	}
}

static void read_totals(uint64_t *inproc, uint64_t *sys)
{
	*inproc = *sys = 0;
	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
		*inproc += pmc_rg_reads_inproc(t);
		*sys += t->reads_syscall;
	}
}

const char *pmc_rg_read_method_all(void)
{
	uint64_t inproc, sys;

	read_totals(&inproc, &sys);
	if (!inproc && !sys)
		return "none";
	return !sys ? "in process" : !inproc ? "read(2)" : "in process and read(2)";
}

static void channel_block(FILE *f)
{
	unsigned nreg = pmc_rg_nregions();

	fprintf(f, "%s\nprocess %d %d %d\n", PMC_RG_MAGIC, (int)getpid(), (int)getppid(), pmc_rg.nev);
	for (int i = 0; i < pmc_rg.nev; i++) {
		int err, uo;

		pmc_rg_event_state(i, &err, &uo);
		fprintf(f, "event %d %d %d %s\n", i, err, uo, pmc_rg.evname[i]);
	}
	for (unsigned r = 0; r < nreg; r++)
		fprintf(f, "region %u %s\n", r, pmc_rg_region_name(r));
	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
		bool exited = __atomic_load_n(&t->exited, __ATOMIC_ACQUIRE);
		uint64_t top[RG_EV];

		fprintf(f, "thread %u %d %d %llu %llu %llu %llu %llu %llu\n", t->ordinal, (int)t->tid, exited,
			(unsigned long long)pmc_rg_reads_inproc(t), (unsigned long long)t->reads_syscall,
			(unsigned long long)t->unmatched, (unsigned long long)t->invalid,
			(unsigned long long)t->deep_ignored,
			(unsigned long long)(t->refused + (t == pmc_rg_threads() ? pmc_rg_refused_early() : 0)));
		for (unsigned r = 0; r < nreg; r++) {
			uint64_t row[1 + RG_EV];

			pmc_rg_row(t, r, row);
			if (!row[0])
				continue;
			fprintf(f, "count %u %u %llu", t->ordinal, r, (unsigned long long)row[0]);
			put_values(f, t, row + 1);
		}
		pmc_rg_top(t, top);
		fprintf(f, "top %u", t->ordinal);
		put_values(f, t, top);
		fprintf(f, "cost %u", t->ordinal);
		put_values(f, t, t->cost);
		for (unsigned d = 0; d < pmc_rg_depth(t); d++)
			fprintf(f, "open %u %d %u\n", t->ordinal, RG_KEY_REGION(t->stack[d].key), d);
	}
	fprintf(f, "badnames %llu\nend\n", (unsigned long long)pmc_rg_bad_names());
}

/* Standalone: one table per process, a row per region per thread and one merged ("all"). */
static void person_report(FILE *f)
{
	unsigned nreg = pmc_rg_nregions();
	uint64_t inproc, sys, unmatched = 0, invalid = 0, deep = 0, refused = pmc_rg_refused_early();
	const char *how = PMC_ARCH_USER_READ_INSN;

	read_totals(&inproc, &sys);
	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
		unmatched += t->unmatched;
		invalid += t->invalid;
		deep += t->deep_ignored;
		refused += t->refused;
	}
	fprintf(f, "pmctool regions: pid %d, counters read %s\n", (int)getpid(),
		!inproc && !sys ? "never" : !sys ? (how ? how : "in process") : !inproc ? "with read(2)" : "in process and with read(2)");
	if (pmc_rg.setup_err[0])
		fprintf(f, "  not counting: %s\n", pmc_rg.setup_err);
	for (int i = 0; i < pmc_rg.nev; i++) {
		int err, uo;

		pmc_rg_event_state(i, &err, &uo);
		if (err)
			fprintf(f, "  %s: not counted: %s\n", pmc_rg.evname[i], pmc_rg_event_reason(i, err));
		else if (uo)
			fprintf(f, "  %s: user mode only (kernel.perf_event_paranoid)\n", pmc_rg.evname[i]);
	}
	fprintf(f, "%-24s %8s %12s", "region", "thread", "calls");
	for (int i = 0; i < pmc_rg.nev; i++)
		fprintf(f, " %18s", pmc_rg.evname[i]);
	fputc('\n', f);
	for (unsigned r = 0; r < nreg; r++) {
		uint64_t sum[1 + RG_EV];
		bool have[RG_EV];
		unsigned users = 0;

		for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
			uint64_t row[1 + RG_EV];

			pmc_rg_row(t, r, row);
			if (!row[0])
				continue;
			users++;
			fprintf(f, "%-24s %8u %12llu", pmc_rg_region_name(r), t->ordinal, (unsigned long long)row[0]);
			for (int i = 0; i < t->nev; i++) {
				/* An event the thread could not open has no count: "-", never 0. */
				if (t->err[i])
					fprintf(f, " %18s", "-");
				else
					fprintf(f, " %18llu", (unsigned long long)row[1 + i]);
			}
			fputc('\n', f);
		}
		if (users > 1) {
			pmc_rg_region_all(r, sum, have);
			fprintf(f, "%-24s %8s %12llu", pmc_rg_region_name(r), "all", (unsigned long long)sum[0]);
			for (int i = 0; i < pmc_rg.nev; i++) {
				if (have[i])
					fprintf(f, " %18llu", (unsigned long long)sum[1 + i]);
				else
					fprintf(f, " %18s", "-");
			}
			fputc('\n', f);
		}
	}
	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
		for (unsigned d = 0; d < pmc_rg_depth(t); d++)
			fprintf(f, "  warning: region %s entered and never left in thread %u (%s); that entry is not "
				"counted\n", pmc_rg_region_name((unsigned)RG_KEY_REGION(t->stack[d].key)), t->ordinal,
				__atomic_load_n(&t->exited, __ATOMIC_ACQUIRE) ? "the thread ended" : "the program ended");
	}
	if (unmatched)
		fprintf(f, "  warning: %llu leave%s matched no open region (ignored)\n", (unsigned long long)unmatched,
			unmatched == 1 ? "" : "s");
	if (deep)
		fprintf(f, "  warning: %llu enter%s beyond %d open regions in one thread ignored (with their leaves)\n",
			(unsigned long long)deep, deep == 1 ? "" : "s", PMCTOOL_REGION_DEPTH_MAX);
	if (invalid || pmc_rg_bad_names())
		fprintf(f, "  warning: %llu region name%s refused (empty, over %d bytes, or over %d regions); "
			"%llu enter/leave of an invalid handle ignored\n", (unsigned long long)pmc_rg_bad_names(),
			pmc_rg_bad_names() == 1 ? "" : "s", PMCTOOL_REGION_NAME_MAX, PMCTOOL_REGIONS_MAX,
			(unsigned long long)invalid);
	if (refused)
		fprintf(f, "  warning: %llu enter/leave%s refused: they interrupted the library itself (a signal handler's) "
			"or came after their thread ended; not counted (pmctool-regions(7))\n", (unsigned long long)refused,
			refused == 1 ? "" : "s");
	if (pmc_rg_threads()) {
		const struct rg_thread *t = pmc_rg_threads();

		fprintf(f, "  an empty enter/leave pair counts:");
		for (int i = 0; i < t->nev; i++)
			if (!t->err[i])
				fprintf(f, " %s %llu", pmc_rg.evname[i], (unsigned long long)t->cost[i]);
		fputc('\n', f);
	}
}

/* PMCTOOL_REGIONS_OUT expanded for this process (its pid now: a forked child writes its own). 0 or -EINVAL with why
 * in err. */
static int out_expand(char *path, size_t len, char *err, size_t errlen)
{
	struct pmc_origin o;

	pmc_origin_get(&o);
	return pmc_path_template(pmc_rg.out_path, &o, path, len, err, errlen);
}

void pmc_rg_setup_out(const char *out, const char *format)
{
	char path[sizeof(pmc_rg.out_path)], err[256];
	size_t n;

	snprintf(pmc_rg.out_path, sizeof(pmc_rg.out_path), "%s", out ? out : "");
	n = strlen(pmc_rg.out_path);
	pmc_rg.json = n > 5 && !strcmp(pmc_rg.out_path + n - 5, ".json");
	if (format && !strcmp(format, "json"))
		pmc_rg.json = true;
	else if (format && !strcmp(format, "text"))
		pmc_rg.json = false;
	else if (format && *format)
		fprintf(stderr, "pmctool regions: %s='%s' is not a format (json or text); the report is %s\n",
			PMC_RG_ENV_FORMAT, format, pmc_rg.json ? "JSON" : "text");
	if (n && out_expand(path, sizeof(path), err, sizeof(err))) {
		/* For a person then (JSON only when asked for by name), as without PMCTOOL_REGIONS_OUT. */
		pmc_rg.out_bad = true;
		pmc_rg.json = format && !strcmp(format, "json");
		fprintf(stderr, "pmctool regions: %s='%s': %s; the region report will go to stderr\n", PMC_RG_ENV_OUT,
			pmc_rg.out_path, err);
	}
}

/* Text: appended with one write(2), so the reports of several processes in one file never interleave. */
static int write_appended(const char *path, const char *buf, size_t len)
{
	int fd = pmc_open_unblocked(path, O_WRONLY | O_CREAT | O_APPEND, 0644), r;

	if (fd < 0)
		return fd;
	r = pmc_write_all(fd, buf, len);
	if (close(fd) && !r)
		r = -errno;
	return r;
}

/* JSON: a whole document or none. A regular file (or none yet) gets a temporary file beside it renamed over it, as
 * stat -o does; anything else (a FIFO, /dev/stdout) is written through. */
static int write_whole(const char *path, const char *buf, size_t len)
{
	struct stat st;
	bool exists = stat(path, &st) == 0;
	int fd, r;

	if (!exists || S_ISREG(st.st_mode))
		return pmc_write_renamed(path, exists ? &st : NULL, buf, len);
	if ((fd = pmc_open_unblocked(path, O_WRONLY, 0)) < 0)
		return fd;
	r = pmc_write_all(fd, buf, len);
	return close(fd) && !r ? -errno : r;
}

static int write_standalone(const char *buf, size_t len)
{
	char path[sizeof(pmc_rg.out_path)], err[256];
	int r;

	if (!pmc_rg.out_path[0] || pmc_rg.out_bad)
		return pmc_write_all(STDERR_FILENO, buf, len);
	if (out_expand(path, sizeof(path), err, sizeof(err))) {
		fprintf(stderr, "pmctool regions: %s='%s': %s; the report follows on stderr\n", PMC_RG_ENV_OUT,
			pmc_rg.out_path, err);
		return pmc_write_all(STDERR_FILENO, buf, len);
	}
	r = pmc_rg.json ? write_whole(path, buf, len) : write_appended(path, buf, len);
	if (r) {
		fprintf(stderr, "pmctool regions: cannot write the report to %s: %s; it follows on stderr\n", path,
			r == -ENXIO ? "no process has the FIFO open for reading" : strerror(-r));
		r = pmc_write_all(STDERR_FILENO, buf, len);
	}
	return r;
}

int pmc_rg_write(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f)
		return -ENOMEM;
	if (pmc_rg.mode == RG_PMCTOOL)
		channel_block(f);
	else if (pmc_rg.json)
		pmc_rg_json_report(f);
	else
		person_report(f);
	if (fclose(f)) {
		free(buf);
		return -ENOMEM;
	}
	r = pmc_rg.mode == RG_PMCTOOL ? pmc_write_all(pmc_rg.chan_fd, buf, len) : write_standalone(buf, len);
	free(buf);
	return r;
}
