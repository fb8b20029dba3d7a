#!/usr/bin/env bats
# The per-phase timeline (fixed time bins per domain) and the rings of rare
# events, on real ext4 and XFS loop filesystems. Three runs, shared:
#   EXT4:  fsync on ext4 with --slow-io 1ns, so that every block request is
#          a rare event as well as every journal commit;
#   XFS:   fsync on XFS: every log force is a ring event;
#   SEQIO: seqio 128M on ext4 with --bin 50ms --slow-io 1ms.
# Every series' bins must add up to the phase's metric of the same meaning,
# and every event must be charged to the phase that counted it.

load helpers

run_fsprof() {
	local name=$1
	shift
	local status=0
	# -v: the timeline and rare events are in the full text report
	"$FSPROF" run -v --scratch "$SCRATCH" --json "$SCRATCH.$name.json" "$@" \
		>"$SCRATCH.$name.out" 2>"$SCRATCH.$name.err" || status=$?
	echo "$status" >"$SCRATCH.$name.status"
}

setup_file() {
	load helpers
	scratch_create
	run_fsprof ext4 -w fsync:files=300 --fs ext4 --slow-io 1ns
	run_fsprof xfs -w fsync:files=150 --fs xfs
	run_fsprof seqio -w seqio --size 128M --fs ext4 --bin 50ms \
		--slow-io 1ms
}

teardown_file() {
	load helpers
	local n
	for n in ext4 xfs seqio; do
		rm -f "$SCRATCH.$n.json" "$SCRATCH.$n.out" "$SCRATCH.$n.err" "$SCRATCH.$n.status"
	done
	scratch_remove
}

# fail with the run's output when it did not exit 0
run_ok() {
	local status
	status=$(cat "$SCRATCH.$1.status")
	[ "$status" -eq 0 ] || { cat "$SCRATCH.$1.out"; tail -20 "$SCRATCH.$1.err"; return 1; }
}

# one JSON line per phase from a jq filter applied to each phase
per_phase() {
	jq -c ".cases[0].phases[] | $2" "$SCRATCH.$1.json"
}

# jq -e CHECK on every line of stdin (one JSON object per phase or event),
# each echoed after LABEL. Fails on a line where CHECK does not hold or a
# field is null (a missing metric or series: null == null would hold), and
# when there are no lines at all (the producing jq failed or found nothing).
each_line_holds() {
	local label=$1 check=$2 line n=0
	while read -r line; do
		echo "$label${label:+ }$line"
		jq -e "all(.[]; . != null) and ($check)" <<<"$line" >/dev/null ||
			{ echo "  ^ a field is null or this does not hold: $check"; return 1; }
		n=$((n + 1))
	done
	echo "$label${label:+: }$n checked"
	[ "$n" -gt 0 ]
}

@test "the runs with a timeline and rare events succeed and leave nothing behind" {
	run_ok ext4
	run_ok xfs
	run_ok seqio
	leftovers "$SCRATCH"
}

# A phase of wall W has floor(W / bin) + 1 bins (the last one partly its
# own), and one more when an event it counted fell past that (the kernel
# side switches phase a moment after the wall clock stops: src/trace/
# timeline.c): then that last bin holds an event. Not "W / bin plus or
# minus one": a phase that ends just short of a bin's end, with an event
# in the next bin, has W / bin + 1.0x bins (the likelier on a busy
# machine, where the moment is longer).
@test "every phase has a bin per bin width of its wall time, and one more only for an event past its end" {
	local run
	for run in ext4 xfs seqio; do
		each_line_holds "$run" '(.wall / .bin_ns | floor) as $f |
			.bins == $f + 1 or (.bins == $f + 2 and .last > 0)' \
			< <(per_phase "$run" '{name, wall: .wall_ns, bin_ns: .timeline.bin_ns,
				bins: .timeline.bins, last: ([.timeline.series[][-1]] | max)}')
	done
	# --bin 50ms is the width the seqio run used
	[ "$(jq '[.cases[0].phases[].timeline.bin_ns] | unique' -c "$SCRATCH.seqio.json")" = "[50000000]" ]
	[ "$(jq '[.cases[0].phases[].timeline.bin_ns] | unique' -c "$SCRATCH.ext4.json")" = "[100000000]" ]
}

@test "the block series add up to the phase's block bytes and requests" {
	local run
	for run in ext4 xfs seqio; do
		each_line_holds "$run" '.ws == .w and .rs == .r and .ios == .iosum' \
			< <(per_phase "$run" '{name,
			w: .block.classes.write.bytes,
			ws: ([.timeline.series["block.data_write_bytes", "block.meta_write_bytes", "block.log_write_bytes"][]] | add),
			r: .block.classes.read.bytes,
			rs: ([.timeline.series["block.data_read_bytes", "block.meta_read_bytes", "block.log_read_bytes"][]] | add),
			ios: .block.total.ios, iosum: (.timeline.series["block.ios"] | add)}')
	done
	# something was written, so the equality is not 0 == 0
	[ "$(jq '.cases[0].phases[0].block.classes.write.bytes' "$SCRATCH.seqio.json")" -ge 134217728 ]
}

