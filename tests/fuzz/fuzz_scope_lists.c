/* SPDX-License-Identifier: MIT */
/* The lists stat's scope options take, on arbitrary bytes: the first byte picks the parser (-p/-t ids, -C CPUs,
 * --control), the rest is the text. Each must return 0, -EINVAL or -ERANGE (a number too large to be a CPU), never read past the text, and hand its callback
 * only what the text says (ids > 0, CPUs in ascending ranges). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sys/lists.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	long last;
	unsigned n;
};

static int take_id(long id, void *ctx)
{
	struct seen *s = ctx;

	if (id <= 0)
		abort();
	s->n++;
	return s->n > 100000 ? -E2BIG : 0;
}

static int take_cpu(long cpu, void *ctx)
{
	struct seen *s = ctx;

	if (cpu < 0)
		abort();
	s->last = cpu;
	s->n++;
	return s->n > 100000 ? -E2BIG : 0; /* "0-99999999" would take long: a real caller stops at the first offline */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, ctl[64], ack[64];
	struct seen s = { -1, 0 };
	bool is_fd;
	int r;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0:
		r = pmc_parse_id_list(text, take_id, &s);
		break;
	case 1:
		r = pmc_parse_cpu_list(text, take_cpu, &s);
		break;
	default:
		r = pmc_parse_control(text, ctl, sizeof(ctl), ack, sizeof(ack), &is_fd);
		if (r == 0 && (!ctl[0] || strlen(ctl) >= sizeof(ctl) || strlen(ack) >= sizeof(ack)))
			abort();
		break;
	}
	if (r != 0 && r != -EINVAL && r != -E2BIG && r != -ERANGE)
		abort();
	free(text);
	return 0;
}
