#!/usr/bin/env bash
# A full file system never leaves a half-written report (issue 28 item 4). A file with several hard links, or another
# user's, is written in place (the links and the owner stay): pmctool reserves the report's space in it first, so
# when the disk is full the old contents stay exactly as they were, the status is 4 naming the path, and the counts
# go to stderr instead. On a small tmpfs in a private mount namespace, never on the machine's own file systems.
source "$PMC_SOURCE_DIR/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root (a private mount namespace with its own small tmpfs)"
unshare -m --propagation private true 2>/dev/null || skip "unshare -m does not work here"

NS="$TMP/ns"
mkdir "$NS"
unshare -m --propagation private bash -s "$PMCTOOL" "$NS" >"$TMP/ns.log" 2>&1 <<'NSEOF' || { cat "$TMP/ns.log"; fail "in-place cases"; }
set -eu
P=$1 D=$2 E=$(dirname "$2")/err  # stderr kept off the full file system
mount -t tmpfs -o size=256k pmctool-small "$D"
chmod 755 "$(dirname "$D")"
# The report is ~19 KB of JSON; the old files hold one page each, and the file system is then filled up.
EVENTS=task-clock,page-faults,context-switches,cpu-migrations,minor-faults
seq 1 500 >"$D/linked.json"; ln "$D/linked.json" "$D/other-name.json"
seq 1 500 >"$D/theirs.json"; chown 65534:65534 "$D/theirs.json"; chmod 666 "$D/theirs.json"
cp "$D/linked.json" "$D/old-contents"
dd if=/dev/zero of="$D/filler" bs=4k 2>/dev/null || true
# theirs.json is written by uid 1000: another user's file (root would replace it through a rename, keeping its owner).
AS=(setpriv --reuid 1000 --regid 1000 --clear-groups)
run() { if [ "$1" = theirs.json ]; then "${AS[@]}" "$P" "${@:2}"; else "$P" "${@:2}"; fi; }
for target in linked.json theirs.json; do
	set +e
	run "$target" stat --json -r 20 -e "$EVENTS" -o "$D/$target" -- true 2>"$E"; rc=$?
	set -e
	[ "$rc" -eq 4 ] || { cat "$E"; echo "$target on a full file system: exit $rc, expected 4"; exit 1; }
	grep -q "cannot write the report to '$D/$target': No space left on device" "$E" || { cat "$E"; exit 1; }
	cmp -s "$D/$target" "$D/old-contents" || { echo "$target: the old report was damaged:"; wc -c "$D/$target"; exit 1; }
	grep -q '"kind": *"stat"' "$E" || { cat "$E"; echo "$target: the counts did not go to stderr"; exit 1; }
done
[ "$(stat -c %i "$D/linked.json")" = "$(stat -c %i "$D/other-name.json")" ] || { echo "the hard link was broken"; exit 1; }
[ "$(stat -c %u "$D/theirs.json")" = 65534 ] || { echo "the other user's file changed owner"; exit 1; }
echo "ok: a hard-linked and another user's report on a full file system: exit 4, the old contents intact, the counts on stderr"
# With room again, the same targets are written whole, in place.
rm "$D/filler"
for target in linked.json theirs.json; do
	run "$target" stat --json -r 20 -e "$EVENTS" -o "$D/$target" -- true
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$D/$target" || { echo "$target: not whole JSON"; exit 1; }
done
cmp -s "$D/linked.json" "$D/other-name.json" || { echo "the other name does not see the report"; exit 1; }
[ "$(stat -c %u "$D/theirs.json")" = 65534 ] || { echo "the other user's file changed owner"; exit 1; }
# A shorter report over a longer old file: nothing of the old tail stays.
seq 1 20000 >"$D/linked.json"
"$P" stat --json -e task-clock -o "$D/linked.json" -- true
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$D/linked.json" || { echo "old tail left after a shorter report"; exit 1; }
echo "ok: with room, the hard-linked and the other user's report are written whole in place, with no old tail"
NSEOF
cat "$TMP/ns.log"
