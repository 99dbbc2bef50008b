#!/bin/bash
# pmctool kernels: the listing, --names, --param, and the errors for a bad kernel name or parameter.
. "$PMC_SOURCE_DIR/tests/lib.sh"

run_pmc kernels
expect_rc 0 "kernels"
expect_out '^fma$' "fma listed"
# The assembly kernels are the running architecture's: 8-lane ymm FMAs on x86-64, 4-lane NEON on AArch64.
case $(uname -m) in
aarch64)
	expect_out 'per iteration \(exact\): 17 instructions, 1 branches, 80 SP FLOPs' "fma's seed 001 counts (NEON)"
	expect_out 'needs: AArch64 \(NEON\)' "the AArch64 baseline"
	expect_out 'naive i-j-k DP matrix product C = A x B \(assembly\)' "matmul in assembly on AArch64"
	grep -q '^flops-dp-512$' "$TMP/out" && fail "an x86 kernel listed on AArch64"
	;;
*)
	expect_out 'per iteration \(exact\): 17 instructions, 1 branches, 160 SP FLOPs' "fma's seed 001 counts"
	expect_out '^flops-dp-512$' "AVX-512 kernel listed"
	expect_out 'instructions not declared \(compiled C\)' "C kernels do not claim instruction counts"
	;;
esac
expect_out '--param footprint=4 KiB\.\.1 GiB \(now 64 MiB\)' "stream footprint limits and default"
ok "listing"

run_pmc kernels --names
expect_rc 0 "--names"
n=$(wc -l <"$TMP/out")
[ "$n" -ge 18 ] || fail "--names printed $n lines"
grep -qvE '^[a-z0-9-]+$' "$TMP/out" && fail "--names printed something other than names"
for k in empty fma fma-latency loop branch stream chase matmul madd-dp flops-sp-scalar flops-dp-128; do
	grep -qx -- "$k" "$TMP/out" || fail "--names lacks $k"
done
ok "--names: $n names"

run_pmc kernels loop --param inner=10
expect_rc 0 "loop inner=10"
expect_out 'per iteration \(exact\): 23 instructions, 11 branches' "loop counts follow inner"

run_pmc kernels --help
expect_rc 0 "--help"
expect_out '--names' "help names --names"
expect_out '--param' "help names --param"

run_pmc kernels fmaa
expect_rc 2 "misspelt kernel"
expect_err "'fmaa' is not a kernel \(did you mean 'fma'\?\)" "suggestion"

run_pmc kernels stream --param footprint=2G
expect_rc 2 "footprint too big"
expect_err "footprint=2G is out of range: use 4 KiB to 1 GiB" "limit named"

run_pmc kernels stream --param speed=3
expect_rc 2 "unknown parameter"
expect_err "has no parameter 'speed': its parameters are mode, footprint" "parameters named"

run_pmc kernels --param inner=3
expect_rc 2 "--param without a kernel"

run_pmc kernels --bogus
expect_rc 2 "unknown option"

# A kernel runs inside pmctool: it has no targets and no times, and asking for them is refused before anything runs
# (an -k with -p once attached to the process and never ran the kernel). timeout: a wrong run would count pid 1.
for scope in "-p 1" "-t 1" "-a" "-C 0" "-I 100" "--timeout 100" "-D 10" "-A"; do
	# shellcheck disable=SC2086
	RC=0; timeout -s INT 10 "$PMCTOOL" stat -q -e task-clock -k loop $scope >"$TMP/out" 2>"$TMP/err" || RC=$?
	expect_rc 2 "stat -k loop $scope"
	expect_err "runs a kernel inside pmctool: .* are for commands and running processes" "-k with $scope refused"
done
ok "errors"
