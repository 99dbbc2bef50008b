#!/usr/bin/env bash
# Tracepoints that exist but cannot be used are told as such, never as "unknown": tracefs closed to this user
# (mode 0700, as nobody), an ftrace record without an id (ftrace:bprint); and a suggestion is never the input itself.
# A copy of the fixture tracefs in a temp dir stands for /sys/kernel/tracing (PMCTOOL_TRACEFS).
source "$PMC_SOURCE_DIR/tests/lib.sh"
chmod 755 "$TMP"
cp -r "$PMC_SOURCE_DIR/tests/pmu/tracefs" "$TMP/tf"
mkdir -p "$TMP/tf/events/ftrace/bprint" "$TMP/tf/events/ftrace/print"
echo "name: bprint" >"$TMP/tf/events/ftrace/bprint/format"
echo 5 >"$TMP/tf/events/ftrace/print/id"
export PMCTOOL_TRACEFS="$TMP/tf"

run_pmc stat -e ftrace:bprint -- true
expect_rc 2 "ftrace:bprint"
expect_err "tracepoint 'ftrace:bprint' exists but has no id" "ftrace:bprint: an event perf cannot open"
grep -q "did you mean 'ftrace:bprint'" "$TMP/err" && fail "ftrace:bprint suggests itself"
run_pmc stat -e ftrace:bprin -- true
expect_rc 2 "ftrace:bprin"
expect_err "did you mean 'ftrace:print'\\?" "a misspelt ftrace event: only events with an id are suggested"
ok "ftrace:bprint is told it has no id; a misspelling suggests only events with an id, never the input"

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	cp "$PMCTOOL" "$TMP/pmctool"
	chmod 755 "$TMP/pmctool"
	chmod 700 "$TMP/tf"
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	set +e
	as_nobody "$TMP/pmctool" stat -e sched:sched_switch -- true >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc 2 "an unreadable tracefs"
	expect_err "sched:sched_switch': .* is readable by root only" "as nobody, tracefs 0700: not an unknown event"
	grep -q "unknown" "$TMP/err" && fail "as nobody, tracefs 0700: an existing tracepoint called unknown"
	set +e
	as_nobody "$TMP/pmctool" list sched: >"$TMP/out" 2>"$TMP/err"
	set -e
	expect_err "$TMP/tf/events is not readable by this user" "list sched: as nobody says tracefs is unreadable"
	ok "as nobody with tracefs 0700: the tracepoint and list say tracefs is not readable"
else
	echo "note: not root (or no setpriv): the unreadable tracefs case is not run"
fi
