#!/usr/bin/env bash
# -o is never more permissive than a shell's '>' (issue 28 item 1): the kernel follows the path's links under its own
# rules, so with fs.protected_symlinks=1 a link another user planted in a sticky world-writable directory is refused
# to root as it is to 'echo >': the file it points at stays as it was, and a dangling one creates nothing. Root's own
# link there, and any link outside such a directory, is still followed. All in this test's temporary directory.
source "$PMC_SOURCE_DIR/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root (the case is root following another user's link)"
[ "$(cat /proc/sys/fs/protected_symlinks 2>/dev/null)" = 1 ] ||
	skip "fs.protected_symlinks is not 1 here: the kernel lets anyone follow any link, so a shell's '>' does too"

chmod 755 "$TMP"
mkdir -m 1777 "$TMP/sticky"
printf 'root only\n' >"$TMP/secret"
chmod 600 "$TMP/secret"
ln -s "$TMP/secret" "$TMP/sticky/report.txt"
ln -s "$TMP/made-by-root" "$TMP/sticky/dangling.txt"
chown -h 65534:65534 "$TMP/sticky/report.txt" "$TMP/sticky/dangling.txt"

# The shell is the yardstick: it must be refused here, or this kernel does not protect and the test proves nothing.
if (echo shell >"$TMP/sticky/report.txt") 2>/dev/null; then
	fail "the shell could write through the planted link although fs.protected_symlinks=1"
fi
ok "the shell's '>' is refused through another user's link in a sticky directory"

before=$(sha256sum <"$TMP/secret")
for fmt in "" --json --csv; do
	# shellcheck disable=SC2086
	run_pmc stat $fmt -e task-clock -o "$TMP/sticky/report.txt" -- true
	expect_rc 4 "-o through a planted link ($fmt)"
	expect_err "cannot write the report to '$TMP/sticky/report.txt': Permission denied" "the refusal says why"
	[ "$(sha256sum <"$TMP/secret")" = "$before" ] || fail "-o $fmt changed the file the planted link points at"
	[ -L "$TMP/sticky/report.txt" ] || fail "-o $fmt replaced the planted link"
done
[ -z "$(find "$TMP" -name '*.pmctool-*')" ] || fail "a temporary file was left"
ok "-o through another user's link in a sticky directory: exit 4 before the run, the target untouched"

run_pmc stat -e task-clock -o "$TMP/sticky/dangling.txt" -- true
expect_rc 4 "-o through a planted dangling link"
expect_err "Permission denied" "the refusal says why"
[ ! -e "$TMP/made-by-root" ] || fail "a planted dangling link made root create $TMP/made-by-root"
ok "-o through another user's dangling link in a sticky directory creates nothing"

# Checked before the run as well as after: the command never runs for a destination that is refused.
run_pmc stat -e task-clock -o "$TMP/sticky/report.txt" -- touch "$TMP/ran"
[ ! -e "$TMP/ran" ] || fail "the command ran although -o was refused"
ok "the refusal comes before the command runs"

# Root's own link in the same directory, and a link in a private directory, are followed as the shell follows them.
ln -s "$TMP/mine.txt" "$TMP/sticky/own.txt"
run_pmc stat -e task-clock -o "$TMP/sticky/own.txt" -- true
expect_rc 0 "-o through root's own link in the sticky directory"
grep -q task-clock "$TMP/mine.txt" || fail "root's own link: its target was not written"
[ -L "$TMP/sticky/own.txt" ] || fail "root's own link was replaced"
ok "root's own link in a sticky directory is followed and stays a link"
