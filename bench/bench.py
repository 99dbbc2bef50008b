#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pmctool's own cost, side by side with perf, and against the targets of the bench README section.

Measures (a) the wall time and peak memory pmctool stat adds to `true` against perf stat on the same events,
(b) pmctool list against perf list, (c) one self-read of the counters (RDPMC group read, read() per counter) and an
empty measured region with 4 counters, with a check that the RDPMC region makes no system call and no allocation,
(d) planning 1000 events into batches, and with --scaling (e) how the cost grows with events, -r and threads.
Prints one summary table and writes every number as JSON.

Every comparison is interleaved (bench/interleave.py): the commands compared run in the same rounds, in alternating
order, and the result is the median and interquartile range of the per-round ratios, so a busy moment of a shared
machine weighs on both sides alike. The load average before and after is printed with the table.

Needs python3 (3.9+), perf (linux-perf), strace, /usr/bin/time (time); the C programs bench/read_cost,
bench/plan_bench and bench/spawn_threads come from the meson build.
Usage: bench/run.sh [--build DIR] [--json PATH] [--runs N] [--quick] [--scaling]
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from interleave import ratios, rounds, summary  # noqa: E402

TARGET_ADDED_RATIO = 0.25   # pmctool's added wall time below a quarter of perf stat's
TARGET_REGION_TSC = 200     # an empty measured region with 4 counters, RDPMC path
EVENTS = "task-clock,page-faults"

MET, NOT_MET, NOT_HERE, INFO = "met", "not met", "not measurable here", "info"


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def peak_rss_kib(argv, runs):
    """Median peak resident set (KiB) over runs, from /usr/bin/time -f %M: the maximum of the process and the
    children it waited for. (Python's own wait4 would not do: a child forked from Python starts with Python's
    high-water mark, and exec keeps it.) None when /usr/bin/time is missing."""
    if not os.access("/usr/bin/time", os.X_OK):
        return None
    vals = []
    with tempfile.NamedTemporaryFile(suffix=".rss", delete=False) as f:
        path = f.name
    try:
        for _ in range(runs):
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", path] + argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            with open(path) as f:
                vals.append(int(f.read().split()[-1]))
    finally:
        os.unlink(path)
    return statistics.median(vals)


def row(rows, what, value, target, status, note=""):
    rows.append({"what": what, "value": value, "target": target, "status": status, "note": note})


def fmt_ratio(r):
    if r["median"] is None:
        return "-"
    return f"{r['median']:.2f} [{r['p25']:.2f}, {r['p75']:.2f}]"


def bench_stat(tools, pmctool, runs, rows, out):
    """(a) What each tool adds to `true`: true, pmctool and perf run in the same round; the ratio of the two added
    times is taken per round."""
    if not tools["perf"]:
        row(rows, "stat: added wall time, pmctool/perf", "-", f"< {TARGET_ADDED_RATIO}", NOT_HERE,
            "perf is not installed (apt-get install linux-perf)")
        return
    sets = {"task-clock,page-faults": ["-e", EVENTS], "default set": []}
    cmds = {"true": (["true"], None)}
    for name, ev in sets.items():
        cmds["pmctool " + name] = ([pmctool, "stat"] + ev + ["--", "true"], None)
        cmds["perf " + name] = (["perf", "stat"] + ev + ["--", "true"], None)
    log(f"(a) {len(cmds)} commands, {runs} interleaved rounds")
    t = rounds(cmds, runs, warmup=5)
    base = t["true"]
    out["stat"] = {"true": summary(base), "sets": {}}
    for name in sets:
        pm, pf = t["pmctool " + name], t["perf " + name]
        r = ratios(pm, pf, base)
        added_pm = statistics.median([pm[i] - base[i] for i in range(runs)])
        added_pf = statistics.median([pf[i] - base[i] for i in range(runs)])
        rss_true = peak_rss_kib(["true"], 9)
        argv_pm, argv_pf = cmds["pmctool " + name][0], cmds["perf " + name][0]
        rss_pm, rss_pf = peak_rss_kib(argv_pm, 9), peak_rss_kib(argv_pf, 9)
        d = {"pmctool": summary(pm), "perf": summary(pf), "added_ms_pmctool": added_pm * 1e3,
             "added_ms_perf": added_pf * 1e3, "ratio_per_round": r,
             "peak_rss_kib": {"true": rss_true, "pmctool": rss_pm, "perf": rss_pf}}
        out["stat"]["sets"][name] = d
        row(rows, f"stat ({name}): added ms pmctool / perf", f"{added_pm * 1e3:.2f} / {added_pf * 1e3:.2f}",
            "", INFO, f"true alone {statistics.median(base) * 1e3:.2f} ms; medians of {runs} rounds")
        row(rows, f"stat ({name}): added time ratio per round, median [IQR]", fmt_ratio(r),
            f"< {TARGET_ADDED_RATIO}",
            MET if r["median"] is not None and r["median"] < TARGET_ADDED_RATIO else NOT_MET)
        if rss_true is None:
            row(rows, f"stat ({name}): added peak RSS", "-", "", NOT_HERE,
                "/usr/bin/time is missing (apt-get install time)")
            continue
        d["added_rss_kib"] = {"pmctool": rss_pm - rss_true, "perf": rss_pf - rss_true}
        pr = (rss_pm - rss_true) / (rss_pf - rss_true) if rss_pf > rss_true else None
        d["added_rss_ratio"] = pr
        row(rows, f"stat ({name}): added peak RSS KiB pmctool / perf",
            f"{rss_pm - rss_true:.0f} / {rss_pf - rss_true:.0f}", "", INFO,
            f"ratio {pr:.2f}; true alone {rss_true:.0f} KiB" if pr is not None else "")


