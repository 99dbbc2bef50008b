# The Python package in the guest (issue 37), sourced by the python boot's script: pmctool.stat and pmctool.region
# on the real PMU, through the engine library and libpmctool cross-built as shared libraries (rig.sh), with Debian's
# arm64 python3 from the rig's package cache. busybox sh and awk only.

# py ARGS...: rig_python.py with the package and the libraries found; a fixed hash seed keeps the interpreter's own
# work the same run to run.
py() {
	PYTHONPATH=/rig/python PYTHONHASHSEED=0 \
		LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu:/lib/aarch64-linux-gnu "$PYBIN" /rig/rig_python.py "$@"
}

t15_python() {
	PYBIN=$(ls /usr/bin/python3.* 2>/dev/null | head -n 1)
	if [ -z "$PYBIN" ]; then
		fail "15 python: no python3 in this guest (rig.sh says why on the host)"
		return
	fi
	# 15a: pmctool.stat of the loop program counts exactly what the yardstick counts.
	n=1000000
	v=$(py stat /rig/loop $n 2>$W/py-stat.err)
	[ "$v" = "$(loop_expect $n)" ]
	verdict 15a python-stat-exact $? "pmctool.stat(['loop', '$n'], events=['instructions:u']) = ${v:-$(head -c 200 $W/py-stat.err)} (yardstick $(loop_expect $n))"

	# 15b: a region around a Python loop of 20000 additions: the same count in three runs. The interpreter's work
	# depends on where its memory lands: with address randomization on, runs fall in two groups 1.5% apart
	# (7,769,238 and 7,888,410 here); with it off (this guest's setting, for these runs only; setarch -R does it for one
	# process) every run counts the same, to the instruction.
	aslr=$(cat /proc/sys/kernel/randomize_va_space)
	echo "python: with address randomization: $(PMCTOOL_REGIONS_EVENTS=instructions:u py region 20000 2>/dev/null | tr '\n' ' ')"
	echo 0 > /proc/sys/kernel/randomize_va_space
	r1=$(PMCTOOL_REGIONS_EVENTS=instructions:u PMCTOOL_REGIONS_OUT=$W/py-r1.json py region 20000 2>$W/py-r.err)
	r2=$(PMCTOOL_REGIONS_EVENTS=instructions:u PMCTOOL_REGIONS_OUT=$W/py-r2.json py region 20000 2>>$W/py-r.err)
	r3=$(PMCTOOL_REGIONS_EVENTS=instructions:u PMCTOOL_REGIONS_OUT=$W/py-r3.json py region 20000 2>>$W/py-r.err)
	echo "$aslr" > /proc/sys/kernel/randomize_va_space
	ok=1
	case "$r1" in "1 "[1-9]*) [ "$r1" = "$r2" ] && [ "$r1" = "$r3" ] && ok=0 ;; esac
	verdict 15b python-region-steady $ok "region around 20000 Python additions, 'calls instructions:u' in three runs without address randomization: '$r1' '$r2' '$r3' $(head -c 200 $W/py-r.err)"

	# 15c: what one pmctool.region pair costs a Python program, whole (two ctypes calls, the with statement, the
	# library's reads): an outer region around 5000 empty pairs, less one around the same loop without them.
	c=$(PMCTOOL_REGIONS_EVENTS=instructions:u PMCTOOL_REGIONS_OUT=$W/py-c.json py paircost 5000 2>$W/py-c.err)
	cost=${c%% *}
	echo "python: pair cost, with pairs, without: $c"
	ok=1
	case "$cost" in [1-9]*) [ "$cost" -gt 98 ] && [ "$cost" -lt "$PY_PAIR_LIMIT" ] && ok=0 ;; esac
	verdict 15c python-region-pair-cost $ok "one pmctool.region pair from Python: ${cost:-?} instructions:u (the C pair: under 100; limit $PY_PAIR_LIMIT) $(head -c 200 $W/py-c.err)"
	t15_python_check
}
# 15d: pmctool.check() through the engine library judges what `pmctool check` judges, item for item, on the real PMU
# with user-space reads on: every item trustworthy (uncore and energy are informational: this guest has neither PMU,
# and both runners say so in the same words). The launched loop's items fork the loop kernel: no pmctool on PATH.
t15_python_check() {
	echo 1 > /proc/sys/kernel/perf_user_access
	PATH=/usr/bin:/bin py check full > $W/py-check.txt 2> $W/py-check.err
	$P check --json > $W/check-q.json 2> $W/check-q.err; rc=$?
	echo 0 > /proc/sys/kernel/perf_user_access
	want=$(check_items $W/check-q.json | tr '\n' ' ')
	got=$(grep -v '^overall ' $W/py-check.txt | tr '\n' ' ')
	overall=$(sed -n 's/^overall //p' $W/py-check.txt)
	bad=$(grep -v '^overall ' $W/py-check.txt | awk '$2 != "trustworthy" && $1 != "uncore" && $1 != "energy"' | tr '\n' ' ')
	[ "$rc" = 0 ] && [ -n "$got" ] && [ "$got" = "$want" ] && [ -z "$bad" ] && [ "$overall" = "trustworthy 0" ]
	verdict 15d python-check $? "pmctool.check(): ${got:-$(head -c 200 $W/py-check.err)} overall '$overall'; pmctool check (exit $rc): $want"
}
# 8124 measured (2026-11-29): two ctypes calls dominate; the library's own part is the C pair's 98.
PY_PAIR_LIMIT=12000
