#!/usr/bin/env bash
# Output bytes (issue 28 item 15): JSON is valid UTF-8 whatever bytes a command's arguments hold (each byte that is
# not UTF-8 becomes U+FFFD, as in every JSON writer); compare and merge never print control characters from a
# report's names raw to the terminal; a metric of 1e-20 shows its value in the table and in -x.
source "$PMC_SOURCE_DIR/tests/lib.sh"

strict_json() { python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8","strict"))' "$1"; }

# 1. Arguments that are not UTF-8, through stat --json and compare --json.
run_pmc stat --json -r 2 -e task-clock,page-faults -o "$TMP/a.json" -- sh -c true $'\xff\xfe' $'caf\xc3\xa9' $'\xed\xa0\x80'
expect_rc 0 "stat --json with arguments that are not UTF-8"
strict_json "$TMP/a.json" || fail "stat --json wrote bytes that are not UTF-8"
python3 - "$TMP/a.json" <<'PY' || fail "the workload is not the arguments with U+FFFD for each bad byte"
import json, sys
w = json.load(open(sys.argv[1], encoding="utf-8"))["workload"]
assert w == "sh -c true \ufffd\ufffd caf\u00e9 \ufffd\ufffd\ufffd", repr(w)
PY
ok "stat --json: arguments that are not UTF-8 come out as U+FFFD, the rest as it was; the document is valid UTF-8"

# 2. compare and merge with names holding ESC, CR and LF (a report from elsewhere).
cp "$TMP/a.json" "$TMP/b.json"
python3 - "$TMP/a.json" "$TMP/b.json" <<'PY'
import json, sys
for p in sys.argv[1:]:
    d = json.load(open(p, encoding="utf-8"))
    d["events"][1]["name"] = "page\x1b[2J\rfaults\nX\x9b"
    d["workload"] = "tr\x1b]0;owned\x07ue\r"
    json.dump(d, open(p, "w", encoding="utf-8"))
PY
for cmd in compare merge; do
	run_pmc $cmd "$TMP/a.json" "$TMP/b.json"
	expect_rc 0 "$cmd of reports with control characters in names"
	if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$TMP/out"; then
		cat -v "$TMP/out" >&2
		fail "$cmd printed a control character from a report raw"
	fi
	if LC_ALL=C grep -q $'\xc2\x9b' "$TMP/out"; then fail "$cmd printed a C1 control raw"; fi
	expect_out 'page\\x1b\[2J\\x0d' "$cmd shows the name with its control characters escaped"
	[ "$cmd" = merge ] || grep -q 'page\\x1b\[2J\\x0dfaults\\x0aX\\xc2\\x9b' "$TMP/out" ||
		fail "compare: the whole name, escaped"
done
run_pmc compare --json "$TMP/a.json" "$TMP/b.json"
strict_json "$TMP/out" || fail "compare --json is not valid UTF-8"
grep -q 'page\\u001b\[2J\\u000dfaults\\nX' "$TMP/out" || fail "compare --json lost the name's characters"
ok "compare and merge escape control characters read from a report; compare --json keeps them, escaped"

# 3. A metric of 1e-20: its value shows in the table and in -x.
run_pmc stat -e task-clock --metric 'tiny={task-clock}*0+1e-20' -- true
expect_rc 0 "a 1e-20 metric"
grep -E '^ +1e-20 +tiny' "$TMP/err" || { cat "$TMP/err"; fail "the table does not show 1e-20"; }
if grep -q "0\.000000000000" "$TMP/err"; then fail "1e-20 printed as 0.000000000000"; fi
run_pmc stat -x';' -e task-clock --metric 'tiny={task-clock}*0+1e-20' -- true
grep -q ';1e-20;tiny' "$TMP/err" || { cat "$TMP/err"; fail "-x does not show 1e-20"; }
ok "a metric of 1e-20 prints as 1e-20 in the table and in -x"
