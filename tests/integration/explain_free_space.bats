#!/usr/bin/env bats
# fs-free-space-flush on ext4 (docs/rules.md): ext4_nonda_switch() starts
# writeback of the whole filesystem (reason fs_free_space) once dirty
# delayed-allocation blocks exceed half of the free ones. A 384 MiB seqio
# write on fsprof's default 512 MiB image (~485 MiB free) crosses that line
# without the filesystem being full; on a 2 GiB image it does not.
#
# The line is crossed once the data written, t, exceeds (free + W) / 2,
# where W is what other writeback (the background flusher, another
# process's sync) put on the device first: by 243 MiB when W = 0, and not at
# all when W reaches 2 x size - free before the write ends. With 256 MiB
# that was W = 27 MiB: an early flush of a tenth of the data hid it; with
# 384 MiB it is 283 MiB, three quarters of the data. Under a sync(2) loop
# on the machine (stress-ng --io) nothing stays dirty, and no size short of
# a full filesystem crosses it: measured, none with 256 or 384 MiB, their
# data all written by the loop's sync work (tests/README.md).

load helpers

setup_file() {
	load helpers
	scratch_create
	export SMALL="$SCRATCH.small.json" LARGE="$SCRATCH.large.json"

	"$FSPROF" run -q --no-db -w seqio:size=384M --fs ext4 \
		--scratch "$SCRATCH" --json "$SMALL" >"$SCRATCH.small.out" 2>&1
	echo $? >"$SCRATCH.small.status"
	"$FSPROF" run -q --no-db -w seqio:size=384M --fs ext4 --image-size 2G \
		--scratch "$SCRATCH" --json "$LARGE" >"$SCRATCH.large.out" 2>&1
	echo $? >"$SCRATCH.large.status"
}

teardown_file() {
	load helpers
	rm -f "$SCRATCH".*
	scratch_remove
}

write_phase() {
	jq -c '.cases[0].phases[] | select(.name == "write") |
		{items: (.metrics.writeback.work_fs_free_space // 0),
		 f: [.findings[] | select(.rule == "fs-free-space-flush") |
			{severity, title, advice: .advice.text}]}' "$1"
}

@test "both runs completed" {
	for r in small large; do
		[ "$(cat "$SCRATCH.$r.status")" = 0 ] || {
			cat "$SCRATCH.$r.out"
			return 1
		}
	done
}

@test "dirtying more than half the free space is said as that, not as a full filesystem" {
	run write_phase "$SMALL"
	echo "$output"
	# the kernel's own flusher work items of reason fs_free_space
	jq -e '.items >= 1' <<<"$output"
	[ "$(jq -r '.f | length' <<<"$output")" = 1 ]
	[ "$(jq -r '.f[0].severity' <<<"$output")" = info ]
	jq -e '.f[0].title | test("more than half of the free space")' <<<"$output"
	if jq -e '.f[0].advice | test("nearly full")' <<<"$output"; then
		false
	fi
	# a quarter of the image was still free: 384 MiB of data in 512 MiB
	[ "$(jqr "$SMALL" '.cases[0].target.image_size')" -ge $((384 * 4 / 3 << 20)) ]
}

@test "with free space of more than twice the dirty data, no fs_free_space flush and no finding" {
	run write_phase "$LARGE"
	echo "$output"
	[ "$(jq -r .items <<<"$output")" = 0 ]
	[ "$(jq -r '.f | length' <<<"$output")" = 0 ]
}

@test "nothing left behind" {
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}
