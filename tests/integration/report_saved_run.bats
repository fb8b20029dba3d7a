#!/usr/bin/env bats
# fsprof report: a saved results JSON re-rendered and re-analysed, with no
# kernel and no root. Real runs (two workloads on ext4 and xfs, 2 repeats:
# the repeat summary and the cross-target comparisons are in it too) are
# saved once; reading them back must give what the run itself printed and
# wrote.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	load helpers
	scratch_create
	export RUN_JSON="$SCRATCH.run.json" RUN_OUT="$SCRATCH.run.out"
	# the full report (-q would print the summary alone)
	"$FSPROF" run -w fsync:files=30 -w mdcreate:files=1000 \
		--fs ext4,xfs --repeat 2 --scratch "$SCRATCH" \
		--json "$RUN_JSON" >"$RUN_OUT" 2>"$SCRATCH.run.err"
	echo $? >"$SCRATCH.run.status"
}

teardown_file() {
	load helpers
	scratch_remove
	rm -rf "$RUN_JSON" "$RUN_OUT" "$SCRATCH".*
}

setup() {
	[ "$(cat "$SCRATCH.run.status")" -eq 0 ] || {
		cat "$SCRATCH.run.err"
		false
	}
}

@test "report prints a saved run's text report exactly as the run printed it" {
	run --separate-stderr "$FSPROF" report "$RUN_JSON"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# the run printed findings and tables: the comparison is not of nothing
	grep -q '^fsync on ext4' "$RUN_OUT"
	grep -q 'repeats per target' "$RUN_OUT"
	diff <(echo "$output") "$RUN_OUT"
}

@test "report --format json gives back the saved JSON, field for field" {
	"$FSPROF" report --format json "$RUN_JSON" >"$SCRATCH.again.json"
	[ "$(jq '.cases | length' "$RUN_JSON")" -eq 8 ]
	[ "$(jq '[.cases[].phases[]] | length' "$RUN_JSON")" -eq 16 ]
	diff <(jq -S . "$RUN_JSON") <(jq -S . "$SCRATCH.again.json")
}

@test "report runs as an unprivileged user" {
	local copy
	copy=$(mktemp /tmp/fsprof-report.XXXXXX.json)
	cp "$RUN_JSON" "$copy"
	chmod 644 "$copy"
	run --separate-stderr runuser -u nobody -- "$FSPROF" report "$copy"
	rm -f "$copy"
	[ "$status" -eq 0 ]
	diff <(echo "$output") "$RUN_OUT"
}

# each bad file: exit 2, one line naming the file and the problem, no output
bad_file_refused() {
	local file=$1 want=$2
	run --separate-stderr "$FSPROF" report "$file"
	echo "status $status: $stderr"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "fsprof: $file"* ]]
	[[ "$stderr" == *"$want"* ]]
}

@test "a truncated, empty, non-JSON, foreign or newer-schema file is refused with the reason" {
	local d="$SCRATCH.bad"
	mkdir -p "$d"
	head -c 5000 "$RUN_JSON" >"$d/truncated.json"
	: >"$d/empty.json"
	echo 'phase,metric,value' >"$d/csv.json"
	echo '{"cases": []}' >"$d/foreign.json"
	jq '.schema_version = 99' "$RUN_JSON" >"$d/future.json"
	jq '.cases[1].phases[0].wall_ns = "slow"' "$RUN_JSON" >"$d/badtype.json"
	bad_file_refused "$d/truncated.json" "not valid JSON"
	bad_file_refused "$d/empty.json" "is empty"
	bad_file_refused "$d/csv.json" "not valid JSON"
	bad_file_refused "$d/foreign.json" "not fsprof results"
	bad_file_refused "$d/future.json" "schema version 99"
	bad_file_refused "$d/badtype.json" "cases[1].phases[0]: 'wall_ns'"
	bad_file_refused "$d/missing.json" "No such file"
	bad_file_refused "$d" "is a directory"
	rm -rf "$d"
}

@test "report with no file or an unknown format says what is wrong and exits 2" {
	run --separate-stderr "$FSPROF" report
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"report needs the results file"* ]]
	[[ "$stderr" == *"see 'fsprof report --help'" ]]
	run --separate-stderr "$FSPROF" report --format yaml "$RUN_JSON"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"unknown --format"*"yaml"* ]]
	[ -z "$output" ]
}