def lines_of(argv, env=None):
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    return sum(1 for ln in p.stdout.splitlines() if ln.startswith("  "))


def bench_list(tools, pmctool, runs, rows, out):
    """(b) Listings, like with like: the same selection from both tools where both can make it (software, hardware,
    cache, tracepoints), and the default listings and the 'page*' pattern with what each prints (events listed), since
    those select different things: perf's default adds tracepoints, metrics and its JSON events; a pattern is a
    substring for perf, a glob over the whole name for pmctool."""
    if not tools["perf"]:
        row(rows, "list: pmctool/perf", "-", "< 1", NOT_HERE, "perf is not installed")
        return
    pairs = {"software": ([pmctool, "list", "--pmu", "software"], ["perf", "list", "sw"]),
             "hardware": ([pmctool, "list", "--pmu", "hardware"], ["perf", "list", "hw"]),
             "cache": ([pmctool, "list", "--pmu", "cache"], ["perf", "list", "cache"]),
             "tracepoints": ([pmctool, "list", "--pmu", "tracepoint"], ["perf", "list", "tracepoint"]),
             "default": ([pmctool, "list"], ["perf", "list"]),
             "pattern 'page*'": ([pmctool, "list", "page*"], ["perf", "list", "page*"])}
    cmds = {}
    for name, (a, b) in pairs.items():
        cmds["pmctool " + name] = (a, None)
        cmds["perf " + name] = (b, None)
    env = dict(os.environ, LIBPFM_FORCE_PMU="hsw")
    cmds["pmctool hsw"] = ([pmctool, "list"], env)
    cmds["pmctool hsw page*"] = ([pmctool, "list", "page*"], env)
    log(f"(b) {len(cmds)} commands, {runs} interleaved rounds")
    t = rounds(cmds, runs, warmup=3)
    out["list"] = {}
    for name, (a, b) in pairs.items():
        pm, pf = t["pmctool " + name], t["perf " + name]
        r = ratios(pm, pf)
        n_pm, n_pf = lines_of(a), lines_of(b)
        out["list"][name] = {"pmctool": summary(pm), "perf": summary(pf), "ratio_per_round": r,
                             "events_listed": {"pmctool": n_pm, "perf": n_pf}}
        row(rows, f"list ({name}): ms pmctool / perf, ratio per round",
            f"{statistics.median(pm) * 1e3:.2f} / {statistics.median(pf) * 1e3:.2f}, {fmt_ratio(r)}", "< 1",
            MET if r["median"] is not None and r["median"] < 1 else NOT_MET,
            f"lines listed {n_pm} / {n_pf}")
    h, hp = t["pmctool hsw"], t["pmctool hsw page*"]
    r = ratios(hp, h)
    out["list"]["hsw forced"] = {"all": summary(h), "page*": summary(hp), "pattern_over_all_per_round": r}
    row(rows, "list, LIBPFM_FORCE_PMU=hsw: 'page*' / whole listing, per round", fmt_ratio(r), "<= 1",
        MET if r["median"] is not None and r["median"] <= 1.05 else NOT_MET,
        f"whole {statistics.median(h) * 1e3:.2f} ms, {lines_of([pmctool, 'list'], env)} lines")


