#!/usr/bin/env bats
# --fs makes every filesystem type with the options asked for, and records
# what the kernel really mounted.

load helpers

setup_file() {
	load helpers
	scratch_create
	export RESULTS="$SCRATCH.json"
	"$FSPROF" run -q -w seqio:size=1M --scratch "$SCRATCH" --json "$RESULTS" \
		--fs "ext2:mount=noatime,ext3:mount=data=journal,ext4:mkfs='-E test_fs -m 0':mount=nodelalloc,xfs:mount=logbsize=256k,btrfs:mount=compress=zstd" \
		>"$SCRATCH.out" 2>&1
	echo $? >"$SCRATCH.status"
}

teardown_file() {
	load helpers
	rm -f "$RESULTS" "$SCRATCH.out" "$SCRATCH.status"
	scratch_remove
}

# the kernel's mount options of the case on fstype
opts() {
	jqr "$RESULTS" ".cases[] | select(.target.fstype==\"$1\") |
		.target.mount_options + \",\" + .target.super_options"
}

@test "five filesystem types are made, mounted and run, and nothing is left behind" {
	cat "$SCRATCH.out"
	[ "$(cat "$SCRATCH.status")" -eq 0 ]
	[ "$(jqr "$RESULTS" '[.cases[] | select(.complete)] | length')" -eq 5 ]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ]
}

@test "ext2 mounted noatime: the mount options say noatime" {
	[[ ",$(opts ext2)," == *",noatime,"* ]]
}

@test "ext3 with data=journal: the superblock options say data=journal" {
	[[ ",$(opts ext3)," == *",data=journal,"* ]]
}

@test "ext4 with nodelalloc and mkfs -E test_fs -m 0: both are recorded" {
	[[ ",$(opts ext4)," == *",nodelalloc,"* ]]
	cmd=$(jqr "$RESULTS" '.cases[] | select(.target.fstype=="ext4") | .target.mkfs_cmd')
	[[ "$cmd" == *"-E test_fs -m 0 /dev/loop"* ]]
	[[ "$(jqr "$RESULTS" '.cases[] | select(.target.fstype=="ext4") | .target.mkfs_output')" == *"Creating journal"* ]]
}

@test "xfs with logbsize=256k: the superblock options say logbsize=256k" {
	[[ ",$(opts xfs)," == *",logbsize=256k,"* ]]
}

@test "btrfs with compress=zstd: the superblock options say compress=zstd" {
	[[ ",$(opts btrfs)," == *",compress=zstd"* ]]
}

@test "every case records the loop direct-IO state and the device model" {
	run jq -e '[.cases[].target | .loop_dio == true and .device_model == "none"] | all' "$RESULTS"
	[ "$status" -eq 0 ]
}

# mountinfo names the mount absolutely: a relative --scratch once left the
# filesystem unrecognised (fstype "", the xfs domain not loaded)
@test "a relative --scratch finds its filesystem: fstype, mount options and the xfs domain" {
	local json="$SCRATCH.rel.json" name
	name=$(basename "$SCRATCH")
	(cd "$(dirname "$SCRATCH")" && "$FSPROF" run -q --no-db -w fsync:files=5 \
		--fs xfs --scratch "$name" --json "$json" >/dev/null)
	[ "$(jqr "$json" '.cases[0].target.fstype')" = xfs ]
	[ -n "$(jqr "$json" '.cases[0].target.mount_options')" ]
	[ "$(jqr "$json" '.cases[0].phases[0].metrics.xfs.log_forces')" -gt 0 ]
	rm -f "$json"
}
