#!/usr/bin/env bash
# perf stat's options that perf users type every day (issue 24 item 4), through the built binary: -d/-dd/-ddd add
# perf's detailed events and their miss-share metrics; --all-user/--all-kernel set the privilege filters of every
# event whose PMU has them (seen in the -v trace, and in an exact breakpoint count); -q prints nothing but errors;
# --append adds to -o's file, whole or not at all.
source "$PMC_SOURCE_DIR/tests/lib.sh"
breakpoints_fire_or_skip # its counts are exact breakpoint counts: where breakpoints fire
W=${PMC_WORKLOAD:?}
BP="mem:0x$(nm "$W" | awk '$3 == "bump" { print $1 }'):x"

# -d levels: the planned events (the plan needs no PMU), in perf's order, each level adding to the one before.
names() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); a={"instructions","cycles","ref-cycles","msr/tsc/"}; print(" ".join(e["name"] for e in d["every_batch"] + [e for b in d["batches"] for e in b] if e["name"] not in a))' "$1"; }
D1="L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses"
D2="L1-icache-loads L1-icache-load-misses dTLB-loads dTLB-load-misses iTLB-loads iTLB-load-misses"
D3="L1-dcache-prefetches L1-dcache-prefetch-misses"
for lvl in d dd ddd dddd; do
	run_pmc stat -"$lvl" -e task-clock --dry-run --json -o "$TMP/plan.json" -- true
	expect_rc 0 "-$lvl --dry-run"
	case $lvl in d) want="task-clock $D1" ;; dd) want="task-clock $D1 $D2" ;; *) want="task-clock $D1 $D2 $D3" ;; esac
	got=$(names "$TMP/plan.json")
	[ "$got" = "$want" ] || fail "-$lvl plans '$got', expected '$want'"
done
ok "-d, -dd, -ddd add perf's detailed events in perf's order (-dddd is -ddd, as perf)"

# Measured: each detailed event is counted or says why not, and its miss share is a metric (a value or a reason).
run_pmc stat -d -e task-clock --json -o "$TMP/d.json" -- true
expect_rc 0 "-d measured"
python3 - "$TMP/d.json" <<'PY' || fail "-d: events and metrics"
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["name"]: e for e in d["events"] if e["scope"]["kind"] == "all"}
for n in ("L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses"):
    e = ev[n]
    assert e["status"] == "ok" or e["reason"], (n, e["status"], e["reason"])
m = {x["name"]: x for x in d["metrics"]}
for n in ("L1_dcache_miss_pct", "LLC_miss_pct"):
    assert n in m and (m[n]["value"] is not None or m[n]["reason"]), (n, m.get(n))
PY
ok "-d: every detailed event counted or not with its reason; L1_dcache_miss_pct and LLC_miss_pct as metrics"

# --all-user / --all-kernel: exclude_kernel / exclude_user on every event that filters by privilege, modifiers
# overridden (perf's rule); msr/tsc/ has no privilege filter and is left as it is.
trace() { grep "^perf_event_open(type=$1 " "$TMP/err" | head -1; }
run_pmc stat -v --all-user -e page-faults:k,"$BP",msr/tsc/ -x, -- "$W" calls 1000
expect_rc 0 "--all-user"
trace 1 | grep -q "exclude_user=0 exclude_kernel=1" || fail "--all-user: page-faults:k not user-only: $(trace 1)"
trace 5 | grep -q "exclude_user=0 exclude_kernel=1" || fail "--all-user: the breakpoint not user-only: $(trace 5)"
msr=$(cat /sys/bus/event_source/devices/msr/type 2>/dev/null || true)
if [ -n "$msr" ]; then
	trace "$msr" | grep -q "exclude_user=0 exclude_kernel=0" || fail "--all-user touched msr/tsc/: $(trace "$msr")"
fi
grep -q "^1000,,$BP," "$TMP/err" || { cat "$TMP/err" >&2; fail "--all-user: the breakpoint did not count bump's 1000 calls"; }
run_pmc stat -v --all-kernel -e page-faults:u -x, -- true
expect_rc 0 "--all-kernel"
trace 1 | grep -q "exclude_user=1 exclude_kernel=0" || fail "--all-kernel: page-faults:u not kernel-only: $(trace 1)"
run_pmc stat --all-user --all-kernel -- true
expect_rc 2 "--all-user with --all-kernel"
expect_err "--all-user and --all-kernel both choose" "the two are refused together"
ok "--all-user / --all-kernel set every filtering event's privilege level (breakpoint exact: 1000), msr/tsc/ untouched"

