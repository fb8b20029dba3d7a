#!/usr/bin/env bats
# Block IO is the target's own on a partition (its sector range on the disk,
# with the log class shifted by the partition's start), and on a bio-based
# device (zram here, like device-mapper and MD) fsprof says block IO is not
# visible instead of printing zeros.

load helpers

setup() {
	scratch_create
	LOOPDEV=
	ZRAM=
}

teardown() {
	[ -n "${NOISE_PID:-}" ] && kill "$NOISE_PID" 2>/dev/null
	wait 2>/dev/null || true
	mountpoint -q "$SCRATCH/mnt" 2>/dev/null && umount "$SCRATCH/mnt"
	mountpoint -q "$SCRATCH/mnt2" 2>/dev/null && umount "$SCRATCH/mnt2"
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV"
	[ -n "$ZRAM" ] && echo 1 >"/sys/block/$ZRAM/reset"
	rm -f "$SCRATCH".*
	scratch_remove
}

# a disk image with two 256 MiB partitions on a loop device with partscan
two_partitions() {
	truncate -s 600M "$SCRATCH.img"
	sfdisk -q "$SCRATCH.img" <<'PARTS'
label: gpt
size=256MiB
size=256MiB
PARTS
	LOOPDEV=$(losetup -f --show -P --direct-io=on "$SCRATCH.img")
	# the partition scan may not make the nodes here: ask for them
	wait_for "[ -b ${LOOPDEV}p2 ]" 2 || partx -a "$LOOPDEV"
	wait_for "[ -b ${LOOPDEV}p2 ]" 10
}

@test "on a partition, fsprof counts its own IO and not its sibling's, and finds its journal" {
	two_partitions
	mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "${LOOPDEV}p1"
	mkdir "$SCRATCH/mnt"
	mount "${LOOPDEV}p1" "$SCRATCH/mnt"
	# the sibling partition is busy with direct writes the whole time
	(while :; do dd if=/dev/zero of="${LOOPDEV}p2" bs=1M count=64 oflag=direct 2>/dev/null; done) &
	NOISE_PID=$!
	run "$FSPROF" run -q -w fsync:files=200 --dir "$SCRATCH/mnt" --json "$SCRATCH.json"
	kill "$NOISE_PID"
	echo "$output"
	[ "$status" -eq 0 ]
	phase='.cases[0].phases[] | select(.name=="cycles")'
	# 200 files x 2 appends of 16 KiB: data is 6.5 MB, the sibling writes
	# 64 MiB per dd; the journal adds little
	wbytes=$(jqr "$SCRATCH.json" "$phase | .block.classes.write.bytes")
	echo "cycles wrote $wbytes bytes"
	[ "$wbytes" -ge 6553600 ]
	[ "$wbytes" -lt 20000000 ]
	log=$(jqr "$SCRATCH.json" "$phase | .block.io_classes.log_write.bytes")
	bs=$(stat -f -c %S "$SCRATCH/mnt")
	logged=$(jqr "$SCRATCH.json" "$phase | .metrics.jbd2.blocks_logged * $bs")
	echo "log_write $log bytes, jbd2 logged $logged bytes"
	python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(not (b > 0 and abs(a - b) <= 0.05 * b))" "$log" "$logged"
}

@test "on a bio-based device (zram) block IO is reported as not visible, not as zeros" {
	ZRAM=zram0
	[ "$(cat /sys/block/$ZRAM/disksize)" = 0 ] || skip "zram0 is in use"
	echo 256M >/sys/block/$ZRAM/disksize
	mkfs.ext4 -q /dev/$ZRAM
	mkdir "$SCRATCH/mnt"
	mount /dev/$ZRAM "$SCRATCH/mnt"
	run "$FSPROF" run -w seqio:size=8M --dir "$SCRATCH/mnt" --json "$SCRATCH.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"block IO not visible on /dev/zram0"* ]]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.block_untraced | test("not visible")')" = true ]
	[ "$(jqr "$SCRATCH.json" '[.cases[0].phases[].block.traced] | any')" = false ]
	[ "$(jqr "$SCRATCH.json" '[.cases[0].phases[].block | keys] | add | unique | join(",")')" = traced ]
	# the filesystem's own domains still trace it
	[ "$(jqr "$SCRATCH.json" '.cases[0].phases[] | select(.name=="write") | .metrics.jbd2.commits')" -ge 1 ]
}

