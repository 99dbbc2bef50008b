#!/bin/bash
# Bash completion: source completion/pmctool, pose COMP_WORDS/COMP_CWORD, call _pmctool, check COMPREPLY.
. "$PMC_SOURCE_DIR/tests/lib.sh"
export LIBPFM_FORCE_PMU=hsw
. "$PMC_SOURCE_DIR/tests/completion.sh"
complete -p pmctool >/dev/null || fail "the file does not register a completion for pmctool"

complete_words ""
expect_reply info "subcommands from pmctool --help"
expect_reply list "subcommands from pmctool --help"
complete_words "li"
[ "$(cat "$TMP/reply")" = list ] || fail "'li' should complete to list only"
ok "subcommands"

complete_words list --
for o in --pmu --long --csv --json --names --help; do expect_reply "$o" "list options from list --help"; done
complete_words info --
expect_reply --json "info options"
complete_words list --pmu ""
expect_reply software "--pmu values"
ok "options per subcommand, --pmu values"

complete_words stat -e UOPS_IS
expect_reply UOPS_ISSUED "events after -e"
expect_reply UOPS_ISSUED:ANY "EVENT:UMASK after -e"
complete_words stat -e cycles,task-c
expect_reply cycles,task-clock "the last item of a comma list"
# readline splits at ':': words "UOPS_ISSUED" ":" "STALL"; the reply is the part after the last ':'.
complete_words stat -e UOPS_ISSUED : STALL
expect_reply STALL_CYCLES "umask after a split ':'"
complete_words stat --events instructions,UOPS_ISSUED : ""
expect_reply ANY "umasks after 'EVENT:' in a comma list"
ok "events after -e: names, comma lists, colons"

complete_words stat -k ""
ok "kernels list: $(wc -l <"$TMP/reply") names (a missing 'pmctool kernels' is skipped silently)"
complete_words stat -g ""
expect_reply core "event sets after -g"
complete_words stat -- tru
expect_reply true "the measured command after --"
ok "values for -k/-g, command after --"
