#!/usr/bin/env bash
# A set-user-ID command (issue 28, item 12): the kernel stops counting a task that gains privilege at exec, so as
# nobody a setuid-root copy of id counts nothing. pmctool must say <not counted> with the reason, in every format
# and every mode that launches a command, never an ok 0 (exit status 3: nothing counted); the same copy without the bit counts as usual.
source "$PMC_SOURCE_DIR/tests/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root to make a setuid-root file and to run as nobody"
command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
chmod 755 "$TMP"
cp /usr/bin/id "$TMP/suid-id"
cp /usr/bin/id "$TMP/plain-id"
chown root:root "$TMP/suid-id"
chmod 4755 "$TMP/suid-id"
cp "$PMCTOOL" "$TMP/pmctool"
mkdir "$TMP/o" && chown 65534:65534 "$TMP/o" # nobody's reports
if findmnt -n -o OPTIONS -T "$TMP" | tr , '\n' | grep -qx nosuid; then
	skip "$TMP is on a nosuid file system: a setuid bit has no effect there"
fi
[ "$(cat /proc/sys/fs/suid_dumpable)" != 1 ] || skip "fs.suid_dumpable is 1: the kernel keeps counting setuid programs"
nobody() { (cd "$TMP" && setpriv --reuid=65534 --regid=65534 --clear-groups "$@"); }
nobody ./suid-id -u >"$TMP/euid" 2>&1 || true
[ "$(cat "$TMP/euid")" = 0 ] || skip "the setuid copy does not run as root here ($(cat "$TMP/euid"))"
nobody ./pmctool stat -e task-clock -- ./plain-id >/dev/null 2>&1 || skip "nobody cannot count here (perf_event_paranoid)"

# run_nobody NAME ARGS...: pmctool as nobody, the report in $TMP/NAME
run_nobody() {
	local name=$1
	shift
	set +e
	nobody ./pmctool "$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	cp "$TMP/out" "$TMP/$name.out"
	cp "$TMP/err" "$TMP/$name.err"
}

# JSON: every event not counted with the reason; the plain copy counted.
for mode in plain per-thread interval; do
	case $mode in
	plain) opts=() ;;
	per-thread) opts=(--per-thread) ;;
	interval) opts=(-I 100) ;;
	esac
	for f in suid-id plain-id; do
		run_nobody "$mode-$f" stat "${opts[@]}" -e task-clock,page-faults --json -o "o/$mode-$f.json" -- "./$f"
		# nothing counted is exit status 3, with the report
		expect_rc "$([ $f = suid-id ] && echo 3 || echo 0)" "$mode $f"
		python3 - "$TMP/o/$mode-$f.json" "$f" <<'PY' || { cat "$TMP/o/$mode-$f.json" >&2; fail "$mode $f"; }
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
evs = [e for e in d["events"] if e["scope"]["kind"] == "all"]
assert len(evs) == 2, evs
for e in evs:
    if sys.argv[2] == "suid-id":
        assert e["status"] == "not_counted" or e["status"] == "not counted", e
        assert "gains privilege at exec" in e["reason"], e
    else:
        assert e["status"] == "ok" and e["mean"] > 0, e
PY
	done
	ok "$mode: the setuid copy <not counted> with the reason, the plain copy counted"
done

# The table and -x: <not counted>, no 0 marked ok.
run_nobody table stat -e task-clock,page-faults -- ./suid-id
expect_rc 3 "table"
grep -q "<not counted> *page-faults" "$TMP/table.err" && grep -q "gains privilege at exec" "$TMP/table.err" ||
	{ cat "$TMP/table.err" >&2; fail "table: <not counted> and the reason"; }
run_nobody sep stat -x, -e task-clock,page-faults -- ./suid-id
expect_rc 3 "-x"
[ "$(grep -c "^<not counted>,.*,\(task-clock\|page-faults\)," "$TMP/sep.err")" -eq 2 ] || { cat "$TMP/sep.err" >&2; fail "-x: <not counted>"; }
ok "table and -x: <not counted>"

# Root running a setuid-root program gains nothing: counted.
(cd "$TMP" && ./pmctool stat -e page-faults -x, -- ./suid-id) >/dev/null 2>"$TMP/root.err"
grep -q "^[0-9][0-9]*,,page-faults," "$TMP/root.err" || { cat "$TMP/root.err" >&2; fail "root: a setuid-root program is counted"; }
ok "as root the setuid-root program is counted"
