#!/bin/bash
# pmctool sets: lists the sets for a PMU, shows one, and reports errors with exit status 2.
source "$PMC_SOURCE_DIR/tests/lib.sh"
export PMCTOOL_EVENTS_DIR="$PMC_SOURCE_DIR/events"

run_pmc sets --help
expect_rc 0 "sets --help"
expect_out "--all" "help lists --all"
expect_out "--pmu NAME" "help lists --pmu"

run_pmc sets --pmu hsw --names
expect_rc 0 "sets --pmu hsw --names"
for s in core flops uops ports frontend branch cache smt seed001-hsw; do
	grep -qx "$s" "$TMP/out" || fail "set $s missing for hsw: $(cat "$TMP/out")"
done
ok "all nine sets apply to hsw"

run_pmc sets --pmu amd64_fam19h_zen3 --names
expect_rc 0 "sets for zen3"
grep -qx seed001-hsw "$TMP/out" && fail "seed001-hsw listed for zen3"
grep -qx flops "$TMP/out" || fail "flops not listed for zen3"
ok "variant selection hides sets with no variant for the PMU"

run_pmc sets --all --pmu amd64_fam19h_zen3
expect_rc 0 "sets --all"
expect_out "seed001-hsw +\(not for this PMU\)" "--all shows sets for other PMUs, marked"

run_pmc sets --pmu hsw flops
expect_rc 0 "show flops for hsw"
expect_out "variant hsw, for PMU hsw" "hsw variant chosen"
expect_out "no floating-point arithmetic event" "Haswell caution shown"
expect_out "events \(0\)" "no FP events on Haswell"

LIBPFM_FORCE_PMU=skl run_pmc sets flops
expect_rc 0 "show flops with LIBPFM_FORCE_PMU=skl"
expect_out "variant intel-fp-arith-256, for PMU skl" "forced PMU picks the skl variant"
expect_out "FLOPs_dp +FLOP += " "metrics shown with unit and formula"

run_pmc sets no-such-set
expect_rc 2 "unknown set"
expect_err "no event set 'no-such-set'" "names the missing set"

printf 'set bad\ndescription d\nprovenance p\nevent x\nmetric m = x +\n' > "$TMP/bad.set"
run_pmc sets "$TMP/bad.set"
expect_rc 2 "bad set file"
expect_err "bad.set:5:15: in formula" "file:line:column in the error"

run_pmc sets --bogus
expect_rc 2 "bad option"
ok "pmctool sets behaves"

# A set is found by its file's name, so the 'set NAME' line must match it (issue 28 item 15; pmctool-events(5)).
printf 'set other\ndescription d\nprovenance p\nevent task-clock\n' >"$TMP/mine.set"
for args in "sets $TMP/mine.set" "stat -g $TMP/mine.set -- true"; do
	# shellcheck disable=SC2086
	run_pmc $args
	expect_rc 2 "$args: 'set other' in mine.set"
	expect_err "mine.set: says 'set other', so the file must be named other.set" "the mismatch is named"
done
mkdir "$TMP/dir"
cp "$TMP/mine.set" "$TMP/dir/mine.set"
PMCTOOL_EVENTS_DIR="$TMP/dir" run_pmc sets mine
expect_rc 2 "-g mine finding a file that says 'set other'"
expect_err "must be named other.set" "the mismatch is named"
sed 's/^set other/set mine/' "$TMP/mine.set" >"$TMP/dir/mine.set"
PMCTOOL_EVENTS_DIR="$TMP/dir" run_pmc sets mine
expect_rc 0 "a set whose name matches its file"
ok "a set file whose 'set NAME' differs from its file name is refused, naming both"
