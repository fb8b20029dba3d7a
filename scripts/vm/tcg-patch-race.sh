#!/usr/bin/env bash
# Why a TCG guest of fsprof run --kernel has one vCPU (src/vm/guest.c,
# GUEST_CPUS_TCG): boots a staged kernel under QEMU TCG BOOTS times with
# -smp SMP and, under a scheduling load on every vCPU, flips the
# sched_switch tracepoint on and off TOGGLES times (each flip patches the
# kernel's text: a static key, text_poke_bp). Prints a line per boot:
# "oops" (the console has the kernel's oops; its title is printed) or "ok",
# and how many flips it made; the consoles are kept in OUT.
#
#   scripts/vm/tcg-patch-race.sh [--smp N] [--boots N] [--toggles N]
#                                [--kernel DIR] [--out DIR]
#
# --kernel: a kernel-stage.sh directory (default: the staged 6.12 in
# /var/cache/fsprof-vm/staged). Session 13 (Debian 6.12.118, QEMU 7.2,
# load on every vCPU): -smp 2 oopsed 7 boots of 7 ("Oops: int3" in
# __schedule or try_to_wake_up, within 100 flips), -smp 1 none of 5 (1,000
# flips each). Each boot runs under the timing lock that the tests take.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
smp=2 boots=3 toggles=1000 out=/var/tmp/tcg-patch-race
kdir=$(ls -d /var/cache/fsprof-vm/staged/linux-image-6.12* 2>/dev/null | head -n1 || true)
while [ $# -gt 0 ]; do
	case "$1" in
	--smp) smp=${2:?--smp needs a value}; shift ;;
	--boots) boots=${2:?--boots needs a value}; shift ;;
	--toggles) toggles=${2:?--toggles needs a value}; shift ;;
	--kernel) kdir=${2:?--kernel needs a value}; shift ;;
	--out) out=${2:?--out needs a value}; shift ;;
	*) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2 ;;
	esac
	shift
done
[ -n "$kdir" ] && [ -e "$kdir/boot" ] || {
	echo "tcg-patch-race: no staged kernel (--kernel DIR; fsprof run --kernel 6.12 stages one)" >&2
	exit 2
}
mkdir -p "$out"
work=$(mktemp -d "$out/work.XXXXXX")
trap 'rm -rf "$work"' EXIT

# the guest script (busybox sh, run by scripts/vm/init): the load, then the
# flips, each hundred said on the console
cat >"$work/guest.sh" <<'EOF'
#!/bin/sh
n=1000
for w in $(cat /proc/cmdline); do
	case "$w" in race_toggles=*) n=${w#race_toggles=} ;; esac
done
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
for c in $(seq "$(grep -c ^processor /proc/cpuinfo)"); do
	dd if=/dev/zero bs=1 count=2000000000 2>/dev/null | cat >/dev/null &
done
i=0
while [ $i -lt "$n" ]; do
	echo 1 >$T/events/sched/sched_switch/enable
	echo 0 >$T/events/sched/sched_switch/enable
	i=$((i + 1))
	[ $((i % 100)) -ne 0 ] || echo "race: flips=$i" >/dev/console
done
echo "race: done flips=$i" >/dev/console
killall dd cat 2>/dev/null
exit 0
EOF
chmod 755 "$work/guest.sh"
"$top/scripts/vm/initramfs.sh" "$kdir" "$top/build/fsprof" "$work/guest.sh" \
	"$work/initrd.cpio" --modules "crc32c_generic virtio_pci virtio_blk ext4"

for b in $(seq "$boots"); do
	truncate -s 64M "$work/scratch.img"
	mkfs.ext4 -q -F "$work/scratch.img"
	rm -f "$work/results.img"
	truncate -s 16M "$work/results.img"
	con=$out/smp$smp-boot$b.console
	flock /var/tmp/fsprof-timing.lock timeout 600 qemu-system-x86_64 \
		-accel tcg -cpu max -m 1024 -smp "$smp" -nodefaults -no-reboot \
		-display none -serial stdio -kernel "$kdir/boot" \
		-initrd "$work/initrd.cpio" \
		-append "console=ttyS0 quiet panic=-1 oops=panic rdinit=/init race_toggles=$toggles" \
		-drive "file=$work/scratch.img,if=virtio,format=raw,cache=unsafe" \
		-drive "file=$work/results.img,if=virtio,format=raw,cache=unsafe" \
		</dev/null >"$con" 2>&1 || true
	flips=$(grep -ao 'race: [a-z ]*flips=[0-9]*' "$con" | tail -n1 | sed 's/.*=//' || true)
	# the die header, "[#1]" (before 6.9 without "Oops: "), else a panic
	title=$(grep -aE -m1 ': [0-9a-f]{4} \[#[0-9]+\]|Kernel panic' "$con" || true)
	if [ -n "$title" ]; then
		echo "smp=$smp boot $b: oops after ${flips:-0} flips: ${title#*] }"
	elif grep -aq 'race: done' "$con"; then
		echo "smp=$smp boot $b: ok, ${flips} flips"
	else
		echo "smp=$smp boot $b: incomplete after ${flips:-0} flips (timeout?)"
	fi
done
