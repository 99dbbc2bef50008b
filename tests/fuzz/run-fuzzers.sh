#!/usr/bin/env bash
# Fuzz every target for a fixed budget with libFuzzer (clang), starting from the committed corpus.
#   tests/fuzz/run-fuzzers.sh [SECONDS_PER_TARGET [TARGET...]]   (default 60 s, every target)
#   tests/fuzz/run-fuzzers.sh --build-only                        (build the libFuzzer binaries and stop: CI's check)
# Only the fuzz binaries are built (ninja's targets tests/fuzz/fuzz_*), not the whole tree under libFuzzer.
# The targets' own messages (stat prints its errors) are closed off (-close_fd_mask=3); libFuzzer's stats and any
# crash report still show.
# New inputs go to .fuzz-out/<target>/; a crash leaves crash-* there: fix it, then add the input to
# tests/fuzz/corpus/<target>/ so the replay test keeps it fixed.
set -euo pipefail
cd "$(dirname "$0")/../.."
build_only=0
if [ "${1:-}" = --build-only ]; then
	build_only=1
	shift
fi
secs=${1:-60}
shift $(( $# > 0 ? 1 : 0 ))
command -v clang >/dev/null || { echo "run-fuzzers: clang is needed (apt-get install clang)" >&2; exit 1; }
if [ ! -f build-fuzz/build.ninja ]; then
	CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
status=0
targets=("$@")
[ ${#targets[@]} -gt 0 ] || for c in tests/fuzz/corpus/*/; do targets+=("$(basename "$c")"); done
ninja -C build-fuzz "${targets[@]/#/tests/fuzz/}" >/dev/null
[ "$build_only" = 0 ] || { echo "run-fuzzers: built ${#targets[@]} libFuzzer targets in build-fuzz/tests/fuzz/"; exit 0; }
for t in "${targets[@]}"; do
	corpus=tests/fuzz/corpus/$t
	bin=build-fuzz/tests/fuzz/$t
	[ -x "$bin" ] || bin=
	[ -n "$bin" ] || { echo "run-fuzzers: no binary for $t" >&2; status=1; continue; }
	mkdir -p ".fuzz-out/$t"
	echo "== $t ($secs s)"
	if ! (cd ".fuzz-out/$t" && "$OLDPWD/$bin" -max_total_time="$secs" -max_len=4096 -print_final_stats=1 -close_fd_mask=3 \
		. "$OLDPWD/$corpus" 2>&1 | grep -E '^stat::number_of_executed_units|^stat::new_units_added|^Done|ERROR|SUMMARY'); then
		status=1
	fi
	ls ".fuzz-out/$t"/crash-* 2>/dev/null && status=1
done
exit $status
