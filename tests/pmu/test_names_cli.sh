#!/usr/bin/env bash
# perf's language end to end: list, --names, completion and -e take the same names; groups, modifiers, tracepoints,
# forced PMUs and event-set notes as a user meets them; encode's perf spelling is one perf itself parses.
source "$PMC_SOURCE_DIR/tests/lib.sh"
export PMCTOOL_TRACEFS="$PMC_SOURCE_DIR/tests/pmu/tracefs"

# 1. Every name --names prints resolves with -e (encode resolves as stat does), and completion offers it.
"$PMCTOOL" list --names >"$TMP/names" || fail "list --names"
for n in cs faults alignment-faults emulation-faults bus-cycles stalled-cycles-frontend stalled-cycles-backend \
	L1-dcache-load-misses LLC-loads dTLB-store-misses iTLB-load-misses branch-loads sched:sched_switch; do
	grep -qx -- "$n" "$TMP/names" || fail "list --names lacks $n"
done
# the non-libpfm4 names all, and every 25th libpfm4 name (the whole table takes a minute under ASan)
awk '/[:\/.-]|^[a-z]/ || NR % 25 == 0' "$TMP/names" | grep -v '^$' >"$TMP/sample"
mapfile -t sample <"$TMP/sample"
[ "${#sample[@]}" -gt 60 ] || fail "too few names sampled (${#sample[@]})"
run_pmc encode "${sample[@]}"
expect_rc 0 "every sampled name of list --names resolves (-e's resolver)"
# list finds each by its own spelling
for n in cs L1-dcache-load-misses sched:sched_waking; do
	"$PMCTOOL" list "$n" | grep -q -- "$n" || fail "list '$n' does not find it"
done
# completion offers them after -e
source "$PMC_SOURCE_DIR/completion/pmctool"
for n in L1-dcache-load-misses cs sched:sched_switch; do
	COMP_WORDS=("$PMCTOOL" stat -e "${n%?}"); COMP_CWORD=3; COMP_WORDBREAKS=' '
	_pmctool || true
	printf '%s\n' "${COMPREPLY[@]}" | grep -qx -- "$n" || fail "completion of '${n%?}' lacks $n"
done
ok "list --names, list, completion and -e agree on generic names, aliases, cache events and tracepoints"

# 2. list patterns in any spelling
LIBPFM_FORCE_PMU=hsw run_pmc list 'UOPS_ISSUED:ANY'
expect_out "UOPS_ISSUED " "list UOPS_ISSUED:ANY finds the event"
LIBPFM_FORCE_PMU=hsw run_pmc list uops_issued.any
expect_out "UOPS_ISSUED " "list uops_issued.any finds the event"
run_pmc list 'sched:*'
expect_out "sched:sched_switch" "list sched:* lists the tracepoints"
ok "list patterns in libpfm4, test-bench and tracepoint spellings"

# 3. an unknown forced PMU is an error with the nearest names, in every command
for cmd in "stat --dry-run -e cycles true" "list" "encode cycles" "sets" "info"; do
	# shellcheck disable=SC2086
	LIBPFM_FORCE_PMU=zen3 run_pmc $cmd
	expect_rc 2 "LIBPFM_FORCE_PMU=zen3 $cmd"
	expect_err "no PMU named 'zen3'; nearest: 'amd64_fam19h_zen3'" "LIBPFM_FORCE_PMU=zen3 $cmd names the nearest"
done
run_pmc encode --pmu adl_nonsense cycles
expect_rc 2 "encode --pmu unknown"
run_pmc list --pmu zen3
expect_rc 2 "list --pmu zen3"
expect_err "amd64_fam19h_zen3" "list --pmu zen3 names the nearest"
ok "unknown LIBPFM_FORCE_PMU / --pmu: exit 2 naming the nearest PMUs"

# 4. a forced PMU that is not this CPU's is warned about (where libpfm4 detects another)
env -u LIBPFM_FORCE_PMU "$PMCTOOL" stat --dry-run -e cycles true >"$TMP/plain" 2>&1 || true
if grep -q "on PMU (none)" "$TMP/plain" || grep -q "on PMU hsw" "$TMP/plain"; then
	echo "no other libpfm4 PMU detected here: forced-PMU warning not checked"
