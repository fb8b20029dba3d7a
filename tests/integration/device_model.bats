#!/usr/bin/env bats
# --device-model slows the target with the cgroup v1 blkio throttle, and the
# throttle is always removed again.

load helpers

THROTTLE=/sys/fs/cgroup/blkio

setup() {
	scratch_create
}

teardown() {
	rm -f "$SCRATCH.json" "$SCRATCH.err"
	scratch_remove
}

throttle_rules() {
	cat $THROTTLE/blkio.throttle.{read,write}_{iops,bps}_device
}

@test "a direct-IO write phase under custom:wiops=200 runs at 200 IOPS within 15%" {
	run "$FSPROF" run -q -w seqio:size=2M,direct=yes \
		--device-model custom:wiops=200 --scratch "$SCRATCH" --json "$SCRATCH.json"
	[ "$status" -eq 0 ]
	iops=$(jqr "$SCRATCH.json" '.cases[0].phases[] | select(.name=="write") |
		.block.classes.write.ios / (.wall_ns / 1e9)')
	echo "write IOPS: $iops"
	python3 -c "import sys; v=float(sys.argv[1]); sys.exit(not (170 <= v <= 230))" "$iops"
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.device_model')" = \
		"custom: riops=0 wiops=200 rbps=0 wbps=0" ]
}

@test "after a throttled run the throttle files hold no rule" {
	run "$FSPROF" run -q -w seqio:size=1M --device-model hdd --scratch "$SCRATCH"
	[ "$status" -eq 0 ]
	[ -z "$(throttle_rules)" ]
}

@test "SIGINT during a throttled phase removes the throttle and everything else" {
	"$FSPROF" run -w seqio:size=16M,direct=yes --device-model custom:wiops=100 \
		--scratch "$SCRATCH" 2>"$SCRATCH.err" >/dev/null &
	pid=$!
	wait_for "grep -q 'phase write' '$SCRATCH.err'" 60
	sleep 1
	[ -n "$(throttle_rules)" ]
	kill -INT "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 130 ]
	[ -z "$(throttle_rules)" ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "an unknown device model is a usage error" {
	run "$FSPROF" run --device-model floppy --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown device model 'floppy'"* ]]
}