def ev_list(n):
    """n software events (repeats allowed: each is a counter of its own), the same list for both tools."""
    base = ["task-clock", "page-faults", "context-switches", "cpu-migrations", "minor-faults", "major-faults",
            "alignment-faults", "emulation-faults", "cpu-clock"]
    mods = ["", ":u", ":k"]
    evs = [b + m for m in mods for b in base]
    while len(evs) < n:
        evs = evs + evs
    return ",".join(evs[:n])


def bench_scaling(tools, pmctool, build, rows, out):
    """(e) How the cost grows: events 1/10/100/1000 (-r 10), -r 1/10/100/1000/8000 (100 events), threads
    1/100/10000 (task-clock,page-faults). pmctool and perf in the same rounds; the growth per step is the time ratio
    to the previous step over the size ratio (1.00: linear; above: super-linear)."""
    if not tools["perf"]:
        row(rows, "scaling", "-", "", NOT_HERE, "perf is not installed")
        return
    threads = os.path.join(build, "bench", "spawn_threads")
    steps = [("events", n, ["-r", "10", "-e", ev_list(n)], ["true"], 5 if n < 1000 else 2) for n in (1, 10, 100, 1000)]
    steps += [("runs", r, ["-r", str(r), "-e", ev_list(100)], ["true"], 5 if r < 1000 else 1)
              for r in (1, 10, 100, 1000, 8000)]
    steps += [("threads", n, ["-e", EVENTS], [threads, str(n)], 5) for n in (1, 100, 10000)]
    out["scaling"] = []
    prev = {}
    for axis, n, args, workload, nr in steps:
        cmds = {"pmctool": ([pmctool, "stat"] + args + ["--"] + workload, None),
                "perf": (["perf", "stat"] + args + ["--"] + workload, None)}
        log(f"(e) {axis} {n}: {nr} rounds")
        t = rounds(cmds, nr, warmup=0 if nr == 1 else 1)
        pm, pf = statistics.median(t["pmctool"]), statistics.median(t["perf"])
        r = ratios(t["pmctool"], t["perf"])
        d = {"axis": axis, "n": n, "pmctool_s": pm, "perf_s": pf, "ratio_per_round": r, "rounds": nr}
        if axis in prev:
            pn, ppm, ppf = prev[axis]
            d["growth_per_step"] = {"pmctool": (pm / ppm) / (n / pn), "perf": (pf / ppf) / (n / pn)}
        prev[axis] = (n, pm, pf)
        if axis == "runs":
            d["per_run_ms"] = {"pmctool": pm / n * 1e3, "perf": pf / n * 1e3}
        out["scaling"].append(d)
        g = d.get("growth_per_step")
        row(rows, f"scaling {axis}={n}: s pmctool / perf, ratio per round",
            f"{pm:.3f} / {pf:.3f}, {fmt_ratio(r)}", "", INFO,
            (f"growth/step {g['pmctool']:.2f} / {g['perf']:.2f}" if g else "first step") +
            (f"; per run {d['per_run_ms']['pmctool']:.2f} / {d['per_run_ms']['perf']:.2f} ms"
             if axis == "runs" else ""))
    runs = [d for d in out["scaling"] if d["axis"] == "runs"]
    r100 = next(d for d in runs if d["n"] == 100)["per_run_ms"]["pmctool"]
    r8000 = next(d for d in runs if d["n"] == 8000)
    flat = r8000["per_run_ms"]["pmctool"] / r100
    row(rows, "scaling: pmctool's cost per run, -r 8000 / -r 100 (100 events)", f"{flat:.2f}", "<= 1.10",
        MET if flat <= 1.10 else NOT_MET)
    row(rows, "scaling: -r 8000 x 100 events, pmctool / perf", f"{r8000['pmctool_s'] / r8000['perf_s']:.2f}", "<= 1",
        MET if r8000["pmctool_s"] <= r8000["perf_s"] else NOT_MET, "one round each")


