# Shared by boot.sh and rig.sh (sourced, not run): what the arm64 QEMU rig needs and where it keeps it.
# REFERENCE.md section 11 has the recipe and why each piece is there.

# Downloads that survive 'rm -rf build': the guest kernel and busybox.
RIG_CACHE=${RIG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pmctool-rig}

# Host commands the rig runs, and the Debian package that brings each.
RIG_TOOLS=(qemu-system-aarch64:qemu-system-arm aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu cpio:cpio
	meson:meson ninja:ninja-build)

rig_say() { printf 'rig: %s\n' "$*" >&2; }

# Prints the missing Debian packages of the rig (host tools, the arm64 libc and libpfm4 for the static cross link).
rig_missing_packages() {
	local t
	for t in "${RIG_TOOLS[@]}"; do
		command -v "${t%%:*}" >/dev/null 2>&1 || echo "${t#*:}"
	done
	[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || echo libc6-dev-arm64-cross
	[ -f /usr/lib/aarch64-linux-gnu/libpfm.a ] || echo libpfm4-dev:arm64
}

# Installs what is missing through setup.sh (which owns the package list). Returns 1 when something is still
# missing afterwards (no root, no network): the caller skips, naming it.
rig_install() {
	local src=$1 missing
	missing=$(rig_missing_packages | sort -u | tr '\n' ' ')
	[ -z "$missing" ] && return 0
	rig_say "installing $missing(through setup.sh --deps-only)"
	"$src/setup.sh" --deps-only >&2 || true
	missing=$(rig_missing_packages | sort -u | tr '\n' ' ')
	[ -z "$missing" ] && return 0
	RIG_MISSING=$missing
	return 1
}

# Fetches (once, into RIG_CACHE) an arm64 Debian package and unpacks the part of it the rig uses.
# $1 package name (with :arm64), $2 directory name in the cache, $3 path inside the package to extract.
rig_fetch_deb() {
	local pkg=$1 dir=$RIG_CACHE/$2 part=$3 deb
	[ -e "$dir/$part" ] && return 0
	mkdir -p "$RIG_CACHE" || return 1
	rm -rf "$dir" "$RIG_CACHE"/dl
	mkdir -p "$RIG_CACHE/dl" "$dir.tmp" || return 1
	# apt-get download writes into the current directory; the _apt user may not reach $HOME (then apt says so
	# and downloads as the caller, which is what we want).
	(cd "$RIG_CACHE/dl" && apt-get download -q "$pkg" 2>&1 | grep -v 'unsandboxed' >&2) || true
	deb=$(ls "$RIG_CACHE"/dl/*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		rig_say "could not download $pkg (apt-get download; is the arm64 architecture added: dpkg --add-architecture arm64 && apt-get update?)"
		rm -rf "$dir.tmp" "$RIG_CACHE/dl"
		return 1
	fi
	# Only the part needed: the kernel package's modules are hundreds of MB unpacked.
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" "./$part" || { rm -rf "$dir.tmp" "$RIG_CACHE/dl"; return 1; }
	rm -rf "$RIG_CACHE/dl"
	mv "$dir.tmp" "$dir"
}

# Sets RIG_KERNEL and RIG_BUSYBOX, fetching them when not cached. The kernel is the one Debian's
# linux-image-arm64 meta package names today (its ABI number changes: resolved, never hard-coded).
rig_guest_parts() {
	local kpkg kver
	kpkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	kpkg=${kpkg%:arm64}
	if [ -z "$kpkg" ]; then
		# No apt metadata for arm64 (offline?): use a kernel fetched earlier, if any.
		kpkg=$(cd "$RIG_CACHE" 2>/dev/null && ls -d linux-image-*-arm64 2>/dev/null | sort -V | tail -n 1)
		[ -n "$kpkg" ] || { rig_say "apt-cache knows no linux-image-arm64:arm64 (run: dpkg --add-architecture arm64 && apt-get update)"; return 1; }
	fi
	kver=${kpkg#linux-image-}
	rig_fetch_deb "$kpkg:arm64" "$kpkg" "boot/vmlinuz-$kver" || return 1
	rig_fetch_deb busybox-static:arm64 busybox-static bin/busybox || return 1
	RIG_KERNEL=$RIG_CACHE/$kpkg/boot/vmlinuz-$kver
	RIG_BUSYBOX=$RIG_CACHE/busybox-static/bin/busybox
}
