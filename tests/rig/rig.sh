#!/usr/bin/env bash
# The arm64 QEMU rig (issue 10): pmctool's hardware paths tested against a real armv8 PMU, in an arm64 Linux guest under
# QEMU's TCG emulator with -icount (exact, repeatable user-mode instruction counts; REFERENCE.md section 11).
#
#   tests/rig/rig.sh            (meson test -C build --suite rig runs it)
#
# It installs what it needs when missing (setup.sh's package list; the guest kernel and busybox-static are fetched once
# into ~/.cache/pmctool-rig), cross-builds the static aarch64 pmctool and the guest programs (guest/), boots its
# guests (1 CPU at -icount shift=0, 1 CPU at shift=1 for the IPC check, 2 CPUs for --cpu, one with python3 for the
# Python package) and runs guest/tests.sh in them, as root and as an unprivileged user at perf_event_paranoid 2 and 3. It prints each result and ends with the
# line 'N passed, N failed'. Exit: 0 all passed; 1 a test failed, a guest did not boot, panicked, timed out or stopped
# before its end marker, or a build failed; 77 (skipped) only when its packages cannot be installed here.
# Environment: RIG_WORK (build directory; default $PMC_BUILD_DIR/rig, else build-rig/ in the source tree),
# RIG_TESTS='t1_info t3_batches' to run only some groups (a partial run never passes as the whole rig).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${PMC_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
. "$here/lib.sh"

t_start=$(date +%s.%N)
elapsed() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

if ! rig_install "$src"; then
	echo "rig: SKIP: cannot install $RIG_MISSING(needs root or sudo and Debian's archive, with the arm64 architecture)"
	exit 77
fi
if ! rig_guest_parts; then
	echo "rig: SKIP: cannot fetch the arm64 guest kernel and busybox-static with apt-get download (see above)"
	exit 77
fi

