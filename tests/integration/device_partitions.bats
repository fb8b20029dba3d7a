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

# A device model is a disk served under the traced loop device: nothing
# can be put under a partition of the user's, so it is refused on --dir
# and --device before anything is made (no longer a throttle on the whole
# disk that a mounted sibling would share)
@test "--device-model on a --dir or a --device partition is refused before anything is made" {
	two_partitions
	mkfs.ext4 -q "${LOOPDEV}p1"
	mkdir "$SCRATCH/mnt"
	mount "${LOOPDEV}p1" "$SCRATCH/mnt"
	run "$FSPROF" run -w seqio:size=1M --dir "$SCRATCH/mnt" --device-model hdd \
		--scratch "$SCRATCH"
	made=$(ls -A "$SCRATCH/mnt")
	umount "$SCRATCH/mnt"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"--device-model needs an image target"* ]]
	[ "$made" = lost+found ]
	run "$FSPROF" run -w seqio:size=1M --device "${LOOPDEV}p2" --device-model hdd \
		--scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--device-model with --device"* ]]
	# not formatted, nothing made in the scratch directory
	[ -z "$(blkid -p -o value -s TYPE "${LOOPDEV}p2" || true)" ]
	[ "$(ls -A "$SCRATCH")" = mnt ]
	rmdir "$SCRATCH/mnt"
}
