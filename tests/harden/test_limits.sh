#!/usr/bin/env bash
# Oversized and absurd input: every limit is checked with a clear message and a documented exit status, never a
# crash, and memory stays bounded (each run under ulimit -v 1 GiB, except in sanitizer builds, whose shadow memory
# needs more address space).
source "$PMC_SOURCE_DIR/tests/lib.sh"

VMEM=()
if ! nm "$PMCTOOL" 2>/dev/null | grep __asan_init >/dev/null; then
	VMEM=(ulimit -v 1048576)
fi
# limited STATUS WHAT ARGS...: run pmctool bounded; the status must be STATUS and stderr short and about the input.
limited() {
	local want=$1 what=$2; shift 2
	set +e
	( [ ${#VMEM[@]} -eq 0 ] || "${VMEM[@]}"; exec "$PMCTOOL" "$@" ) >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc "$want" "$what"
	[ "$(wc -c <"$TMP/err")" -lt 4096 ] || fail "$what: the error echoes the oversized input ($(wc -c <"$TMP/err") bytes)"
}
big() { python3 -c "import sys; print(sys.argv[1] * int(sys.argv[2]), end='')" "$@"; }

# Events: more than PMC_MAX_EVENTS (1024), one spec of 100 KB, one -e list of 100 KB (9001 events; a list longer
# than 1024 x 256 characters cannot pass execve, and is tested in tests/pmu/test_event_misc.c).
args=()
for _ in $(seq 257); do args+=(-e task-clock,page-faults,minor-faults,major-faults); done
limited 2 "1028 events" stat "${args[@]}" -- true
expect_err "too many events \(more than 1024\)" "1028 events: the limit is named"
# Exactly 1024 of the user's events in many batches: the anchors pmctool adds to every batch come on top, never
# against the user's limit (1,022 to 1,024 were refused as "more than 1024"). No event code 0x00: Intel's
# pseudo-encodings of fixed counters take no programmable counter (issue 22 item 15).
LIBPFM_FORCE_PMU=hsw limited 0 "1024 raw events in 256 batches of 4" stat --dry-run \
	-e "$(python3 -c "print(','.join(['r%x' % (u << 8 | e) for u in range(1, 8) for e in range(1, 256)][:1024]))")" -- true
grep -q "1028 events in 256 batches" "$TMP/out" || { head -3 "$TMP/out" "$TMP/err"; fail "1024 events and 4 anchors planned"; }
limited 2 "a 100 KB event spec" stat -e "$(big a 100000)" -- true
expect_err "too long" "a 100 KB event spec"
limited 2 "9001 events in one list" stat -e "$(big task-clock, 9000)task-clock" -- true
expect_err "too many events \(more than 1024\)" "9001 events in one list: the event limit is named"
# The list's cap follows the event count: 400 events in 8 KB are one valid list.
limited 0 "400 events in an 8 KB list" stat --dry-run -e "$(big emulation-faults:uk,alignment-faults:uk, 200)cs" -- true
grep -q "401 events" "$TMP/out" || fail "an 8 KB list of 401 events is planned"
limited 2 "a 100 KB event set name" stat -g "$(big a 100000)" -- true
ok "too many events, and event specs, lists and set names of 100 KB: clear errors, exit 2"

# Several hundred events with a low open-file limit: the soft limit is raised to the hard one when that is enough,
# otherwise a clear error naming ulimit -n before anything runs.
args=()
for _ in $(seq 150); do args+=(-e task-clock,page-faults,minor-faults,major-faults); done
set +e
(ulimit -Sn 64; exec "$PMCTOOL" stat "${args[@]}" -- true) >"$TMP/out" 2>"$TMP/err"
RC=$?
set -e
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -ge 700 ]; then
	expect_rc 0 "600 events, soft limit 64, hard limit $hard"
	! grep -q "too many open files" "$TMP/err" || fail "600 events: some were not opened (EMFILE)"
	[ "$(grep -cE 'msec +task-clock' "$TMP/err")" -eq 150 ] || fail "600 events: not every task-clock counted"
	ok "600 events under a soft limit of 64: raised to fit, all counted"
fi
set +e
(ulimit -n 64; exec "$PMCTOOL" stat "${args[@]}" -- true) >"$TMP/out" 2>"$TMP/err"
RC=$?
set -e
expect_rc 2 "600 events, hard limit 64"
expect_err "ulimit -n" "the error says how to raise the limit"
ok "600 events under a hard limit of 64: a clear error naming ulimit -n, exit 2"

# Numbers out of range.
limited 2 "-r 100001" stat -r 100001 -- true
expect_err "invalid value '100001' for -r" "-r 100001"
limited 2 "-r 2^64" stat -r 18446744073709551616 -- true
limited 2 "--iters 2^41" stat -k empty --iters 2199023255552
expect_err "for --iters" "--iters 2^41"
limited 2 "--counters 65" stat --counters 65 -- true
limited 2 "--warmup 61" stat --warmup 61 -k empty
limited 2 "--warmup nan" stat --warmup nan -k empty
limited 2 "--cpu 99999" stat --cpu 99999 -k empty
limited 2 "a 100 KB -x separator" stat -x "$(big ';' 100000)" -- true
limited 2 "a 100 KB --counters value" stat --counters "$(big 9 100000)" -- true
expect_err "\.\.\." "the echoed value is cut short"
ok "numbers out of range: clear errors, exit 2"

# Kernel parameters out of range, unknown, or too many.
limited 2 "matmul n=2049" stat -k matmul --param n=2049
expect_err "out of range" "matmul n=2049"
limited 2 "stream footprint=2G" stat -k stream --param footprint=2G
limited 2 "chase footprint 10^23" stat -k chase --param footprint=99999999999999999999999
limited 2 "an unknown parameter" stat -k empty --param n=1
args=()
for _ in $(seq 40); do args+=(--param mode=copy); done
limited 2 "40 --param" stat -k stream "${args[@]}"
expect_err "too many --param" "40 --param"
ok "kernel parameters out of range: clear errors, exit 2"

# Formulas and event-set files.
limited 2 "a 100 KB --metric formula" stat --metric "x=$(big 'instructions+' 8000)1" -e task-clock -- true
expect_err "longer than" "a 100 KB formula"
args=()
for _ in $(seq 70); do args+=(--metric x=1); done
limited 2 "70 --metric" stat "${args[@]}" -e task-clock -- true
mkdir "$TMP/events"
python3 - "$TMP/events" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/huge.set", "w") as f:          # 2 MB: over the 1 MiB limit on a set file
    f.write("set huge\ndescription x\n")
    f.write("event task-clock\n" * 125000)
with open(d + "/many.set", "w") as f:          # small, but more events than PMC_MAX_EVENTS
    f.write("set many\ndescription x\n")
    f.write("event task-clock\n" * 1100)
with open(d + "/longline.set", "w") as f:      # one line of 500 KB
    f.write("set longline\ndescription " + "x" * 500000 + "\nevent task-clock\n")
PY
PMCTOOL_EVENTS_DIR=$TMP/events limited 2 "a 2 MB set file" stat -g huge -- true
expect_err "at most 1 MiB" "the 2 MB set file"
PMCTOOL_EVENTS_DIR=$TMP/events limited 2 "a set of 1100 events" stat -g many -- true
PMCTOOL_EVENTS_DIR=$TMP/events limited 2 "a 500 KB line in a set" stat -g longline -- true
ok "formulas of 100 KB and oversized event-set files: clear errors, exit 2"

# A path too long for -o: the report cannot be written, exit 4.
run_pmc stat -e task-clock -o "$TMP/$(big x 5000)" -- true
expect_rc 4 "-o with a 5000-character name"
expect_err "File name too long" "-o with a 5000-character name says why"
ok "an impossible -o path: exit 4"
