#!/usr/bin/env bash
# Scripts of the kind people write around perf stat read pmctool's output as they read perf's (issue 34), written
# here by us the way such scripts are:
#   1. an interval normalizer of `perf stat -I MS -x,` (as pmu-tools' interval-normalize does it): the first field
#      of every line is the interval's time, the lines of one time are one interval, one column per event; a line
#      whose first field is not a time is a parse error;
#   2. a JSON-lines loader of `perf stat -I MS -j`: every line one object, each with an "interval";
#   3. a `-x;` per-thread parser: "comm-tid;value;unit;event;..." rows, a dict per thread.
# Each runs on perf 6.1's output and on pmctool's for the same command line; their results must have the same shape
# (intervals, events, keys, thread rows), counts aside.
source "$PMC_SOURCE_DIR/tests/lib.sh"
command -v perf >/dev/null || skip "perf is not installed (Debian: linux-perf; setup.sh installs it)"
perf stat -x, -e task-clock true >/dev/null 2>&1 || skip "perf stat does not run here: $(perf stat -x, -e task-clock true 2>&1 | head -c 200)"
W=${PMC_WORKLOAD:?}
EV=task-clock,page-faults,context-switches

normalize() {
	python3 - "$1" <<'PY'
import sys
intervals, events, errors = {}, [], 0
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    f = line.split(",")
    try:
        t = float(f[0])
    except ValueError:
        errors += 1
        print("PARSE-ERROR", line)
        continue
    ev = f[3]
    if ev not in events:
        events.append(ev)
    intervals.setdefault(t, {})[ev] = f[1]
print("events", ",".join(events))
print("intervals", len(intervals), "complete", sum(len(v) == len(events) for v in intervals.values()))
print("times-ascending", list(intervals) == sorted(intervals))
sys.exit(1 if errors else 0)
PY
}

jsonl() {
	python3 - "$1" <<'PY'
import json, sys
n, keys = 0, set()
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    d = json.loads(line)  # any line that is not an object fails the loader
    assert "interval" in d, f"a line without an interval: {line!r}"
    keys.add(",".join(d))
    n += 1
print("lines", n > 0, "key-orders", sorted(keys))
PY
}

# 1 and 2: -I 100 over a command of about 0.35 s: three intervals and the partial last one (perf and pmctool may
# see 3 or 4: the shape compared is the events and completeness, not the count of intervals).
perf stat -I 100 -x, -e $EV -- sleep 0.35 2>"$TMP/perf.x" >/dev/null || fail "perf stat -I -x, failed"
run_pmc stat -I 100 -x, -e $EV -- sleep 0.35
expect_rc 0 "pmctool stat -I 100 -x,"
normalize "$TMP/perf.x" >"$TMP/perf.norm" || { cat "$TMP/perf.norm"; fail "the normalizer fails on perf's own -I -x, output"; }
normalize "$TMP/err" >"$TMP/ours.norm" || { cat "$TMP/ours.norm" "$TMP/err" >&2; fail "the interval normalizer cannot parse pmctool's -I -x, output"; }
grep -v '^intervals' "$TMP/perf.norm" >"$TMP/a"; grep -v '^intervals' "$TMP/ours.norm" >"$TMP/b"
diff "$TMP/a" "$TMP/b" || fail "the normalizer reads other events or order from pmctool's -I -x, than from perf's"
awk '$1 == "intervals" && $2 == $4 && $2 >= 3 { ok = 1 } END { exit !ok }' "$TMP/ours.norm" ||
	{ cat "$TMP/ours.norm"; fail "pmctool's intervals are not all complete"; }
# byte-exact readers (cut -c, fixed-width regexes): the time is right-aligned in 16 columns, as perf's
[ "$(awk -F, '!/^#/ { print length($1) }' "$TMP/perf.x" | sort -u)" = "$(awk -F, '!/^#/ { print length($1) }' "$TMP/err" | sort -u)" ] ||
	{ head -2 "$TMP/perf.x" "$TMP/err" >&2; fail "-I -x,: the time's width differs from perf's"; }
ok "interval normalizer: $(grep ^intervals "$TMP/ours.norm"), the events as perf's"

perf stat -I 100 -j -e $EV -- sleep 0.25 2>"$TMP/perf.j" >/dev/null || fail "perf stat -I -j failed"
run_pmc stat -I 100 -j -e $EV -- sleep 0.25
expect_rc 0 "pmctool stat -I 100 -j"
jsonl "$TMP/perf.j" >"$TMP/perf.jl" || fail "the JSON-lines loader fails on perf's own -I -j output"
jsonl "$TMP/err" >"$TMP/ours.jl" || { cat "$TMP/err" >&2; fail "the JSON-lines loader cannot load pmctool's -I -j output"; }
diff "$TMP/perf.jl" "$TMP/ours.jl" || fail "pmctool's -I -j lines have other keys than perf's"
ok "JSON-lines loader: every line an interval object with perf's keys"


