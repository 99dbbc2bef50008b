#!/usr/bin/env bash
# perf's own stat output tests pass with pmctool in perf's place (issue 34): the shell tests for `perf stat` that
# Debian's linux-perf installs (perf 6.1's tests/shell/stat*.sh and their lib/ helpers, GPL: read where installed,
# never copied here) run once against the real perf and once through a shim directory whose `perf` runs
# `pmctool stat` for `perf stat`, one check (one check_*/test_* function) at a time where the script is made of
# such functions, the whole script otherwise. A check perf passes here must pass through the shim, unless
# DELIBERATE below names it (each such difference is in pmctool-stat(1), "For perf users", with its reason).
#
# The shim takes `perf stat ...` (pmctool stat) and `perf list ...` (the real perf's list: the tests read perf's
# catalogue of metrics and PMU events from it and then ask `perf stat` to count each; the catalogue is perf's,
# the counting is pmctool's). Anything else (perf bench, perf record...) gets a clear error and exit status 129.
#
# PMC_PERF_OWN_REPORT=FILE writes the per-check table (script, check, perf's result, pmctool's) to FILE.
source "$PMC_SOURCE_DIR/tests/lib.sh"
DIR=${PMC_PERF_TESTS_DIR:-/usr/lib/perf-core/tests/shell}
command -v perf >/dev/null || skip "perf is not installed (Debian: linux-perf; setup.sh installs it)"
# perf's checks time what they read against perf's speed (--per-thread -a of a short command): a sanitized pmctool
# attaches to every thread several times slower, and the plain build runs them
sanitized_build && skip "a sanitizer build: perf's own checks are run on the plain build"
[ -d "$DIR" ] || skip "perf's shell tests are not installed in $DIR (Debian's linux-perf installs them)"
perf stat -e task-clock true >/dev/null 2>&1 || skip "perf stat does not run here: $(perf stat -e task-clock true 2>&1 | head -c 200)"
REAL_PERF=$(command -v perf)

# The checks that differ on purpose: "script:check reason" (the reason is the man page's).
DELIBERATE=(
	"stat_all_metricgroups.sh:(whole) perf's metrics and groups are compiled into perf; pmctool reads the vendor tables from files ('pmctool tables' says where; --tables DIR), which it never ships, so perf's names are found only where the tables are installed"
	"stat_all_metrics.sh:(whole) as stat_all_metricgroups.sh: perf's built-in metrics are pmctool's only with the vendor tables installed"
	"stat.sh:test_stat_record_report perf stat record writes perf.data's stat records, a perf file format; pmctool keeps a measurement as its JSON document (stat --json -o FILE) and reads it with pmctool report FILE"
)

SHIM=$TMP/shim
mkdir -p "$SHIM"
cat >"$SHIM/perf" <<EOF
#!/bin/sh
# perf's command lines for pmctool (issue 34's shim): perf stat is pmctool stat, perf list is the real perf's.
case "\$1" in
stat) shift; "$PMCTOOL" stat "\$@"; rc=\$?
	[ \$rc -ne 2 ] || echo "perf stat \$*" >>"$TMP/refused" # a usage error (these tests' commands never exit 2)
	exit \$rc ;;
list) exec "$REAL_PERF" "\$@" ;;
--no-pager) shift; exec "\$0" "\$@" ;;
esac
echo "perf \$*" >>"$TMP/refused"
echo "perf (pmctool's shim): 'perf \$1' is not pmctool's: only 'perf stat' (and perf's own 'perf list') are taken here" >&2
exit 129
EOF
chmod +x "$SHIM/perf"

