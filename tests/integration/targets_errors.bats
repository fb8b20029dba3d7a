#!/usr/bin/env bats
# Bad targets are refused with the reason, and leave nothing behind.

load helpers

setup() {
	scratch_create
}

teardown() {
	scratch_remove
}

@test "an invalid mount option fails naming the option and quoting the kernel" {
	run "$FSPROF" run -q -w seqio:size=1M --fs "ext4:mount=nosuchopt" --scratch "$SCRATCH"
	[ "$status" -eq 1 ]
	[[ "$output" == *"options 'nosuchopt'"* ]]
	[[ "$output" == *"the kernel says: ext4: Unknown parameter 'nosuchopt'"* ]]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ]
}

@test "an invalid xfs logbsize quotes the kernel's valid range" {
	run "$FSPROF" run -q -w seqio:size=1M --fs "xfs:mount=logbsize=300k" --scratch "$SCRATCH"
	[ "$status" -eq 1 ]
	[[ "$output" == *"logbsize=300k"* ]]
	[[ "$output" == *"the kernel says:"*"logbufsize"* ]]
}

@test "an unknown filesystem type in --fs is a usage error" {
	run "$FSPROF" run --fs ext4,zfs --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown filesystem 'zfs'"* ]]
}

@test "an unquoted comma inside mount options is explained" {
	run "$FSPROF" run --fs ext4:mount=noatime,nodelalloc --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"must be quoted"* ]]
}

@test "an unbalanced quote in --fs is a usage error" {
	run "$FSPROF" run --fs "ext4:mkfs='-m 0" --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unbalanced ' quote"* ]]
}

@test "a failing mkfs option fails the case with mkfs's own words" {
	run "$FSPROF" run -q -w seqio:size=1M --fs "ext4:mkfs='-O nosuchfeature'" --scratch "$SCRATCH"
	[ "$status" -eq 1 ]
	[[ "$output" == *"mkfs.ext4"*"-O nosuchfeature"*"failed"* ]]
	[[ "$output" == *"nosuchfeature"*"nosuchfeature"* ]]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ]
}
