#!/usr/bin/env bash
# -x SEP reads like perf stat -x SEP (issue 12 item 15, issue 24 item 6): on the same software events (and an
# unsupported hardware one where there is no PMU), every row has perf's field count and order: value, unit, event,
# [variance,] run time, running %, metric value, metric unit, the metric being perf's own beside each event (its
# words, a number where perf has one). pmctool's other metric rows have the same count with the first fields empty;
# -I -x lines have perf's count with the time first.
source "$PMC_SOURCE_DIR/tests/lib.sh"
command -v perf >/dev/null || skip "perf is not installed (Debian: linux-perf; setup.sh installs it)"
perf stat -x, -e task-clock true >/dev/null 2>&1 || skip "perf stat -x, -e task-clock true fails here: $(perf stat -x, -e task-clock true 2>&1 | head -c 200)"

events=task-clock,page-faults,context-switches,cpu-migrations
has_hw_pmu || events=$events,cycles
for rep in 1 3; do
	perf stat -r $rep -x, -e $events true 2>"$TMP/perf.csv" >/dev/null || fail "perf stat -r $rep failed"
	run_pmc stat -r $rep -x, -e $events -- true
	expect_rc 0 "pmctool stat -r $rep -x,"
	python3 - "$TMP/perf.csv" "$TMP/err" $rep <<'PY' || fail "-r $rep: the -x layout differs from perf's"
import re, sys
def rows(path):
    return [l.rstrip("\n").split(",") for l in open(path) if l.strip() and not l.startswith("#")]
perf, ours, rep = rows(sys.argv[1]), rows(sys.argv[2]), int(sys.argv[3])
num = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
pev = {r[2]: r for r in perf if len(r) > 2 and r[2]}
oev = [r for r in ours if r[2]]
width = 7 + (rep > 1)
assert all(len(r) == width for r in perf if r[2]), ("perf", perf)
for r in ours:
    assert len(r) == width, f"{r}: {len(r)} fields, perf has {width}"
assert [r[2] for r in oev] == [r[2] for r in perf if r[2]], "event order"
for r in oev:
    p = pev[r[2]]
    assert r[1] == p[1], f"{r[2]}: unit {r[1]!r}, perf {p[1]!r}"
    assert bool(num.match(r[0])) == bool(num.match(p[0])), f"{r[2]}: value {r[0]!r}, perf {p[0]!r}"
    if not num.match(p[0]):
        assert r[0] == p[0], f"{r[2]}: marker {r[0]!r}, perf {p[0]!r}"
    i = 3
    if rep > 1:
        assert r[3].endswith("%") and p[3].endswith("%"), f"variance field: {r[3]!r} / {p[3]!r}"
        i = 4
    assert num.match(r[i]) and num.match(p[i]), f"run time: {r[i]!r} / {p[i]!r}"
    assert r[i] .isdigit() and p[i].isdigit()
    assert re.match(r"^[0-9]+\.[0-9]{2}$", r[i + 1]) and re.match(r"^[0-9]+\.[0-9]{2}$", p[i + 1]), \
        f"running %: {r[i + 1]!r} / {p[i + 1]!r}"
    if not num.match(p[0]):
        assert r[i] == p[i] and r[i + 1] == p[i + 1], f"{r[2]}: unsupported row {r} vs perf {p}"
    # fields 6-7: perf's metric beside the event, in perf's words ("CPUs utilized", "K/sec", "/sec"), a number
    # where perf has one (issue 24 item 6)
    rate = lambda u: "*/sec" if u in ("/sec", "K/sec", "M/sec", "G/sec") else u  # the prefix follows the count
    assert rate(r[-1]) == rate(p[-1]), f"{r[2]}: metric unit {r[-1]!r}, perf {p[-1]!r}"
    assert bool(num.match(r[-2])) == bool(num.match(p[-2])), f"{r[2]}: metric value {r[-2]!r}, perf {p[-2]!r}"
for r in ours:
    if not r[2]:
        assert all(f == "" for f in r[:width - 2]) and num.match(r[-2]) and r[-1], f"metric row {r}"
print(f"{len(oev)} event rows and {len(ours) - len(oev)} metric rows match perf's {width}-field layout")
PY
	ok "-r $rep: pmctool -x, has perf's fields, in perf's order"
done

