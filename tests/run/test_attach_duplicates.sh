#!/usr/bin/env bash
# -p PID,PID and -t TID,TID (issue 28, item 13): a task named twice, or a thread whose process is named too, is
# counted once, with a note (task-duplicate), as perf merges them. The process touches N pages once counting runs:
# page-faults must be what the same process named once gives (within a third, and at least N), never about double.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}
N=1000
WP=
trap '[ -n "$WP" ] && kill -9 $WP 2>/dev/null; rm -rf "$TMP"' EXIT

cat >"$TMP/pf.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2]); dup = sys.argv[3] == "dup"
pf = next(e["mean"] for e in d["events"] if e["name"] == "page-faults" and e["scope"]["kind"] == "all")
checks = {c["name"]: c for c in d.get("checks", [])}
assert pf >= n, f"page-faults {pf} for {n} pages"
if dup:
    assert "task-duplicate" in checks and "counted once" in checks["task-duplicate"]["message"], checks
else:
    assert "task-duplicate" not in checks, checks
print(int(pf))
PY

# attach NAME OPTION LIST dup|once: attach to a waiting workload with OPTION LIST ('%' stands for its pid), let it
# touch N pages; prints its page faults after checking the note.
attach() {
	local name=$1 opt=$2 list=$3 pp
	"$W" wait-pages $N & WP=$!
	"$PMCTOOL" stat -v "$opt" "${list//%/$WP}" -e page-faults --json -o "$TMP/$name.json" 2>"$TMP/$name.err" & pp=$!
	for _ in $(seq 100); do
		[ "$(grep -c '^perf_event_open' "$TMP/$name.err" 2>/dev/null || true)" -ge 1 ] && break
		sleep 0.05
	done
	kill -USR1 $WP
	wait $pp || { cat "$TMP/$name.err" >&2; fail "$name: exit status $?"; }
	WP=
	python3 "$TMP/pf.py" "$TMP/$name.json" "$N" "$4" || { cat "$TMP/$name.json" >&2; fail "$name: the count or the note"; }
}

once=$(attach pid-once -p % once)
ok "named once: $once page faults for $N pages, no note"
for c in "pid-twice -p %,%" "tid-twice -t %,%" "pid-thrice -p %,%,%"; do
	set -- $c
	pf=$(attach "$1" "$2" "$3" dup)
	[ "$pf" -lt $((once * 4 / 3)) ] || fail "$1: $pf page faults, $once when named once: counted more than once"
	ok "$1: $pf page faults for $N pages ($once named once), task-duplicate noted"
done
