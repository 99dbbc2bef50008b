#!/usr/bin/env bash
# pmctool report (issue 27 item 4): a saved stat report evaluated again gives stat's own report back; a hand-written
# report naming events its own way feeds the top-down formulas by encoding (r003c as {"type":4,"config":60} is
# CPU_CLK_UNHALTED.THREAD on Skylake); the CPU from the report or LIBPFM_FORCE_PMU; bad input gives exit 2 and says
# what is wrong, never a half report.
source "$PMC_SOURCE_DIR/tests/lib.sh"
fx=$PMC_SOURCE_DIR/tests/report/fixtures

# node NAME: the value of top-down node NAME in $TMP/out (report --json), "n/a: REASON" when n/a.
node() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for n in d["topdown"]["nodes"]:
    if n["node"] == sys.argv[2]:
        print("%.6f" % n["value"] if n["value"] is not None else "n/a: " + n["reason"])' "$TMP/out" "$1"
}

# 1. stat's report, evaluated again, is stat's report: every member but the metrics' per-run samples and the origin's
#    launcher fields.
run_pmc stat -r 3 --json -o "$TMP/s.json" -e task-clock,page-faults,cycles,instructions -- true
expect_rc 0 "stat --json"
run_pmc report --json "$TMP/s.json"
expect_rc 0 "report of stat's report"
python3 - "$TMP/s.json" "$TMP/out" <<'PY' || fail "report's JSON differs from stat's"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for m in a["metrics"] + b["metrics"]:
    m.pop("samples")
for d in (a, b):
    d["origin"] = {k: d["origin"][k] for k in ("host", "pid")} if d["origin"] else None
bad = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
if bad:
    for k in bad:
        print(k, a.get(k), b.get(k), sep="\n  ", file=sys.stderr)
    sys.exit(1)
if a.get("cpu") is None or not a["cpu"]["pmu"]:
    print("stat's JSON has no cpu.pmu", file=sys.stderr)
    sys.exit(1)
PY
run_pmc report "$TMP/s.json"
expect_rc 0 "report table"
expect_out "Performance counter stats for 'true'" "table header"
expect_out "page-faults" "table events"
ok "stat's report evaluated again is the same report (JSON), and prints as stat's table"

# 2. A hand-written Skylake report: raw names, config as a number and as a string, usr/os/en bits set in one.
#    slots = 4 x 1000; FE = 400/4000 = .10; BS = (1300 - 1200 + 4 x 25)/4000 = .05; RET = 1200/4000 = .30;
#    BE = 1 - .45 = .55.
run_pmc report --json "$fx/skl-raw-names.json"
expect_rc 0 "hand-written skl"
for nv in frontend_bound=0.100000 bad_speculation=0.050000 backend_bound=0.550000 retiring=0.300000; do
	[ "$(node "${nv%=*}")" = "${nv#*=}" ] || fail "skl ${nv%=*}: $(node "${nv%=*}"), expected ${nv#*=}"
done
# Without its cpu member, LIBPFM_FORCE_PMU names the CPU. Another family's tree (Ice Lake's PERF_METRICS) on these
# counts: each node n/a naming the encoding looked for, never 0%.
grep -v '"cpu"\|"topdown"' "$fx/skl-raw-names.json" >"$TMP/nocpu.json"
LIBPFM_FORCE_PMU=skl run_pmc report --json "$TMP/nocpu.json"
expect_rc 0 "skl from LIBPFM_FORCE_PMU"
[ "$(node retiring)" = 0.300000 ] || fail "LIBPFM_FORCE_PMU=skl: retiring $(node retiring)"
expect_out '"why":"Skylake: 4 slots per cycle \(CPU skl, from LIBPFM_FORCE_PMU\)"' "why from LIBPFM_FORCE_PMU"
sed 's/^ "cpu": .*/ "environment": {"core_pmu": "skl"},/' "$fx/skl-raw-names.json" | grep -v '"topdown"' >"$TMP/env.json"
grep -q environment "$TMP/env.json" || fail "fixture: no cpu line to replace"
env -u LIBPFM_FORCE_PMU "$PMCTOOL" report --json "$TMP/env.json" >"$TMP/out" 2>"$TMP/err" || fail "report of env.json"
[ "$(node retiring)" = 0.300000 ] || fail "CPU from environment.core_pmu: retiring $(node retiring)"
env -u LIBPFM_FORCE_PMU "$PMCTOOL" report --json --topdown-def intel-icl "$TMP/nocpu.json" >"$TMP/out" 2>"$TMP/err" ||
	fail "--topdown-def intel-icl on a report of no CPU"
case "$(node retiring)" in "n/a: input TD_RETIRING (topdown-retiring) was not counted: no event of the report has its encoding (type 4, config 0x8000)"*) ;;
*) fail "icl retiring on a skl report: $(node retiring)" ;; esac
ok "a hand-written report feeds the formulas by encoding (r003c = CPU_CLK_UNHALTED.THREAD), the CPU from the report or LIBPFM_FORCE_PMU, missing inputs n/a"

