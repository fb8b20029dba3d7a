#!/usr/bin/env bats
# One 256 MiB seqio run on ext4, cross-checked against bpftrace on the same
# tracepoint, then checked for what the device must have seen.

load helpers

MIB256=268435456

setup_file() {
	load helpers
	scratch_create
	export RESULTS="$SCRATCH.json" BTLOG="$SCRATCH.bpftrace"
	bpftrace_start "$BTLOG"
	"$FSPROF" run -q -w seqio --fs ext4 --size 256M --scratch "$SCRATCH" \
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

@test "seqio run on ext4 succeeds and leaves nothing behind" {
	cat "$SCRATCH.out"
	[ "$(cat "$SCRATCH.status")" -eq 0 ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "write phase: the device sees at least 256 MiB written and at most 5% more" {
	bytes=$(jqr "$RESULTS" '.cases[0].phases[] | select(.name=="write") | .block.classes.write.bytes')
	echo "device write bytes: $bytes"
	[ "$bytes" -ge $MIB256 ]
	[ "$bytes" -le $((MIB256 * 105 / 100)) ]
}

@test "write phase: the workload wrote exactly 256 MiB and the loop device used direct IO" {
	[ "$(jqr "$RESULTS" '.cases[0].phases[] | select(.name=="write") | .workload.bytes')" -eq $MIB256 ]
	[ "$(jqr "$RESULTS" '.cases[0].target.loop_dio')" = true ]
}

@test "read phase after the cache drop: the device reads at least 256 MiB" {
	bytes=$(jqr "$RESULTS" '.cases[0].phases[] | select(.name=="read") | .block.classes.read.bytes')
	echo "device read bytes: $bytes"
	[ "$bytes" -ge $MIB256 ]
	[ "$(jqr "$RESULTS" '.cases[0].phases[] | select(.name=="read") | .cache')" = dropped ]
}

@test "per phase, block IOs and bytes equal bpftrace's count of block_rq_issue for the device" {
	run python3 "$LIB/bpftrace_phase_counts.py" "$RESULTS" "$BTLOG"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "every rate printed equals bytes / wall of the same phase in the JSON" {
	run jq -e '[.cases[0].phases[] | select(.wall_ns > 0) |
		((.workload.mb_per_s - .workload.bytes / 1e6 / (.wall_ns / 1e9)) | fabs) < 1e-6] | all' "$RESULTS"
	[ "$status" -eq 0 ]
}

@test "every phase has latency percentiles no larger than its max" {
	run jq -e '[.cases[0].phases[] | .block.total.latency | .percentile["99.000000"] <= .max and .count > 0] | all' "$RESULTS"
	[ "$status" -eq 0 ]
}

@test "the attach report lists the block programs as attached and none as failed" {
	run jq -e '[.cases[0].programs[] | select(.domain=="block" and .state=="attached")] | length >= 2' "$RESULTS"
	[ "$status" -eq 0 ]
	run jq -e '[.cases[0].programs[] | select(.state=="failed")] | length == 0' "$RESULTS"
	[ "$status" -eq 0 ]
}
