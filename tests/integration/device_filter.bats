#!/usr/bin/env bats
# IO to another device during a phase must not be counted.

load helpers

MIB128=134217728

setup() {
	scratch_create
	NOISE=$(mktemp /var/tmp/noise.XXXXXX)
}

teardown() {
	[ -n "${NOISE_PID:-}" ] && kill "$NOISE_PID" 2>/dev/null
	wait 2>/dev/null || true
	rm -f "$NOISE" "$SCRATCH.json" "$SCRATCH.bt"
	scratch_remove
}

@test "direct writes to the root filesystem during the phases are not counted" {
	bpftrace_start "$SCRATCH.bt"
	# steady direct IO on the root filesystem's device for the whole run
	(while :; do dd if=/dev/zero of="$NOISE" bs=1M count=64 oflag=direct \
		conv=notrunc status=none; done) &
	NOISE_PID=$!
	run "$FSPROF" run -q --size 128M --scratch "$SCRATCH" --json "$SCRATCH.json"
	kill "$NOISE_PID"; wait "$NOISE_PID" 2>/dev/null || true; NOISE_PID=
	bpftrace_stop
	[ "$status" -eq 0 ]
	wbytes=$(jqr "$SCRATCH.json" '.cases[0].phases[] | select(.name=="write") | .block.classes.write.bytes')
	echo "device write bytes in the write phase: $wbytes"
	[ "$wbytes" -ge $MIB128 ]
	[ "$wbytes" -le $((MIB128 * 105 / 100)) ]
	# the delete phase writes metadata only: far less than the noise
	dbytes=$(jqr "$SCRATCH.json" '.cases[0].phases[] | select(.name=="delete") | .block.total.bytes')
	echo "device bytes in the delete phase: $dbytes"
	[ "$dbytes" -lt $((8 * 1048576)) ]
	run python3 "$LIB/bpftrace_phase_counts.py" "$SCRATCH.json" "$SCRATCH.bt"
	echo "$output"
	[ "$status" -eq 0 ]
}
