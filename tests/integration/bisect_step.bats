#!/usr/bin/env bats
# fsprof bisect-step judges a deterministic count, not a time: mballoc's
# free extents scanned per allocation in files1m's create phase
# (per_op.ext4.extents_scanned_per_alloc, lower is better in
# data/kpi.tsv). On a fresh ext4 of 4 KiB blocks each 1 MiB file's flush is
# placed at the first free extent: 1 scanned per allocation in every
# repeat, so its relative stddev is 0 and the step can vouch for it. With
# 1 KiB blocks (mkfs -b 1024) the same files need 4x the blocks from 8 MiB
# groups, and mballoc scans more extents to place them (1.2 per allocation
# here, 22% above): a genuine change of the mechanism, far beyond 5%.

load helpers
bats_require_minimum_version 1.5.0

METRIC=create/per_op.ext4.extents_scanned_per_alloc

setup_file() {
	load helpers
	scratch_create
	export GOOD="$SCRATCH.good.json"
	"$FSPROF" run -q --no-db -w files1m:files=30 --fs ext4 --repeat 3 \
		--scratch "$SCRATCH" --json "$GOOD" >/dev/null 2>"$SCRATCH.err"
	echo $? >"$SCRATCH.status"
}

teardown_file() {
	load helpers
	teardown_file_scratch
}

setup() {
	setup_file_run_ok
}

@test "bisect-step: the good run's command again, the count unchanged: good (exit 0)" {
	# the good run's own values: three repeats, all the same
	[ "$(jq '[.cases[].phases[] | select(.name == "create")] | length' "$GOOD")" -eq 3 ]
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric "$METRIC" --threshold 5 --scratch "$SCRATCH" \
		--json "$SCRATCH.new.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# one line on stdout: the decision and its numbers
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	[[ "$output" == "good: files1m/ext4 $METRIC: good 1 +- 0 (0.0%, n=3), new 1 (n=3: 1 1 1): +0.0%, threshold 5% (lower is better)" ]]
	# the new run was the good run's command: the same workload, 3 repeats
	[ "$(jq -r '.cases[0].workload.params' "$SCRATCH.new.json")" = \
		"$(jq -r '.cases[0].workload.params' "$GOOD")" ]
	[ "$(jq '.cases | length' "$SCRATCH.new.json")" -eq 3 ]
	jq -e '.command | index("--no-db")' "$SCRATCH.new.json"
}

@test "bisect-step: a run whose mkfs makes mballoc scan more is bad (exit 1)" {
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric "$METRIC" --threshold 5 --scratch "$SCRATCH" \
		--json "$SCRATCH.bad.json" -- \
		-w files1m:files=30 --fs "ext4:mkfs='-b 1024'"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "bad: files1m/ext4 $METRIC: good 1 +- 0 (0.0%, n=3), new "* ]]
	[[ "$output" == *"threshold 5% (lower is better)" ]]
	# the value behind it is the new run's own, and beyond the threshold
	v=$(echo "$output" | sed -n 's/.*(n=1: \([0-9.]*\)).*/\1/p')
	awk -v v="$v" 'BEGIN { exit !(v > 1.05) }'
	jq -e '.cases[0].target.mkfs_cmd | test("-b 1024")' "$SCRATCH.bad.json"
	# --higher-is-better turns the same change into a good one
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric "$METRIC" --threshold 5 --scratch "$SCRATCH" \
		--higher-is-better -- -w files1m:files=30 \
		--fs "ext4:mkfs='-b 1024'"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "good: "*"(higher is better)" ]]
}
