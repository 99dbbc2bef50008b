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

# Every stat option reaches sweep's and stat --compare's measurements unless its refused_by says otherwise: no list
# here (cli/multi_measure.c walks stat's option table; test_sweep_units checks every option of the table, and
# test_sweep_stat_options one per family).
