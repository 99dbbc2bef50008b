#!/usr/bin/env bash
# sweep and stat --compare keep every stat option (issue 26 step 19): each measurement gets the stat options given
# (one stat parse of the command line, each measurement a copy of its request: cli/multi_measure.c), or the option is
# refused up front with exit 2 and named (its refused_by in stat's table). One check per family, each through what the measurement did: the events a report
# holds, how often the command ran, -v's perf_event_open traces, a kernel's declared counts.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}
HW="branches,branch-misses,cache-references,cache-misses"
# Without a PMU the injected one (tests/perf/fake_pmu.c) opens hardware events; the children inherit it. Plans and
# records only: its counts mean nothing.
FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
has_hw_pmu || export LD_PRELOAD="$FAKE" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"

has_series() { # has_series FILE POINT NAME: whether point POINT of a sweep report has a series NAME
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
sys.exit(sys.argv[3] not in [s["name"] for s in d["points"][int(sys.argv[2])]["series"]])' "$@"
}

# Events and sets: -e and -g reach every measurement (the set's events and metrics are in each point).
run_pmc sweep N=1,2 -r 1 --seed 1 -g branch -e page-faults --json -o "$TMP/set.json" -- true
expect_rc 0 "sweep -g branch -e page-faults"
for p in 0 1; do
	for name in branches branch-misses branch_miss_pct page-faults; do
		has_series "$TMP/set.json" $p "$name" || fail "point $p lacks $name (from -g branch / -e)"
	done
done
run_pmc stat --compare true -r 2 -g branch --json -o "$TMP/setc.json" -- true
expect_rc 0 "stat --compare -g branch"
python3 - "$TMP/setc.json" <<'PY' || fail "stat --compare -g branch"
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))["rows"]}
assert "branches" in rows and "branch_miss_pct" in rows and rows["branches"]["n_a"] == 2, sorted(rows)
PY
ok "events and sets: -e and -g reach every measurement of sweep and stat --compare"

# Metrics: --metric in stat --compare (sweep's is in test_sweep_cli).
run_pmc stat --compare true -r 2 -e page-faults --metric 'pf3={page-faults}*3' --json -o "$TMP/mc.json" -- true
expect_rc 0 "stat --compare --metric"
python3 - "$TMP/mc.json" <<'PY' || fail "stat --compare --metric"
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))["rows"]}
assert rows["pf3"]["a"] == 3 * rows["page-faults"]["a"] and rows["pf3"]["b"] == 3 * rows["page-faults"]["b"], rows["pf3"]
PY
ok "metrics: --metric reaches stat --compare's measurements"

# Batches: --counters 1 needs 4 batches, rerun by default (the command runs 4 times per measurement), once with
# --batch=multiplex; anchors are added unless --no-anchors; --batch=rotate needs -I, which sweep and compare refuse.
: >"$TMP/runs"
run_pmc sweep N=1 -r 1 --counters 1 -e "$HW" --json -o "$TMP/b1.json" -- sh -c "echo run >>'$TMP/runs'"
expect_rc 0 "sweep --counters 1"
[ "$(wc -l <"$TMP/runs")" -eq 4 ] || fail "--counters 1: the command ran $(wc -l <"$TMP/runs") times, expected 4"
has_series "$TMP/b1.json" 0 instructions || fail "the anchors are not in the measurement"
: >"$TMP/runs"
run_pmc sweep N=1 -r 1 --counters 1 --batch=multiplex --no-anchors -e "$HW" --json -o "$TMP/b2.json" -- \
	sh -c "echo run >>'$TMP/runs'"
