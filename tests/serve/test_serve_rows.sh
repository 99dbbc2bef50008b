#!/bin/bash
# pmctool serve's targets and labels: -A (a series per online CPU, cpu="N", no unlabelled total beside them),
# --per-socket (socket="N" as sysfs numbers the packages), -G / (the root cgroup: cgroup="/"), -p PID (a busy process's
# task-clock grows); metrics as gauges (the default metric CPUs has a value; GHz over cycles has one only where cycles
# counts: otherwise it is absent from pmctool_metric and flagged 0 with the reason, never 0); --topdown's nodes
# (under a forced Zen 4 PMU, so the tree exists on any host) each either valued or absent and flagged; the build and
# environment info series (kernel and arch as uname says); promtool check metrics finds nothing in any of them; bad
# targets are refused with exit 2 and a message.
. "$PMC_SOURCE_DIR/tests/serve/serve_lib.sh"
PROMTOOL=$(command -v promtool || true)

# scrape NAME: the 0.0.4 exposition into $TMP/NAME.prom (and OpenMetrics into $TMP/NAME.om), linted by promtool
scrape() {
	curl -sf "http://127.0.0.1:$PORT/metrics" >"$TMP/$1.prom" || fail "$1: the scrape failed"
	curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' "http://127.0.0.1:$PORT/metrics" >"$TMP/$1.om" ||
		fail "$1: the OpenMetrics scrape failed"
	tail -1 "$TMP/$1.om" | grep -qx '# EOF' || fail "$1: the OpenMetrics exposition does not end with # EOF"
	if [ -n "$PROMTOOL" ]; then
		"$PROMTOOL" check metrics <"$TMP/$1.prom" >"$TMP/$1.lint" 2>&1 ||
			{ cat "$TMP/$1.lint" >&2; fail "$1: promtool check metrics: $(head -c 400 "$TMP/$1.lint")"; }
	fi
}
command -v curl >/dev/null || skip "curl is needed"

# 1. -A: a series per CPU
start_serve -A -e task-clock,page-faults,cycles
scrape percpu
stop_serve
python3 - "$TMP/percpu.prom" <<'PY' || fail "-A: the per-CPU series are not as documented"
import os, re, sys
body = open(sys.argv[1]).read()
def online():
    cpus = set()
    for part in open("/sys/devices/system/cpu/online").read().strip().split(","):
        a, _, b = part.partition("-")
        cpus.update(range(int(a), int(b or a) + 1))
    return cpus
tc = re.findall(r'^pmctool_task_clock_seconds_total\{([^}]*)\} (\S+)$', body, re.M)
got = {re.search(r'cpu="(\d+)"', l).group(1) for l, v in tc if 'cpu="' in l}
assert all('cpu="' in l for l, v in tc), ("a task-clock series without cpu=", tc)
assert got == {str(c) for c in online()}, (got, online())
# the metric CPUs per CPU; GHz valued only where cycles counts, else absent and flagged with a reason
assert re.search(r'^pmctool_metric\{metric="CPUs",cpu="\d+"\} [0-9.e+-]+$', body, re.M), "no CPUs metric per cpu"
cyc = re.search(r'^pmctool_event_up\{event="cycles",cpu="\d+"(,reason="[^"]+")?\} ([01])$', body, re.M)
ghz_valued = re.search(r'^pmctool_metric\{metric="GHz",', body, re.M)
ghz_up = re.findall(r'^pmctool_metric_up\{metric="GHz",cpu="\d+"(?:,unit="GHz")?(,reason="[^"]+")?\} ([01])$', body, re.M)
assert ghz_up, "no pmctool_metric_up for GHz"
for reason, up in ghz_up:
    assert (up == "1") == (not reason), ghz_up
if cyc and cyc.group(2) == "0":
    assert not ghz_valued and all(up == "0" for _, up in ghz_up), "GHz has a value though cycles did not count"
    assert not re.search(r'^pmctool_metric\{metric="GHz".*\} 0$', body, re.M)
print("-A: %d CPUs, cycles %s" % (len(got), "counted" if cyc and cyc.group(2) == "1" else "absent and flagged"))
PY
ok "-A: one task-clock series per online CPU labelled cpu, metrics per CPU, GHz valued or absent with its reason"

