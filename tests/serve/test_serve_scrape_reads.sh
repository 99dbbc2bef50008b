#!/bin/bash
# pmctool serve reads the counters at the scrape: one process with one thread (no sampling thread); CPU time burnt
# just before a scrape is in that scrape (task-clock grows by it at once, no interval to wait for); and a scrape costs
# exactly one read() per open counter (strace -c over 20 scrapes: reads = 20 x the counters serve printed) and a
# bounded number of other system calls (at most 16 a scrape: accept, poll, recvfrom, sendto, close, ...).
. "$PMC_SOURCE_DIR/tests/serve/serve_lib.sh"
command -v strace >/dev/null || skip "strace is needed to count a scrape's system calls"

start_serve -e task-clock,page-faults
counters=$(sed -n 's/.*(\([0-9]*\) counters, read at each scrape).*/\1/p' "$TMP/serve.err")
[ -n "$counters" ] && [ "$counters" -ge 2 ] || fail "serve did not say how many counters it reads: $(cat "$TMP/serve.err")"
threads=$(ls "/proc/$SERVE_PID/task" | wc -l)
[ "$threads" = 1 ] || fail "serve runs $threads threads: a scrape should read the counters itself, no sampling thread"

python3 - "$PORT" <<'PY' || fail "a scrape right after CPU time was burnt does not hold it"
import re, sys, time, urllib.request
port = int(sys.argv[1])
def tc():
    b = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10).read().decode()
    m = re.search(r'^pmctool_task_clock_seconds_total\{event="task-clock"\} (\S+)$', b, re.M)
    return float(m.group(1)) if m else None
a = tc()
t0 = time.process_time()
while time.process_time() - t0 < 0.3:  # this process's own CPU time: 0.3 s however loaded the machine is
    pass
b = tc()
print("task-clock %.3f -> %.3f s around 0.3 s of CPU burnt" % (a, b))
sys.exit(0 if a is not None and b is not None and b - a >= 0.29 else 1)
PY
ok "read at the scrape: CPU time burnt just before a scrape is in it"

strace -f -c -o "$TMP/strace.txt" -p "$SERVE_PID" 2>"$TMP/strace.err" &
STRACE_PID=$!
BG_PIDS+=("$STRACE_PID")
for i in $(seq 100); do grep -q 'attached' "$TMP/strace.err" 2>/dev/null && break; sleep 0.05; done
grep -q 'attached' "$TMP/strace.err" || skip "strace could not attach to serve (ptrace not allowed here?): $(cat "$TMP/strace.err")"
python3 - "$PORT" <<'PY' || fail "a scrape failed under strace"
import sys, urllib.request
for i in range(20):
    urllib.request.urlopen("http://127.0.0.1:%d/metrics" % int(sys.argv[1]), timeout=10).read()
PY
kill -INT "$STRACE_PID"
wait "$STRACE_PID" 2>/dev/null || true
reads=$(awk '$NF == "read" { print $4 }' "$TMP/strace.txt")
total=$(awk '$NF == "total" { print $4 }' "$TMP/strace.txt")
[ "$reads" = $((20 * counters)) ] || { cat "$TMP/strace.txt" >&2; fail "20 scrapes made ${reads:-no} read() calls, expected 20 x $counters counters"; }
[ "$total" -le $((20 * (counters + 16))) ] || { cat "$TMP/strace.txt" >&2; fail "20 scrapes made $total system calls: more than $counters reads and 16 others a scrape"; }
ok "a scrape: $((reads / 20)) read() (one per counter) and $(((total - reads) / 20)) other system calls"
stop_serve
