#!/usr/bin/env bats
# --dir runs on a filesystem that is already there; --device formats a real
# block device, but only one that is safe to format.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	scratch_create
	LOOPDEV=
}

teardown() {
	mountpoint -q "$SCRATCH/mnt" 2>/dev/null && umount "$SCRATCH/mnt"
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV"
	rm -f "$SCRATCH.json" "$SCRATCH.err" "$SCRATCH.img"
	scratch_remove
}

# a loop device on a fresh image of $1 MiB
loop_make() {
	truncate -s "${1}M" "$SCRATCH.img"
	LOOPDEV=$(losetup -f --show "$SCRATCH.img")
}

@test "--dir on tmpfs runs the workload and says block and journal tracing is unavailable" {
	mkdir "$SCRATCH/mnt"
	mount -t tmpfs -o size=256m tmpfs "$SCRATCH/mnt"
	touch "$SCRATCH/mnt/keep-me"
	run --separate-stderr "$FSPROF" run -w seqio:size=8M --dir "$SCRATCH/mnt" --json "$SCRATCH.json"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"has no block device: block, journal and filesystem tracing is unavailable"* ]]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.tracing_unavailable != null')" = true ]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.fstype')" = tmpfs ]
	[ "$(jqr "$SCRATCH.json" '.cases[0].phases[0].workload.bytes')" -eq 8388608 ]
	[ "$(jqr "$SCRATCH.json" '[.cases[0].phases[].block.traced] | any')" = false ]
	# fsprof's work directory is gone, what was there before is not
	[ "$(ls -A "$SCRATCH/mnt")" = keep-me ]
	mountpoint -q "$SCRATCH/mnt"
}

@test "--dir on an ext4 filesystem traces it by its device and removes only its work directory" {
	loop_make 512
	mkfs.ext4 -q "$LOOPDEV"
	mkdir "$SCRATCH/mnt"
	mount "$LOOPDEV" "$SCRATCH/mnt"
	echo precious >"$SCRATCH/mnt/keep-me"
	run "$FSPROF" run -q -w seqio:size=32M --dir "$SCRATCH/mnt" --json "$SCRATCH.json"
	[ "$status" -eq 0 ]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.kind')" = dir ]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.device')" = "$LOOPDEV" ]
	dev="$(jqr "$SCRATCH.json" '.cases[0].target | "\(.dev_major):\(.dev_minor)"')"
	[ "$dev" = "$(lsblk -dno MAJ:MIN "$LOOPDEV" | tr -d ' ')" ]
	wbytes=$(jqr "$SCRATCH.json" '.cases[0].phases[] | select(.name=="write") | .block.classes.write.bytes')
	[ "$wbytes" -ge 33554432 ]
	[ "$(ls -A "$SCRATCH/mnt")" = "$(printf 'keep-me\nlost+found')" ]
	[ "$(cat "$SCRATCH/mnt/keep-me")" = precious ]
}

@test "--device on a loop device holding a filesystem is refused without --force, and the device is unchanged" {
	loop_make 64
	mkfs.ext4 -q "$LOOPDEV"
	before=$(sha256sum <"$LOOPDEV")
	run "$FSPROF" run -q -w seqio:size=1M --device "$LOOPDEV" --scratch "$SCRATCH"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$LOOPDEV holds ext4 filesystem"*"without --force"* ]]
	[ "$(sha256sum <"$LOOPDEV")" = "$before" ]
	[ "$(blkid -o value -s TYPE "$LOOPDEV")" = ext4 ]
}

@test "--device with --force formats a device holding a filesystem and runs on it" {
	loop_make 512
	mkfs.ext2 -q "$LOOPDEV"
	run "$FSPROF" run -q -w seqio:size=8M --fs xfs --device "$LOOPDEV" --force \
		--scratch "$SCRATCH" --json "$SCRATCH.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.kind')" = device ]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.fstype')" = xfs ]
	[ "$(blkid -o value -s TYPE "$LOOPDEV")" = xfs ]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ]
}

@test "--device refuses a mounted device even with --force" {
	loop_make 64
	mkfs.ext4 -q "$LOOPDEV"
	mkdir "$SCRATCH/mnt"
	mount "$LOOPDEV" "$SCRATCH/mnt"
	before=$(sha256sum <"$LOOPDEV")
	run "$FSPROF" run -q -w seqio:size=1M --device "$LOOPDEV" --force --scratch "$SCRATCH"
	[ "$status" -eq 3 ]
	[[ "$output" == *"is mounted"* ]]
}

@test "--device refuses the device holding the root filesystem" {
	root=$(findmnt -no SOURCE /)
	[ -b "$root" ] || skip "the root filesystem is not on a block device here"
	run "$FSPROF" run -q -w seqio:size=1M --device "$root" --force --scratch "$SCRATCH"
	[ "$status" -eq 3 ]
	[[ "$output" == *"root filesystem"* ]]
}

@test "--dir and --fs together are a usage error" {
	run "$FSPROF" run --dir /tmp --fs ext4
	[ "$status" -eq 2 ]
}

@test "--dir on a 1 GiB XFS runs the default mdcreate: inodes are checked as inodes, not as ext4's 16 KiB each" {
	loop_make 1024
	mkfs.xfs -q -f "$LOOPDEV"
	mkdir "$SCRATCH/mnt"
	mount "$LOOPDEV" "$SCRATCH/mnt"
	# refused before any phase began, or started: the first phase shows it
	"$FSPROF" run -w mdcreate --dir "$SCRATCH/mnt" 2>"$SCRATCH.err" >/dev/null &
	pid=$!
	wait_for "grep -q 'phase create' '$SCRATCH.err' || ! kill -0 $pid 2>/dev/null" 60
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" || true
	cat "$SCRATCH.err"
	grep -q 'phase create' "$SCRATCH.err"
	if grep -q 'needs' "$SCRATCH.err"; then
		false
	fi
}

@test "--dir with too few free inodes is refused, and the message says inodes" {
	loop_make 256
	mkfs.ext4 -q -N 256 "$LOOPDEV"
	mkdir "$SCRATCH/mnt"
	mount "$LOOPDEV" "$SCRATCH/mnt"
	run "$FSPROF" run -w mdcreate:files=5000 --dir "$SCRATCH/mnt"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"free inodes but the workload makes 5005 files and directories"* ]]
}

@test "--dir with too little free space is refused, and the message says data" {
	loop_make 128
	mkfs.ext4 -q "$LOOPDEV"
	mkdir "$SCRATCH/mnt"
	mount "$LOOPDEV" "$SCRATCH/mnt"
	run "$FSPROF" run -w seqio:size=1G --dir "$SCRATCH/mnt"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"free but the workload's data needs 1 GiB"* ]]
}
