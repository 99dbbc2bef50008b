#!/usr/bin/env bash
# What a pmctool.region pair costs a Python program, in user-mode instructions, against the C pair (issue 37):
# each program runs N1 and N2 iterations of its loop and the difference over N2 - N1 is one iteration (start-up
# cancels out); a pair's cost is that minus the same loop's empty iteration. Counted with instructions:u where a PMU
# counts it, else with valgrind (`pmctool stat --emulate`, exact for the CPU valgrind emulates, slow: minutes).
#   bench/region_cost_python.sh [BUILD_DIR]     (from the source root, after ninja -C build)
# PMCTOOL_REGIONS_EVENTS=task-clock (say) measures the pairs with counting on; unset, counting is off. PYTHON: the
# interpreter (python3 on PATH; builds differ: Debian's 3.11.2 runs the pair in ~7,900, a pyenv 3.11.7 in ~9,400).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
N1=${N1:-5000} N2=${N2:-25000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PYTHONPATH=$src/python PMCTOOL_REGIONS_LIB=$build/src/regions/lib/libpmctool.so PYTHONHASHSEED=0
cat >"$work/cost.py" <<'PY'
import sys
import pmctool
mode, n = sys.argv[1], int(sys.argv[2])
pmctool.thread_init()
r = pmctool.region("py")
with r:
    pass
if mode == "loop":
    for _ in range(n):
        pass
elif mode == "reuse":            # one region object, entered n times (a decorator, a reused object)
    for _ in range(n):
        with r:
            pass
else:                            # `with pmctool.region("py"):` written in the loop
    for _ in range(n):
        with pmctool.region("py"):
            pass
PY
cat >"$work/cost.c" <<'C'
#include <pmctool.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;
	int id = pmctool_region("c");

	pmctool_thread_init();
	pmctool_region_enter(id);
	pmctool_region_leave(id);
	for (long i = 0; i < n; i++) {
		if (argv[1][0] == 'p') {
			pmctool_region_enter(id);
			pmctool_region_leave(id);
		}
		__asm__ volatile("" ::: "memory");
	}
	return 0;
}
C
cc -O2 -o "$work/cost" "$work/cost.c" -I"$src/include" -L"$build/src/regions/lib" -lpmctool \
	-Wl,-rpath,"$build/src/regions/lib"
ev=instructions:u
"$build/pmctool" stat -x, -e "$ev" -- true 2>/dev/null | grep -q "^[0-9]*,,$ev," || ev=instructions:u@emulated
count() { "$build/pmctool" stat -x, -e "$ev" -- "$@" 2>&1 | awk -F, -v e="$ev" '$3 == e {print $1}'; }
per() { echo $((($(count "$@" "$N2") - $(count "$@" "$N1")) / (N2 - N1))); }
echo "counted with $ev; counting ${PMCTOOL_REGIONS_EVENTS:-off} (PMCTOOL_REGIONS_EVENTS)"
c_loop=$(per "$work/cost" l) c_pair=$(per "$work/cost" p)
echo "C pair:                $((c_pair - c_loop)) instructions (loop iteration $c_loop)"
py_loop=$(per "${PYTHON:-python3}" "$work/cost.py" loop)
for m in reuse new; do
	echo "Python pair ($m):   $(($(per "${PYTHON:-python3}" "$work/cost.py" "$m") - py_loop)) instructions (loop iteration $py_loop)"
done