# stat --topdown on this machine (a forced Skylake; no hardware PMU here, or the counts are real): the report of it
# has the same tree, each node either as stat computed it or n/a with the event's reason, never 0%.
LIBPFM_FORCE_PMU=skl run_pmc stat --topdown --json -o "$TMP/td.json" -- true
[ -s "$TMP/td.json" ] || fail "stat --topdown wrote no report"
run_pmc report --json "$TMP/td.json"
expect_rc 0 "report of stat --topdown"
python3 - "$TMP/td.json" "$TMP/out" <<'PY' || fail "report's tree differs from stat's"
import json, sys
a, b = (json.load(open(p))["topdown"] for p in sys.argv[1:3])
if a["tree"] != b["tree"] or a["level"] != b["level"]:
    sys.exit("tree %s/%s, stat's %s/%s" % (b["tree"], b["level"], a["tree"], a["level"]))
for x, y in zip(a["nodes"], b["nodes"]):
    if x["node"] != y["node"] or (x["value"] is None) != (y["value"] is None) or \
       (x["value"] is not None and abs(x["value"] - y["value"]) > 1e-9):
        sys.exit("%s: stat %s, report %s" % (x["node"], x["value"], y["value"]))
    if y["value"] is None and "the report has" not in y["reason"]:
        sys.exit("%s n/a without the event's reason: %s" % (y["node"], y["reason"]))
PY
ok "stat --topdown's own report evaluated again: the same tree, n/a nodes with the event's reason"

# The other formats and options: -x and --csv carry the tree as stat's do, -o writes the file, --metric evaluates.
run_pmc report --csv "$fx/skl-raw-names.json"
expect_rc 0 "--csv"
expect_out "^topdown,backend_bound,,,,0.55,0.55,fraction of slots,.*,bottleneck," "--csv tree"
run_pmc report -x ';' "$fx/skl-raw-names.json"
expect_out "^30.00;%;topdown.retiring;;1;70;" "-x tree"
run_pmc report -o "$TMP/r.txt" --metric 'uops_per_slot=retired_slots_per_clk/4' --metric 'rs=r19c/r003c' "$fx/skl-raw-names.json"
expect_rc 0 "-o and --metric"
[ ! -s "$TMP/out" ] || fail "-o: the report went to stdout too"
grep -qE "^ +0.4000 +rs " "$TMP/r.txt" || { cat "$TMP/r.txt" >&2; fail "--metric rs = 400/1000"; }
grep -qE "n/a +uops_per_slot +.retired_slots_per_clk. is neither" "$TMP/r.txt" || { cat "$TMP/r.txt" >&2; fail "--metric on a name the report lacks: n/a"; }
ok "--csv, -x, -o and --metric"

# 3. Bad input: exit 2, the file and what is wrong on stderr, nothing on stdout.
bad() { # bad DESCRIPTION PATTERN ARGS...
	local what=$1 pat=$2
	shift 2
	run_pmc report "$@"
	expect_rc 2 "$what"
	expect_err "$pat" "$what"
	[ ! -s "$TMP/out" ] || fail "$what: wrote a report"
}
printf 'not json' >"$TMP/a.json"
bad "not JSON" "cannot read '.*a.json': line 1" "$TMP/a.json"
head -c 200 "$TMP/s.json" >"$TMP/t.json"
bad "truncated" "cannot read '.*t.json': line 1, column [0-9]+: " "$TMP/t.json"   # where it stops depends on what the 200 bytes cut
printf '{"schema_version":2,"kind":"stat"}' >"$TMP/v.json"
bad "schema 2" "not a pmctool stat report of schema_version 1" "$TMP/v.json"
printf '{"schema_version":1,"kind":"merge","runs":{},"events":[],"metrics":[]}' >"$TMP/k.json"
bad "kind merge" "kind 'merge'" "$TMP/k.json"
bad "missing file" "cannot read '$TMP/none.json': No such file" "$TMP/none.json"
bad "unknown tree" "--topdown-def 'nosuch': no such top-down tree; the trees are: intel-snb, " --topdown-def nosuch "$fx/skl-raw-names.json"
sed 's/"tree": "intel-skl"/"tree": "intel-nosuch"/' "$fx/skl-raw-names.json" >"$TMP/tree.json"
grep -q intel-nosuch "$TMP/tree.json" || fail "fixture lacks its topdown member"
bad "the report's unknown tree" "the report's top-down tree 'intel-nosuch': no such top-down tree" "$TMP/tree.json"
bad "level 2 of a level-1 tree" "--topdown=2: the tree intel-icl has 1 level" --topdown=2 --topdown-def intel-icl "$fx/skl-raw-names.json"
bad "two files" "give one saved report" "$TMP/s.json" "$TMP/s.json"
LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run_pmc report --topdown "$TMP/nocpu.json"
expect_rc 2 "--topdown on Zen 3"
expect_err "no top-down tree for this report: Zen 3 has no per-slot dispatch events" "--topdown on Zen 3"
ok "bad input: not JSON, truncated, another schema or kind, no file, unknown tree, bad level: exit 2 with the reason"
