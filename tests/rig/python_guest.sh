# The Python guest's files (issue 37), sourced by rig.sh: the engine library and libpmctool cross-built as shared
# libraries (a second aarch64 build, -Dstatic=false), the package from python/, and Debian's arm64 python3 with the
# shared libraries it and libpfm4 need, fetched once into the rig's cache like valgrind. Python goes into a guest of
# its own (about 16 MB more in the initramfs, which every boot would otherwise unpack).

# rig_python_guest SRC WORK GUEST OUT: OUT becomes GUEST plus Python. 0, or 1 with the reason on stdout.
rig_python_guest() {
	local src=$1 work=$2 guest=$3 out=$4 b=$2/build-aarch64-shared pyver libs t s
	if [ ! -f "$b/build.ninja" ]; then
		meson setup "$b" "$src" --cross-file "$src/cross/aarch64-linux-gnu.txt" -Dstatic=false \
			> "$work/meson-setup-shared.log" 2>&1 || { echo "meson setup of the shared aarch64 build failed (see $work/meson-setup-shared.log)"; return 1; }
	fi
	libs=$(ninja -C "$b" -t targets all 2>/dev/null |
		awk -F: '$1 ~ /^src\/(api|regions\/lib)\/libpmctool[-a-z]*\.so\.[0-9]+\.[0-9]+\.[0-9]+$/ { print $1 }')
	[ "$(echo "$libs" | wc -w)" = 2 ] || { echo "the shared aarch64 build has no engine and region libraries ($libs)"; return 1; }
	# shellcheck disable=SC2086
	ninja -C "$b" -j2 $libs > "$work/ninja-shared.log" 2>&1 || { tail -n 20 "$work/ninja-shared.log"; echo "the shared aarch64 build failed"; return 1; }
	# Debian's python3 for arm64, whichever version python3-minimal names (3.11 on Debian 12).
	pyver=$(apt-cache depends python3-minimal:arm64 2>/dev/null | awk '/Depends: python3\.[0-9]+-minimal/ { sub(/-minimal.*/, "", $2); print $2; exit }')
	[ -n "$pyver" ] || pyver=$(cd "$RIG_CACHE" 2>/dev/null && ls -d python3.*-minimal 2>/dev/null | sed 's/-minimal//' | tail -n 1)
	[ -n "$pyver" ] || { echo "apt-cache names no python3-minimal:arm64"; return 1; }
	rig_fetch_deb "$pyver-minimal:arm64" "$pyver-minimal" "usr/bin/$pyver" &&
		rig_fetch_deb "lib$pyver-minimal:arm64" "lib$pyver-minimal" "usr/lib/$pyver" &&
		rig_fetch_deb "lib$pyver-stdlib:arm64" "lib$pyver-stdlib" "usr/lib/$pyver" &&
		rig_fetch_deb libffi8:arm64 libffi8 usr/lib/aarch64-linux-gnu &&
		rig_fetch_deb zlib1g:arm64 zlib1g lib/aarch64-linux-gnu &&
		rig_fetch_deb libexpat1:arm64 libexpat1 lib/aarch64-linux-gnu &&
		rig_fetch_deb libpfm4:arm64 libpfm4 usr/lib/aarch64-linux-gnu || { echo "could not fetch $pyver:arm64 or a library it needs"; return 1; }
	rm -rf "$out" && cp -r "$guest" "$out" || return 1
	s=$out/sysroot
	mkdir -p "$s/usr/bin" "$s/usr/lib/aarch64-linux-gnu" "$s/lib/aarch64-linux-gnu" "$out/python" || return 1
	cp "$RIG_CACHE/$pyver-minimal/usr/bin/$pyver" "$s/usr/bin/" &&
		cp -r "$RIG_CACHE/lib$pyver-minimal/usr/lib/$pyver" "$s/usr/lib/" &&
		cp -r "$RIG_CACHE/lib$pyver-stdlib/usr/lib/$pyver"/. "$s/usr/lib/$pyver/" &&
		cp -a "$RIG_CACHE"/libffi8/usr/lib/aarch64-linux-gnu/. "$RIG_CACHE"/libpfm4/usr/lib/aarch64-linux-gnu/. \
			"$s/usr/lib/aarch64-linux-gnu/" &&
		cp -a "$RIG_CACHE"/zlib1g/lib/aarch64-linux-gnu/. "$RIG_CACHE"/libexpat1/lib/aarch64-linux-gnu/. \
			"$s/lib/aarch64-linux-gnu/" || return 1
	# The C library's other parts python3 and libpfm4 link (valgrind's boot copies only the loader and libc).
	for t in libm.so.6 libc.so.6 ld-linux-aarch64.so.1; do
		cp "$RIG_CACHE/libc6/lib/aarch64-linux-gnu/$t" "$s/lib/aarch64-linux-gnu/" || return 1
	done
	[ -e "$s/lib/ld-linux-aarch64.so.1" ] || ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$s/lib/ld-linux-aarch64.so.1"
	# What the package never imports, left out of the initramfs.
	rm -rf "$s/usr/lib/$pyver"/{test,pydoc_data,idlelib,tkinter,turtledemo,lib2to3,ensurepip,config-*}
	# Each library under its soname too (lib...so.0.1.0 -> lib...so.0), which is how the package finds them on a
	# system (python/pmctool/_lib.py).
	for t in $libs; do
		cp "$b/$t" "$s/usr/lib/aarch64-linux-gnu/" &&
			ln -sf "${t##*/}" "$s/usr/lib/aarch64-linux-gnu/$(basename "${t%.*.*}")" || return 1
	done
	cp -r "$src/python/pmctool" "$out/python/" && find "$out/python" -name __pycache__ -prune -exec rm -rf {} + &&
		cp "$src/tests/rig/guest/rig_python.py" "$out/" || return 1
	# Byte-compiled here when this machine's python3 is the guest's version (bytecode is the same on every CPU):
	# compiling the standard library at every start under the emulator would take seconds per run.
	if command -v "$pyver" >/dev/null; then
		"$pyver" -m compileall -q -j 2 --invalidation-mode unchecked-hash "$s/usr/lib/$pyver" "$out/python" >/dev/null 2>&1 || true
	fi
	return 0
}
