#!/usr/bin/env bash
# FIFOs never hang pmctool and never cost a measured result (issue 28 item 5), and --control fifo: opens FIFOs and
# nothing else (item 3). -o FIFO without a reader: pmctool waits 2 s for one, then exits 4 saying so, with the counts
# on stderr; Ctrl-C during that wait prints the counts too. -g FIFO is refused at once. --control fifo:CTL,ACK where
# either is not a FIFO is exit 2 before anything runs, and the file is left as it was. All in a temporary directory.
source "$PMC_SOURCE_DIR/tests/lib.sh"

mkfifo "$TMP/fifo"

# 1. No reader ever: a bounded wait, then the counts on stderr (timeout only guards against the old hang).
start=$(date +%s)
set +e
timeout 30 "$PMCTOOL" stat -e task-clock -o "$TMP/fifo" -- true >"$TMP/out" 2>"$TMP/err"; RC=$?
set -e
[ "$RC" -ne 124 ] || fail "-o FIFO without a reader: still waiting after 30 s"
expect_rc 4 "-o FIFO without a reader"
expect_err "cannot write the report to '$TMP/fifo': no process has the FIFO open for reading" "the reason is given"
expect_err "the report follows on stderr instead" "where the report went is said"
expect_err "[0-9.]+ msec +task-clock" "the counts are on stderr"
[ $(( $(date +%s) - start )) -lt 15 ] || fail "the wait for a reader was not bounded"
[ -p "$TMP/fifo" ] || fail "the FIFO was replaced"
ok "-o FIFO without a reader: exit 4 after a bounded wait, the counts on stderr"

# 2. Ctrl-C while waiting for the reader: the counts are printed all the same.
# The signal goes once the command has run (pmctool's handler is in place by then), into the 2 s wait.
"$PMCTOOL" stat -e task-clock,page-faults -o "$TMP/fifo" -- touch "$TMP/started" >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 300); do [ -e "$TMP/started" ] && break; sleep 0.05; done
[ -e "$TMP/started" ] || fail "the command did not run within 15 s"
sleep 0.5
kill -INT "$pid" 2>/dev/null || true
set +e
timeout 30 tail --pid="$pid" -f /dev/null
wait "$pid"; RC=$?
set -e
expect_rc 4 "Ctrl-C while waiting for a FIFO's reader"
expect_err "[0-9.]+ msec +task-clock" "the counts are on stderr after Ctrl-C"
ok "Ctrl-C while waiting for a FIFO's reader prints the counts"

# 3. A reader that comes during the wait gets the whole report.
( sleep 0.5; cat "$TMP/fifo" >"$TMP/fifo.out" ) &
reader=$!
run_pmc stat --json -e task-clock -o "$TMP/fifo" -- true
wait "$reader"
expect_rc 0 "-o FIFO whose reader comes late"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/fifo.out" || fail "the late reader did not get the JSON"
ok "-o FIFO: a reader that comes within the wait gets the whole report"

# 4. -g FIFO: refused at once, never blocked in open().
set +e
timeout 30 "$PMCTOOL" stat -g "$TMP/fifo" -- true >"$TMP/out" 2>"$TMP/err"; RC=$?
set -e
[ "$RC" -ne 124 ] || fail "-g FIFO blocked"
expect_rc 2 "-g FIFO"
expect_err "$TMP/fifo: not a regular file \(a FIFO" "the refusal says why"
ok "-g FIFO is refused at once with exit 2"

# 5. --control fifo:CTL,ACK with a regular file in either place: exit 2 before the command runs, the file untouched.
mkfifo "$TMP/ctl" "$TMP/ack"
printf 'root:x:0:0:root:/root:/bin/bash\n' >"$TMP/passwd"
cp "$TMP/passwd" "$TMP/passwd.orig"
for spec in "fifo:$TMP/ctl,$TMP/passwd" "fifo:$TMP/passwd,$TMP/ack" "fifo:$TMP/passwd"; do
	run_pmc stat -e task-clock --control "$spec" -- touch "$TMP/ran"
	expect_rc 2 "--control $spec"
	expect_err "'$TMP/passwd' is not a FIFO" "the file is named"
	[ ! -e "$TMP/ran" ] || fail "--control $spec: the command ran"
	cmp -s "$TMP/passwd" "$TMP/passwd.orig" || fail "--control $spec wrote into a regular file"
done
run_pmc stat -e task-clock --control "fifo:$TMP/ctl,$TMP" -- true
expect_rc 2 "--control with a directory as ACK"
ok "--control fifo: refuses anything but a FIFO, before anything runs, the file untouched"

# 6. The other commands that write -o (compare here; sweep and merge share the code): a FIFO without a reader is the
# same bounded wait, and the output goes to stderr instead of being lost.
"$PMCTOOL" stat --json -r 2 -e task-clock -o "$TMP/a.json" -- true
"$PMCTOOL" stat --json -r 2 -e task-clock -o "$TMP/b.json" -- true
set +e
timeout 30 "$PMCTOOL" compare -o "$TMP/fifo" "$TMP/a.json" "$TMP/b.json" >"$TMP/out" 2>"$TMP/err"; RC=$?
set -e
[ "$RC" -ne 124 ] || fail "compare -o FIFO without a reader: still waiting after 30 s"
expect_rc 4 "compare -o FIFO without a reader"
expect_err "no process has the FIFO open for reading" "the reason is given"
expect_err "task-clock" "the comparison is on stderr"
ok "compare -o FIFO without a reader: exit 4 after the wait, the comparison on stderr"

# 7. -I -o FIFO: the records go out as they happen, so the FIFO is opened before the run; without a reader that is the
# same bounded wait and exit 4 before the command runs (it blocked in open() for ever), and with one the records flow.
set +e
timeout 30 "$PMCTOOL" stat -I 100 -e task-clock -o "$TMP/fifo" -- touch "$TMP/ran-i" >"$TMP/out" 2>"$TMP/err"; RC=$?
set -e
[ "$RC" -ne 124 ] || fail "-I -o FIFO without a reader: still waiting after 30 s"
expect_rc 4 "-I -o FIFO without a reader"
expect_err "cannot write the interval records to '$TMP/fifo': no process has the FIFO open for reading" "-I: the reason"
[ ! -e "$TMP/ran-i" ] || fail "-I -o FIFO without a reader: the command ran although nothing could record it"
cat "$TMP/fifo" >"$TMP/records" &
reader=$!
run_pmc stat -I 100 -e task-clock -o "$TMP/fifo" -- sleep 0.35
expect_rc 0 "-I -o FIFO with a reader"
wait "$reader"
grep -q task-clock "$TMP/records" || fail "-I -o FIFO: the reader got no records"
ok "-I -o FIFO: a bounded wait without a reader, the records with one"
