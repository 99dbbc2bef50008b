#!/usr/bin/env bash
# A setuid-root program built with the markers, run by nobody with PMCTOOL_* set: the library stays off (secure
# execution), so nothing is created or replaced where only root may write. Before, it appended to a root-only 0600
# file, created a root file in a root-only directory, and with PMCTOOL_REGIONS_FORMAT=json replaced a root file.
# The same program without the setuid bit, run by nobody, writes its report: the variables are what it obeys.
source "$PMC_SOURCE_DIR/tests/lib.sh"
source "$PMC_SOURCE_DIR/tests/regions/lib_regions.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (to make a setuid-root program and to run it as nobody)"
command -v setpriv >/dev/null || skip "setpriv is needed to run as nobody"
chmod 755 "$TMP"
cp "$RG" "$TMP/rg"
chown root:root "$TMP/rg"
chmod 4755 "$TMP/rg"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# A filesystem mounted nosuid (or one that drops the bit) runs it without privilege: nothing to test there.
[ "$(as_nobody "$TMP/rg" uid 2>/dev/null)" = 0 ] || skip "$TMP does not run setuid programs (nosuid, or the bit dropped)"

mkdir -m 700 "$TMP/root-only"
echo secret >"$TMP/root-only/report.txt"
chmod 600 "$TMP/root-only/report.txt"
echo '{"kept": true}' >"$TMP/root-only/stat.json"
chmod 600 "$TMP/root-only/stat.json"
before=$(sha256sum "$TMP/root-only/report.txt" "$TMP/root-only/stat.json")

as_nobody env PMCTOOL_REGIONS_EVENTS=task-clock PMCTOOL_REGIONS_OUT="$TMP/root-only/report.txt" "$TMP/rg" basic \
	>"$TMP/o1" 2>"$TMP/e1" || fail "setuid program, standalone regions asked: exit status $?"
as_nobody env PMCTOOL_REGIONS_EVENTS=task-clock PMCTOOL_REGIONS_OUT="$TMP/root-only/new.txt" "$TMP/rg" basic \
	>"$TMP/o2" 2>"$TMP/e2" || fail "setuid program, a new file asked for: exit status $?"
as_nobody env PMCTOOL_REGIONS_EVENTS=task-clock PMCTOOL_REGIONS_OUT="$TMP/root-only/stat.json" \
	PMCTOOL_REGIONS_FORMAT=json "$TMP/rg" basic >"$TMP/o3" 2>"$TMP/e3" || fail "setuid program, JSON asked: exit $?"
[ "$(sha256sum "$TMP/root-only/report.txt" "$TMP/root-only/stat.json")" = "$before" ] ||
	fail "a setuid program run by nobody changed a root-only file"
[ ! -e "$TMP/root-only/new.txt" ] || fail "a setuid program run by nobody created a file in a root-only directory"
[ ! -s "$TMP/e1" ] && [ ! -s "$TMP/e2" ] && [ ! -s "$TMP/e3" ] || { cat "$TMP"/e[123] >&2; fail "the library spoke"; }
ok "setuid program run by nobody: PMCTOOL_* ignored, root-only files untouched, no new file, nothing on stderr"
# Its report to stderr would be obeying too: none.
as_nobody env PMCTOOL_REGIONS_EVENTS=task-clock "$TMP/rg" basic 2>"$TMP/e4" >/dev/null
[ ! -s "$TMP/e4" ] || { cat "$TMP/e4" >&2; fail "a setuid program printed a region report"; }
ok "setuid program run by nobody: no report on stderr either"

# The control: the same program without the bit counts and reports for nobody.
cp "$RG" "$TMP/plain"
chmod 755 "$TMP/plain"
mkdir -m 777 "$TMP/anyone"
as_nobody env PMCTOOL_REGIONS_EVENTS=task-clock PMCTOOL_REGIONS_OUT="$TMP/anyone/report.txt" "$TMP/plain" basic \
	>/dev/null 2>&1 || fail "the plain program as nobody: exit status $?"
grep -qE '^outer +0 +3 ' "$TMP/anyone/report.txt" || fail "the plain program as nobody wrote no report"
ok "the same program without the setuid bit reports as asked (the variables are what the setuid one ignored)"
