#!/usr/bin/env bats
# The writeback domain on a real ext4 loop filesystem, cross-checked against
# bpftrace on the same tracepoints (lib/writeback.bt) for the same bdi.
#
# Run 1: a seqio write 25% larger than the kernel's dirty background
# threshold (read from /proc/vmstat just before), with buffered writes and
# syncfs to the root filesystem running all along, so that another bdi's
# flusher works during every phase. The threshold is held to BG_BYTES
# (vm.dirty_background_bytes) for this run and put back after it: the
# default, 10% of free memory, made it a 3 GB write here (19 s of the
# file), and the size the flusher works on is what crosses the threshold,
# whichever threshold it is.
# Run 2: a 256 MiB seqio write with the target's own bdi capped at 32 MiB of
# dirty memory (strict_limit + max_bytes, set on fsprof's loop device as soon
# as it appears and restored afterwards), so that the writer is throttled.

load helpers

CAP=$((32 << 20))
MIB256=268435456
# run 1's dirty background threshold: well above a seqio phase's other
# dirty data (the noise loop's 64 MiB), far below this machine's default
BG_BYTES=$((256 << 20))

# hold vm.dirty_background_bytes at $2, keeping what it was in $1
dirty_background_hold() {
	echo "$(sysctl -n vm.dirty_background_ratio) $(sysctl -n vm.dirty_background_bytes)" >"$1"
	sysctl -qw vm.dirty_background_bytes="$2"
}

# put back what dirty_background_hold kept in $1 (the setting written last
# wins: a ratio zeroes the bytes and the bytes the ratio)
dirty_background_restore() {
	local ratio bytes
	[ -f "$1" ] || return 0
	read -r ratio bytes <"$1"
	if [ "$bytes" -gt 0 ]; then
		sysctl -qw vm.dirty_background_bytes="$bytes"
	else
		sysctl -qw vm.dirty_background_ratio="$ratio"
	fi
	rm -f "$1"
}

# wait for fsprof's loop device backed by a file under $1; cap its bdi
cap_own_bdi() {
	local scratch=$1 i f dev
	for ((i = 0; i < 3000; i++)); do
		for f in /sys/block/loop*/loop/backing_file; do
			grep -q "^$scratch/" "$f" 2>/dev/null || continue
			dev=$(cat "${f%/loop/backing_file}/dev")
			echo "$dev $(cat /sys/class/bdi/$dev/max_ratio_fine) $(cat /sys/class/bdi/$dev/strict_limit)" >"$scratch.bdi"
			echo 1 >/sys/class/bdi/$dev/strict_limit
			echo $CAP >/sys/class/bdi/$dev/max_bytes
			return 0
		done
		sleep 0.01
	done
	return 1
}

# put back what cap_own_bdi changed (the loop device outlives the run)
uncap_own_bdi() {
	local scratch=$1 dev ratio strict
	[ -f "$scratch.bdi" ] || return 0
	read -r dev ratio strict <"$scratch.bdi"
	echo "$ratio" >/sys/class/bdi/$dev/max_ratio_fine
	echo "$strict" >/sys/class/bdi/$dev/strict_limit
	rm -f "$scratch.bdi"
}

setup_file() {
	load helpers
	scratch_create
	export BG_JSON="$SCRATCH.bg.json" CAP_JSON="$SCRATCH.cap.json"
	export BTLOG="$SCRATCH.bt" NOISE="$SCRATCH.noise"
	local bg noise_pid cap_pid status
	dirty_background_hold "$SCRATCH.dirtybg" "$BG_BYTES"
	bg=$(awk '$1 == "nr_dirty_background_threshold" { print $2 }' /proc/vmstat)
	export BG_THRESH=$((bg * 4096))
	export SIZE=$(((BG_THRESH * 5 / 4 / 1048576 + 1) * 1048576))

	tracefs_ensure
	bpftrace "$LIB/writeback.bt" >"$BTLOG" 2>&1 &
	export BPFTRACE_PID=$!
	wait_for "grep -q '^Attaching' '$BTLOG'" 60 || true

	# another bdi's flusher at work: buffered writes + syncfs on the root fs
	(while :; do dd if=/dev/zero of="$NOISE" bs=1M count=64 conv=notrunc \
		status=none; sync -f "$NOISE"; done) &
	noise_pid=$!
	status=0
	"$FSPROF" run -q -w seqio --fs ext4 --size "$SIZE" \
		--image-size $((SIZE * 3)) --scratch "$SCRATCH" \
		--json "$BG_JSON" >"$SCRATCH.bg.out" 2>&1 || status=$?
	echo $status >"$SCRATCH.bg.status"
	kill "$noise_pid" || true
	wait "$noise_pid" 2>/dev/null || true
	rm -f "$NOISE"
	dirty_background_restore "$SCRATCH.dirtybg"

	cap_own_bdi "$SCRATCH" &
	cap_pid=$!
	status=0
	"$FSPROF" run -q -w seqio --fs ext4 --size 256M --scratch "$SCRATCH" \
		--json "$CAP_JSON" >"$SCRATCH.cap.out" 2>&1 || status=$?
	echo $status >"$SCRATCH.cap.status"
	status=0
	wait "$cap_pid" || status=$?
	echo $status >"$SCRATCH.capped"
	uncap_own_bdi "$SCRATCH"

	sleep 0.5
	bpftrace_stop
}

