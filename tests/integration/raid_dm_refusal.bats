#!/usr/bin/env bats
# --raid LEVEL:N and --dm linear on a host whose kernel cannot build them:
# refused before anything is made (exit 2), naming the missing kernel
# feature (md, its personality, device-mapper) as the kernel shows it
# (/proc/mdstat, /dev/mapper/control, /proc/misc, the modules it ships).
# This machine's kernel has neither md nor device-mapper; on one that has
# them, these tests skip saying so (raid_dm_guest.bats builds the stacks in
# a guest). Bad values and impossible combinations are usage errors
# everywhere. --device with --raid or --dm is refused the same way, before
# its devices are looked at; a count of devices other than --raid's N is a
# usage error.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	scratch_create
}

teardown() {
	[ -z "${DISKDIR:-}" ] || disks_remove
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

@test "--raid and --dm are not for --dir, whose filesystem is already there" {
	run --separate-stderr "$FSPROF" run --raid 0:2 --dir "$SCRATCH" \
		--scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"not with --dir, whose filesystem is already there"* ]]
	nothing_made
}

# two loop devices over files in a directory of their own, each
# holding an ext4 filesystem: what a user's disks with data on them are
disks_make() {
	local i
	DISKS=()
	DISKDIR=$(mktemp -d /var/tmp/fsprof-disks.XXXXXX)
	for i in a b; do
		truncate -s 64M "$DISKDIR/$i"
		mkfs.ext4 -q -F "$DISKDIR/$i"
		DISKS+=("$(losetup -f --show "$DISKDIR/$i")")
	done
	SUMS=$(sha256sum "$DISKDIR/a" "$DISKDIR/b")
}

disks_remove() {
	local d
	for d in "${DISKS[@]}"; do
		losetup -d "$d"
	done
	rm -rf "$DISKDIR"
	DISKDIR=
}

# the devices as they were: their bytes, no fsprof lock or mount on them
disks_untouched() {
	[ "$(sha256sum "$DISKDIR/a" "$DISKDIR/b")" = "$SUMS" ]
	! grep -qE "^(${DISKS[0]}|${DISKS[1]}) " /proc/mounts
}

@test "--device A,B --raid 1:2 on a kernel without md is refused naming md, before the devices are looked at" {
	md_missing || skip "this kernel has md: the refusal cannot happen here"
	disks_make
	# they hold a filesystem and there is no --force: had fsprof looked at
	# them first, it would refuse that instead
	run --separate-stderr "$FSPROF" run --device "${DISKS[0]},${DISKS[1]}" \
		--raid 1:2 -w seqio:size=1M --no-db --scratch "$SCRATCH"
	echo "$stderr"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--raid 1:2 needs the kernel's md (software RAID) driver"* ]]
	[[ "$stderr" != *"${DISKS[0]}"* ]]
	nothing_made
	disks_untouched
	dm_missing || { disks_remove; skip "this kernel has device-mapper"; }
	run --separate-stderr "$FSPROF" run --device "${DISKS[0]}" --dm linear \
		--force -w seqio:size=1M --no-db --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--dm linear needs the kernel's device-mapper"* ]]
	nothing_made
	disks_untouched
	disks_remove
}

@test "--device: a count of devices other than the array's N, or several without --raid, is a usage error" {
	run --separate-stderr "$FSPROF" run --device /dev/null,/dev/zero \
		--raid 1:3 --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--device /dev/null,/dev/zero: 2 device(s) given, but --raid 1:3 makes an array of 3: give one device per member"* ]]
	run --separate-stderr "$FSPROF" run --device /dev/null --raid 0:2 \
		--scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"1 device(s) given, but --raid 0:2 makes an array of 2"* ]]
	# a target's own raid= counts the same
	run --separate-stderr "$FSPROF" run --device /dev/null,/dev/zero \
		--fs "a=ext4:raid='1:2',b=ext4" --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"2 devices given: several devices are an array's members, with --raid LEVEL:N"* ]]
	run --separate-stderr "$FSPROF" run --device /dev/null,/dev/zero \
		--dm linear --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"several devices are an array's members"* ]]
	run --separate-stderr "$FSPROF" run --device /dev/null, --raid 1:2 \
		--scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--device /dev/null,: a device name is empty"* ]]
	# a device model is a disk served under a loop: not under a device
	run --separate-stderr "$FSPROF" run --device /dev/null,/dev/zero \
		--raid 1:2 --device-model hdd --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--device-model with --device: the model is a disk fsprof serves under the traced loop device"* ]]
	nothing_made
}