else
	LIBPFM_FORCE_PMU=hsw run_pmc stat --dry-run -e cycles true
	expect_out "warning: LIBPFM_FORCE_PMU=hsw encodes the events for that PMU, but this CPU's is" "forced PMU warned"
fi

# 5. groups: kept whole, too large refused before running, weak split with a note; modifiers' notes
run_pmc stat --dry-run --counters 2 -e '{cycles,instructions,branches}' true
expect_rc 2 "a group of 3 on 2 counters"
expect_err "needs 3 programmable counters; a batch has 2" "the group error names both numbers"
run_pmc stat --dry-run --counters 2 -e '{cycles,instructions,branches}:W,cycles:pp' true
expect_rc 0 "a weak group of 3 on 2 counters"
expect_out "note: a weak group" "the split weak group is noted"
expect_out "'cycles:pp': precise level" "the ignored precision is noted"
run_pmc stat --dry-run --counters 3 --no-anchors -e 'branches,{branch-misses,cache-misses,cache-references}:u' true
expect_rc 0 "a group that fits"
awk '/batch 2:/,0' "$TMP/out" | grep -c "(group 1)" | grep -qx 3 || fail "the group's 3 events share batch 2"
# a group that fits alone but not next to the anchors that two batches add (no fixed counters assumed: --counters
# plans the generic events as programmable on any PMU without Intel fixed counters)
if ! "$PMCTOOL" stat --dry-run -e cycles true | grep -q "fixed counters"; then
	grp='branches,branch-misses,cache-misses,cache-references,{bus-cycles,stalled-cycles-frontend,stalled-cycles-backend,L1-dcache-loads}'
	run_pmc stat --dry-run --counters 4 -e "$grp" true
	expect_rc 2 "a group of 4 next to 2 programmable anchors on 4 counters"
	expect_err "not next to the events counted in every batch.*--no-anchors" "the anchors' share is named"
	run_pmc stat --dry-run --counters 4 --no-anchors -e "$grp" true
	expect_rc 0 "the same group without anchors"
fi
# breakpoints and software events group for real; :xu and :X are perf's spellings
run_pmc stat -x, -e '{cs,task-clock,mem:0x401136:xu}:u,mem:0x401136:X' -- true
expect_rc 0 "a group with a user-only breakpoint is counted"
# (0: the address is not in true's code; <not counted> where breakpoints never fire)
expect_err "^(0|<not counted>),,mem:0x401136:xu," "the breakpoint is reported by its name"
ok "groups and modifiers"

# 6. event sets' notes, and a set with nothing to count on the CPU
LIBPFM_FORCE_PMU=hsw run_pmc stat -g flops --dry-run true
expect_rc 2 "-g flops on Haswell has nothing to count"
expect_err "Haswell has no floating-point arithmetic event" "the variant's note says why"
LIBPFM_FORCE_PMU=hsw run_pmc stat -g smt --dry-run true
expect_rc 0 "-g smt --dry-run plans without SMT here"
expect_out "note: Event spellings ending in @sibling0" "the set's notes come with the plan"
ok "event-set notes reach the user"

# 7. tracepoints counted for real: through the system's tracefs where it is mounted (most distributions mount it),
# else where tracefs can be mounted in a private mount namespace (root); the host's mounts are never changed.
real_tracefs=
if [ -r /sys/kernel/tracing/available_events ]; then
	real_tracefs=mounted
