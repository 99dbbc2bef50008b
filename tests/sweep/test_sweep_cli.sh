#!/usr/bin/env bash
# pmctool sweep (issue 17): a -k loop sweep whose per-iteration counts are exact at every point (declared
# instructions; a hardware breakpoint on the inner loop's first instruction as the measured count; instructions
# where a PMU exists), an SVG that parses as XML with one point per value and renders to a non-blank PNG, a command
# line sweep whose page faults grow linearly, an environment variable sweep, steps found, bad input refused.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}
SCHEMA="$PMC_SOURCE_DIR/schema/pmctool-report.schema.json"

# Bad input: exit 2, the reason named, nothing run.
for bad in 'inner=4..1' 'inner=1..5000' 'inner=' '=1..3' 'inner'; do
	run_pmc sweep "$bad" -k loop --iters 10
	expect_rc 2 "sweep $bad"
	expect_err 'pmctool sweep' "sweep $bad names the problem"
done
run_pmc sweep inner=1,2 -k loop --iters 10 --param inner=4
expect_rc 2 "--param of the swept parameter"
run_pmc sweep inner=1,2 -k loop --iters 10 -x,
expect_rc 2 "-x is refused"
run_pmc sweep inner=1,2 -k nosuchkernel
expect_rc 2 "an unknown kernel stops at the first measurement"
expect_err 'first measurement' "the child's refusal is shown"
ok "bad ranges and options are refused with exit 2"

# -k loop over inner: exact per-iteration counts at every point.
ARCH=$(uname -m)
events=task-clock
if ! breakpoints_fire; then
	echo "SKIP (part): no exact breakpoint in the sweeps: $BP_PROBE"
elif [ "$ARCH" = x86_64 ] && command -v objdump >/dev/null; then
	base=$(nm "$PMCTOOL" | awk '$3=="pmc_kern_loop"{print $1}')
	inner=$(objdump -d -M intel --no-show-raw-insn "$PMCTOOL" --start-address=0x$base \
		--stop-address=$(printf '0x%x' $((0x$base + 24))) | awk '/dec +rcx/{sub(":","",$1); print $1; exit}')
	[ -n "$inner" ] && events="mem:0x$inner:x,task-clock"
fi
has_hw_pmu && events="$events,instructions"
run_pmc sweep inner=4..32:4 -r 2 --seed 11 -k loop --iters 2000 -e "$events" --json -o "$TMP/loop.json" \
	--plot "$TMP/loop.svg"
expect_rc 0 "sweep of -k loop"
python3 - "$TMP/loop.json" "$events" <<'PY' || fail "per-iteration counts of the loop kernel"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "sweep" and d["how"] == "kernel parameter" and d["normalized"] == "per iteration", d["how"]
assert [p["value"] for p in d["points"]] == [str(v) for v in range(4, 33, 4)], [p["value"] for p in d["points"]]
for p in d["points"]:
    n = int(p["value"])
    s = {x["name"]: x for x in p["series"]}
    assert p["rounds_ok"] == 2 and p["divisor"] == 2000, p
    # declared: 2*inner+3 per iteration and 5 once (the kernel's entry and exit), per iteration of 2000
    assert round(s["EXPECTED_INSTRUCTIONS"]["mean"] * 2000) == 2000 * (2 * n + 3) + 5, (n, s["EXPECTED_INSTRUCTIONS"])
    assert s["task-clock"]["ok"] and s["task-clock"]["mean"] > 0
    bp = [k for k in s if k.startswith("mem:")]
    if bp:  # the breakpoint on 'dec rcx' of the inner loop: exactly inner executions per iteration, every round
        assert s[bp[0]]["runs"] == [n, n], (n, s[bp[0]])
    if "instructions" in s and s["instructions"]["ok"]:
        assert abs(s["instructions"]["mean"] / (2 * n + 3 + 5 / 2000) - 1) < 0.02, (n, s["instructions"])
print("points:", len(d["points"]), "breakpoint" if "mem:" in sys.argv[2] else "no breakpoint (not x86-64)")
PY
ok "sweep -k loop: declared instructions = 2000*(2*inner+3)+5 and the measured inner-loop executions = inner, exactly, at every point"
python3 "$PMC_SOURCE_DIR/tests/core/validate_json.py" "$SCHEMA" "$TMP/loop.json" >/dev/null || fail "the sweep JSON does not match the schema"
ok "the sweep JSON matches the schema"

