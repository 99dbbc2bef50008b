#!/usr/bin/env bash
# -p PID,PID and -t TID,TID (issue 28, item 13): a task named twice, or a thread whose process is named too, is
# counted once, with a note (task-duplicate), as perf merges them. The process touches N pages once counting runs:
# page-faults must be about N (at least N, less than 2N), never the 2N a doubled count gives.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}
N=1000
WP=
trap '[ -n "$WP" ] && kill -9 $WP 2>/dev/null; rm -rf "$TMP"' EXIT

# attach NAME OPTION LIST NOPEN: attach to a waiting workload with OPTION LIST ('%' stands for its pid), let it
# touch N pages, check the count and the note.
attach() {
	local name=$1 opt=$2 list=$3 nopen=$4 pp
	"$W" wait-pages $N & WP=$!
	"$PMCTOOL" stat -v "$opt" "${list//%/$WP}" -e page-faults --json -o "$TMP/$name.json" 2>"$TMP/$name.err" & pp=$!
	for _ in $(seq 100); do
		[ "$(grep -c '^perf_event_open' "$TMP/$name.err" 2>/dev/null || true)" -ge "$nopen" ] && break
		sleep 0.05
	done
	kill -USR1 $WP
	wait $pp || { cat "$TMP/$name.err" >&2; fail "$name: exit status $?"; }
	WP=
	pf=$(python3 - "$TMP/$name.json" "$N" <<'PY') || { cat "$TMP/$name.json" >&2; fail "$name: counted twice, or no note"; }
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
pf = next(e["mean"] for e in d["events"] if e["name"] == "page-faults" and e["scope"]["kind"] == "all")
checks = {c["name"]: c for c in d.get("checks", [])}
assert n <= pf < 1.5 * n, f"page-faults {pf} for {n} pages"
assert "task-duplicate" in checks and "counted once" in checks["task-duplicate"]["message"], checks
print(int(pf))
PY
	ok "$name: $pf page faults for $N pages, task-duplicate noted"
}

attach pid-twice -p %,% 1
attach tid-twice -t %,% 1
attach pid-thrice -p %,%,% 1

# Not a duplicate: one pid, no note.
"$W" wait-pages 10 & WP=$!
"$PMCTOOL" stat -p $WP -e page-faults --timeout 300 --json -o "$TMP/one.json" 2>/dev/null
kill -9 $WP; WP=
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert 'task-duplicate' not in [c['name'] for c in d.get('checks', [])]" "$TMP/one.json" ||
	fail "a single pid noted as a duplicate"
ok "one pid: no note"
