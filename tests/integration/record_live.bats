#!/usr/bin/env bats
# fsprof record --dir PATH: a live filesystem, every process its workload.

load helpers
bats_require_minimum_version 1.5.0

# a filesystem of the test's own, mounted below the scratch directory; big
# (and sparse) so that the background dd cannot fill it before the test
# ends: a fast host disk filled 1 GiB before the record began
setup() {
	scratch_create
	truncate -s 32G "$SCRATCH.img"
	mkfs.ext4 -q -F "$SCRATCH.img"
	LOOP=$(losetup --find --show --direct-io=on "$SCRATCH.img")
	MNT=$(mktemp -d /var/tmp/fsprof-test-mnt.XXXXXX)
	mount "$LOOP" "$MNT"
	DD_PID=
}

teardown() {
	[ -n "$DD_PID" ] && kill "$DD_PID" 2>/dev/null && wait "$DD_PID" 2>/dev/null
	umount "$MNT" 2>/dev/null
	losetup -d "$LOOP" 2>/dev/null
	rmdir "$MNT"
	rm -f "$SCRATCH.img" "$SCRATCH.json" "$SCRATCH.err" "$SCRATCH.prom"
	scratch_remove
}

@test "record --duration 2s on a directory a background dd writes to names dd, by its pid, first among the top processes by IO" {
	dd if=/dev/zero of="$MNT/big" bs=1M count=100000 oflag=direct 2>/dev/null &
	DD_PID=$!
	sleep 0.5
	# what dd itself sent to storage, by the kernel's count (/proc/PID/io)
	io0=$(awk '/^write_bytes/ { print $2 }' /proc/$DD_PID/io)
	start=$(date +%s.%N)
	run "$FSPROF" record --dir "$MNT" --duration 2s --scratch "$SCRATCH" \
		--json "$SCRATCH.json" --openmetrics "$SCRATCH.prom"
	end=$(date +%s.%N)
	io1=$(awk '/^write_bytes/ { print $2 }' /proc/$DD_PID/io)
	echo "$output"
	[ "$status" -eq 0 ]
	# 2 s of recording (5 s before session 16: the duration is what the
	# record obeys, whatever it is), and the setup and teardown around it
	awk -v a="$start" -v b="$end" 'BEGIN { exit !(b - a >= 2 && b - a < 17) }'
	[ "$(jqr "$SCRATCH.json" '.cases[0].workload.name')" = record ]
	[ "$(jqr "$SCRATCH.json" '[.cases[0].phases[].name] | join(",")')" = record ]
	jq -e '.cases[0].phases[0].wall_ns | . >= 2e9 and . < 2.5e9' "$SCRATCH.json"
	top=$(jqr "$SCRATCH.json" '.cases[0].phases[0].block_processes.top[0] | "\(.comm) \(.pid) \(.bytes)"')
	echo "top: $top"
	read -r comm pid bytes <<<"$top"
	echo "dd wrote $((io1 - io0)) bytes from before the record to after it"
	[ "$comm" = dd ]
	[ "$pid" -eq "$DD_PID" ]
	# at least a few of its 1 MiB writes (a host disk busy flushing an
	# earlier test's images can hold dd to a few MB/s), and no more than
	# it wrote around the 2 s (2 MiB in 2 s: 1 MB/s; 1.88 GB in 5 s here)
	[ "$bytes" -ge $((2 << 20)) ]
	[ "$bytes" -le $((io1 - io0)) ]
	# at most 10 named
	[ "$(jqr "$SCRATCH.json" '.cases[0].phases[0].block_processes.top | length')" -le 10 ]
	# every process is the workload: dd's writes are the workload's
	workload=$(jqr "$SCRATCH.json" '[.cases[0].phases[0].block.io_classes[].issuers.workload.bytes // 0] | add')
	[ "$workload" -ge "$bytes" ]
	[[ "$output" == *"processes by block IO"* ]]
	# and in the OpenMetrics file, by pid and name
	grep -q "^fsprof_phase_process_device_bytes{.*workload=\"record\",phase=\"record\".*pid=\"$DD_PID\",comm=\"dd\"} $bytes\$" "$SCRATCH.prom"
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$(find "$MNT" -name 'fsprof.*')" ]
}

@test "record ends at SIGINT with its phases complete and exit 0; --interval cuts it into time phases" {
	"$FSPROF" record --dir "$MNT" --interval 1s --scratch "$SCRATCH" \
		--json "$SCRATCH.json" >/dev/null 2>"$SCRATCH.err" &
	pid=$!
	wait_for "grep -q '^fsprof: recording' '$SCRATCH.err'" 60
	sleep 2.5
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	cat "$SCRATCH.err"
	[ "$status" -eq 0 ]
	[ "$(jqr "$SCRATCH.json" '.interrupted')" = false ]
	[ "$(jqr "$SCRATCH.json" '.cases[0].complete')" = true ]
	[ "$(jqr "$SCRATCH.json" '[.cases[0].phases[].name][:2] | join(",")')" = 0-1s,1-2s ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

# Ctrl-C ends a recording once it has begun; while the programs load there
# is none yet: the old binary exited 0 there, with no report, no --json
# file and no word of the signal. The signal lands between the -v line
# "stage: preflight" and "recording": the target, the programs' load
# (>= 250 ms here, longer under load), looked for every 10 ms
@test "SIGINT while record loads its programs interrupts it: exit 130, said, no recording begun, nothing left behind" {
	"$FSPROF" record -v --dir "$MNT" --scratch "$SCRATCH" \
		--json "$SCRATCH.json" >/dev/null 2>"$SCRATCH.err" &
	pid=$!
	for ((i = 0; i < 6000; i++)); do
		grep -q 'stage: preflight' "$SCRATCH.err" && break
		sleep 0.01
	done
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	grep -v '^libbpf\|tracer:' "$SCRATCH.err" | tail -5
	[ "$status" -eq 130 ]
	grep -q 'interrupted by Interrupt' "$SCRATCH.err"
	run ! grep -q '^fsprof: recording' "$SCRATCH.err"
	[ ! -e "$SCRATCH.json" ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$(find "$MNT" -name 'fsprof.*')" ]
}

@test "record needs --dir and refuses what does not apply to a live filesystem" {
	run -2 "$FSPROF" record --duration 1s
	[[ "$output" == *"--dir PATH"* ]]
	run -2 "$FSPROF" record --dir "$MNT" -w seqio
	run -2 "$FSPROF" record --dir "$MNT" --duration 0s
	run -2 "$FSPROF" record --dir "$MNT" -- ls
}
