#!/usr/bin/env bats
# The xfs domain on real XFS loop filesystems, checked against XFS's own
# per-filesystem counters (/sys/fs/xfs/<dev>/stats/stats, recorded by the
# domain at every phase switch as xfs.sysfs_*) and against bpftrace on the
# same tracepoint for the same device.
#
# While fsprof runs, a second XFS ("noise", made here) writes and fsyncs in a
# loop, so every phase has log writes and forces on another XFS device that
# must not be counted.
# Run 1: seqio 32 MiB on xfs (write + fdatasync, read, delete + syncfs).
# Run 2: mdcreate, 12000 files (enough for xfsaild to push and flush the
# CIL during remove), on xfs and on xfs with logbsize=256k.
# Run 3: seqio 8 MiB on ext4: the xfs domain must report nothing.

load helpers

setup_file() {
	load helpers
	scratch_create
	export SEQ_JSON="$SCRATCH.seq.json" MD_JSON="$SCRATCH.md.json"
	export EXT4_JSON="$SCRATCH.ext4.json" BTLOG="$SCRATCH.bt"
	NOISE_DIR=$(mktemp -d /var/tmp/fsprof-xfs-noise.XXXXXX)
	export NOISE_DIR

	# the other XFS, busy during the runs
	mkdir -p "$NOISE_DIR/mnt"
	truncate -s 320M "$NOISE_DIR/image"
	NOISE_LOOP=$(losetup -f --show "$NOISE_DIR/image")
	echo "$NOISE_LOOP" >"$NOISE_DIR/loop"
	mkfs.xfs -q -f "$NOISE_LOOP"
	mount "$NOISE_LOOP" "$NOISE_DIR/mnt"
	local noise_stats=/sys/fs/xfs/${NOISE_LOOP#/dev/}/stats/stats
	awk '$1 == "log" { print $2 }' "$noise_stats" >"$NOISE_DIR/writes0"

	tracefs_ensure
	bpftrace -e 'tracepoint:xfs:xlog_iclog_write /args->dev >> 20 == 7/ {
		printf("%u %llu\n", args->dev, nsecs); }' >"$BTLOG" 2>&1 &
	echo $! >"$SCRATCH.bt.pid"
	wait_for "grep -q '^Attaching' '$BTLOG'" 60

	(while :; do echo x >"$NOISE_DIR/mnt/f" && sync "$NOISE_DIR/mnt/f" &&
		rm "$NOISE_DIR/mnt/f"; done) 2>/dev/null &
	local noise_pid=$!

	"$FSPROF" run -q -w seqio --fs xfs --size 32M --image-size 512M \
		--scratch "$SCRATCH" --json "$SEQ_JSON" >"$SCRATCH.seq.out" 2>&1
	echo $? >"$SCRATCH.seq.status"
	"$FSPROF" run -q -w mdcreate:files=12000 \
		--fs xfs,xfs:mount=logbsize=256k --image-size 512M \
		--scratch "$SCRATCH" --json "$MD_JSON" >"$SCRATCH.md.out" 2>&1
	echo $? >"$SCRATCH.md.status"
	"$FSPROF" run -q -w seqio --fs ext4 --size 8M --scratch "$SCRATCH" \
		--json "$EXT4_JSON" >"$SCRATCH.ext4.out" 2>&1
	echo $? >"$SCRATCH.ext4.status"

	kill "$noise_pid"
	wait "$noise_pid" 2>/dev/null || true
	awk '$1 == "log" { print $2 }' "$noise_stats" >"$NOISE_DIR/writes1"
	bpftrace_end "$(cat "$SCRATCH.bt.pid")"
}

teardown_file() {
	load helpers
	umount "$NOISE_DIR/mnt" 2>/dev/null
	losetup -d "$(cat "$NOISE_DIR/loop")" 2>/dev/null
	rm -rf --one-file-system "$NOISE_DIR"
	rm -f "$SCRATCH".*
	scratch_remove
}

# "<case> <phase|spill> <a> <b>" for every phase and the spill of every
# case in $1 where metrics.xfs.$2 != metrics.xfs.$3 (or either is missing);
# "no cases" when there is nothing to compare
mismatches() {
	jq -r --arg a "$2" --arg b "$3" '
		if (.cases // [] | length) == 0 then "no cases" else
		.cases | to_entries[] | .key as $c |
		(.value.phases[] | {n: .name, m: .metrics.xfs}),
		{n: "spill", m: .value.spill.metrics.xfs} |
		select(.m[$a] == null or .m[$b] == null or .m[$a] != .m[$b]) |
		"case \($c) \(.n): \($a) \(.m[$a]) \($b) \(.m[$b])" end' "$1"
}

@test "the runs on xfs and ext4 succeed" {
	for r in seq md ext4; do
		[ "$(cat "$SCRATCH.$r.status")" -eq 0 ] ||
			{ cat "$SCRATCH.$r.out"; false; }
	done
}

@test "xfs log writes per phase equal XFS's own log-write counter" {
	run mismatches "$SEQ_JSON" log_writes sysfs_log_writes
	[ -z "$output" ] || { echo "$output"; false; }
	run mismatches "$MD_JSON" log_writes sysfs_log_writes
	[ -z "$output" ] || { echo "$output"; false; }
}

@test "xfs log forces per phase equal XFS's own log-force counter" {
	run mismatches "$SEQ_JSON" log_forces sysfs_log_forces
	[ -z "$output" ] || { echo "$output"; false; }
	run mismatches "$MD_JSON" log_forces sysfs_log_forces
	[ -z "$output" ] || { echo "$output"; false; }
}

@test "the other XFS wrote its log during the runs and none of it counted" {
	local before after
	before=$(cat "$NOISE_DIR/writes0")
	after=$(cat "$NOISE_DIR/writes1")
	echo "noise XFS log writes: $before -> $after"
	[ "$after" -gt $((before + 10)) ]
	# its writes would have broken the equalities above; and on ext4:
	run jqr "$EXT4_JSON" '[.cases[0].phases[].metrics.xfs,
		.cases[0].spill.metrics.xfs] | map(select(. != null)) | length'
	[ "$output" -eq 0 ]
}