expect_rc 0 "sweep --batch=multiplex --no-anchors"
[ "$(wc -l <"$TMP/runs")" -eq 1 ] || fail "--batch=multiplex: the command ran $(wc -l <"$TMP/runs") times, expected 1"
has_series "$TMP/b2.json" 0 instructions && fail "--no-anchors did not reach the measurement"
: >"$TMP/runs"
run_pmc stat --compare "sh -c 'echo run >>$TMP/runs'" -r 1 --counters 2 --batch=rerun --no-anchors -e "$HW" -o "$TMP/b3.txt" -- true
expect_rc 0 "stat --compare --counters 2 --batch=rerun"
[ "$(wc -l <"$TMP/runs")" -eq 2 ] || fail "stat --compare --counters 2: A ran $(wc -l <"$TMP/runs") times, expected 2"
for cmd in "sweep N=1" "stat --compare true"; do
	run_pmc $cmd --batch=rotate -e page-faults -- true
	expect_rc 2 "$cmd --batch=rotate"
	expect_err 'rotate.*-I' "$cmd --batch=rotate names what it needs"
done
ok "batches: --counters, --batch=rerun/multiplex and --no-anchors reach each measurement; rotate is refused (exit 2)"

# Repeat: sweep's -r is its rounds, stat --compare's the runs of each side; each measurement is one run.
run_pmc sweep N=1,2 -r 3 --seed 4 -e page-faults --json -o "$TMP/r.json" -- true
expect_rc 0 "sweep -r 3"
python3 - "$TMP/r.json" <<'PY' || fail "sweep -r 3"
import json, sys
for p in json.load(open(sys.argv[1]))["points"]:
    s = next(x for x in p["series"] if x["name"] == "page-faults")
    assert p["rounds_ok"] == 3 and len(s["runs"]) == 3, p
PY
ok "repeat: sweep -r N measures each value N times, one run each"

# -v: every measurement's perf_event_open traces (page-faults is software config 2) reach stderr; a failing
# measurement's reason is still its error, not a trace.
run_pmc sweep N=1,2 -r 2 --seed 1 -v -e page-faults --json -o "$TMP/v.json" -- true
expect_rc 0 "sweep -v"
n=$(grep -c '^perf_event_open(type=1 config=0x2 .*) = [0-9]' "$TMP/err" || true)
[ "$n" -eq 4 ] || { cat "$TMP/err"; fail "sweep -v: $n traces of page-faults, expected 4 (2 values x 2 rounds)"; }
run_pmc stat --compare true -r 3 --verbose -e page-faults -o "$TMP/v.txt" -- true
expect_rc 0 "stat --compare -v"
n=$(grep -c '^perf_event_open(type=1 config=0x2 ' "$TMP/err" || true)
[ "$n" -eq 6 ] || { cat "$TMP/err"; fail "stat --compare -v: $n traces, expected 6 (3 runs a side)"; }
run_pmc sweep N=1,2 -r 1 -v -e page-faults,nosuchevent -- true
expect_rc 2 "sweep -v with a bad event"
expect_err 'first measurement \(N=[12]\) failed: .*nosuchevent' "the reason names the event, not a trace"
ok "-v: the traces of every measurement of sweep and stat --compare are on stderr"

# Kernels: --param and --iters reach the kernel (its declared instructions: ITERS * (2 * inner + 3) + 5); --cpu,
# --warmup and --subtract-overhead are taken by each measurement (a bad value is the child's usage error).
run_pmc sweep iters=100,300 -r 1 -k loop --param inner=4 --cpu 0 --warmup 0.01 --subtract-overhead -e task-clock \
	--no-plot --json -o "$TMP/k.json"
expect_rc 0 "sweep -k loop with kernel options"
python3 - "$TMP/k.json" <<'PY' || fail "kernel options"
import json, sys
for p in json.load(open(sys.argv[1]))["points"]:
    n = int(p["value"])
    e = next(x for x in p["series"] if x["name"] == "EXPECTED_INSTRUCTIONS")
    assert round(e["mean"] * p["divisor"]) == n * (2 * 4 + 3) + 5, (n, e, p["divisor"])
