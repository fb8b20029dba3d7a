#!/usr/bin/env bats
# ext4's block allocator on an aged filesystem (--age) against a fresh one.
#
# files1m writes 200 files of 1 MiB: delalloc asks mballoc for 256 blocks
# (1 MiB) a time. On a fresh filesystem the first criteria pass
# (power2_aligned: a free buddy of that order) finds it at once: one
# group and one free extent per allocation. --age fill=90,sizes=small
# fills the filesystem to 90% with 4-64 KiB files and deletes every other
# one: half the free space is then in holes of one deleted small file,
# none near 1 MiB. The early passes find no group whose buddies or average
# fragment fit the goal, so allocations end in goal_len_slow, which scans
# a group's bitmap measuring free extents (up to mb_max_to_scan, 200) and
# takes the best: many more, smaller allocations, each examining ~190
# extents. Measured here: fresh 206 allocations, 1.0 extents each, 0% late;
# aged 8141 allocations, 191 extents each, 95% in goal_len_slow.
#
# Every verdict is a count (allocations, passes, extents examined, files):
# none depends on time or load, beyond the fresh create lasting the 0.1 s
# the rules need to look at a phase at all (it takes ~0.4 s unloaded).

load helpers

AGE=fill=90,pattern=every-other,sizes=small,seed=1
# aged: the share of regular allocations ending in the late passes. Every
# hole is far shorter than the goal; only the contiguous rest the fill
# left (~10% of the fs, some of it used by the workload's first files)
# serves 1 MiB at once: measured 0.89-0.96 over four agings
AGED_MIN_LATE_SHARE=0.5
# aged against fresh: free extents examined per allocation (191 / 1.0)
MIN_EXTENTS_RATIO=10

setup_file() {
	load helpers
	scratch_create
	: >"$SCRATCH.status"
	"$FSPROF" run -q --no-db -w files1m:files=200 --fs ext4 \
		--scratch "$SCRATCH" --json "$SCRATCH.fresh.json" \
		>"$SCRATCH.fresh.out" 2>&1
	echo "fresh $?" >>"$SCRATCH.status"
	"$FSPROF" run --no-db -w files1m:files=200 --fs ext4 --age "$AGE" \
		--scratch "$SCRATCH" --json "$SCRATCH.aged.json" \
		>"$SCRATCH.aged.out" 2>&1
	echo "aged $?" >>"$SCRATCH.status"
	# xfs: the histogram from xfs_db freesp
	"$FSPROF" run -q --no-db -w files1m:files=5 --fs xfs \
		--age fill=40,sizes=small --scratch "$SCRATCH" \
		--json "$SCRATCH.xfs.json" >"$SCRATCH.xfs.out" 2>&1
	echo "xfs $?" >>"$SCRATCH.status"
	# the same seed twice and another seed, on one image size
	for run in a:3 b:3 c:4; do
		"$FSPROF" run -q --no-db -w files1m:files=5 --fs ext4 \
			--image-size 512M \
			--age "fill=50,sizes=small,seed=${run#*:}" \
			--scratch "$SCRATCH" --json "$SCRATCH.seed${run%%:*}.json" \
			>"$SCRATCH.seed.out" 2>&1
		echo "seed${run%%:*} $?" >>"$SCRATCH.status"
	done
}

teardown_file() {
	load helpers
	rm -f "$SCRATCH".{fresh,aged,xfs,seeda,seedb,seedc}.json \
		"$SCRATCH".{fresh,aged,xfs,seed}.out "$SCRATCH.status"
	scratch_remove
}

# create FILE JQ: the create phase's value of a jq path
create() {
	jqr "$1" ".cases[0].phases[] | select(.name == \"create\") | $2"
}

# share FILE: regular allocations ending in goal_len_slow or any_free
late_share() {
	create "$1" '.metrics.ext4 | (.mballoc_cr_goal_len_slow +
		.mballoc_cr_any_free) / .mballoc_regular'
}

extents_per_alloc() {
	create "$1" '.metrics.ext4 | .mballoc_extents_scanned /
		.mballoc_regular'
}