@test "xfs log writes per phase match bpftrace on xlog_iclog_write for the same device" {
	local dev phases p lo hi want got bad=0
	dev=$(jqr "$SEQ_JSON" '.cases[0].target | .dev_major * 1048576 + .dev_minor')
	phases=$(jqr "$SEQ_JSON" '.cases[0].phases[] |
		"\(.name) \(.start_mono_ns) \(.end_mono_ns) \(.metrics.xfs.log_writes)"')
	while read -r p lo hi want; do
		got=$(awk -v d="$dev" -v lo="$lo" -v hi="$hi" \
			'$1 == d && $2 >= lo && $2 <= hi { n++ } END { print n + 0 }' \
			"$BTLOG")
		echo "$p: bpftrace $got, fsprof $want"
		[ "$got" -eq "$want" ] || bad=1
	done <<<"$phases"
	[ "$bad" -eq 0 ]
	# and something was compared: the write phase's fdatasync writes the log
	[ "$(jqr "$SEQ_JSON" '.cases[0].phases[0].metrics.xfs.log_writes')" -gt 0 ]
}

@test "xfs mdcreate phases write the log, each write's payload recorded" {
	local p writes sized
	for p in 0 1; do
		writes=$(jqr "$MD_JSON" ".cases[0].phases[$p].metrics.xfs.log_writes")
		sized=$(jqr "$MD_JSON" ".cases[0].phases[$p].histograms.xfs.log_write_bytes.count")
		echo "phase $p: $writes log writes, $sized sized"
		[ "$writes" -gt 0 ]
		[ "$sized" -eq "$writes" ]
	done
	# the payload cannot exceed the bytes XFS put on disk for the log (a
	# phase without either number is a failure too: null > null is false)
	run jqr "$MD_JSON" '.cases[0].phases | if length == 0 then "no phases" else
		.[] | {name, sum: .histograms.xfs.log_write_bytes.sum,
		       disk: .metrics.xfs.sysfs_log_bytes} |
		select(.sum == null or .disk == null or .sum > .disk) |
		"\(.name): payload \(.sum) B, sysfs_log_bytes \(.disk)" end'
	[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; false; }
}

@test "xfs log forces are charged to their callers: fdatasync, then syncfs" {
	local write delete
	write=$(jqr "$SEQ_JSON" '.cases[0].phases[] | select(.name == "write") |
		.metrics.xfs.log_force_fsync // 0')
	delete=$(jqr "$SEQ_JSON" '.cases[0].phases[] | select(.name == "delete") |
		.metrics.xfs.log_force_sync_fs // 0')
	echo "write: $write fsync forces; delete: $delete sync_fs forces"
	[ "$write" -ge 1 ]
	[ "$delete" -ge 1 ]
	# every force has a caller (xfsaild's CIL flushes are callers too);
	# missing xfs metrics, or no phases at all, fail as well
	run jqr "$MD_JSON" '[.cases[].phases[]] | if length == 0 then "no phases" else
		.[] | {name, m: .metrics.xfs} |
		select(.m.log_forces == null or ([.m | to_entries[] |
			select(.key | startswith("log_force_")) | .value] |
			add // 0) < .m.log_forces) | "\(.name): \(.m | tostring)" end'
	[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; false; }
}

@test "xfs seqio write allocates at least the file and converts delalloc" {
	local blocks converts
	blocks=$(jqr "$SEQ_JSON" '.cases[0].phases[0].histograms.xfs.alloc_extent_blocks.sum')
	converts=$(jqr "$SEQ_JSON" '.cases[0].phases[0].metrics.xfs.delalloc_converts')
	echo "allocated $blocks blocks, $converts delalloc conversions"
	[ "$blocks" -ge $((32 * 1048576 / 4096)) ]
	[ "$converts" -ge 1 ]
}

@test "xfs logbsize=256k makes fewer and larger log writes" {
	local p small big small_max big_max
	for p in 0 1; do
		small=$(jqr "$MD_JSON" ".cases[0].phases[$p].metrics.xfs.log_writes")
		big=$(jqr "$MD_JSON" ".cases[1].phases[$p].metrics.xfs.log_writes")
		small_max=$(jqr "$MD_JSON" ".cases[0].phases[$p].histograms.xfs.log_write_bytes.max")
		big_max=$(jqr "$MD_JSON" ".cases[1].phases[$p].histograms.xfs.log_write_bytes.max")
		echo "phase $p: logbsize=32k $small writes (max $small_max B), 256k $big writes (max $big_max B)"
		[ "$big" -lt "$small" ]
		[ "$small_max" -le 32768 ]
		[ "$big_max" -gt 32768 ]
	done
}

@test "xfs runs leave nothing behind" {
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}
