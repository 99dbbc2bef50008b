#!/usr/bin/env bash
# Output formats of a real measurement parse back; -o writes a whole file or none.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}

run_pmc stat --csv -o "$TMP/o.csv" -r 2 -- "$W" pages 10
expect_rc 0 "csv"
python3 - "$TMP/o.csv" <<'PY' || fail "CSV does not parse back"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
counts = [r for r in rows if r["record"] == "count"]
assert counts, "no count rows"
tc = [r for r in counts if r["event"] == "task-clock"]
assert len(tc) == 2 and {r["run"] for r in tc} == {"1", "2"}, tc
for r in counts:
    assert r["status"] in ("ok", "not supported", "not counted", "not run"), r
    if r["status"] == "ok":
        int(r["value"]); int(r["enabled_ns"])
print(len(rows), "rows")
PY
ok "CSV parses back"

run_pmc stat --json -o - -- "$W" pages 10
expect_rc 0 "json to stdout"
python3 -m json.tool <"$TMP/out" >/dev/null || fail "JSON on stdout does not parse"
ok "JSON parses back"

run_pmc stat -x';' -e task-clock,page-faults -- true
expect_rc 0 "-x"
grep -qE '^[0-9.]+;msec;task-clock;' "$TMP/err" || fail "-x layout"
ok "-x SEP layout"

mkdir "$TMP/ro"; chmod 500 "$TMP/ro"
if [ "$(id -u)" -ne 0 ]; then
	run_pmc stat -e task-clock -o "$TMP/ro/x.csv" --csv -- true
	expect_rc 4 "unwritable -o"
	[ -z "$(ls "$TMP/ro")" ] || fail "a partial file was left"
fi
run_pmc stat -e task-clock -o "$TMP/missing-dir/x.csv" --csv -- true
expect_rc 4 "-o into a missing directory"
expect_err "cannot write the report to '$TMP/missing-dir/x.csv'" "the path is named"
ok "-o failures exit 4 and leave no partial file"

# Piped into head, pmctool exits quietly.
set +e
"$PMCTOOL" stat --csv -o - -r 50 -- true 2>"$TMP/pipe-err" | head -c 10 >/dev/null
set -e
! grep -qi "broken pipe\|cannot write" "$TMP/pipe-err" || fail "EPIPE is reported noisily"
ok "EPIPE is quiet"
