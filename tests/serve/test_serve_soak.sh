#!/bin/bash
# The soak (issue 38): pmctool serve under 50 concurrent scrapers for 60 s (PMC_SOAK_S overrides) plus one client
# that opens connections and never reads (tests/serve/serve_soak.py): every scrape answered, task-clock advancing and
# never going backwards, RSS flat after a warm-up (within 2 MiB), descriptors within the connection limit and back
# to where they were afterwards; serve still stops cleanly on SIGTERM.
. "$PMC_SOURCE_DIR/tests/serve/serve_lib.sh"
# Under ASan freed memory waits in a quarantine (up to 256 MiB) and RSS grows with every scrape: without it, RSS
# is what the program holds (a no-op for other builds). Leaks are LSan's at SIGTERM (stop_serve wants exit 0).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0"

start_serve -e task-clock,page-faults,context-switches
python3 "$PMC_SOURCE_DIR/tests/serve/serve_soak.py" "$SERVE_PID" "$PORT" 50 "${PMC_SOAK_S:-60}" >"$TMP/soak.out" ||
	{ cat "$TMP/soak.out"; fail "the soak failed"; }
cat "$TMP/soak.out"
stop_serve
ok "soak: $(sed -n 2p "$TMP/soak.out" | sed 's/^soak: //')"
