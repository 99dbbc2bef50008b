#!/usr/bin/env bash
# -o templates and pmctool merge (issue 17): 4 ranks under Open MPI's real mpirun (oversubscribed) each write
# run.%h.%r.json; merge gives one row per rank, totals equal to the sums, min / mean / max and imbalance; a failing
# rank and an unreadable file are named; CSV and JSON; the plot of a series against the rank.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}
SCHEMA="$PMC_SOURCE_DIR/schema/pmctool-report.schema.json"

# Templates without a launcher: %p and %% work, %r and %j are errors naming what is missing.
(cd "$TMP" && env -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u PMIX_RANK -u SLURM_PROCID \
	"$PMCTOOL" stat --json -o 'solo.%p.100%%.json' -e task-clock -- true) || fail "-o with %p and %%"
ls "$TMP"/solo.*.100%.json >/dev/null || fail "no solo.PID.100%.json"
run_pmc stat --json -o "$TMP/x.%r.json" -e task-clock -- true
if [ -z "${OMPI_COMM_WORLD_RANK:-}${PMI_RANK:-}${PMIX_RANK:-}${SLURM_PROCID:-}" ]; then
	expect_rc 2 "%r outside a launcher"
	expect_err 'OMPI_COMM_WORLD_RANK' "%r names the variables"
fi
run_pmc stat -o "$TMP/x.%q" -e task-clock -- true
expect_rc 2 "an unknown directive"
PMI_RANK=7 SLURM_JOB_ID=99 "$PMCTOOL" stat --json -o "$TMP/r.%r.%j.json" -e task-clock -- true 2>/dev/null
[ -f "$TMP/r.7.99.json" ] || fail "PMI_RANK / SLURM_JOB_ID did not fill %r / %j"
ok "-o templates: %p %% without a launcher, %r %j from the environment, errors for the rest"

mpi_launcher 4
mkdir "$TMP/mpi"
# Rank r touches 100 * (r + 1) pages: imbalance is known.
set +e
"${MPI[@]}" "$PMCTOOL" stat --json -o "$TMP/mpi/run.%h.%r.json" -e task-clock,page-faults -- \
	sh -c 'exec "$0" pages $(( (OMPI_COMM_WORLD_RANK + 1) * 100 ))' "$W" >"$TMP/mpi.out" 2>&1
rc=$?
set -e
[ "$rc" -eq 0 ] || { cat "$TMP/mpi.out"; fail "mpirun exited $rc"; }
n=$(ls "$TMP"/mpi/run.*.json | wc -l)
[ "$n" -eq 4 ] || fail "$n reports, expected 4"
ok "mpirun -n 4 pmctool stat -o 'run.%h.%r.json': one report per rank"

run_pmc merge --json "$TMP"/mpi/run.*.json
expect_rc 0 "merge of 4 ranks"
cp "$TMP/out" "$TMP/merge.json"
python3 - "$TMP/merge.json" "$TMP"/mpi/run.*.json <<'PY' || fail "the merged totals"
import json, sys
m = json.load(open(sys.argv[1]))
per = {}
for path in sys.argv[2:]:
    d = json.load(open(path))
    assert d["origin"]["rank_from"] == "OMPI_COMM_WORLD_RANK", d["origin"]
    ev = next(e for e in d["events"] if e["name"] == "page-faults")
    per[d["origin"]["rank"]] = ev["mean"]
assert sorted(per) == [0, 1, 2, 3], per
assert [r["rank"] for r in m["ranks"]] == [0, 1, 2, 3] and all(r["state"] == "ok" for r in m["ranks"])
s = next(x for x in m["summary"] if x["name"] == "page-faults")
assert s["ranks"] == 4 and s["total"] == sum(per.values()), (s, per)
assert s["min"] == min(per.values()) and s["max"] == max(per.values()) and s["max_rank"] == 3, s
assert abs(s["imbalance"] - max(per.values()) / (sum(per.values()) / 4)) < 1e-12, s
assert per[3] - per[0] > 250, per  # 400 pages against 100
cpus = next(x for x in m["summary"] if x["kind"] == "metric")
assert cpus["total"] is None, cpus  # no sum of ratios
print("page-faults per rank:", per, "total", s["total"], "imbalance", round(s["imbalance"], 3))
PY
python3 "$PMC_SOURCE_DIR/tests/core/validate_json.py" "$SCHEMA" "$TMP/merge.json" "$TMP"/mpi/run.*.json >/dev/null \
	|| fail "merge or rank JSON does not match the schema"
ok "merge: totals are the sums over the ranks, min / max / imbalance right, rank of the maximum; JSON valid"

run_pmc merge --csv "$TMP"/mpi/run.*.json
expect_rc 0 "merge CSV"
python3 - "$TMP/out" <<'PY' || fail "merge CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ranks = [r for r in rows if r["section"] == "rank" and r["name"] == "page-faults"]
tot = next(r for r in rows if r["section"] == "summary" and r["name"] == "page-faults")
assert len(ranks) == 4 and float(tot["total"]) == sum(float(r["value"]) for r in ranks), (ranks, tot)
PY
ok "merge CSV: per-rank rows and the total"

run_pmc merge --y page-faults --plot "$TMP/ranks.svg" "$TMP"/mpi/run.*.json
expect_rc 0 "merge with a plot"
expect_out 'imbalance|max/mean' "the table has the imbalance"
python3 - "$TMP/ranks.svg" <<'PY' || fail "the merge plot"
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
pts = [c for c in ET.parse(sys.argv[1]).getroot().iter(ns + "circle") if c.get("class") == "point"]
assert [p.get("data-x") for p in pts] == ["0", "1", "2", "3"], [p.get("data-x") for p in pts]
PY
ok "merge --plot: page-faults against the rank, one point per rank"

# A failing rank and an unreadable file: named, the rest merged, exit 1.
mkdir "$TMP/bad"
set +e
# pmctool's own status is hidden from mpirun ('; exit 0'), which would otherwise stop the other ranks midway.
"${MPI[@]}" sh -c '"$0" stat --json -o "$1/bad/run.%r.json" -e task-clock -- \
	sh -c "[ \$OMPI_COMM_WORLD_RANK = 2 ] && exit 3; exit 0"; exit 0' "$PMCTOOL" "$TMP" >/dev/null 2>&1
set -e
echo 'not json' >"$TMP/bad/run.9.json"
run_pmc merge --json "$TMP"/bad/run.*.json
expect_rc 1 "merge with a failed rank and an unreadable file"
python3 - "$TMP/out" <<'PY' || fail "failed and unreadable ranks"
import json, sys
m = json.load(open(sys.argv[1]))
st = {r["file"].rsplit("/", 1)[1]: r["state"] for r in m["ranks"]}
assert st == {"run.0.json": "ok", "run.1.json": "ok", "run.2.json": "failed", "run.3.json": "ok", "run.9.json": "unreadable"}, st
assert m["failed"] == 1 and m["unreadable"] == 1
PY
expect_err "cannot read .*run.9.json" "the unreadable file is named"
run_pmc merge "$TMP/nothing.json"
expect_rc 2 "nothing readable"
ok "a failed rank and an unreadable report are named (exit 1); nothing readable is exit 2"