# -I with rows (-A, --per-core, --per-socket): perf prints the rows alone in every interval, each with its label and
# (--per-*) the number of CPUs in it: the same field counts, no unlabelled total line.
if perf stat -a -e task-clock true >/dev/null 2>&1; then
	for rows in -A --per-core --per-socket; do
		perf stat -I 100 -x, -a $rows -e task-clock -- sleep 0.25 2>"$TMP/perf.r" >/dev/null || fail "perf stat -I -a $rows failed"
		run_pmc stat -I 100 -x, -a $rows -e task-clock -- sleep 0.25
		expect_rc 0 "pmctool stat -I 100 -x, -a $rows"
		shape() { awk -F, '!/^#/ && NF { print NF, ($2 ~ /^(CPU|S)[0-9]/) }' "$1" | sort -u; }
		[ "$(shape "$TMP/perf.r")" = "$(shape "$TMP/err")" ] ||
			{ cat "$TMP/perf.r" "$TMP/err" >&2; fail "-I -a $rows: pmctool's lines have other fields than perf's"; }
	done
	ok "-I -x, with -A, --per-core, --per-socket: perf's fields, rows alone"
fi

# --summary: the total after the intervals, as perf; each total line starts with "summary" in -x (perf's
# --no-csv-summary leaves the word out), right-aligned in 16 columns as perf's.
run_pmc stat -I 100 -x, --summary -e task-clock -- sleep 0.15
expect_rc 0 "pmctool stat -I 100 -x, --summary"
[ "$(grep -c '^         summary,[0-9.]*,msec,task-clock,' "$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "--summary: no 'summary,' line"; }
run_pmc stat -I 100 -x, --summary --no-csv-summary -e task-clock -- sleep 0.15
expect_rc 0 "pmctool stat -I 100 -x, --summary --no-csv-summary"
! grep -q summary "$TMP/err" && [ "$(grep -c '^[0-9.]*,msec,task-clock,' "$TMP/err")" -eq 1 ] ||
	{ cat "$TMP/err"; fail "--no-csv-summary: the total line is not perf's"; }
ok "-I -x, --summary ends with perf's summary lines (--no-csv-summary: without the word)"