PY
run_pmc sweep iters=100 -r 1 -k loop --cpu 99999 -e task-clock
expect_rc 2 "--cpu out of range"
expect_err -- '--cpu' "the bad --cpu is named"
ok "kernels: --param, --iters, --cpu, --warmup and --subtract-overhead reach each measurement"

# perf's run options: --pre runs before each run of every measurement, -n opens no counter, --all-user counts
# every event in user mode only (exclude_kernel=1 in each open).
: >"$TMP/pre"
run_pmc sweep N=1,2 -r 2 --seed 1 --pre "echo pre >>'$TMP/pre'" --post "echo post >>'$TMP/pre'" -e page-faults \
	-o "$TMP/pre.txt" -- true
expect_rc 0 "sweep --pre --post"
[ "$(grep -c pre "$TMP/pre")" -eq 4 ] && [ "$(grep -c post "$TMP/pre")" -eq 4 ] ||
	fail "--pre/--post ran $(grep -c pre "$TMP/pre")/$(grep -c post "$TMP/pre") times, expected 4 each (2 values x 2 rounds)"
run_pmc sweep N=1,2 -r 1 --seed 1 -n -v -o "$TMP/n.txt" -- true
expect_rc 0 "sweep -n"
grep -q '^perf_event_open(' "$TMP/err" && fail "sweep -n opened a counter"
run_pmc stat --compare true -r 2 --all-user -v -e page-faults -o "$TMP/u.txt" -- true
expect_rc 0 "stat --compare --all-user"
[ "$(grep -c '^perf_event_open(.* exclude_kernel=1 .*) = [0-9]' "$TMP/err")" -eq 4 ] ||
	{ cat "$TMP/err"; fail "stat --compare --all-user: not every open excluded the kernel"; }
ok "perf's run options: --pre, --post, -n and --all-user reach every measurement"

# Scopes and delay in sweep: -C and -a count on those CPUs while each point's command runs, -D starts counting later
# (the events open disabled, not enabled at exec), as in stat; each measurement's traces show it.
if "$PMCTOOL" stat -C 0 -e page-faults -o /dev/null -- true 2>/dev/null; then
	run_pmc sweep N=1,2 -r 1 --seed 1 -C 0 -v -e page-faults --json -o "$TMP/c0.json" -- true
	expect_rc 0 "sweep -C 0"
	n=$(grep -c '^perf_event_open(type=1 config=0x2 .*, pid=-1, cpu=0, .*) = [0-9]' "$TMP/err" || true)
	[ "$n" -eq 2 ] || { cat "$TMP/err"; fail "sweep -C 0: $n CPU-wide opens on CPU 0, expected 2 (one per value)"; }
	grep -q '^perf_event_open(.*, pid=[0-9]' "$TMP/err" && fail "sweep -C 0 also opened on the command"
	cpus=$(getconf _NPROCESSORS_ONLN)
	run_pmc sweep N=1,2 -r 1 --seed 1 -a -v -e page-faults --json -o "$TMP/a.json" -- true
	expect_rc 0 "sweep -a"
	n=$(grep -c '^perf_event_open(type=1 config=0x2 .*, pid=-1, cpu=[0-9]*, .*) = [0-9]' "$TMP/err" || true)
	[ "$n" -eq $((2 * cpus)) ] || fail "sweep -a: $n CPU-wide opens, expected $((2 * cpus)) (2 values x $cpus CPUs)"
	has_series "$TMP/a.json" 1 page-faults || fail "sweep -a: no page-faults"
	ok "scopes: sweep -C 0 and -a count on those CPUs in every measurement"
else
	echo "note: stat -C 0 is not permitted here (perf_event_paranoid, CAP_PERFMON): sweep -C/-a not tried"
fi
run_pmc sweep N=1,2 -r 1 --seed 1 -D 20 -v -e page-faults -o "$TMP/d.txt" -- sleep 0.05
expect_rc 0 "sweep -D 20"
[ "$(grep -c '^perf_event_open(type=1 config=0x2 .* enable_on_exec=0 .*) = [0-9]' "$TMP/err")" -eq 2 ] ||
	{ cat "$TMP/err"; fail "sweep -D 20: the events were not opened for a delayed start"; }
