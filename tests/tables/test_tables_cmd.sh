#!/bin/bash
# pmctool tables against the fixture tables (tests/tables/fixtures) with PMCTOOL_CPUID: text and JSON byte for byte
# against tests/golden/tables/ (the source dir written as @FIX@), a malformed file named and skipped (exit 0), no
# tables for a CPUID exit 1 with the locations looked at, --tables DIR searched before PMCTOOL_TABLES. HOME and
# XDG_DATA_HOME point into the test's temp dir so the user's own tables never take part.
. "$PMC_SOURCE_DIR/tests/lib.sh"

fix=$PMC_SOURCE_DIR/tests/tables/fixtures
golden=$PMC_SOURCE_DIR/tests/golden/tables
export HOME=$TMP/home XDG_DATA_HOME=$TMP/xdg
unset LIBPFM_FORCE_PMU

same() { # NAME: $TMP/out with the fixture path as @FIX@ equals the golden file NAME
	sed "s|$fix|@FIX@|g" "$TMP/out" >"$TMP/norm"
	cmp -s "$TMP/norm" "$golden/$1" || { diff -u "$golden/$1" "$TMP/norm" >&2; fail "tables output differs from tests/golden/tables/$1"; }
}

# Skylake-X fixture: an uncore-only file skipped with its reason.
PMCTOOL_CPUID=GenuineIntel-6-55-4 PMCTOOL_TABLES=$fix/pmu-events run_pmc tables
expect_rc 0 "tables with the fakesky fixture"
same fakesky.txt
# Zen fixture: a malformed file (broken.json) is named with line and column, skipped, and not fatal.
PMCTOOL_CPUID=AuthenticAMD-25-1-1 PMCTOOL_TABLES=$fix/pmu-events run_pmc tables
expect_rc 0 "tables with a malformed file among the fakezen fixture"
same fakezen.txt
expect_out "broken.json: skipped: not valid JSON: line 2, column 49" "the malformed file named"
PMCTOOL_CPUID=AuthenticAMD-25-1-1 run_pmc tables --tables "$fix/pmu-events" --json
expect_rc 0 "tables --json"
same fakezen.json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["dir_from"] == "argument" and d["events"] == 9, d' \
	"$TMP/out" || fail "tables --json: not the document expected"
# perfmon layout, argument before PMCTOOL_TABLES.
PMCTOOL_CPUID=GenuineIntel-6-9A-3 PMCTOOL_TABLES=$TMP/nothere run_pmc tables --tables "$fix/perfmon"
expect_rc 0 "tables --tables with PMCTOOL_TABLES set"
same fakelake.txt
expect_out "^Tables: .*perfmon \(Intel perfmon, from argument\)" "--tables DIR is searched first"
# No tables for this CPUID: exit 1, every location with its reason.
PMCTOOL_CPUID=GenuineIntel-6-99-1 PMCTOOL_TABLES=$fix/pmu-events run_pmc tables
expect_rc 1 "tables for a CPUID no mapfile row matches"
expect_out "pmu-events: .*mapfile.csv: none of its" "why the fixture was passed over"
expect_out "/home/.local/share/pmctool/tables: no such directory" "the per-user location listed"
expect_out "^No tables for this CPU" "the verdict"
# A forced libpfm4 PMU picks that model's tables (x86_64/tables_cpuid.c); one it has no CPUID for reads none.
if [ "$(uname -m)" = x86_64 ]; then
	LIBPFM_FORCE_PMU=skx PMCTOOL_TABLES=$fix/pmu-events run_pmc tables
	expect_rc 0 "tables under LIBPFM_FORCE_PMU=skx"
	expect_out "^CPUID: GenuineIntel-6-55-4 \(LIBPFM_FORCE_PMU\)" "the forced PMU's CPUID"
	expect_out "-> fakesky$" "the forced PMU's tables"
	LIBPFM_FORCE_PMU=amd64_fam19h_zen3 PMCTOOL_TABLES=$fix/pmu-events run_pmc tables
	expect_out "-> fakezen$" "LIBPFM_FORCE_PMU=amd64_fam19h_zen3"
	LIBPFM_FORCE_PMU=amd64_fam19h_zen3 PMCTOOL_CPUID=GenuineIntel-6-55-4 PMCTOOL_TABLES=$fix/pmu-events run_pmc tables
	expect_out "-> fakesky$" "PMCTOOL_CPUID over a forced PMU"
	# This CPU's own CPUID in perf's spelling, from /proc/cpuinfo's decimal fields.
	cpuinfo() { awk -F': *' -v k="$1" '$1 ~ "^"k"[[:space:]]*$" {print $2; exit}' /proc/cpuinfo; }
	want=$(printf '%s-%u-%X-%X' "$(cpuinfo vendor_id)" "$(cpuinfo 'cpu family')" "$(cpuinfo model)" "$(cpuinfo stepping)")
	PMCTOOL_TABLES=$fix/pmu-events run_pmc tables
	expect_out "^CPUID: $want \\(cpuid\\)$" "this CPU's CPUID as /proc/cpuinfo gives it"
	LIBPFM_FORCE_PMU=core PMCTOOL_TABLES=$fix/pmu-events run_pmc tables
	expect_rc 1 "a forced PMU without a known CPUID"
	expect_out "^CPUID: none known" "no CPUID for libpfm4's core table"
else
	echo "forced-PMU CPUIDs are x86 only: not checked on $(uname -m)"
