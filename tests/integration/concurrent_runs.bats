#!/usr/bin/env bats
# Two runs at once never corrupt each other: on one scratch directory each
# has its own run directory, image, loop devices and state file; a device
# one run formats in place is locked against a second.

load helpers

setup() {
	scratch_create
	export FSPROF_DB="$SCRATCH.db"
	DISK=""
}

teardown() {
	rm -f "$SCRATCH".db*
	mountpoint -q "$SCRATCH.mnt" 2>/dev/null && umount "$SCRATCH.mnt"
	rmdir "$SCRATCH.mnt" 2>/dev/null || true
	[ -n "$DISK" ] && losetup -d "$DISK"
	rm -f "$SCRATCH".{a,b}.{json,out,err} "$SCRATCH.disk"
	scratch_remove
}

# a blank loop device of our own for --device
disk_create() {
	truncate -s 1G "$SCRATCH.disk"
	DISK=$(losetup -f --show "$SCRATCH.disk")
}

@test "two runs at once on one scratch directory both complete, in their own run directories, and leave nothing" {
	"$FSPROF" run -q -w seqio:size=64M --fs ext4,xfs --scratch "$SCRATCH" \
		--json "$SCRATCH.a.json" >"$SCRATCH.a.out" 2>&1 &
	a=$!
	"$FSPROF" run -q -w seqio:size=64M --fs xfs,ext4 --scratch "$SCRATCH" \
		--json "$SCRATCH.b.json" >"$SCRATCH.b.out" 2>&1 &
	b=$!
	# both are up at the same time: two state files
	wait_for "[ \$(ls '$SCRATCH' | grep -c '^fsprof-.*\.state\$') -eq 2 ]" 60
	sa=0 sb=0
	wait "$a" || sa=$?
	wait "$b" || sb=$?
	cat "$SCRATCH.a.out" "$SCRATCH.b.out"
	[ "$sa" -eq 0 ]
	[ "$sb" -eq 0 ]
	[ "$(jqr "$SCRATCH.a.json" '.complete')" = true ]
	[ "$(jqr "$SCRATCH.b.json" '.complete')" = true ]
	[ "$(jqr "$SCRATCH.a.json" '[.cases[].target.fstype] | join(",")')" = ext4,xfs ]
	[ "$(jqr "$SCRATCH.b.json" '[.cases[].target.fstype] | join(",")')" = xfs,ext4 ]
	# every image its own
	[ "$(jq -r '.cases[].target.image' "$SCRATCH.a.json" "$SCRATCH.b.json" | sort -u | wc -l)" -eq 4 ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "a second run on the --device a run is using is refused naming the first run's pid, exit 3, creating nothing" {
	disk_create
	# an fsync a file: long enough for the second run to find it going
	"$FSPROF" run -q -w fsync:files=5000 --device "$DISK" \
		--scratch "$SCRATCH" >"$SCRATCH.a.out" 2>&1 &
	a=$!
	wait_for "grep -q ' $SCRATCH/' /proc/mounts" 60
	mkdir "$SCRATCH.b"
	run "$FSPROF" run -q -w seqio:size=1M --device "$DISK" --scratch "$SCRATCH.b"
	echo "$output"
	rmdir "$SCRATCH.b" # fails if anything was made in it
	[ "$status" -eq 3 ]
	[[ "$output" == *"$DISK ("*") is in use by another fsprof run (pid $a)"* ]]
	sa=0
	wait "$a" || sa=$?
	cat "$SCRATCH.a.out"
	[ "$sa" -eq 0 ]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ]
}

