#!/bin/bash
# Where a PMU exists: instructions retired over 1e8 iterations of fma, read in-process, within 0.1% of the declared
# count. Skipped (77) where hardware events cannot be opened, as in a VM without a virtual PMU.
. "$PMC_SOURCE_DIR/tests/lib.sh"
PROBE="${PMC_BUILD_DIR:?}/tests/kernels/kernel_probe"
has_hw_pmu || skip "no hardware PMU (/sys/bus/event_source/devices/cpu is absent): instructions cannot be counted"
set +e
"$PROBE" hw fma 100000000
rc=$?
set -e
[ "$rc" -eq 77 ] && skip "instructions could not be counted here"
[ "$rc" -eq 0 ] || fail "fma: instructions retired differ from the declared count by more than 0.1%"
for k in empty loop branch flops-dp-128; do
	"$PROBE" hw "$k" 10000000 || fail "$k: instructions retired differ from the declared count by more than 0.1%"
done