# -I -x: the time first, then perf's fields, perf's metric beside each event from the interval's counts.
perf stat -I 100 -x, -e task-clock,page-faults -- sleep 0.35 2>"$TMP/perf-i.csv" >/dev/null || fail "perf stat -I failed"
run_pmc stat -I 100 -x, -e task-clock,page-faults -- sleep 0.35
expect_rc 0 "pmctool stat -I 100 -x,"
python3 - "$TMP/perf-i.csv" "$TMP/err" <<'PY' || fail "-I -x: the layout differs from perf's"
import re, sys
def rows(path):
    return [l.strip().split(",") for l in open(path) if l.strip() and not l.startswith("#")]
perf, ours = rows(sys.argv[1]), rows(sys.argv[2])
t = re.compile(r"^[0-9]+\.[0-9]{9}$")
pw = {len(r) for r in perf}
assert len(pw) == 1, pw
iv = [r for r in ours if t.match(r[0])]
assert iv, ours
for r in iv:
    assert len(r) == next(iter(pw)), f"{r}: {len(r)} fields, perf has {pw}"
    assert r[3] in ("task-clock", "page-faults"), r
    if r[1].startswith("<"):
        assert r[4:6] == ["0", "100.00"] and r[6:] == ["", ""], f"{r}: perf prints an uncounted interval so"
    elif r[4] == "0" and float(r[1]) == 0:
        # an interval the task slept through: perf prints <not counted>, pmctool the 0 it measured (issue 33 item
        # 10; pmctool-stat(1), FOR PERF USERS); a rate over 0 ns of task-clock has no value
        assert r[6] == "" or re.match(r"^[0-9]+\.[0-9]{3}$", r[6]), f"{r}: a slept interval's metric"
    else:
        unit = {"task-clock": "CPUs utilized"}.get(r[3], "*/sec")
        got = "*/sec" if r[7] in ("/sec", "K/sec", "M/sec", "G/sec") else r[7]
        assert got == unit and re.match(r"^[0-9]+\.[0-9]{3}$", r[6]), f"{r}: perf's metric beside the event"
print(f"{len(iv)} interval lines with perf's {next(iter(pw))} fields")
PY
ok "-I -x: perf's field count, the time first, perf's metric beside each event"

# Rows: -A and --per-core/-die/-socket (CPU-wide: root or perf_event_paranoid <= 0), --per-thread of -p: perf's
# labels first (with the aggregated CPUs' count for --per-*), no total row, perf's field count.
if perf stat -a -x, -e cpu-clock -- true >/dev/null 2>&1; then
	for opt in -A --per-core --per-die --per-socket --per-node; do
		perf stat $opt -a -x, -e cpu-clock -- sleep 0.05 2>"$TMP/perf-r.csv" >/dev/null || fail "perf stat $opt"
		run_pmc stat $opt -a -x, -e cpu-clock -- sleep 0.05
		expect_rc 0 "pmctool stat $opt -a -x,"
		python3 - "$TMP/perf-r.csv" "$TMP/err" "$opt" <<'PY' || fail "$opt -x: rows differ from perf's"
import sys
def rows(path):
    return [l.strip().split(",") for l in open(path) if l.strip() and not l.startswith("#")]
perf, ours, opt = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3]
key = (lambda r: (r[0], r[1])) if opt != "-A" else (lambda r: (r[0],))
assert sorted(map(key, perf)) == sorted(map(key, ours)), (opt, perf, ours)
assert {len(r) for r in perf} == {len(r) for r in ours}, (opt, perf, ours)
assert all(r[-1] == "CPUs utilized" for r in ours), ours
PY
	done
	ok "-A, --per-core, --per-die, --per-socket, --per-node -x: perf's labels, CPU counts and field counts, no total row"
fi

# --per-thread of -p (where perf allows it): a row per thread, comm-tid first, no total line.
sleep 5 &
SP=$!
perf stat -p "$SP" --per-thread -x, -e task-clock,page-faults --timeout 200 2>"$TMP/perf-t.csv" >/dev/null || true
run_pmc stat -p "$SP" --per-thread -x, -e task-clock,page-faults --timeout 200
kill "$SP" 2>/dev/null || true
wait "$SP" 2>/dev/null || true
python3 - "$TMP/perf-t.csv" "$TMP/err" <<'PY' || fail "-p --per-thread -x: rows differ from perf's"
import sys
def rows(path):
    return [l.strip().split(",") for l in open(path) if l.strip() and not l.startswith("#")]
perf, ours = rows(sys.argv[1]), rows(sys.argv[2])
assert perf and [(r[0], r[3], len(r)) for r in perf] == [(r[0], r[3], len(r)) for r in ours], (perf, ours)
PY
ok "-p --per-thread -x: perf's rows (comm-tid, event, field count)"
