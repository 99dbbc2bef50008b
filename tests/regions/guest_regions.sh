# Regions in the arm64 rig's guest (tests/rig: QEMU TCG with -icount, a real armv8 PMU, exact user-mode instruction
# counts). Sourced by the rig's guest/tests.sh, which gives pass/fail; runs as t_regions. It needs in /rig the static
# aarch64 builds of pmctool, tests/regions/prog/rg-prog and tests/regions/prog/region_cost (ninja -C build-aarch64
# pmctool tests/regions/prog/rg-prog tests/regions/prog/region_cost, with -Dstatic=true). busybox sh and awk only.
#
# What it proves: the program reads its counters in process (mrs PMEVCNTR<n>_EL0 at perf_user_access=1) and with
# read(2) at 0; instructions:u per region are exact (the difference of two trip counts is the same for the next two);
# the empty enter/leave pair's exact instruction cost with 4 counters (region_cost), which must stay below its target
# of 100. t_regions runs in the one-CPU guest: QEMU's user-mode counts are exact there, while with two vCPUs they drift
# now and then (a read(2) body once came out 2024 high). t_regions_threads: 4 threads' counts of the same region body
# are multiples of one entry's, exactly on one CPU and within 1% with two.
# t_regions_slots (the shift=1 guest): 4 and 5 counters of one pair, each read into its own column.
command -v pass >/dev/null 2>&1 || pass() { echo "RIG-TEST PASS $*"; }
command -v fail >/dev/null 2>&1 || fail() { echo "RIG-TEST FAIL $*"; }

# rg_csv OUT ARGS...: pmctool stat --regions --csv with ARGS into OUT (stderr into OUT.err); status as pmctool's.
rg_csv() { out=$1; shift; /rig/pmctool stat --regions --csv -o "$out" "$@" 2>"$out.err"; }
# rg_value CSV REGION THREAD EVENT: a region's count; rg_calls CSV REGION THREAD: its calls. Columns are found by
# the header's names (record, event, value, region, thread, calls).
rg_awk='NR == 1 { sub(/\r$/, ""); for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ sub(/\r$/, "") } $col["record"] == "region" && $col["region"] == r && $col["thread"] == t'
rg_value() { awk -F, -v r="$2" -v t="$3" -v e="$4" "$rg_awk"' && $col["event"] == e { print $col["value"]; exit }' "$1"; }
rg_calls() { awk -F, -v r="$2" -v t="$3" "$rg_awk"' { print $col["calls"] + 0; exit }' "$1"; }

