/* SPDX-License-Identifier: MIT */
/* pmctool kernels: the built-in kernels, their parameters and what one iteration executes. */
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "kernels/kernels.h"
#include "util/util.h"

#define MAX_PARAMS 16

struct kernels_cli {
	const char *params[MAX_PARAMS];
	size_t nparams;
	bool names;
};

static int add_param(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct kernels_cli *o = ctx;

	(void)opt;
	if (o->nparams == MAX_PARAMS) {
		fprintf(stderr, "pmctool kernels: at most %d --param options\n", MAX_PARAMS);
		return PMC_EXIT_USAGE;
	}
	o->params[o->nparams++] = val;
	return 0;
}

static const struct pmc_opt kernels_opts[] = {
	{ .long_name = "names", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct kernels_cli, names),
	  .help = "print only the kernel names, one per line" },
	{ .short_name = 'p', .long_name = "param", .kind = PMC_OPT_LIST, .metavar = "KEY=VALUE", .apply = add_param,
	  .help = "show the counts for this parameter value (needs exactly one NAME)" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static int kernels_bad_option(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	(void)missing; /* getopt said which */
	pmc_opts_suggest(cmd, arg);
	pmc_opts_help(cmd, stderr);
	return PMC_EXIT_USAGE;
}

const struct pmc_opts_cmd pmc_opts_kernels = {
	.name = "kernels",
	.opts = kernels_opts,
	.usage = "Usage: pmctool kernels [--names] [--param KEY=VALUE]... [NAME...]\n\n"
		 "List the built-in kernels that 'pmctool stat -k NAME' runs in-process: what each executes per\n"
		 "iteration (instructions, branches, FLOPs by precision and width, bytes loaded and stored), its\n"
		 "parameters with defaults and limits, and the instruction-set extensions it needs.\n\n"
		 "Options:\n",
	.epilogue = "\nCounts marked 'exact' are those of hand-written assembly (checked with valgrind); C kernels declare\n"
		    "FLOPs and bytes only. See pmctool-kernels(1).\n",
	.col = 23,
	.getopt_messages = true,
	.bad_option = kernels_bad_option,
};

static void print_counts(const struct pmc_kernel_expect *e, const uint64_t *v)
{
	static const char *const names[PMC_KX_COUNT] = { "instructions", "branches", "SP FLOPs", "DP FLOPs",
							 "bytes loaded", "bytes stored" };
	bool first = true;

	for (int q = 0; q < PMC_KX_COUNT; q++) {
		if (!(e->declared & (1u << q)))
			continue;
		printf("%s%llu %s", first ? "" : ", ", (unsigned long long)v[q], names[q]);
		first = false;
	}
	if (!(e->declared & (1u << PMC_KX_INSTRUCTIONS)))
		printf("%sinstructions not declared (compiled C)", first ? "" : "; ");
	printf("\n");
}

static void print_kernel(const struct pmc_kernel *k, const struct pmc_kernel_params *p)
{
	static const char *const widths[] = { "", "scalar", "128-bit", "256-bit", "512-bit" };
	struct pmc_kernel_expect e;
	char buf[64], lo[32], hi[32];

	pmc_kernel_expect(k, p, &e);
	printf("%s\n  %s\n", k->name, k->desc);
	printf("  needs: %s\n", k->isa ? pmc_isa_names(k->isa, buf, sizeof(buf)) : pmc_arch_isa_baseline());
	if (k->width != PMC_WIDTH_NONE)
		printf("  FLOP width: %s\n", widths[k->width]);
	else if (e.declared & (1u << PMC_KX_FLOPS_SP | 1u << PMC_KX_FLOPS_DP))
		printf("  FLOP width: the compiler's choice (C kernel)\n");
	printf("  per iteration%s: ", k->assembly ? " (exact)" : "");
	print_counts(&e, e.per_iter);
	if (k->assembly) {
		printf("  fixed per call: ");
		print_counts(&e, e.fixed);
	}
	printf("  default iterations: %llu\n", (unsigned long long)pmc_kernel_default_iters(k, p));
	for (size_t i = 0; i < k->nparams; i++) {
		const struct pmc_kernel_param_desc *d = &k->params[i];
		printf("  --param %s=", d->name);
		if (d->kind == PMC_KPARAM_CHOICE) {
			for (size_t c = 0; d->choices[c]; c++)
				printf("%s%s", c ? "|" : "", d->choices[c]);
		} else {
			printf("%s..%s", pmc_kernel_format_value(d, d->min, lo, sizeof(lo)),
			       pmc_kernel_format_value(d, d->max, hi, sizeof(hi)));
		}
		printf(" (now %s): %s\n", pmc_kernel_format_value(d, p->v[i], buf, sizeof(buf)), d->desc);
	}
}

static const struct pmc_kernel *find_or_complain(const char *name)
{
	const struct pmc_kernel *k = pmc_kernel_find(name);
	const char *near;

	if (k)
		return k;
	near = pmc_kernel_suggest(name);
	fprintf(stderr, "pmctool kernels: '%s' is not a kernel%s%s%s; 'pmctool kernels --names' lists them\n", name,
		near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	return NULL;
}

int pmc_cmd_kernels(int argc, char **argv)
{
	struct kernels_cli o = { .nparams = 0 };
	const char **params = o.params;
	int first, rc;

	rc = pmc_opts_parse(&pmc_opts_kernels, argc, argv, &o, &first);
	if (rc)
		return rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
	if (o.names) {
		for (size_t i = 0; i < pmc_kernel_count(); i++)
			printf("%s\n", pmc_kernel_at(i)->name);
		return PMC_EXIT_OK;
	}
	if (o.nparams && argc - first != 1) {
		fprintf(stderr, "pmctool kernels: --param needs exactly one kernel NAME\n");
		return PMC_EXIT_USAGE;
	}
	for (int i = first; i < argc; i++)
		if (!find_or_complain(argv[i]))
			return PMC_EXIT_USAGE;
	for (size_t i = 0; i < pmc_kernel_count(); i++) {
		const struct pmc_kernel *k = pmc_kernel_at(i);
		struct pmc_kernel_params p;
		bool wanted = first == argc;
		char err[256];

		for (int a = first; a < argc; a++)
			wanted |= !strcmp(argv[a], k->name);
		if (!wanted)
			continue;
		pmc_kernel_params_init(k, &p);
		for (size_t j = 0; j < o.nparams; j++)
			if (pmc_kernel_params_parse(k, params[j], &p, err, sizeof(err))) {
				fprintf(stderr, "pmctool kernels: %s\n", err);
				return PMC_EXIT_USAGE;
			}
		print_kernel(k, &p);
	}
	return PMC_EXIT_OK;
}
