# pmctool check on the A57 (issue 25), sourced by the guest script after tests.sh (busybox sh, as root, in /rig).
# Under -icount shift=0 every item must be trustworthy with user-space reads on; with them off (perf_user_access=0) the
# read paths are degraded with that reason; without -icount (QEMU does not count instructions then) exactness is.

# check_items FILE: 'name verdict' per item of a check --json report (one item per line).
check_items() { sed -n 's/^{"name":"\([^"]*\)","title":"[^"]*","verdict":"\([a-z]*\)".*/\1 \2/p' "$1"; }
check_overall() { sed -n 's/.*"overall":{"verdict":"\([a-z]*\)".*/\1/p' "$1"; }
show_file() { [ -s "$1" ] && sed 's/^/    | /' "$1" | head -n "${2:-6}"; }
check_detail() { grep "^{\"name\":\"$2" "$1" | sed 's/.*"detail":"\([^"]*\)".*/\1/' | cut -c1-${3:-200}; }

t12_check() {
	echo 1 > /proc/sys/kernel/perf_user_access
	t0=$(cut -d' ' -f1 /proc/uptime)
	$P check --json > $W/check1.json 2> $W/check1.err; r1=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo 0 > /proc/sys/kernel/perf_user_access
	$P check --json > $W/check0.json 2> $W/check0.err; r0=$?
	items=$(check_items $W/check1.json | tr '\n' ' ')
	# uncore and energy are informational (issue 36): the A57 guest has neither PMU, so they are unavailable there.
	bad=$(check_items $W/check1.json | awk '$2 != "trustworthy" && $1 != "uncore" && $1 != "energy"' | tr '\n' ' ')
	n=$(check_items $W/check1.json | wc -l)
	[ "$r1" = 0 ] && [ "$n" -ge 7 ] && [ -z "$bad" ] && [ "$(check_overall $W/check1.json)" = trustworthy ]
	ok=$?
	verdict 12a check-trustworthy $ok "perf_user_access=1: exit $r1, $n items in $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }') s: $items${bad:+; not trustworthy: $bad}"
	[ $ok = 0 ] || { show_file $W/check1.json 20; show_file $W/check1.err; }
	# The exact item's numbers, for the note.
	pass "12b check-exact-detail: $(check_detail $W/check1.json exact: 300)"
	pass "12c check-read-paths-detail: $(check_detail $W/check1.json read-paths: 200); multiplex: $(check_detail $W/check1.json multiplex 200)"
	rp=$(check_items $W/check0.json | awk '$1 ~ /^read-paths/ { print $2 }')
	[ "$r0" = 10 ] && [ "$rp" = degraded ] && [ "$(check_overall $W/check0.json)" = degraded ] &&
		check_detail $W/check0.json read-paths: 400 | grep -q 'perf_user_access'
	ok=$?
	verdict 12d check-user-reads-off $ok "perf_user_access=0: exit $r0, read paths $rp: $(check_detail $W/check0.json read-paths: 240)"
	[ $ok = 0 ] || show_file $W/check0.json 20
}

t12_check_noicount() {
	echo 1 > /proc/sys/kernel/perf_user_access
	$P check --json > $W/checkn.json 2> $W/checkn.err; rn=$?
	ex=$(check_items $W/checkn.json | awk '$1 ~ /^exact/ { print $2 }')
	[ "$rn" = 10 ] && [ "$ex" = degraded ] && check_detail $W/checkn.json exact: 400 | grep -q 'instructions:u not counted'
	ok=$?
	verdict 12e check-no-icount $ok "no -icount: exit $rn, exact $ex: $(check_detail $W/checkn.json exact: 240)"
	[ $ok = 0 ] || { show_file $W/checkn.json 20; show_file $W/checkn.err; }
}

# --emulate (valgrind's lackey) against the PMU's instructions:u, to the instruction, on the yardstick loop program.
t12_emulate() {
	if [ ! -x /usr/bin/valgrind ]; then
		fail "12f emulate-vs-pmu: valgrind is not in the guest (the rig could not fetch valgrind:arm64; see its log)"
		return
	fi
	n=200000
	want=$(loop_expect $n)
	$P stat -x, -e instructions:u -- /rig/loop $n 2> $W/pmu.csv >/dev/null; rp=$?
	pmu=$(awk -F, '$3 == "instructions:u" { print $1 }' $W/pmu.csv)
	t0=$(cut -d' ' -f1 /proc/uptime)
	PATH=$PATH:/usr/bin $P stat -x, --emulate -- /rig/loop $n 2> $W/emu.csv >/dev/null; re=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	emu=$(awk -F, '$3 == "instructions:u@emulated" { print $1 }' $W/emu.csv)
	[ $rp = 0 ] && [ $re = 0 ] && [ "$pmu" = "$want" ] && [ "$emu" = "$want" ]
	ok=$?
	verdict 12f emulate-vs-pmu $ok "loop $n: PMU instructions:u $pmu, valgrind (lackey) $emu, expected $want (exits $rp $re; emulated run $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }') s of guest time)"
	[ $ok = 0 ] || { show_file $W/pmu.csv; show_file $W/emu.csv 12; }
}
