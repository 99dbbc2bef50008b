#!/usr/bin/env bash
# stat --per-thread with hundreds of tasks, under load (issue 28, items 7 and 11). 'many-tasks N' starts N tasks at
# once (odd k: a thread mt-k, even k: a child process mc-k), task k calling bump() k times; the command itself calls
# it 7 times. Breakpoints count bump()'s calls exactly, so each row's name and count are known.
#  - item 7: every row's name is its task's own (the table of tasks grows past 16 while names are copied; random
#    bytes there were a use-after-free, which the ASan build of this test catches).
#  - item 11: with tasks exiting at once on several CPUs the kernel can stop writing to the buffer they share: then
#    the report must say so (per-thread-stalled, a warning) and the rows that are there must still be right; without
#    that warning every task has its row and the first row is the command's own 7.
# RUNS runs with a CPU hog on every core; and runs pinned to one CPU (the workaround the warning gives) must be whole.
source "$PMC_SOURCE_DIR/tests/lib.sh"
breakpoints_fire_or_skip # its counts are exact breakpoint counts: where breakpoints fire
W=${PMC_WORKLOAD:?}
WL="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 $W"
N=${PMC_MANY_TASKS:-600}
RUNS=${PMC_MANY_RUNS:-5} # PMC_MANY_RUNS=12 PMC_MANY_TASKS=1000 for the long proof
BP="mem:0x$(nm "$W" | awk '$3 == "bump" { print $1 }'):x"
HOGS=()
stop_hogs() { for h in "${HOGS[@]}"; do kill "$h" 2>/dev/null || true; wait "$h" 2>/dev/null || true; done; HOGS=(); }
trap 'stop_hogs; rm -rf "$TMP"' EXIT
for _ in $(seq "$(nproc)"); do yes >/dev/null & HOGS+=($!); done

# check FILE [loaded]: rows named and counted as made, or the stall warned about; prints "whole" or "stalled ROWS".
check() {
	python3 - "$1" "$BP" "$N" ${2:+"$2"} <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1])); bp = sys.argv[2]; n = int(sys.argv[3])
rows = [(e["scope"]["comm"], e["mean"]) for e in d["events"] if e["name"] == bp and e["scope"]["kind"] == "thread"]
total = next(e["mean"] for e in d["events"] if e["name"] == bp and e["scope"]["kind"] == "all")
checks = {c["name"]: c for c in d.get("checks", [])}
want = 7 + n * (n + 1) // 2
assert total == want, f"total {total}, expected {want}"
assert sum(v for _, v in rows) == total, "rows do not sum to the total"
bad = [r for r in rows[1:] if r[0] != ("mt-%d" if int(r[1]) % 2 else "mc-%d") % r[1]]
# a task whose creation and name records were overwritten in the kernel's buffer: named after the command, said so
guessed = [r for r in bad if r[0] == "pmc-workload" and 1 <= r[1] <= n]
if guessed and "per-thread-names" in checks and str(len(guessed)) in checks["per-thread-names"]["message"]:
    bad = [r for r in bad if r not in guessed]
# A task whose own name record (prctl's COMM) was overwritten in the shared buffer keeps the name it was created
# with, its creator's, and nothing in the buffer tells that apart from a task that never renamed itself: seen for a
# thread in the ASan build with the CPUs loaded, and for a child process (mc-8) in CI. Threads and child processes
# both rename themselves with prctl after creation, so either can lose it. Its count is still its own (checked);
# under load names are checked only for that case, and exactly in the pinned runs below, where the kernel's race
# cannot happen.
unsure = [r for r in bad if r[0] == "pmc-workload" and 1 <= r[1] <= n] if len(sys.argv) > 4 else []
bad = [r for r in bad if r not in unsure]
assert not bad, f"rows with another task's name or count: {bad[:5]}"
# The same race can also leave records that cannot be read: per-thread-lost says so ("some records could not be
# read ... rows may be missing"), loudly, as the stall warning does.
# Records overwritten without a trace: per-thread-missing. Where the tasks created are counted apart (issue 39, item
# 4: per-thread-tasks), each of these warnings names how many rows are missing, exactly.
warned = [checks[k] for k in ("per-thread-stalled", "per-thread-lost", "per-thread-missing") if k in checks]
if warned:
    for c in warned:
        assert c["severity"] == "warn" and "rows" in c["message"] and "missing" in c["message"], c
        m = re.search(r"\b(\d+) of the command's (\d+) tasks ha(?:s|ve) no row", c["message"])
        assert not m or (int(m.group(2)) == n + 1 and int(m.group(1)) == n + 1 - len(rows)), (len(rows), c)
    assert len(rows) < n + 1 or rows[0][1] > 7, "warned, but every row is there"
    print("stalled", len(rows))
else:
    assert len(rows) == n + 1, f"{len(rows)} rows for {n + 1} tasks, and no warning"
    assert rows[0] == ("pmc-workload", 7), rows[0]
    assert "per-thread-running" not in checks, checks["per-thread-running"]
    print("whole" if not guessed else "whole-guessed-names")
PY
}

whole=0 stalled=0 seen=""
for i in $(seq "$RUNS"); do
	run_pmc stat --per-thread -e "$BP" --json -o "$TMP/m.json" -- $WL many-tasks "$N"
	expect_rc 0 "run $i"
	r=$(check "$TMP/m.json" loaded) || fail "run $i: $r"
	case $r in whole*) whole=$((whole + 1)) ;; *) stalled=$((stalled + 1)); seen="$seen ${r#stalled }" ;; esac
done
ok "$RUNS runs of $((N + 1)) tasks under load: $whole whole, $stalled warned as stalled (rows:${seen:- none})"

for i in $(seq $(((RUNS + 1) / 2))); do
	run_pmc stat --per-thread -e "$BP" --json -o "$TMP/p.json" -- taskset -c 0 $WL many-tasks "$N"
	expect_rc 0 "pinned run $i"
	[ "$(check "$TMP/p.json")" = whole ] || fail "pinned run $i: $(check "$TMP/p.json")"
done
ok "$(((RUNS + 1) / 2)) runs pinned to one CPU: every task its row, named and counted"

# The warning is in every format: -x carries warnings as '#' lines (the check itself is unit-tested in test_output).
run_pmc stat --per-thread -x, -e "$BP" -- $WL many-tasks 40
expect_rc 0 "-x"
[ "$(grep -c "^mt-[0-9]*-[0-9]*,\|^mc-[0-9]*-[0-9]*," "$TMP/err")" -eq 40 ] || grep -q "^# warn per-thread-\(stalled\|lost\|missing\): " "$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "-x: 40 task rows or the warning"; }
ok "-x: every row, or the warning"