# 3. a -x; per-thread parser (as CSIT-style harnesses read perf stat --per-thread): "comm-tid;value;unit;event;..."
# rows into a dict per thread. -p PID with a command (perf's: attached while the command runs) and --per-thread -a
# (every thread of the system; CPU-wide privilege).
per_thread() {
	python3 - "$1" <<'PY'
import sys
threads = {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split(";")
    if line.startswith("#") or len(f) < 8 or "-" not in f[0]:
        continue
    comm, _, tid = f[0].rpartition("-")
    if not tid.isdigit():
        continue
    threads.setdefault((comm, int(tid)), {})[f[3]] = f[1]
print(len(threads), sorted({len(v) > 0 for v in threads.values()}))
for (comm, tid), v in sorted(threads.items())[:3]:
    print(comm, tid, sorted(v))
PY
}
sh -c 'while :; do :; done' & lp=$!
run_pmc stat -x';' --per-thread -p $lp -e task-clock,context-switches -- sleep 0.2
kill $lp; wait $lp 2>/dev/null || true
expect_rc 0 "pmctool stat -x; --per-thread -p PID -- sleep 0.2"
got=$(per_thread "$TMP/err")
[ "$(head -1 <<<"$got")" = "1 [True]" ] && grep -q "^sh $lp \['context-switches', 'task-clock'\]" <<<"$got" ||
	{ cat "$TMP/err"; echo "$got"; fail "-x; --per-thread -p PID with a command: the parser does not get the one thread's row"; }
ok "-x; per-thread parser: -p PID -- COMMAND gives the attached thread's row"
if perf stat -a -e task-clock true >/dev/null 2>&1; then
	# two threads that surely run while it counts (rows that counted nothing are left out, as perf's; a quiet
	# machine may run no other thread during a short command)
	sh -c 'while :; do :; done' & l1=$!
	sh -c 'while :; do :; done' & l2=$!
	run_pmc stat -x';' --per-thread -a -- sleep 0.2
	kill $l1 $l2; wait $l1 $l2 2>/dev/null || true
	expect_rc 0 "pmctool stat -x; --per-thread -a -- sleep 0.2"
	got=$(per_thread "$TMP/err")
	n=${got%% *}
	[ "$n" -ge 2 ] || { head -20 "$TMP/err"; fail "--per-thread -a: the parser got $n threads"; }
	awk -F';' '!/^#/ && NF != 8 { bad = 1 } END { exit bad }' "$TMP/err" ||
		{ head -20 "$TMP/err"; fail "--per-thread -a: a line without perf's 8 fields"; }
	ok "-x; per-thread parser: --per-thread -a gives $n threads, perf's 8 fields each"
fi

# 4. a consumer that maps perf's default events to its own keys: without -e, -x gives perf's events only (no
# msr/tsc/ or ref-cycles, which perf's default list does not have).
perf stat -x, true 2>"$TMP/perf.d" >/dev/null || fail "perf stat -x, true failed"
run_pmc stat -x, -- true
expect_rc 0 "pmctool stat -x, true"
unknown=$(comm -13 <(awk -F, '!/^#/ && NF >= 7 { print $3 }' "$TMP/perf.d" | sort -u) <(awk -F, '!/^#/ && NF >= 7 && $3 != "" { print $3 }' "$TMP/err" | sort -u))
[ -z "$unknown" ] || { cat "$TMP/err" >&2; fail "-x without -e: events perf's default list does not have: $unknown"; }
ok "-x without -e: perf's default events only"

# 5. a set -e script: perf's exit status for perf's formats when no event is supported here (perf exits 0 and
# prints <not supported>): on a machine with the counters both count and exit 0.
for args in "-x, -e cycles" "-j -e cycles" "-x, --metric-only -e cycles,instructions" "-x, -r2 -e {cycles,cycles}:W"; do
	set +e
	perf stat $args true >/dev/null 2>&1; prc=$?
	"$PMCTOOL" stat $args -- true >/dev/null 2>&1; rc=$?
	set -e
	[ "$rc" -eq "$prc" ] || fail "pmctool stat $args true: exit status $rc, perf's $prc"
done
ok "set -e scripts: perf's exit status for -x/-j runs whose events this machine lacks"

# 6. an --append file of runs, split as perf's are: each run starts with "# started on DATE" and an empty line
# (table and -x, as perf 6.1; -j has none, as newer perf's, so every line stays a JSON object).
for f in -x, ""; do
	rm -f "$TMP/app.txt"
	for i in 1 2 3; do "$PMCTOOL" stat $f -e task-clock -o "$TMP/app.txt" --append -- true || fail "--append run $i"; done
	[ "$(grep -c '^# started on [A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]\{8\} [0-9]\{4\}$' "$TMP/app.txt")" -eq 3 ] ||
		{ cat "$TMP/app.txt"; fail "-o --append ${f:-(table)}: not three '# started on' headers"; }
done
perf stat -x, -e task-clock -o "$TMP/perf.o" true || fail "perf stat -o failed"
"$PMCTOOL" stat -x, -e task-clock -o "$TMP/ours.o" -- true || fail "pmctool stat -o failed"
[ "$(sed -n 2p "$TMP/perf.o")" = "$(sed -n 2p "$TMP/ours.o")" ] && [ "$(cut -c1-13 "$TMP/perf.o" | head -1)" = "$(cut -c1-13 "$TMP/ours.o" | head -1)" ] ||
	{ head -3 "$TMP/perf.o" "$TMP/ours.o"; fail "-o -x,: the header's lines differ from perf's"; }
"$PMCTOOL" stat -j -e task-clock -o "$TMP/j.o" -- true || fail "pmctool stat -j -o failed"
python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1]) if l.strip()]' "$TMP/j.o" || fail "-j -o: a line that is not JSON"
ok "-o: perf's '# started on' header (table, -x), none in -j; --append files split into runs"

# 7. no command and no target (perf stat -e EVENT alone): system-wide until Ctrl-C or --timeout, as perf.
if perf stat -a -e task-clock true >/dev/null 2>&1; then
	run_pmc stat -x, -e task-clock --timeout 200
	expect_rc 0 "pmctool stat -x, -e task-clock --timeout 200 (no command)"
	[ "$(grep -c '^[0-9.]*,msec,task-clock,' "$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "no command: not one system-wide task-clock line"; }
	"$PMCTOOL" stat -x, -e task-clock 2>"$TMP/int.err" & sp=$!
	sleep 0.3
	kill -INT $sp
	set +e; wait $sp; rc=$?; set -e
	[ $rc -eq 130 ] && grep -q '^[0-9.]*,msec,task-clock,' "$TMP/int.err" || { cat "$TMP/int.err"; fail "no command: Ctrl-C gave $rc without the counts"; }
	ok "no command and no target: system-wide until --timeout or Ctrl-C (the counts so far)"
fi
