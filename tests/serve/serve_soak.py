#!/usr/bin/env python3
# The soak of tests/serve/test_serve_soak.sh: against a running `pmctool serve` (PID, PORT), N scrapers each
# scrape every PACE_S (50 ms; so N connections overlap without the soak taking both CPUs of a small machine) for
# SECONDS while one bad client keeps 8 connections open that it never reads: half send a request and
# never read the answer (a receive buffer of 4 KiB; dropped unread after 3 s), half never send one (the server
# closes them at its 5 s read timeout); each is replaced by a new one. Every second the server's RSS (VmRSS) and open descriptors are sampled.
# Fails (exit 1, the reason on stderr) when a scrape fails, task-clock goes backwards in a scraper's consecutive
# scrapes or does not advance over the soak, RSS after the warm-up grows by more than RSS_SLACK_KB, descriptors
# exceed the baseline by more than the connections allowed, or they are not back to the baseline after the soak.
# Prints the figures.
import re, socket, sys, threading, time, urllib.request

PID, PORT, N, SECONDS = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
WARMUP = min(5.0, SECONDS / 4)
RSS_SLACK_KB = 2048
PACE_S = 0.05
CONN_MAX = 64          # serve_http.h's PMC_HTTP_CONN_MAX: the most descriptors the connections take
URL = "http://127.0.0.1:%d/metrics" % PORT
TC = re.compile(r'^pmctool_task_clock_seconds_total\{event="task-clock"\} (\S+)$', re.M)

def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)

def rss_kb():
    for line in open("/proc/%d/status" % PID):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1

def nfds():
    import os
    return len(os.listdir("/proc/%d/fd" % PID))

stop = threading.Event()
lock = threading.Lock()
errors, scrapes, backwards = [], [0], []
first_tc, last_tc = [None], [None]

def scraper():
    prev = None
    while not stop.is_set():
        try:
            body = urllib.request.urlopen(URL, timeout=30).read().decode()
        except Exception as e:  # every failure is a finding: the soak fails
            with lock:
                errors.append(repr(e))
            continue
        m = TC.search(body)
        if not m:
            with lock:
                errors.append("no task-clock in a scrape")
            continue
        v = float(m.group(1))
        with lock:
            scrapes[0] += 1
            if prev is not None and v < prev:
                backwards.append((prev, v))
            if first_tc[0] is None:
                first_tc[0] = v
            last_tc[0] = v
        prev = v
        stop.wait(PACE_S)

held, bad_opened = [], [0]
def bad_client():
    i = 0
    while not stop.is_set():
        now = time.monotonic()
        keep = []
        for s, asked, since in held:
            if asked and now - since > 3:
                s.close()  # its answer is still unread in the socket: dropped as it is
            elif alive(s):
                keep.append((s, asked, since))
        held[:] = keep
        while len(held) < 8:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            try:
                s.connect(("127.0.0.1", PORT))
                if i % 2 == 0:
                    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            except OSError:
                s.close()
                break
            held.append((s, i % 2 == 0, time.monotonic()))
            bad_opened[0] += 1
            i += 1
        time.sleep(0.2)
    for s, _, _ in held:
        s.close()

def alive(s):
    # a connection that sent nothing: closed by the server (its read timeout) when readable with EOF
    s.setblocking(False)
    try:
        gone = s.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        gone = False
    except OSError:
        gone = True
    s.setblocking(True)
    if gone:
        s.close()
    return not gone

base_rss, base_fds = rss_kb(), nfds()
threads = [threading.Thread(target=scraper, daemon=True) for _ in range(N)]
threads.append(threading.Thread(target=bad_client, daemon=True))
t0 = time.monotonic()
for t in threads:
    t.start()
samples = []
while time.monotonic() - t0 < SECONDS:
    time.sleep(1)
    samples.append((time.monotonic() - t0, rss_kb(), nfds()))
stop.set()
for t in threads:
    t.join(60)
deadline = time.monotonic() + 15  # the server's read (5 s) and write (10 s) timeouts
while nfds() > base_fds and time.monotonic() < deadline:
    time.sleep(0.2)
after_rss, after_fds = rss_kb(), nfds()

steady = [r for t, r, f in samples if t >= WARMUP]
ref = steady[0] if steady else base_rss
print("soak: %d scrapers + 1 never-reading client (%d connections) for %.0f s: %d scrapes (%.0f/s), %d errors"
      % (N, bad_opened[0], SECONDS, scrapes[0], scrapes[0] / SECONDS, len(errors)))
print("soak: RSS kB before %d, after warm-up %d, max %d, min %d, after %d; fds before %d, max %d, after %d"
      % (base_rss, ref, max(steady or [ref]), min(steady or [ref]), after_rss, base_fds,
         max(f for _, _, f in samples), after_fds))
print("soak: task-clock %.3f -> %.3f s" % (first_tc[0] or 0, last_tc[0] or 0))
if errors:
    fail("%d scrapes failed, the first: %s" % (len(errors), errors[0]))
if backwards:
    fail("task-clock went backwards between a scraper's scrapes: %s" % (backwards[:3],))
if not scrapes[0] or last_tc[0] <= first_tc[0]:
    fail("task-clock did not advance over the soak")
if max(steady or [ref]) - ref > RSS_SLACK_KB:
    fail("RSS grew by %d kB after the warm-up (allowed %d)" % (max(steady) - ref, RSS_SLACK_KB))
if max(f for _, _, f in samples) > base_fds + CONN_MAX:
    fail("descriptors reached %d: more than %d + %d connections" % (max(f for _, _, f in samples), base_fds, CONN_MAX))
if after_fds > base_fds:
    fail("descriptors %d after the soak, %d before: connections left open" % (after_fds, base_fds))
