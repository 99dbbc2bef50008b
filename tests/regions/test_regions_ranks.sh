#!/usr/bin/env bash
# Standalone region reports per rank (issue 17, issue 13 item 3): PMCTOOL_REGIONS_OUT takes stat -o's templates, a
# .json name writes a pmctool stat report (whole, schema-valid) that pmctool merge reads; under Open MPI's real
# mpirun (4 ranks, oversubscribed) rank k enters "ranked" k + 1 times with 100 marker calls each: a breakpoint on the
# marker counts them exactly, so every count, total and imbalance is known in advance.
source "$PMC_SOURCE_DIR/tests/lib.sh"
source "$PMC_SOURCE_DIR/tests/regions/lib_regions.sh"
breakpoints_fire_or_skip # its counts are exact breakpoint counts: where breakpoints fire
SCHEMA="$PMC_SOURCE_DIR/schema/pmctool-report.schema.json"
VALIDATE=(python3 "$PMC_SOURCE_DIR/tests/core/validate_json.py" "$SCHEMA")
EV="mem:$A:x"
NOLAUNCHER=(env -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u PMIX_RANK -u SLURM_PROCID -u SLURM_JOB_ID -u PBS_JOBID
	-u LSB_JOBID -u FLUX_JOB_ID -u OMPI_MCA_ess_base_jobid)

# jq_file FILE EXPR: a Python expression over the JSON document d in FILE.
jq_file() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# %p and %% without a launcher: one JSON report, valid, exact, the whole program honestly not counted.
(cd "$TMP" && "${NOLAUNCHER[@]}" PMCTOOL_REGIONS_EVENTS="$EV" PMCTOOL_REGIONS_OUT='solo.%p.100%%.json' "$RG" ranks \
	2>"$TMP/err") || fail "the marked program failed with a %p template"