# 2. --per-socket: socket labels as sysfs numbers the packages
start_serve --per-socket -e task-clock
scrape socket
stop_serve
want=$(cat /sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id 2>/dev/null | sort -un | tr '\n' ' ')
got=$(sed -n 's/^pmctool_task_clock_seconds_total{event="task-clock",socket="\([0-9]*\)"} .*/\1/p' "$TMP/socket.prom" | sort -un | tr '\n' ' ')
[ -n "$got" ] && [ "$got" = "$want" ] || fail "--per-socket: sockets '$got', sysfs has '$want': $(cat "$TMP/socket.prom")"
ok "--per-socket: task-clock per socket ($got)"

# 3. -G /: the root cgroup's tasks, labelled cgroup="/"
start_serve -G / -e task-clock,page-faults
scrape cgroup
stop_serve
grep -Eq '^pmctool_task_clock_seconds_total\{event="task-clock",cgroup="/"\} [0-9.]+$' "$TMP/cgroup.prom" ||
	fail "-G /: no task-clock series labelled cgroup=\"/\": $(cat "$TMP/cgroup.prom")"
ok "-G /: series labelled cgroup=\"/\""

# 4. -p PID: a busy process of the test's own
python3 -c 'import time
t = time.monotonic()
while time.monotonic() - t < 60: pass' &
BUSY=$!
BG_PIDS+=("$BUSY")
start_serve -p "$BUSY" -e task-clock
python3 - "$PORT" <<'PY' || fail "-p: the busy process's task-clock does not grow between scrapes"
import re, sys, time, urllib.request
def tc():
    b = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=10).read().decode()
    m = re.search(r'^pmctool_task_clock_seconds_total\{event="task-clock"\} (\S+)$', b, re.M)
    return float(m.group(1)) if m else 0.0
a = tc(); time.sleep(0.5); b = tc()
print("-p: task-clock %.3f -> %.3f s" % (a, b))
sys.exit(0 if b > a else 1)
PY
stop_serve
kill "$BUSY"
ok "-p: a busy process's task-clock grows"

# 5. --topdown=2 under a forced Zen 4 PMU: every node valued or absent and flagged; info series
LIBPFM_FORCE_PMU=amd64_fam19h_zen4 start_serve --topdown=2
scrape topdown
stop_serve
python3 - "$TMP/topdown.prom" "$(uname -r)" "$(uname -m)" <<'PY' || fail "--topdown: the nodes or the info series are not as documented"
import re, sys
body, kernel, arch = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
ups = re.findall(r'^pmctool_topdown_fraction_up\{node="(\w+)",level="([12])"(,reason="[^"]+")?\} ([01])$', body, re.M)
vals = dict(re.findall(r'^pmctool_topdown_fraction\{node="(\w+)",level="[12]"\} (\S+)$', body, re.M))
assert {l for _, l, _, _ in ups} == {"1", "2"}, ("levels", ups)
for node, level, reason, up in ups:
    assert (up == "1") == (node in vals) == (not reason), (node, up, reason, vals.get(node))
env = re.search(r'^pmctool_environment_info\{(.*)\} 1$', body, re.M)
assert env and 'kernel="%s"' % kernel in env.group(1) and 'arch="%s"' % arch in env.group(1), env
assert re.search(r'^pmctool_build_info\{version="[^"]+"\} 1$', body, re.M)
print("--topdown: %d nodes, %d valued" % (len(ups), len(vals)))
PY
grep -q '^# TYPE pmctool_environment info$' "$TMP/topdown.om" || fail "the environment is not an info family in OpenMetrics"
ok "--topdown=2: each node valued or absent with its reason; build and environment info series"

# 6. Bad targets: exit 2 and a message naming the input
bad() {
	local want=$1
	shift
	local rc=0
	timeout 20 "$PMCTOOL" serve --listen 127.0.0.1:0 "$@" >"$TMP/bad.out" 2>"$TMP/bad.err" || rc=$?
	[ "$rc" = 2 ] || fail "serve $*: exit $rc, expected 2: $(cat "$TMP/bad.err")"
	grep -q -- "$want" "$TMP/bad.err" || fail "serve $*: the message does not say '$want': $(cat "$TMP/bad.err")"
}
bad "no cgroup 'no/such/cgroup" -G no/such/cgroup
bad "-a, -C and -p" -a -p 1
bad "need -a or -C" -A -p "$$"
bad "-I '100'" -I 100
bad "-g and -M" -g core -M core
bad "pmctool serve: invalid value 'x1' for -C" -C x1
ok "bad targets and combinations: exit 2 with the reason"
