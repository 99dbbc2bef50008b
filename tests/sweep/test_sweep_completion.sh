#!/bin/bash
# Bash completion of sweep, compare and merge: the commands, their options, --test values, JSON files.
. "$PMC_SOURCE_DIR/tests/lib.sh"
# shellcheck source=/dev/null
. "$PMC_SOURCE_DIR/completion/pmctool"

complete_words() {
	COMP_WORDS=("$PMCTOOL" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	set +eu
	_pmctool 2>"$TMP/cerr"
	set -eu
	printf '%s\n' "${COMPREPLY[@]}" >"$TMP/reply"
	[ ! -s "$TMP/cerr" ] || { cat "$TMP/cerr" >&2; fail "completion of '$*' wrote to stderr"; }
}
expect_reply() { grep -qxF -- "$1" "$TMP/reply" || { cat "$TMP/reply" >&2; fail "$2: COMPREPLY lacks '$1'"; }; }

complete_words ""
for c in sweep compare merge; do expect_reply "$c" "the new commands"; done
complete_words sweep inner=1..4 --
for o in --plot --per --y --seed --no-plot; do expect_reply "$o" "sweep options"; done
complete_words compare --
for o in --test --alpha --fail-if --csv --json; do expect_reply "$o" "compare options"; done
complete_words compare --test ""
expect_reply welch "--test values"
expect_reply mann-whitney "--test values"
complete_words merge --
for o in --plot --y --csv --json; do expect_reply "$o" "merge options"; done
complete_words stat --
expect_reply --compare "stat --compare"
expect_reply --fail-if "stat --fail-if"
touch "$TMP/run.0.json" "$TMP/notes.txt"
complete_words merge "$TMP/"
expect_reply "$TMP/run.0.json" "merge completes JSON files"
grep -qxF "$TMP/notes.txt" "$TMP/reply" && fail "merge offers a .txt file"
ok "sweep, compare and merge complete: commands, options, --test values, JSON reports"
