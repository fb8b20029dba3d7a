#!/usr/bin/env bats
# The results JSON of every workload validates against docs/results-schema.json
# (Debian's python3-jsonschema, draft 2020-12): real runs of all seven
# workloads on ext4 and xfs, small sizes, and a run with repeats, --verify
# and the hdd model so that the summary, the comparisons and verified
# findings are in a validated file too.

load helpers

SCHEMA="$BATS_TEST_DIRNAME/../../docs/results-schema.json"
CHECK="/usr/bin/python3 $LIB/results_schema_check.py"

setup() {
	scratch_create
}

teardown() {
	scratch_remove
	rm -f "$SCRATCH".*
}

@test "every workload's results JSON validates against the schema" {
	run "$FSPROF" run -q --scratch "$SCRATCH" --fs ext4,xfs \
		-w seqio:size=16M -w files1m:files=20 -w mdcreate:files=2000 \
		-w fsync:files=20 -w untar:files=300 -w bonnie:size=16M,seeks=200 \
		-w afd:files=300 --json "$SCRATCH.all.json"
	[ "$status" -eq 0 ]
	# the file has what the schema is to check: 7 workloads x 2 targets
	[ "$(jq '.cases | length' "$SCRATCH.all.json")" -eq 14 ]
	[ "$(jq '[.cases[].workload.name] | unique | length' "$SCRATCH.all.json")" -eq 7 ]
	run $CHECK "$SCHEMA" "$SCRATCH.all.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 file(s), 0 error(s)"* ]]
}

# 10 files (20 before): the fsync cycles last 0.67-0.69 s under hdd, their
# 20 fsyncs a commit or log force each (the rules' pattern starts at 10),
# the wait 95-96% of the workload's time against the rules' 50%; ext4's
# fast-commit advice is verified in 2 rounds: 6.4 s for the run, not 12
@test "a run with repeats, comparisons and verified advice validates against the schema" {
	run "$FSPROF" run -q --scratch "$SCRATCH" --fs ext4,xfs --repeat 2 \
		-w fsync:files=10 --device-model hdd --verify=2 \
		--json "$SCRATCH.verify.json"
	[ "$status" -eq 0 ]
	# a finding was verified and targets were compared
	[ "$(jq '[.cases[].phases[].findings[] | select(.verified != null)] | length' "$SCRATCH.verify.json")" -ge 1 ]
	[ "$(jq '.comparisons | length' "$SCRATCH.verify.json")" -ge 1 ]
	[ "$(jq '.summary.groups[0].repeats' "$SCRATCH.verify.json")" -eq 2 ]
	run $CHECK "$SCHEMA" "$SCRATCH.verify.json"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "a traced command's results JSON validates against the schema" {
	run "$FSPROF" trace -q --fs ext4 --scratch "$SCRATCH" --json "$SCRATCH.trace.json" \
		--interval 200ms -- sh -c 'dd if=/dev/zero of=f bs=1M count=8 conv=fsync 2>/dev/null; sleep 0.3'
	[ "$status" -eq 0 ]
	[ "$(jq '.cases[0].phases | length' "$SCRATCH.trace.json")" -ge 2 ]
	run $CHECK "$SCHEMA" "$SCRATCH.trace.json"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "docs/results-schema.json is what scripts/results-schema.py writes" {
	/usr/bin/python3 "$BATS_TEST_DIRNAME/../../scripts/results-schema.py" "$SCRATCH.schema.json"
	cmp "$SCRATCH.schema.json" "$SCHEMA"
}
