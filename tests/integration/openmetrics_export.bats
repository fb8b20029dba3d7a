#!/usr/bin/env bats
# --openmetrics FILE: per-phase metrics, time budget and findings for the
# node_exporter textfile collector.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	scratch_create
	OM="$SCRATCH.prom"
	export FSPROF
}

teardown() {
	rm -f "$OM" "$SCRATCH.jbd2" "$SCRATCH.json"
	scratch_remove
}

@test "a traced command's --openmetrics file passes promtool check metrics and the OpenMetrics format rules, with host, fs, device, workload, command and phase labels" {
	JBD2_OUT="$SCRATCH.jbd2" FSYNCS=10 run "$FSPROF" trace --scratch "$SCRATCH" \
		--openmetrics "$OM" -- "$LIB/trace_three_phases.sh"
	[ "$status" -eq 0 ]
	# promtool is in DEPS (Debian's prometheus package): a missing one fails
	command -v promtool
	run promtool check metrics <"$OM"
	echo "$output"
	[ "$status" -eq 0 ]
	run python3 "$LIB/openmetrics_check.py" "$OM" --labels \
		host,fs,device,workload,command,phase
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q "^fsprof_phase_wall_seconds{host=\"$(hostname)\",fs=\"ext4\",device=\"loop[0-9]*\",target=\"ext4\",workload=\"trace\",command=\"$LIB/trace_three_phases.sh\",phase=\"fsync\",repeat=\"1\"} [0-9.]" "$OM"
	# the time budget and the verdict of every phase, the findings
	[ "$(grep -c '^fsprof_phase_time_seconds{.*phase="fsync".*part="on_cpu"' "$OM")" -eq 1 ]
	[ "$(grep -c '^fsprof_phase_bound{' "$OM")" -eq 3 ]
	grep -q '^fsprof_phase_finding{.*rule="short-phase"' "$OM"
	# written atomically: no temporary file is left beside it
	[ -z "$(find "$(dirname "$OM")" -maxdepth 1 -name "$(basename "$OM").tmp*")" ]
}

@test "fsprof run --openmetrics writes the same families for a workload, labels escaped" {
	run "$FSPROF" run -w seqio:size=16M --scratch "$SCRATCH" --json "$SCRATCH.json" \
		--openmetrics "$OM"
	[ "$status" -eq 0 ]
	run promtool check metrics <"$OM"
	echo "$output"
	[ "$status" -eq 0 ]
	run python3 "$LIB/openmetrics_check.py" "$OM" --labels host,fs,device,workload,phase
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^fsprof_phase_wall_seconds{.*workload="seqio"' "$OM")" -eq 3 ]
	# fsprof report renders a saved run the same way
	run "$FSPROF" report "$SCRATCH.json" --format openmetrics
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^fsprof_phase_wall_seconds')" -eq 3 ]
}

@test "--openmetrics into a directory that does not exist is refused before anything is created" {
	run -2 "$FSPROF" trace --scratch "$SCRATCH" --openmetrics /nonexistent/dir/x.prom -- true
	[[ "$output" == *"--openmetrics /nonexistent/dir/x.prom"* ]]
	[ -z "$(find "$SCRATCH" -mindepth 1)" ]
}
