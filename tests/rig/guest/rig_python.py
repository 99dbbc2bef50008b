# SPDX-License-Identifier: MIT
"""The rig's Python programs (issue 37): the package on the engine library, in the arm64 guest where counts are exact.

  rig_python.py stat PROG N     pmctool.stat([PROG, N], events=["instructions:u"]): the count, or its status and reason
  rig_python.py region N        a region around a Python loop of N additions: 'CALLS VALUE' of region_counts
  rig_python.py paircost N      what one empty pair costs the program: an outer region around N empty pairs, less
                                an outer region around the same loop without them, over N
  rig_python.py check quick|full  pmctool.check(): 'NAME VERDICT' per item, then 'overall VERDICT EXIT_STATUS'
"""
import gc
import sys

import pmctool


def main() -> int:
    mode, arg = sys.argv[1], sys.argv[-1]
    if mode == "stat":
        c = pmctool.stat([sys.argv[2], arg], events=["instructions:u"])["instructions:u"]
        print(int(c.value) if c.counted else f"{c.status}: {c.reason}")
    elif mode == "region":
        n = int(arg)
        # The cyclic collector runs when its allocation count says so, and what the start-up allocated before the
        # region varies with addresses that move run to run: collected and paused, it cannot run inside the region.
        gc.collect()
        gc.disable()
        with pmctool.region("loop"):
            s = 0
            for i in range(n):
                s += i
        calls, values = pmctool.region_counts("loop")
        print(calls, *values)
    elif mode == "paircost":
        n = int(arg)
        r = pmctool.region("pair")
        with pmctool.region("with-pairs"):
            for _ in range(n):
                with r:
                    pass
        with pmctool.region("without"):
            for _ in range(n):
                pass
        a, b = pmctool.region_counts("with-pairs")[1][0], pmctool.region_counts("without")[1][0]
        print((a - b) // n, a, b)
    elif mode == "check":
        t = pmctool.check(quick=arg == "quick")
        for it in t.items:
            print(it.name, it.verdict)
        print("overall", t.verdict, t.exit_status)
    else:
        print(f"rig_python.py: unknown mode {mode!r}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
