#!/usr/bin/env bash
# pmctool quick start: install what is missing (Debian 12), build into build/, and run one real measurement.
#   ./setup.sh              everything, ending with 'build/pmctool stat -- ls'
#   ./setup.sh --deps-only  only install the Debian packages that are missing
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(meson ninja-build pkg-config gcc libc6-dev binutils libpfm4-dev libcmocka-dev valgrind python3 util-linux procps strace python3-jsonschema linux-perf openmpi-bin librsvg2-bin)
# The Debian packages (debian/, tests/deb/test_deb.sh in .ci/run): dpkg-buildpackage's helpers and lintian.
PACKAGES+=(debhelper lintian)
# The Python package (pyproject.toml, python/, tests/python): a venv with pip, `pip install .` offline through Debian's
# meson-python (python3-mesonpy); pytest for its plugin (pmctool.pytest_plugin).
PACKAGES+=(python3-venv python3-pip python3-mesonpy python3-pytest)

# The arm64 QEMU rig (tests/rig, suite 'rig'): the emulator, the cross compiler and libpfm4's arm64 static library for
# the static aarch64 pmctool (Debian multiarch). tests/rig fetches the guest kernel and busybox itself.
PACKAGES+=(qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross cpio libpfm4-dev:arm64)
# libFuzzer (tests/fuzz/run-fuzzers.sh; CI builds its targets with it).
PACKAGES+=(clang)
# pmctool serve against a real Prometheus (tests/serve): its server and promtool. The tests run the binary themselves
# on loopback with a temporary storage; they never use the package's service.
PACKAGES+=(prometheus)
missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	SUDO=
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || { echo "setup: need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1; }
		SUDO=sudo
	fi
	export DEBIAN_FRONTEND=noninteractive
	if [[ " ${missing[*]}" == *:arm64* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
		echo "setup: adding the arm64 architecture (dpkg --add-architecture arm64) for libpfm4-dev:arm64"
		$SUDO dpkg --add-architecture arm64
	fi
	$SUDO apt-get update -qq
	# Debian's prometheus package starts and enables its own server, on every interface: the tests never want it
	# (they run the binary on loopback). Its service is neither started (policy-rc.d, Debian's way of saying so,
	# only for this install and only where none is in place) nor enabled.
	norc=
	if [[ " ${missing[*]} " == *" prometheus "* ]] && [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null && $SUDO chmod 755 /usr/sbin/policy-rc.d &&
			norc=1
		trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
	fi
	$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
	if [ -n "$norc" ]; then
		$SUDO rm -f /usr/sbin/policy-rc.d
		trap - EXIT
		if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
			$SUDO systemctl disable --now prometheus.service >/dev/null 2>&1 || true
		fi
		echo "setup: prometheus is installed for the tests; its own service is not started and not enabled"
	fi
fi
[ "${1:-}" = "--deps-only" ] && exit 0

if [ -f build/build.ninja ]; then
	meson setup --reconfigure build >/dev/null
else
	meson setup build >/dev/null
fi
ninja -C build
echo
echo "setup: built build/pmctool; a first measurement:"
build/pmctool stat -- ls
