#!/bin/bash
# pmctool serve over HTTP, with a real client: two scrapes in OpenMetrics (families, units, _total counters that
# grow, the running ratio, pmctool_event_up, # EOF) and one in Prometheus' 0.0.4 format; 404, 405, 400; an oversized
# request gets 413 and is closed; a client that connects and sends nothing neither blocks a scrape nor stays open past
# the read timeout; SIGTERM: exit 0, the port closed, no process left.
. "$PMC_SOURCE_DIR/tests/serve/serve_lib.sh"

# cycles counts where there is a PMU and is absent (flagged in pmctool_event_up) where there is none: both checked
start_serve -e task-clock,page-faults,cycles
python3 - "$PORT" <<'PY'
import re, socket, subprocess, sys, time, urllib.error, urllib.request

port = int(sys.argv[1])
OM = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"

def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)

def get(path="/metrics", accept=None, method="GET"):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), method=method)
    if accept:
        req.add_header("Accept", accept)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers.get("Content-Type"), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read().decode()

def raw(data, wait=10):
    s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    s.sendall(data)
    got = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        got += b
    s.close()
    return got.decode(errors="replace")

def value(body, name, event):
    m = re.search(r'^%s\{event="%s"\} (\S+)$' % (re.escape(name), re.escape(event)), body, re.M)
    return float(m.group(1)) if m else None

# A client that connects and never sends: open through all of what follows
silent = socket.create_connection(("127.0.0.1", port))
silent_at = time.monotonic()

# Read at the scrape: task-clock counts from the first scrape (waited for at most 10 s on a loaded machine)
deadline = time.monotonic() + 10
while True:
    st, ct, b1 = get(accept=OM)
    if st == 200 and value(b1, "pmctool_task_clock_seconds_total", "task-clock") is not None:
        break
    if time.monotonic() > deadline:
        fail("no counted task-clock within 10 s:\n" + b1)
    time.sleep(0.1)
if not ct.startswith("application/openmetrics-text; version=1.0.0"):
    fail("OpenMetrics scrape's Content-Type is %r" % ct)
if not b1.endswith("\n# EOF\n"):
    fail("OpenMetrics scrape does not end with '# EOF':\n" + b1[-200:])
for line in ["# TYPE pmctool_task_clock_seconds counter", "# UNIT pmctool_task_clock_seconds seconds",
             "# TYPE pmctool_page_faults counter", "# TYPE pmctool_event_running_ratio gauge",
             "# TYPE pmctool_event_up gauge", "# TYPE pmctool_build info",
             'pmctool_event_up{event="task-clock"} 1', 'pmctool_event_up{event="page-faults"} 1']:
    if line not in b1.splitlines():
        fail("OpenMetrics scrape lacks the line %r:\n%s" % (line, b1))
if not re.search(r'^pmctool_build_info\{version="[^"]+"\} 1$', b1, re.M):
    fail("no pmctool_build_info:\n" + b1)
r = value(b1, "pmctool_event_running_ratio", "task-clock")
if r is None or not 0 < r <= 1:
    fail("task-clock's running ratio is %r" % r)
# cycles: counted, or absent from the counters and 0 in pmctool_event_up with its reason (never a 0 counter)
if 'pmctool_event_up{event="cycles"} 1' in b1:
    if value(b1, "pmctool_cycles_total", "cycles") is None:
        fail("cycles is up but has no counter:\n" + b1)
    print("ok: cycles counts here: its counter family is exported")
else:
    m = re.search(r'^pmctool_event_up\{event="cycles",reason="([^"]+)"\} 0$', b1, re.M)
    if not m or "pmctool_cycles" in b1:
        fail("cycles does not count here but is not absent and flagged:\n" + b1)
    print("ok: cycles does not count here (%s): absent from the counters, pmctool_event_up 0" % m.group(1))
# Work between the scrapes: page faults and CPU time
subprocess.run([sys.executable, "-c", "b = bytearray(64 << 20)\nfor i in range(0, len(b), 4096): b[i] = 1"], check=True)
time.sleep(0.5)
st, ct, b2 = get(accept=OM)
for fam, ev in [("pmctool_task_clock_seconds_total", "task-clock"), ("pmctool_page_faults_total", "page-faults")]:
    a, b = value(b1, fam, ev), value(b2, fam, ev)
    if a is None or b is None or not b > a:
        fail("%s did not grow between two scrapes: %r then %r" % (fam, a, b))
    print("ok: %s grew from %s to %s" % (fam, a, b))
# Prometheus' text format when OpenMetrics is not asked for
st, ct, b3 = get()
if st != 200 or not ct.startswith("text/plain; version=0.0.4") or "# EOF" in b3 or \
        "# TYPE pmctool_task_clock_seconds_total counter" not in b3.splitlines():
    fail("Prometheus 0.0.4 scrape: %s %r:\n%s" % (st, ct, b3))
print("ok: OpenMetrics when asked (Content-Type, # EOF), Prometheus 0.0.4 otherwise")
for path, method, want in [("/", "GET", 404), ("/metricsx", "GET", 404), ("/metrics", "POST", 405),
                           ("/metrics", "DELETE", 405)]:
    st = get(path, method=method)[0]
    if st != want:
        fail("%s %s: %s, expected %s" % (method, path, st, want))
if not raw(b"NONSENSE\r\n\r\n").startswith("HTTP/1.1 400 "):
    fail("a malformed request line did not get 400")
print("ok: 404 for other paths, 405 for other methods, 400 for a malformed request")
big = raw(b"GET /metrics HTTP/1.1\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n")
if not big.startswith("HTTP/1.1 413 "):
    fail("a 20 kB request got %r, expected 413" % big[:80])
print("ok: an oversized request gets 413 and the connection is closed")
# The silent client blocked nothing above; the server closes it after its read timeout (5 s)
silent.settimeout(10)
if silent.recv(100) != b"" or time.monotonic() - silent_at > 9:
    fail("a client that sent nothing was not closed by the read timeout")
print("ok: a client that sends nothing did not block the scrapes and was closed after %.1f s" %
      (time.monotonic() - silent_at))
PY
stop_serve
port_free "$PORT" || fail "port $PORT still accepts connections after pmctool serve exited"
ok "SIGTERM: exit 0, port $PORT closed, no process left"
