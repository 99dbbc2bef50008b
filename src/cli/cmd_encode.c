/* SPDX-License-Identifier: MIT */
/* pmctool encode: event names -> perf_event_attr; pmctool decode: raw codes -> libpfm4 event names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "pmu/event.h"
#include "pmu/uncore.h"
#include "tables/tables.h"
#include "util/util.h"
#include "output/encode.h"

struct encode_cli {
	const char *pmu, *config1, *tables;
	bool json;
};

static const struct pmc_opt encode_opts[] = {
	{ .long_name = "pmu", .kind = PMC_OPT_VALUE, .metavar = "NAME", .field = PMC_OPT_FIELD(struct encode_cli, pmu),
	  .help = "resolve names as on PMU NAME (hsw, skl, amd64_fam19h_zen3...), also when NAME is not\n"
		  "this machine's: a core PMU as LIBPFM_FORCE_PMU=NAME (its vendor tables first, every\n"
		  "spelling), another PMU's libpfm4 names in NAME only" },
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct encode_cli, json),
	  .help = "one JSON array of objects instead of text" },
	{ .long_name = "tables", .kind = PMC_OPT_VALUE, .metavar = "DIR", .field = PMC_OPT_FIELD(struct encode_cli, tables),
	  .help = "look vendor table names up in DIR first (see pmctool-tables(1))" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this help" },
	{ .kind = PMC_OPT_END },
};

const struct pmc_opts_cmd pmc_opts_encode = {
	.name = "encode",
	.opts = encode_opts,
	.usage = "Usage: pmctool encode [--pmu NAME] [--json] [--tables DIR] EVENT...\n\n"
		 "Show how each EVENT is encoded for perf_event_open: libpfm4's fully qualified name, the attr fields\n"
		 "(type, config, config1, config2, exclude_user/kernel/hv), the counter class, and perf's spelling of the\n"
		 "event, which can be pasted into 'perf stat -e' (a raw event in the core PMU's own terms: cpu/event=../ on\n"
		 "x86, armv8_pmuv3_0/event=../ on arm64; rNN where sysfs has no core PMU).\n\n"
		 "EVENT spellings: generic (cycles, task-clock), vendor table names (ocr.demand_data_rd.any_response,\n"
		 "cpu/uops_issued.any/: pmctool-tables(1)), libpfm4 ([pmu::]EVENT[:UMASK][:mod=val]), test-bench\n"
		 "(uops_issued.any>=2), sysfs (msr/tsc/, cpu/event=0x0e,umask=0x01/), raw (r53010e), breakpoint\n"
		 "(mem:ADDR[:r|w|rw|x][/LEN]); generic, raw and sysfs events take :u / :k.\n\n"
		 "Options:\n",
	.epilogue = "\nExit status: 0 all encoded, 2 a bad option or an event that does not resolve (named on stderr).\n",
	.col = 16,
};

static const struct pmc_opt decode_opts[] = {
	{ .long_name = "pmu", .kind = PMC_OPT_VALUE, .metavar = "NAME", .field = PMC_OPT_FIELD(struct encode_cli, pmu),
	  .help = "search libpfm4 PMU NAME (default: this machine's core PMU, or LIBPFM_FORCE_PMU's)" },
	{ .long_name = "config1", .kind = PMC_OPT_VALUE, .metavar = "HEX",
	  .field = PMC_OPT_FIELD(struct encode_cli, config1),
	  .help = "the attr's config1 (FRONTEND_RETIRED's frontend, OFFCORE_RESPONSE's offcore_rsp, ldlat)" },
	{ .long_name = "tables", .kind = PMC_OPT_VALUE, .metavar = "DIR", .field = PMC_OPT_FIELD(struct encode_cli, tables),
	  .help = "read the vendor tables of DIR first: their names of the code come first" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this help" },
	{ .kind = PMC_OPT_END },
};

const struct pmc_opts_cmd pmc_opts_decode = {
	.name = "decode",
	.opts = decode_opts,
	.usage = "Usage: pmctool decode [--pmu NAME] [--config1 HEX] rHEX|cpu/event=0x..,umask=0x..[,cmask=N][,inv][,edge]\n"
		 "                      [,any][,frontend=0x..|,offcore_rsp=0x..|,ldlat=N|,config1=0x..]/\n\n"
		 "List the libpfm4 event names (with the modifiers c=, i, e, t, u, k, ldlat=, fe_thres= they need) that\n"
		 "encode to the given raw code, by encoding every event and umask of the PMU and comparing. With config1\n"
		 "(--config1, or the frontend=, offcore_rsp=, ldlat= or config1= term) only the names that also encode that\n"
		 "config1 (an offcore event's umasks combined, up to 4); without it, a name that needs a config1 says which.\n"
		 "The vendor tables matched for this CPU (pmctool-tables(1)) give their names of the code first, with\n"
		 "the table file.\n\n"
		 "Options:\n",
	.epilogue = "\nExit status: 0 names found, 1 no event encodes to that code, 2 bad input.\n",
	.col = 17,
};

/* Parses options; returns the index of the first operand, or -1 (usage error) / -2 (help printed). */
static int parse_opts(const struct pmc_opts_cmd *cmd, int argc, char **argv, struct encode_cli *o)
{
	int first, rc = pmc_opts_parse(cmd, argc, argv, o, &first);

	if (rc)
		return rc == PMC_OPTS_HELP ? -2 : -1;
	if (first >= argc) {
		fprintf(stderr, "pmctool %s: no event given; run 'pmctool %s --help'\n", argv[0], argv[0]);
		return -1;
	}
	return first;
}

