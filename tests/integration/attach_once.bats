#!/usr/bin/env bats
# The BPF programs are loaded and attached once per run, each domain when
# the first case that can use it begins, and bound to each case's target in
# turn (trace/tracer.h): between cases they count nothing, and each case
# starts from empty maps. Three cases back to back - ext4, xfs, ext4, each
# on the loop device the one before gave back (the same dev_t: a filter
# left on the old target would take the next one's requests, and counts
# left in the maps would add to them) - count what separate runs count.
#
# Runs (about 12 s): seqio:size=8M,direct=yes on ext4,xfs,ext4 with -v,
# and on ext4 and on xfs alone.
#
# The kill -9 run: seqio:size=32M,direct=yes on ext4 three times, killed
# as its second case's first phase begins. A case is about 1.7 s of
# phases here (4 KiB direct writes, then reads: write 1.0 s, read 0.6 s),
# so the kill lands with most of case 2 still to run, and the test says
# it did (no case 3 began); 96M before made case 1 alone 6 s of the file's
# 10.

load helpers

setup_file() {
	load helpers
	scratch_create
	local fs
	"$FSPROF" run -v --no-db -w seqio:size=8M,direct=yes --fs ext4,xfs,ext4 \
		--scratch "$SCRATCH" --json "$SCRATCH.b2b.json" \
		>"$SCRATCH.b2b.out" 2>"$SCRATCH.b2b.err"
	for fs in ext4 xfs; do
		"$FSPROF" run -q --no-db -w seqio:size=8M,direct=yes --fs "$fs" \
			--scratch "$SCRATCH" --json "$SCRATCH.$fs.json" \
			>"$SCRATCH.$fs.out" 2>&1
	done
}

teardown_file() {
	load helpers
	teardown_file_scratch
}

# the counts a phase's own requests fix: the workload's data, per phase
data_counts() {
	jq -r --argjson c "$2" '.cases[$c].phases[] | .name as $p |
		.block.io_classes | to_entries[] |
		select(.key | test("^data_")) |
		"\($p) \(.key) \(.value.ios) \(.value.bytes)"' "$1"
}

@test "each domain is loaded and attached once in a run of three cases, the xfs domain only when the xfs case begins" {
	local d
	grep -c "tracer: .* domain: load " "$SCRATCH.b2b.err"
	for d in block jbd2 ext4 writeback xfs sched; do
		[ "$(grep -c "tracer: $d domain: load " "$SCRATCH.b2b.err")" -eq 1 ]
	done
	# loaded at the xfs case's start, after the first ext4 case's phases
	grep -n "tracer: xfs domain: load \|case [123]/3" "$SCRATCH.b2b.err" |
		grep -B1 "xfs domain: load" | head -1 | grep -q "case 1/3"
	# one BPF object, one libbpf load, for the first case's five domains
	# (bpf/fsprof.bpf.c); the xfs domain's is a second, at its case
	grep "tracer: one load of " "$SCRATCH.b2b.err"
	[ "$(grep -c "tracer: one load of " "$SCRATCH.b2b.err")" -eq 2 ]
	grep -q "tracer: one load of 5 domain(s)" "$SCRATCH.b2b.err"
	grep -q "tracer: one load of 1 domain(s)" "$SCRATCH.b2b.err"
}

# FSPROF_TEST_REFUSE_PROGRAM names a program whose load must fail (fault
# injection, trace/bpf_group.c): one refused program fails the whole
# object, and the domains are then loaded each in an object of its own
@test "a program the kernel refuses drops its own domain only: the object of all is loaded again domain by domain, and the run goes on" {
	FSPROF_TEST_REFUSE_PROGRAM=fsprof_wb_start run "$FSPROF" run -v --no-db \
		-w seqio:size=4M --fs ext4 --scratch "$SCRATCH" \
		--json "$SCRATCH.refuse.json"
	echo "$output" | grep -v '^libbpf' | grep "tracer\|domain" | head -30
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "tracer: 5 domains in one object did not load"
	[ "$(echo "$output" | grep -c "tracer: one load of 1 domain(s)")" -eq 5 ]
	echo "$output" | grep -q "writeback domain: load into the kernel"
	# the others count: their programs attached, the block counts there
	[ "$(jqr "$SCRATCH.refuse.json" '[.cases[0].programs[] | select(.state == "attached") | .domain] | unique | join(",")')" = block,ext4,jbd2,sched ]
	[ "$(jqr "$SCRATCH.refuse.json" '.cases[0].phases[0].block.total.ios')" -gt 0 ]
	rm -f "$SCRATCH.refuse.json"
}

