#!/bin/sh
# pmctool's own cost against perf stat / perf list and the physical limits: see "## Overhead" in README.md.
# Usage: bench/run.sh [--build DIR] [--json PATH] [--runs N] [--quick] [--scaling]   (from the source root, after
# ninja -C build). Needs python3, perf (linux-perf), strace and /usr/bin/time; every comparison is interleaved.
command -v python3 >/dev/null 2>&1 || { echo "bench: python3 is needed (apt-get install python3)" >&2; exit 2; }
exec python3 "$(dirname "$0")/bench.py" "$@"
