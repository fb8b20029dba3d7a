#!/usr/bin/env bats
# Kernel work is charged to the right phase and counted once: on every
# phase of every workload (small sizes), on ext4 and on xfs, every request
# is timed in the phase it was issued in (collect waits for the ones still
# in flight) and no phase is busier than it is long.

load helpers

# One run of the seven workloads on both filesystems (14 cases, each on a
# fresh filesystem), its JSON split by workload: 8.0 s against 9.6 s as
# seven runs (session 17), each of which loaded and attached the programs
setup_file() {
	load helpers
	scratch_create
	local w status=0
	"$FSPROF" run -q -w seqio:size=64M -w files1m:files=200 \
		-w mdcreate:files=5000 -w fsync:files=200 -w untar:preset=small \
		-w bonnie:size=64M,seeks=500 -w afd:files=3000 --fs ext4,xfs \
		--scratch "$SCRATCH" --json "$SCRATCH.all.json" \
		>"$SCRATCH.all.out" 2>&1 || status=$?
	for w in seqio files1m mdcreate fsync untar bonnie afd; do
		cp "$SCRATCH.all.out" "$SCRATCH.$w.out"
		echo $status >"$SCRATCH.$w.status"
		jq --arg w "$w" '.cases |= map(select(.workload.name == $w))' \
			"$SCRATCH.all.json" >"$SCRATCH.$w.json" ||
			echo 1 >"$SCRATCH.$w.status"
	done
}