[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "a report in a file wrote to stderr"; }
set -- "$TMP"/solo.*.100%.json
[ $# -eq 1 ] && [ -f "$1" ] || fail "no solo.PID.100%.json"
SOLO=$1
"${VALIDATE[@]}" "$SOLO" >/dev/null || { "${VALIDATE[@]}" "$SOLO"; fail "the standalone report is not schema-valid"; }
want() { # want FILE EXPR VALUE WHAT
	local got
	got=$(jq_file "$1" "$2") || fail "$4: query $2 failed"
	[ "$got" = "$3" ] || fail "$4: $2 is $got, expected $3"
}
want "$SOLO" 'd["kind"], d["mode"], d["exit_status"], d["origin"]["rank"]' "('stat', 'standalone', 0, None)" \
	"a stat report of mode standalone, no rank"
want "$SOLO" 'd["origin"]["pid"] == int(sys.argv[1].rsplit("/", 1)[1].split(".")[1])' True "%p is the report's pid"
want "$SOLO" '[(r["name"], r["calls"], r["counts"][0]["value"]) for r in d["regions"]["list"]]' \
	"[('ranked', 1, 100), ('common', 1, 10)]" "rank 0's regions, exact"
want "$SOLO" '[(e["status"], e["mean"]) for e in d["events"]]' "[('not counted', None)]" \
	"the whole program is not counted (never a made-up number)"
ok "PMCTOOL_REGIONS_OUT='solo.%p.100%%.json': a schema-valid stat report with exact region counts"

# The rank and job from the environment; an existing report is replaced whole; no temporary file stays.
echo 'an old report' >"$TMP/r.7.99.json"
(cd "$TMP" && "${NOLAUNCHER[@]}" PMI_RANK=7 SLURM_JOB_ID=99 PMCTOOL_REGIONS_EVENTS="$EV" \
	PMCTOOL_REGIONS_OUT='r.%r.%j.json' "$RG" ranks) || fail "PMI_RANK=7 run"
want "$TMP/r.7.99.json" '(d["origin"]["rank"], d["origin"]["rank_from"], d["origin"]["job"])' \
	"(7, 'PMI_RANK', '99')" "%r %j from PMI_RANK and SLURM_JOB_ID"
want "$TMP/r.7.99.json" '[r["calls"] for r in d["regions"]["list"] if r["name"] == "ranked"]' "[8]" \
	"rank 7 enters ranked 8 times"
ls "$TMP" | grep -q pmctool- && fail "a temporary file stayed: $(ls "$TMP")"
ok "%r %j from the environment; the old file replaced whole, no temporary file left"

# An unexpandable template: a message naming the variables and the template, the program runs and exits normally,
# its report on stderr, no file at all.
set +e
(cd "$TMP" && "${NOLAUNCHER[@]}" PMCTOOL_REGIONS_EVENTS="$EV" PMCTOOL_REGIONS_OUT='norank.%r.json' "$RG" ranks \
	>"$TMP/out" 2>"$TMP/err")
rc=$?
set -e
[ "$rc" -eq 0 ] || { cat "$TMP/err"; fail "the program exited $rc with an unexpandable template"; }
expect_err "PMCTOOL_REGIONS_OUT='norank.%r.json'" "the message names the template"
expect_err 'OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID' "the message names the rank variables"
expect_err '^ranked +0 +1 +100' "the report (text) goes to stderr instead"
ls "$TMP"/norank* >/dev/null 2>&1 && fail "a file was written for an unexpandable template"
set +e
(cd "$TMP" && "${NOLAUNCHER[@]}" PMCTOOL_REGIONS_EVENTS="$EV" PMCTOOL_REGIONS_OUT='j.%j.%q.json' "$RG" ranks \
	>"$TMP/out" 2>"$TMP/err")
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "the program exited $rc with a bad directive"
expect_err "'j.%j.%q.json': %j: no job id" "a missing job id is named"
ok "an unexpandable template: a clear message, the report on stderr, the program unharmed, no file"

# The format: PMCTOOL_REGIONS_FORMAT overrides the name; an unknown one is said; a directory that cannot be written
# to sends the report to stderr.
PMCTOOL_REGIONS_EVENTS="$EV" PMCTOOL_REGIONS_OUT="$TMP/f.txt" PMCTOOL_REGIONS_FORMAT=json "$RG" ranks
want "$TMP/f.txt" 'd["mode"]' standalone "PMCTOOL_REGIONS_FORMAT=json with a .txt name"
PMCTOOL_REGIONS_EVENTS="$EV" PMCTOOL_REGIONS_OUT="$TMP/t.json" PMCTOOL_REGIONS_FORMAT=text "$RG" ranks
grep -qE '^ranked +0 +1 +100' "$TMP/t.json" || fail "PMCTOOL_REGIONS_FORMAT=text with a .json name"
PMCTOOL_REGIONS_EVENTS="$EV" PMCTOOL_REGIONS_OUT="$TMP/x.json" PMCTOOL_REGIONS_FORMAT=xml "$RG" ranks 2>"$TMP/err"
expect_err "PMCTOOL_REGIONS_FORMAT='xml' is not a format" "an unknown format is named"
PMCTOOL_REGIONS_EVENTS="$EV" PMCTOOL_REGIONS_OUT="$TMP/no/such/dir/r.json" "$RG" ranks 2>"$TMP/err" ||
	fail "an unwritable report path made the program fail"
expect_err "cannot write the report to $TMP/no/such/dir/r.json" "the unwritable path is named"
expect_err '"mode":"standalone"' "and the report follows on stderr"
ok "PMCTOOL_REGIONS_FORMAT json/text/unknown; an unwritable path: named, the report on stderr"

# The exit status is in the report, and merge names the rank that failed.
(cd "$TMP" && "${NOLAUNCHER[@]}" PMI_RANK=2 PMCTOOL_REGIONS_EVENTS="$EV" PMCTOOL_REGIONS_OUT='fail.%r.json' \
	"$RG" ranks 2) && fail "rg-prog ranks 2 should exit 3 on rank 2"
want "$TMP/fail.2.json" '(d["exit_status"], d["executions"][0]["state"])' "(3, 'failed')" "exit(3) is in the report"
ok "the exit status (glibc's on_exit) is in the report"

mpi_launcher 4
mkdir "$TMP/mpi"
set +e
"${MPI[@]}" -x PMCTOOL_REGIONS_EVENTS="$EV" -x PMCTOOL_REGIONS_OUT="$TMP/mpi/regions.%h.%r.json" "$RG" ranks \
	>"$TMP/mpi.out" 2>&1
rc=$?
set -e
[ "$rc" -eq 0 ] || { cat "$TMP/mpi.out"; fail "mpirun exited $rc"; }
n=$(ls "$TMP"/mpi/regions.*.json | wc -l)
[ "$n" -eq 4 ] || { cat "$TMP/mpi.out"; ls "$TMP/mpi"; fail "$n reports, expected 4"; }
"${VALIDATE[@]}" "$TMP"/mpi/regions.*.json >/dev/null || fail "a rank's report is not schema-valid"
ok "mpirun -n 4 with PMCTOOL_REGIONS_OUT='regions.%h.%r.json': one valid report per rank"

run_pmc merge --json "$TMP"/mpi/regions.*.json
expect_rc 0 "merge of 4 standalone region reports"
cp "$TMP/out" "$TMP/merge.json"
"${VALIDATE[@]}" "$TMP/merge.json" >/dev/null || fail "the merge of region reports is not schema-valid"
python3 - "$TMP/merge.json" "$EV" "$TMP"/mpi/regions.*.json <<'PY' || fail "the merged regions"
import json, sys
m, ev = json.load(open(sys.argv[1])), sys.argv[2]
# Each rank's own file: rank k entered "ranked" k + 1 times, 100 marker calls each; "common" once, 10 calls.
for path in sys.argv[3:]:
    d = json.load(open(path))
    k = d["origin"]["rank"]
    assert d["origin"]["rank_from"] == "OMPI_COMM_WORLD_RANK", d["origin"]
    got = {r["name"]: (r["calls"], r["counts"][0]["value"]) for r in d["regions"]["list"]}
    assert got == {"ranked": (k + 1, 100 * (k + 1)), "common": (1, 10)}, (path, got)
assert [r["rank"] for r in m["ranks"]] == [0, 1, 2, 3] and all(r["state"] == "ok" for r in m["ranks"]), m["ranks"]
def row(region, name):
    return next(x for x in m["summary"] if x["kind"] == "region" and x["region"] == region and x["name"] == name)
# By hand: calls 1 + 2 + 3 + 4 = 10, mean 2.5, max 4 (rank 3): imbalance 4 / 2.5 = 1.6; the counts 100x that.
calls, count = row("ranked", "calls"), row("ranked", ev)
assert (calls["ranks"], calls["total"], calls["min"], calls["mean"], calls["max"]) == (4, 10, 1, 2.5, 4), calls
assert calls["imbalance"] == 1.6 and calls["max_rank"] == 3 and calls["min_rank"] == 0, calls
assert (count["total"], count["min"], count["mean"], count["max"], count["imbalance"]) == (1000, 100, 250, 400, 1.6), count
common = row("common", ev)
assert (common["total"], common["imbalance"]) == (40, 1), common
# The per-rank rows of the merge carry each rank's region series.
for r in m["ranks"]:
    s = next(x for x in r["series"] if x["kind"] == "region" and x["region"] == "ranked" and x["name"] == ev)
    assert s["mean"] == 100 * (r["rank"] + 1), (r["rank"], s)
ev_row = next(x for x in m["summary"] if x["kind"] == "event" and x["name"] == ev)
assert ev_row["ranks"] == 0 and ev_row["total"] is None, ev_row  # the whole program: not counted, not summed
print("ranked per rank:", [100 * (k + 1) for k in range(4)], "total", count["total"], "imbalance", count["imbalance"])
PY
ok "merge: per region calls and counts per rank, totals = sums, imbalance max/mean = 1.6 as computed by hand"

run_pmc merge "$TMP"/mpi/regions.*.json
expect_rc 0 "merge table"
expect_out '^ Region ranked per rank:' "the table has a block per region"
expect_out "^ ranked: $EV +4 +1000 +100 +250 +400 +1\\.600 +3\$" "the summary row of the region's count"
run_pmc merge --csv "$TMP"/mpi/regions.*.json
expect_rc 0 "merge CSV"
python3 - "$TMP/out" "$EV" <<'PY' || fail "merge CSV of regions"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
per = [float(r["value"]) for r in rows if r["section"] == "rank" and r["region"] == "ranked" and r["name"] == sys.argv[2]]
tot = next(r for r in rows if r["section"] == "summary" and r["region"] == "ranked" and r["name"] == sys.argv[2])
assert per == [100, 200, 300, 400] and float(tot["total"]) == 1000 and float(tot["imbalance"]) == 1.6, (per, tot)
PY
ok "merge table and CSV: the region rows per rank and their summary"
