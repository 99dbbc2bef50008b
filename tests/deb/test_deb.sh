#!/usr/bin/env bash
# The Debian packages, built, checked, installed and used as a user would (issue 38 item 3), from a clean copy of the
# committed tree (dpkg-buildpackage writes its .debs beside the source, so never into the checkout's parent):
#   1. dpkg-buildpackage -b -us -uc builds pmctool, libpmctool0, libpmctool-dev, libpmctool-engine0 and
#      libpmctool-engine-dev;
#   2. lintian finds no error;
#   3. the packages' files are the files 'meson install' puts in the same places (less Debian's own doc files);
#   4. installed into this machine: the installed pmctool counts 'true', and a region program built with
#      'pkg-config --cflags --libs libpmctool' is measured by it with --regions; a program built with
#      'pkg-config --cflags --libs pmctool-engine' measures 'true' through the packaged engine library;
#   5. the packages are purged again, whatever happened (the machine is left as it was found).
# Run by .ci/run as root (it installs into the machine), not by meson test. Needs debhelper and lintian (setup.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
[ "$(id -u)" -eq 0 ] || { echo "test_deb: SKIP: installs packages into the machine, needs root"; exit 77; }
for t in dpkg-buildpackage lintian dh; do
	command -v "$t" >/dev/null || { echo "test_deb: FAIL: $t missing: ./setup.sh --deps-only installs it"; exit 1; }
done
if dpkg-query -W -f='${Status}' pmctool 2>/dev/null | grep -q "install ok installed"; then
	echo "test_deb: SKIP: a pmctool package is already installed here; not replacing it"; exit 77
fi

