#!/usr/bin/env bash
# Fuzz every target for a fixed budget with libFuzzer (clang), starting from the committed corpus.
#   tests/fuzz/run-fuzzers.sh [SECONDS_PER_TARGET]   (default 60)
# New inputs go to .fuzz-out/<target>/; a crash leaves crash-* there: fix it, then add the input to
# tests/fuzz/corpus/<target>/ so the replay test keeps it fixed.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
command -v clang >/dev/null || { echo "run-fuzzers: clang is needed (apt-get install clang)" >&2; exit 1; }
if [ ! -f build-fuzz/build.ninja ]; then
	CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C build-fuzz >/dev/null
status=0
for corpus in tests/fuzz/corpus/*/; do
	t=$(basename "$corpus")
	bin=$(find build-fuzz/tests -name "$t" -type f -perm -u+x | head -1)
	[ -n "$bin" ] || { echo "run-fuzzers: no binary for $t" >&2; status=1; continue; }
	mkdir -p ".fuzz-out/$t"
	echo "== $t ($secs s)"
	if ! (cd ".fuzz-out/$t" && "$OLDPWD/$bin" -max_total_time="$secs" -max_len=4096 -print_final_stats=1 \
		. "$OLDPWD/$corpus" 2>&1 | tail -4); then
		status=1
	fi
	ls ".fuzz-out/$t"/crash-* 2>/dev/null && status=1
done
exit $status