def strace_region(tools, read_cost):
    """System calls between the two marker writes of read_cost --trace."""
    if not tools["strace"]:
        return None, "strace is not installed (apt-get install strace)"
    with tempfile.NamedTemporaryFile(suffix=".strace", delete=False) as f:
        path = f.name
    try:
        p = subprocess.run(["strace", "-f", "-e", "trace=all", "-o", path, read_cost, "--trace"],
                           capture_output=True, text=True)
        if p.returncode:
            return None, f"strace failed: {p.stderr.strip()[:200]}"
        with open(path) as f:
            lines = f.read().splitlines()
        info = json.loads(p.stdout)
    finally:
        os.unlink(path)
    inside, calls = False, []
    for ln in lines:
        if "PMC_REGION_BEGIN" in ln:
            inside = True
            continue
        if "PMC_REGION_END" in ln:
            break
        if inside:
            m = re.match(r"(?:\d+\s+)?(\w+)\(", ln)
            if m:
                calls.append(m.group(1))
    info["syscalls_in_region"] = len(calls)
    info["syscall_names"] = sorted(set(calls))
    return info, ""


def bench_read(tools, build, rows, out):
    rc_bin = os.path.join(build, "bench", "read_cost")
    log("(c) read_cost")
    p = subprocess.run([rc_bin], capture_output=True, text=True)
    if p.returncode:
        row(rows, "self-read cost", "-", "", NOT_HERE, p.stderr.strip()[:200])
        return
    r = json.loads(p.stdout)
    tr, why = strace_region(tools, rc_bin)
    r["trace"] = tr if tr else {"error": why}
    out["read"] = r
    evs = ", ".join(r["events"])
    kind = "hardware" if r["hardware_events"] else "software (hardware events could not be opened)"
    row(rows, "events read", evs, "", INFO, kind)
    if r["rdpmc_allowed"]:
        row(rows, "RDPMC group read, TSC cycles per counter", f"{r['rdpmc_group_read_tsc_per_counter']:.1f}", "",
            INFO, "Weaver: 144 per rdpmc read on Skylake")
        reg = r["empty_region_rdpmc_tsc"]
        row(rows, "empty region, 4 counters, RDPMC path (TSC cycles)", str(reg), f"< {TARGET_REGION_TSC}",
            MET if reg < TARGET_REGION_TSC else NOT_MET, "start + stop snapshots and the clock reads between")
    else:
        why = f"RDPMC not allowed here: {r['rdpmc_why']}"
        row(rows, "RDPMC group read, TSC cycles per counter", "-", "", NOT_HERE, why)
        row(rows, "empty region, 4 counters, RDPMC path (TSC cycles)", "-", f"< {TARGET_REGION_TSC}", NOT_HERE, why)
        if "page_read_without_rdpmc_tsc_per_counter" in r:
            row(rows, "mmap page read without RDPMC, TSC cycles per counter",
                f"{r['page_read_without_rdpmc_tsc_per_counter']:.1f}", "", INFO, "the RDPMC path less the instruction")
    row(rows, "read() per counter, TSC cycles", str(r["read_syscall_tsc_per_counter"]), "", INFO,
        "Weaver: 942 per read() on Skylake")
    row(rows, "empty region, 4 counters, read() path (TSC cycles)", str(r["empty_region_read_tsc"]), "", INFO)
    run = r.get("runner", {})
    if "overhead_counts" in run:
        oc = ", ".join(f"{k}={v}" for k, v in run["overhead_counts"].items())
        row(rows, "runner's own empty region (pmc_kernel_measure, kernel 'empty')",
            str(run["overhead_tsc_between_fences"]), "", INFO,
            f"TSC between its fences; {run['read_method'].split(':')[0]}; median counts over the region: {oc}")
    if not tr:
        row(rows, "RDPMC region: no syscall, no allocation", "-", "0 / 0", NOT_HERE, why)
    elif tr["path"] == "rdpmc":
        allocs = tr["allocations_in_region"]
        ok = tr["syscalls_in_region"] == 0 and allocs == 0
        note = " ".join(tr["syscall_names"])
        if allocs is None:
            note += " allocations not counted: sanitizer build (its malloc cannot be wrapped)"
        row(rows, "RDPMC region: syscalls / allocations", f"{tr['syscalls_in_region']} / {allocs}", "0 / 0",
            MET if ok else NOT_MET, note)
    else:
        row(rows, "RDPMC region: no syscall, no allocation", "-", "0 / 0", NOT_HERE,
            "the check runs only where RDPMC is allowed (see above)")
        row(rows, "read() region (the check's control): syscalls / allocations",
            f"{tr['syscalls_in_region']} / {tr['allocations_in_region']}", "", INFO,
            ", ".join(tr["syscall_names"]) + " (the strace check sees them)")


