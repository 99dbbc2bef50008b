#!/usr/bin/env bash
# pmctool's own cost, as behaviour (bench/ measures the time): the samples' bound, batches nothing can be counted in,
# the events kept open for the whole measurement.
source "$PMC_SOURCE_DIR/tests/lib.sh"

# 100 events x -r 30000 is 3,000,000 counts: more than the 2,000,000 kept; refused before anything runs.
EV=$(python3 -c "print(','.join(['task-clock','page-faults','context-switches','cpu-migrations']*25))")
run_pmc stat -r 30000 -e "$EV" -- sh -c "echo run >>$TMP/runs"
expect_rc 2 "-r x events over the bound"
expect_err "at most 2000000 are kept" "the bound is named"
expect_err "lower -r to 20000" "and what to do"
[ ! -e "$TMP/runs" ] || fail "the workload ran although the measurement was refused"
ok "-r x events over the documented bound is refused before running"
