#!/usr/bin/env bats
# A run stopped by a signal tears everything down and says it was interrupted.

load helpers

setup() {
	scratch_create
}

teardown() {
	scratch_remove
}

# start a long run, wait for phase $1 to begin, send signal $2, then wait
interrupt_during_phase() {
	local phase=$1 sig=$2
	"$FSPROF" run --size 4G --scratch "$SCRATCH" --json "$SCRATCH.json" \
		>"$SCRATCH.out" 2>"$SCRATCH.err" &
	pid=$!
	wait_for "grep -q 'phase $phase' '$SCRATCH.err'" 120
	sleep 1
	kill -"$sig" "$pid"
	wait "$pid"
}

@test "SIGINT in the middle of the write phase leaves no mount, loop device, BPF program or image, and exits 130" {
	run interrupt_during_phase write INT
	cat "$SCRATCH.err"
	[ "$status" -eq 130 ]
	grep -q 'interrupted' "$SCRATCH.err"
	wait_for "leftovers '$SCRATCH' >/dev/null" 5 || true
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	rm -f "$SCRATCH.out" "$SCRATCH.err" "$SCRATCH.json"
}

@test "SIGTERM during the read phase tears down, exits 143 and keeps the finished write phase, marked incomplete" {
	run interrupt_during_phase read TERM
	cat "$SCRATCH.err"
	[ "$status" -eq 143 ]
	wait_for "leftovers '$SCRATCH' >/dev/null" 5 || true
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jqr "$SCRATCH.json" '.complete')" = false ]
	[ "$(jqr "$SCRATCH.json" '.interrupted')" = true ]
	[ "$(jqr "$SCRATCH.json" '[.cases[0].phases[].name] | join(",")')" = write ]
	rm -f "$SCRATCH.out" "$SCRATCH.err" "$SCRATCH.json"
}