# checks SCRIPT: the check functions the script calls at top level or in its top-level if blocks (not the set-up
# function check_for_topology), in the order it calls them; none when the script is not made of such functions.
checks() {
	awk '/^[[:space:]]*(check|test)_[a-z_]+[[:space:]]*$/ { sub(/^[[:space:]]+/, ""); sub(/[[:space:]]+$/, "");
		if ($0 != "check_for_topology" && !seen[$0]++) print }' "$1"
}
# one_check SCRIPT CHECK: the script's text up to its first top-level call (its functions and set-up), then its
# topology probe when it has one, then CHECK alone; run with $0 naming the installed script (its lib/ helpers).
one_check() {
	local text
	text=$(awk '/^(check|test)_[a-z_]+[[:space:]]*$/ && $1 != "check_for_topology" { exit } { print }' "$1")
	grep -q '^check_for_topology()' "$1" && ! grep -q '^check_for_topology$' <<<"$text" && text+=$'\ncheck_for_topology'
	printf '%s\n%s\nexit ${err:-0}\n' "$text" "$2"
}
# verdict WHICH RC OUTPUT: pass, fail or skip, as perf test reads the script (exit 2: skip) and the check's own
# words; through the shim an exit status 2 is pmctool's usage error left by set -e, not a skip.
verdict() {
	local which=$1
	shift
	if { [ "$1" -eq 2 ] && [ "$which" = perf ]; } || grep -qE '\[Skip|\[Skipped|^Skipping|Skip, not fail' <<<"$2"; then echo skip
	elif [ "$1" -eq 0 ] && ! grep -qE '\[Failed|wrong number of fields|Traceback' <<<"$2"; then echo pass
	else echo fail; fi
}
# run_check WHICH SCRIPT CHECK: runs the check (perf: up to 3 tries, as its per-thread checks race with exiting
# threads; pmctool once); prints the verdict and leaves the output in $TMP/WHICH.out.
run_check() {
	local which=$1 script=$2 check=$3 tries=1 path=$PATH rc v
	[ "$which" = perf ] && tries=3
	[ "$which" = pmctool ] && path=$SHIM:$PATH
	for ((i = 0; i < tries; i++)); do
		rm -f "$TMP/refused"
		set +e
		if [ -n "$check" ]; then
			(cd "$DIR" && PATH=$path timeout 300 bash -c "$(one_check "$script" "$check")" "$DIR/$script") >"$TMP/$which.out" 2>&1 </dev/null
		else
			(cd "$DIR" && PATH=$path timeout 300 bash "$DIR/$script") >"$TMP/$which.out" 2>&1 </dev/null
		fi
		rc=$?
		set -e
		v=$(verdict "$which" "$rc" "$(cat "$TMP/$which.out")")
		# A check that greps for a name passes on pmctool's refusal that quotes it (stat_all_metrics.sh): a usage
		# error (exit 2, logged by the shim) or the shim's refusal means the command was not taken, whatever the
		# script concluded.
		if [ "$which" = pmctool ] && [ "$v" = pass ] && { [ -s "$TMP/refused" ] ||
			grep -qE "^pmctool stat: (invalid value|unknown option)|^perf \(pmctool's shim\)" "$TMP/$which.out"; }; then
			v=fail-not-taken
		fi
		[ "$v" = fail ] || break
	done
	echo "$v"
}

report=${PMC_PERF_OWN_REPORT:-$TMP/report}
: >"$report"
failed=0 perf_pass=0 pmc_pass=0
for script in stat.sh stat+csv_output.sh stat+json_output.sh stat+csv_summary.sh stat+shadow_stat.sh \
	stat_all_metricgroups.sh stat_all_metrics.sh stat_all_pmu.sh stat_bpf_counters.sh; do
	[ -f "$DIR/$script" ] || { echo "note: $DIR/$script is not installed here"; continue; }
	list=$(checks "$DIR/$script")
	[ -n "$list" ] || list="-"
	for check in $list; do
		[ "$check" = - ] && check=
		p=$(run_check perf "$script" "$check")
		q=$(run_check pmctool "$script" "$check") # also where perf fails or skips: the table says how both did
		printf '%s\t%s\tperf:%s\tpmctool:%s\n' "$script" "${check:-(whole)}" "$p" "$q" >>"$report"
		[ "$p" = pass ] || continue
		perf_pass=$((perf_pass + 1))
		if [ "$q" = pass ]; then
			pmc_pass=$((pmc_pass + 1))
			continue
		fi
		why=
		for d in "${DELIBERATE[@]}"; do
			[ "${d%% *}" = "$script:${check:-(whole)}" ] && why=${d#* }
		done
		if [ -n "$why" ]; then
			echo "deliberate: $script ${check:-(whole)}: $why"
		else
			echo "--- $script ${check:-(whole)} through pmctool ($q):" >&2
			head -c 3000 "$TMP/pmctool.out" >&2
			failed=$((failed + 1))
		fi
	done
done
column -t "$report" || cat "$report"
echo "perf passes $perf_pass checks here; pmctool passes $pmc_pass of them"
[ "$failed" -eq 0 ] || fail "$failed of perf's own checks that perf passes fail with pmctool in perf's place"
ok "every check of perf's installed stat tests that perf passes here passes with pmctool (or is a documented difference)"