static bool pmu_forced; /* --pmu named a core PMU taken as LIBPFM_FORCE_PMU (pmc_pmu_force_core) */

static int init_pmu(const char *cmd, const char *pmu)
{
	char msg[512];

	/* --pmu skl resolves a name as LIBPFM_FORCE_PMU=skl does: skl's vendor tables first, every spelling */
	pmu_forced = pmu && pmc_pmu_force_core(pmu);
	/* lets --pmu name a PMU this machine does not have: encodings do not need the hardware */
	if (pmu)
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 0);
	if (pmc_pmu_init(msg, sizeof(msg))) {
		fprintf(stderr, "pmctool %s: %s\n", cmd, msg);
		return PMC_EXIT_INTERNAL;
	}
	/* under LIBPFM_FORCE_PMU libpfm4 lists only the forced table: other names are left to the encoder */
	if (pmu && !getenv("LIBPFM_FORCE_PMU") && pmc_pmu_name_check(pmu, msg, sizeof(msg))) {
		fprintf(stderr, "pmctool %s: --pmu: %s\n", cmd, msg);
		return PMC_EXIT_USAGE;
	}
	return 0;
}

/* With --pmu, libpfm4-style names are looked up as NAME::spec; other spellings resolve as written. */
static int resolve_in(const char *spec, const char *pmu, struct pmc_event *ev, struct pmc_resolve_error *err)
{
	char buf[PMC_NAME_MAX + 64];
	struct pmc_resolve_error err2;
	const char *s = spec[0] == '*' ? spec + 1 : spec;

	if (!pmu || strstr(spec, "::") || strchr(spec, '/') || !strncasecmp(spec, "mem:", 4))
		return pmc_event_resolve(spec, ev, err);
	snprintf(buf, sizeof(buf), "%s%s::%s", spec[0] == '*' ? "*" : "", pmu, s);
	/* a core PMU as LIBPFM_FORCE_PMU: the plain spelling first (tables, libpfm4, perf's names), then PMU::spec; the
	 * plain spelling's reason is kept unless the name is simply unknown (then the PMU searched is named below) */
	if (pmu_forced && !pmc_event_resolve(spec, ev, err))
		return 0;
	if (pmu_forced && err->code != PMC_RESOLVE_UNKNOWN) {
		if (pmc_event_resolve(buf, ev, &err2))
			return -ENOENT;
		snprintf(ev->name, sizeof(ev->name), "%s", spec);
		return 0;
	}
	if (!pmc_event_resolve(buf, ev, err)) {
		snprintf(ev->name, sizeof(ev->name), "%s", spec);
		return 0;
	}
	/* generic names and raw codes belong to no libpfm4 PMU */
	if (!pmc_event_resolve(spec, ev, &err2) && !strstr(ev->canonical, "::"))
		return 0;
	if (err->code == PMC_RESOLVE_UNKNOWN) {
		/* say which PMU was searched; keep only suggestions from that PMU (another PMU's spelling of the same
		 * name would be suggested back otherwise) */
		size_t n = (size_t)snprintf(err->msg, sizeof(err->msg), "'%s' is not an event of PMU %s; 'pmctool list "
					    "--pmu %s' lists that PMU's events", spec, pmu, pmu);
		int k = 0;

		for (int i = 0; i < err->nsuggest; i++)
			if (!strncasecmp(err->suggest[i], pmu, strlen(pmu)) && n < sizeof(err->msg))
				n += (size_t)snprintf(err->msg + n, sizeof(err->msg) - n, "%s'%s'", k++ ? ", " :
						      "; did you mean ", err->suggest[i]);
	}
	return -ENOENT;
}