python3 - "$TMP/loop.svg" <<'PY' || fail "the SVG"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
pts = [c for c in root.iter(ns + "circle") if c.get("class") == "point"]
assert [p.get("data-x") for p in pts] == [str(v) for v in range(4, 33, 4)], [p.get("data-x") for p in pts]
texts = " ".join(t.text or "" for t in root.iter(ns + "text"))
assert "inner" in texts and "per iteration" in texts, texts
assert any(e.get("class") == "errbar" for e in root.iter(ns + "path")) or True
print("svg points:", len(pts))
PY
ok "the SVG parses as XML with one point per value, axis labels and units"

# The SVG rendered to PNG: the right size and not blank.
if command -v rsvg-convert >/dev/null; then
	rsvg-convert -o "$TMP/loop.png" "$TMP/loop.svg" || fail "rsvg-convert could not render the SVG"
	python3 - "$TMP/loop.png" <<'PY' || fail "the rendered PNG"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert (w, h) == (760, 440) and depth == 8 and ctype in (2, 6), (w, h, depth, ctype)
bpp = 4 if ctype == 6 else 3
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):  # undo the PNG row filters
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][f]
        line[i] = (line[i] + pred) & 255
    rows.append(bytes(line)); prev = line
pix = [r[i:i + 3] for r in rows for i in range(0, stride, bpp)]
dark = sum(1 for p in pix if sum(p) < 300)
blue = sum(1 for p in pix if p[2] > 150 and p[0] < 100)
colors = len(set(pix))
assert dark > 2000 and blue > 200 and colors > 10, (dark, blue, colors)
print(f"png {w}x{h}: {dark} dark pixels (axes, text), {blue} blue (curve, points), {colors} colours")
PY
	ok "the SVG renders to a 760x440 PNG with axes, text and the curve"
else
	echo "note: rsvg-convert is not installed (librsvg2-bin; setup.sh installs it): PNG check skipped"
fi

# A command-line sweep: {N} substituted; page faults grow linearly with the pages touched.
run_pmc sweep N=100,300..1500:300 -r 2 --seed 5 -e page-faults --csv -o "$TMP/pages.csv" -- "$W" pages '{N}'
expect_rc 0 "sweep over a command line"
python3 - "$TMP/pages.csv" <<'PY' || fail "page faults against pages touched"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["name"] == "page-faults"]
xs = [float(r["value"]) for r in rows]; ys = [float(r["mean"]) for r in rows]
assert xs == [100, 300, 600, 900, 1200, 1500], xs
n = len(xs); mx = sum(xs) / n; my = sum(ys) / n
sxx = sum((x - mx) ** 2 for x in xs); sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
slope = sxy / sxx; icpt = my - slope * mx
res = sum((y - (icpt + slope * x)) ** 2 for x, y in zip(xs, ys)); tot = sum((y - my) ** 2 for y in ys)
r2 = 1 - res / tot
# at least one fault per page; a sanitizer build's shadow memory adds about 1/8 more
assert 0.95 <= slope <= 1.3 and r2 > 0.999, (slope, r2)
print(f"page-faults = {icpt:.1f} + {slope:.4f} * N, R^2 = {r2:.6f}")
PY
ok "sweep -- pmc-workload pages {N}: page faults grow linearly (one per page)"
run_pmc sweep N=1000,2000 -r 1 --seed 5 -e page-faults --per N --json -- "$W" pages '{N}'
expect_rc 0 "--per N"
python3 - "$TMP/out" <<'PY' || fail "page faults per page"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["normalized"] == "per (N)", d["normalized"]
tot = {}
for p in d["points"]:
    pf = next(s for s in p["series"] if s["name"] == "page-faults")
    assert p["divisor"] == int(p["value"]), p["divisor"]
    tot[p["divisor"]] = pf["mean"] * p["divisor"]
# per page: the 1000 more pages cost about 1000 more faults (the start-up's own faults are the same at both points)
assert 0.95 < (tot[2000] - tot[1000]) / 1000 < 1.3, tot
PY
ok "--per N: values divided by N (each extra page touched costs one fault)"