@test "the three cases ran on one reused loop device, so a filter or a count left from the case before would show" {
	jq -e '.cases | length == 3 and all(.complete)' "$SCRATCH.b2b.json"
	[ "$(jq -r '[.cases[].target | "\(.dev_major):\(.dev_minor)"] |
		unique | length' "$SCRATCH.b2b.json")" -eq 1 ]
}

@test "back to back, each case counts the data requests and bytes a run of its own counts, phase by phase" {
	local got want
	want=$(data_counts "$SCRATCH.ext4.json" 0)
	echo "$want"
	[ -n "$want" ]
	got=$(data_counts "$SCRATCH.b2b.json" 0)
	diff <(echo "$want") <(echo "$got")
	got=$(data_counts "$SCRATCH.b2b.json" 2)
	diff <(echo "$want") <(echo "$got")
	want=$(data_counts "$SCRATCH.xfs.json" 0)
	[ -n "$want" ]
	got=$(data_counts "$SCRATCH.b2b.json" 1)
	diff <(echo "$want") <(echo "$got")
}

@test "a case after another counts journal commits and log forces as the filesystem's own statistics do, phase by phase" {
	# jbd2's /proc count and XFS's sysfs count start with the case's
	# mount: a count carried over from an earlier case would exceed them
	jq -e '.cases[2].phases | map(.metrics.jbd2) |
		all(.commits == .proc_transactions) and
		(map(.commits) | add) > 0' "$SCRATCH.b2b.json"
	jq -e '.cases[1].phases | map(.metrics.xfs) |
		all(.log_forces == .sysfs_log_forces)' "$SCRATCH.b2b.json"
}

@test "a case reports only its own filesystem's domains and programs, as a run of its own does" {
	local c fs
	for c in 0 1 2; do
		fs=$(jq -r ".cases[$c].target.fstype" "$SCRATCH.b2b.json")
		diff <(jq -r '.cases[0].charging | keys[]' "$SCRATCH.$fs.json") \
			<(jq -r ".cases[$c].charging | keys[]" "$SCRATCH.b2b.json")
		diff <(jq -r '.cases[0].programs[] | "\(.domain) \(.program) \(.state)"' \
			"$SCRATCH.$fs.json" | sort) \
			<(jq -r ".cases[$c].programs[] | \"\(.domain) \(.program) \(.state)\"" \
				"$SCRATCH.b2b.json" | sort)
	done
	# the xfs case between the ext4 ones has no ext4 or jbd2 count at all
	jq -e '.cases[1] | [.phases[].metrics, .spill.metrics] |
		all(has("ext4") or has("jbd2") | not)' "$SCRATCH.b2b.json"
}

@test "kill -9 in the second of three cases, programs attached once for the run: fsprof cleanup leaves nothing behind" {
	"$FSPROF" run -w seqio:size=32M,direct=yes --fs ext4,ext4,ext4 \
		--scratch "$SCRATCH" >"$SCRATCH.kill.out" 2>"$SCRATCH.kill.err" &
	pid=$!
	wait_for "grep -q 'case 2/3' '$SCRATCH.kill.err'" 60
	# the run holds its programs: they are not orphans while it lives
	[ "$(bpftool prog show -j | jq '[.[] | select(.name // "" |
		startswith("fsprof_"))] | length')" -gt 0 ]
	kill -KILL "$pid"
	wait "$pid" || true
	# killed in the second case: the third never began
	cat "$SCRATCH.kill.err"
	if grep -q 'case 3/3' "$SCRATCH.kill.err"; then
		false
	fi
	run "$FSPROF" cleanup --scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}
