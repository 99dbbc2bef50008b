/* SPDX-License-Identifier: MIT */
/* The events that count bytes moved to and from memory on this machine (the memory controllers' uncore PMUs), with
 * the bytes each count stands for and the CPUs they are opened on, or why there are none. */
#ifndef PMC_ROOFLINE_MEM_EVENTS_H
#define PMC_ROOFLINE_MEM_EVENTS_H

#include <stddef.h>

#define PMC_RF_MAX_MEM_EVENTS 64

struct pmc_rf_mem_events {
	struct {
		char name[96];          /* perf's spelling of one box's alias: "uncore_imc_0/cas_count_read/" */
		double bytes_per_count; /* the alias's .scale in its .unit, as bytes (64 for a CAS) */
	} ev[PMC_RF_MAX_MEM_EVENTS];
	size_t n;
	char pmu[64];                   /* the PMU family ("uncore_imc") */
	int cpus[64];                   /* its cpumask: the CPUs its events are opened on, system-wide */
	size_t ncpus;
	char why[256];                  /* n == 0: why */
};

/* Fill ret from the PMUs under <sysfs root>/bus/event_source/devices (pmu/uncore.h). */
void pmc_rf_mem_events(struct pmc_rf_mem_events *ret);

#endif
