#!/usr/bin/env bash
# perf's -G / --for-each-cgroup (issue 24 item 3): counting CPU-wide restricted to the tasks of a cgroup
# (PERF_FLAG_PID_CGROUP), in cgroups this test creates. A breakpoint on bump() counts exactly: the command moves
# itself into cgroup a, calls bump() 3000 times, moves into b, calls it 500 times; each cgroup's row must hold its
# own count exactly, and perf 6.1 on the same command must print the same -x rows.
source "$PMC_SOURCE_DIR/tests/lib.sh"
breakpoints_fire_or_skip # its counts are exact breakpoint counts: where breakpoints fire
[ "$(id -u)" -eq 0 ] || skip "creating cgroups needs root"
W=${PMC_WORKLOAD:?}
BP="mem:0x$(nm "$W" | awk '$3 == "bump" { print $1 }'):x"
MNT=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
awk '$9 == "cgroup" && $NF ~ /perf_event/ { found = 1 } END { exit !found }' /proc/self/mountinfo &&
	skip "perf_event is on a cgroup v1 hierarchy here: this test makes its cgroups under cgroup v2"
[ -n "$MNT" ] || skip "no cgroup v2 file system is mounted"
NAME=pmctool-test-$$
mkdir "$MNT/$NAME" "$MNT/$NAME/a" "$MNT/$NAME/b" 2>/dev/null || skip "cannot create cgroups under $MNT"
cleanup() { rmdir "$MNT/$NAME/a" "$MNT/$NAME/b" "$MNT/$NAME" 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT
CMD="echo \$\$ > $MNT/$NAME/a/cgroup.procs && $W calls 3000 && echo \$\$ > $MNT/$NAME/b/cgroup.procs && $W calls 500"

run_pmc stat -a -x, -e "$BP" --for-each-cgroup "$NAME/a,$NAME/b" -- sh -c "$CMD"
expect_rc 0 "--for-each-cgroup"
grep -q "^3000,,$BP,$NAME/a," "$TMP/err" && grep -q "^500,,$BP,$NAME/b," "$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "--for-each-cgroup: a row per cgroup with its exact count (3000, 500)"; }
[ "$(grep -c ",$BP," "$TMP/err")" -eq 2 ] || fail "--for-each-cgroup -x: only the cgroups' rows, as perf (no total)"
ok "--for-each-cgroup a,b: exactly 3000 and 500 in the rows of a and b"

run_pmc stat -a --json -o "$TMP/g.json" -e "$BP" -G "$NAME/b" -- sh -c "$CMD"
expect_rc 0 "-G"
python3 - "$TMP/g.json" "$NAME/b" "$BP" <<'PY' || fail "-G b: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
rows = [e for e in d["events"] if e["name"] == sys.argv[3] and e["scope"]["kind"] == "cgroup"]
assert [(r["scope"]["label"], r["mean"]) for r in rows] == [(sys.argv[2], 500)], rows
assert d["target"]["kind"] == "cgroups" and d["target"]["aggregation"] == "cgroup", d["target"]
PY
ok "-G b: only b's 500, a cgroup row in JSON"

if command -v perf >/dev/null && perf stat -a -x, -e "$BP" -G "$NAME/a" -- true >/dev/null 2>&1; then
	perf stat -a -x, -e "$BP" --for-each-cgroup "$NAME/a,$NAME/b" -- sh -c "$CMD" 2>"$TMP/perf.x" >/dev/null
	run_pmc stat -a -x, -e "$BP" --for-each-cgroup "$NAME/a,$NAME/b" -- sh -c "$CMD"
	cut -d, -f1-4 "$TMP/perf.x" | grep -v '^#' | grep . > "$TMP/perf.cut"
	cut -d, -f1-4 "$TMP/err" | grep -v '^#' | grep . > "$TMP/ours.cut"
	diff -u "$TMP/perf.cut" "$TMP/ours.cut" >&2 || fail "--for-each-cgroup -x: value, unit, event, cgroup differ from perf's"
	ok "--for-each-cgroup -x: perf's rows, field for field, the counts included"
fi

# Errors: a cgroup that does not exist, no -a, both options, -G with two names, a name with '..'.
run_pmc stat -a -e task-clock -G "$NAME/nope" -- true
expect_rc 2 "a missing cgroup"
expect_err "no cgroup '$NAME/nope' under $MNT" "the missing cgroup named with where it was looked for"
run_pmc stat -e task-clock -G "$NAME/a" -- true
expect_rc 2 "-G without -a"
expect_err "give -a" "-G says it needs -a"
run_pmc stat -a -e task-clock -G "$NAME/a" --for-each-cgroup "$NAME/b" -- true
expect_rc 2 "-G with --for-each-cgroup"
run_pmc stat -a -e task-clock -G "$NAME/a,$NAME/b" -- true
expect_rc 2 "-G with two cgroups"
expect_err "--for-each-cgroup A,B" "-G A,B points at --for-each-cgroup"
run_pmc stat -a -e task-clock --for-each-cgroup "../etc" -- true
expect_rc 2 "a name with '..'"
ok "errors: missing cgroup, no -a, both options, -G A,B, '..'; each exit 2 with the reason"