# what the lost-completion test set up, should it have failed on the way
teardown() {
	if [ -n "${LOSS_BT:-}" ]; then
		bpftrace_end_quick "$LOSS_BT"
		LOSS_BT=
	fi
	mountpoint -q "$SCRATCH/lossmnt" && umount "$SCRATCH/lossmnt"
	[ -d "$SCRATCH/lossmnt" ] && rmdir "$SCRATCH/lossmnt"
	if [ -n "${LOSSDEV:-}" ]; then
		losetup -d "$LOSSDEV"
		LOSSDEV=
	fi
	rm -f "$SCRATCH.lossimg"
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
# 128 MiB (512 before session 17: 2.2-2.9 s a try) fill the queue as well:
# 52-57 requeues a run against 46-53 at 512 MiB, 0.6 s a try.
@test "requeued requests on the root disk are counted and timed once" {
	local try requeues=0
	mkdir -p "$SCRATCH/rootdisk"
	for try in 1 2 3; do
		run "$FSPROF" run -q -w seqio:size=128M --dir "$SCRATCH/rootdisk" \
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

# the loop device and ext4 of the completion tests, mounted at lossmnt;
# unless $1 is "quiet", bpftrace logging every issue, completion and
# requeue on it to loss.bt
loss_fs_create() {
	truncate -s 1G "$SCRATCH.lossimg"
	LOSSDEV=$(losetup -f --show "$SCRATCH.lossimg")
	mkfs.ext4 -q "$LOSSDEV"
	mkdir -p "$SCRATCH/lossmnt"
	mount "$LOSSDEV" "$SCRATCH/lossmnt"
	[ "${1:-}" = quiet ] && return 0
	tracefs_ensure
	kdev=$(((7 << 20) | 0x$(stat -c %T "$LOSSDEV")))
	BPFTRACE_PERF_RB_PAGES=4096 bpftrace -e '
		tracepoint:block:block_rq_issue /args->dev == $1/ {
			printf("I %llu %u %llu %u\n", nsecs, args->dev, args->sector, args->nr_sector); }
		tracepoint:block:block_rq_complete /args->dev == $1/ {
			printf("C %llu %u %llu %u\n", nsecs, args->dev, args->sector, args->nr_sector); }
		tracepoint:block:block_rq_requeue /args->dev == $1/ {
			printf("R %llu %u %llu %u\n", nsecs, args->dev, args->sector, args->nr_sector); }' \
		"$kdev" >"$SCRATCH.loss.bt" 2>&1 &
	LOSS_BT=$!
	wait_for "grep -q '^Attaching' '$SCRATCH.loss.bt'" 60
}

# stop the log, take the device down, and compare, per phase of the
# results $@, fsprof's requests never completed with bpftrace's issues
# never completed (lib/unpaired_requests.py). bpftrace's own programs
# skip an event that comes while one of them runs on its CPU (an
# interrupt's completion during an issue probe): the kernel counts those
# in recursion_misses, read before its programs go.
loss_compare() {
	missed=$(bpftool prog show -j | jq '[.[] | select(.name | startswith("block_rq_comp")) |
		.recursion_misses // 0] | add // 0')
	teardown
	run python3 "$LIB/unpaired_requests.py" "$missed" "$SCRATCH.loss.bt" "$@"
	echo "$output"
	rm -f "$SCRATCH.loss.bt"
	[ "$status" -eq 0 ]
}

# This kernel issues the odd request it never reports complete: on an ext4
# loop, a direct 4 KiB seqio loses about one block_rq_complete in 30,000
# requests (docs/metrics.md), so some of these runs lose one and most lose
# none (three runs, 98,000 requests: was six, for 15 s more of the suite). In each phase of each run, fsprof's requests never completed (its
# completion_unseen, or still in flight at its end) must be among
# bpftrace's issues with no completion at their sector before the next
# issue there, and bpftrace's more must be the completions its own
# programs skipped: fsprof counts none the kernel completed, whether the
# kernel lost any or not. The counting itself is checked on completions
# dropped on purpose, in the next test.
@test "per phase, the requests fsprof finds never completed are those bpftrace sees issued and never completed" {
	local try lost=0 n
	loss_fs_create
	for try in $(seq 3); do
		"$FSPROF" run -q -w seqio:size=64M,direct=yes,bs=4k \
			--dir "$SCRATCH/lossmnt" --json "$SCRATCH.loss$try.json" >/dev/null
		n=$(jq '[.cases[0].phases[].block, .cases[0].spill.block |
			.io_classes // {} | .[].issuers[].completion_unseen] | add // 0' "$SCRATCH.loss$try.json")
		lost=$((lost + n))
		run attribution_holds "$SCRATCH.loss$try.json"
		echo "run $try: $n never completed; $output"
		[ "$status" -eq 0 ]
	done
	echo "the kernel lost $lost completion(s) in $try runs"
	loss_compare "$SCRATCH".loss[0-9]*.json
	rm -f "$SCRATCH".loss[0-9]*.json
}

# The kernel's own losses are too rare to count on, so fsprof is made to
# ignore one completion in 3 (FSPROF_TEST_DROP_COMPLETIONS, counted per
# phase in block.test_completions_dropped). Each ignored request must
# count once, in its own phase (and in the spill), as completion_unseen:
# when its address is issued again (an issue meets its live record), or
# when its phase ends with the disk's own in-flight count at 0. What it
# counts beyond them are the kernel's own losses, which bpftrace sees. None
# may be left in flight at a phase's end, and none may keep the device
# busy after it.
@test "completions ignored on purpose count once each as completion_unseen in their phase, none left in flight" {
	local dropped bad
	loss_fs_create
	FSPROF_TEST_DROP_COMPLETIONS=3 "$FSPROF" run -q --no-db \
		-w seqio:size=16M,direct=yes,bs=4k --dir "$SCRATCH/lossmnt" \
		--json "$SCRATCH.drop.json" >/dev/null 2>"$SCRATCH.drop.err"
	cat "$SCRATCH.drop.err"
	grep -q 'FSPROF_TEST_DROP_COMPLETIONS=3: one block completion in 3 is ignored on purpose' "$SCRATCH.drop.err"
	jq -r '.cases[0] | (.phases[], .spill) | "\(.name // "spill"): \(.metrics.block.test_completions_dropped) dropped, \([.block.io_classes // {} | .[].issuers[].completion_unseen] | add // 0) never completed, \(.block.inflight_at_end // 0) in flight at its end, busy \(.block.busy_ns // 0) ns"' "$SCRATCH.drop.json"
	loss_compare "$SCRATCH.drop.json"
	run attribution_holds "$SCRATCH.drop.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# 4,096 writes and as many reads: over 1,300 ignored in each
	dropped=$(jqr "$SCRATCH.drop.json" '.cases[0].phases[] | select(.name == "write") | .metrics.block.test_completions_dropped')
	[ "$dropped" -gt 1000 ]
	# the spill's too, with its invariant (attribution_holds checks the
	# phases), and nothing left in flight anywhere
	bad=$(jq -r '.cases[0] | (.phases[], .spill) |
		(.metrics.block.test_completions_dropped // -1) as $d |
		([.block.io_classes // {} | .[].issuers[].completion_unseen] | add // 0) as $u |
		([.block.io_classes // {} | .[].issuers[] | .ios - (.latency.count // 0) - (.completion_unseen // 0) | fabs] | add // 0) as $off |
		select($d < 0 or $u < $d or $off > 0 or (.block.inflight_at_end // 0) > 0) |
		"\(.name // "spill"): \($d) dropped, \($u) never completed, \($off) requests not timed or timed twice, \(.block.inflight_at_end // 0) in flight at its end"' "$SCRATCH.drop.json")
	[ -z "$bad" ] || { echo "$bad"; false; }
	# a lost request's device time ends with its phase: before 6b675fe a
	# lost record kept its track busy until the settle gave up after 2 s.
	# Busy time is the union of the requests' times: the spill's busy
	# time beyond its own timed requests' summed latency is what its
	# ignored requests, lost records and the phases' last requests kept
	# busy, and that stays under a second (the spill's own IO, slower on
	# a loaded machine, is in its latencies)
	jq -e '.cases[0].spill.block | (.busy_ns // 0) -
		([.io_classes // {} | .[].latency.sum // 0] | add // 0) < 1e9' "$SCRATCH.drop.json"
	rm -f "$SCRATCH.drop.json" "$SCRATCH.drop.err"
}

# Every phase counts its requests in keys of io_stats that userspace makes
# before the phase begins. When the BPF side had to create them at a
# request's issue, the allocator's per-CPU cache (one value at first,
# refilled later from irq_work) was empty in a burst of new keys: that
# first request went uncounted while its completion was timed, "23
# requests, 24 timed" (4 of 6 such runs before the keys were made ahead).
# 30 or more phases of 100 ms (63 on a loaded machine), each beginning
# with a burst of data, journal and flush requests, make a run of new keys
# many times over.
@test "a traced command's many short phases count every request, each timed where it was counted" {
	local bad
	loss_fs_create quiet
	cat >"$SCRATCH.burst.sh" <<-'EOF'
		#!/bin/sh
		cd "$1" || exit 1
		# 300 rounds and at least 3 s (30 phases): an idle machine ran the
		# 300 in 1.9 s, 19 phases
		end=$(($(date +%s%N) / 1000000 + 3000))
		i=0
		while [ $i -lt 300 ] || [ $(($(date +%s%N) / 1000000)) -lt $end ]; do
			i=$((i + 1))
			dd if=/dev/zero of=f$((i % 300)) bs=64k count=4 oflag=dsync status=none
			cat f$((i % 300 / 2 + 1)) >/dev/null
		done
		sync
	EOF
	chmod +x "$SCRATCH.burst.sh"
	"$FSPROF" trace -q --no-db --dir "$SCRATCH/lossmnt" --interval 100ms \
		--json "$SCRATCH.burst.json" -- "$SCRATCH.burst.sh" "$SCRATCH/lossmnt"
	[ "$(jqr "$SCRATCH.burst.json" '.cases[0].phases | length')" -ge 20 ]
	run attribution_holds "$SCRATCH.burst.json"
	echo "$output"
	[ "$status" -eq 0 ]
	rm -f "$SCRATCH.burst.sh" "$SCRATCH.burst.json"
}

@test "the invariant check fails on a phase whose requests were not all timed" {
	jq '.cases[0].phases[0].block.io_classes |= with_entries(.value.issuers |=
		with_entries(.value.ios += 1))' "$SCRATCH.seqio.json" >"$SCRATCH.broken.json"
	run attribution_holds "$SCRATCH.broken.json"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"requests"*"timed"* ]]
}

@test "the invariant check fails on a run with requests left uncounted" {
	jq '.cases[0].spill.metrics.block.requests_uncounted = 1' \
		"$SCRATCH.seqio.json" >"$SCRATCH.broken.json"
	run attribution_holds "$SCRATCH.broken.json"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"uncounted"* ]]
}

@test "nothing is left behind" {
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}
