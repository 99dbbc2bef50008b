#!/usr/bin/env bash
# pmctool compare and stat --compare (issue 17): two synthetic reports with known distributions (a shift that is
# significant, a second sample of the same distribution that is not; p-values checked against an independent
# integration of Student's t density), too few runs, --fail-if exit statuses, CSV and JSON; and two real runs of
# the same command (not significant; an exact breakpoint count shows no difference).
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}
SCHEMA="$PMC_SOURCE_DIR/schema/pmctool-report.schema.json"

# Bad options: an unknown one is called unknown (a short one was said to need a value), one without its value says so.
run_pmc compare -z a.json b.json
expect_rc 2 "compare -z"
expect_err "^pmctool compare: unknown option '-z'$" "compare -z is unknown"
for opt in -t --test --alpha --fail-if -o; do
	run_pmc compare "$opt"
	expect_rc 2 "compare $opt without its value"
	expect_err "^pmctool compare: option needs a value: '$opt'$" "compare $opt without its value"
done
run_pmc compare --json --csv a.json b.json
expect_rc 2 "compare --json --csv"
expect_err "^pmctool compare: --csv and --json both choose the format: give one$" "compare --json --csv"
ok "compare names an unknown option, an option without its value and two formats"

run_pmc stat --json -o "$TMP/t.json" -r 20 -e task-clock,page-faults -- true
expect_rc 0 "the template report"
run_pmc stat --json -o "$TMP/one.json" -e task-clock,page-faults -- true
expect_rc 0 "a report of one run"

# Per-run metric samples in stat's JSON: each run's metric from that run's counts.
run_pmc stat --json -o "$TMP/m.json" -r 3 -e page-faults,task-clock --metric 'pfms={page-faults}/{task-clock}*1e6' -- "$W" pages 50
expect_rc 0 "a report with a metric"
python3 - "$TMP/m.json" <<'PY' || fail "per-run metric samples"
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["name"]: {s["run"]: s["value"] for s in e["samples"]} for e in d["events"]}
m = next(x for x in d["metrics"] if x["name"] == "pfms")
assert [s["run"] for s in m["samples"]] == [1, 2, 3], m["samples"]
for s in m["samples"]:
    want = ev["page-faults"][s["run"]] / ev["task-clock"][s["run"]] * 1e6
    assert abs(s["value"] - want) <= 1e-9 * want, (s, want)
assert d["origin"]["pid"] > 0 and d["origin"]["host"], d["origin"]
PY
ok "stat's JSON carries each metric's value in each run, computed from that run's counts, and its origin"

# A ~ N(1000, 20), B ~ N(1100, 20), C ~ N(1000, 20) (another seed): page-faults' samples replaced, 20 runs each.
python3 - "$TMP" <<'PY'
import json, random, sys
t = json.load(open(sys.argv[1] + "/t.json"))
for name, mu, seed in (("a", 1000, 1), ("b", 1100, 2), ("c", 1000, 3)):
    d = json.loads(json.dumps(t))
    rnd = random.Random(seed)
    ev = next(e for e in d["events"] if e["name"] == "page-faults")
    for s in ev["samples"]:
        s["value"] = round(rnd.gauss(mu, 20))
        s["enabled_ns"] = s["running_ns"] = 1000
    json.dump(d, open(f"{sys.argv[1]}/{name}.json", "w"))
PY

# p of Welch's test from the samples, by Simpson's rule over Student's t density (independent of pmctool's code).
cat > "$TMP/welch.py" <<'PY'
import json, math, sys
def runs(path):
    ev = next(e for e in json.load(open(path))["events"] if e["name"] == "page-faults")
    return [s["value"] for s in ev["samples"]]
a, b = runs(sys.argv[1]), runs(sys.argv[2])
def mv(x):
    m = sum(x) / len(x); return m, sum((v - m) ** 2 for v in x) / (len(x) - 1)
(ma, va), (mb, vb) = mv(a), mv(b)
sa, sb = va / len(a), vb / len(b)
t = (mb - ma) / math.sqrt(sa + sb)
df = (sa + sb) ** 2 / (sa ** 2 / (len(a) - 1) + sb ** 2 / (len(b) - 1))
c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
n, lo, hi = 20000, 0.0, abs(t)
h = (hi - lo) / n
inner = f(lo) + f(hi) + sum((4 if i % 2 else 2) * f(lo + i * h) for i in range(1, n))
print(t, 1 - 2 * inner * h / 3)
PY

