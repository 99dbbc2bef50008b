/* SPDX-License-Identifier: MIT */
/*
 * How pmctool and a program with regions talk (shared by libpmctool and pmctool's collector).
 *
 * pmctool sets, for each run of each batch:
 *   PMCTOOL_REGIONS_EVENTS  the batch's events, already encoded: "@TYPE:CONFIG:CONFIG1:CONFIG2:BPTYPE:EXCL" per event
 *                           (hex fields; EXCL bit 0 exclude_user, 1 exclude_kernel, 2 exclude_hv), comma-separated.
 *                           A person may write generic perf names (instructions, cycles, page-faults, ...), raw codes
 *                           rHEX and breakpoints mem:ADDR[:r|w|rw|x] instead (standalone mode).
 *   PMCTOOL_REGIONS_FD      an inherited descriptor (a memfd opened with O_APPEND) for the results.
 * Standalone (no PMCTOOL_REGIONS_FD): PMCTOOL_REGIONS_OUT names the file the report is appended to (default stderr),
 * a path template as stat -o takes (%h host, %p pid, %r rank, %j job id, %% a '%'); a name ending in .json, or
 * PMCTOOL_REGIONS_FORMAT=json, makes it a pmctool stat report in JSON (written whole: a temporary file renamed).
 *
 * The results: each process that used the library appends one block with one write(2) at its exit:
 *   pmctool-regions 1
 *   process PID PPID EVENTS
 *   event I ERRNO USERONLY NAME            per event: 0 or the errno of the first failed open; 1 when user mode only
 *   region ID NAME
 *   thread ORDINAL TID EXITED INPROC SYSCALL UNMATCHED INVALID TOODEEP
 *   count ORDINAL REGION CALLS V0 V1 ...   V: the region's summed counts (- for an event not opened in that thread)
 *   top ORDINAL V0 V1 ...                  the sum over regions entered at depth 0
 *   cost ORDINAL V0 V1 ...                 an empty enter/leave pair as a region's own counts see it
 *   open ORDINAL REGION DEPTH              a region entered and not left when the thread or the process ended
 *   badnames N                             region names refused (too long, too many)
 *   end
 * Names run to the end of their line. A block without "end" was cut short (the process died in its write).
 * Before any block, each process appends one line at its first use of the library (one write(2)):
 *   started PID PPID
 * A started process with no block of its pid ended without exit() (_exit, a signal): its results are lost, and
 * pmctool says so (check regions-silent). Readers skip lines outside blocks they do not know.
 */
#ifndef PMC_REGIONS_CHANNEL_H
#define PMC_REGIONS_CHANNEL_H

#define PMC_RG_ENV_EVENTS "PMCTOOL_REGIONS_EVENTS"
#define PMC_RG_ENV_FD "PMCTOOL_REGIONS_FD"
#define PMC_RG_ENV_OUT "PMCTOOL_REGIONS_OUT"
#define PMC_RG_ENV_FORMAT "PMCTOOL_REGIONS_FORMAT"
#define PMC_RG_MAGIC "pmctool-regions 1"
#define PMC_RG_STARTED "started"
#define PMC_RG_NAME_MAX 63
/* The most calls one "count" line may give (2^53: a double holds every count up to it exactly; a region entered once
 * a nanosecond takes 104 days to reach it). A line beyond it is malformed and its block is left out. */
#define PMC_RG_CALLS_MAX (1ULL << 53)
#define PMC_RG_EV_MAX 16 /* events per batch a program counts (PMCTOOL_REGION_EVENTS_MAX) */

#endif
