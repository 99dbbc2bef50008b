/* SPDX-License-Identifier: MIT */
/* pmctool encode's output, an event at a time: the text (attr fields, class, perf's spelling, and libpfm4's encoding
 * beside a vendor table's when they differ) or one JSON document (kind "encode": each event's encoding members, as
 * stat's). The format is chosen through the format table (format.h: encode_begin, encode_event, encode_end). */
#ifndef PMC_OUTPUT_ENCODE_H
#define PMC_OUTPUT_ENCODE_H

#include <stdio.h>

#include "output/output.h"

struct pmc_encode_out {
	FILE *f;
	const struct pmc_format *fmt;
	struct pmc_jw w; /* the JSON writer on f */
};

/* Begin the output to f in fmt (the table's text for a format without its own), then each event (libpfm: libpfm4's
 * own encoding of a vendor table's name when it differs, else NULL), then its end. */
void pmc_encode_write_begin(struct pmc_encode_out *o, FILE *f, enum pmc_output_format fmt);
void pmc_encode_write_event(struct pmc_encode_out *o, const struct pmc_event *ev, const struct pmc_event *libpfm);
void pmc_encode_write_end(struct pmc_encode_out *o);

/* The formats' writers (the format table's entries). */
void pmc_encode_table_event(struct pmc_encode_out *o, const struct pmc_event *ev, const struct pmc_event *libpfm);
void pmc_encode_json_begin(struct pmc_encode_out *o);
void pmc_encode_json_event(struct pmc_encode_out *o, const struct pmc_event *ev, const struct pmc_event *libpfm);
void pmc_encode_json_end(struct pmc_encode_out *o);

#endif