# -q: nothing on stdout or stderr, the same exit status; -o still gets the report; errors still reach stderr.
run_pmc stat -q -e task-clock -- "$W" calls 10
expect_rc 0 "-q"
[ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || { cat "$TMP/out" "$TMP/err" >&2; fail "-q printed something"; }
run_pmc stat -q -e task-clock -- sh -c 'exit 3'
expect_rc 3 "-q keeps the command's exit status"
run_pmc stat -q -x, -o "$TMP/q.csv" -e "$BP" -- "$W" calls 7
expect_rc 0 "-q -o"
grep -q "^7,,$BP," "$TMP/q.csv" || fail "-q -o: the file lacks the count"
[ ! -s "$TMP/err" ] || fail "-q -o printed on stderr"
run_pmc stat -q -e no-such-event -- true
expect_rc 2 "-q with a bad event"
expect_err "unknown event 'no-such-event'" "-q still prints errors"
ok "-q: silent (exit status kept), -o still written, errors still printed"

# --append: the second report follows the first; without -o it is refused; a file that cannot take it is unchanged.
rm -f "$TMP/a.csv"
run_pmc stat --append -o "$TMP/a.csv" -x, -e "$BP" -- "$W" calls 3
expect_rc 0 "--append, new file"
run_pmc stat --append -o "$TMP/a.csv" -x, -e "$BP" -- "$W" calls 5
expect_rc 0 "--append, second report"
[ "$(grep -c ",$BP," "$TMP/a.csv")" -eq 2 ] && grep -q "^3,,$BP," "$TMP/a.csv" && grep -q "^5,,$BP," "$TMP/a.csv" ||
	{ cat "$TMP/a.csv" >&2; fail "--append: both reports, in order"; }
[ "$(grep -n ",$BP," "$TMP/a.csv" | head -1 | cut -d: -f2 | cut -d, -f1)" = 3 ] || fail "--append: the first report first"
run_pmc stat -o "$TMP/a.csv" -x, -e "$BP" -- "$W" calls 4
[ "$(grep -c ",$BP," "$TMP/a.csv")" -eq 1 ] || fail "-o without --append must replace the file"
run_pmc stat --append -x, -- true
expect_rc 2 "--append without -o"
expect_err "give -o FILE" "--append names what it needs"
if [ "$(id -u)" -eq 0 ]; then
	cp "$TMP/a.csv" "$TMP/ro.csv"
	chmod 0444 "$TMP/ro.csv"
	before=$(md5sum < "$TMP/ro.csv")
	run_pmc_as() { RC=0; setpriv --reuid=65534 --regid=65534 --clear-groups "$@" >"$TMP/out" 2>"$TMP/err" || RC=$?; }
	chmod 0755 "$TMP"
	run_pmc_as "$PMCTOOL" stat --append -o "$TMP/ro.csv" -e task-clock -- true
	[ "$RC" -eq 4 ] || fail "--append into a file the user may not write: exit status $RC, expected 4"
	grep -q "Permission denied" "$TMP/err" || { cat "$TMP/err" >&2; fail "--append: the refusal names its cause"; }
	[ "$(md5sum < "$TMP/ro.csv")" = "$before" ] || fail "--append changed a file it may not write"
	ok "--append: adds the second report after the first; refused without -o; another user's file untouched"
else
	ok "--append: adds the second report after the first; refused without -o (not root: the unwritable-file case skipped)"
fi

# --pre / --post: around each execution, in order, the measured command between; a failing hook stops the runs
# (the executions before it are reported) and its status is pmctool's, as perf's.
L="$TMP/hooks.log"
: > "$L"
run_pmc stat -r 3 --pre "echo pre >> $L" --post "echo post >> $L" -x, -e "$BP" -- sh -c "echo run >> $L; exec $W calls 5"
expect_rc 0 "--pre/--post"
[ "$(tr '\n' ' ' < "$L")" = "pre run post pre run post pre run post " ] || fail "--pre/--post order: $(tr '\n' ' ' < "$L")"
grep -q "^5,,$BP," "$TMP/err" || fail "--pre/--post: the command's own count (5) changed"
run_pmc stat -r 3 --pre "exit 7" -e task-clock -- true
expect_rc 7 "a failing --pre"
expect_err "--pre 'exit 7' exited with status 7 \(run 1, batch 1\)" "the failing --pre named"
: > "$L"
run_pmc stat -r 3 --post "echo x >> $L; [ \$(wc -l < $L) -lt 2 ]" --json -o "$TMP/h.json" -e "$BP" -- "$W" calls 3
expect_rc 1 "a --post failing after run 2"
python3 - "$TMP/h.json" <<'PY' || fail "--post failing: the two executions made are reported, with the check"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["executions"]) == 2, d["executions"]
assert any(c["name"] == "hook-failed" for c in d["checks"]), d["checks"]
assert [e["mean"] for e in d["events"] if e["name"].startswith("mem:")] == [3], d["events"]
PY
run_pmc stat --pre true -k fma
expect_rc 2 "--pre with -k"
run_pmc stat --post true -a -e task-clock
expect_rc 2 "--post without a command"
ok "--pre/--post: around each run in order, exact counts kept; a failing hook stops the runs with its status"

