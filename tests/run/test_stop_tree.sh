#!/usr/bin/env bash
# When pmctool ends the workload (SIGINT, SIGTERM, --timeout, --control stop), everything the command started goes
# with it, within a bounded time (issue 28, item 6): children and grandchildren in the command's process group, one
# that ignores SIGINT and SIGTERM (SIGKILL after the grace time), and one that left the group with setsid (an orphan
# by then: pmctool is its subreaper). The same in every mode that launches a command. A CPU hog runs meanwhile.
# Every process of the tree writes its pid to a file; the test ends them itself in its trap, whatever happens.
source "$PMC_SOURCE_DIR/tests/lib.sh"
HOGS=()
cleanup() {
	for f in "$TMP"/*/pids; do
		[ -f "$f" ] && while read -r p; do kill -9 "$p" 2>/dev/null || true; done <"$f"
	done
	for h in "${HOGS[@]}"; do kill "$h" 2>/dev/null || true; wait "$h" 2>/dev/null || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT
for _ in $(seq "$(nproc)"); do yes >/dev/null & HOGS+=($!); done
N=$((30000 + $$ % 30000)) # every sleep of the tree is 'sleep N'

cat >"$TMP/tree.sh" <<'SH'
#!/bin/sh
d=$1 n=$2
echo $$ >>"$d/pids"
for i in 1 2; do
	(sleep "$n" & echo $! >>"$d/pids"; sleep "$n" & echo $! >>"$d/pids"; wait) &
	echo $! >>"$d/pids"
done
(trap '' TERM INT; exec sleep "$n") &
echo $! >>"$d/pids"
setsid sleep "$n" &
echo $! >>"$d/pids"
echo ready >"$d/ready"
wait
SH
chmod +x "$TMP/tree.sh"

# survivors DIR: the tree's processes still there (a pid reused since would not be 'sleep N' or tree.sh).
survivors() {
	local p out=""
	while read -r p; do
		[ -r "/proc/$p/cmdline" ] || continue
		case "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)" in
		"sleep $N "* | *"tree.sh $1 $N "*) out="$out $p" ;;
		esac
	done <"$1/pids"
	echo "$out"
}

# case NAME HOW PMCTOOL-ARGS...: run pmctool on the tree, ended by HOW (int, term: 'timeout -s SIG 1.5'; self:
# pmctool ends it, --timeout or --control), then nothing of the tree may be left (polled for 3 s), and pmctool must
# have ended within the grace time.
case_() {
	local name=$1 how=$2 d="$TMP/$1" t0 t1 left
	shift 2
	mkdir "$d"
	: >"$d/pids"
	t0=$(date +%s%N)
	set +e
	case $how in
	int) timeout -s INT 1.5 "$PMCTOOL" "$@" -- "$TMP/tree.sh" "$d" "$N" >"$d/out" 2>&1 ;;
	term) timeout -s TERM 1.5 "$PMCTOOL" "$@" -- "$TMP/tree.sh" "$d" "$N" >"$d/out" 2>&1 ;;
	self) timeout -s KILL 30 "$PMCTOOL" "$@" -- "$TMP/tree.sh" "$d" "$N" >"$d/out" 2>&1 ;;
	esac
	RC=$?
	set -e
	t1=$(date +%s%N)
	[ -f "$d/ready" ] || { cat "$d/out" >&2; fail "$name: the tree never started (exit status $RC)"; }
	[ "$RC" -ne 137 ] || fail "$name: pmctool did not end within 30 s"
	for _ in $(seq 30); do
		left=$(survivors "$d")
		[ -z "$left" ] && break
		sleep 0.1
	done
	[ -z "$left" ] || { cat "$d/out" >&2; ps -o pid,ppid,pgid,sid,stat,args -p "${left// /,}" >&2 || true; fail "$name: left running:$left"; }
	[ $(((t1 - t0) / 1000000)) -lt 12000 ] || fail "$name: pmctool took $(((t1 - t0) / 1000000)) ms"
	ok "$name: nothing of the tree ($(wc -l <"$d/pids") processes) left; pmctool took $(((t1 - t0) / 1000000)) ms, exit status $RC"
}

case_ stat-sigint int stat -e task-clock
case_ stat-sigterm term stat -e task-clock
case_ stat-timeout self stat -e task-clock --timeout 1000
case_ per-thread-sigint int stat --per-thread -e task-clock
case_ per-thread-timeout self stat --per-thread -e task-clock --timeout 1000
case_ interval-sigterm term stat -I 200 -e task-clock
case_ delay-sigint int stat -D 100 -e task-clock
case_ regions-sigterm term stat --regions -e task-clock
if "$PMCTOOL" stat -a -e task-clock -- true >/dev/null 2>&1; then
	case_ system-wide-sigint int stat -a -e task-clock
else
	echo "note: -a not permitted here (perf_event_paranoid): its case skipped"
fi
mkfifo "$TMP/ctl"
( sleep 1; echo stop >"$TMP/ctl" ) & w=$!
case_ control-stop self stat --control "fifo:$TMP/ctl" -e task-clock
wait "$w"
case_ sweep-sigint int sweep X=1,2 -r 1 -e task-clock

# A command that ends by itself: what it left running in the background is left alone, as a shell would.
mkdir "$TMP/normal"
"$PMCTOOL" stat -e task-clock -- sh -c "setsid sleep $N & echo \$! >$TMP/normal/pids; sleep $N & echo \$! >>$TMP/normal/pids" 2>/dev/null ||
	fail "normal end: exit status $?"
sleep 0.3
[ "$(survivors "$TMP/normal" | wc -w)" -eq 2 ] || fail "normal end: the background processes were ended"
ok "a command that ends by itself: its 2 background processes are left running (ended here by the test)"
