#!/bin/bash
# The README's CI recipe, run as written: a baseline build and a candidate, counted with --emulate (no PMU here) and
# compared with --fail-if 'instructions:u@emulated>+3sd'. A slower build (1000 more loop iterations) fails; a rebuilt
# identical program passes, 20 times over; a baseline from another environment (a forced libpfm4 PMU) is warned
# about loudly.
. "$PMC_SOURCE_DIR/tests/lib.sh"

command -v valgrind >/dev/null || skip "valgrind is not installed (setup.sh installs it)"
CC=${CC:-cc}
command -v "$CC" >/dev/null || skip "no C compiler ($CC) to build the gated program"
case "$(readelf -s "$PMCTOOL" 2>/dev/null | grep -c __asan_init)" in
0) ;;
*) skip "sanitizer build: the gate is checked in the plain build" ;;
esac

# The recipe: the first sh block after the README's ci-recipe marker.
recipe=$(awk '/<!-- ci-recipe/ { on = 1; next } on && /^```sh/ { inb = 1; next } inb && /^```/ { exit } inb' \
	"$PMC_SOURCE_DIR/README.md")
[ -n "$recipe" ] || fail "README.md has no ci-recipe block"
cd "$TMP"
mkdir -p base new bin
ln -s "$PMCTOOL" bin/pmctool
export PATH="$TMP/bin:$PATH"
# Static where the C library allows it (no loader: fewer instructions, faster under valgrind).
build() { "$CC" -O1 $flag "$@" "$PMC_SOURCE_DIR/tests/ci/gate-prog.c"; }
flag=-static
build -o base/prog 2>/dev/null || { flag=; build -o base/prog; } || fail "building the gated program"

# recipe: run the README's block as written; its exit status is compare's.
recipe() { bash -c "$recipe" >"$TMP/gate.out" 2>"$TMP/gate.err"; }

# A slower build: the gate fails (exit 1) and says why.
build -DSLOWER -o new/prog
set +e; recipe; rc=$?; set -e
[ "$rc" = 1 ] || { cat "$TMP/gate.out" "$TMP/gate.err" >&2; fail "slower build: the recipe exited $rc, expected 1"; }
grep -qE 'instructions:u@emulated>\+3sd +holds: changed \+[0-9]' "$TMP/gate.out" ||
	{ cat "$TMP/gate.out" >&2; fail "slower build: the condition's line"; }
grep -q 'Environment: the same' "$TMP/gate.out" || { cat "$TMP/gate.out" >&2; fail "the environment line"; }
ok "slower build (1000 more iterations): the gate fails: $(grep 'instructions:u@emulated>+3sd' "$TMP/gate.out" | sed 's/^ *//')"

# A rebuilt identical program: the gate passes, every time (the baseline is measured anew each time, as CI does).
build -o new/prog
cmp -s base/prog new/prog || echo "note: the rebuilt program differs byte-wise from the first build"
for i in $(seq 20); do
	set +e; recipe; rc=$?; set -e
	[ "$rc" = 0 ] || { cat "$TMP/gate.out" "$TMP/gate.err" >&2; fail "identical rebuild, repetition $i: exit $rc"; }
done
ok "identical rebuild: the gate passed 20 times out of 20 ($(grep 'instructions:u@emulated>+3sd' "$TMP/gate.out" | sed 's/^ *//'))"

# A baseline from another environment: compare warns loudly (stderr, and the Environment line), whatever it judges.
LIBPFM_FORCE_PMU=skl pmctool stat --emulate -r 2 --json -o other.json -- ./prog
set +e; pmctool compare --fail-if 'instructions:u@emulated>+3sd' other.json new.json >"$TMP/cmp.out" 2>"$TMP/cmp.err"
rc=$?; set -e
grep -q "WARNING: A and B were measured in different environments: .*core_pmu 'skl' vs" "$TMP/cmp.err" ||
	{ cat "$TMP/cmp.err" >&2; fail "a forced other environment: no warning"; }
grep -q 'Environment: WARNING: DIFFERENT: ' "$TMP/cmp.out" || { cat "$TMP/cmp.out" >&2; fail "the Environment line"; }
ok "a baseline from another environment (LIBPFM_FORCE_PMU=skl): warned, exit $rc"