# -n: perf's null run: the command runs and is timed, nothing is opened (the -v trace is empty), its status kept.
run_pmc stat -n -v -r 2 --json -o "$TMP/n.json" -- "$W" calls 10
expect_rc 0 "-n"
! grep -q "perf_event_open" "$TMP/err" || fail "-n opened a counter: $(grep -m1 perf_event_open "$TMP/err")"
python3 - "$TMP/n.json" <<'PY' || fail "-n: JSON with no events, two timed executions"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["events"] == [] and len(d["executions"]) == 2 and d["wall_ns"]["mean"] > 0, d
PY
run_pmc stat -n -- sh -c 'exit 6'
expect_rc 6 "-n keeps the command's status"
run_pmc stat -n -e task-clock -- true
expect_rc 2 "-n with -e"
ok "-n: times only, no counter opened (-v), the command's status kept; refused with -e"

# -B / --no-big-num (the last wins), --interval-clear (the table's -I), --summary (accepted with -I).
run_pmc stat --no-big-num -e "$BP" -- "$W" calls 12345
grep -qE "^ +12345 +$BP" "$TMP/err" || { cat "$TMP/err" >&2; fail "--no-big-num: 12345 without a separator"; }
run_pmc stat --no-big-num -B -e "$BP" -- "$W" calls 12345
grep -qE "^ +12,345 +$BP" "$TMP/err" || { cat "$TMP/err" >&2; fail "-B after --no-big-num: 12,345"; }
run_pmc stat -I 100 --interval-clear -e task-clock -- sleep 0.35
expect_rc 0 "--interval-clear"
clears=$(grep -o $'\033\[H\033\[2J' "$TMP/err" | wc -l)
[ "$clears" -ge 3 ] || fail "--interval-clear: $clears clears for 3 or more intervals"
run_pmc stat -I 100 --interval-clear -x, -e task-clock -- true
expect_rc 2 "--interval-clear with -x"
run_pmc stat -I 100 --summary -e task-clock -- sleep 0.15
expect_rc 0 "--summary with -I"
expect_err "seconds time elapsed" "--summary: the whole measurement after the intervals"
run_pmc stat --summary -e task-clock -- true
expect_rc 2 "--summary without -I"
ok "-B/--no-big-num, --interval-clear ($clears clears) and --summary as perf takes them"

# --table: perf's table of individual measurements under -r, each run's time and its difference from the mean.
run_pmc stat --table -r 4 -e task-clock -- "$W" calls 10
expect_rc 0 "--table -r 4"
python3 - "$TMP/err" <<'PY' || { cat "$TMP/err" >&2; fail "--table: four runs, their differences summing to 0, the final result"; }
import re, sys
t = open(sys.argv[1]).read()
i = t.index("# Table of individual measurements:")
rows = re.findall(r"^ +([0-9.]+) \(([-+][0-9.]+)\) #+$", t[i:], re.M)
assert len(rows) == 4, rows
runs = [float(r[0]) for r in rows]
mean = sum(runs) / 4
assert all(abs(float(d) - (r - mean)) < 2e-3 * max(1, mean) + 10 ** -len(rows[0][0].split(".")[1]) for r, (_, d) in zip(runs, rows)), rows
assert re.search(r"# Final result:\n +[0-9.]+ \+- [0-9.]+ seconds time elapsed  \( \+- +[0-9.]+% \)", t), t[i:]
PY
run_pmc stat --table -e task-clock -- true
expect_rc 2 "--table without -r"
ok "--table: each of 4 runs with its difference from the mean, then perf's final result"

# -M GROUP: pmctool's event sets are its metric groups (-M branch is -g branch); unknown groups and -M with -g refused.
run_pmc stat -M branch --dry-run --json -o "$TMP/m.json" -- true
expect_rc 0 "-M branch"
run_pmc stat -g branch --dry-run --json -o "$TMP/g.json" -- true
cmp -s "$TMP/m.json" "$TMP/g.json" || fail "-M branch plans other than -g branch"
run_pmc stat -M no-such-group -- true
expect_rc 2 "-M with an unknown group"
expect_err "pmctool sets" "the unknown group points at the list"
run_pmc stat -M branch -g cache -- true
expect_rc 2 "-M with -g"
ok "-M GROUP: pmctool's sets as perf's metric groups; unknown ones and -M with -g refused"

