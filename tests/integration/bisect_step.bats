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
#
# Under git bisect run itself: a history whose commits each say which
# fsprof run options "build" (a file, opts), so that each step runs a real
# fsprof run; git must name the commit that brought the 1 KiB blocks as the
# first bad one, and must skip, not blame, a commit whose run fails.
#
# It never answers good (0) or bad (1) when it cannot tell: 125 (git
# bisect run skips the commit) for a metric the good run lacks, a good run
# with too few repeats to know the metric's spread or whose values spread
# over lkp's 20% min-max gap, or a new run that failed; 128 (git bisect
# run stops: it would read 2 as "bad") for what is the same at every
# commit - a usage error, a metric whose better
# direction is not known, a good run that cannot be read.
#
# One good run of 3 repeats and one of 2 (setup_file) serve every test.

load helpers
bats_require_minimum_version 1.5.0

METRIC=create/per_op.ext4.extents_scanned_per_alloc

setup_file() {
	load helpers
	scratch_create
	export GOOD="$SCRATCH.good.json" FEW="$SCRATCH.few.json"
	{ "$FSPROF" run -q --no-db -w files1m:files=30 --fs ext4 --repeat 3 \
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

# a repository in $SCRATCH.repo with one commit per argument: its opts
history_of() {
	local repo="$SCRATCH.repo" n=0 opts
	rm -rf "$repo"
	git init -q "$repo"
	for opts in "$@"; do
		printf '%s\n' "$opts" >"$repo/opts"
		git -C "$repo" add opts
		git -C "$repo" -c user.name=t -c user.email=t@t commit -q --allow-empty \
			-m "c$n: $opts"
		n=$((n + 1))
	done
	# the step git bisect run runs at each commit
	cat >"$SCRATCH.step" <<STEP
#!/bin/sh
eval "set -- \$(cat opts)"
exec "$FSPROF" bisect-step --good "$GOOD" --metric $METRIC --threshold 5 \\
	--scratch "$SCRATCH" -q -- -w files1m:files=30 "\$@"
STEP
	chmod +x "$SCRATCH.step"
}

# the commit whose subject starts with $1
commit_of() {
	git -C "$SCRATCH.repo" log --format='%H %s' | awk -v c="$1:" '$2 == c { print $1 }'
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

@test "git bisect run with bisect-step names the commit that made the count worse" {
	history_of "--fs ext4" "--fs ext4" "--fs ext4:mkfs='-b 1024'" \
		"--fs ext4:mkfs='-b 1024'"
	cd "$SCRATCH.repo"
	git bisect start "$(commit_of c3)" "$(commit_of c0)"
	run git bisect run "$SCRATCH.step"
	git bisect log >"$SCRATCH.log"
	git bisect reset >/dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(commit_of c2) is the first bad commit"* ]]
	# each step's own line, one a commit it ran
	[[ "$output" == *"bad: files1m/ext4 $METRIC: good 1 +- 0"* ]]
	grep -q "git bisect bad $(commit_of c2)" "$SCRATCH.log"
}

@test "git bisect run skips a commit whose run fails, and blames none for it" {
	history_of "--fs ext4" "--fs ext4:mount=no_such_option" \
		"--fs ext4:mkfs='-b 1024'"
	cd "$SCRATCH.repo"
	git bisect start "$(commit_of c2)" "$(commit_of c0)"
	run git bisect run "$SCRATCH.step"
	git bisect log >"$SCRATCH.log"
	git bisect reset >/dev/null
	echo "$output"
	cat "$SCRATCH.log"
	# c1 cannot be tested: skipped, so either of c1 and c2 may be first
	grep -q "git bisect skip $(commit_of c1)" "$SCRATCH.log"
	! grep -q "git bisect bad $(commit_of c1)" "$SCRATCH.log"
	[[ "$output" == *"skip: "*"the new run failed"* ]]
	[[ "$output" == *"could be any of"* ]]
	[[ "$output" == *"$(commit_of c1)"* && "$output" == *"$(commit_of c2)"* ]]
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

@test "bisect-step: a good run whose min-max gap is over 20% cannot be judged (125), and nothing runs" {
	# one repeat of three 25% above the others: relative stddev 13%
	# (within lkp's 20%), min-max gap 25% (over it)
	jq '[100, 100, 125] as $v | reduce range(3) as $i (.;
		(.cases[$i].phases[] | select(.name == "create")
		 | .metrics.jbd2.commits) = $v[$i])' "$GOOD" >"$SCRATCH.gap.json"
	run --separate-stderr "$FSPROF" bisect-step --good "$SCRATCH.gap.json" \
		--metric create/jbd2.commits --lower-is-better --threshold 5 \
		--scratch "$SCRATCH"
	echo "$output $stderr"
	[ "$status" -eq 125 ]
	[[ "$output" == "skip: files1m/ext4 create/jbd2.commits: good 108.333 +- 14.4338 (13.3%, n=3)"* ]]
	[[ "$output" == *"cannot tell: unstable in the good run: min-max gap 25.0% ((max - min) / min of 3 values, 100 to 125), above the 20%"* ]]
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
