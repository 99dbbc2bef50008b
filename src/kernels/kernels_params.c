/* SPDX-License-Identifier: MIT */
/* Kernel parameters (--param K=V), declared expectations, and the CPU feature check. */
#include "kernels/kernels.h"

#include "arch/arch.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define KEY_MAX 64
#define VALUE_MAX 64

void pmc_kernel_params_init(const struct pmc_kernel *k, struct pmc_kernel_params *p)
{
	memset(p, 0, sizeof(*p));
	p->k = k;
	for (size_t i = 0; i < k->nparams && i < PMC_KERNEL_MAX_PARAMS; i++)
		p->v[i] = k->params[i].dfl;
}

const char *pmc_kernel_format_value(const struct pmc_kernel_param_desc *d, uint64_t v, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB" };
	unsigned u = 0;

	if (d->kind == PMC_KPARAM_CHOICE) {
		snprintf(buf, len, "%s", d->choices[v]);
		return buf;
	}
	if (d->kind == PMC_KPARAM_BYTES) {
		while (u + 1 < PMC_ARRAY_SIZE(units) && v && v % 1024 == 0) {
			v /= 1024;
			u++;
		}
		if (u) {
			snprintf(buf, len, "%llu %s", (unsigned long long)v, units[u]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static void list_choices(const struct pmc_kernel_param_desc *d, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; d->choices[i] && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", d->choices[i]);
}

/* Integer with an optional binary suffix: 64K, 64KiB, 2M, 1G. */
static int parse_bytes(const char *s, uint64_t *ret)
{
	char num[VALUE_MAX + 1];
	size_t n = 0;
	uint64_t v, mult = 1;
	const char *suf;
	int rc;

	while (s[n] && (isxdigit((unsigned char)s[n]) || s[n] == 'x' || s[n] == 'X') && n < VALUE_MAX)
		n++;
	/* A hex number may end in b/B digits: only treat a trailing letter as a suffix for decimal input. */
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		suf = s + n;
	} else {
		n = 0;
		while (isdigit((unsigned char)s[n]) && n < VALUE_MAX)
			n++;
		suf = s + n;
	}
	if (n == 0)
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	rc = pmc_parse_u64(num, 0, UINT64_MAX, &v);
	if (rc)
		return rc;
	if (*suf) {
		switch (toupper((unsigned char)*suf)) {
		case 'K': mult = 1024; break;
		case 'M': mult = 1024 * 1024; break;
		case 'G': mult = 1024 * 1024 * 1024; break;
		case 'B': mult = 1; suf--; break;
		default: return -EINVAL;
		}
		suf++;
		if (!strcasecmp(suf, "iB"))
			suf += 2;
		else if (!strcasecmp(suf, "B"))
			suf++;
		if (*suf)
			return -EINVAL;
	}
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*ret = v * mult;
	return 0;
}

static int parse_value(const struct pmc_kernel_param_desc *d, const char *val, uint64_t *ret)
{
	int rc;

	switch (d->kind) {
	case PMC_KPARAM_CHOICE:
		for (size_t i = 0; d->choices[i]; i++)
			if (!strcasecmp(d->choices[i], val)) {
				*ret = i;
				return 0;
			}
		return -EINVAL;
	case PMC_KPARAM_BYTES:
		rc = parse_bytes(val, ret);
		break;
	default:
		rc = pmc_parse_u64(val, 0, UINT64_MAX, ret);
		break;
	}
	if (rc)
		return rc;
	return *ret < d->min || *ret > d->max ? -ERANGE : 0;
}

static void param_names(const struct pmc_kernel *k, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < k->nparams && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", k->params[i].name);
}

static int value_error(const struct pmc_kernel *k, const struct pmc_kernel_param_desc *d, const char *val, int rc,
		       char *err, size_t errlen)
{
	char lo[32], hi[32], list[128];

	if (d->kind == PMC_KPARAM_CHOICE) {
		list_choices(d, list, sizeof(list));
		snprintf(err, errlen, "kernel '%s': '%s' is not a value of %s: use one of %s", k->name, val, d->name,
			 list);
		return -EINVAL;
	}
	pmc_kernel_format_value(d, d->min, lo, sizeof(lo));
	pmc_kernel_format_value(d, d->max, hi, sizeof(hi));
	if (rc == -ERANGE)
		snprintf(err, errlen, "kernel '%s': %s=%s is out of range: use %s to %s", k->name, d->name, val, lo, hi);
	else
		snprintf(err, errlen, "kernel '%s': %s=%s is not %s: use %s to %s", k->name, d->name, val,
			 d->kind == PMC_KPARAM_BYTES ? "a byte count (e.g. 64K, 8M, 1G)" : "an integer", lo, hi);
	return rc == -ERANGE ? -ERANGE : -EINVAL;
}

int pmc_kernel_params_parse(const struct pmc_kernel *k, const char *kv, struct pmc_kernel_params *p, char *err,
			    size_t errlen)
{
	char key[KEY_MAX + 1], names[128];
	const char *eq, *val;
	uint64_t v;
	int rc;

	if (!k || !kv || !p || p->k != k) {
		snprintf(err, errlen, "internal: parameters not initialized for this kernel");
		return -EINVAL;
	}
	eq = strchr(kv, '=');
	if (!eq || eq == kv) {
		snprintf(err, errlen, "kernel '%s': '%.80s' is not KEY=VALUE", k->name, kv);
		return -EINVAL;
	}
	if (k->nparams == 0) {
		snprintf(err, errlen, "kernel '%s' takes no parameters (got '%.80s')", k->name, kv);
		return -EINVAL;
	}
	val = eq + 1;
	if ((size_t)(eq - kv) > KEY_MAX || strlen(val) > VALUE_MAX) {
		snprintf(err, errlen, "kernel '%s': parameter '%.40s...' is too long", k->name, kv);
		return -EINVAL;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	for (size_t i = 0; i < k->nparams; i++) {
		if (strcasecmp(k->params[i].name, key))
			continue;
		rc = parse_value(&k->params[i], val, &v);
		if (rc)
			return value_error(k, &k->params[i], val, rc, err, errlen);
		p->v[i] = v;
		return 0;
	}
	param_names(k, names, sizeof(names));
	snprintf(err, errlen, "kernel '%s' has no parameter '%s': its parameters are %s", k->name, key, names);
	return -EINVAL;
}

int pmc_kernel_params_format(const struct pmc_kernel_params *p, char *buf, size_t len)
{
	size_t off = 0;
	char v[48];
	int n;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < p->k->nparams; i++) {
		const struct pmc_kernel_param_desc *d = &p->k->params[i];
		if (d->kind == PMC_KPARAM_CHOICE)
			snprintf(v, sizeof(v), "%s", d->choices[p->v[i]]);
		else
			snprintf(v, sizeof(v), "%llu", (unsigned long long)p->v[i]);
		n = snprintf(buf + off, len - off, "%s%s=%s", i ? "," : "", d->name, v);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += (size_t)n;
	}
	return 0;
}

int pmc_kernel_param_get(const struct pmc_kernel_params *p, const char *name, uint64_t *ret)
{
	for (size_t i = 0; i < p->k->nparams; i++)
		if (!strcasecmp(p->k->params[i].name, name)) {
			*ret = p->v[i];
			return 0;
		}
	return -ENOENT;
}

void pmc_kernel_expect(const struct pmc_kernel *k, const struct pmc_kernel_params *p, struct pmc_kernel_expect *ret)
{
	memset(ret, 0, sizeof(*ret));
	k->expect(p, ret);
}

static const char *const kx_names[PMC_KX_COUNT] = {
	[PMC_KX_INSTRUCTIONS] = "EXPECTED_INSTRUCTIONS",
	[PMC_KX_BRANCHES] = "EXPECTED_BRANCHES",
	[PMC_KX_FLOPS_SP] = "EXPECTED_FLOPS_SP",
	[PMC_KX_FLOPS_DP] = "EXPECTED_FLOPS_DP",
	[PMC_KX_BYTES_LOADED] = "EXPECTED_BYTES_LOADED",
	[PMC_KX_BYTES_STORED] = "EXPECTED_BYTES_STORED",
};

static void put(struct pmc_named_value *ret, size_t max, size_t *n, const char *name, double v)
{
	if (*n < max) {
		snprintf(ret[*n].name, sizeof(ret[*n].name), "%s", name);
		ret[*n].value = v;
	}
	(*n)++;
}

int pmc_kernel_expectations(const struct pmc_kernel *k, const struct pmc_kernel_params *p, uint64_t iters,
			    struct pmc_named_value *ret, size_t max, size_t *ret_n)
{
	struct pmc_kernel_expect e;
	double total[PMC_KX_COUNT];
	size_t n = 0;

	pmc_kernel_expect(k, p, &e);
	/* double: totals of huge runs exceed 2^53 only past ~10^15 and are compared as ratios anyway. */
	for (int q = 0; q < PMC_KX_COUNT; q++)
		total[q] = (double)e.fixed[q] + (double)e.per_iter[q] * (double)iters;
	put(ret, max, &n, "ITERATIONS", (double)iters);
	for (int q = 0; q < PMC_KX_COUNT; q++) {
		if (!(e.declared & (1u << q)))
			continue;
		put(ret, max, &n, kx_names[q], total[q]);
		if (q == PMC_KX_FLOPS_DP || (q == PMC_KX_FLOPS_SP && !(e.declared & (1u << PMC_KX_FLOPS_DP))))
			put(ret, max, &n, "EXPECTED_FLOPS", total[PMC_KX_FLOPS_SP] + total[PMC_KX_FLOPS_DP]);
	}
	if (ret_n)
		*ret_n = n;
	return n > max ? -ENOSPC : 0;
}

uint64_t pmc_kernel_default_iters(const struct pmc_kernel *k, const struct pmc_kernel_params *p)
{
	uint64_t n = k->default_iters ? k->default_iters(p) : 1000000u;

	return n ? n : 1;
}

static const char *const isa_names[] = { "AVX", "AVX2", "FMA", "AVX-512F" };

const char *pmc_isa_names(unsigned isa, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < PMC_ARRAY_SIZE(isa_names) && off < len; i++)
		if (isa & (1u << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "", isa_names[i]);
	return buf;
}

unsigned pmc_isa_missing(unsigned isa)
{
	return isa & ~pmc_arch_isa_have();
}

int pmc_kernel_check_cpu(const struct pmc_kernel *k, char *err, size_t errlen)
{
	unsigned miss = pmc_isa_missing(k->isa);
	char names[64];

	if (!miss)
		return 0;
	snprintf(err, errlen, "kernel '%s' needs %s, which this CPU or OS does not support (see /proc/cpuinfo flags); "
		 "pick another kernel ('pmctool kernels' lists them)", k->name, pmc_isa_names(miss, names,
											  sizeof(names)));
	return -ENOTSUP;
}
