#!/bin/bash
# The layer check of doc/architecture.md: every #include "..." under src/ must point to the including file's own
# layer or one below it, in the order the doc's machine-readable lines give:
#   layers: util include sys arch ...      bottom to top; a folder of src/ (or main, for src/main.c) per word
#   place: LAYER GLOB...                   files (paths under src/, shell globs) that belong to LAYER, not their folder
#   private: DIR                           headers in DIR/<sub>/ are included only from DIR/<sub>/ and DIR/*.h
#   openers: PATH...                       the only files (or folders, ending in /) that may call the perf_event_open
#                                          syscall or pmc_perf_open* directly
#   acyclic: DIR...                        folders whose files must not include each other in a circle
#   owner: PREFIX PATH...                  an external library's owners: only these files (or folders, ending in /)
#                                          call its functions (PREFIX...() ) or include its headers (<PREFIX/...>)
# Prints each violation as FILE:LINE: what is wrong, then one count per check; exit 0 when there are none, 1 when
# there are, 2 on a usage error. --graph prints the measured folder-to-folder include graph instead (edge and count);
# --cycles prints the include circles between the files of each folder of src/ (whether or not 'acyclic:' names it).
# Cheap: one pass over src/ in one process (each file's layer computed once), no build: well under a second.
# Usage: tests/layers.sh [--graph|--cycles] [REPO_ROOT] (default: this script's repo).
set -euo pipefail

mode=check
case ${1:-} in
--graph) mode=graph; shift ;;
--cycles) mode=cycles; shift ;;
esac
root=${1:-${PMC_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}}
doc=$root/doc/architecture.md
[ -d "$root/src" ] || { echo "layers.sh: no src/ under '$root': give the repository root" >&2; exit 2; }
[ -f "$doc" ] || { echo "layers.sh: '$doc' is missing: it holds the layer order (a 'layers:' line)" >&2; exit 2; }
grep -q '^layers: *[^ ]' "$doc" || { echo "layers.sh: $doc has no 'layers: ...' line" >&2; exit 2; }

exec python3 - "$mode" "$root" "$doc" <<'PY'
import fnmatch, os, re, sys
from collections import Counter, defaultdict

mode, root, doc = sys.argv[1:4]
lines = open(doc, encoding="utf-8").read().splitlines()
def field(key):
    return [l[len(key) + 1:].split() for l in lines if l.startswith(key + ":")]
layers = field("layers")[0]
rank = {w: i for i, w in enumerate(layers)}
places = [(p[0], p[1:]) for p in field("place") if p]
privates = [w for p in field("private") for w in p]
openers = [w for p in field("openers") for w in p]
acyclic = [w.rstrip("/") for p in field("acyclic") for w in p]
owners = [(p[0], p[1:]) for p in field("owner") if len(p) > 1]