run_pmc compare --json "$TMP/a.json" "$TMP/b.json"
expect_rc 0 "compare A B"
cp "$TMP/out" "$TMP/ab.json"
run_pmc compare --json "$TMP/a.json" "$TMP/c.json"
expect_rc 0 "compare A C"
cp "$TMP/out" "$TMP/ac.json"
python3 - "$TMP" <<'PY' || fail "the verdicts and p-values"
import json, subprocess, sys
T = sys.argv[1]
for other, verdict in (("b", "significant"), ("c", "not significant")):
    d = json.load(open(f"{T}/a{other}.json"))
    r = next(x for x in d["rows"] if x["name"] == "page-faults")
    t, p = map(float, subprocess.check_output([sys.executable, f"{T}/welch.py", f"{T}/a.json", f"{T}/{other}.json"]).split())
    assert d["test"] == "welch-t" and r["n_a"] == 20 and r["n_b"] == 20, r
    assert r["verdict"] == verdict, (other, r)
    assert abs(r["statistic"] - t) < 1e-9 * max(1, abs(t)), (r["statistic"], t)
    assert abs(r["p"] - p) < 1e-6 + 1e-4 * p, (other, r["p"], p)
    same = next(x for x in d["rows"] if x["name"] == "task-clock")
    assert same["verdict"] == "no difference" and same["ratio"] == 1, same
    print(f"A vs {other.upper()}: t = {t:.4f}, p = {r['p']:.3g} (integrated: {p:.3g}): {r['verdict']}")
PY
ok "synthetic reports: a 10% shift is significant, the same distribution is not; t and p match an independent integration"
python3 "$PMC_SOURCE_DIR/tests/core/validate_json.py" "$SCHEMA" "$TMP/ab.json" >/dev/null || fail "compare JSON does not match the schema"
ok "the compare JSON matches the schema"

run_pmc compare --test mann-whitney "$TMP/a.json" "$TMP/b.json"
expect_rc 0 "Mann-Whitney"
expect_out 'Mann-Whitney' "the test is named"
grep -E '^ page-faults .* significant' "$TMP/out" >/dev/null || fail "Mann-Whitney does not find the shift"
run_pmc compare "$TMP/one.json" "$TMP/a.json"
expect_rc 0 "one run against 20"
expect_out 'not enough runs' "one run cannot be tested"
ok "Mann-Whitney finds the shift; one run is 'not enough runs'"

# --fail-if: 1 when a condition holds, 0 when none does, 3 when one cannot be judged, 2 for bad syntax or input.
run_pmc compare --fail-if 'page-faults>+5%' "$TMP/a.json" "$TMP/b.json"; expect_rc 1 "a 10% rise fails >+5%"
run_pmc compare --fail-if 'page-faults>+20%' "$TMP/a.json" "$TMP/b.json"; expect_rc 0 "a 10% rise passes >+20%"
run_pmc compare --fail-if 'page-faults>+0.1%' "$TMP/a.json" "$TMP/c.json"; expect_rc 0 "noise is not a rise"
run_pmc compare --fail-if 'page-faults<-5%' "$TMP/b.json" "$TMP/a.json"; expect_rc 1 "a fall below -5%"
run_pmc compare --fail-if 'page-faults>+50' "$TMP/a.json" "$TMP/b.json"; expect_rc 1 "an absolute rise of 100 > 50"
run_pmc compare --fail-if 'nosuch>+1%' "$TMP/a.json" "$TMP/b.json"; expect_rc 3 "an unknown name cannot be judged"
expect_err 'cannot be judged' "the reason is told"
run_pmc compare --fail-if 'page-faults' "$TMP/a.json" "$TMP/b.json"; expect_rc 2 "bad condition"
run_pmc compare "$TMP/a.json" "$TMP/nonexistent.json"; expect_rc 2 "a missing report"
expect_err 'nonexistent.json' "the file is named"
echo '{"schema_version":1,"kind":"list"}' >"$TMP/list.json"
run_pmc compare "$TMP/a.json" "$TMP/list.json"; expect_rc 2 "another kind of document"
expect_err 'not a pmctool stat report' "says what it is not"
run_pmc compare "$TMP/a.json"; expect_rc 2 "one report"
ok "--fail-if exit statuses 0, 1, 3 and 2; unreadable inputs are exit 2"