t_regions() {
	W=${W:-/tmp}
	echo 1 > /proc/sys/kernel/perf_user_access 2>/dev/null
	# Exact per-region instructions: body(N) = a + b*N, so body(2000)-body(1000) == body(3000)-body(2000).
	for n in 1000 2000 3000; do
		rg_csv $W/rg$n.csv -e instructions:u,cycles:u -- /rig/rg-prog trips $n || { fail "regions trips $n: exit $?"; return; }
	done
	i1=$(rg_value $W/rg1000.csv body all instructions:u); i2=$(rg_value $W/rg2000.csv body all instructions:u)
	i3=$(rg_value $W/rg3000.csv body all instructions:u)
	if [ -n "$i1" ] && [ $((i2 - i1)) -eq $((i3 - i2)) ] && [ $((i2 - i1)) -gt 0 ]; then
		pass "regions exact: body instructions:u $i1 $i2 $i3, $((i2 - i1)) per 1000 marker calls"
	else
		fail "regions exact: body instructions:u '$i1' '$i2' '$i3' (differences must be equal)"
	fi
	grep -q '^check,regions-read,.*in process' $W/rg1000.csv && pass "regions read in process at perf_user_access=1" ||
		fail "regions not read in process at perf_user_access=1: $(grep '^check,regions-read' $W/rg1000.csv)"
	# read(2) at perf_user_access=0: the same exact growth per trip (the constant differs: with read(2) the markers'
	# own user-mode instructions between the two counter reads are fewer).
	echo 0 > /proc/sys/kernel/perf_user_access
	rg_csv $W/rg0a.csv -e instructions:u -- /rig/rg-prog trips 1000
	rg_csv $W/rg0b.csv -e instructions:u -- /rig/rg-prog trips 2000
	v1=$(rg_value $W/rg0a.csv body all instructions:u); v2=$(rg_value $W/rg0b.csv body all instructions:u)
	grep -q '^check,regions-read,.*read(2)' $W/rg0a.csv && [ -n "$v1" ] && [ $((v2 - v1)) -eq $((i2 - i1)) ] &&
		pass "regions at perf_user_access=0: read(2), body $v1 $v2, $((v2 - v1)) per 1000 calls as in process" ||
		fail "regions at perf_user_access=0: body '$v1' '$v2' (growth must be $((i2 - i1)))"
	echo 1 > /proc/sys/kernel/perf_user_access
	# The empty pair with 4 counters, exact: the library's own counts over two trip counts (region_cost).
	# QEMU's PMU counts INST_RETIRED and CPU_CYCLES only: the kernel refuses branches and branch-misses (not in its
	# PMCEID), so region_cost's default would count with 2 counters. Four that open: each twice.
	PMCTOOL_REGIONS_EVENTS=instructions:u,cycles:u,instructions:u,cycles:u /rig/region_cost > $W/rc.json 2>$W/rc.err ||
		{ fail "region_cost: $(head -c 200 $W/rc.err)"; return; }
	pi=$(sed -n 's/.*"pair_counts":\[\([0-9.]*\),\([0-9.]*\),.*/\1/p' $W/rc.json)
	pc=$(sed -n 's/.*"pair_counts":\[\([0-9.]*\),\([0-9.]*\),.*/\2/p' $W/rc.json)
	echo "regions: empty enter/leave pair with 4 counters: $pi instructions, $pc cycles (target < 100 instructions)"
	echo "regions: region_cost: $(cat $W/rc.json)"
	# The target (issue 13): below 100 instructions, exact here; a change that costs more fails.
	[ -n "$pi" ] && awk -v p="$pi" 'BEGIN { exit !(p > 0 && p < 100) }' &&
		pass "regions pair cost measured: $pi instructions:u (target < 100), $(sed -n 's/.*"read":"\([^"]*\)".*/\1/p' $W/rc.json)" ||
		fail "region_cost: pair cost '$pi' instructions:u, the target is < 100: $(cat $W/rc.json)"
}

# Each counter of a pair lands in its own column: with -icount shift=S every instruction is 2^S cycles, so in region_cost
# a cycles:u column must read 2^S times an instructions:u one, per pair (the one-CPU shift=1 guest runs it, where
# cycles and instructions differ: a slot that read another's counter shows here). Three layouts of the counters:
# instructions first (the cycle counter in slot 1) and cycles first (slot 0), each read by the copy specialized for its
# layout (one mrs per counter, arch/aarch64/arch_inline.h); 5 counters, more than those copies take, read through
# the chain of stubs; and an event QEMU's PMU refuses (branches) among three that open: the copy for events that did
# not all open, each counter through its reader stub, the refused column 0.
# slots EVENTS PATTERN [PROG]: PATTERN is each column's multiple of x in letters, i for x, c for x * 2^S, 0 for none;
# PROG region_cost (the library as users link it) or region_apart (its pages moved apart: the copies for pages that are
# not side by side, which 64 KiB pages take).
slots() {
	prog=${3:-region_cost}
	PMCTOOL_REGIONS_OUT=/dev/null PMCTOOL_REGIONS_EVENTS=$1 /rig/$prog > $W/rs.json 2>$W/rs.err ||
		{ fail "$prog (slots $2): $(head -c 200 $W/rs.err)"; return; }
	v=$(sed -n 's/.*"pair_counts":\[\([0-9.,]*\)\].*/\1/p' $W/rs.json)
	echo "regions: pair counts of $1 at -icount shift=$shift_ ($prog): $v ($(sed -n 's/.*"read":"\([^"]*\)".*/\1/p' $W/rs.json))"
	echo "$v" | awk -F, -v m=$((1 << shift_)) -v pat="$2" '
		function abs(x) { return x < 0 ? -x : x }
		{ x = substr(pat, 1, 1) == "c" ? $1 / m : $1; d = 0
		  for (k = 1; k <= NF; k++) { l = substr(pat, k, 1); d += abs($k - (l == "c" ? m : l == "0" ? 0 : 1) * x) } }
		END { exit !(NF == length(pat) && x > 0 && d < 0.01 * m) }' && grep -q '"read":"in process"' $W/rs.json &&
		pass "regions $(echo "$1" | tr -cd , | wc -c | awk '{ print $1 + 1 }') counters each in its slot ($2${3:+, $3}): pair $v at shift=$shift_" ||
		fail "regions counters' slots: pair counts $v of $1 at shift=$shift_ (expected the pattern $2, c = i x $((1 << shift_)), in process)"
}

t_regions_slots() {
	W=${W:-/tmp}
	echo 1 > /proc/sys/kernel/perf_user_access 2>/dev/null
	shift_=$(cat /rig/icount-shift 2>/dev/null || echo 0)
	slots instructions:u,cycles:u,instructions:u,cycles:u icic
	slots cycles:u,instructions:u,cycles:u,instructions:u cici
	slots instructions:u,cycles:u,instructions:u,cycles:u,instructions:u icici
	slots instructions:u,branches:u,cycles:u,instructions:u i0ci
	slots instructions:u,cycles:u,instructions:u,cycles:u icic region_apart
}

t_regions_threads() {
	W=${W:-/tmp}
	echo 1 > /proc/sys/kernel/perf_user_access 2>/dev/null
	ncpu=$(grep -c ^processor /proc/cpuinfo)
	# Thread k enters "work" k+1 times with the same body: its count is (k+1) x one entry's (exact on one CPU; two
	# vCPUs' counts drift, so there within 1%, as the rig's other two-CPU tests).
	rg_csv $W/rgt.csv -e instructions:u -- /rig/rg-prog threads 4 || { fail "regions threads: exit $?"; return; }
	all=$(rg_value $W/rgt.csv work all instructions:u); calls=$(rg_calls $W/rgt.csv work all)
	ok=1; e=$((all / 10)); sum=0
	[ "$calls" = 10 ] || ok=0
	[ "$ncpu" -gt 1 ] || [ $((e * 10)) -eq "$all" ] || ok=0
	for t in 1 2 3 4; do
		v=$(rg_value $W/rgt.csv work $t instructions:u); c=$(rg_calls $W/rgt.csv work $t)
		[ -n "$v" ] && [ -n "$c" ] || { ok=0; continue; }
		sum=$((sum + v)); want=$((c * e))
		if [ "$ncpu" -gt 1 ]; then
			d=$((v > want ? v - want : want - v))
			[ $((d * 100)) -le "$want" ] || ok=0
		else
			[ "$v" -eq "$want" ] || ok=0
		fi
	done
	[ "$sum" -eq "$all" ] || ok=0
	[ $ok = 1 ] && pass "regions threads on $ncpu CPU(s): work = 10 calls, $all instructions:u = the threads' sum, each thread its calls x $e$([ "$ncpu" -gt 1 ] && echo ' within 1%')" ||
		fail "regions threads on $ncpu CPU(s): work $all in $calls calls, threads' sum $sum; per thread not its calls x $e (see $W/rgt.csv)"
}