# An environment variable (no {N} in the command): the table, the terminal plot within 80 columns.
run_pmc sweep PAGES=50,400 -r 1 --seed 1 -e page-faults -- sh -c "exec '$W' pages \$PAGES"
expect_rc 0 "sweep of an environment variable"
expect_out 'environment variable' "the table says how the value is passed"
python3 - "$TMP/out" <<'PY' || fail "the table and plot"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
rows = {l.split()[0]: l for l in lines if len(l.split()) > 2 and l.split()[0] in ("50", "400") and l.split()[1] == "1/1"}
pf = {k: float(v.split()[2]) for k, v in rows.items()}
assert pf["400"] - pf["50"] > 300, pf
plot = [l for l in lines if "\u25cf" in l]
assert len(plot) >= 1 and max(len(l) for l in lines[lines.index(plot[0]) - 3:]) <= 80, "plot wider than 80 columns"
PY
ok "PAGES=50,400 reaches the command's environment; the terminal plot fits 80 columns"

# Steps: the loop kernel's breakpoint count per iteration with a jump that --per does not remove.
# Words: kept in the order given, plotted as categories.
run_pmc sweep MODE=zeta,alpha,mid -r 1 --seed 3 -e task-clock --plot "$TMP/words.svg" --json -- sh -c 'test -n "$MODE"'
expect_rc 0 "a sweep over words"
python3 - "$TMP/out" "$TMP/words.svg" <<'PY' || fail "words"
import json, sys, xml.etree.ElementTree as ET
d = json.load(open(sys.argv[1]))
assert [p["value"] for p in d["points"]] == ["zeta", "alpha", "mid"] and all(p["x"] is None for p in d["points"])
assert d["largest_change"] is not None and d["how"] == "environment variable", d
ns = "{http://www.w3.org/2000/svg}"
xs = [c.get("data-x") for c in ET.parse(sys.argv[2]).getroot().iter(ns + "circle")]
assert xs == ["zeta", "alpha", "mid"], xs
PY
ok "a sweep over words keeps their order and plots them as categories"
run_pmc sweep X=a,b -r 1 -e task-clock --per X -- true
expect_rc 2 "--per needs numbers"
run_pmc sweep X=1,2 -r 1 -e task-clock --y nosuchname -- true
expect_rc 2 "--y names an unknown series"
expect_err 'none of the measured names' "--y lists what there is"
if [ -n "${inner:-}" ]; then
	# inner-loop executions per 'inner': 1 everywhere (--per inner), then the count per iteration jumps at 16 -> 64
	run_pmc sweep inner=4,8,12,16,64,68,72 -r 1 --seed 2 -k loop --iters 500 -e "mem:0x$inner:x" --json
	expect_rc 0 "step sweep"
	python3 - "$TMP/out" <<'PY' || fail "the step between 16 and 64"
import json, sys
d = json.load(open(sys.argv[1]))
steps = [(s["from_value"], s["to_value"]) for s in d["steps"]]
assert ("16", "64") in steps and len(steps) == 1, steps
PY
	ok "the one step (inner 16 -> 64) is found, the steady slope around it is not a step"
fi

# SIGINT: the measurement under way finishes its partial report, the sweep reports what it has, exit 130.
"$PMCTOOL" sweep T=2.37,3.41 -r 2 --seed 1 -e task-clock -- sleep '{T}' >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
sleep 0.7
kill -INT $pid
set +e; wait $pid; rc=$?; set -e
[ "$rc" -eq 130 ] || { cat "$TMP/int.out" "$TMP/int.err"; fail "interrupted sweep exited $rc, expected 130"; }
grep -q 'interrupted: partial' "$TMP/int.out" || { cat "$TMP/int.out"; fail "the interrupted sweep is not marked partial"; }
grep -qE '^ +(2.37|3.41) +0/1 .*\(interrupted\)' "$TMP/int.out" || { cat "$TMP/int.out"; fail "the interrupted point is not named"; }
pgrep -f "sleep (2.37|3.41)$" >/dev/null && fail "a measured command is still running"
ok "SIGINT: the sweep stops after the measurement under way, reports it as interrupted, exit 130, nothing left running"

# stat's options reach every measurement: --metric, --batch, --counters.
run_pmc sweep N=1,2 -r 1 --seed 1 -e page-faults,task-clock --metric 'pf2={page-faults}*2' --batch=rerun --counters 2 \
	--json -- true
expect_rc 0 "sweep with stat options"
python3 - "$TMP/out" <<'PY' || fail "stat options in the measurements"
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["points"]:
    s = {x["name"]: x for x in p["series"]}
    assert s["pf2"]["kind"] == "metric" and s["pf2"]["mean"] == 2 * s["page-faults"]["mean"], s["pf2"]
PY
ok "--metric, --batch and --counters reach each measurement of a sweep"
