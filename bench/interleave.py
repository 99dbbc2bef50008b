# SPDX-License-Identifier: MIT
"""Interleaved timing for bench.py: commands run in rounds (A B C, then C B A, ...), so that a slow minute of a shared
machine lands on every command alike; comparisons are made per round (the ratio of two commands in the same round)
and summarized by the median and spread of those ratios, never by medians taken at different times."""
import os
import statistics
import time


def run_once(argv, env=None):
    """Wall seconds of one run of argv (posix_spawn, no shell, stdout and stderr to /dev/null), and its exit status."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        t0 = time.perf_counter_ns()
        pid = os.posix_spawnp(argv[0], argv, env if env is not None else os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, st = os.waitpid(pid, 0)
        t1 = time.perf_counter_ns()
    finally:
        os.close(devnull)
    return (t1 - t0) / 1e9, os.waitstatus_to_exitcode(st)


def rounds(cmds, n, warmup=2):
    """cmds: {name: (argv, env or None)}. Runs every command once per round, in alternating order, n rounds after
    warmup rounds. Returns {name: [seconds per round]}. A command must exit with the same status every time (a
    documented non-zero one is fine: `pmctool info` says 11 where hardware counting is not available)."""
    names = list(cmds)
    times = {k: [] for k in names}
    status = {}
    for r in range(warmup + n):
        order = names if r % 2 == 0 else names[::-1]
        for k in order:
            t, rc = run_once(*cmds[k])
            if status.setdefault(k, rc) != rc or rc < 0:
                raise RuntimeError(f"{' '.join(cmds[k][0])}: exit status {rc}, was {status[k]}")
            if r >= warmup:
                times[k].append(t)
    return times


def spread(vals):
    """Median and the interquartile range (25th, 75th percentile) of vals."""
    v = sorted(vals)
    if len(v) < 4:
        return statistics.median(v), v[0], v[-1]
    q = statistics.quantiles(v, n=4)
    return statistics.median(v), q[0], q[2]


def summary(vals):
    med, lo, hi = spread(vals)
    return {"median_s": med, "p25_s": lo, "p75_s": hi, "min_s": min(vals), "runs": len(vals)}


def ratios(num, den, base=None):
    """Per-round ratios num[i]/den[i], or of what each adds to base[i] (num-base)/(den-base), with median and IQR.
    Rounds where the denominator is not positive are dropped (and counted)."""
    rs, dropped = [], 0
    for i in range(len(num)):
        a, b = (num[i] - base[i], den[i] - base[i]) if base is not None else (num[i], den[i])
        if b <= 0:
            dropped += 1
            continue
        rs.append(a / b)
    if not rs:
        return {"median": None, "p25": None, "p75": None, "rounds": 0, "dropped": dropped}
    med, lo, hi = spread(rs)
    return {"median": med, "p25": lo, "p75": hi, "rounds": len(rs), "dropped": dropped}