run_pmc compare --csv "$TMP/a.json" "$TMP/b.json"
expect_rc 0 "CSV"
python3 - "$TMP/out" <<'PY' || fail "compare CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = next(x for x in rows if x["name"] == "page-faults")
assert r["test"] == "welch-t" and r["verdict"] == "significant" and float(r["ratio"]) > 1.05, r
PY
ok "CSV: one row per event and metric"

# Two real runs of the same command: not significant. Judged at alpha 0.0001, so that the test's own false-positive
# rate stays negligible; a breakpoint on the workload's page-touching function counts exactly: no difference.
# (where breakpoints fire: the probe pmctool runs says; the body is left unindented for its here-documents)
if ! breakpoints_fire; then
	echo "SKIP (part): two real runs compared on an exact breakpoint count: $BP_PROBE"
else
bp=$(nm "$W" | awk '$3=="touch_pages"{print $1}')
for side in a b; do
	run_pmc stat --json -o "$TMP/real-$side.json" -r 8 -e "page-faults,task-clock,mem:0x$bp:x" -- "$W" pages 200
	expect_rc 0 "real run $side"
done
run_pmc compare --json --alpha 0.0001 "$TMP/real-a.json" "$TMP/real-b.json"
expect_rc 0 "compare two real runs"
python3 - "$TMP/out" <<'PY' || fail "two real runs of the same command"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["name"]: r for r in d["rows"]}
for name in ("page-faults",):  # a count; times drift between two sequential batches of runs (stat --compare interleaves)
    r = rows[name]
    assert r["n_a"] == 8 and r["n_b"] == 8 and r["verdict"] in ("not significant", "no difference"), r
bp = next(r for n, r in rows.items() if n.startswith("mem:"))
assert bp["verdict"] == "no difference" and bp["a"] == bp["b"] == 1, bp
print("page-faults p =", rows["page-faults"]["p"], " task-clock p =", rows["task-clock"]["p"])
PY
ok "two real runs of the same command: not significant; the exact count shows no difference"

# stat --compare measures both, interleaved: the exact count is identical, the condition does not hold.
run_pmc stat --compare "$W pages 200" -r 6 -e "page-faults,mem:0x$bp:x" --json -o "$TMP/same.json" \
	--fail-if "mem:0x$bp:x>+0%" -- "$W" pages 200
expect_rc 0 "stat --compare of a command with itself"
python3 - "$TMP/same.json" <<'PY' || fail "stat --compare of the same command"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["name"]: r for r in d["rows"]}
assert rows["page-faults"]["n_a"] == 6 and rows["page-faults"]["n_b"] == 6, rows["page-faults"]
bp = next(r for n, r in rows.items() if n.startswith("mem:"))
assert bp["verdict"] == "no difference" and bp["a"] == bp["b"] == 1, bp
assert d["conditions"][0]["state"] == "does not hold", d["conditions"]
PY
python3 "$PMC_SOURCE_DIR/tests/core/validate_json.py" "$SCHEMA" "$TMP/same.json" >/dev/null || fail "schema"
ok "stat --compare of a command against itself: 6 runs a side, interleaved; the exact count identical"
fi

run_pmc stat --compare "$W pages 100" -r 4 -e page-faults -- "$W" pages 2000
expect_rc 0 "stat --compare to stderr"
grep -E '^ page-faults .* significant' "$TMP/err" >/dev/null || { cat "$TMP/err"; fail "a 20x rise is significant"; }
run_pmc stat --compare "'unclosed" -- true; expect_rc 2 "an open quote"
run_pmc stat --fail-if 'x>+1%' -- true; expect_rc 2 "--fail-if without --compare"
run_pmc stat --compare true -k loop; expect_rc 2 "--compare with -k"
ok "stat --compare writes the table to stderr; bad --compare use is exit 2"