@test "the runs ran, and left nothing behind" {
	cat "$SCRATCH.status"
	[ "$(awk '$2 != 0' "$SCRATCH.status")" = "" ]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "--age is recorded: its parameters, what it wrote and deleted, the free-extent table after it" {
	local a='.cases[0].age'
	[ "$(jqr "$SCRATCH.aged.json" "$a.spec")" = "$AGE" ]
	[ "$(jqr "$SCRATCH.aged.json" "$a | [.fill_percent, .pattern, .sizes, .seed] | join(\" \")")" = "90 every-other small 1" ]
	jqr "$SCRATCH.aged.json" "$a.outcome"
	# the fill reached its share; every other file went
	jqr "$SCRATCH.aged.json" "$a.outcome | .used_after_fill >= 0.89 and
		.used_after_fill < 0.92 and .used_after_age < 0.5 and
		.files_deleted == (.files_written / 2 | floor) and
		.files_written > 1000" | grep -qx true
	# the table: e2freefrag's rows add up to its free blocks
	[ "$(jqr "$SCRATCH.aged.json" "$a.free_space.tool")" = e2freefrag ]
	jqr "$SCRATCH.aged.json" "$a.free_space | .block_size == 4096 and
		([.buckets[].blocks] | add) == .free_blocks and
		.free_extents > 1000" | grep -qx true
	# fragmented: half the free blocks lie in extents under 128 KiB
	jqr "$SCRATCH.aged.json" "$a.free_space | .free_blocks as \$all |
		[.buckets[] | select(.max_bytes < 131072) | .blocks] | add >= \$all / 2" |
		grep -qx true
	# the record validates against the results schema
	/usr/bin/python3 "$LIB/results_schema_check.py" \
		"$BATS_TEST_DIRNAME/../../docs/results-schema.json" \
		"$SCRATCH.aged.json"
	# the text says it too; a fresh case has none of it
	grep -q "^aged before the first phase (--age $AGE" "$SCRATCH.aged.out"
	grep -q "free extent size" "$SCRATCH.aged.out"
	[ "$(jqr "$SCRATCH.fresh.json" "$a")" = null ]
}

@test "on xfs the free-extent table is xfs_db's, its rows in bytes adding up to its free blocks" {
	local a='.cases[0].age'
	jqr "$SCRATCH.xfs.json" "$a.outcome"
	[ "$(jqr "$SCRATCH.xfs.json" "$a.free_space.tool")" = "xfs_db freesp" ]
	jqr "$SCRATCH.xfs.json" "$a.free_space | .block_size == 4096 and
		([.buckets[].blocks] | add) == .free_blocks and
		([.buckets[].extents] | add) == .free_extents and
		.free_extents > 100 and
		all(.buckets[]; .min_bytes % 4096 == 0 and
			(.max_bytes + 1) % 4096 == 0)" | grep -qx true
	jqr "$SCRATCH.xfs.json" "$a.outcome | .used_after_fill > 0.35 and
		.used_after_age < .used_after_fill" | grep -qx true
}

@test "the aging is in no phase and not in the spill: its deletes free no block there" {
	local f
	for f in fresh aged; do
		# the aging freed ~60,000 blocks; a phase that held it would say so
		[ "$(create "$SCRATCH.$f.json" '.metrics.ext4.freed_blocks')" -le 16 ]
		[ "$(jqr "$SCRATCH.$f.json" '.cases[0].spill.metrics.ext4.freed_blocks // 0')" -eq 0 ]
		[ "$(jqr "$SCRATCH.$f.json" '.cases[0].spill.metrics.ext4.mballoc_regular // 0')" -eq 0 ]
	done
	# the create wrote its 200 MiB, not the aging's 468 MiB
	create "$SCRATCH.aged.json" '.workload.bytes'
	[ "$(create "$SCRATCH.aged.json" '.workload.bytes')" -eq $((200 << 20)) ]
	create "$SCRATCH.aged.json" '.block.io_classes.data_write.bytes' |
		awk '{ exit !($1 < 300 * 1048576) }'
}

@test "aged: mballoc ends most allocations in the late passes, examining 10x the fresh free extents, and the rule says so" {
	local rule='.findings[] | select(.rule == "ext4-mballoc-scanning")'
	local late ext_aged ext_fresh
	late=$(late_share "$SCRATCH.aged.json")
	ext_aged=$(extents_per_alloc "$SCRATCH.aged.json")
	ext_fresh=$(extents_per_alloc "$SCRATCH.fresh.json")
	echo "aged: late share $late, extents/allocation $ext_aged; fresh: $ext_fresh"
	awk -v s="$late" -v m=$AGED_MIN_LATE_SHARE 'BEGIN { exit !(s >= m) }'
	awk -v a="$ext_aged" -v f="$ext_fresh" -v m=$MIN_EXTENTS_RATIO \
		'BEGIN { exit !(f > 0 && a >= m * f) }'
	run create "$SCRATCH.aged.json" "$rule | .evidence[].text"
	echo "$output"
	[[ "$output" == *"ended in the late criteria passes"* ]]
	[[ "$output" == *"free extents examined per regular allocation"* ]]
	grep -q "ext4-mballoc-scanning: create: ext4's allocator searches hard" \
		"$SCRATCH.aged.out"
}

@test "fresh: the rule stays silent, for its counts' sake" {
	local rule='.findings[] | select(.rule == "ext4-mballoc-scanning")'
	[ "$(create "$SCRATCH.fresh.json" "[$rule] | length")" -eq 0 ]
	# the rule looked: a phase of 0.1 s and more, 100 allocations and more
	create "$SCRATCH.fresh.json" '.wall_ns >= 100000000 and
		.metrics.ext4.mballoc_regular >= 100' | grep -qx true
	# and found neither condition: no late passes, ~1 group each
	late_share "$SCRATCH.fresh.json" | awk '{ exit !($1 < 0.25) }'
	create "$SCRATCH.fresh.json" '.metrics.ext4 | .mballoc_groups_scanned /
		.mballoc_regular' | awk '{ exit !($1 < 8) }'
}

@test "the same seed writes and deletes the same files; another seed others" {
	local w='.cases[0].age.outcome | [.files_written, .bytes_written, .files_deleted, .bytes_deleted] | join(" ")'
	local a b c
	a=$(jqr "$SCRATCH.seeda.json" "$w")
	b=$(jqr "$SCRATCH.seedb.json" "$w")
	c=$(jqr "$SCRATCH.seedc.json" "$w")
	echo "seed 3: $a / $b; seed 4: $c"
	[ "$a" = "$b" ]
	[ "$a" != "$c" ]
}

@test "bad --age parameters are refused before anything is made: exit 2, what, why, what to give" {
	run "$FSPROF" run --no-db -w files1m:files=5 --age fill=96 \
		--scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"fill=96"*"ENOSPC"*"give fill=95 or less"* ]]
	run "$FSPROF" run --no-db -w files1m:files=5 \
		--age fill=90,pattern=alternate --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown pattern: give every-other"* ]]
	run "$FSPROF" run --no-db -w files1m:files=5 --age pattern=random \
		--scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"fill=PCT is required"* ]]
	mkdir -p "$SCRATCH.dir"
	run "$FSPROF" run --no-db -w files1m:files=5 --age fill=50 \
		--dir "$SCRATCH.dir" --scratch "$SCRATCH"
	rmdir "$SCRATCH.dir"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--dir filesystem is not fsprof's to fill"* ]]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "a workload the aging leaves no room for fails its case, saying what to change, and nothing is left behind" {
	# 95% of 512 MiB kept (pattern=none): ~25 MiB free for 200 MiB
	run "$FSPROF" run --no-db -w files1m:files=200 --fs ext4 \
		--image-size 512M --age fill=95,pattern=none,sizes=large \
		--scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"left "*" free on "*"the workload needs 200.8 MiB"*"give a larger --image-size"* ]]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

