#!/usr/bin/env bash
# Hostile saved reports (issue 39 item 6): report, compare and merge follow one rule for a FIFO (refused at once,
# named, with what to do, as -g refuses one; open(2) used to wait for a writer for ever), and a value that is not a
# count (a string, 1e400, a huge negative) is an error naming the field, exit 2, never "0.00 msec", a negative count
# or A's value shown as B's; stat -I --json's NDJSON is read by its total. timeout(1) only turns a hang into a failure; nothing is timed.
source "$PMC_SOURCE_DIR/tests/lib.sh"

run_t() { # like run_pmc, a hang (exit 124) failing the test
	set +e
	timeout 60 "$PMCTOOL" "$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	[ "$RC" -ne 124 ] || fail "pmctool $*: still waiting after 60 s"
}

run_pmc stat -r 2 --json -o "$TMP/good.json" -e task-clock,page-faults -- true
expect_rc 0 "stat --json"

# 1. A FIFO nobody writes: every reader refuses it at once, naming it.
mkfifo "$TMP/fifo.json"
for cmd in "report $TMP/fifo.json" "compare $TMP/fifo.json $TMP/good.json" "compare $TMP/good.json $TMP/fifo.json" \
	"merge $TMP/fifo.json $TMP/good.json"; do
	# shellcheck disable=SC2086 # the words are the command line
	run_t $cmd
	[ "$RC" -ne 0 ] || fail "$cmd: a FIFO accepted"
	expect_err "fifo.json.*not a regular file \(a FIFO, device or socket\).*save it to a file first" "$cmd: the rule"
done

# 2. Values that are not counts: exit 2, the field named.
bad() { # NAME PYTHON-EXPR-ON-d WANT-IN-STDERR
	python3 - "$TMP/good.json" "$TMP/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
text = json.dumps(d).replace('"@HUGE@"', '1e400').replace('"@NEGHUGE@"', '-5e300')
open(sys.argv[2], "w").write(text)
PY
	for cmd in "report $TMP/$1.json" "compare $TMP/good.json $TMP/$1.json" "compare $TMP/$1.json $TMP/good.json"; do
		# shellcheck disable=SC2086
		run_t $cmd
		expect_rc 2 "$cmd ($1)"
		expect_err "$3" "$cmd ($1): the field named"
		[ ! -s "$TMP/out" ] || fail "$cmd ($1): a report printed from a bad value"
	done
}
bad string 'd["events"][0]["samples"][0]["value"] = "12"' \
	"events\[0\] \('task-clock'\)\.samples\[0\]\.value is not a number \(a string\)"
bad huge 'd["events"][1]["samples"][1]["value"] = "@HUGE@"' \
	"events\[1\] \('page-faults'\)\.samples\[1\]\.value is the out-of-range inf, not a count"
bad negative 'd["events"][1]["samples"][0]["value"] = "@NEGHUGE@"' \
	"events\[1\] \('page-faults'\)\.samples\[0\]\.value is the negative -5e\+300, not a count"
bad mean 'd["events"][0]["mean"] = -1' "events\[0\] \('task-clock'\)\.mean is the negative -1"
bad wall 'd["executions"][0]["wall_ns"] = "fast"' "executions\[0\]\.wall_ns is not a number"
bad metric 'd["metrics"][0]["value"] = "@HUGE@"' "metrics\[0\] \('[^']*'\)\.value is the out-of-range inf, not a finite number"
# merge names the rank's file and why it was left out
run_t merge "$TMP/good.json" "$TMP/string.json"
expect_err "string.json.*samples\[0\]\.value is not a number" "merge: the field named"

# 3. A metric may be negative (a difference); null is "not measured": both still read.
python3 - "$TMP/good.json" "$TMP/ok.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["metrics"][0]["value"] = -0.5
d["events"][0]["stddev"] = None
json.dump(d, open(sys.argv[2], "w"))
PY
run_t report "$TMP/ok.json"
expect_rc 0 "report with a negative metric and a null stddev"
# 4. stat -I --json's own NDJSON: the total (its last line) is read; without it, the file is named for what it is.
run_pmc stat -I 100 --json -o "$TMP/ivl.json" -e task-clock,page-faults -- sleep 0.25
expect_rc 0 "stat -I --json"
[ "$(wc -l <"$TMP/ivl.json")" -ge 2 ] || fail "stat -I --json: expected intervals and a total, one a line"
run_t report "$TMP/ivl.json"
expect_rc 0 "report on -I --json NDJSON"
expect_out "page-faults" "report on NDJSON: the total's events"
run_t compare "$TMP/ivl.json" "$TMP/good.json"
expect_rc 0 "compare with an NDJSON operand"
head -n 1 "$TMP/ivl.json" >"$TMP/ivl1.json"
run_t report "$TMP/ivl1.json"
expect_rc 2 "report on an interval stream without its total"
expect_err "-I --json stream \(one interval a line\) without the run's total" "what the file is, and what to do"
# 5. One escaping rule for every text output: ESC, CR and bytes that are not UTF-8 in a saved report's event name
#    come out as \xHH from report (text, CSV) as from compare, never raw.
python3 - "$TMP/good.json" "$TMP/esc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["events"][1]["name"] = "page\x1b[2J\rfaults"
json.dump(d, open(sys.argv[2], "w"))
PY
for args in "report $TMP/esc.json" "report --csv $TMP/esc.json" "report -x ; $TMP/esc.json" "compare $TMP/esc.json $TMP/good.json"; do
	# shellcheck disable=SC2086
	run_t $args
	expect_rc 0 "$args"
	cat "$TMP/out" "$TMP/err" >"$TMP/all"
	grep -q $'\x1b' "$TMP/all" && fail "$args: ESC printed raw"
	sed 's/\r$//' "$TMP/all" | grep -q $'\r' && fail "$args: CR printed raw (not CSV's CR LF)"
	grep -qF 'page\x1b[2J\x0dfaults' "$TMP/all" || { cat "$TMP/all" >&2; fail "$args: the name not escaped as \\xHH"; }
done
ok "report, compare, merge: FIFOs refused with one rule; strings, 1e400 and huge negatives named, exit 2"
