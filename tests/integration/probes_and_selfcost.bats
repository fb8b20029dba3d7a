#!/usr/bin/env bats
# The probe sets, the attach report of `fsprof list probes`, and fsprof's
# own measured BPF cost.

load helpers

setup_file() {
	load helpers
	scratch_create
	echo "$(cat /proc/sys/kernel/bpf_stats_enabled)" >"$SCRATCH.stats_before"
	"$FSPROF" run -q -w mdcreate:files=5000 --scratch "$SCRATCH" \
		--json "$SCRATCH.default.json" >/dev/null 2>&1
	"$FSPROF" run -q -w mdcreate:files=5000 --probes deep --scratch "$SCRATCH" \
		--json "$SCRATCH.deep.json" >/dev/null 2>&1
}

teardown_file() {
	load helpers
	rm -f "$SCRATCH".*.json "$SCRATCH.stats_before"
	scratch_remove
}

@test "fsprof list probes lists every domain's programs as attached on this kernel" {
	run "$FSPROF" list probes
	[ "$status" -eq 0 ]
	for d in block jbd2 ext4 writeback xfs; do
		echo "$output" | grep -qE "^$d +fsprof_[a-z0-9_]+ +[a-z0-9]+:[a-z0-9_]+ +attached"
	done
	[ "$(echo "$output" | grep -c ' failed ')" -eq 0 ]
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ]
}

@test "fsprof list probes --deep adds the per-file hot events" {
	default=$("$FSPROF" list probes | grep -c attached)
	run "$FSPROF" list probes --deep
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c attached)" -gt "$default" ]
	echo "$output" | grep -q "ext4:ext4_mark_inode_dirty"
	echo "$output" | grep -q "jbd2:jbd2_handle_start"
}

@test "the default probe set leaves the hot per-file events out; --probes deep counts them" {
	[ "$(jqr "$SCRATCH.default.json" '.cases[0].phases[0].metrics.ext4.mark_inode_dirty // "absent"')" = absent ]
	n=$(jqr "$SCRATCH.deep.json" '.cases[0].phases[] | select(.name=="create") | .metrics.ext4.mark_inode_dirty')
	echo "mark_inode_dirty in create: $n"
	# every created file dirties its inode and its directory at least once
	[ "$n" -ge 5000 ]
}

@test "every traced phase reports what fsprof's BPF programs cost, and deep costs more" {
	run jq -e '[.cases[0].phases[] | .metrics.self | .bpf_runs > 0 and .bpf_run_ns > 0] | all' "$SCRATCH.default.json"
	[ "$status" -eq 0 ]
	d=$(jqr "$SCRATCH.default.json" '.cases[0].phases[] | select(.name=="create") | .metrics.self.bpf_runs')
	e=$(jqr "$SCRATCH.deep.json" '.cases[0].phases[] | select(.name=="create") | .metrics.self.bpf_runs')
	echo "BPF runs in create: default $d, deep $e"
	[ "$e" -gt "$d" ]
}

@test "kernel.bpf_stats_enabled is as it was after the runs" {
	[ "$(cat /proc/sys/kernel/bpf_stats_enabled)" = "$(cat "$SCRATCH.stats_before")" ]
}

@test "a small workload is flagged size < 2xRAM in the JSON and the text" {
	[ "$(jqr "$SCRATCH.default.json" '.cases[0].workload.size_lt_2x_ram')" = true ]
	ram=$(free -b | awk '/^Mem:/ { print $2 }')
	[ "$(jqr "$SCRATCH.default.json" '.cases[0].workload.ram_bytes')" -eq "$ram" ]
	# in the full report (-q prints the summary alone)
	run "$FSPROF" run -w seqio:size=1M --no-trace --scratch "$SCRATCH"
	[[ "$output" == *"size < 2xRAM"* ]]
}
