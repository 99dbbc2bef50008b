#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a scrape of `pmctool serve` costs, for about 10 and 100 counter series (issue 38).

For each size, serve counts on every CPU with -A (a series per CPU) and as many events as the size needs (software
events with :u/:k, then tracepoints). Then, interleaved in rounds (A B, then B A, ...):
  A  GET /metrics: the scrape (its counters read at the scrape, the report made and formatted);
  B  GET /idle: the idle baseline, the same HTTP round trip answered 404 by the same loop, with no counter read.
Each round is BLOCK requests of one kind over a raw socket (connect, send, read to the close). Per request: wall
time on the client, and serve's own CPU time (utime + stime from /proc/PID/stat over the block). The scrape's cost is
A - B per round (median and interquartile range). Then strace -c -f -p over COUNT scrapes gives the system calls per
scrape (read() on the counters and the others), and serve's CPU time over IDLE_S seconds without requests shows it
costs nothing between scrapes. Usage: python3 bench/serve_cost.py [--build DIR] [--rounds N] [--json PATH]
"""
import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time

SOFTWARE = ["task-clock", "cpu-clock", "context-switches", "cpu-migrations", "page-faults", "minor-faults",
            "major-faults", "alignment-faults", "emulation-faults"]


def online_cpus():
    cpus = 0
    for part in open("/sys/devices/system/cpu/online").read().strip().split(","):
        a, _, b = part.partition("-")
        cpus += int(b or a) - int(a) + 1
    return cpus


def event_pool(pmctool):
    pool = SOFTWARE + [e + ":u" for e in SOFTWARE] + [e + ":k" for e in SOFTWARE]
    out = subprocess.run([pmctool, "list"], capture_output=True, text=True).stdout
    pool += re.findall(r"^\s+(\w+:\w+)\s+kernel tracepoint", out, re.M)
    return pool


def start_serve(pmctool, events):
    p = subprocess.Popen([pmctool, "serve", "--listen", "127.0.0.1:0", "-A", "-e", ",".join(events)],
                         stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    m = re.search(r"\((\d+) counters, .*127\.0\.0\.1:(\d+)/metrics", line)
    if not m:
        p.kill()
        sys.exit("bench: serve did not start: " + line + p.stderr.read())
    return p, int(m.group(1)), int(m.group(2))


def request(port, path):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: bench\r\n\r\n")
    got = []
    while True:
        b = s.recv(65536)
        if not b:
            break
        got.append(b)
    s.close()
    return b"".join(got)


def cpu_s(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def block(pid, port, path, n):
    c0, t0 = cpu_s(pid), time.perf_counter()
    for _ in range(n):
        request(port, path)
    return (time.perf_counter() - t0) / n, (cpu_s(pid) - c0) / n


def strace_count(pid, port, path, n):
    out = "/tmp/pmctool-bench-strace.%d" % os.getpid()
    st = subprocess.Popen(["strace", "-f", "-c", "-o", out, "-p", str(pid)], stderr=subprocess.PIPE, text=True)
    st.stderr.readline()  # "Process N attached"
    time.sleep(0.2)
    for _ in range(n):
        request(port, path)
    st.send_signal(2)
    st.wait()
    calls = {}
    for line in open(out):
        f = line.split()
        if len(f) >= 5 and f[-1] not in ("total", "syscall") and f[3].isdigit():
            calls[f[-1]] = int(f[3])
    os.unlink(out)
    return {k: v / n for k, v in calls.items()}


def spread(v):
    q = statistics.quantiles(v, n=4) if len(v) >= 4 else [min(v), 0, max(v)]
    return {"median": statistics.median(v), "p25": q[0], "p75": q[2]}


def measure(pmctool, pool, target, rounds, blk):
    ncpu = online_cpus()
    nev = max(1, -(-target // ncpu))
    p, counters, port = start_serve(pmctool, pool[:nev])
    try:
        body = request(port, "/metrics").decode(errors="replace")
        series = len(re.findall(r"^pmctool_\w+_total\{", body, re.M))
        lines = len([l for l in body.splitlines() if l and not l.startswith("#")])
        a_wall, b_wall, d_wall, a_cpu, b_cpu, d_cpu = [], [], [], [], [], []
        for r in range(rounds + 1):
            order = [("/metrics", True), ("/idle", False)]
            res = {}
            for path, is_a in (order if r % 2 == 0 else order[::-1]):
                res[is_a] = block(p.pid, port, path, blk)
            if r == 0:
                continue  # warm-up round
            a_wall.append(res[True][0]); b_wall.append(res[False][0]); d_wall.append(res[True][0] - res[False][0])
            a_cpu.append(res[True][1]); b_cpu.append(res[False][1]); d_cpu.append(res[True][1] - res[False][1])
        sc = strace_count(p.pid, port, "/metrics", 200)
        sb = strace_count(p.pid, port, "/idle", 200)
        c0 = cpu_s(p.pid)
        time.sleep(5)
        idle_cpu = cpu_s(p.pid) - c0
    finally:
        p.terminate()
        p.wait(10)
    us = lambda d: {k: v * 1e6 for k, v in d.items()}
    return {
        "target_series": target, "events": nev, "cpus": ncpu, "counters": counters, "series": series,
        "samples": lines, "bytes": len(body), "rounds": rounds, "block": blk,
        "scrape_wall_us": us(spread(a_wall)), "idle_wall_us": us(spread(b_wall)), "scrape_minus_idle_wall_us": us(spread(d_wall)),
        "scrape_cpu_us": us(spread(a_cpu)), "idle_cpu_us": us(spread(b_cpu)), "scrape_minus_idle_cpu_us": us(spread(d_cpu)),
        "syscalls_per_scrape": sc, "syscalls_per_idle_request": sb,
        "reads_per_scrape": sc.get("read", 0), "syscalls_total_per_scrape": sum(sc.values()),
        "syscalls_total_per_idle_request": sum(sb.values()), "cpu_s_over_5s_without_requests": idle_cpu,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--block", type=int, default=200)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    pmctool = os.path.join(a.build, "pmctool")
    pool = event_pool(pmctool)
    res = {"load_avg_before": os.getloadavg(), "sizes": []}
    for target in (10, 100):
        r = measure(pmctool, pool, target, a.rounds, a.block)
        res["sizes"].append(r)
        print("%3d series (%d events x %d CPUs, %d counters, %d samples, %d bytes): scrape %.0f us wall (IQR %.0f-%.0f), "
              "idle %.0f us; scrape - idle: %.0f us wall, %.0f us of serve's CPU; %.1f read() + %.1f other syscalls "
              "a scrape (idle request: %.1f); serve's CPU over 5 s without requests: %.3f s"
              % (r["series"], r["events"], r["cpus"], r["counters"], r["samples"], r["bytes"],
                 r["scrape_wall_us"]["median"], r["scrape_wall_us"]["p25"], r["scrape_wall_us"]["p75"],
                 r["idle_wall_us"]["median"], r["scrape_minus_idle_wall_us"]["median"],
                 r["scrape_minus_idle_cpu_us"]["median"], r["reads_per_scrape"],
                 r["syscalls_total_per_scrape"] - r["reads_per_scrape"], r["syscalls_total_per_idle_request"],
                 r["cpu_s_over_5s_without_requests"]))
    res["load_avg_after"] = os.getloadavg()
    print("load average before %.2f, after %.2f" % (res["load_avg_before"][0], res["load_avg_after"][0]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
