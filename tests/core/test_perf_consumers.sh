#!/usr/bin/env bash
# Scripts written against perf stat's output read pmctool's the same way (issue 24 item 7): three consumers written
# the way such scripts are (awk on fixed field numbers of -x, Python's csv module on -x, Python's json module on -j)
# run on perf 6.1's output and on pmctool's for the same command and events (software, a breakpoint, a tracepoint:
# they count here), and must extract the same fields, counts aside; the breakpoint's count is exact in both.
source "$PMC_SOURCE_DIR/tests/lib.sh"
command -v perf >/dev/null || skip "perf is not installed (Debian: linux-perf; setup.sh installs it)"
perf stat -x, -e task-clock true >/dev/null 2>&1 || skip "perf stat does not run here: $(perf stat -x, -e task-clock true 2>&1 | head -c 200)"
W=${PMC_WORKLOAD:?}
BP="mem:0x$(nm "$W" | awk '$3 == "bump" { print $1 }'):x"
EV="task-clock,page-faults,context-switches"
# The breakpoint where breakpoints fire (elsewhere perf prints 0 and pmctool <not counted>: nothing to compare).
if breakpoints_fire; then EV="$EV,$BP"; else echo "SKIP (part): no breakpoint in the comparison: $BP_PROBE"; BP=""; fi
perf stat -x, -e syscalls:sys_enter_write true >/dev/null 2>&1 && EV="$EV,syscalls:sys_enter_write"

# 1. awk on fixed fields: event ($3), value ($1), metric unit (the last field: the 7th, the 8th with -r) of -x,.
# A rate's prefix (K/sec, M/sec) follows the count, which differs between two runs: a consumer reads "*/sec".
awk_consumer() { awk -F, '!/^#/ && NF >= 7 && $3 != "" { u = $NF; sub(/^[KMG]?\/sec$/, "*/sec", u); printf "%s|%s|%s|%d\n", $3, ($1 ~ /^[0-9.]+$/ ? "num" : $1), u, NF }' "$1"; }
# 2. Python's csv module: a dict per event of the fields a script takes (value, unit, metric unit).
csv_consumer() {
	python3 - "$1" <<'PY'
import csv, sys
for row in csv.reader(l for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")):
    if len(row) >= 7 and row[2]:
        unit = "*/sec" if row[-1] in ("/sec", "K/sec", "M/sec", "G/sec") else row[-1]
        print(row[2], row[1], "num" if row[0].replace(".", "", 1).isdigit() else row[0], unit, len(row), sep="|")
PY
}
# 3. Python's json module on -j lines: the keys in order, the event, and the types of the values (perf 6.1 writes a
# zero rate's unit as "(null)", a bug pmctool does not copy: read as a rate).
json_consumer() {
	python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    d = json.loads(line)
    if "event" not in d:
        continue
    unit = "*/sec" if d["metric-unit"] in ("/sec", "K/sec", "M/sec", "G/sec", "(null)") else d["metric-unit"]
    print(d["event"], ",".join(d), type(d["metric-value"]).__name__, unit,
          "num" if d["counter-value"].replace(".", "", 1).isdigit() else d["counter-value"], sep="|")
PY
}

for rep in 1 3; do
	perf stat -r $rep -x, -e "$EV" -- "$W" calls 250 2>"$TMP/perf.x" >/dev/null || fail "perf stat -x failed"
	run_pmc stat -r $rep -x, -e "$EV" -- "$W" calls 250
	expect_rc 0 "pmctool stat -r $rep -x,"
	cp "$TMP/err" "$TMP/ours.x"
	for c in awk_consumer csv_consumer; do
		$c "$TMP/perf.x" > "$TMP/perf.$c"
		$c "$TMP/ours.x" > "$TMP/ours.$c"
		[ -s "$TMP/perf.$c" ] || fail "$c read nothing from perf's output"
		diff -u "$TMP/perf.$c" "$TMP/ours.$c" >&2 || fail "-r $rep: $c reads pmctool's -x differently from perf's"
	done
	[ -z "$BP" ] || { grep -q "^250,,$BP," "$TMP/perf.x" && grep -q "^250,,$BP," "$TMP/ours.x"; } ||
		fail "-r $rep: the breakpoint's exact 250"

	perf stat -r $rep -j -e "$EV" -- "$W" calls 250 2>"$TMP/perf.j" >/dev/null || fail "perf stat -j failed"
	run_pmc stat -r $rep -j -e "$EV" -- "$W" calls 250
	expect_rc 0 "pmctool stat -r $rep -j"
	json_consumer "$TMP/perf.j" > "$TMP/perf.json_consumer"
	json_consumer "$TMP/err" > "$TMP/ours.json_consumer"
	[ -s "$TMP/perf.json_consumer" ] || fail "json_consumer read nothing from perf's -j"
	diff -u "$TMP/perf.json_consumer" "$TMP/ours.json_consumer" >&2 || fail "-r $rep: json reads pmctool's -j differently"
	ok "-r $rep: awk, csv and json consumers read pmctool's -x and -j as they read perf's ($(wc -l < "$TMP/perf.awk_consumer") events)"
done

# -d, -dd, -ddd: perf's detailed events in perf's order, each as perf prints it here (counted, or its marker), read by
# the csv consumer (pmctool's default list adds ref-cycles and msr/tsc/ to perf's: only the detailed events compared).
for lvl in d dd ddd; do
	perf stat -$lvl -x, -- true 2>"$TMP/perf.d" >/dev/null || fail "perf stat -$lvl failed"
	run_pmc stat -$lvl -x, -- true
	[ "$RC" -eq 0 ] || [ "$RC" -eq 3 ] || fail "pmctool stat -$lvl: exit status $RC (3: nothing counted, no PMU)"
	pick() { csv_consumer "$1" | grep -E '^(L1-|LLC-|dTLB-|iTLB-)' | cut -d'|' -f1,3 | sed 's/|num$/|counted/'; }
	pick "$TMP/perf.d" > "$TMP/perf.pick"
	pick "$TMP/err" > "$TMP/ours.pick"
	[ -s "$TMP/perf.pick" ] || fail "-$lvl: perf printed no detailed event"
	diff -u "$TMP/perf.pick" "$TMP/ours.pick" >&2 || fail "-$lvl: the detailed events differ from perf's"
done
ok "-d, -dd, -ddd: perf's detailed events, in perf's order, counted or marked as perf marks them"