src = os.path.join(root, "src")
inc_re = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]*/[^"]*)"')
open_re = re.compile(r'SYS_perf_event_open|__NR_perf_event_open|[^_0-9A-Za-z]pmc_perf_open(_noted|_counting)?\(')
decl_re = re.compile(r'^(int|static int) pmc_perf_open')
local_re = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"/]*)"')
includes = []      # (file, line, header) for every quoted include with a slash
files_inc = defaultdict(set)   # file -> headers it includes (paths under src/), same-folder names resolved
opens = []
owned = []        # (file, line, prefix): an external library's call or include outside its owners
own_res = [(pre, re.compile(r'(^|[^_0-9A-Za-z])%s[_0-9A-Za-z]*\(|^[ \t]*#[ \t]*include[ \t]*<%s/' % (re.escape(pre), re.escape(pre))))
           for pre, _ in owners]
for dp, dns, fns in os.walk(src):
    dns.sort()
    for fn in sorted(fns):
        if not fn.endswith((".c", ".h", ".S")):
            continue
        path = os.path.join(dp, fn)
        rel = os.path.relpath(path, src)
        folder = os.path.dirname(rel)
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, text in enumerate(f, 1):
                m = inc_re.match(text)
                if m:
                    includes.append((rel, n, m.group(1)))
                    files_inc[rel].add(m.group(1))
                    continue
                m = local_re.match(text)
                if m and m.group(1) != "config.h":
                    files_inc[rel].add(os.path.join(folder, m.group(1)) if folder else m.group(1))
                if fn.endswith(".c") and open_re.search(text) and not decl_re.match(text):
                    opens.append((rel, n))
                for pre, rx in own_res:
                    if rx.search(text):
                        owned.append((rel, n, pre))

cache = {}
def lay(p):
    if p not in cache:
        hit = next((l for l, globs in places for g in globs if fnmatch.fnmatchcase(p, g)), None)
        cache[p] = hit if hit else (p.split("/", 1)[0] if "/" in p else "main")
    return cache[p]

if mode == "graph":
    edges = Counter((lay(f), lay(h)) for f, _, h in includes if lay(f) != lay(h))
    for (a, b) in sorted(edges):
        print("%-24s %3d" % ("%s -> %s" % (a, b), edges[(a, b)]))
    sys.exit(0)

def cycles_in(folder):
    """Strongly connected components of more than one file among folder's own files (a .c and its .h are one)."""
    unit = lambda p: os.path.splitext(p)[0]
    nodes = {unit(f) for f in files_inc if os.path.dirname(f) == folder}
    g = {n: set() for n in nodes}
    for f, hs in files_inc.items():
        if unit(f) in nodes:
            g[unit(f)] |= {unit(h) for h in hs if unit(h) in nodes and unit(h) != unit(f)}
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        stack.append(v); on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index:
            visit(v)
    return out

if mode == "cycles":
    for folder in sorted({os.path.dirname(f) for f in files_inc if os.path.dirname(f)}):
        for comp in cycles_in(folder):
            print("%s: %d files include each other in a circle: %s" % (folder, len(comp), " ".join(os.path.basename(c) for c in comp)))
    sys.exit(0)

nlayer = nprivate = nopen = ncycle = 0
for f, n, h in includes:
    a, b = lay(f), lay(h)
    ra, rb = rank.get(a, -1), rank.get(b, -1)
    if ra < 0:
        print("src/%s:%d: layer '%s' is not in the layer order of doc/architecture.md" % (f, n, a)); nlayer += 1
    elif rb < 0:
        print("src/%s:%d: includes %s, of layer '%s', which is not in the layer order of doc/architecture.md" % (f, n, h, b)); nlayer += 1
    elif rb > ra:
        print("src/%s:%d: %s includes %s of %s, a layer above it" % (f, n, a, h, b)); nlayer += 1
    for d in privates:
        parts = h.split("/")
        if len(parts) >= 3 and parts[0] == d:
            sub = d + "/" + parts[1]
            if not (f.startswith(sub + "/") or (os.path.dirname(f) == d and f.endswith(".h"))):
                print("src/%s:%d: includes %s, private to src/%s/" % (f, n, h, sub)); nprivate += 1
for f, n in opens:
    if any(f.startswith(o) if o.endswith("/") else f == o for o in openers):
        continue
    print("src/%s:%d: opens a counter itself (the counter set of src/perf/ is the one opening path)" % (f, n)); nopen += 1
nowned = 0
for f, n, pre in owned:
    paths = next(ps for p, ps in owners if p == pre)
    if not any(f.startswith(o) if o.endswith("/") else f == o for o in paths):
        print("src/%s:%d: uses %s... outside its owners (%s)" % (f, n, pre, " ".join(paths))); nowned += 1
for folder in acyclic:
    for comp in cycles_in(folder):
        print("src/%s/: %s include each other in a circle" % (folder, ", ".join(os.path.basename(c) for c in comp))); ncycle += 1
print("layers: %d upward or unplaced include(s); private: %d; openers: %d%s%s" % (
    nlayer, nprivate, nopen, "; circles: %d" % ncycle if acyclic else "", "; owners: %d" % nowned if owners else ""))
sys.exit(1 if nlayer + nprivate + nopen + ncycle + nowned else 0)
PY