ok "delay: sweep -D reaches every measurement"

# What has no single total per event or no command per point (attaching, rows, intervals, a timeout, a control
# channel), --regions (sweep's report has no place for them), -x, --log-fd, --dry-run: refused by sweep before
# anything runs, exit 2; stat --compare refuses these and -a, -C, -D too (it measures the two commands it launches).
: >"$TMP/runs"
for opt in "-p 1" "-t 1" "-a -A" "-a --per-core" "-a --per-thread" "--per-thread" "-I 100" "--timeout 100" \
	"--control fd:0" "-a -G /" "--regions" "-x ," "-j" "-q" "--append" "--log-fd 2" "--dry-run"; do
	run_pmc sweep N=1 -r 1 $opt -e page-faults -- sh -c "echo run >>'$TMP/runs'"
	expect_rc 2 "sweep $opt"
	expect_err '^pmctool' "sweep $opt is refused with a message"
done
run_pmc sweep N=1 -r 1 -a -e page-faults
expect_rc 2 "sweep -a without a command"
expect_err '^pmctool sweep: no command to measure' "sweep -a without a command"
for opt in "-p 1" "-t 1" "-a" "-C 0" "-a -A" "--per-thread" "-I 100" "--timeout 100" "-D 10" "--control fd:0" \
	"-a -G /" "--regions" "-x ," "-j" "-q" "--append" "--log-fd 2" "--dry-run"; do
	run_pmc stat --compare "sh -c 'echo run >>$TMP/runs'" -r 1 $opt -e page-faults -- true
	expect_rc 2 "stat --compare $opt"
done
[ ! -s "$TMP/runs" ] || fail "a refused option still ran a measurement"
ok "attaching, cgroups, rows, intervals, --timeout, --control, --regions, -x, -j, -q, --append, --log-fd and --dry-run are refused (exit 2)"

# sweep's own options are a table (issue 26 step 18): --seed=N and --plot=FILE are taken as getopt takes them, and
# like stat's options they end at the command's first word (before, --y, --per, --plot, --seed and --no-plot were
# taken from anywhere before '--', the command's own arguments included).
run_pmc sweep X=1 -r 1 --seed=7 -e task-clock --json -o "$TMP/own.json" --plot="$TMP/own.svg" -- true
expect_rc 0 "--seed=7 --plot=FILE"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["seed"] == 7, d["seed"]' "$TMP/own.json" ||
	fail "--seed=7 did not set the seed"
[ -s "$TMP/own.svg" ] || fail "--plot=FILE wrote no SVG"
run_pmc sweep X=1 -r 1 -e task-clock --json -o "$TMP/own2.json" sh -c 'echo "[$1 $2]" >"$0"' "$TMP/args" --seed 5
expect_rc 0 "a command with an argument spelled like a sweep option"
[ "$(cat "$TMP/args")" = "[--seed 5]" ] || fail "the command got '$(cat "$TMP/args")', expected its own '--seed 5'"
run_pmc sweep X=1 --plot
expect_rc 2 "--plot without its value"
expect_err '^pmctool sweep: --plot needs a value$' "--plot without its value"
run_pmc sweep X=1 --seed x -- true
expect_rc 2 "--seed x"
expect_err '^pmctool sweep: --seed needs a decimal number$' "--seed x"
ok "sweep's options: --seed=N and --plot=FILE taken; they end at the command, whose arguments stay its own"
run_pmc sweep X=1 --dry-run -e page-faults
expect_rc 2 "--dry-run without a command"
expect_err '^pmctool sweep: --dry-run is a stat option that sweep does not take$' "--dry-run is named, not the command"
ok "sweep --dry-run without a command is refused as --dry-run"
