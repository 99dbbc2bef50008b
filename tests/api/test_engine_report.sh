#!/usr/bin/env bash
# pmctool_report_eval (issue 35 item 4): a saved report evaluated again through libpmctool-engine gives the tree,
# level and node values `pmctool report --json` prints for the same file (every fixture tree, by encoding for the
# report's CPU), the same document from pmctool_result_json, the same again on a second call in the process; a bad
# request is an error whose subject is the request field and whose detail names fields in their own words
# ("topdown_def", never the command line's "--topdown-def").
source "$PMC_SOURCE_DIR/tests/lib.sh"
EVAL=$PMC_BUILD_DIR/tests/api/report_eval
fx=$PMC_SOURCE_DIR/tests/report/fixtures
[ -x "$EVAL" ] || fail "the report_eval example is not built ($EVAL)"

# the command line's nodes as report_eval prints them
cli_nodes() {
	"$PMCTOOL" report --json "$@" 2>"$TMP/err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = d.get("topdown")
if t:
    print("tree %s level %d unit %s" % (t["tree"], t["level"], t["unit"]))
    for n in t["nodes"]:
        print("node %s %d %s" % (n["node"], n["level"], "n/a" if n["value"] is None else "%.6f" % n["value"]))
else:
    print("no tree")' || { cat "$TMP/err" >&2; fail "pmctool report $*"; }
}

n=0
for f in "$fx"/*.json; do
	"$EVAL" "$f" >"$TMP/lib.out" 2>"$TMP/lib.err" || fail "report_eval $f: exit $? $(cat "$TMP/lib.err")"
	grep -q '^again: same$' "$TMP/lib.out" || fail "$f: a second evaluation in the process differs"
	got=$(grep -E '^(tree|node|no tree)' "$TMP/lib.out")
	want=$(cli_nodes "$f")
	[ "$got" = "$want" ] || fail "$(basename "$f"): the library's tree differs from pmctool report's:
$(diff <(echo "$want") <(echo "$got"))"
	grep -q '^node ' "$TMP/lib.out" || fail "$(basename "$f"): no node evaluated"
	n=$((n + 1))
done
ok "$n saved reports: the library's tree, level and nodes are pmctool report's"

# A tree and level asked for, and a metric of the request's.
"$EVAL" "$fx/intel-skl.json" intel-skl 1 'ipc2=2*instructions/cycles' >"$TMP/lib.out" 2>&1 || fail "report_eval skl 1"
want=$(cli_nodes --topdown-def intel-skl --topdown=1 "$fx/intel-skl.json")
[ "$(grep -E '^(tree|node)' "$TMP/lib.out")" = "$want" ] || fail "--topdown-def/--topdown=1 differ: $(cat "$TMP/lib.out")"
grep -Eq '^metric ipc2 ' "$TMP/lib.out" || fail "the request's metric is not in the result: $(cat "$TMP/lib.out")"
ok "a tree and level chosen, a metric of the request's evaluated"

# The JSON document is pmctool report --json's.
"$EVAL" --json "$fx/amd-zen4.json" >"$TMP/json.out" 2>&1 || fail "report_eval --json"
sed -n '/^{/,$p' "$TMP/json.out" >"$TMP/lib.json"
"$PMCTOOL" report --json "$fx/amd-zen4.json" >"$TMP/cli.json" 2>"$TMP/err" || fail "pmctool report --json: $(cat "$TMP/err")"
cmp -s "$TMP/lib.json" "$TMP/cli.json" || fail "pmctool_result_json differs from pmctool report --json:
$(diff "$TMP/cli.json" "$TMP/lib.json" | head -20)"
ok "pmctool_result_json of the report is pmctool report --json's document, byte for byte"

# Errors: subject the field, detail in field words.
"$EVAL" "$fx/intel-skl.json" no-such-tree >"$TMP/e1" 2>&1
grep -q "^error kind 1 subject 'topdown_def': topdown_def 'no-such-tree': no such top-down tree; the trees are: intel-snb," \
	"$TMP/e1" || fail "an unknown tree: $(cat "$TMP/e1")"
! grep -q -- '--topdown' "$TMP/e1" || fail "a library error names a command-line flag: $(cat "$TMP/e1")"
run_pmc report --topdown-def no-such-tree "$fx/intel-skl.json"
expect_rc 2 "pmctool report --topdown-def no-such-tree"
grep -q -- "^pmctool report: --topdown-def 'no-such-tree': no such top-down tree" "$TMP/err" ||
	fail "the command line's message lost its flag: $(cat "$TMP/err")"
"$EVAL" "$fx/intel-skl.json" intel-skl 3 >"$TMP/e2" 2>&1
grep -q "^error kind 1 subject 'topdown_level': topdown_level=3: the tree intel-skl has 2 levels" "$TMP/e2" ||
	fail "a level the tree lacks: $(cat "$TMP/e2")"
"$EVAL" "$fx/intel-skl.json" - 0 'bad=(' >"$TMP/e3" 2>&1
grep -q "^error kind 1 subject 'metrics': bad metric 'bad=('" "$TMP/e3" || fail "a bad formula: $(cat "$TMP/e3")"
printf '{"schema": 1, "kind": "stat", "events": [' >"$TMP/trunc.json"
"$EVAL" "$TMP/trunc.json" >"$TMP/e4" 2>&1
grep -q "^error kind 1 subject 'json': " "$TMP/e4" || fail "a truncated document: $(cat "$TMP/e4")"
ok "errors: unknown tree, missing level, bad formula, truncated document, each with its field as subject"
