#!/usr/bin/env bash
# Where a report goes (issue 12 items 1-3): -o writes through devices, FIFOs and descriptors and never replaces them;
# regular files are replaced whole, following symbolic links, keeping mode, owner and hard links; the path is checked
# before anything runs; a failed write is exit 4 naming the path; every command reports a failed stdout the same way;
# --log-fd and -o /dev/fd/N keep the report apart from the program's own output.
# The device cases run in a private mount namespace on a tmpfs with their own device nodes, never on the real /dev.
source "$PMC_SOURCE_DIR/tests/lib.sh"

# 1. Devices, in a private mount namespace (root only: mknod and mount need it).
if [ "$(id -u)" -eq 0 ] && unshare -m --propagation private true 2>/dev/null; then
	NS="$TMP/ns"
	mkdir "$NS"
	unshare -m --propagation private bash -s "$PMCTOOL" "$NS" >"$TMP/ns.log" 2>&1 <<'NSEOF' || { cat "$TMP/ns.log"; fail "device cases"; }
set -eu
P=$1 D=$2
mount -t tmpfs pmctool-test "$D"
mknod "$D/null" c 1 3; mknod "$D/full" c 1 7; chmod 666 "$D/null" "$D/full"
set +e
"$P" stat -e task-clock -o "$D/null" -- true 2>"$D/err"; rc=$?
set -e
[ "$rc" -eq 0 ] || { cat "$D/err"; echo "-o null: exit $rc"; exit 1; }
[ -c "$D/null" ] || { echo "-o null replaced the device"; exit 1; }
echo "ok: -o on a null device writes through it and leaves it a device"
set +e
"$P" stat -e task-clock -o "$D/full" -- true 2>"$D/err"; rc=$?
set -e
[ "$rc" -eq 4 ] || { cat "$D/err"; echo "-o full: exit $rc, expected 4"; exit 1; }
grep -q "cannot write the report to '$D/full': No space left on device" "$D/err" || { cat "$D/err"; exit 1; }
[ -c "$D/full" ] || { echo "-o full replaced the device"; exit 1; }
echo "ok: -o on a full device is exit 4 naming the path, and the device stays"
# A full file system: the old report stays whole, no temporary file is left, exit 4 naming the path.
mkdir "$D/small"
mount -t tmpfs -o size=64k pmctool-small "$D/small"
echo "the old report" >"$D/small/report.csv"
dd if=/dev/zero of="$D/small/filler" bs=4k count=64 2>/dev/null || true
set +e
"$P" stat --csv -r 20 -e task-clock,page-faults -o "$D/small/report.csv" -- true 2>"$D/err"; rc=$?
set -e
[ "$rc" -eq 4 ] || { cat "$D/err"; echo "-o on a full file system: exit $rc, expected 4"; exit 1; }
grep -q "cannot write the report to '$D/small/report.csv'" "$D/err" || { cat "$D/err"; exit 1; }
[ "$(cat "$D/small/report.csv")" = "the old report" ] || { echo "the old report was damaged"; exit 1; }
[ -z "$(ls "$D/small" | grep pmctool)" ] || { ls "$D/small"; echo "a temporary file was left"; exit 1; }
echo "ok: -o on a full file system: exit 4, the old file intact, no temporary file left"
for args in "--version" "--help" "kernels" "sets" "encode cycles" "decode r5301b1 --pmu ivb" "list" "info" \
	"stat --dry-run -e task-clock" "stat --dry-run --json -e task-clock" "stat --help" \
	"stat -o - -e task-clock -- true" "stat --log-fd 1 -e task-clock -- true"; do
	set +e
	# shellcheck disable=SC2086
	"$P" $args >"$D/full" 2>"$D/err"; rc=$?
	set -e
	[ "$rc" -eq 4 ] || { cat "$D/err"; echo "pmctool $args >full: exit $rc, expected 4"; exit 1; }
	grep -qE "stdout|--log-fd 1" "$D/err" || { cat "$D/err"; echo "pmctool $args >full: the message does not name stdout"; exit 1; }
done
echo "ok: a full stdout is exit 4 with a message naming stdout, for every command"
NSEOF
	cat "$TMP/ns.log"
	[ ! -e "$NS/null" ] || fail "the namespace's tmpfs leaked out"
else
	echo "note: not root or no unshare: the device cases are not run"
fi

# 2. A FIFO: its reader gets the report; the FIFO stays a FIFO.
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/fifo.out" &
reader=$!
run_pmc stat --json -e task-clock -o "$TMP/fifo" -- true
wait "$reader"
expect_rc 0 "-o FIFO"
[ -p "$TMP/fifo" ] || fail "-o replaced the FIFO"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/fifo.out" || fail "the FIFO's reader did not get the JSON"
ok "-o FIFO: the reader got the whole report, the FIFO stays"

# 3. A symbolic link: the target is written, the link stays a link.
echo old >"$TMP/target.txt"
ln -s target.txt "$TMP/link"
run_pmc stat -e task-clock -o "$TMP/link" -- true
expect_rc 0 "-o symlink"
[ -L "$TMP/link" ] || fail "-o replaced the symbolic link"
grep -q "task-clock" "$TMP/target.txt" || fail "the link's target was not written"
ok "-o symlink writes its target"
# A dangling link: the file is created where it points.
ln -s made.txt "$TMP/dangling"
run_pmc stat -e task-clock -o "$TMP/dangling" -- true
expect_rc 0 "-o dangling symlink"
[ -L "$TMP/dangling" ] && grep -q task-clock "$TMP/made.txt" || fail "dangling link: target not created"
ok "-o dangling symlink creates its target"

