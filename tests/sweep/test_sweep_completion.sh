#!/bin/bash
# Bash completion of sweep, compare and merge: the commands, their options, --test values, JSON files.
. "$PMC_SOURCE_DIR/tests/lib.sh"
. "$PMC_SOURCE_DIR/tests/completion.sh"

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
