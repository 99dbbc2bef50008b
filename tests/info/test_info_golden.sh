#!/bin/bash
# pmctool info against fixture sysfs trees (PMCTOOL_SYSFS_ROOT) and forced libpfm4 PMUs (LIBPFM_FORCE_PMU): the parts
# of the text and of --json that do not depend on the host (libpfm4's section, the kernel PMUs, the JSON's keys in
# their order, every top-level member's name) are byte-identical to tests/info/golden/info-CASE.txt. The CPU's own
# lines come from the architecture (pmc_arch_describe; tests/arch/test_x86.c pins x86's from injected CPUID leaves).
# PMC_GOLDEN_UPDATE=1 rewrites the golden files instead (review the diff).
. "$PMC_SOURCE_DIR/tests/lib.sh"

golden=$PMC_SOURCE_DIR/tests/info/golden
mkdir -p "$TMP/empty"

# The host-independent parts of one `info` and one `info --json` run, with root as the sysfs root and pmu forced.
extract() {
	local root=$1 pmu=$2
	PMCTOOL_SYSFS_ROOT=$root LIBPFM_FORCE_PMU=$pmu "$PMCTOOL" info >"$TMP/text" 2>"$TMP/err" || true
	PMCTOOL_SYSFS_ROOT=$root LIBPFM_FORCE_PMU=$pmu "$PMCTOOL" info --json >"$TMP/json" 2>>"$TMP/err" || true
	[ ! -s "$TMP/err" ] || { cat "$TMP/err" >&2; fail "info with root $root, pmu $pmu wrote to stderr"; }
	echo "== text: section headers"
	grep -E '^[A-Za-z]' "$TMP/text" | sed -E 's/^(TSC|CNTVCT|clock)$/TIMER/; s/^hardware counting: .*/hardware counting: .../'
	echo "== text: libpfm4 and kernel PMUs"
	# libpfm4's version is the build's (the release it was linked with), not the fixture's: its words only
	sed -n '/^libpfm4$/,/^Permissions$/p' "$TMP/text" | grep -v '^Permissions$' | grep -v '^  user-space reads' |
		sed -E 's/^(  version          ).*/\1VERSION/'
	echo "== json"
	python3 - "$TMP/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("top-level:", " ".join(d))
print("cpu:", " ".join(d["cpu"]))
for k in ("cpuid_arch_perfmon", "amd_perfmon"):
    v = d[k]
    print(k + ":", "null" if v is None else " ".join(v))
# libpfm4's version and release are the build's: their presence and type only
for k in ("version", "release"):
    d["libpfm4"][k] = "(string)" if isinstance(d["libpfm4"][k], str) else d["libpfm4"][k]
d["libpfm4"]["release"] = "(string or null)"
for k in ("libpfm4", "kernel_pmus", "core_pmu", "rdpmc"):
    print(k + ":", json.dumps(d[k], sort_keys=False))
print("counters:", " ".join(d["counters"]), "| verdict:", " ".join(d["verdict"]))
PY
}

# The x86 leaves are objects on an x86 host with those leaves, null elsewhere: the golden names the keys of both.
normalize() {
	sed -E 's/^(cpuid_arch_perfmon|amd_perfmon): .*/\1: (object or null)/'
}

n=0
for c in "info-sysfs:$PMC_SOURCE_DIR/tests/info/sysfs:hsw" "pmu-sysfs:$PMC_SOURCE_DIR/tests/pmu/sysfs:skl" \
	"pmu-sysfs-amd:$PMC_SOURCE_DIR/tests/pmu/sysfs:amd64_fam19h_zen3" "empty:$TMP/empty:hsw"; do
	name=${c%%:*}
	rest=${c#*:}
	root=${rest%:*}
	pmu=${rest##*:}
	if LIBPFM_FORCE_PMU=$pmu "$PMCTOOL" info 2>&1 >/dev/null | grep -q "libpfm4 has no PMU named"; then
		echo "skip case $name: this libpfm4 has no table $pmu"
		continue
	fi
	extract "$root" "$pmu" | normalize >"$TMP/got-$name"
	if [ "${PMC_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$TMP/got-$name" "$golden/info-$name.txt"
		continue
	fi
	diff -u "$golden/info-$name.txt" "$TMP/got-$name" || fail "info ($name: sysfs $root, LIBPFM_FORCE_PMU=$pmu) differs from its golden file"
	n=$((n + 1))
done
ok "info text and --json: $n fixture case(s) byte-identical to their golden parts"