# 4. Mode and owner kept; a new file gets 0666 & ~umask.
echo old >"$TMP/private"
chmod 600 "$TMP/private"
if [ "$(id -u)" -eq 0 ]; then chown nobody "$TMP/private"; fi
owner=$(stat -c %u "$TMP/private")
run_pmc stat -e task-clock -o "$TMP/private" -- true
expect_rc 0 "-o 600 file"
[ "$(stat -c %a "$TMP/private")" = 600 ] || fail "mode became $(stat -c %a "$TMP/private")"
[ "$(stat -c %u "$TMP/private")" = "$owner" ] || fail "owner became $(stat -c %u "$TMP/private"), was $owner"
grep -q task-clock "$TMP/private" || fail "600 file not written"
(umask 027; "$PMCTOOL" stat -e task-clock -o "$TMP/new" -- true 2>/dev/null)
[ "$(stat -c %a "$TMP/new")" = 640 ] || fail "a new file under umask 027 got mode $(stat -c %a "$TMP/new")"
ok "-o keeps mode 600 and the owner; a new file follows the umask"

# 5. A hard link is kept: the file is written in place, both names see the report.
echo old >"$TMP/a"
ln "$TMP/a" "$TMP/b"
run_pmc stat -e task-clock -o "$TMP/a" -- true
expect_rc 0 "-o hard link"
[ "$(stat -c %i "$TMP/a")" = "$(stat -c %i "$TMP/b")" ] || fail "the hard link was broken"
grep -q task-clock "$TMP/b" || fail "the other name does not see the report"
ok "-o on a file with two hard links writes it in place; the link stays"

# 6. Checked before running: a missing directory costs nothing; no temporary file is left.
start=$(date +%s)
run_pmc stat -e task-clock -o "$TMP/missing/r.txt" -- sh -c "touch $TMP/ran; sleep 5"
expect_rc 4 "-o in a missing directory"
expect_err "cannot write the report to '$TMP/missing/r.txt'" "the path is named"
[ ! -e "$TMP/ran" ] || fail "the command ran although the report could not be written"
[ $(( $(date +%s) - start )) -lt 4 ] || fail "the check came after the run"
run_pmc stat -e task-clock --log-fd 7 -- true
expect_rc 4 "--log-fd on a closed descriptor"
expect_err "--log-fd 7" "the descriptor is named"
[ -z "$(find "$TMP" -name '*.pmctool-*')" ] || fail "a temporary file was left"
ok "an unwritable destination is exit 4 before anything runs, naming it"

# 7. Unprivileged: a directory nobody cannot write is refused before running.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir "$TMP/rootonly"; chmod 755 "$TMP/rootonly"; chmod 755 "$TMP"
	set +e
	setpriv --reuid nobody --regid nogroup --clear-groups "$PMCTOOL" stat -e task-clock -o "$TMP/rootonly/r.txt" \
		-- true 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc 4 "nobody writing into root's directory"
	expect_err "Permission denied" "the reason is given"
	ok "as nobody, an unwritable -o directory is exit 4 before running"
fi

# 8. The report apart from the program's output: --log-fd 3 and -o /dev/fd/3 into a pipe, the program printing.
for dest in "--log-fd 3" "-o /dev/fd/3"; do
	# shellcheck disable=SC2086
	"$PMCTOOL" stat --json $dest -e task-clock -- sh -c 'echo the program prints this; echo and this' \
		3>&1 >"$TMP/prog.out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["kind"]=="stat"' \
		|| fail "stat --json $dest: the pipe did not get JSON alone"
	grep -q "the program prints this" "$TMP/prog.out" || fail "$dest: the program's output was lost"
done
run_pmc stat --log-fd 3 -o "$TMP/x" -e task-clock -- true
expect_rc 2 "--log-fd with -o"
expect_err "-o and --log-fd" "both options are named"
ok "--log-fd 3 and -o /dev/fd/3 keep the JSON apart from what the program prints"

# 9. A closed pipe (EPIPE) is exit 4 without a message for every command: tests/harden/test_interrupts.sh, part 4.

# 10. The reason given is the real one (issue 28 item 14): a descriptor open for reading only is called that, not a
# bad descriptor; a file that exists but cannot take a report (/proc/version) is not "No such file or directory".
set +e
"$PMCTOOL" stat -e task-clock -o /dev/fd/0 -- touch "$TMP/ran0" <"$TMP/a" >"$TMP/out" 2>"$TMP/err"; RC=$?
set -e
expect_rc 4 "-o /dev/fd/0 open for reading"
expect_err "cannot write the report to '/dev/fd/0': the file descriptor is open for reading only" "reading only is said"
[ ! -e "$TMP/ran0" ] || fail "-o /dev/fd/0: the command ran"
run_pmc stat -e task-clock -o /dev/fd/9 -- true
expect_rc 4 "-o /dev/fd/9, not open"
expect_err "the file descriptor is not open" "a closed descriptor is called that"
if [ -r /proc/version ]; then
	run_pmc stat -e task-clock -o /proc/version -- touch "$TMP/ran1"
	expect_rc 4 "-o /proc/version"
	if grep -q "No such file or directory" "$TMP/err"; then fail "-o /proc/version: blamed on a missing file"; fi
	expect_err "cannot write the report to '/proc/version': (no file can be created beside it|Permission denied)" \
		"the reason is given"
	[ ! -e "$TMP/ran1" ] || fail "-o /proc/version: the command ran"
fi
ok "-o /dev/fd/0 (read-only), /dev/fd/9 (closed) and /proc/version give their real reasons"