/* An uncore family's spelling (uncore_imc/cas_count_read/) or a table's uncore name (unc_m_cas_count.rd): the
 * encoding of its first box, which every box of the family opens; the canonical name is the family's spelling. */
static int resolve_uncore(const char *spec, struct pmc_event *ev)
{
	char fam[PMC_UNCORE_SPEC_MAX];
	int r = pmc_uncore_resolve(spec, ev, fam, sizeof(fam));

	if (r < 0)
		return r;
	if (r == 1)
		snprintf(ev->canonical, sizeof(ev->canonical), "%s", fam); /* opened once per box of the family */
	snprintf(ev->name, sizeof(ev->name), "%s", spec);
	return 0;
}

/* A name a vendor table encodes: libpfm4's encoding of it into *alt when libpfm4 knows the name and differs. */
static bool libpfm_differs(const struct pmc_event *ev, const char *spec, struct pmc_event *alt)
{
	if (!ev->source || pmc_event_libpfm_only(spec, alt))
		return false;
	return alt->attr.config != ev->attr.config || alt->attr.config1 != ev->attr.config1;
}

static void report_error(const char *cmd, const struct pmc_resolve_error *err)
{
	fprintf(stderr, "pmctool %s: %s\n", cmd, err->msg);
}

int pmc_cmd_encode(int argc, char **argv)
{
	struct encode_cli o = { 0 };
	int first = parse_opts(&pmc_opts_encode, argc, argv, &o);
	const char *pmu = o.pmu;
	int status = PMC_EXIT_OK;
	struct pmc_encode_out out;

	if (first < 0)
		return first == -2 ? PMC_EXIT_OK : PMC_EXIT_USAGE;
	if (o.tables)
		pmc_pmu_tables_dir(o.tables);
	if ((status = init_pmu(argv[0], pmu)))
		return status;
	pmc_encode_write_begin(&out, stdout, o.json ? PMC_OUTPUT_JSON : PMC_OUTPUT_TABLE);
	for (int i = first; i < argc; i++) {
		struct pmc_event ev, alt;
		struct pmc_resolve_error err;

		if (resolve_in(argv[i], pmu, &ev, &err) && resolve_uncore(argv[i], &ev)) {
			report_error(argv[0], &err);
			status = PMC_EXIT_USAGE;
			continue;
		}
		pmc_encode_write_event(&out, &ev, libpfm_differs(&ev, argv[i], &alt) ? &alt : NULL);
	}
	pmc_encode_write_end(&out);
	pmc_pmu_fini();
	return status;
}

static int print_name(const char *name, void *ctx)
{
	(void)ctx;
	printf("%s\n", name);
	return 0;
}

/* The vendor tables' names of config (the privilege bits aside) and, when exact1, config1: printed with their file.
 * The number printed. */