# -i (perf's --no-inherit): the tasks the command starts are not counted; -S: sync() before each run.
run_pmc stat -x, -e "$BP" -- sh -c "$W calls 100; true"
grep -q "^100,,$BP," "$TMP/err" || { cat "$TMP/err" >&2; fail "inherited: the child's 100 calls"; }
run_pmc stat -i -x, -e "$BP" -- sh -c "$W calls 100; true"
expect_rc 0 "-i"
grep -q "^0,,$BP," "$TMP/err" || { cat "$TMP/err" >&2; fail "-i: the child's calls counted"; }
synced="-S not checked: strace is not installed (it counts the sync() calls)"
if command -v strace >/dev/null; then
	# LeakSanitizer cannot run under ptrace: the ASan build's leak check is off for this one run
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=sync -o "$TMP/st" \
		"$PMCTOOL" stat -S -r 3 -e task-clock -x, -- true 2>/dev/null || fail "-S -r 3 under strace: exit status $?"
	[ "$(grep -c 'sync()' "$TMP/st")" -eq 3 ] || fail "-S -r 3: $(grep -c 'sync()' "$TMP/st") sync() calls"
	synced="-S syncs before each of 3 runs"
fi
ok "-i counts the command alone (0 of its child's 100 calls); $synced"

# --metric-only: the metrics alone, a column each: perf's words beside events (a rate names its event), pmctool's
# others by name; the table, -x and -j; refused with --csv, --json and -I.
run_pmc stat --metric-only -x, -e task-clock,page-faults -- "$W" calls 10
expect_rc 0 "--metric-only -x"
python3 - "$TMP/err" <<'PY' || { cat "$TMP/err" >&2; fail "--metric-only -x: a header of metric names and one line of values"; }
import sys
lines = [l.rstrip("\n").split(",") for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
assert len(lines) == 2, lines
head, vals = lines
assert head[:2] == ["CPUs utilized", "page-faults K/sec"], head
assert len(head) == len(vals) and all(float(v) >= 0 for v in vals if v), vals
PY
run_pmc stat --metric-only -j -e task-clock -- true
python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read()); assert "CPUs utilized" in d, d' "$TMP/err" ||
	fail "--metric-only -j: one object with the metrics"
run_pmc stat --metric-only --json -- true
expect_rc 2 "--metric-only with --json"
ok "--metric-only: -x header and values, -j object; refused with --json"

# -M TopdownL1 / TopdownL2 and --td-level N are perf's spellings of --topdown=N (plans compared on a forced Skylake).
LIBPFM_FORCE_PMU=skl "$PMCTOOL" stat --topdown=1 --dry-run --json -- true > "$TMP/t1.json" 2>/dev/null
for spell in "-M TopdownL1" "-M topdownl1" "--td-level 1"; do
	LIBPFM_FORCE_PMU=skl "$PMCTOOL" stat $spell --dry-run --json -- true > "$TMP/tx.json" 2>/dev/null ||
		fail "$spell: exit status $?"
	cmp -s "$TMP/t1.json" "$TMP/tx.json" || fail "$spell plans other than --topdown=1"
done
LIBPFM_FORCE_PMU=skl "$PMCTOOL" stat --topdown=2 --dry-run --json -- true > "$TMP/t2.json" 2>/dev/null
LIBPFM_FORCE_PMU=skl "$PMCTOOL" stat --td-level 0 --dry-run --json -- true > "$TMP/tx.json" 2>/dev/null
cmp -s "$TMP/t2.json" "$TMP/tx.json" || fail "--td-level 0 plans other than --topdown=2"
ok "-M TopdownL1, --td-level 1 and 0: the plans of --topdown=1 and =2"

# --per-cache[=LEVEL] (CPU-wide: root or paranoid <= 0): a row per cache instance, perf's labels, the CPUs of each.
if "$PMCTOOL" stat -a -e cpu-clock -x, -- true >/dev/null 2>&1; then
	ncpu=$(getconf _NPROCESSORS_ONLN)
	for lvl in "" "=l2" "=L1"; do
		run_pmc stat --per-cache$lvl -a -x, -e cpu-clock -- sleep 0.05
		expect_rc 0 "--per-cache$lvl"
		want=${lvl#=}; want=${want#[lL]}
		python3 - "$TMP/err" "$ncpu" "${want:-}" <<'PY' || { cat "$TMP/err" >&2; fail "--per-cache$lvl rows"; }
import re, sys
rows = [l.strip().split(",") for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
n, lvl = int(sys.argv[2]), sys.argv[3]
assert rows and all(re.match(r"^S[0-9]+-D[0-9]+-L%s-ID[0-9]+$" % (lvl or "[0-9]"), r[0]) for r in rows), rows
assert sum(int(r[1]) for r in rows) == n, (rows, n)
PY
	done
	run_pmc stat --per-cache=x -a -- true
	expect_rc 2 "--per-cache=x"
	ok "--per-cache, =l2, =L1: perf's labels, the rows' CPUs add up to the $ncpu online"
fi
