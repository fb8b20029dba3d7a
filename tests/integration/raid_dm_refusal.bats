#!/usr/bin/env bats
# --raid LEVEL:N and --dm linear on a host whose kernel cannot build them:
# refused before anything is made (exit 2), naming the missing kernel
# feature (md, its personality, device-mapper) as the kernel shows it
# (/proc/mdstat, /dev/mapper/control, /proc/misc, the modules it ships).
# This machine's kernel has neither md nor device-mapper; on one that has
# them, these tests skip saying so (raid_dm_guest.bats builds the stacks in
# a guest). Bad values and impossible combinations are usage errors
# everywhere.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	scratch_create
}

teardown() {
	scratch_remove
}

# the module a feature would come from, shipped by the running kernel
shipped() {
	local m="/lib/modules/$(uname -r)"
	grep -qs "/$1.ko" "$m/modules.dep" "$m/modules.builtin"
}

md_missing() {
	[ ! -e /proc/mdstat ] && ! shipped md-mod
}

dm_missing() {
	[ ! -e /dev/mapper/control ] && ! grep -qs device-mapper /proc/misc &&
		! shipped dm-mod
}

# nothing made: no run directory, no state file, no loop device of ours
nothing_made() {
	[ -z "$(find "$SCRATCH" -mindepth 1)" ] || { find "$SCRATCH"; return 1; }
	! losetup -a | grep -q "$SCRATCH"
}

@test "--raid on a kernel without md is refused before anything is made, naming md and its config" {
	md_missing || skip "this kernel has md: the refusal cannot happen here"
	run --separate-stderr "$FSPROF" run --raid 0:2 -w seqio:size=1M \
		--no-db --scratch "$SCRATCH"
	[ "$status" -eq 2 ] || { echo "$stderr"; return 1; }
	[[ "$stderr" == *"--raid 0:2 needs the kernel's md (software RAID) driver"* ]]
	[[ "$stderr" == *"no /proc/mdstat"*"no md_mod module"*"CONFIG_BLK_DEV_MD"* ]]
	[[ "$stderr" == *"--kernel 6.12"* ]]
	[ -z "$output" ]
	nothing_made
}

@test "--dm linear on a kernel without device-mapper is refused before anything is made, naming it" {
	dm_missing || skip "this kernel has device-mapper: the refusal cannot happen here"
	run --separate-stderr "$FSPROF" run --dm linear -w seqio:size=1M \
		--no-db --scratch "$SCRATCH"
	[ "$status" -eq 2 ] || { echo "$stderr"; return 1; }
	[[ "$stderr" == *"--dm linear needs the kernel's device-mapper"* ]]
	[[ "$stderr" == *"no /dev/mapper/control"*"/proc/misc"*"no dm_mod module"*"CONFIG_BLK_DEV_DM"* ]]
	nothing_made
}

@test "--raid with --dm is refused for the first missing driver, md" {
	md_missing || skip "this kernel has md"
	run --separate-stderr "$FSPROF" run --raid 1:2 --dm linear \
		-w seqio:size=1M --no-db --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--raid 1:2 needs the kernel's md"* ]]
	nothing_made
}

@test "a target's own raid= or dm= in --fs is refused the same way" {
	md_missing || skip "this kernel has md"
	run --separate-stderr "$FSPROF" run -w seqio:size=1M --no-db \
		--fs "plain=ext4,r1=ext4:raid='1:2'" --scratch "$SCRATCH"
	[ "$status" -eq 2 ] || { echo "$stderr"; return 1; }
	[[ "$stderr" == *"--raid 1:2 needs the kernel's md"* ]]
	nothing_made
	dm_missing || skip "this kernel has device-mapper"
	run --separate-stderr "$FSPROF" run -w seqio:size=1M --no-db \
		--fs "lin=xfs:dm=linear" --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--dm linear needs the kernel's device-mapper"* ]]
	nothing_made
}

@test "a bad --raid or --dm value is a usage error that names what it takes" {
	run --separate-stderr "$FSPROF" run --raid 5:2 --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--raid takes LEVEL:N, LEVEL 0 or 1"* ]]
	run --separate-stderr "$FSPROF" run --raid 1:1 --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"from 2 to 8"* ]]
	run --separate-stderr "$FSPROF" run --dm striped --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--dm takes linear"* ]]
	nothing_made
}

@test "--raid and --dm build on an image target's loop devices: not with --dir or --device" {
	run --separate-stderr "$FSPROF" run --raid 0:2 --dir "$SCRATCH" \
		--scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"not with --dir or --device"* ]]
	run --separate-stderr "$FSPROF" run --dm linear --device /dev/null \
		--scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"not with --dir or --device"* ]]
	nothing_made
}
