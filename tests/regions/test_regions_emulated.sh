#!/usr/bin/env bash
# pmctool_emulated_begin/end (libpmctool, the pytest plugin's --pmctool-emulate): natively both return -ENODEV and
# do nothing; under valgrind --tool=callgrind --instr-atstart=no each span is counted into a dump of its own whose
# totals grow exactly with the loop between them (1000, 2000 and 3000 iterations: equal steps), the same in two runs.
source "$PMC_SOURCE_DIR/tests/lib.sh"
prog=$PMC_BUILD_DIR/tests/regions/prog/rg-emulated
[ -x "$prog" ] || skip "rg-emulated is not built here (a cross build)"
out=$("$prog" 1000)
case $out in
"1000 -19 -19") ok "natively: begin and end return -ENODEV" ;;
"1000 -38 -38") skip "libpmctool was built without valgrind's callgrind.h (Debian's valgrind): $out" ;;
*) fail "natively: '$out', expected '1000 -19 -19' (-ENODEV)" ;;
esac
command -v valgrind >/dev/null || skip "valgrind is not installed (Debian's valgrind; setup.sh installs it)"
# Not a pipe into grep -q (lib.sh's sanitized_build says why).
case "$(ldd "$prog" 2>/dev/null)" in *libasan*)
	skip "an ASan program cannot run under valgrind (both want the shadow memory): the plain build runs this part" ;;
esac
for r in 1 2; do
	mkdir "$TMP/r$r"
	valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$TMP/r$r/cg.%p" --log-file="$TMP/r$r/vg.log" \
		"$prog" 1000 2000 3000 >"$TMP/r$r.out" || fail "valgrind of rg-emulated: $(tail -5 "$TMP/r$r/vg.log")"
	[ "$(cat "$TMP/r$r.out")" = "$(printf '1000 0 0\n2000 0 0\n3000 0 0')" ] ||
		fail "under valgrind, begin and end: $(cat "$TMP/r$r.out")"
	t=""
	for n in 1 2 3; do
		f=$(ls "$TMP/r$r"/cg.*."$n" 2>/dev/null) || fail "no callgrind dump $n: $(ls "$TMP/r$r")"
		t="$t $(awk '/^totals:/ { print $2 }' "$f")"
	done
	echo "run $r: totals$t"
	eval "t$r='$t'"
done
read -r a b c <<<"$t1"
[ "$a" -gt 0 ] && [ $((b - a)) -gt 1000 ] && [ $((b - a)) = $((c - b)) ] ||
	fail "the counts do not grow exactly with the loop: $a $b $c"
[ "$t1" = "$t2" ] || fail "two runs counted differently:$t1 /$t2"
ok "under callgrind: spans of 1000, 2000, 3000 iterations count$t1 (steps of $((b - a)), exact), the same twice"
