# Shared helpers for the integration tests (sourced by tests/*/test_*.sh). Runs under bash with set -eu.
# PMCTOOL is the built binary; a test prints what it checks, fails loudly, and exits 77 with a reason to skip.
set -euo pipefail
: "${PMCTOOL:?PMCTOOL must name the built pmctool binary}"
: "${PMC_SOURCE_DIR:?PMC_SOURCE_DIR must name the source tree}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
# Whether $PMCTOOL is a sanitizer build (ASan: it links libasan). Not a pipe into grep -q: under pipefail, ldd's
# SIGPIPE would make a match read as none.
sanitized_build() { case "$(ldd "$PMCTOOL" 2>/dev/null)" in *libasan*) return 0 ;; esac; return 1; }
ok() { echo "ok: $*"; }

# run_pmc ARGS...: runs pmctool, stdout to $TMP/out, stderr to $TMP/err, status in $RC (never aborts the test).
run_pmc() {
	set +e
	"$PMCTOOL" "$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
}

expect_rc() { [ "$RC" -eq "$1" ] || { cat "$TMP/out" "$TMP/err" >&2; fail "$2: exit status $RC, expected $1"; }; }
expect_out() { grep -qE -- "$1" "$TMP/out" || { cat "$TMP/out" >&2; fail "$2: stdout lacks /$1/"; }; }
expect_err() { grep -qE -- "$1" "$TMP/err" || { cat "$TMP/err" >&2; fail "$2: stderr lacks /$1/"; }; }

# has_hw_pmu: true when the kernel counts hardware events here (a PMU driver exists and paranoid allows it).
has_hw_pmu() { [ -d /sys/bus/event_source/devices/cpu ] || [ -d /sys/bus/event_source/devices/cpu_core ] ||
	ls -d /sys/bus/event_source/devices/armv8_pmuv3* >/dev/null 2>&1; }

# breakpoints_fire: true when hardware breakpoints count exactly here, asked of the probe pmctool itself runs before it
# counts one (tests/perf/pmc-bp-probe: an execute breakpoint on a function of its own). Its verdict line is left in
# $BP_PROBE. breakpoints_fire_or_skip: skip the test, with that line, where they do not (VMs on some AMD Zen 5 hosts
# accept breakpoints and never fire them; there pmctool prints <not counted>, which test_breakpoints_never_fire checks).
breakpoints_fire() { BP_PROBE=$("$PMC_BUILD_DIR/tests/perf/pmc-bp-probe") || return 1; }
breakpoints_fire_or_skip() { breakpoints_fire || skip "a test of exact breakpoint counts, and here $BP_PROBE"; }

# mpi_launcher N: MPI=(mpirun ...) running N ranks on this machine (oversubscribed, as root when root), or skip when
# Open MPI's mpirun is not installed.
mpi_launcher() {
	command -v mpirun >/dev/null || skip "mpirun is not installed (Debian's openmpi-bin; setup.sh installs it)"
	MPI=(mpirun --oversubscribe -n "$1")
	[ "$(id -u)" -ne 0 ] || MPI+=(--allow-run-as-root)
}
