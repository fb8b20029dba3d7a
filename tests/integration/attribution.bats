#!/usr/bin/env bats
# Kernel work is charged to the right phase and counted once: on every
# phase of every workload (small sizes), on ext4 and on xfs, every request
# is timed in the phase it was issued in (collect waits for the ones still
# in flight) and no phase is busier than it is long.

load helpers

setup_file() {
	load helpers
	scratch_create
	local w
	for w in seqio:size=64M files1m:files=200 mdcreate:files=5000 \
		fsync:files=200 untar:preset=small bonnie:size=128M,seeks=500 \
		afd:files=3000; do
		"$FSPROF" run -q -w "$w" --fs ext4,xfs --scratch "$SCRATCH" \
			--json "$SCRATCH.${w%%:*}.json" >"$SCRATCH.${w%%:*}.out" 2>&1
		echo $? >"$SCRATCH.${w%%:*}.status"
	done
}

teardown_file() {
	load helpers
	rm -f "$SCRATCH".*
	scratch_remove
}

check_workload() {
	cat "$SCRATCH.$1.out"
	[ "$(cat "$SCRATCH.$1.status")" -eq 0 ]
	[ "$(jqr "$SCRATCH.$1.json" '.cases | length')" -eq 2 ]
	run attribution_holds "$SCRATCH.$1.json"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "seqio: every request is timed in its phase" { check_workload seqio; }
@test "files1m: every request is timed in its phase" { check_workload files1m; }
@test "mdcreate: every request is timed in its phase" { check_workload mdcreate; }
@test "fsync: every request is timed in its phase" { check_workload fsync; }
@test "untar: every request is timed in its phase" { check_workload untar; }
@test "bonnie: every request is timed in its phase" { check_workload bonnie; }
@test "afd: every request is timed in its phase" { check_workload afd; }

# The root disk here is virtio, whose driver requeues requests when its
# queue is full: a requeued request is issued twice and must count once.
@test "requeued requests on the root disk are counted and timed once" {
	local try requeues=0
	mkdir -p "$SCRATCH/rootdisk"
	for try in 1 2 3; do
		run "$FSPROF" run -q -w seqio:size=512M --dir "$SCRATCH/rootdisk" \
			--json "$SCRATCH.rq.json"
		[ "$status" -eq 0 ]
		requeues=$(jqr "$SCRATCH.rq.json" '.cases[0].spill.metrics.block.requeues')
		echo "try $try: $requeues requeues"
		[ "$requeues" -gt 0 ] && break
	done
	rmdir "$SCRATCH/rootdisk"
	[ "$requeues" -gt 0 ] || { echo "the disk never requeued: nothing tested"; false; }
	run attribution_holds "$SCRATCH.rq.json"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the invariant check fails on a phase whose requests were not all timed" {
	jq '.cases[0].phases[0].block.io_classes |= with_entries(.value.issuers |=
		with_entries(.value.ios += 1))' "$SCRATCH.seqio.json" >"$SCRATCH.broken.json"
	run attribution_holds "$SCRATCH.broken.json"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"requests"*"timed"* ]]
}

@test "nothing is left behind" {
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}
