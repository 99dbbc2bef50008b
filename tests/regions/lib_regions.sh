# Helpers for the region tests (sourced after tests/lib.sh): the marked program and its markers' addresses, and a
# JSON query over pmctool's report.
RG="$PMC_BUILD_DIR/tests/regions/prog/rg-prog"
[ -x "$RG" ] || fail "$RG is not built"
A=0x$(nm "$RG" | awk '$3 == "marker_a" { print $1 }')
B=0x$(nm "$RG" | awk '$3 == "marker_b" { print $1 }')
C=0x$(nm "$RG" | awk '$3 == "marker_c" { print $1 }')
[ "$A" != 0x ] && [ "$B" != 0x ] && [ "$C" != 0x ] || fail "no marker symbols in $RG"

# q EXPR: evaluate a Python expression over the JSON report in $TMP/out (d: the document; region(name): its entry;
# ev(name): the index of an event; val(region, event[, thread]): a region's count; check(name): its messages).
q() {
	python3 - "$TMP/out" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def region(n):
    return next(r for r in d["regions"]["list"] if r["name"] == n)
def ev(n):
    return [e["name"] for e in d["events"]].index(n)
def val(r, e, t=None):
    rg = region(r)
    counts = rg["counts"] if t is None else next(x for x in rg["threads"] if x["thread"] == t)["counts"]
    return next(c["value"] for c in counts if c["event"] == e)
def check(n):
    return [c["message"] for c in d["checks"] if c["name"] == n]
print(eval(sys.argv[2]))
PY
}

# expect_q EXPR WANT WHAT: the query's answer is exactly WANT.
expect_q() {
	local got
	got=$(q "$1") || fail "$3: query $1 failed"
	[ "$got" = "$2" ] || { cat "$TMP/err" >&2; fail "$3: $1 is $got, expected $2"; }
	ok "$3: $1 = $2"
}