TARGET_PAIR_INSTRUCTIONS = 100
TARGET_PAIR_CYCLES = 200


def callgrind_path(exe):
    """Instructions per pair of the in-process path (bench/region_path.c) by callgrind: two trip counts."""
    if not shutil.which("valgrind") or not os.access(exe, os.X_OK):
        return None
    ir = []
    for n in (1000, 2000):
        with tempfile.NamedTemporaryFile(suffix=".cg", delete=False) as f:
            out = f.name
        try:
            p = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=path_pairs",
                                f"--callgrind-out-file={out}", exe, str(n)], capture_output=True, text=True)
            if p.returncode or "in process" not in p.stdout:
                return None
            with open(out) as f:
                ir += [int(ln.split()[1]) for ln in f if ln.startswith("summary:")]
        finally:
            os.unlink(out)
    return (ir[1] - ir[0]) // 1000 if len(ir) == 2 else None


def bench_regions(tools, build, rows, out):
    """libpmctool: the empty enter/leave pair with 4 counters, a thread's first use, the start-up, the hot path."""
    rc_bin = os.path.join(build, "tests", "regions", "prog", "region_cost")
    log("(e) region_cost")
    p = subprocess.run([rc_bin], capture_output=True, text=True)
    if p.returncode:
        row(rows, "regions: empty pair", "-", "", NOT_HERE, p.stderr.strip()[:200])
        return
    r = json.loads(p.stdout)
    tr, why = strace_region(tools, rc_bin)
    r["trace"] = tr if tr else {"error": why}
    out["regions"] = r
    evs = r["events"].split(",")
    hw = evs[0].startswith("instructions")
    note = f"4 counters ({r['events']}), read {r['read']}"
    for target, name, i in ((TARGET_PAIR_INSTRUCTIONS, "instructions", 0), (TARGET_PAIR_CYCLES, "cycles", 1)):
        what = f"regions: empty enter/leave pair, {name} (own counts, 2 trip counts)"
        if hw:
            v = r["pair_counts"][i]
            row(rows, what, f"{v:.1f}", f"< {target}", MET if v < target else NOT_MET, note)
        else:
            row(rows, what, "-", f"< {target}", NOT_HERE, "no hardware PMU: " + note)
    row(rows, "regions: empty pair, timer ticks", f"{r['pair_timer_ticks']:.1f}", "", INFO, note)
    path = callgrind_path(os.path.join(build, "tests", "regions", "prog", "region_path"))
    if path is not None:
        r["path_instructions_callgrind"] = path
        row(rows, "regions: in-process pair, 4 counters, instructions (callgrind, injected read)", str(path),
            f"< {TARGET_PAIR_INSTRUCTIONS}", MET if path < TARGET_PAIR_INSTRUCTIONS else NOT_MET,
            "RDTSC in place of RDPMC on fake pages: the path's own instructions, any machine "
            "(RDPMC's counter-number loads add 8)")
    row(rows, "regions: a thread's first use (open, map, calibrate), us", f"{r['thread_first_use_ns'] / 1e3:.1f}", "",
        INFO, "once per thread, at its first enter or pmctool_thread_init()")
    row(rows, "regions: start to exit, counting / off (ms, median)",
        f"{r['start_ns_counting'] / 1e6:.2f} / {r['start_ns_off'] / 1e6:.2f}", "", INFO, "fork, exec, exit")
    if tr:
        row(rows, f"regions: syscalls / allocations in 1000 pairs ({tr['path']})",
            f"{tr['syscalls_in_region']} / {tr['allocations_in_region']}",
            "0 / 0" if tr["path"] == "in process" else "",
            (MET if tr["syscalls_in_region"] == 0 and tr["allocations_in_region"] == 0 else NOT_MET)
            if tr["path"] == "in process" else INFO, ", ".join(tr["syscall_names"]))


