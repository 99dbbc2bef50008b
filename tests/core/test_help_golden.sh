#!/bin/bash
# Every command's --help (and pmctool's own) byte for byte against tests/golden/help/CMD.txt: the help is generated
# from the option tables (cli/opts.c), and this proves each table says what the hand-written help said. Completion
# reads its option words from the same text (completion/pmctool).
. "$PMC_SOURCE_DIR/tests/lib.sh"

golden=$PMC_SOURCE_DIR/tests/golden/help
n=0
for f in "$golden"/*.txt; do
	cmd=$(basename "$f" .txt)
	if [ "$cmd" = pmctool ]; then run_pmc --help; else run_pmc "$cmd" --help; fi
	expect_rc 0 "$cmd --help"
	[ ! -s "$TMP/err" ] || { cat "$TMP/err" >&2; fail "$cmd --help wrote to stderr"; }
	cmp "$TMP/out" "$f" || { diff -u "$f" "$TMP/out" >&2; fail "$cmd --help differs from tests/golden/help/$cmd.txt"; }
	n=$((n + 1))
done
# Every command of 'pmctool --help' has its golden file (a new command gets one).
for cmd in $(sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p' "$golden/pmctool.txt"); do
	[ -f "$golden/$cmd.txt" ] || fail "tests/golden/help/$cmd.txt missing for command '$cmd'"
done
ok "$n --help texts identical to their golden files"
