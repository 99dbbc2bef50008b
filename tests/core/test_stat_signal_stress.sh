#!/usr/bin/env bash
# Signals at random moments never leave a process of the run behind: hundreds of SIGINTs and SIGTERMs (some sent
# twice: the second ends pmctool at once) land anywhere in `-r`, `-I`, `--per-thread` and `--pre` runs, in the forks
# of the workload and its guard included. After each pmctool exits: its status is the first signal's (130/143), no
# line says the command could not run, and no process carrying the run's marker (an environment variable every
# process pmctool starts inherits: workload, guard, hook) is alive. Then a --pre hook is stopped by SIGTERM at once,
# and dies with a SIGKILLed pmctool. Bounded: PMC_STRESS_ROUNDS rounds per mode (30), each at most a few seconds.
source "$PMC_SOURCE_DIR/tests/lib.sh"

MARK="pmc-stress-$$-$RANDOM$RANDOM"
ROUNDS=${PMC_STRESS_ROUNDS:-30}

# The processes alive with this run's marker (a zombie has no environment left: it is not counted).
marked() { grep -lzx "PMC_STRESS_MARK=$MARK" /proc/[0-9]*/environ 2>/dev/null | sed 's|/proc/\([0-9]*\)/.*|\1|' || true; }

# Whether pid catches SIGINT and SIGTERM yet (its handlers are installed): a background job of a non-interactive
# shell starts with SIGINT ignored, and a SIGTERM before pmctool's handler is the default's (nothing started yet).
catching() {
	local line mask
	while read -r line; do
		case $line in SigCgt:*) mask=$((16#${line##*[[:space:]]})); (( (mask >> 1 & 1) && (mask >> 14 & 1) )); return ;; esac
	done <"/proc/$1/status" 2>/dev/null
	return 1
}

# start ARGS...: pmctool in the background with the marker, stdin /dev/null (no terminal: the workload gets its
# own process group and a guard); PID, once it catches the signals (skipped when it ended before).
start() {
	env PMC_STRESS_MARK="$MARK" "$PMCTOOL" "$@" </dev/null >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	for _ in $(seq 400); do catching "$PID" && return 0; kill -0 "$PID" 2>/dev/null || return 1; sleep 0.005; done
	fail "pmctool $* never installed its SIGINT/SIGTERM handlers"
}

# finish WHAT WANT: wait for pmctool (at most 20 s: an orphan holding its output must not hang the test), then check.
finish() {
	local what=$1 want=$2 rc left
	for _ in $(seq 400); do kill -0 "$PID" 2>/dev/null || break; sleep 0.05; done
	if kill -0 "$PID" 2>/dev/null; then
		kill -9 "$PID"
		fail "$what: pmctool still running 20 s after the signal"
	fi
	set +e; wait "$PID"; rc=$?; set -e
	left=$(marked)
	if [ -n "$left" ]; then
		ps -o pid,ppid,pgid,stat,comm,args -p "$(echo $left | tr ' ' ,)" >&2 || true
		kill -9 $left 2>/dev/null || true
		fail "$what: processes of the run outlived pmctool: $left"
	fi
	if grep -q "cannot run" "$TMP/err"; then cat "$TMP/err" >&2; fail "$what: a 'cannot run' line after a signal"; fi
	[ "$rc" -eq "$want" ] || { tail -5 "$TMP/err" >&2; fail "$what: exit status $rc, expected $want"; }
}

modes=("-r 100000 -e task-clock -- true"
       "-I 20 -r 100000 -e task-clock -- true"
       "--per-thread -r 100000 -e task-clock -- true"
       "-r 100000 --pre true -e task-clock -- true")
signals=0
for mode in "${modes[@]}"; do
	for round in $(seq "$ROUNDS"); do
		sig=$([ $((RANDOM % 2)) = 0 ] && echo INT || echo TERM)
		want=$([ $sig = INT ] && echo 130 || echo 143)
		# shellcheck disable=SC2086
		if ! start stat $mode; then finish "stat $mode (ended before its handlers)" 0; continue; fi
		sleep "0.$(printf %03d $((RANDOM % 300)))"
		kill -s "$sig" "$PID" 2>/dev/null || true
		signals=$((signals + 1))
		if [ $((RANDOM % 3)) != 0 ]; then
			sleep "0.00$((RANDOM % 10))"
			kill -s "$sig" "$PID" 2>/dev/null && signals=$((signals + 1))
		fi
		finish "stat $mode, SIG$sig (round $round)" "$want"
	done
	ok "stat $mode: $ROUNDS rounds, SIGINT/SIGTERM at random moments: nothing outlived pmctool, status 130/143"
done
ok "$signals signals in all"

# A --pre hook is stopped and reaped like the workload: SIGTERM during a 20 s hook ends pmctool within seconds.
start stat -r 3 --pre 'sleep 20' -e task-clock -- true || fail "pmctool ended before its handlers"
sleep 0.3
t0=$(date +%s%N)
kill -TERM "$PID"
finish "SIGTERM during --pre 'sleep 20'" 143
t=$((($(date +%s%N) - t0) / 1000000))
[ "$t" -lt 5000 ] || fail "SIGTERM during a --pre hook took $t ms to end pmctool (the hook was waited for)"
ok "SIGTERM during a --pre hook stops it and pmctool (${t} ms)"

# pmctool SIGKILLed during a hook: the hook does not stay running without it (its guard ends its group).
start stat -r 3 --pre 'sleep 21; sleep 21' -e task-clock -- true || fail "pmctool ended before its handlers"
sleep 0.3
[ -n "$(marked)" ] || fail "the --pre hook is not running"
kill -9 "$PID"
set +e; { wait "$PID"; } 2>/dev/null; set -e
for _ in $(seq 100); do [ -z "$(marked)" ] && break; sleep 0.05; done
left=$(marked)
[ -z "$left" ] || { kill -9 $left; fail "the --pre hook outlived a SIGKILLed pmctool: $left"; }
ok "a --pre hook dies with a SIGKILLed pmctool"

# A second signal ends pmctool at once with what it has: a workload that ignores SIGTERM is not given its grace
# (PMC_LAUNCH_GRACE_MS, 2 s) but SIGKILLed, and the report and status are the first signal's.
start stat -e task-clock -- sh -c 'trap "" TERM; sleep 22' || fail "pmctool ended before its handlers"
sleep 0.3
kill -TERM "$PID"
sleep 0.1
t0=$(date +%s%N)
kill -TERM "$PID" 2>/dev/null || true
finish "a second SIGTERM" 143
t=$((($(date +%s%N) - t0) / 1000000))
[ "$t" -lt 1500 ] || fail "a second SIGTERM took $t ms to end pmctool (the 2 s grace was given)"
grep -q "PARTIAL" "$TMP/err" || { cat "$TMP/err" >&2; fail "a second SIGTERM: no partial report"; }
ok "a second SIGTERM ends pmctool and the workload at once (${t} ms), with the report"
