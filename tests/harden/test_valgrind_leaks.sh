#!/usr/bin/env bash
# valgrind --leak-check=full --error-exitcode over real runs: stat on a command, stat on a kernel, list, info, encode,
# sets, sweep, compare, merge, and the error paths (unknown event, bad option). Each must finish with no leak and no memory error.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}

command -v valgrind >/dev/null || skip "valgrind is not installed (apt-get install valgrind)"
if nm "$PMCTOOL" 2>/dev/null | grep __asan_init >/dev/null; then
	skip "a sanitizer build: valgrind cannot run ASan binaries (the sanitizers check leaks there)"
fi

VG=(valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99)
check() { # check EXPECTED_STATUS ARGS...
	local want=$1; shift
	set +e
	"${VG[@]}" "$PMCTOOL" "$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	if [ "$RC" -eq 99 ] || grep -q '^==[0-9]*==' "$TMP/err"; then
		cat "$TMP/err" >&2
		fail "valgrind found errors in: pmctool $*"
	fi
	[ "$RC" -eq "$want" ] || { cat "$TMP/err" >&2; fail "pmctool $*: exit $RC, expected $want"; }
	ok "valgrind clean: pmctool $*"
}

check 0 stat -e task-clock,page-faults,cycles -- "$W" pages 10
check 0 stat --csv -r 2 -o "$TMP/r.csv" -e task-clock -- "$W" fork 2
check 0 stat --json -o - -g core -- true
check 0 stat -e task-clock -k empty --iters 100000 --warmup 0
check 0 list
check 0 encode cycles 'uops_issued.any>=2' mem:0x401000:x
check 0 sets
check 0 kernels
set +e; "$PMCTOOL" info >/dev/null 2>&1; info_rc=$?; set -e
check "$info_rc" info --json
check 2 stat -e task-clok -- true
check 2 stat --metric 'x=(' -e task-clock -- true
check 2 stat -k matmul --param n=0
check 127 stat -e task-clock -- /nonexistent/prog

# sweep, compare, merge and stat --compare (the parent; its children are stat runs, checked above)
"$PMCTOOL" stat --json -o "$TMP/a.json" -r 3 -e task-clock,page-faults -- "$W" pages 10 2>/dev/null
"$PMCTOOL" stat --json -o "$TMP/b.json" -r 3 -e task-clock,page-faults -- "$W" pages 20 2>/dev/null
check 0 compare "$TMP/a.json" "$TMP/b.json"
check 1 compare --json --fail-if 'page-faults>+1%' "$TMP/a.json" "$TMP/b.json"
check 0 compare --csv --test mann-whitney "$TMP/a.json" "$TMP/b.json"
check 2 compare "$TMP/a.json" "$TMP/missing.json"
check 0 merge --y page-faults --plot "$TMP/m.svg" "$TMP/a.json" "$TMP/b.json"
check 1 merge --json "$TMP/a.json" "$TMP/missing.json"
check 0 sweep N=5,10 -r 2 -e page-faults --plot "$TMP/s.svg" -- "$W" pages '{N}'
check 0 sweep N=1..64*4 -r 1 --json -e task-clock -- true
check 2 sweep N=4..1 -- true
check 0 stat --compare "$W pages 5" -r 2 -e page-faults -- "$W" pages 5
check 0 stat -o "$TMP/t.%p.%%.json" --json -e task-clock -- true
