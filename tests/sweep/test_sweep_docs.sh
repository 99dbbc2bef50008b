#!/usr/bin/env bash
# Every option that sweep, compare and merge --help list is in its man page, every exit status in --help is in the
# man page's EXIT STATUS, and pmctool --help lists the three commands.
source "$PMC_SOURCE_DIR/tests/lib.sh"
for cmd in sweep compare merge; do
	run_pmc "$cmd" --help
	expect_rc 0 "$cmd --help"
	page="$PMC_SOURCE_DIR/man/pmctool-$cmd.1"
	[ -f "$page" ] || fail "no man page for $cmd"
	text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page")
	for opt in $(grep -oE -- '--[a-z][a-z-]+' "$TMP/out" | sort -u); do
		grep -qF -- "$opt" <<<"$text" || fail "$cmd: $opt is in --help but not in man/pmctool-$cmd.1"
	done
	for st in $(sed -n 's/^Exit status: //p; /^Exit status/,/^See/p' "$TMP/out" | grep -oE '\b(0|1|2|3|4|5|126|127|130|143)\b' | sort -u); do
		sed -n '/^\.SH EXIT STATUS/,/^\.SH [A-Z]/p' "$page" | grep -qE "(^|[^0-9])$st([^0-9]|$)" ||
			fail "$cmd: exit status $st is in --help but not in the man page"
	done
done
run_pmc --help
for cmd in sweep compare merge; do expect_out "^  $cmd " "pmctool --help lists $cmd"; done
stat_page=$(sed 's/\\-/-/g' "$PMC_SOURCE_DIR/man/pmctool-stat.1")
for opt in --compare --fail-if '%h' '%r' '%j'; do
	grep -qF -- "$opt" <<<"$stat_page" || fail "pmctool-stat.1 lacks $opt"
done
ok "sweep, compare and merge: options and exit statuses of --help are in their man pages"

# Every stat option is either passed on to the measurements of sweep and stat --compare (child_args_from_stat in
# src/cli/multi_child.c) or deliberately not: a new stat option fails here until it is placed.
forwarded="--event --group --metric --batch --counters --no-anchors --kernel --iters --param --cpu --warmup --subtract-overhead"
forwarded="$forwarded --detailed --all-user --all-kernel --pre --post --null --no-merge --metrics --no-inherit --sync"
own="--repeat --csv --json --output --compare --fail-if --help --big-num"   # rounds and output of sweep / compare themselves
refused="--dry-run --field-separator --json-output --log-fd --regions --quiet --append --no-big-num --table --topdown --topdown-def" # errors in sweep, compare
refused="$refused --interval-clear --summary --metric-only"                     # need -I, which sweep and compare refuse
refused="$refused --pid --tid --all-cpus --no-aggr --per-core --per-die --per-socket --per-node --per-thread --interval-print"
refused="$refused --interval-count --timeout --delay --control --cgroup --for-each-cgroup" # scopes: each point measures what it launches
quiet="--verbose"                                                 # the children's stderr is kept apart
run_pmc stat --help
for opt in $(grep -oE -- '--[a-z][a-z-]+' "$TMP/out" | sort -u); do
	case " $forwarded $own $refused $quiet " in
	*" $opt "*) ;;
	*) fail "stat has a new option $opt: pass it on in child_args_from_stat (src/cli/multi_child.c) or list it in $0" ;;
	esac
done
ok "every stat option is passed on to sweep's and compare's measurements, or deliberately not"