teardown_file() {
	load helpers
	# a setup that failed half-way must not leave bpftrace or a cap behind
	bpftrace_stop || true
	dirty_background_restore "$SCRATCH.dirtybg" || true
	uncap_own_bdi "$SCRATCH" || true
	rm -f "$BG_JSON" "$CAP_JSON" "$BTLOG" "$NOISE" "$SCRATCH".*.out \
		"$SCRATCH".*.status "$SCRATCH.capped"
	scratch_remove
}

# a writeback metric of the write phase of results $1
write_metric() {
	jqr "$1" ".cases[0].phases[] | select(.name==\"write\") | .metrics.writeback.$2 // 0"
}

write_device_bytes() {
	jqr "$1" '.cases[0].phases[] | select(.name=="write") | .block.classes.write.bytes'
}

@test "both runs succeed and leave nothing behind" {
	cat "$SCRATCH.bg.out" "$SCRATCH.cap.out"
	[ "$(cat "$SCRATCH.bg.status")" -eq 0 ]
	[ "$(cat "$SCRATCH.cap.status")" -eq 0 ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "a write above the dirty background threshold shows background flusher work and pages written" {
	echo "background threshold $BG_THRESH bytes, wrote $SIZE"
	work=$(write_metric "$BG_JSON" work_background)
	pages=$(write_metric "$BG_JSON" pages_written)
	echo "write phase: $work background work items, $pages pages written"
	[ "$work" -ge 1 ]
	[ "$pages" -gt 0 ]
	[ "$(write_metric "$BG_JSON" background_pages)" -gt 0 ]
}

# The flusher only writes what is dirty above the threshold; fdatasync writes
# the rest (not flusher work). Measured: 25% of the device bytes for a write
# 1.3x the threshold on an idle machine (the excess was 23%), up to 77% with
# the root fs dirtying memory too (global dirty crosses the threshold sooner).
# Every flusher page went to the device in the phase, with journal and
# metadata on top, so pages * 4096 never exceeds the device write bytes.
@test "flusher pages are at least half the excess over the threshold and no more than the device wrote" {
	pages=$(write_metric "$BG_JSON" pages_written)
	dev=$(write_device_bytes "$BG_JSON")
	echo "flusher $((pages * 4096)) bytes, device $dev bytes, excess $((SIZE - BG_THRESH))"
	[ $((pages * 4096)) -le "$dev" ]
	[ $((pages * 4096)) -ge $(((SIZE - BG_THRESH) / 2)) ]
}

@test "per phase, pages written and throttle sleeps equal bpftrace's for the target bdi" {
	for results in "$BG_JSON" "$CAP_JSON"; do
		run python3 "$LIB/writeback_phase_counts.py" "$results" "$BTLOG"
		echo "$output"
		[ "$status" -eq 0 ]
	done
}

@test "the root disk's flusher work during the phases is not counted" {
	run python3 "$LIB/writeback_phase_counts.py" "$BG_JSON" "$BTLOG"
	echo "$output"
	[ "$status" -eq 0 ]
	other=$(echo "$output" | awk '$1 == "other_bdi_pages" { print $2 }')
	# the noise really ran through the phases: 64 MiB per syncfs
	[ "$other" -ge 16384 ]
}

@test "a writer over its bdi's dirty cap is throttled: sleeps, pause time and a histogram" {
	echo "loop device capped before the write phase: status $(cat "$SCRATCH.capped")"
	[ "$(cat "$SCRATCH.capped")" -eq 0 ]
	count=$(write_metric "$CAP_JSON" throttle_count)
	pause=$(write_metric "$CAP_JSON" throttle_pause_ns)
	echo "write phase: $count sleeps, $pause ns"
	[ "$count" -gt 0 ]
	# a sleep is at least one jiffy (<= 10 ms at HZ >= 100) and at most 200 ms
	[ "$pause" -ge $((count * 1000000)) ]
	[ "$pause" -le $((count * 200000000)) ]
	run jq -e --argjson n "$count" '.cases[0].phases[] | select(.name=="write") |
		.histograms.writeback.throttle_pause_ns | .count == $n and .max > 0' "$CAP_JSON"
	[ "$status" -eq 0 ]
}

# Throttling keeps the bdi's dirty pages under the cap, so at fdatasync at
# most the cap is left: the flusher wrote all but about one cap (measured:
# 505 of 512 MiB, 7 MiB left to fdatasync).
@test "with the bdi capped, the flusher writes all but one cap's worth" {
	echo "loop device capped before the write phase: status $(cat "$SCRATCH.capped")"
	[ "$(cat "$SCRATCH.capped")" -eq 0 ]
	pages=$(write_metric "$CAP_JSON" pages_written)
	dev=$(write_device_bytes "$CAP_JSON")
	echo "flusher $((pages * 4096)) bytes, device $dev bytes, cap $CAP"
	[ $((pages * 4096)) -ge $((MIB256 - CAP)) ]
	[ $((pages * 4096)) -le "$dev" ]
}

@test "the attach report lists the writeback programs as attached" {
	run jq -e '[.cases[0].programs[] | select(.domain=="writeback" and .state=="attached") | .event] |
		index("writeback:writeback_start") != null and
		index("writeback:writeback_written") != null and
		index("writeback:balance_dirty_pages") != null' "$BG_JSON"
	[ "$status" -eq 0 ]
}
