#!/usr/bin/env bats
# The hdd model measured back through the traced device, as DIXtrac
# calibrates a disk for DiskSim (scripts/bench/model_calibrate.c): the
# seek curve at 0-100% of the disk, random 4 KiB reads, sequential 4 KiB
# writes, sequential reads and writes, cache flushes clean and dirty, and
# FUA writes, each beside the figure the model's parameters give. Every
# figure within 10% (a sub-millisecond time within 0.15 ms: a thread's
# wakeup on a busy 2-CPU machine), or marked as faster than the engine's
# own round trip; and the seeking disk's signature, sequential 4 KiB
# writes at least ten times the IOPS of random 4 KiB reads.
#
# Measured here (512 MiB disk, other builds running): seeks 0.96-1.05 of
# the model, random reads 0.93-0.98, sequential read 0.99-1.00 and write
# 0.97-0.98, a dirty flush 0.96-0.99, FUA 0.96-1.12 over 40 writes (now
# 160: their mean's spread 2.9%, not 5.8%); the clean flush
# (0.1 ms) 0.08-0.24 ms, within the 0.15 ms. Sequential 4 KiB writes
# (0.11 ms each in the model) are shown, not judged: the engine's own
# path adds 30-90 us to so short a request (0.57-0.87 of the model's
# IOPS); they ran 64-139x the random reads' IOPS. ~14 s.

load helpers

CALIBRATE=$BATS_TEST_DIRNAME/../../build/bench/model_calibrate

setup() {
	scratch_create
}

teardown() {
	scratch_remove
}

@test "the hdd model measured back through the traced device sits within 10% of its own figures, and sequential writes beat random reads tenfold" {
	[ -x "$CALIBRATE" ] || { echo "no $CALIBRATE: make test builds it"; false; }
	run "$CALIBRATE" hdd "$SCRATCH" 512
	echo "$output"
	echo "$output" | sed 's/^/# /' >&3
	[ "$status" -eq 0 ]
	# every figure there, each judged
	[ "$(echo "$output" | grep -cE ' (ok|engine)$')" -eq 12 ]
	[[ "$output" == *"seq write / rnd read"*" ok"* ]]
	# nothing left: the engine, its mount, the loops
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the calibration refuses a rate model and an unknown one" {
	[ -x "$CALIBRATE" ]
	run "$CALIBRATE" ssd-sata "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"ssd-sata is a rate model: nothing to calibrate"* ]]
	run "$CALIBRATE" floppy "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown device model 'floppy'"* ]]
}
