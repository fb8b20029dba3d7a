#!/usr/bin/env bats
# fsprof bisect-step never answers good (0) or bad (1) when it cannot
# tell: 125 (git bisect run skips the commit) for a metric the good run
# lacks, a good run with too few repeats to know the metric's spread, or
# a new run that failed; 128 (git bisect run stops: it would read 2 as
# "bad") for what is the same at every commit - a usage error, a metric
# whose better direction is not known, a good run that cannot be read.

load helpers
bats_require_minimum_version 1.5.0

METRIC=create/per_op.ext4.extents_scanned_per_alloc

setup_file() {
	load helpers
	scratch_create
	export GOOD="$SCRATCH.good.json" FEW="$SCRATCH.few.json"
	{ "$FSPROF" run -q --no-db -w files1m:files=10 --fs ext4 --repeat 3 \
		--scratch "$SCRATCH" --json "$GOOD" &&
		"$FSPROF" run -q --no-db -w files1m:files=10 --fs ext4 \
			--repeat 2 --scratch "$SCRATCH" --json "$FEW"; } \
		>/dev/null 2>"$SCRATCH.err"
	echo $? >"$SCRATCH.status"
}

teardown_file() {
	load helpers
	teardown_file_scratch
}

setup() {
	setup_file_run_ok
}

@test "bisect-step: a metric the good run lacks cannot be judged (125), and nothing runs" {
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric create/xfs.log_writes --lower-is-better \
		--threshold 5 --scratch "$SCRATCH"
	echo "$output $stderr"
	[ "$status" -eq 125 ]
	[[ "$output" == "skip: "*"xfs.log_writes"* ]]
	[[ "$stderr" != *"phase create"* ]]
}

@test "bisect-step: a good run of 2 repeats cannot vouch for the spread (125), says 3 are needed" {
	[ "$(jq '.cases | length' "$FEW")" -eq 2 ]
	run --separate-stderr "$FSPROF" bisect-step --good "$FEW" \
		--metric "$METRIC" --threshold 5 --scratch "$SCRATCH"
	echo "$output $stderr"
	[ "$status" -eq 125 ]
	[[ "$output" == "skip: files1m/ext4 $METRIC: good 1 +- 0 (0.0%, n=2)"* ]]
	[[ "$output" == *"at least 3 (fsprof run --repeat 3)"* ]]
	[[ "$stderr" != *"phase create"* ]]
}

@test "bisect-step: a new run that fails cannot be judged (125)" {
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric "$METRIC" --threshold 5 --scratch "$SCRATCH" -- \
		-w files1m:files=10 --fs ext4:mount=no_such_option
	echo "$output $stderr"
	[ "$status" -eq 125 ]
	[[ "$output" == "skip: "*"the new run failed (fsprof run exited 1)"* ]]
	[ -z "$(grep " $SCRATCH" /proc/mounts)" ]
}

@test "bisect-step: errors that hold at every commit stop git bisect (128), never 0, 1 or 2" {
	# no direction for a count of the work itself: refused, not guessed
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric create/workload.files --threshold 5
	[ "$status" -eq 128 ]
	[[ "$stderr" == *"--higher-is-better or --lower-is-better"* ]]
	# a metric of several phases, a missing --threshold, both directions
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric workload.files --threshold 5 --lower-is-better
	[ "$status" -eq 128 ]
	[[ "$stderr" == *"several phases"*"create, read, remove"* ]]
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric "$METRIC"
	[ "$status" -eq 128 ]
	[[ "$stderr" == *"--threshold PCT"* ]]
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric "$METRIC" --threshold 5 --higher-is-better \
		--lower-is-better
	[ "$status" -eq 128 ]
	# an unknown option, a threshold that is no percentage, a missing run
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric "$METRIC" --threshold 5 --frobnicate
	[ "$status" -eq 128 ]
	run --separate-stderr "$FSPROF" bisect-step --good "$GOOD" \
		--metric "$METRIC" --threshold fast
	[ "$status" -eq 128 ]
	run --separate-stderr "$FSPROF" bisect-step --good "$SCRATCH.none.json" \
		--metric "$METRIC" --threshold 5
	[ "$status" -eq 128 ]
	# a results file from before "command" was recorded cannot be rerun
	jq 'del(.command)' "$GOOD" >"$SCRATCH.old.json"
	run --separate-stderr "$FSPROF" bisect-step --good "$SCRATCH.old.json" \
		--metric "$METRIC" --threshold 5
	[ "$status" -eq 128 ]
	[[ "$stderr" == *"not recorded"*"give fsprof run options after --"* ]]
	run "$FSPROF" bisect-step --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"125 cannot tell"* ]]
}
