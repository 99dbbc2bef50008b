#!/bin/bash
# Each assembly kernel's declared instruction count equals valgrind's exact count (Ir) of its function, for two
# iteration counts: that checks the fixed part and the per-iteration part separately.
. "$PMC_SOURCE_DIR/tests/lib.sh"
PROBE="${PMC_BUILD_DIR:?}/tests/kernels/kernel_probe"
command -v valgrind >/dev/null || skip "valgrind is not installed (Debian package valgrind)"
[ -x "$PROBE" ] || fail "$PROBE is missing: build the tests first"
# grep without -q reads all of ldd's output: with pipefail, an early exit would fail the pipeline.
if ldd "$PROBE" 2>/dev/null | grep -E 'lib(asan|ubsan|tsan)' >/dev/null; then
	skip "sanitizer build: valgrind cannot run AddressSanitizer binaries (run this test in a plain build)"
fi

"$PROBE" list >"$TMP/list"
checked=0
while read -r name sym avx512 runnable fixed per; do
	if [ "$avx512" = 1 ]; then
		echo "skip $name: valgrind cannot execute AVX-512 instructions"
		continue
	fi
	if [ "$runnable" != 1 ]; then
		echo "skip $name: this CPU lacks the instructions it needs"
		continue
	fi
	for n in 37 1000; do
		out="$TMP/cg.$name.$n"
		valgrind --tool=callgrind --toggle-collect="$sym" --callgrind-out-file="$out" \
			"$PROBE" run "$name" "$n" >"$TMP/vg.out" 2>&1 || {
			grep -q 'debuginfo reader' "$TMP/vg.out" &&
				skip "this valgrind cannot read the binary's debug info (clang's DWARF 5): use a gcc build"
			cat "$TMP/vg.out" >&2
			fail "$name: valgrind failed"
		}
		got=$(awk '/^totals:/ {print $2}' "$out")
		want=$((fixed + per * n))
		[ "$got" = "$want" ] || fail "$name, $n iterations: valgrind counted $got instructions, declared $want" \
			"($fixed fixed + $per per iteration)"
		ok "$name, $n iterations: $got instructions, as declared"
	done
	checked=$((checked + 1))
done <"$TMP/list"
[ "$checked" -ge 10 ] || fail "only $checked kernels checked"
