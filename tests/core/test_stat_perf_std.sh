#!/usr/bin/env bash
# --perf-layout is perf stat's own table, column for column (issue 34 item 11): on the same software events (and the
# hardware ones, <not supported> where there is no PMU) perf 6.1 and pmctool print the same lines in the same places:
# the header, each event's count, unit, name and perf's metric beside it at perf's columns, the spread of -r runs,
# the time lines, the blank lines. Only the numbers may differ (two runs of a command never count the same).
source "$PMC_SOURCE_DIR/tests/lib.sh"
command -v perf >/dev/null || skip "perf is not installed (Debian: linux-perf; setup.sh installs it)"
perf stat -e task-clock true >/dev/null 2>&1 || skip "perf stat -e task-clock true fails here: $(perf stat -e task-clock true 2>&1 | head -c 200)"

cat >"$TMP/shape.py" <<'PY'
import re, sys
num = re.compile(r"[-+]?\d+(?:\.\d+)?")
def shape(path):
    out = []
    for line in open(path).read().split("\n"):
        # an event's spread over -r runs: there when its counts differed, at column 91 after perf's metric field;
        # whether they differed is the run's, not the layout's
        noise = re.search(r"  \( \+-[ \d.]{6}% \)$", line)
        if noise and "seconds" not in line:
            assert noise.start() == 91, f"{path}: the spread at column {noise.start()}, not 91: {line!r}"
            line = line[:noise.start()]
        # every word that is not a number, and the column it starts at (counts and metrics are right-aligned in
        # perf's fixed fields, so the words after them stand at fixed columns); the time lines' precision follows
        # the runs' spread, so there only the words
        # a rate's unit follows its size (/sec, K/sec, M/sec), which differs from run to run
        words = [("RATE/sec" if m.group(0) in ("/sec", "K/sec", "M/sec", "G/sec") else m.group(0), m.start())
                 for m in re.finditer(r"\S+", line) if not num.fullmatch(m.group(0).strip("%()"))]
        timed = "seconds" in line
        out.append(([w for w, _ in words], None if timed else [c for _, c in words], None if timed else len(line)))
    return out
perf, pmc = shape(sys.argv[1]), shape(sys.argv[2])
if perf != pmc:
    for i, (a, b) in enumerate(zip(perf, pmc)):
        if a != b:
            print(f"line {i + 1}: perf {a}\n        pmctool {b}")
            break
    print(f"perf {len(perf)} lines, pmctool {len(pmc)}")
    sys.exit(1)
print(f"{len(perf)} lines alike")
PY

compare() {
	local what=$1
	shift
	perf stat "$@" 2>"$TMP/perf.txt" >/dev/null || fail "$what: perf stat $* failed"
	run_pmc stat --perf-layout "$@"
	expect_rc 0 "$what: pmctool stat --perf-layout"
	out=$(python3 "$TMP/shape.py" "$TMP/perf.txt" "$TMP/err") || {
		cat "$TMP/perf.txt" "$TMP/err" >&2; fail "$what: the layout differs from perf's: $out"; }
	ok "$what: $out"
}
# perf's default list on a PMU adds lines of its own beside instructions (stalled cycles per insn, where the PMU has
# those events) that pmctool's one metric beside an event does not give: compared where there is no PMU
if has_hw_pmu; then
	echo "skip: the default events (a hardware PMU: perf adds its stalled-cycles lines)"
else
	compare "the default events" -- true
fi
compare "-r 3, software events" -r 3 -e task-clock,page-faults,context-switches,cpu-migrations -- true
compare "-r 3 with a hardware event" -r 3 -e task-clock,cycles,page-faults -- true

run_pmc stat --perf-layout -I 100 -- true
expect_rc 2 "--perf-layout -I"
expect_err "perf-layout prints perf's table of totals" "the refusal says why"
ok "--perf-layout with -I is refused, naming why"
