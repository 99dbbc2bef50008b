#!/bin/bash
# pmctool serve --textfile DIR: DIR/pmctool.prom in Prometheus' text format, written every interval by a rename (a
# reader never sees a half-written file, the inode changes), no temporary file left after SIGTERM; a DIR that is not a
# writable directory is refused before counting starts.
. "$PMC_SOURCE_DIR/tests/serve/serve_lib.sh"

run_pmc serve --listen none --textfile "$TMP/missing"
expect_rc 2 "--textfile of a missing directory"
expect_err "textfile '.*missing'" "--textfile of a missing directory"
run_pmc serve --listen none
expect_rc 2 "--listen none without --textfile"
ok "--textfile of a missing directory and --listen none alone are refused (exit 2)"

mkdir "$TMP/tf"
start_serve --listen none --textfile "$TMP/tf" -e task-clock,page-faults -I 100
python3 - "$TMP/tf/pmctool.prom" <<'PY'
import os, re, sys, time

path = sys.argv[1]
def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)

sample = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? [-+0-9.eEinfaNI]+$')
def parse(text):
    if not re.search(r'\npmctool_environment_info\{[^\n]*\} 1\n\Z', text) or "\npmctool_build_info{" not in text:
        fail("the file does not end with the info series (half-written?):\n" + text[-300:])
    for line in text.splitlines():
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            continue
        if not sample.match(line):
            fail("not a line of Prometheus' text format: %r" % line)
    m = re.search(r'^pmctool_task_clock_seconds_total\{event="task-clock"\} (\S+)$', text, re.M)
    return float(m.group(1)) if m else None

deadline = time.monotonic() + 10
while not os.path.exists(path):
    if time.monotonic() > deadline:
        fail(path + " was not written within 10 s")
    time.sleep(0.05)
last_ino, renames, values, reads = None, 0, [], 0
end = time.monotonic() + 1.5
while time.monotonic() < end:  # read as fast as it can while it is replaced every 100 ms
    with open(path) as f:
        st = os.fstat(f.fileno())
        text = f.read()
    if not text.strip():
        fail("an empty file was seen")
    v = parse(text)
    renames += last_ino is not None and st.st_ino != last_ino  # a new file: a rename replaced the old one
    last_ino = st.st_ino
    if v is not None:
        values.append(v)
    reads += 1
if renames < 3:
    fail("the file was replaced %d times in 1.5 s at -I 100" % renames)
if not values or values[-1] <= values[0]:
    fail("task-clock did not grow in the file: %r" % values[:1] + values[-1:])
print("ok: %d reads, each a whole file that parses; replaced by rename %d times; task-clock %.3f -> %.3f s" %
      (reads, renames, values[0], values[-1]))
PY
grep -q '^# EOF' "$TMP/tf/pmctool.prom" && fail "the textfile has OpenMetrics' # EOF, which node_exporter does not read"
stop_serve
left=$(find "$TMP/tf" -name '.pmctool.prom.*' | wc -l)
[ "$left" -eq 0 ] || fail "temporary files left in the directory: $(ls -a "$TMP/tf")"
ok "--textfile: replaced atomically every interval, no temporary file left after SIGTERM"