work=$(mktemp -d /tmp/pmctool-deb.XXXXXX)
installed=0
cleanup() {
	[ "$installed" = 1 ] && dpkg --purge libpmctool-engine-dev libpmctool-engine0 libpmctool-dev libpmctool0 pmctool >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

# 1. Build from the committed tree plus the working tree's changes (git ls-files: tracked files as they are now).
mkdir "$work/src"
git -C "$src" ls-files -z | (cd "$src" && xargs -0 cp --parents -t "$work/src")
(cd "$work/src" && dpkg-buildpackage -b -us -uc >"$work/build.log" 2>&1) || {
	tail -40 "$work/build.log"; echo "test_deb: FAIL: dpkg-buildpackage"; exit 1; }
debs=("$work"/pmctool_*.deb "$work"/libpmctool0_*.deb "$work"/libpmctool-dev_*.deb "$work"/libpmctool-engine0_*.deb
	"$work"/libpmctool-engine-dev_*.deb)
for d in "${debs[@]}"; do [ -f "$d" ] || { echo "test_deb: FAIL: no $d"; exit 1; }; done
echo "ok 1 - dpkg-buildpackage built: ${debs[*]##*/}"

# 2. lintian: no error (warnings are printed; the one deliberate one is overridden with its reason).
lintian --fail-on error --allow-root "$work"/pmctool_*.changes || { echo "test_deb: FAIL: lintian errors"; exit 1; }
echo "ok 2 - lintian: no error"

# 3. The same files as meson install.
# meson install from the build tree debhelper configured (prefix /usr, -Dtests=false), into a scratch root.
mbuild=$(echo "$work"/src/obj-*)
[ -f "$mbuild/build.ninja" ] || { echo "test_deb: FAIL: no meson build tree left by debhelper ($mbuild)"; exit 1; }
DESTDIR="$work/dest" meson install -C "$mbuild" --no-rebuild >/dev/null
(cd "$work/dest" && find . -type f -o -type l | sed 's|^\.||' | sed -E 's|/usr/lib/[^/]*-linux-gnu[^/]*/|/usr/lib/MA/|' |
	grep -v '^/usr/share/man/' | sort) >"$work/meson.list"
for d in "${debs[@]}"; do dpkg-deb -c "$d"; done | awk '{print $6}' | sed 's|^\.||' | grep -v '/$' |
	sed -E 's| -> .*||; s|/usr/lib/[^/]*-linux-gnu[^/]*/|/usr/lib/MA/|' |
	grep -v -e '^/usr/share/doc/' -e '^/usr/share/lintian/' -e '^/usr/share/man/' | sort >"$work/deb.list"
# Man pages are compressed by the package (dh_compress): compare them by name.
(cd "$work/dest" && find usr/share/man -type f | sed 's|\.gz$||' | sort) >"$work/meson.man"
for d in "${debs[@]}"; do dpkg-deb -c "$d"; done | awk '{print $6}' | grep '^\./usr/share/man/.*[^/]$' |
	sed 's|^\./||; s|\.gz$||' | sort >"$work/deb.man"
if ! diff -u "$work/meson.list" "$work/deb.list" || ! diff -u "$work/meson.man" "$work/deb.man"; then
	echo "test_deb: FAIL: the packages and meson install differ (- meson, + packages)"; exit 1
fi
echo "ok 3 - the packages hold the $(wc -l <"$work/meson.list") files and $(wc -l <"$work/meson.man") man pages meson install puts there"

# 4. Installed and used.
installed=1
dpkg -i "${debs[@]}" >/dev/null
out=$(/usr/bin/pmctool stat -x, -e task-clock -- true 2>&1) || { echo "$out"; echo "test_deb: FAIL: installed pmctool stat"; exit 1; }
grep -q ',task-clock,' <<<"$out" || { echo "$out"; echo "test_deb: FAIL: no task-clock row"; exit 1; }
[ -d /usr/share/pmctool/tables ] || { echo "test_deb: FAIL: no /usr/share/pmctool/tables"; exit 1; }
/usr/bin/pmctool sets >/dev/null || { echo "test_deb: FAIL: installed pmctool finds no event sets"; exit 1; }
man -w pmctool-stat >/dev/null 2>&1 || { echo "test_deb: FAIL: man pmctool-stat not found"; exit 1; }
echo "ok 4 - installed pmctool counts: $(grep ',task-clock,' <<<"$out" | cut -d, -f1) msec task-clock of true"
cat >"$work/prog.c" <<'C'
#include <pmctool.h>
#include <stdio.h>
volatile unsigned long sink;
int main(void)
{
	PMCTOOL_REGION_BEGIN("loop");
	for (unsigned long i = 0; i < 1000000; i++)
		sink += i;
	PMCTOOL_REGION_END("loop");
	printf("sink %lu\n", sink);
	return 0;
}
C
# shellcheck disable=SC2046
cc -DPMCTOOL_MARKERS -o "$work/prog" "$work/prog.c" $(pkg-config --cflags --libs libpmctool)
so=$(ldd "$work/prog" | awk '$1 == "libpmctool.so.0" {print $3}')
dpkg -L libpmctool0 | grep -qx "$(readlink -f "$so")" ||
	{ ldd "$work/prog"; echo "test_deb: FAIL: not linked to the packaged libpmctool.so.0"; exit 1; }
/usr/bin/pmctool stat --regions --json -o "$work/regions.json" -e task-clock -- "$work/prog" >/dev/null ||
	{ echo "test_deb: FAIL: pmctool stat --regions of the pkg-config program"; exit 1; }
python3 - "$work/regions.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = [x for x in d["regions"]["list"] if x["name"] == "loop"]
assert r, "no region 'loop' in the report"
assert r[0]["calls"] == 1, "region 'loop' calls %r, not 1" % r[0]["calls"]
tc = [c for c in r[0]["counts"] if c["event"] == "task-clock"]
assert tc and tc[0]["value"] > 0, "no task-clock counted in region 'loop': %r" % r[0]["counts"]
print("ok 5 - a program built with pkg-config libpmctool: region 'loop' entered once, %d ns task-clock" % tc[0]["value"])
PY
cat >"$work/eng.c" <<'C'
#include <pmctool_engine.h>
#include <stdio.h>
int main(void)
{
	const char *argv[] = { "true", NULL };
	struct pmctool_request rq = { .argv = argv, .events = "task-clock", .runs = 1 };
	struct pmctool_result *r = NULL;
	struct pmctool_error err = { 0 };
	struct pmctool_engine *e = pmctool_engine_new();
	int rc = e ? pmctool_measure(e, &rq, &r, &err) : -1;

	if (rc || !r || r->ncounts != 1 || r->counts[0].status != PMCTOOL_COUNTED || !(r->counts[0].value > 0)) {
		fprintf(stderr, "measure: rc %d: %s: %s\n", rc, err.subject, err.detail);
		return 1;
	}
	printf("%.0f\n", r->counts[0].value);
	pmctool_result_free(r);
	pmctool_engine_free(e);
	return 0;
}
C
# shellcheck disable=SC2046
cc -o "$work/eng" "$work/eng.c" $(pkg-config --cflags --libs pmctool-engine) ||
	{ echo "test_deb: FAIL: a program built with pkg-config pmctool-engine"; exit 1; }
so=$(ldd "$work/eng" | awk '$1 == "libpmctool-engine.so.0" {print $3}')
dpkg -L libpmctool-engine0 | grep -qx "$(readlink -f "$so")" ||
	{ ldd "$work/eng"; echo "test_deb: FAIL: not linked to the packaged libpmctool-engine.so.0"; exit 1; }
ns=$("$work/eng") || { echo "test_deb: FAIL: the engine program built with pkg-config pmctool-engine"; exit 1; }
echo "ok 6 - a program built with pkg-config pmctool-engine measured 'true': $ns ns task-clock"
echo "test_deb: 6 passed, 0 failed"
