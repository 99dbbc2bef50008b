#!/usr/bin/env bash
# Boot an arm64 Linux guest under QEMU TCG (a real armv8 PMU, exact user-mode instruction counts) and run a script in it.
#
#   tests/rig/boot.sh [--smp N] [--shift S] [--timeout SEC] [--log FILE] GUESTDIR GUESTSCRIPT
#
# GUESTDIR's files are packed into the initramfs under /rig (static aarch64 programs: busybox is the only userland),
# GUESTSCRIPT runs as root with busybox sh from /rig, with /proc, /sys, /dev and a tmpfs /tmp mounted, PATH=/rig:/bin.
# The console (the script's output) is printed as it comes and saved to --log FILE. Exit status: the guest script's
# own (read from the end marker 'RIG-END rc=N' that /init prints), or 125 when the guest did not get that far (boot
# failure, kernel panic, timeout, no end marker): QEMU exits 0 on guest power-off whatever happened, so the marker is
# the only verdict. --shift is QEMU's -icount shift (0: one instruction per cycle, IPC exactly 1; 1: IPC 0.5; none: no -icount).
# Defaults: --smp 1 --shift 0 --timeout 240. The kernel and busybox are fetched once into ~/.cache/pmctool-rig.
# Example: mkdir g && cp build-aarch64/pmctool g/ && echo 'pmctool info' > t.sh && tests/rig/boot.sh g t.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

smp=1 shift_=0 timeout=240 log=
while [ $# -gt 0 ]; do
	case $1 in
	--smp) smp=$2; shift 2 ;;
	--shift) shift_=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "boot.sh: unknown option $1 (see the comment at the top of $0)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] && [ -d "$1" ] && [ -f "$2" ] || { echo "usage: boot.sh [--smp N] [--shift S] [--timeout SEC] [--log FILE] GUESTDIR GUESTSCRIPT" >&2; exit 2; }
guestdir=$1 guestscript=$2

command -v qemu-system-aarch64 >/dev/null || { rig_say "qemu-system-aarch64 missing (apt-get install qemu-system-arm)"; exit 125; }
rig_guest_parts || exit 125

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmctool-rig.XXXXXX") || exit 125
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp,etc,rig} || exit 125
cp "$RIG_BUSYBOX" "$root/bin/busybox" && ln -s busybox "$root/bin/sh" || exit 125
cp -r "$guestdir"/. "$root/rig/" && cp "$guestscript" "$root/rig/guest.sh" || exit 125
# Users for tests run unprivileged (uid 1000).
printf 'root:x:0:0:root:/root:/bin/sh\nrig:x:1000:1000:rig:/tmp:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nrig:x:1000:\n' > "$root/etc/group"
cat > "$root/init" <<'INIT'
#!/bin/sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs tmp /tmp
chmod 1777 /tmp
export PATH=/rig:/bin HOME=/tmp
cd /rig
echo "RIG-BOOTED uptime $(cut -d' ' -f1 /proc/uptime) s"
sh /rig/guest.sh
echo "RIG-END rc=$?"
poweroff -f
INIT
chmod 755 "$root/init" "$root/rig/guest.sh"
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) > "$tmp/initramfs.cpio.gz" || exit 125

[ -n "$log" ] || log=$tmp/console.log
start=$(date +%s.%N)
# -nic none: else QEMU looks for efi-virtio.rom. panic=-1 with -no-reboot: a panic ends QEMU at once.
# --shift none: no -icount at all (QEMU then does not count instructions: `pmctool check`'s degraded case).
icount=(-icount "shift=$shift_")
[ "$shift_" = none ] && icount=()
timeout --foreground -k 5 "$timeout" qemu-system-aarch64 -M virt -cpu cortex-a57 -accel tcg "${icount[@]}" \
	-nic none -m 1G -smp "$smp" -nographic -no-reboot -kernel "$RIG_KERNEL" -initrd "$tmp/initramfs.cpio.gz" \
	-append "console=ttyAMA0 panic=-1 quiet rdinit=/init" </dev/null 2>&1 | tr -d '\r' | tee "$log"
qrc=${PIPESTATUS[0]}
[ -s "$log" ] && [ -n "$(tail -c 1 "$log")" ] && echo	# the console's last line has no newline
secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')

if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	rig_say "timeout: the guest ran past ${timeout} s (smp $smp, shift $shift_)"; exit 125
fi
if grep -q 'Kernel panic' "$log"; then
	rig_say "kernel panic in the guest (smp $smp, shift $shift_): $(grep -m1 'Kernel panic' "$log")"; exit 125
fi
if [ "$qrc" -ne 0 ]; then
	rig_say "qemu-system-aarch64 failed with status $qrc"; exit 125
fi
if ! grep -q '^RIG-BOOTED' "$log"; then
	rig_say "the guest never reached /init (boot failure; console in $log)"; exit 125
fi
end=$(grep -a '^RIG-END rc=' "$log" | tail -n 1)
if [ -z "$end" ]; then
	rig_say "no end marker: the guest script did not finish (smp $smp, shift $shift_)"; exit 125
fi
rig_say "boot smp $smp shift $shift_: $secs s in QEMU, $(grep -a '^RIG-BOOTED' "$log" | sed 's/RIG-BOOTED //') to /init, guest script ${end#RIG-END }"
exit "${end#RIG-END rc=}"
