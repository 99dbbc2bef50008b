#!/usr/bin/env bash
# Issue 35 item 2: sweep, compare, stat --compare and check measure in this process through the engine: no pmctool
# is started for a measurement (no 'pmctool stat --json' child, no report written and read back). Every execve of
# the run is traced (strace -f); an exec of the pmctool binary other than the command line's own fails the test.
# check's multiplex item measures the loop kernel as a launched program: a forked child that runs the loop kernel
# (the engine's forked-function workload, issue 35 item 3), not an exec of pmctool, so no run execs pmctool. check
# needs a PMU: where this machine has none, the PMU is injected (fake_pmu.so with a fixture sysfs and libpfm4 forced
# to skl, x86-64 only), and the test says so.
source "$PMC_SOURCE_DIR/tests/lib.sh"
command -v strace >/dev/null || skip "strace is not installed (the test traces every execve)"
strace -f -qq -e trace=none -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace not permitted)"
W=${PMC_WORKLOAD:?}
# LeakSanitizer cannot run under ptrace (it stops the world with it), and every run here is traced: in the sanitizer
# build the other tests look for leaks in these paths.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
SELF=$(readlink -f "$PMCTOOL")

# traced NAME ARGS...: run pmctool under strace; $TMP/NAME.trace holds every execve, $TMP/out and $TMP/err its output.
traced() {
	local name=$1
	shift
	set +e
	"${INJECT[@]}" strace -f -qq -s 256 -e trace=execve,clone,clone3,fork,vfork -o "$TMP/$name.trace" "$PMCTOOL" "$@" \
		>"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
}

# The pmctool execs after the first (the command line's own), one per line, as strace shows their argv.
children() {
	grep -F "execve(\"$SELF\"" "$TMP/$1.trace" | tail -n +2 | sed 's/^[0-9]* *execve([^,]*, //'
}

no_child() {
	local n
	n=$(children "$1" | wc -l)
	[ "$n" -eq 0 ] || { children "$1" | head -5 >&2; fail "$2 started $n pmctool process(es)"; }
}

INJECT=()
traced sweep-cmd sweep N=1,2 -r 2 --seed 1 -e task-clock,page-faults --json -- "$W" pages '{N}'
expect_rc 0 "sweep over a command"
no_child sweep-cmd "sweep -- COMMAND"
python3 - "$TMP/out" <<'PY' || fail "the sweep's points"
import json, sys
d = json.load(open(sys.argv[1]))
assert [p["rounds_ok"] for p in d["points"]] == [2, 2], d["points"]
PY
traced sweep-env sweep PAGES=1,2 -r 1 --seed 1 -e page-faults -- sh -c "exec '$W' pages \$PAGES"
expect_rc 0 "sweep of an environment variable"
no_child sweep-env "sweep of an environment variable"
traced sweep-k sweep inner=4,8 -r 1 --seed 1 -k loop --iters 200 -e task-clock --json
expect_rc 0 "sweep -k loop"
no_child sweep-k "sweep -k loop"
ok "sweep (a command, an environment variable, a kernel) starts no pmctool"

traced stat-compare stat --compare "$W pages 10" -r 2 -e page-faults -o "$TMP/cmp.txt" -- "$W" pages 200
expect_rc 0 "stat --compare"
no_child stat-compare "stat --compare"
grep -q 'page-faults' "$TMP/cmp.txt" || { cat "$TMP/cmp.txt"; fail "stat --compare wrote no comparison"; }
"$PMCTOOL" stat -r 2 -e page-faults --json -o "$TMP/a.json" -- true
"$PMCTOOL" stat -r 2 -e page-faults --json -o "$TMP/b.json" -- true
traced compare compare "$TMP/a.json" "$TMP/b.json"
expect_rc 0 "compare A.json B.json"
no_child compare "compare"
ok "stat --compare and compare start no pmctool"

# check: natively where a PMU counts here, else on an injected one.
what="this machine's PMU"
if "$PMCTOOL" check --quick --json 2>/dev/null | grep -q '"name":"exact:'; then
	INJECT=()
elif [ "$(uname -m)" = x86_64 ] && [ -f "$PMC_BUILD_DIR/tests/perf/fake_pmu.so" ]; then
	INJECT=(env LD_PRELOAD="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
		PMCTOOL_SYSFS_ROOT="$PMC_SOURCE_DIR/tests/pmu/sysfs" LIBPFM_FORCE_PMU=skl
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0")
	what="an injected PMU"
else
	echo "SKIP (part): no PMU here and none to inject on $(uname -m): check not traced"
	exit 0
fi
traced check-quick check --quick --json
[ "$RC" -eq 0 ] || [ "$RC" -eq 10 ] || { cat "$TMP/err"; fail "check --quick exited $RC"; }
grep -q '"name":"exact:' "$TMP/out" || { cat "$TMP/out"; fail "check --quick measured nothing on $what"; }
no_child check-quick "check --quick"
traced stat-check stat --check -e task-clock -- true
expect_rc 0 "stat --check"
grep -q 'check: ' "$TMP/err" || { cat "$TMP/err"; fail "stat --check said no verdict"; }
no_child stat-check "stat --check"
traced check check --json
[ "$RC" -eq 0 ] || [ "$RC" -eq 10 ] || { cat "$TMP/err"; fail "check exited $RC"; }
grep -q '"name":"multiplex"' "$TMP/out" || { cat "$TMP/out"; fail "check has no multiplex item on $what"; }
no_child check "check (its multiplex item's launched loop is a forked function, not an exec)"
ok "check --quick, stat --check and check start no pmctool on $what"
# The processes this check forked (their pids are in the trace: the launched loops, the guard) are all gone: a pid
# alive now is another process's when it started after check ended (pids are reused; /proc/PID/stat's start time).
ended=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", $1 * hz }' /proc/uptime)
for pid in $(sed -n 's/^[0-9]* *\(clone\|clone3\|fork\|vfork\)(.*) = \([0-9][0-9]*\)$/\2/p' "$TMP/check.trace"); do
	start=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $20 }') || continue
	[ -n "$start" ] && [ "$start" -le "$ended" ] && fail "process $pid that check forked is still running"
done
ok "nothing left running"