def bench_plan(build, rows, out):
    log("(d) plan_bench")
    p = subprocess.run([os.path.join(build, "bench", "plan_bench")], capture_output=True, text=True)
    if p.returncode:
        row(rows, "plan 1000 events", "-", "", NOT_HERE, p.stderr.strip()[:200])
        return
    r = json.loads(p.stdout)
    out["plan"] = r
    row(rows, "plan 1000 events into batches (us, median)", f"{r['median_us']:.1f}", "", INFO,
        f"{r['pmu']}: {r['batches']} batches of {r['gp_budget']} GP + {r['fixed_slots']} fixed, {r['runs']} runs")


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for ln in f:
                if ln.startswith("model name"):
                    cpu = ln.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    pmu = os.path.exists("/sys/bus/event_source/devices/cpu") or os.path.exists("/sys/devices/cpu")
    versions = {}
    for tool, argv in (("perf", ["perf", "--version"]),):
        if shutil.which(tool):
            versions[tool] = subprocess.run(argv, capture_output=True, text=True).stdout.strip()
    return {"cpu": cpu, "cpus": os.cpu_count(), "kernel": platform.release(), "hardware_pmu": pmu,
            "date": time.strftime("%Y-%m-%d"), "tools": versions}


def print_table(rows, m):
    print(f"\npmctool overhead, {m['date']}, {m['cpu']} x{m['cpus']}, Linux {m['kernel']}, "
          f"hardware PMU: {'yes' if m['hardware_pmu'] else 'no'}, load average "
          f"{m['load_before'][0]:.2f} before, {m['load_after'][0]:.2f} after\n")
    w1 = max(len(r["what"]) for r in rows)
    w2 = max(len(str(r["value"])) for r in rows)
    w3 = max(len(r["target"]) for r in rows)
    for r in rows:
        note = f"  ({r['note']})" if r["note"] else ""
        print(f"  {r['what']:<{w1}}  {r['value']:>{w2}}  {r['target']:<{w3}}  {r['status']}{note}")


def main():
    ap = argparse.ArgumentParser(description="pmctool's own cost against perf and the physical limits")
    ap.add_argument("--build", default="build", help="meson build directory (default: build)")
    ap.add_argument("--json", default="bench/results.json", help="where to write every number")
    ap.add_argument("--runs", type=int, default=100, help="interleaved rounds per comparison (default 100)")
    ap.add_argument("--quick", action="store_true", help="20 rounds per comparison")
    ap.add_argument("--scaling", action="store_true",
                    help="also the scaling table (events, -r, threads; several minutes: -r 8000 x 100 events)")
    a = ap.parse_args()
    runs = 20 if a.quick else a.runs
    pmctool = os.path.abspath(os.path.join(a.build, "pmctool"))
    for b in (pmctool, os.path.join(a.build, "bench", "read_cost"), os.path.join(a.build, "bench", "plan_bench")):
        if not os.access(b, os.X_OK):
            print(f"bench: {b} is missing: build first (meson setup {a.build} && ninja -C {a.build})",
                  file=sys.stderr)
            return 2
    tools = {t: shutil.which(t) is not None for t in ("perf", "strace")}
    for t, ok in tools.items():
        if not ok:
            log(f"{t} is not installed: the parts that need it are reported as not measurable")
    rows, out = [], {"machine": machine(), "targets": {"added_wall_ratio": TARGET_ADDED_RATIO,
                                                       "empty_region_rdpmc_tsc": TARGET_REGION_TSC}}
    out["machine"]["load_before"] = os.getloadavg()
    bench_stat(tools, pmctool, runs, rows, out)
    bench_list(tools, pmctool, runs, rows, out)
    bench_read(tools, os.path.abspath(a.build), rows, out)
    bench_plan(os.path.abspath(a.build), rows, out)
    bench_regions(tools, os.path.abspath(a.build), rows, out)
    if a.scaling:
        bench_scaling(tools, pmctool, os.path.abspath(a.build), rows, out)
    out["machine"]["load_after"] = os.getloadavg()
    out["summary"] = rows
    print_table(rows, out["machine"])
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)
    print(f"\nevery number: {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
