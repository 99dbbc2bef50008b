#!/usr/bin/env bash
# Exit statuses and the errors for bad input: documented codes, messages on stderr naming the input.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}

run_pmc stat -e task-clock -- "$W" exit 3
expect_rc 3 "the command's exit status passes through"

run_pmc stat -e task-clock -- sh -c 'kill -SEGV $$'
expect_rc 139 "death by SIGSEGV is 128+11"
expect_err "signal 11" "the report names the signal"

run_pmc stat -e task-clock -- /nonexistent/prog
expect_rc 127 "missing command"
expect_err "cannot execute '/nonexistent/prog'" "missing command is named"

printf 'not a program' >"$TMP/noexec"; chmod -x "$TMP/noexec"
run_pmc stat -e task-clock -- "$TMP/noexec"
expect_rc 126 "non-executable command"
expect_err "Permission denied" "non-executable command says why"

run_pmc stat -e task-clok -- true
expect_rc 2 "unknown event"
expect_err "task-clok" "unknown event is named"
expect_err "task-clock" "the nearest valid name is suggested"

run_pmc stat -r 0 -- true
expect_rc 2 "-r 0"
expect_err "invalid value '0' for -r" "-r 0 is named"

run_pmc stat -r 1000000 -- true
expect_rc 2 "-r too large"

run_pmc stat --batch=sometimes -- true
expect_rc 2 "bad --batch"
expect_err "rerun" "--batch error lists the choices"

run_pmc stat --bogus -- true
expect_rc 2 "unknown option"
expect_err "unknown option '--bogus'" "unknown option named"
! grep -q "Did you mean" "$TMP/err" || fail "--bogus is near no option, yet one was suggested"
# perf's habit (issue 24 item 5): a typo gets the nearest option, and --cpu without -k points at perf's -C.
run_pmc stat --evnt task-clock -- true
expect_rc 2 "a misspelt option"
expect_err "^Did you mean '--event'\?$" "--evnt suggests --event"
run_pmc stat --cpu 1 -- true
expect_rc 2 "--cpu without -k"
expect_err "give -C LIST \(perf's CPU list" "--cpu without -k names perf's -C"

# An option given without its value is named as spelled in the help, long-only ones included (this printed a NUL
# byte for the letter, then called --batch unknown).
for opt in -e --event -r --batch --counters --control --metric --log-fd; do
	run_pmc stat "$opt"
	expect_rc 2 "$opt without its value"
	[ "$opt" = --event ] && want=-e || want=$opt
	expect_err "option $want needs a value" "$opt without its value: named"
	[ "$(tr -d '\000' <"$TMP/err" | wc -c)" = "$(wc -c <"$TMP/err")" ] || fail "$opt without its value: a NUL on stderr"
	expect_err "Run 'pmctool stat --help' for the options." "$opt without its value: points at --help"
done

run_pmc stat
expect_rc 2 "no command"
expect_err "no command to measure" "no command"

run_pmc stat -e 'cpu/event=0x3c/,' -- true
expect_rc 2 "empty item in an event list"

run_pmc stat --help
expect_rc 0 "--help"
for opt in -e -g --metric --batch --counters --no-anchors --dry-run -r -k --iters --param --cpu --warmup \
	--subtract-overhead -x --csv --json -o; do
	grep -q -- "$opt" "$TMP/out" || fail "--help does not document $opt"
done
ok "exit statuses and errors"
