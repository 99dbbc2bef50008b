#!/usr/bin/env bash
# Every JSON mode validates against schema/pmctool-report.schema.json (issue 12 item 14): stat, -r, rerun, multiplex,
# -k, partial, a failed run, dry-run, list, info, encode, sets and one set; and the golden report. Also the
# conventions the schema cannot say: floats are shortest-round-trip, times are integer ns.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}
SCHEMA="$PMC_SOURCE_DIR/schema/pmctool-report.schema.json"
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed (setup.sh installs it)"
docs=()

# json NAME ARGS...: run pmctool with ARGS (JSON on stdout), keep the document as $TMP/NAME.json.
json() {
	local name=$1; shift
	run_pmc "$@"
	[ -s "$TMP/out" ] || { cat "$TMP/err" >&2; fail "$name: no JSON on stdout (exit $RC)"; }
	cp "$TMP/out" "$TMP/$name.json"
	docs+=("$TMP/$name.json")
}

json stat stat --json -o - -e task-clock,page-faults,cycles -- "$W" pages 10
json repeat stat --json -o - -r 3 -e task-clock,page-faults -- true
json rerun stat --json -o - --batch=rerun --counters 1 -e branches,branch-misses,cycles,task-clock -- true
json multiplex stat --json -o - --batch=multiplex --counters 1 -e branches,branch-misses,task-clock -- true
json failed stat --json -o - -r 2 -e task-clock -- sh -c 'exit 3'
json metric stat --json -o - -e task-clock,page-faults --metric 'pf={page-faults}/{task-clock}' -- true
json default stat --json -o - -- true
# --topdown: the tree's object (here every node n/a with the reason where the events do not count).
LIBPFM_FORCE_PMU=icl json topdown stat --json -o - --topdown -- true
# --regions: regions in 4 threads with a metric, across two batches (breakpoints, half the slots each), and misuse.
RG="$PMC_BUILD_DIR/tests/regions/prog/rg-prog"
rga=0x$(nm "$RG" | awk '$3 == "marker_a" { print $1 }')
rgb=0x$(nm "$RG" | awk '$3 == "marker_b" { print $1 }')
json regions stat --json -o - --regions -e "mem:$rga:x,page-faults,task-clock" --metric 'pf={page-faults}/{task-clock}' -- "$RG" threads 4
json regions-batches stat --json -o - --regions -e "mem:$rga:x,mem:$rgb:x,mem:$rga:r,page-faults" -- "$RG" basic
json regions-misuse stat --json -o - --regions -e page-faults -- "$RG" badleave
json regions-silent stat --json -o - --regions -e page-faults -- true
run_pmc stat --json -o - -k empty --iters 1000 -e task-clock
if [ "$RC" -eq 0 ]; then cp "$TMP/out" "$TMP/kernel.json"; docs+=("$TMP/kernel.json"); else
	echo "note: -k empty does not run here: $(head -c 200 "$TMP/err")"; fi
json plan stat --dry-run --json -e task-clock,cycles,instructions
json list list --json
json info info --json
# check: here what this machine gives (without a PMU, the unavailable verdict); its exit status is the verdict's.
run_pmc check --json
[ -s "$TMP/out" ] || { cat "$TMP/err" >&2; fail "check: no JSON (exit $RC)"; }
cp "$TMP/out" "$TMP/check.json"
docs+=("$TMP/check.json")
# compare, with the environments of two reports (the same here).
json compare compare --json "$TMP/repeat.json" "$TMP/repeat.json"
json encode encode --json cycles task-clock 'mem:0x1000:x'
json sets sets --json --all
json set sets --json core

# partial: SIGINT while the command runs.
"$PMCTOOL" stat --json -o "$TMP/partial.json" -e task-clock -- sleep 5 2>/dev/null &
pid=$!
sleep 0.5
kill -INT $pid
set +e; wait $pid; set -e
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["partial"] is True' "$TMP/partial.json" \
	|| fail "the interrupted report is not partial"
docs+=("$TMP/partial.json" "$PMC_SOURCE_DIR/tests/golden/report.json")
# info --json as the arm64 rig's guest printed it (Cortex-A57, armv8_pmuv3, the budget learnt from the kernel): the
# schema holds for both architectures' documents.
docs+=("$PMC_SOURCE_DIR/tests/golden/info-arm64-rig.json")

python3 "$PMC_SOURCE_DIR/tests/core/validate_json.py" "$SCHEMA" "${docs[@]}" || fail "a document does not match the schema"
ok "${#docs[@]} documents match the schema"

# Conventions: every float is the shortest that reads back the same; no time field in seconds.
python3 - "${docs[@]}" <<'PY' || fail "JSON conventions"
import json, re, sys
for path in sys.argv[1:]:
    text = open(path).read()
    for tok in re.findall(r'(?<=[:\[,])-?\d+\.\d+(?:[eE][-+]?\d+)?(?=[,\]}])', text):
        v = float(tok)
        short = min((f"{v:.{p}g}" for p in range(1, 18) if float(f"{v:.{p}g}") == v), key=len)
        assert len(tok.replace("e+", "e").lstrip("0")) <= len(short) + 2, f"{path}: {tok} is not shortest ({short})"
    d = json.loads(text)
    def walk(o, where):
        if isinstance(o, dict):
            for k, v in o.items():
                assert not k.endswith("_s"), f"{path}: {where}/{k}: times are _ns integers"
                if k.endswith("_ns") and v is not None and not isinstance(v, dict):
                    assert isinstance(v, int), f"{path}: {where}/{k} = {v!r} is not an integer"
                walk(v, f"{where}/{k}")
        elif isinstance(o, list):
            for i, v in enumerate(o):
                walk(v, f"{where}/{i}")
    walk(d, "")
PY
ok "floats are shortest-round-trip, times are integer nanoseconds"

# The schema can fail: a missing field, an extra field and a wrong type are each refused.
python3 - "$SCHEMA" "$TMP/stat.json" <<'PY' || fail "the schema accepts broken documents"
import copy, json, sys
import jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
assert v.is_valid(d)
for name, change in [
    ("missing reason", lambda x: x["events"][0].pop("reason")),
    ("extra field", lambda x: x["events"][0].__setitem__("extra", 1)),
    ("stddev as text", lambda x: x["events"][0].__setitem__("stddev", "1")),
    ("seconds instead of ns", lambda x: x.__setitem__("user_ns", 0.5)),
    ("old class spelling", lambda x: x["events"][0].__setitem__("class", "gp")),
    ("no version", lambda x: x.pop("schema_version")),
]:
    bad = copy.deepcopy(d)
    change(bad)
    assert not v.is_valid(bad), f"the schema accepted a document with {name}"
PY
ok "the schema refuses a missing field, an extra field, a wrong type, seconds, the old spelling, no version"