# trace --age: a command traced on an aged filesystem. The aging (~70 MiB
# written, half of it deleted) comes before the tracer: the command's
# phase holds its own 16 MiB and its journal, the spill nothing.
@test "trace --age: the command runs on the aged filesystem, its phase holds its own writes only, nothing is left behind" {
	run "$FSPROF" trace --no-db --fs ext4 --image-size 256M \
		--age fill=50,sizes=small,seed=2 --scratch "$SCRATCH" \
		--json "$SCRATCH.trace.json" -- \
		dd if=/dev/zero of=f bs=1M count=16 conv=fsync
	echo "$output"
	[ "$status" -eq 0 ]
	# recorded as for run: parameters, files written and deleted
	jqr "$SCRATCH.trace.json" '.cases[0].age | .fill_percent == 50
		and .outcome.files_written > 1000
		and .outcome.files_deleted > 500' | grep -qx true
	# the command's phase: 16 MiB and the journal's blocks, not the aging's
	jqr "$SCRATCH.trace.json" '.cases[0].phases[0].block.total.bytes
		| . >= 16777216 and . < 2 * 16777216' | grep -qx true
	jqr "$SCRATCH.trace.json" '.cases[0].spill.block.total.bytes' | grep -qx 0
	rm -f "$SCRATCH.trace.json"
	mkdir -p "$SCRATCH.dir"
	run "$FSPROF" trace --no-db --age fill=50 --dir "$SCRATCH.dir" \
		--scratch "$SCRATCH" -- true
	rmdir "$SCRATCH.dir"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--dir filesystem is not fsprof's to fill"* ]]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}
