# Shared by tests/serve/test_*.sh: start 'pmctool serve' in the background on a free loopback port and make sure
# that it, and anything else a test starts (list its PIDs in BG_PIDS), is gone when the test ends, however it ends.
. "$PMC_SOURCE_DIR/tests/lib.sh"

SERVE_PID=
BG_PIDS=()
serve_cleanup() {
	local p
	for p in ${SERVE_PID:+"$SERVE_PID"} "${BG_PIDS[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$TMP"
}
trap serve_cleanup EXIT

# start_serve ARGS...: pmctool serve ARGS in the background (stderr in $TMP/serve.err); sets SERVE_PID and, unless
# ARGS hold --listen none, PORT (the port it bound: --listen 127.0.0.1:0 is given first, a later --listen wins).
# Skips when this user may not count CPU-wide (exit 3 and the privilege message).
start_serve() {
	local i
	"$PMCTOOL" serve --listen 127.0.0.1:0 "$@" 2>"$TMP/serve.err" &
	SERVE_PID=$!
	for i in $(seq 200); do
		if grep -q 'serving http://\|writing .* every [0-9]* ms' "$TMP/serve.err"; then
			PORT=$(sed -n 's|.*serving http://127\.0\.0\.1:\([0-9]*\)/metrics.*|\1|p' "$TMP/serve.err")
			return 0
		fi
		if ! kill -0 "$SERVE_PID" 2>/dev/null; then
			local rc=0
			wait "$SERVE_PID" || rc=$?
			SERVE_PID=
			if [ "$rc" -eq 3 ] && grep -q 'CAP_PERFMON' "$TMP/serve.err"; then
				skip "this user may not count CPU-wide here: $(head -c 300 "$TMP/serve.err")"
			fi
			cat "$TMP/serve.err" >&2
			fail "pmctool serve $* exited with status $rc before it served"
		fi
		sleep 0.05
	done
	fail "pmctool serve $* did not say where it serves within 10 s"
}

# stop_serve: SIGTERM; it must exit 0 within 10 s (it is killed otherwise, and the test fails).
stop_serve() {
	local rc=0 i
	kill -TERM "$SERVE_PID"
	for i in $(seq 200); do
		kill -0 "$SERVE_PID" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$SERVE_PID" 2>/dev/null && fail "pmctool serve still runs 10 s after SIGTERM"
	wait "$SERVE_PID" || rc=$?
	SERVE_PID=
	[ "$rc" -eq 0 ] || { cat "$TMP/serve.err" >&2; fail "pmctool serve exited with status $rc after SIGTERM, expected 0"; }
}

# port_free PORT: nothing accepts connections on 127.0.0.1:PORT any more.
port_free() {
	python3 -c 'import socket,sys
s = socket.socket()
try:
    s.connect(("127.0.0.1", int(sys.argv[1])))
except ConnectionRefusedError:
    sys.exit(0)
sys.exit(1)' "$1"
}

# free_port: a port nothing listens on now (for a server other than pmctool serve).
free_port() {
	python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