# the throttle rules on disk $1 (a device node): the throttle files are the
# machine's, and another run going on at the same time has its own in them
disk_throttle_rules() {
	local dev
	dev=$(printf '%d:%d' "0x$(stat -c %t "$1")" "0x$(stat -c %T "$1")")
	cat /sys/fs/cgroup/blkio/blkio.throttle.{read,write}_{iops,bps}_device |
		awk -v d="$dev" '$1 == d'
}

# and so it does under a --dir on a partition: the sibling would share it
@test "--device-model on a --dir whose partition's sibling is mounted is refused before anything is made" {
	two_partitions
	mkfs.ext4 -q "${LOOPDEV}p1"
	mkfs.ext4 -q "${LOOPDEV}p2"
	mkdir "$SCRATCH/mnt" "$SCRATCH/mnt2"
	mount "${LOOPDEV}p1" "$SCRATCH/mnt"
	mount "${LOOPDEV}p2" "$SCRATCH/mnt2"
	run "$FSPROF" run -w seqio:size=1M --dir "$SCRATCH/mnt" --device-model hdd \
		--scratch "$SCRATCH"
	umount "$SCRATCH/mnt2"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"--device-model on --dir $SCRATCH/mnt would throttle its whole disk"*"which has another partition mounted"* ]]
	# nothing throttled, nothing made in the directory
	[ -z "$(disk_throttle_rules "$LOOPDEV")" ]
	[ "$(ls -A "$SCRATCH/mnt")" = lost+found ]
	# with the sibling unmounted the model goes on (on the traced disk)
	run "$FSPROF" run -q -w seqio:size=1M --dir "$SCRATCH/mnt" --device-model hdd \
		--scratch "$SCRATCH" --json "$SCRATCH.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.device_model_stack.placement')" = traced-disk ]
	[ -z "$(disk_throttle_rules "$LOOPDEV")" ]
	rmdir "$SCRATCH/mnt2"
}

# the throttle of a device model on a --device goes on its whole disk
@test "--device-model on a --device partition whose sibling is mounted is refused before anything is made" {
	two_partitions
	mkfs.ext4 -q "${LOOPDEV}p2"
	mkdir "$SCRATCH/mnt"
	mount "${LOOPDEV}p2" "$SCRATCH/mnt"
	run "$FSPROF" run -w seqio:size=1M --device "${LOOPDEV}p1" --device-model hdd \
		--scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"--device-model on --device ${LOOPDEV}p1 would throttle its whole disk"*"which has another partition mounted"* ]]
	# not formatted, nothing throttled, nothing made in the scratch directory
	[ -z "$(blkid -p -o value -s TYPE "${LOOPDEV}p1" || true)" ]
	[ -z "$(disk_throttle_rules "$LOOPDEV")" ]
	[ "$(ls -A "$SCRATCH")" = mnt ]
	# with the sibling unmounted the same run throttles the disk, and says
	# the model sits on the traced disk itself
	umount "$SCRATCH/mnt"
	run "$FSPROF" run -q -w seqio:size=1M --device "${LOOPDEV}p1" --device-model hdd \
		--scratch "$SCRATCH" --json "$SCRATCH.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.device_model_stack | [.placement, .faithful, .throttled_device] | @tsv')" = \
		"$(printf 'traced-disk\tfalse\t%s' "$LOOPDEV")" ]
	[ -z "$(disk_throttle_rules "$LOOPDEV")" ]
}
