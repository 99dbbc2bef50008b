/* SPDX-License-Identifier: MIT */
/* The region library's names: registered once per process (a lock only for a new name), looked up without a lock
 * (names below the published count never change), a handle is the name's number. */
#include "regions/lib/rg_internal.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static char names[PMCTOOL_REGIONS_MAX][PMCTOOL_REGION_NAME_MAX + 1];
static unsigned nnames;                  /* published with release: names below it never change */
static uint64_t bad_names;

int pmc_rg_lookup(const char *name)
{
	unsigned n = __atomic_load_n(&nnames, __ATOMIC_ACQUIRE);

	for (unsigned i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

pmctool_region_t pmctool_region(const char *name)
{
	int r;

	if (!name || !*name || strlen(name) > PMCTOOL_REGION_NAME_MAX || strchr(name, '\n')) {
		__atomic_fetch_add(&bad_names, 1, __ATOMIC_RELAXED);
		return PMCTOOL_REGION_INVALID;
	}
	r = pmc_rg_lookup(name);
	if (r >= 0)
		return r;
	pthread_mutex_lock(&names_lock);
	r = pmc_rg_lookup(name);
	if (r < 0 && nnames < PMCTOOL_REGIONS_MAX) {
		strcpy(names[nnames], name);
		r = (int)nnames;
		__atomic_store_n(&nnames, nnames + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&names_lock);
	if (r < 0)
		__atomic_fetch_add(&bad_names, 1, __ATOMIC_RELAXED);
	return r;
}

unsigned pmc_rg_nregions(void)
{
	return __atomic_load_n(&nnames, __ATOMIC_ACQUIRE);
}

const char *pmc_rg_region_name(unsigned id)
{
	return names[id];
}

uint64_t pmc_rg_bad_names(void)
{
	return __atomic_load_n(&bad_names, __ATOMIC_RELAXED);
}

void pmc_rg_names_after_fork(void)
{
	pthread_mutex_init(&names_lock, NULL); /* another thread of the parent may have held it */
}