@test "the journal, XFS log and writeback series add up to their metrics" {
	each_line_holds ext4 '.c == .cs and .l == .ls' \
		< <(per_phase ext4 '{name, c: .metrics.jbd2.commits, cs: (.timeline.series["jbd2.commits"] | add),
		l: .metrics.jbd2.blocks_logged, ls: (.timeline.series["jbd2.blocks_logged"] | add)}')
	each_line_holds xfs '.w == .ws' \
		< <(per_phase xfs '{name, w: .metrics.xfs.log_writes, ws: (.timeline.series["xfs.log_writes"] | add)}')
	each_line_holds seqio '.p == .ps and .t == .ts' \
		< <(per_phase seqio '{name, p: .metrics.writeback.pages_written, ps: (.timeline.series["writeback.pages_written"] | add),
		t: .metrics.writeback.throttle_count, ts: (.timeline.series["writeback.throttle_count"] | add)}')
	[ "$(jq '.cases[0].phases[0].metrics.jbd2.commits' "$SCRATCH.ext4.json")" -ge 300 ]
	[ "$(jq '.cases[0].phases[0].metrics.xfs.log_writes' "$SCRATCH.xfs.json")" -ge 150 ]
}

@test "an fsync workload yields one ring event per journal commit, none dropped" {
	each_line_holds "" '.commits == .events and .dropped == 0' \
		< <(jq -c '.cases[0] as $c | ($c.phases + [$c.spill | .id = 0 | .name = "spill"])[] |
		.id as $id | {name, commits: .metrics.jbd2.commits, dropped: .metrics.jbd2.events_dropped,
		events: ([$c.events[] | select(.domain == "jbd2" and .kind == "commit" and .phase == $id)] | length)}' \
		"$SCRATCH.ext4.json")
	# commit events carry their transaction and a duration
	jq -e '[.cases[0].events[] | select(.kind == "commit")] | length > 0 and
		all(.tid > 0 and .commit_ns > 0 and .blocks_logged > 0)' "$SCRATCH.ext4.json"
}

@test "with --slow-io 1ns every completed request is an event of the phase that issued it, or a counted drop" {
	each_line_holds "" '.completed == .events + .dropped and .events > 0' \
		< <(jq -c '.cases[0] as $c | $c.phases[] | .id as $id | {name,
		completed: .block.total.latency.count, dropped: .metrics.block.events_dropped,
		events: ([$c.events[] | select(.kind == "slow_io" and .phase == $id)] | length)}' \
		"$SCRATCH.ext4.json")
	jq -e '[.cases[0].events[] | select(.kind == "slow_io")] |
		all(.bytes >= 0 and .latency_ns > 0 and (.class | length) > 0 and (.issuer | length) > 0)' \
		"$SCRATCH.ext4.json"
}

@test "with --slow-io 1ms the slow-IO events are the requests the latency histogram puts at 1 ms or more" {
	each_line_holds "" '.events >= .surely and .events <= .maybe' \
		< <(jq -c '.cases[0] as $c | $c.phases[] | .id as $id | {name,
		surely: ([.block.total.latency.histogram[] | select(.low >= 1000000) | .count] | add // 0),
		maybe: ([.block.total.latency.histogram[] | select(.high > 1000000) | .count] | add // 0),
		events: ([$c.events[] | select(.kind == "slow_io" and .phase == $id)] | length)}' \
		"$SCRATCH.seqio.json")
	jq -e '[.cases[0].events[] | select(.kind == "slow_io")] | all(.latency_ns >= 1000000)' \
		"$SCRATCH.seqio.json"
}

@test "every XFS log force is a ring event, named by who asked for it" {
	each_line_holds "" '.forces == .cil and .dropped == 0' \
		< <(jq -c '.cases[0] as $c | $c.phases[] | .id as $id | {name,
		forces: .metrics.xfs.log_forces, dropped: .metrics.xfs.events_dropped,
		cil: ([$c.events[] | select(.kind == "log_force" and .caller_class == "cil" and .phase == $id)] | length)}' \
		"$SCRATCH.xfs.json")
	# the fsync workload's forces come from fsync
	[ "$(jq '[.cases[0].events[] | select(.caller_class == "fsync")] | length' "$SCRATCH.xfs.json")" -ge 150 ]
}

@test "the text report draws the timeline and counts the rare events and drops" {
	grep -E '^(timeline |rare events)' "$SCRATCH.ext4.out"
	grep -q '^timeline ' "$SCRATCH.ext4.out"
	grep -qE '^  jbd2.commits +\|[ .:=+*#%@-]+\| peak ' "$SCRATCH.ext4.out"
	grep -qE '^rare events: [0-9]+ \(jbd2 commit [0-9]+, block slow_io [0-9]+\); lost to a full ring: 0' \
		"$SCRATCH.ext4.out"
}

@test "a bin width or slow-IO threshold without a unit is a usage error" {
	run "$FSPROF" run --bin 100 --scratch /nonexistent
	[ "$status" -eq 2 ]
	[[ "$output" == *"--bin: '100' is not a duration"* ]]
	run "$FSPROF" run --slow-io 0ms --scratch /nonexistent
	[ "$status" -eq 2 ]
	[[ "$output" == *"--slow-io"* ]]
}
