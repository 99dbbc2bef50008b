#!/usr/bin/env bash
# -I with -o on a full disk follows -o's rule without -I (issue 39 item 7): exit 4 naming the path, and what could
# not be written there goes to stderr instead (the remaining intervals and the report), never lost. /dev/full fails
# every write with ENOSPC, as a full file system does (test_stat_o_full_in_place.sh covers a real full tmpfs).
source "$PMC_SOURCE_DIR/tests/lib.sh"

[ -w /dev/full ] || skip "no /dev/full here"
for fmt in "" "--json" "-x ,"; do
	# shellcheck disable=SC2086 # the format's words
	run_pmc stat -I 100 $fmt -e task-clock,page-faults -o /dev/full -- sleep 0.45
	expect_rc 4 "-I $fmt -o /dev/full"
	expect_err "cannot write the interval records to '/dev/full': No space left on device; the remaining intervals and the report follow on stderr instead" \
		"-I $fmt: the error said once, with where the rest goes"
	[ "$(grep -c "cannot write" "$TMP/err")" -eq 1 ] || fail "-I $fmt: the error said more than once"
	case $fmt in
	--json)
		python3 - "$TMP/err" <<'PY' || fail "-I --json: the remaining intervals and the total are not on stderr"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
kinds = [d["kind"] for d in docs]
assert kinds.count("interval") >= 2 and kinds[-1] == "stat", kinds
assert any(e["name"] == "page-faults" and e["mean"] > 0 for e in docs[-1]["events"]), docs[-1]["events"]
PY
		;;
	"")
		[ "$(grep -c '^ *[0-9.]\+ .*page-faults' "$TMP/err")" -ge 2 ] || { cat "$TMP/err" >&2; fail "-I: the remaining intervals are not on stderr"; }
		expect_err "Performance counter stats for 'sleep 0.45'" "-I: the report follows on stderr"
		;;
	*)
		[ "$(grep -c ',page-faults,' "$TMP/err")" -ge 3 ] || { cat "$TMP/err" >&2; fail "-I -x: the intervals and totals are not on stderr"; }
		;;
	esac
done
ok "-I -o on a full disk: exit 4, the error said once, the remaining intervals and the report on stderr (text, JSON, -x)"
