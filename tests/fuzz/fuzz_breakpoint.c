/* SPDX-License-Identifier: MIT */
/* Breakpoint specs (mem:ADDR[:r|w|rw|x][/LEN] and perf's mem:ADDR/LEN:access) on arbitrary bytes after "mem:":
 * they resolve to a PERF_TYPE_BREAKPOINT attr with a valid length and access type, or fail with a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "pmu/event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 5), buf[256];
	struct pmc_event ev;
	struct pmc_resolve_error err;

	if (!s)
		return 0;
	memcpy(s, "mem:", 4);
	memcpy(s + 4, data, size);
	s[size + 4] = '\0';
	memset(&err, 0, sizeof(err));
	if (pmc_event_resolve(s, &ev, &err) == 0) {
		if (ev.attr.type != PERF_TYPE_BREAKPOINT || !ev.attr.bp_type ||
		    (ev.attr.bp_type & ~(unsigned)(HW_BREAKPOINT_RW | HW_BREAKPOINT_X)) || !ev.attr.bp_len || ev.attr.bp_len > 8)
			abort();
		pmc_event_perf_spelling(&ev, buf, sizeof(buf));
	}
	free(s);
	return 0;
}
