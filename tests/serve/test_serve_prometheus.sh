#!/bin/bash
# pmctool serve scraped by Debian's real Prometheus server (package prometheus), run by this test on loopback with a
# temporary storage (never the package's service): after two scrapes its HTTP API has the target up and
# rate(pmctool_task_clock_seconds_total[...]) > 0; promtool (same package) checks a scrape's exposition.
. "$PMC_SOURCE_DIR/tests/serve/serve_lib.sh"

PROM=$(command -v prometheus || true)
[ -n "$PROM" ] || skip "the prometheus server is not installed (Debian's package prometheus; setup.sh installs it)"

start_serve -e task-clock,page-faults
PPORT=$(free_port)
mkdir "$TMP/tsdb"
cat >"$TMP/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: pmctool
    static_configs:
      - targets: ['127.0.0.1:$PORT']
YML
"$PROM" --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PPORT" >"$TMP/prom.log" 2>&1 &
BG_PIDS+=($!)

if command -v promtool >/dev/null; then
	python3 -c 'import sys,urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
		"http://127.0.0.1:$PORT/metrics" >"$TMP/scrape.txt"
	promtool check metrics <"$TMP/scrape.txt" >"$TMP/promtool.out" 2>&1 || {
		cat "$TMP/scrape.txt" "$TMP/promtool.out" >&2; fail "promtool check metrics found problems"; }
	ok "promtool check metrics: no problem in the exposition ($(wc -l <"$TMP/scrape.txt") lines)"
else
	echo "note: promtool is not installed: the exposition is not linted"
fi

python3 - "$PPORT" "$PORT" <<'PY' || { tail -20 "$TMP/prom.log" >&2; exit 1; }
import json, sys, time, urllib.parse, urllib.request

pport, port = int(sys.argv[1]), sys.argv[2]

def api(path, **q):
    url = "http://127.0.0.1:%d/api/v1/%s?%s" % (pport, path, urllib.parse.urlencode(q))
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)["data"]

def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)

deadline = time.monotonic() + 60
rate = raw = None
while time.monotonic() < deadline:
    time.sleep(0.5)
    try:
        res = api("query", query="rate(pmctool_task_clock_seconds_total[10s])")["result"]
        raw = api("query", query="pmctool_task_clock_seconds_total")["result"]
    except OSError:
        continue  # Prometheus is still starting
    if res and raw:
        rate = float(res[0]["value"][1])
        break
if rate is None:
    fail("Prometheus had no rate of pmctool_task_clock_seconds_total within 60 s")
labels = raw[0]["metric"]
if labels.get("event") != "task-clock" or labels.get("job") != "pmctool" or labels.get("instance") != "127.0.0.1:" + port:
    fail("unexpected labels %r" % labels)
if not rate > 0:
    fail("rate(pmctool_task_clock_seconds_total[10s]) is %r, expected > 0" % rate)
print("ok: Prometheus scraped pmctool serve: rate(pmctool_task_clock_seconds_total[10s]) = %.4f CPU-seconds/s, labels %s"
      % (rate, sorted(labels.items())))
targets = api("targets")["activeTargets"]
if not targets or targets[0]["health"] != "up":
    fail("the target is not up: %r" % targets)
up = api("query", query='pmctool_event_up{event="page-faults"}')["result"]
if not up or up[0]["value"][1] != "1":
    fail("pmctool_event_up of page-faults is %r" % up)
print("ok: the target is up; pmctool_event_up{event=\"page-faults\"} is 1")
PY
stop_serve