fi
run_pmc tables extra
expect_rc 2 "an operand"

# Hostile tables: a mapfile row whose repeated '+' would make regcomp exponential (16 s and 700 MB at 20 before the
# bound) is skipped with its reason, and a FIFO named *.json in the model's directory is skipped, never opened
# blocking (open(2) waited for a writer for ever). timeout(1) only turns a hang into a failure; nothing is timed.
hostile=$TMP/hostile/arch/x86
mkdir -p "$TMP/hostile/arch"
cp -r "$fix/pmu-events/arch/x86" "$hostile"
{ head -n 1 "$fix/pmu-events/arch/x86/mapfile.csv"
  printf 'GenuineIntel-6-55-4+++++++++++++++++++++++++,v1.0,fakesky,core\n'
  tail -n +2 "$fix/pmu-events/arch/x86/mapfile.csv"; } >"$hostile/mapfile.csv"
mkfifo "$hostile/fakesky/fifo.json"
# and one name defined twice with different codes (cache.json has 0xCD): said, both named, the first read used
cat >"$hostile/fakesky/zz-dup.json" <<'EOF'
[ { "EventName": "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", "EventCode": "0xCE", "UMask": "0x1",
    "BriefDescription": "Fixture: the same name with another code (made up)." } ]
EOF
# and a name and description with ESC, CR, BEL and bytes that are not UTF-8: list escapes them as every output does
printf '[{"EventName":"EVIL\\u001b[2J.\xff\xfeX\\r","EventCode":"0x3d","UMask":"0x0","BriefDescription":"bad \\u001b]0;t\\u0007"}]' \
	>"$hostile/fakesky/zz-evil.json"
for cmd in tables list; do
	set +e
	PMCTOOL_CPUID=GenuineIntel-6-55-4 PMCTOOL_TABLES=$TMP/hostile timeout 60 "$PMCTOOL" $cmd >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	[ "$RC" -ne 124 ] || fail "$cmd: hung on a hostile table (repeated '+' in the mapfile, or a FIFO named *.json)"
	expect_rc 0 "$cmd with a hostile mapfile row and a FIFO among the tables"
done
PMCTOOL_CPUID=GenuineIntel-6-55-4 PMCTOOL_TABLES=$TMP/hostile timeout 60 "$PMCTOOL" tables >"$TMP/out" 2>"$TMP/err" || true
expect_out "row 1: 'GenuineIntel-6-55-4\+*' too costly to match" "the costly mapfile row named with its reason"
expect_out "fifo.json: skipped: cannot be read: not a regular file" "the FIFO named and skipped"
expect_out "-> fakesky$" "the good rows still match"
expect_out "^Conflicts: 1 .*'mem_trans_retired.load_latency_gt_4': config 0x1cd in .*/cache.json, 0x1ce in .*/zz-dup.json" \
	"a name defined twice with different codes, both named"
PMCTOOL_CPUID=GenuineIntel-6-55-4 PMCTOOL_TABLES=$TMP/hostile run_pmc stat -e mem_trans_retired.load_latency_gt_4 -- true
expect_err "'mem_trans_retired.load_latency_gt_4' is defined twice in the tables with different codes \(config 0x1cd in .*/cache.json, 0x1ce in .*/zz-dup.json\): counting the first" \
	"stat says which of the two definitions it counts"
PMCTOOL_CPUID=GenuineIntel-6-55-4 PMCTOOL_TABLES=$TMP/hostile run_pmc list
grep -q $'\x1b\|\r\|\x07\|\xff' "$TMP/out" && fail "list: a table's control or non-UTF-8 byte printed raw"
grep -qF 'evil\x1b[2j.\xff\xfex\x0d' "$TMP/out" || { cat "$TMP/out" >&2; fail "list: the table's name not escaped as \\xHH"; }
# tables prints paths the same way: a tables directory whose name holds ESC
esc=$TMP/$'esc\x1b[2Jdir'
cp -r "$TMP/hostile" "$esc"
PMCTOOL_CPUID=GenuineIntel-6-55-4 PMCTOOL_TABLES=$esc run_pmc tables
grep -q $'\x1b' "$TMP/out" && fail "tables: a path's ESC printed raw"
expect_out 'esc\\x1b\[2Jdir \(Linux perf pmu-events' "tables: the path escaped as \\xHH"
ok "tables: golden text and JSON, malformed file skipped, argument first, exit 1 without tables, 2 for a usage error"

# Issue 33 item 8: a mapfile row naming a model folder that does not exist reads 0 events: no tables, exit 1.
mkdir -p "$TMP/missing/arch/x86"
printf 'Family-model,Version,Filename,EventType\nGenuineIntel-6-3C,v1,nosuchmodel,core\n' >"$TMP/missing/arch/x86/mapfile.csv"
PMCTOOL_CPUID=GenuineIntel-6-3C-3 run_pmc tables --tables "$TMP/missing"
expect_rc 1 "a mapfile row whose model folder is missing"
expect_out "nosuchmodel: skipped: the model folder cannot be read" "the missing folder is named"
expect_err "no events or metrics were read from them" "why it is exit 1"
PMCTOOL_CPUID=GenuineIntel-6-3C-3 run_pmc tables --json --tables "$TMP/missing"
expect_rc 1 "the same with --json"
ok "tables: a row whose model folder is missing or empty is no tables (exit 1)"
