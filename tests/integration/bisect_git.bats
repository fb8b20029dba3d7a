#!/usr/bin/env bats
# fsprof bisect-step under git bisect run itself: a history whose commits
# each say which fsprof run options "build" (a file, opts), so that each
# step runs a real fsprof run and judges a deterministic count
# (per_op.ext4.extents_scanned_per_alloc in files1m's create phase: 1 on a
# fresh ext4 of 4 KiB blocks, 1.2 with 1 KiB blocks: bisect_step.bats).
# git must name the commit that brought the 1 KiB blocks as the first bad
# one, and must skip, not blame, a commit whose run fails (exit 125).

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