elif [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	real_tracefs=private
fi
if [ -n "$real_tracefs" ]; then
	mnt=true
	[ $real_tracefs = private ] && mnt="mount -t tracefs nodev /sys/kernel/tracing"
	unshare_or_not=(bash -c)
	[ $real_tracefs = private ] && unshare_or_not=(unshare -m bash -c)
	"${unshare_or_not[@]}" "$mnt && env -u PMCTOOL_TRACEFS '$PMCTOOL' stat -x, \
		-e sched:sched_switch,syscalls:sys_enter_write -- sh -c 'echo hi'" >"$TMP/out" 2>"$TMP/err" ||
		fail "tracepoints by name ($real_tracefs tracefs): $(cat "$TMP/err")"
	grep -qE '^[1-9][0-9]*,.*syscalls:sys_enter_write' "$TMP/err" "$TMP/out" ||
		fail "syscalls:sys_enter_write counted the echo's write: $(cat "$TMP/err" "$TMP/out")"
	ok "named tracepoints counted through a real tracefs"
else
	echo "not root or no unshare: real tracefs not checked (the fixture tracefs was)"
fi

# 8. encode's perf spelling is one perf parses (where perf is installed); cpu/ spellings need a cpu PMU here
if command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1; then
	n=0
	for spec in cycles instructions:u cs L1-dcache-load-misses LLC-store-misses:k 'mem:0x401136:xu' msr/tsc/ \
		task-clock:D 'uops_issued.any<1' UOPS_ISSUED:ANY:u r53010e dTLB-load-misses:uk; do
		sp=$(LIBPFM_FORCE_PMU=hsw "$PMCTOOL" encode "$spec" | awk '$1 == "perf" { print $2 }')
		[ -n "$sp" ] || fail "encode '$spec' printed no perf spelling"
		case $sp in cpu/*) has_hw_pmu || continue ;; esac
		[[ $sp == msr/* && ! -d /sys/bus/event_source/devices/msr ]] && continue
		perf stat -e "$sp" true >/dev/null 2>"$TMP/perf" || true
		if grep -qE "event syntax error|Invalid event|Unknown event|unknown term" "$TMP/perf"; then
			fail "perf rejects encode's spelling '$sp' of '$spec': $(head -3 "$TMP/perf")"
		fi
		n=$((n + 1))
	done
	ok "perf parses encode's spelling of $n events"
else
	echo "perf not installed (or not usable): perf's parse of encode spellings not checked"
fi

# 9. completion: perf's modifiers after a name and ':', --batch values, encode's arguments
source "$PMC_SOURCE_DIR/completion/pmctool"
complete_words() { COMP_WORDS=("$PMCTOOL" "$@"); COMP_CWORD=$(($# )); COMP_WORDBREAKS=' '; _pmctool || true; }
complete_words stat -e cycles:p
printf '%s\n' "${COMPREPLY[@]}" | grep -qx "cycles:pp" || fail "completion of cycles:p lacks cycles:pp (${COMPREPLY[*]})"
complete_words stat --batch ""
printf '%s\n' "${COMPREPLY[@]}" | grep -qx "multiplex" || fail "completion after --batch lacks multiplex"
complete_words encode L1-dcache-load-m
printf '%s\n' "${COMPREPLY[@]}" | grep -qx "L1-dcache-load-misses" || fail "encode's arguments are not completed"
ok "completion of modifiers, --batch and encode's events"

# 10. messages that name the real problem and the fix
LIBPFM_FORCE_PMU=hsw run_pmc encode UOPS_ISSUED:ANY:e=1
expect_rc 2 "edge without cmask"
expect_err "edge detect \(e=1\) needs a counter mask: add :c=1" "UOPS_ISSUED:ANY:e=1 says edge needs a cmask"
LIBPFM_FORCE_PMU=hsw run_pmc decode --pmu hsw r5701c2
expect_rc 1 "decode of edge without cmask finds nothing"
expect_err "edge detect \(bit 18\) with no counter mask" "decode says why nothing encodes to it"
run_pmc encode --pmu amd64_fam19h_zen3 UOPS_ISSUED:ANY
expect_rc 2 "an hsw event under --pmu amd64_fam19h_zen3"
expect_err "'UOPS_ISSUED:ANY' is not an event of PMU amd64_fam19h_zen3" "the searched PMU is named"
grep -q "did you mean 'UOPS_ISSUED:ANY'" "$TMP/err" && fail "the input is suggested back"
LIBPFM_FORCE_PMU=hsw run_pmc encode perf::cycles perf::PERF_COUNT_HW_INSTRUCTIONS
expect_rc 0 "perf:: names under a forced PMU"
run_pmc encode "$(printf 'cyc\xe2\x80\x93les')"
expect_err "character 4 is not ASCII" "a non-ASCII name is called that"
printf '#!/nonexistent/interpreter\n' >"$TMP/script"
chmod +x "$TMP/script"
run_pmc stat -e cs "$TMP/script"
expect_rc 127 "a script whose interpreter is missing"
expect_err "the interpreter on its #! line, or its dynamic loader, is missing" "the missing interpreter is named"
run_pmc stat -k loop --param nonesuch=1
expect_rc 2 "an unknown kernel parameter"
[ "$(grep -o "kernel 'loop'" "$TMP/err" | wc -l)" -eq 1 ] || fail "the kernel is named once: $(cat "$TMP/err")"
ok "edge/cmask, decode, --pmu, perf::, non-ASCII, interpreter and kernel-parameter messages"
if ! has_hw_pmu; then
	run_pmc stat -k loop -e cycles
	expect_err "read-method: no counter was read: no event could be opened" "-k with nothing opened says so"
	grep -q "counters read with none" "$TMP/err" && fail "-k says 'counters read with none'"
	ok "-k with no event opened says no counter was read"
fi

# 11. every spelling in the man pages' EXAMPLES (-e lists, encode arguments) and the inline examples of the event
# spellings resolves (Intel names under the hsw tables, the fixture sysfs and tracefs)
export LIBPFM_FORCE_PMU=hsw PMCTOOL_SYSFS_ROOT="$PMC_SOURCE_DIR/tests/pmu/sysfs"
n=0
args=()
while IFS= read -r line; do
	line=${line//\\-/-}
	if [[ $line =~ \ -e\ \'([^\']*)\' ]] || [[ $line =~ \ -e\ ([^ ]*) ]]; then
		run_pmc stat --dry-run -e "${BASH_REMATCH[1]}" true
		expect_rc 0 "man example -e '${BASH_REMATCH[1]}'"
		n=$((n + 1))
	elif [[ $line =~ pmctool\ encode\ (.*)$ ]]; then
		eval "args=(${BASH_REMATCH[1]})"
		run_pmc encode "${args[@]}"
		expect_rc 0 "man example encode ${args[*]}"
		n=$((n + 1))
	fi
done < <(for m in "$PMC_SOURCE_DIR"/man/*.1; do awk '/^\.SH EXAMPLES?/{f=1;next} /^\.SH/{f=0} f' "$m"; done)
[ "$n" -ge 6 ] || fail "only $n man examples found"
for spec in mem:0x401136:xu mem:0x401136:x:u mem:0x401136/8:xu l1d-load-miss L1-data-read-access LLC-stores \
	dTLB-prefetch-misses UOPS_ISSUED:ANY:pp UOPS_ISSUED:ANY:c=1:i=1 perf::cycles perf::PERF_COUNT_HW_INSTRUCTIONS \
	br_inst_exec.0x81 idq.mite_all_uops rs_events.empty cpu_clk_unhalted.core_clk BR_INST_EXEC:0x81 r53010e \
	'cpu/event=0x0e,umask=0x01,cmask=1,inv/' msr/tsc/ sched:sched_switch syscalls:sys_enter_write perf::INSTRUCTIONS \
	'{cycles,instructions}:u' cs faults migrations cpu-cycles branch-instructions idle-cycles-frontend; do
	run_pmc stat --dry-run -e "$spec" true
	expect_rc 0 "man page spelling '$spec'"
	n=$((n + 1))
done
ok "$n spellings from the man pages resolve"

# 12. completion of test-bench names (hsw forced above) and of the chosen kernel's --param keys
unset PMCTOOL_SYSFS_ROOT
complete_words stat -e uops_issued.an
printf '%s\n' "${COMPREPLY[@]}" | grep -qx "uops_issued.any" || fail "completion of uops_issued.an lacks uops_issued.any"
complete_words stat -k loop --param ""
printf '%s\n' "${COMPREPLY[@]}" | grep -qx "inner=" || fail "completion of --param for -k loop lacks inner= (${COMPREPLY[*]})"
ok "completion of test-bench names and kernel parameters"

# 13. the notes reach the report, not only the plan
run_pmc stat -e 'cs:D,{task-clock,faults}:W' -- true
expect_rc 0 "cs:D counted"
expect_err "\[info\] modifier: 'cs:D': :D \(pinned\) is not passed on" "the report carries the modifier's note"
ok "notes in the report"
