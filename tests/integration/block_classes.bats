#!/usr/bin/env bats
# Block IO classes (log / meta / data / flush) and issuers: an fsync-heavy
# run on ext4 and a metadata run on XFS, each cross-checked against bpftrace
# classifying the same block_rq_issue events by sector and rwbs, and the log
# ranges fsprof read checked against debugfs / xfs_db on an identical mkfs.

load helpers

setup_file() {
	load helpers
	scratch_create
	export EXT4="$SCRATCH.ext4.json" XFS="$SCRATCH.xfs.json"
	export BTLOG="$SCRATCH.bpftrace"
	tracefs_ensure
	bpftrace -e 'tracepoint:block:block_rq_issue /args->dev >> 20 == 7/ {
		printf("%u %llu %u %llu %s\n", args->dev, nsecs, args->bytes,
		       args->sector, args->rwbs); }' >"$BTLOG" 2>&1 &
	echo $! >"$SCRATCH.btpid"
	wait_for "grep -q '^Attaching' '$BTLOG'" 60
	"$FSPROF" run -q -w fsync:files=200,appends=2 --fs ext4 \
		--scratch "$SCRATCH" --json "$EXT4" >"$SCRATCH.ext4.out" 2>&1
	echo $? >"$SCRATCH.ext4.status"
	"$FSPROF" run -q -w mdcreate:files=2000 --fs xfs \
		--scratch "$SCRATCH" --json "$XFS" >"$SCRATCH.xfs.out" 2>&1
	echo $? >"$SCRATCH.xfs.status"
	sleep 0.5
	bpftrace_end "$(cat "$SCRATCH.btpid")"
}

teardown_file() {
	load helpers
	rm -f "$EXT4" "$XFS" "$BTLOG" "$SCRATCH".*.out "$SCRATCH".*.status \
		"$SCRATCH.btpid" "$SCRATCH.img"
	scratch_remove
}

# a query over every phase of both runs must hold
all_phases() {
	jq -e "[.cases[0].phases[] | $1] | all" "$EXT4" "$XFS"
}

# an image like the run's target: same size, same mkfs command line
mkfs_like() {
	local results=$1 cmd
	truncate -s "$(jqr "$results" '.cases[0].target.image_size')" \
		"$SCRATCH.img"
	cmd=$(jqr "$results" '.cases[0].target.mkfs_cmd')
	${cmd% *} "$SCRATCH.img" >/dev/null
}

@test "the ext4 and xfs runs succeed and leave nothing behind" {
	cat "$SCRATCH.ext4.out" "$SCRATCH.xfs.out"
	[ "$(cat "$SCRATCH.ext4.status")" -eq 0 ]
	[ "$(cat "$SCRATCH.xfs.status")" -eq 0 ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "per phase and IO class, IOs and bytes equal bpftrace's classification of block_rq_issue by sector and rwbs" {
	run python3 "$LIB/block_classes_check.py" "$BTLOG" "$EXT4" "$XFS"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "ext4 fsync cycles: jbd2 writes the journal, with FUA asked at submission and flushes issued" {
	q='.cases[0].phases[] | select(.name=="cycles") | .block.io_classes'
	log=$(jqr "$EXT4" "$q.log_write.bytes")
	jbd2=$(jqr "$EXT4" "$q.log_write.issuers.jbd2.bytes // 0")
	fua=$(jqr "$EXT4" "$q.log_write.fua")
	flush=$(jqr "$EXT4" "$q.flush.ios")
	echo "log_write $log bytes, by jbd2 $jbd2, fua $fua, flushes $flush"
	[ "$log" -gt 0 ]
	[ "$jbd2" -gt 0 ]
	# one commit block per fsync at least (400 fsyncs)
	[ "$fua" -ge 200 ]
	[ "$flush" -ge 200 ]
}

@test "the ext4 journal ranges are the journal inode's blocks (debugfs on an identical mkfs)" {
	mkfs_like "$EXT4"
	bs=$(dumpe2fs -h "$SCRATCH.img" 2>/dev/null | awk '/^Block size:/ { print $3 }')
	want=$(debugfs -R 'blocks <8>' "$SCRATCH.img" 2>/dev/null | tr ' ' '\n' |
		awk -v spb=$((bs / 512)) 'NF {
			if (n && $1 == prev + 1) { len[n] += spb }
			else { n++; start[n] = $1 * spb; len[n] = spb }
			prev = $1 }
		END { for (i = 1; i <= n; i++) print start[i], len[i] }')
	got=$(jqr "$EXT4" '.cases[0].target.log.ranges[] | "\(.start_sector) \(.sectors)"')
	echo "debugfs: $want"
	echo "fsprof:  $got"
	[ -n "$want" ]
	[ "$want" = "$got" ]
}

@test "the xfs log range is sb_logstart / sb_logblocks (xfs_db on an identical mkfs)" {
	mkfs_like "$XFS"
	logstart=$(xfs_db -r -c 'sb 0' -c 'p logstart' "$SCRATCH.img" | awk '{ print $3 }')
	logblocks=$(xfs_db -r -c 'sb 0' -c 'p logblocks' "$SCRATCH.img" | awk '{ print $3 }')
	blocksize=$(xfs_db -r -c 'sb 0' -c 'p blocksize' "$SCRATCH.img" | awk '{ print $3 }')
	daddr=$(xfs_db -r -c "convert fsb $logstart daddr" "$SCRATCH.img" |
		sed 's/.*(\([0-9]*\)).*/\1/')
	want="$daddr $((logblocks * blocksize / 512))"
	got=$(jqr "$XFS" '.cases[0].target.log.ranges[] | "\(.start_sector) \(.sectors)"')
	echo "xfs_db: $want; fsprof: $got"
	[ "$want" = "$got" ]
}

@test "xfs metadata create: the log is written, by the CIL push worker among others" {
	q='.cases[0].phases[] | select(.name=="create") | .block.io_classes.log_write'
	echo "$(jq -c "$q | {ios, bytes, issuers: (.issuers | map_values(.bytes))}" "$XFS")"
	[ "$(jqr "$XFS" "$q.bytes")" -gt 0 ]
	[ "$(jqr "$XFS" "$q.issuers.xfs_log.bytes // 0")" -gt 0 ]
}

@test "size histograms sum to the IOs, issuers sum to the class, classes to the total" {
	run all_phases '.block | (.io_classes | to_entries | map(.value) |
		all(([.size.histogram[].count] | add // 0) == .ios and
		    ([.issuers[].ios] | add // 0) == .ios and
		    ([.issuers[].bytes] | add // 0) == .bytes)) and
		([.io_classes[].ios] | add) == .total.ios and
		([.io_classes[].bytes] | add) == .total.bytes and
		([.issuers[].ios] | add) == .total.ios'
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "device busy time is within the wall, and in-flight peaks at >= 1 where there was IO" {
	run all_phases '(.block.busy_ns <= .wall_ns) and
		(.block.total.ios == 0 or (.block.inflight.max >= 1 and .block.busy_ns > 0)) and
		(.block.inflight.avg <= .block.inflight.max) and
		([.block.io_classes[].busy_ns] | max) <= .block.busy_ns'
	echo "$output"
	jq -c '.cases[0].phases[] | {name, wall_ns, busy: .block.busy_ns, inflight: .block.inflight}' "$EXT4" "$XFS"
	[ "$status" -eq 0 ]
}
