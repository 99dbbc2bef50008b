#!/bin/bash
# pmctool list: forced hsw tables, pattern, --pmu, --long, --csv (RFC 4180), --json, --names, errors.
. "$PMC_SOURCE_DIR/tests/lib.sh"
export LIBPFM_FORCE_PMU=hsw

run_pmc list
expect_rc 0 "list"
expect_out '^hsw \(libpfm4\):' "hsw heading"
expect_out '^  UOPS_ISSUED ' "hsw events listed"
expect_out '^  task-clock ' "software events listed"
expect_out '^  cycles ' "generic hardware names listed"
ok "default listing under LIBPFM_FORCE_PMU=hsw"

run_pmc list uops_issued
expect_rc 0 "list PATTERN"
[ "$(grep -c '^  ' "$TMP/out")" -eq 1 ] || { cat "$TMP/out"; fail "pattern uops_issued should give one event"; }
run_pmc list 'UOPS_*' --long
expect_out ':ANY +\[default\]' "--long marks the default umask"
expect_out 'modifiers: .*c=N' "--long lists modifiers"
run_pmc list 'zzz_no_such_event'
expect_rc 0 "empty match"
expect_err "no event matches 'zzz_no_such_event'" "empty match explained"
ok "pattern filters, glob and --long"

unset LIBPFM_FORCE_PMU
run_pmc list --pmu skl UOPS_ISSUED
expect_rc 0 "--pmu skl"
expect_out '^  (skl::)?UOPS_ISSUED ' "any libpfm4 PMU by name (prefixed unless it is the detected one)"
run_pmc list --pmu msr
expect_out 'msr/tsc/' "--pmu msr from sysfs"
run_pmc list --pmu hsx
expect_rc 2 "unknown PMU"
expect_err "no PMU named 'hsx'.*nearest: 'hsw'" "unknown PMU named, suggestion"
export LIBPFM_FORCE_PMU=hsw
run_pmc list --pmu skl
expect_rc 2 "--pmu skl under LIBPFM_FORCE_PMU=hsw"
expect_err 'LIBPFM_FORCE_PMU=hsw loads only that' "forced table explained"
ok "--pmu with libpfm4 and sysfs PMUs, unknown PMU rejected"

run_pmc list --csv
expect_rc 0 "--csv"
python3 - "$TMP/out" <<'PY' || fail "--csv does not parse as RFC 4180 with the header"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["pmu", "source", "name", "spelling", "description", "umasks", "default_umask", "modifiers"], rows[0]
assert all(len(r) == 8 for r in rows), [r for r in rows if len(r) != 8][:1]
u = [r for r in rows if r[2] == "UOPS_ISSUED"][0]
assert "STALL_CYCLES" in u[5].split(";") and u[6] == "ANY", u
assert any("," in r[4] for r in rows)  # quoting exercised
PY
run_pmc list --json uops
python3 - "$TMP/out" <<'PY' || fail "--json does not parse or lacks fields"
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d["events"] if x["name"] == "UOPS_ISSUED"][0]
assert e["pmu"] == "hsw" and e["source"] == "libpfm4"
assert any(u["name"] == "ANY" and u["default"] for u in e["umasks"])
assert any(m["name"] == "c" and m["type"] == "integer" for m in e["modifiers"])
PY
ok "--csv and --json parse"

run_pmc list --names
expect_out '^UOPS_ISSUED:STALL_CYCLES$' "--names gives EVENT:UMASK"
expect_out '^cycles$' "--names gives generic names"
expect_out '^msr/tsc/$' "--names gives sysfs spellings"
grep -q 'mem:ADDR' "$TMP/out" && fail "--names must not list syntax templates"
run_pmc list --csv --json
expect_rc 2 "two formats"
run_pmc list --pmu
expect_rc 2 "--pmu without a value"
run_pmc list a b
expect_rc 2 "two patterns"
ok "--names, option errors"

set +e
"$PMCTOOL" list --long 2>"$TMP/err" | head -n1 >/dev/null
set -e
[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "closed pipe printed an error"; }
if [ -w /dev/full ]; then
	"$PMCTOOL" list --json >/dev/full 2>"$TMP/err" && rc=0 || rc=$?
	[ "$rc" -eq 4 ] || fail "write error: exit $rc, expected 4"
	grep -q "cannot write" "$TMP/err" || fail "write error not reported"
fi
ok "EPIPE quiet, write error exit 4"
