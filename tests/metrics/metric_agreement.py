#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Metric agreement with Linux perf on injected counts (REFERENCE.md section 12), used by
test_metric_agreement_injected.sh.

  tables PERF_LIST_TXT PERF_METRICS_TXT CPUID OUTDIR
      Writes a pmu-events tree (OUTDIR/arch/x86/mapfile.csv and one model folder) from what perf 6.1 itself prints
      for that CPUID (`perf list --details`: each core event's cpu/...../ encoding; `perf list --details metrics`:
      each metric's formula), so pmctool reads the same tables perf has built in, at run time, from the installed
      perf. Nothing of perf's is kept: the tree lives in the test's temporary folder.
  names OUTDIR
      The metrics to compare, one per line: those whose events are all core events (no duration_time, uncore,
      cstate, msr or tool events, whose counts are not injected or differ between two runs).
  perfcsv FILE...    (prints 'name value unit' of perf stat -x, metric lines)
  compare [--tables OUTDIR] NAMES PERF_VALUES PMCTOOL_JSON... : prints the agreement and the disagreements; exit 1 on any disagreement.
"""
import json
import math
import os
import re
import sys

TERMS = {"event", "umask", "cmask", "inv", "edge", "any", "offcore_rsp", "ldlat", "frontend", "period"}


def parse_events(text):
    """(name, {term: value}) of every core event perf lists with a cpu/.../ encoding."""
    out, name = [], None
    for line in text.splitlines():
        if line.startswith("Metric Groups:"):
            break
        m = re.match(r"^  (\S+)\s*$", line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"^\s+cpu/([^/]*)/\s*$", line)
        if m and name:
            terms = {}
            for t in m.group(1).split(","):
                k, _, v = t.partition("=")
                terms[k] = int(v, 0) if v else 1
            out.append((name, terms))
            name = None
    return out


def parse_metrics(text):
    """(name, expr) of every metric of `perf list --details metrics`."""
    out, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^  (\S+)\s*$", lines[i])
        if m:
            name, brackets, j = m.group(1), [], i + 1
            cur = None
            while j < len(lines) and lines[j].startswith("       "):
                s = lines[j].strip()
                if cur is None and s.startswith("["):
                    cur = s[1:]
                elif cur is not None:
                    cur += " " + s
                if cur is not None and cur.endswith("]"):
                    brackets.append(cur[:-1])
                    cur = None
                j += 1
            if brackets:
                out.append((name, brackets[-1].strip()))
            i = j
            continue
        i += 1
    return out


def event_json(name, t):
    if set(t) - TERMS:
        return None
    e = {"EventName": name, "EventCode": hex(t.get("event", 0)), "UMask": hex(t.get("umask", 0))}
    for key, field in (("cmask", "CounterMask"), ("inv", "Invert"), ("edge", "EdgeDetect"), ("any", "AnyThread")):
        if t.get(key):
            e[field] = str(t[key])
    for key, msr in (("offcore_rsp", "0x1a6"), ("ldlat", "0x3f6"), ("frontend", "0x3f7")):
        if key in t:
            e["MSRIndex"], e["MSRValue"] = msr, hex(t[key])
    return e


def cmd_tables(list_txt, metrics_txt, cpuid, outdir):
    events = parse_events(open(list_txt).read())
    metrics = parse_metrics(open(metrics_txt).read())
    model = "agree-" + cpuid.lower()
    d = os.path.join(outdir, "arch", "x86", model)
    os.makedirs(d, exist_ok=True)
    regex = cpuid.rsplit("-", 1)[0] if cpuid.count("-") == 3 else cpuid
    with open(os.path.join(outdir, "arch", "x86", "mapfile.csv"), "w") as f:
        f.write("Family-model,Version,Filename,EventType\n%s,v1,%s,core\n" % (regex, model))
    ev = [e for e in (event_json(n, t) for n, t in events) if e]
    json.dump(ev, open(os.path.join(d, "events.json"), "w"), indent=1)
    json.dump([{"MetricName": n, "MetricExpr": x, "MetricGroup": "Agree"} for n, x in metrics],
              open(os.path.join(d, "metrics.json"), "w"), indent=1)
    print("%d events (%d left out: terms the tables cannot hold), %d metrics" % (len(ev), len(events) - len(ev),
                                                                                  len(metrics)))


KEYWORDS = {"if", "else", "min", "max", "d_ratio", "#smt_on", "#core_wide", "#slots", "#num_dies", "#num_packages",
            "#num_cpus", "#num_cores", "cycles", "instructions", "slots"}


def idents(expr):
    """The names of expr (escapes resolved); cpu@EVENT\\,terms@ spans are core events and dropped."""
    expr = re.sub(r"cpu@([^@]*)@", " ", expr)
    if "@" in expr:
        return None  # another PMU's event
    return [re.sub(r"\\(.)", r"\1", t) for t in re.findall(r"(?:[A-Za-z_#]|\\.)(?:[\w.]|\\.)*", expr)]


def cmd_names(outdir):
    """Metrics whose events are all core events of the tables (or the fixture's cpu/ events), recursively."""
    files = {n: os.path.join(r, n) for r, _, fs in os.walk(outdir) for n in fs}
    metrics = {m["MetricName"]: m["MetricExpr"] for m in json.load(open(files["metrics.json"]))}
    lower = {k.lower(): k for k in metrics}
    events = {e["EventName"].lower() for e in json.load(open(files["events.json"]))}

    def ok(name, seen=()):
        ids = idents(metrics[name])
        if ids is None:
            return False
        for i in ids:
            il = i.lower()
            if il in KEYWORDS or il.startswith("topdown-") or il in events:
                continue
            if il in lower and lower[il] not in seen:
                if not ok(lower[il], seen + (name,)):
                    return False
                continue
            return False  # duration_time, uncore, msr, tool events: not injected, or not the same twice
        return True
    for n in sorted(metrics):
        if ok(n):
            print(n)


def cmd_perfcsv(files):
    """perf stat -x, metric columns: COUNT,UNIT,EVENT,RUN,PCT,VALUE,UNIT NAME on an event's line, or ,,,,VALUE,UNIT NAME
    on a line of its own; an empty VALUE (perf could not evaluate it) is printed as nan."""
    for fn in files:
        for line in open(fn):
            f = line.rstrip("\n").split(",")
            if len(f) == 6 and not any(x.strip() for x in f[:4]):
                val, mname = f[4].strip(), f[5]
            elif len(f) >= 7:
                val, mname = f[5].strip(), f[6]
            else:
                continue
            words = mname.split()
            if not words:
                continue
            try:
                float(val or "nan")
            except ValueError:
                continue
            print("%s %s %s" % (words[-1], val or "nan", " ".join(words[:-1]) or "-"))


def pm_values(files):
    """name -> value (or None: n/a) from pmctool stat --json reports."""
    vals = {}
    # a table's metric shown as table:NAME wins over pmctool's own NAME in any file
    files = sorted(files)
    for fn in files:
        d = json.load(open(fn))
        for m in d.get("metrics", []):
            n = m.get("name", "")
            if n.startswith("table:"):  # the table's metric where pmctool has one of that name (IPC)
                vals[n[6:]] = m.get("value")
            elif n not in vals:
                vals[n] = m.get("value")
    return vals


def close(perf_text, pm, unit):
    """pm equals perf's printed value to its digits; a '%' unit may be perf's ScaleUnit of 100 (the tables written
    here carry none, so pmctool's value is the formula's)."""
    dec = len(perf_text.split(".")[1]) if "." in perf_text else 0
    want = float(perf_text)
    for scale in (1.0, 100.0) if "%" in unit else (1.0,):
        if abs(pm * scale - want) <= 0.5 * 10 ** -dec * 1.02 + 1e-9 * abs(want):
            return True
    return False


def or_terms(outdir):
    """Metrics (recursively) with an event term perf 6.1 ORs into the event's own bits where the vendor's term
    replaces them: cpu@EXE_ACTIVITY.3_PORTS_UTIL\\,umask\\=0x80@ is Intel's :u0x80, umask 0x80; perf opens 0x88 (its
    alias's 0x08 | 0x80). pmctool follows the vendor (issue 33 item 1), so these two differ by design."""
    files = {n: os.path.join(r, n) for r, _, fs in os.walk(outdir) for n in fs}
    metrics = {m["MetricName"].lower(): m["MetricExpr"] for m in json.load(open(files["metrics.json"]))}
    umask = {e["EventName"].lower(): int(e.get("UMask", "0"), 16) for e in json.load(open(files["events.json"]))}
    direct = set()
    for n, x in metrics.items():
        for ev, v in re.findall(r"cpu@([^@\\]+)\\,umask\\=(0x[0-9a-fA-F]+|\d+)@", x):
            own = umask.get(ev.lower())
            if own is not None and (own | int(v, 0)) != int(v, 0):
                direct.add(n)
    out = set(direct)
    changed = True
    while changed:
        changed = False
        for n, x in metrics.items():
            if n not in out and any(i.lower() in out for i in (idents(x) or [])):
                out.add(n)
                changed = True
    return out


def cmd_compare(names_file, perf_file, pm_files, tables=None):
    names = set(open(names_file).read().split())
    by_design = or_terms(tables) if tables else set()
    pm = {n: v for n, v in pm_values(pm_files).items() if n in names}
    agree, differ, only_perf, only_pm, or_differ = [], [], [], [], []
    perf = {}
    for line in open(perf_file):
        n, v, u = line.split(None, 2)
        u = u.strip().replace(" ", "")
        if n in names:  # not perf's own shadow metrics (insn per cycle, GHz)
            perf.setdefault(n, (v, u))
    for n, (v, u) in sorted(perf.items()):
        p = pm.get(n)
        if v == "nan" and p is not None:
            only_pm.append(n)
        elif v == "nan":
            continue
        elif p is None or (isinstance(p, float) and math.isnan(p)):
            only_perf.append(n)
        elif close(v, float(p), u):
            agree.append(n)
        elif n.lower() in by_design:
            or_differ.append("%s: perf %s%s, pmctool %.6g" % (n, v, u if u != "-" else "", float(p)))
        else:
            differ.append("%s: perf %s%s, pmctool %.6g" % (n, v, u if u != "-" else "", float(p)))
    for n, p in pm.items():
        if n not in perf and p is not None:
            only_pm.append(n)
    only_pm.sort()
    print("agree %d differ %d perf-only %d pmctool-only %d by-design %d" % (len(agree), len(differ), len(only_perf),
                                                                         len(only_pm), len(or_differ)))
    for d in differ:
        print("  DIFFER " + d)
    for d in or_differ:
        print("  by design (perf 6.1 ORs a term into the event's own umask; the vendor's term replaces it) " + d)
    for n in only_perf:
        print("  perf-only " + n)
    for n in only_pm:
        print("  pmctool-only " + n)
    return 1 if differ else 0


if __name__ == "__main__":
    c, a = sys.argv[1], sys.argv[2:]
    if c == "tables":
        cmd_tables(*a)
    elif c == "names":
        cmd_names(*a)
    elif c == "perfcsv":
        cmd_perfcsv(a)
    elif c == "compare":
        tables = a.pop(0) if a[0] == "--tables" and a.pop(0) else None
        sys.exit(cmd_compare(a[0], a[1], a[2:], tables))
