#!/usr/bin/env bats
# The jbd2 and ext4 domains on real ext4 loop filesystems: one fsprof run of
# seqio, fsync and files1m on ext4 with and without delalloc, checked
# against the kernel's own journal statistics (/proc/fs/jbd2/<dev>-8/info,
# read by the domain at every phase boundary: jbd2.proc_transactions),
# against bpftrace on the same tracepoints, and against what each workload
# must make the allocator, delalloc and the journal do.

load helpers

SEQIO_BYTES=33554432 # seqio:size=32M
FSYNC_FILES=200
FSYNC_APPENDS=2
FILES1M_FILES=40

# one line per event of a loop device: "<event> <dev> <nsecs>"
bpftrace_events_start() {
	local out=$1
	tracefs_ensure
	bpftrace -e '
	tracepoint:jbd2:jbd2_run_stats /args->dev >> 20 == 7/ {
		printf("jbd2_run_stats %u %llu\n", args->dev, nsecs); }
	tracepoint:ext4:ext4_request_blocks /args->dev >> 20 == 7/ {
		printf("ext4_request_blocks %u %llu\n", args->dev, nsecs); }
	tracepoint:ext4:ext4_mballoc_alloc /args->dev >> 20 == 7/ {
		printf("ext4_mballoc_alloc %u %llu\n", args->dev, nsecs); }
	tracepoint:ext4:ext4_da_write_pages_extent /args->dev >> 20 == 7/ {
		printf("ext4_da_write_pages_extent %u %llu\n", args->dev, nsecs); }
	tracepoint:ext4:ext4_sync_file_exit /args->dev >> 20 == 7/ {
		printf("ext4_sync_file_exit %u %llu\n", args->dev, nsecs); }' \
		>"$out" 2>&1 &
	BPFTRACE_PID=$!
	wait_for "grep -q '^Attaching' '$out'" 60
}

setup_file() {
	load helpers
	scratch_create
	export RESULTS="$SCRATCH.json" BTLOG="$SCRATCH.bpftrace"
	bpftrace_events_start "$BTLOG"
	"$FSPROF" run -q -w seqio:size=32M \
		-w "fsync:files=$FSYNC_FILES,appends=$FSYNC_APPENDS" \
		-w "files1m:files=$FILES1M_FILES" \
		--fs "ext4,ext4:mount=nodelalloc" --scratch "$SCRATCH" \
		--json "$RESULTS" >"$SCRATCH.out" 2>&1
	echo $? >"$SCRATCH.status"
	sleep 0.5
	bpftrace_stop
}

teardown_file() {
	load helpers
	rm -f "$RESULTS" "$BTLOG" "$SCRATCH.out" "$SCRATCH.status"
	scratch_remove
}

# a metric of one phase: phase_metric WORKLOAD TARGET_LABEL PHASE METRIC
phase_metric() {
	jqr "$RESULTS" ".cases[] | select(.workload.name==\"$1\" and
		.target_label==\"$2\") | .phases[] | select(.name==\"$3\") |
		.metrics.$4 // \"absent\""
}

