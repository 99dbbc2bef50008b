#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pmctool's own cost, side by side with perf, and against the targets of the bench README section.

Measures (a) the wall time and peak memory pmctool stat adds to `true` against perf stat on the same events,
(b) pmctool list against perf list, (c) one self-read of the counters (RDPMC group read, read() per counter) and an
empty measured region with 4 counters, with a check that the RDPMC region makes no system call and no allocation,
(d) planning 1000 events into batches. Prints one summary table and writes every number as JSON.

Public tools only: hyperfine, perf, strace; the C programs bench/read_cost and bench/plan_bench come from the meson
build. Usage: bench/run.sh [--build DIR] [--json PATH] [--runs N] [--quick]
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

TARGET_ADDED_RATIO = 0.25   # pmctool's added wall time below a quarter of perf stat's
TARGET_REGION_TSC = 200     # an empty measured region with 4 counters, RDPMC path
EVENTS = "task-clock,page-faults"

MET, NOT_MET, NOT_HERE, INFO = "met", "not met", "not measurable here", "info"


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def hyperfine(cmds, runs, warmup, env=None):
    """Median and mean seconds of each command (hyperfine -N: no shell in between), keyed by command."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        argv = ["hyperfine", "-N", "--style", "none", "--warmup", str(warmup), "--runs", str(runs),
                "--export-json", path] + cmds
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
        with open(path) as f:
            res = json.load(f)["results"]
    finally:
        os.unlink(path)
    return {r["command"]: {"median_s": r["median"], "mean_s": r["mean"], "stddev_s": r["stddev"],
                           "min_s": r["min"], "runs": len(r["times"])} for r in res}


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


def bench_stat(tools, pmctool, runs, rows, out):
    if not tools["hyperfine"]:
        row(rows, "stat: added wall time, pmctool/perf", "-", f"< {TARGET_ADDED_RATIO}", NOT_HERE,
            "hyperfine is not installed (apt-get install hyperfine)")
        return
    if not tools["perf"]:
        row(rows, "stat: added wall time, pmctool/perf", "-", f"< {TARGET_ADDED_RATIO}", NOT_HERE,
            "perf is not installed (apt-get install linux-perf)")
        return
    sets = {"task-clock,page-faults": (["-e", EVENTS], ["-e", EVENTS]), "default set": ([], [])}
    cmds = ["true"]
    for pm_args, perf_args in sets.values():
        cmds.append(" ".join([pmctool, "stat"] + pm_args + ["--", "true"]))
        cmds.append(" ".join(["perf", "stat"] + perf_args + ["--", "true"]))
    log(f"(a) hyperfine: {len(cmds)} commands x {runs} runs")
    t = hyperfine(cmds, runs, warmup=10)
    base = t["true"]["median_s"]
    out["stat"] = {"true": t["true"], "sets": {}}
    i = 1
    for name in sets:
        pm, pf = t[cmds[i]], t[cmds[i + 1]]
        i += 2
        added_pm, added_pf = pm["median_s"] - base, pf["median_s"] - base
        ratio = added_pm / added_pf if added_pf > 0 else None
        argv_pm, argv_pf = cmds[i - 2].split(), cmds[i - 1].split()
        rss_true = peak_rss_kib(["true"], 9)
        rss_pm, rss_pf = peak_rss_kib(argv_pm, 9), peak_rss_kib(argv_pf, 9)
        d = {"pmctool": pm, "perf": pf, "added_ms_pmctool": added_pm * 1e3, "added_ms_perf": added_pf * 1e3,
             "ratio": ratio, "peak_rss_kib": {"true": rss_true, "pmctool": rss_pm, "perf": rss_pf}}
        out["stat"]["sets"][name] = d
        row(rows, f"stat ({name}): added ms pmctool / perf", f"{added_pm * 1e3:.2f} / {added_pf * 1e3:.2f}",
            "", INFO, f"true alone {base * 1e3:.2f} ms (medians of {runs})")
        row(rows, f"stat ({name}): added wall time ratio", f"{ratio:.2f}" if ratio is not None else "-",
            f"< {TARGET_ADDED_RATIO}", MET if ratio is not None and ratio < TARGET_ADDED_RATIO else NOT_MET)
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


def bench_list(tools, pmctool, runs, rows, out):
    if not (tools["hyperfine"] and tools["perf"]):
        row(rows, "list: pmctool/perf", "-", "< 1", NOT_HERE,
            "needs hyperfine and perf" + ("" if tools["hyperfine"] else " (hyperfine is not installed)"))
        return
    pairs = {"default": ([pmctool, "list"], ["perf", "list"]),
             "pattern 'page*'": ([pmctool, "list", "page*"], ["perf", "list", "page*"])}
    cmds = []
    for a, b in pairs.values():
        cmds += [" ".join(a), " ".join(b)]
    log(f"(b) hyperfine: {len(cmds)} commands x {runs} runs")
    t = hyperfine(cmds, runs, warmup=5)
    env = dict(os.environ, LIBPFM_FORCE_PMU="hsw")
    forced = hyperfine([f"{pmctool} list"], runs, warmup=5, env=env)[f"{pmctool} list"]
    out["list"] = {}
    for i, name in enumerate(pairs):
        pm, pf = t[cmds[2 * i]], t[cmds[2 * i + 1]]
        ratio = pm["median_s"] / pf["median_s"]
        out["list"][name] = {"pmctool": pm, "perf": pf, "ratio": ratio}
        row(rows, f"list ({name}): ms pmctool / perf", f"{pm['median_s'] * 1e3:.2f} / {pf['median_s'] * 1e3:.2f}",
            "< 1", MET if ratio < 1 else NOT_MET, f"ratio {ratio:.2f}")
    ratio = forced["median_s"] / t[cmds[1]]["median_s"]
    out["list"]["hsw forced"] = {"pmctool": forced, "ratio_to_perf_default": ratio}
    row(rows, "list (LIBPFM_FORCE_PMU=hsw, every Haswell event): ms", f"{forced['median_s'] * 1e3:.2f}", "< 1",
        MET if ratio < 1 else NOT_MET, f"ratio to perf list {ratio:.2f}")


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
            "RDTSC in place of RDPMC on fake pages: the path's own instructions, any machine")
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
    for tool, argv in (("perf", ["perf", "--version"]), ("hyperfine", ["hyperfine", "--version"])):
        if shutil.which(tool):
            versions[tool] = subprocess.run(argv, capture_output=True, text=True).stdout.strip()
    return {"cpu": cpu, "cpus": os.cpu_count(), "kernel": platform.release(), "hardware_pmu": pmu,
            "date": time.strftime("%Y-%m-%d"), "tools": versions}


def print_table(rows, m):
    print(f"\npmctool overhead, {m['date']}, {m['cpu']} x{m['cpus']}, Linux {m['kernel']}, "
          f"hardware PMU: {'yes' if m['hardware_pmu'] else 'no'}\n")
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
    ap.add_argument("--runs", type=int, default=200, help="hyperfine runs per command (default 200)")
    ap.add_argument("--quick", action="store_true", help="20 runs per command")
    a = ap.parse_args()
    runs = 20 if a.quick else a.runs
    pmctool = os.path.abspath(os.path.join(a.build, "pmctool"))
    for b in (pmctool, os.path.join(a.build, "bench", "read_cost"), os.path.join(a.build, "bench", "plan_bench")):
        if not os.access(b, os.X_OK):
            print(f"bench: {b} is missing: build first (meson setup {a.build} && ninja -C {a.build})",
                  file=sys.stderr)
            return 2
    tools = {t: shutil.which(t) is not None for t in ("hyperfine", "perf", "strace")}
    for t, ok in tools.items():
        if not ok:
            log(f"{t} is not installed: the parts that need it are reported as not measurable")
    rows, out = [], {"machine": machine(), "targets": {"added_wall_ratio": TARGET_ADDED_RATIO,
                                                       "empty_region_rdpmc_tsc": TARGET_REGION_TSC}}
    bench_stat(tools, pmctool, runs, rows, out)
    bench_list(tools, pmctool, runs, rows, out)
    bench_read(tools, os.path.abspath(a.build), rows, out)
    bench_plan(os.path.abspath(a.build), rows, out)
    bench_regions(tools, os.path.abspath(a.build), rows, out)
    out["summary"] = rows
    print_table(rows, out["machine"])
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)
    print(f"\nevery number: {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