static int table_names(uint64_t config, uint64_t config1, bool exact1)
{
	const uint64_t plm = (1ull << 16) | (1ull << 17);
	const struct pmc_table_event *te;
	size_t n = pmc_tables_events(pmc_pmu_tables(), &te);
	int found = 0;

	for (size_t i = 0; i < n; i++)
		if ((te[i].config & ~plm) == (config & ~plm) && (!exact1 || te[i].config1 == config1)) {
			printf("%s (vendor table %s%s)\n", te[i].name, te[i].source,
			       !exact1 && te[i].config1 ? ", with its config1" : "");
			found++;
		}
	return found;
}

int pmc_cmd_decode(int argc, char **argv)
{
	struct encode_cli o = { 0 };
	int first = parse_opts(&pmc_opts_decode, argc, argv, &o);
	const char *pmu = o.pmu, *config1_arg = o.config1;
	struct pmc_resolve_error err;
	struct pmc_event ev;
	uint64_t config, config1;
	int n, ntab, status = PMC_EXIT_OK;

	if (first < 0)
		return first == -2 ? PMC_EXIT_OK : PMC_EXIT_USAGE;
	if (first + 1 != argc) {
		fprintf(stderr, "pmctool decode: give exactly one raw code (rHEX or cpu/event=..,umask=../)\n");
		return PMC_EXIT_USAGE;
	}
	if (o.tables)
		pmc_pmu_tables_dir(o.tables);
	if ((status = init_pmu(argv[0], pmu)))
		return status;
	if (pmc_event_resolve(argv[first], &ev, &err)) {
		report_error(argv[0], &err);
		status = PMC_EXIT_USAGE;
		goto out;
	}
	if (ev.attr.type != PERF_TYPE_RAW || ev.attr.config2) {
		fprintf(stderr, "pmctool decode: '%s' is not a raw core event: give rHEX or cpu/event=..,umask=../\n",
			argv[first]);
		status = PMC_EXIT_USAGE;
		goto out;
	}
	config1 = ev.attr.config1;
	if (config1_arg && (pmc_parse_u64(config1_arg, 0, UINT64_MAX, &config1) || (ev.attr.config1 &&
									       config1 != ev.attr.config1))) {
		fprintf(stderr, "pmctool decode: --config1 '%s': give one number (0x-hex or decimal)%s\n", config1_arg,
			ev.attr.config1 ? ", the same as the event's own config1 term" : "");
		status = PMC_EXIT_USAGE;
		goto out;
	}
	/* hand the privilege levels back as the USR/OS bits the decoder turns into :u / :k */
	config = ev.attr.config | (ev.attr.exclude_user ? 0 : 1ull << 16) | (ev.attr.exclude_kernel ? 0 : 1ull << 17);
	ntab = pmu ? 0 : table_names(ev.attr.config, config1, config1_arg || config1);
	n = pmc_event_decode_config1(config, config1, config1_arg || config1, pmu, print_name, NULL);
	if (ntab && n <= 0) {
		status = PMC_EXIT_OK;
	} else if (n == -ENODEV || n == -ENOENT) {
		fprintf(stderr, "pmctool decode: %s: libpfm4 has no such PMU here; name one with --pmu (hsw, skl, "
			"amd64_fam19h_zen3...)\n", pmu ? pmu : "no core PMU is active");
		status = PMC_EXIT_USAGE;
	} else if (n == 0) {
		uint64_t c = ev.attr.config;

		fprintf(stderr, "pmctool decode: no %s event encodes to %#llx%s ('%s')%s\n",
			pmu ? pmu : pmc_pmu_core_name(), (unsigned long long)c, config1 ? " with that config1" : "",
			argv[first],
			(c & (1ull << 18)) && !((c >> 24) & 0xff) ?
			": it sets edge detect (bit 18) with no counter mask, which libpfm4 never encodes (edge counts "
			"the starts of cycles with at least cmask events, so it needs cmask >= 1, :c=1)" : "");
		status = 1;
	}
out:
	pmc_pmu_fini();
	return status;
}