work=${RIG_WORK:-${PMC_BUILD_DIR:+$PMC_BUILD_DIR/rig}}
work=${work:-$src/build-rig}
mkdir -p "$work" || exit 1
# A build step failed: the rig cannot test anything, which is a failure, not a skip.
die() { echo "rig: FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }

# The static aarch64 pmctool, exactly as a user cross-builds it (README, issue 10 part 1).
cross=$src/cross/aarch64-linux-gnu.txt
[ -f "$cross" ] || die "no cross file $cross: the aarch64 port is not in this tree"
t_build=$(date +%s.%N)
if [ ! -f "$work/build-aarch64/build.ninja" ]; then
	meson setup "$work/build-aarch64" "$src" --cross-file "$cross" -Dstatic=true > "$work/meson-setup.log" 2>&1 ||
		{ cat "$work/meson-setup.log"; die "meson setup of the aarch64 cross build"; }
fi
# With the region test's programs (tests/regions/prog: rg-prog, region_cost, region_apart, static like pmctool).
if ! ninja -C "$work/build-aarch64" -j2 pmctool tests/regions/prog/rg-prog tests/regions/prog/region_cost \
	tests/regions/prog/region_apart \
	> "$work/ninja.log" 2>&1; then
	tail -n 40 "$work/ninja.log"
	die "the aarch64 cross build of pmctool"
fi
pm=$work/build-aarch64/pmctool
readelf -h "$pm" 2>/dev/null | grep -q 'Machine:.*AArch64' || die "$pm is not an aarch64 executable"
readelf -l "$pm" | grep -q 'Requesting program interpreter' && die "$pm is not static (-Dstatic=true): the guest has no libc"

# The guest's files: pmctool, its event sets, the test programs (static, no libc for loop) and the tests.
guest=$work/guest
rm -rf "$guest" && mkdir -p "$guest" || exit 1
cc=aarch64-linux-gnu-gcc
if ! { $cc -static -nostdlib -o "$guest/loop" "$here/guest/loop.S" &&
	$cc -std=c17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -static -o "$guest/runas" "$here/guest/runas.c" &&
	$cc -std=c17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -static -o "$guest/pcount" "$here/guest/pcount.c" &&
	$cc -std=c17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -static -pthread -o "$guest/threads2" "$here/guest/threads2.c"; }; then
	die "cross-compiling the guest programs"
fi
cp "$pm" "$guest/pmctool" && cp -r "$src/events" "$guest/events" && cp "$here/guest/tests.sh" "$guest/" || exit 1
# Regions (issue 13): the marked test program, the cost benchmark and their guest test (t_regions).
cp "$work/build-aarch64/tests/regions/prog/rg-prog" "$work/build-aarch64/tests/regions/prog/region_cost" \
	"$work/build-aarch64/tests/regions/prog/region_apart" "$src/tests/regions/guest_regions.sh" "$guest/" || exit 1
# Top-down (issue 27): the A57's tree with what QEMU does not count n/a (t11_topdown).
cp "$here/guest/topdown.sh" "$guest/" || exit 1
cp -r "$here/tables" "$guest/tables" || exit 1 # issue 23: the A57's vendor table fixture (t12_tables)
# The trust check (issue 25): its verdicts on a real PMU (t12_check), and without -icount (t12_check_noicount).
cp "$here/guest/check.sh" "$guest/" || exit 1
# pmctool's own instructions, user and kernel, against their limits (issue 39 item 3b; t14_own_cost).
cp "$src/bench/own_cost_rig.sh" "$guest/" || exit 1
# --emulate against the real PMU (t12_emulate): valgrind (its launcher, lackey, the core preload) and the C library its
# launcher needs, at their own paths (boot.sh puts guest/sysroot at the guest's /). Fetched once, like the kernel.
if rig_fetch_deb valgrind:arm64 valgrind-lib usr/libexec/valgrind && rig_fetch_deb valgrind:arm64 valgrind-bin usr/bin &&
	rig_fetch_deb libc6:arm64 libc6 lib/aarch64-linux-gnu; then
	s=$guest/sysroot
	mkdir -p "$s/usr/bin" "$s/usr/libexec/valgrind" "$s/lib/aarch64-linux-gnu" &&
		cp "$RIG_CACHE"/valgrind-bin/usr/bin/valgrind "$RIG_CACHE"/valgrind-bin/usr/bin/valgrind.bin "$s/usr/bin/" &&
		cp "$RIG_CACHE"/valgrind-lib/usr/libexec/valgrind/{lackey-arm64-linux,vgpreload_core-arm64-linux.so,default.supp} \
			"$s/usr/libexec/valgrind/" &&
		cp "$RIG_CACHE"/libc6/lib/aarch64-linux-gnu/{ld-linux-aarch64.so.1,libc.so.6} "$s/lib/aarch64-linux-gnu/" &&
		ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$s/lib/ld-linux-aarch64.so.1" || exit 1
else
	echo "rig: note: valgrind:arm64 or libc6:arm64 could not be fetched: t12_emulate says so"
fi
# Metrics from a vendor table (issue 23 item 2): the fixture tables and their guest test (t13_table_metrics).
cp "$here/guest/tmetrics.sh" "$guest/" && cp -r "$src/tests/metrics/tables/pmu-events" "$guest/tmetrics-tables" || exit 1
# Python (issue 37, t15_python): a guest of its own with python3, the package and the shared libraries.
cp "$here/guest/python.sh" "$guest/" || exit 1
. "$here/python_guest.sh"
pyguest=$work/guest-python
if ! why=$(rig_python_guest "$src" "$work" "$guest" "$pyguest"); then
	echo "rig: note: no Python guest: $why (t15_python says so)"
	pyguest=$guest
fi
echo "rig: built the static aarch64 pmctool and the guest programs in $(elapsed "$t_build") s"

results=$work/results.txt
: > "$results"
# boot NAME SMP SHIFT TIMEOUT GROUPS...: one guest; its RIG-TEST lines go to $results, a failed boot counts as a failure.
boot() {
	local name=$1 smp=$2 shift_=$3 limit=$4 t rc script=$work/guest-$1.sh log=$work/console-$1.log
	shift 4
	local groups=("$@")
	if [ -n "${RIG_TESTS:-}" ]; then
		groups=()
		for t in "$@"; do case " $RIG_TESTS " in *" $t "*) groups+=("$t") ;; esac; done
		[ ${#groups[@]} -gt 0 ] || return 0
	fi
	echo "$shift_" > "${RIG_GUEST:-$guest}/icount-shift"
	{
		echo ". /rig/tests.sh"
		echo ". /rig/guest_regions.sh"
		echo ". /rig/topdown.sh"
		echo ". /rig/check.sh"
		echo ". /rig/tmetrics.sh"
		echo ". /rig/own_cost_rig.sh"
		echo ". /rig/python.sh"
		for t in "${groups[@]}"; do echo "$t; echo RIG-GROUP-DONE $t"; done
	} > "$script"
	echo "rig: boot $name (-smp $smp, -icount shift=$shift_): ${groups[*]}"
	"$here/boot.sh" --smp "$smp" --shift "$shift_" --timeout "$limit" --log "$log" "${RIG_GUEST:-$guest}" "$script"
	rc=$?
	grep -a '^RIG-TEST ' "$log" | sed "s/^RIG-TEST \([A-Z]*\) /\1 [$name] /" >> "$results"
	if [ "$rc" -ne 0 ]; then
		echo "FAIL [$name] boot: the guest did not finish (boot.sh status $rc; console in $log)" >> "$results"
		return
	fi
	for t in "${groups[@]}"; do
		grep -aq "^RIG-GROUP-DONE $t\$" "$log" || echo "FAIL [$name] $t: did not finish" >> "$results"
	done
}

boot smp1-shift0 1 0 420 t0_yardstick t1_info t2_command t3_batches t3_sysfs t4_multiplex t5_kernels t5_ipc t5_ipc_modes \
	t6_user_reads t7_privilege t8_sigint t9_per_thread t10_files t_regions t_regions_threads t11_topdown t11_topdown_scopes
# The vendor tables' names and metrics in the guest (issue 23), a boot of their own: the first boot is long enough.
boot smp1-tables 1 0 240 t12_tables t13_table_metrics t14_own_cost
# pmctool check's own boot: its exact counts and its multiplexed loop (about 10 s of guest time) apart from the rest.
boot smp1-check 1 0 300 t12_check t12_emulate
boot smp1-shift1 1 1 120 t0_yardstick t5_ipc t_regions_slots
# The Python package (issue 37) in a guest that has python3.
RIG_GUEST=$pyguest boot smp1-python 1 0 240 t15_python
boot smp2 2 0 240 t9_cpu t9_scopes t_regions_threads
boot smp1-noicount 1 none 120 t12_check_noicount

echo
echo "rig: results (details above; console logs in $work):"
cat "$results"
passed=$(grep -c '^PASS' "$results")
failed=$(grep -c '^FAIL' "$results")
[ -n "${RIG_TESTS:-}" ] && echo "rig: only $RIG_TESTS (RIG_TESTS set): not the whole rig"
echo "rig: total $(elapsed "$t_start") s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