@test "the run succeeds, every jbd2 and ext4 program attaches, and nothing is left behind" {
	cat "$SCRATCH.out"
	[ "$(cat "$SCRATCH.status")" -eq 0 ]
	run jq -e '[.cases[].programs[] | select(.domain=="jbd2" or .domain=="ext4") |
		select(.state != "attached")] | length == 0' "$RESULTS"
	[ "$status" -eq 0 ]
	run jq -e '[.cases[0].programs[] | select(.domain=="jbd2")] | length >= 3' "$RESULTS"
	[ "$status" -eq 0 ]
	run jq -e '[.cases[0].programs[] | select(.domain=="ext4")] | length >= 10' "$RESULTS"
	[ "$status" -eq 0 ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "per phase and between phases, jbd2 commits equal the journal's own transaction count" {
	run jq -r '.cases[] | (.workload.name + " on " + .target_label) as $c |
		(.phases[] | [$c, .name, .metrics.jbd2.commits,
			      .metrics.jbd2.proc_transactions]),
		[$c, "spill", .spill.metrics.jbd2.commits,
		 .spill.metrics.jbd2.proc_transactions] | @tsv' "$RESULTS"
	echo "$output"
	[ -n "$output" ]
	# every phase and spill has both numbers, and they are equal
	if echo "$output" | awk -F'\t' '$3 == "" || $4 == "" || $3 != $4' | grep -q .; then
		false
	fi
	# the comparison is not of zeros: fsync commits once per fsync
	[ "$(echo "$output" | awk -F'\t' '{ s += $3 } END { print s }')" -ge \
		$((FSYNC_FILES * FSYNC_APPENDS)) ]
}

@test "per phase, jbd2 and ext4 counts equal bpftrace's count of the same tracepoints for the device" {
	run python3 "$LIB/bpftrace_metric_counts.py" "$RESULTS" "$BTLOG" \
		jbd2_run_stats=jbd2.commits \
		ext4_request_blocks=ext4.alloc_requests \
		ext4_mballoc_alloc=ext4.mballoc_regular \
		ext4_da_write_pages_extent=ext4.da_flush_extents \
		ext4_sync_file_exit=ext4.fsyncs
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "fsync cycles: one traced fsync per append, each with a latency, and at least one commit each" {
	for fs in ext4 ext4:mount=nodelalloc; do
		fsyncs=$(phase_metric fsync "$fs" cycles ext4.fsyncs)
		commits=$(phase_metric fsync "$fs" cycles jbd2.commits)
		lat=$(jqr "$RESULTS" ".cases[] | select(.workload.name==\"fsync\" and
			.target_label==\"$fs\") | .phases[] | select(.name==\"cycles\") |
			.histograms.ext4.fsync_ns.count")
		echo "$fs: fsyncs $fsyncs, latencies $lat, commits $commits"
		[ "$fsyncs" -eq $((FSYNC_FILES * FSYNC_APPENDS)) ]
		[ "$lat" -eq "$fsyncs" ]
		# single-threaded: every fsync after an append waits for a commit
		[ "$commits" -ge "$fsyncs" ]
	done
}

@test "seqio write: delalloc reserves every block, writeback writes every page, one fdatasync commits" {
	blocks=$((SEQIO_BYTES / 4096))
	[ "$(phase_metric seqio ext4 write ext4.da_reserved_blocks)" -eq $blocks ]
	[ "$(phase_metric seqio ext4 write ext4.writepages_pages)" -eq $blocks ]
	[ "$(phase_metric seqio ext4 write ext4.fdatasyncs)" -eq 1 ]
	[ "$(phase_metric seqio ext4 write jbd2.commits)" -ge 1 ]
	# the flush allocated at least the file, in extents from the flush
	[ "$(phase_metric seqio ext4 write ext4.da_flush_blocks)" -ge $blocks ]
	[ "$(phase_metric seqio ext4 write ext4.da_flush_extents)" -ge 1 ]
	freed=$(phase_metric seqio ext4 delete ext4.freed_blocks)
	echo "delete freed $freed blocks"
	[ "$freed" -ge $blocks ]
}

@test "files1m create with delalloc: allocations cover the files, and mballoc's outcomes add up" {
	requests=$(phase_metric files1m ext4 create ext4.alloc_requests)
	hits=$(phase_metric files1m ext4 create ext4.alloc_goal_hits)
	misses=$(phase_metric files1m ext4 create ext4.alloc_goal_misses)
	regular=$(phase_metric files1m ext4 create ext4.mballoc_regular)
	failed=$(phase_metric files1m ext4 create ext4.alloc_failures)
	prealloc=$(phase_metric files1m ext4 create ext4.mballoc_prealloc)
	echo "requests $requests (goal hits $hits, misses $misses, failed $failed), regular $regular, prealloc $prealloc"
	[ "$requests" -ge $FILES1M_FILES ]
	[ $((hits + misses + failed)) -eq "$requests" ]
	# each request is served by the regular allocator or a preallocation
	[ $((regular + prealloc)) -eq "$requests" ]
	run jq -e '.cases[] | select(.workload.name=="files1m" and
		.target_label=="ext4") | .phases[] | select(.name=="create") |
		.metrics.ext4 as $e |
		($e.mballoc_cr_power2_aligned + $e.mballoc_cr_goal_len_fast +
		 $e.mballoc_cr_best_avail_len + $e.mballoc_cr_goal_len_slow +
		 $e.mballoc_cr_any_free + ($e.mballoc_cr_unknown // 0)) ==
		$e.mballoc_regular' "$RESULTS"
	[ "$status" -eq 0 ]
}

@test "files1m create with nodelalloc: no delalloc flush or reservation, and many more allocation requests per MiB" {
	[ "$(phase_metric files1m ext4:mount=nodelalloc create ext4.da_flushes)" -eq 0 ]
	[ "$(phase_metric files1m ext4:mount=nodelalloc create ext4.da_reserves)" -eq 0 ]
	[ "$(phase_metric files1m ext4 create ext4.da_flushes)" -ge $FILES1M_FILES ]
	delalloc=$(phase_metric files1m ext4 create ext4.alloc_requests)
	nodelalloc=$(phase_metric files1m ext4:mount=nodelalloc create ext4.alloc_requests)
	echo "allocation requests for $FILES1M_FILES MiB: delalloc $delalloc, nodelalloc $nodelalloc"
	# block by block instead of once per file flush
	[ "$nodelalloc" -ge $((delalloc * 10)) ]
}
