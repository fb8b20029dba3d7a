#!/usr/bin/env bats
# fs-free-space-flush on ext4 (docs/rules.md): ext4_nonda_switch() starts
# writeback of the whole filesystem (reason fs_free_space) once dirty
# delayed-allocation blocks exceed half of the free ones. A 256 MiB seqio
# write on fsprof's default 512 MiB image crosses that line without the
# filesystem being anywhere near full; on a 2 GiB image it does not.

load helpers

setup_file() {
	load helpers
	scratch_create
	export SMALL="$SCRATCH.small.json" LARGE="$SCRATCH.large.json"

	"$FSPROF" run -q --no-db -w seqio:size=256M --fs ext4 \
		--scratch "$SCRATCH" --json "$SMALL" >"$SCRATCH.small.out" 2>&1
	echo $? >"$SCRATCH.small.status"
	"$FSPROF" run -q --no-db -w seqio:size=256M --fs ext4 --image-size 2G \
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
	# the image was half full at most: 256 MiB of data in 512 MiB
	[ "$(jqr "$SMALL" '.cases[0].target.image_size')" -ge $((2 * 256 << 20)) ]
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
