/* SPDX-License-Identifier: MIT */
/* Opening an event into a perf group, shared by command mode (launch.c) and the scopes (scope.c). */
#ifndef PMC_RUN_GROUP_H
#define PMC_RUN_GROUP_H

#include "perf/perf.h"
#include "pmu/event.h"

/* Open ev led by group_fd (-1: alone); the fd or -errno, with how it was opened noted in c. */
typedef int (*pmc_group_open_fn)(const struct pmc_event *ev, int group_fd, struct pmc_count *c, void *ctx);

/*
 * Open ev into the group led by leader (alone when leader < 0). When the kernel refuses it in the group (EINVAL) the
 * event is tried alone: accepted alone, the combination is at fault, so it is closed again and 1 is returned (the
 * caller splits the batch); refused alone too, the encoding is, and its -errno is the answer. Otherwise the fd or
 * -errno of the open in the group.
 */
int pmc_group_open(pmc_group_open_fn open, void *ctx, const struct pmc_event *ev, int leader, struct pmc_count *c,
		   int *ret_fd);

#endif
