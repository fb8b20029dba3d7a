#!/usr/bin/env bats
# --device-model slows the target with the cgroup v1 blkio throttle. For an
# image target the throttle sits on a lower loop device under the traced one
# (image -> lower loop, throttled -> loop, traced): it then charges merged
# requests, holds every issuer (the XFS log too), and the traced latency
# includes the wait. Both layers and the throttle are always removed again.

load helpers

THROTTLE=/sys/fs/cgroup/blkio

# One XFS fsync loop held to 100 write IOPS, with bpftrace counting the
# cache flushes of every loop device: two tests read it
setup_file() {
	load helpers
	scratch_create
	export XFS_RUN=$SCRATCH
	flush_counts_start
	"$FSPROF" run -w fsync:files=100 --fs xfs --device-model custom:wiops=100 \
		--image-size 512M --scratch "$SCRATCH" --json "$SCRATCH.json" \
		>"$SCRATCH.out" 2>&1
	echo $? >"$SCRATCH.status"
	bpftrace_stop
}

teardown_file() {
	load helpers
	SCRATCH=$XFS_RUN
	rm -f "$SCRATCH.json" "$SCRATCH.out" "$SCRATCH.status" "$SCRATCH.bt"
	scratch_remove
}

setup() {
	scratch_create
}

teardown() {
	[ -z "${BPFTRACE_PID:-}" ] || bpftrace_stop
	rm -f "$SCRATCH.json" "$SCRATCH.err" "$SCRATCH.stack" "$SCRATCH.bt"
	scratch_remove
}

# the throttle rules on the devices MAJ:MIN given (all of them with none):
# the files are the machine's, and a run of another test or user going on
# at the same time has its own rules in them
throttle_rules() {
	local rules
	rules=$(cat $THROTTLE/blkio.throttle.{read,write}_{iops,bps}_device)
	[ $# -gt 0 ] || { echo "$rules"; return; }
	printf '%s\n' "$rules" | awk -v devs=" $* " 'NF && index(devs, " " $1 " ")'
}

# MAJ:MIN of the devices named /dev/NAME
devnums() {
	local d
	for d in "$@"; do
		printf '%d:%d\n' "0x$(stat -c %t "$d")" "0x$(stat -c %T "$d")"
	done
}

# The throttle charges every write request and cache flush of the lower
# loop (a flush is a write there: the fsync tests below): a journal commit
# in the phase (ext4's timer, or anyone's sync(2)) spends the budget too,
# so writes + flushes hold the rate, not writes alone (under a sync(2)
# loop, 72-103 flushes among ~600 writes here: writes alone at 148-184 of
# a limit of 200). A writer of one request at a time reaches the limit
# only when a request's own time on the lower loop (the host disk under
# it) is short against the throttle's gap (10 ms at 100 IOPS): each
# request then waits at most the gap and its own time, so the rate is at
# least 1 / (gap + its own time). bpftrace times the lower loop's requests
# (after the throttle) to say what that time was: under the stress hog's
# fdatasync writers ~11 ms, and the phase ran at 47 IOPS, where a quiet
# host disk (well under 1 ms) gives 95-106.
@test "a direct-IO write phase under custom:wiops=100 runs at 100 write IOPS within 15%, or as near as the disk below allows, cache flushes included" {
	tracefs_ensure
	# every loop request's completion: its device, when, and its own time
	bpftrace -e 'tracepoint:block:block_rq_issue /args->dev >> 20 == 7/ {
			@s[args->dev, args->sector] = nsecs; }
		tracepoint:block:block_rq_complete /@s[args->dev, args->sector]/ {
			printf("C %u %llu %llu\n", args->dev, nsecs,
			       nsecs - @s[args->dev, args->sector]);
			delete(@s[args->dev, args->sector]); }' >"$SCRATCH.bt" 2>&1 &
	BPFTRACE_PID=$!
	wait_for "grep -q '^Attaching' '$SCRATCH.bt'" 60
	run "$FSPROF" run -q -w seqio:size=1M,direct=yes \
		--device-model custom:wiops=100 --scratch "$SCRATCH" --json "$SCRATCH.json"
	bpftrace_stop
	[ "$status" -eq 0 ]
	read -r w f iops lo hi < <(jqr "$SCRATCH.json" '.cases[0].phases[] | select(.name=="write") |
		.block.classes as $c |
		"\($c.write.ios) \($c.flush.ios) \(($c.write.ios + $c.flush.ios) / (.wall_ns / 1e9)) \(.start_mono_ns) \(.end_mono_ns)"')
	lower=$(jqr "$SCRATCH.json" '.cases[0].target.device_model_stack.throttled_dev')
	echo "write phase: $w writes + $f flushes: $iops IOPS"
	# the 256 writes of 4 KiB at least
	[ "$w" -ge 256 ]
	python3 - "$iops" "$SCRATCH.bt" "$lower" "$lo" "$hi" <<'PY'
import sys
iops, log, lower, lo, hi = sys.argv[1:]
iops, lo, hi = float(iops), int(lo), int(hi)
major, minor = (int(x) for x in lower.split(":"))
own = [int(p[3]) for p in (line.split() for line in open(log))
       if len(p) == 4 and p[0] == "C" and int(p[1]) == major << 20 | minor
       and lo <= int(p[2]) <= hi]
assert own, f"no request of the lower loop {lower} completed in the phase"
mean = sum(own) / len(own) / 1e9
floor = min(85, 0.85 / (1 / 100 + mean))
print(f"the lower loop {lower}: {len(own)} requests in the phase, "
      f"{mean * 1e3:.2f} ms each of their own: at least {floor:.0f} IOPS")
assert floor <= iops <= 115, f"{iops:.0f} IOPS against a limit of 100"
PY
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.device_model')" = \
		"custom: riops=0 wiops=100 rbps=0 wbps=0" ]
}

@test "after a throttled run the throttle files hold no rule" {
	run "$FSPROF" run -q -w seqio:size=1M --device-model hdd --scratch "$SCRATCH" \
		--json "$SCRATCH.json"
	[ "$status" -eq 0 ]
	dev=$(jqr "$SCRATCH.json" '.cases[0].target.device_model_stack.throttled_dev')
	echo "throttled $dev; rules on it after: $(throttle_rules "$dev")"
	[[ "$dev" == *:* ]]
	[ -z "$(throttle_rules "$dev")" ]
}

# the lower and the upper loop device of a running fsprof below $SCRATCH
model_loops() {
	local lower
	lower=$(losetup -a | awk -v d="$SCRATCH/" 'index($0, d) { sub(":", "", $1); print $1 }')
	[ -n "$lower" ] || return 1
	echo "$lower"
	losetup -a | awk -v l="($lower)" 'index($0, l) { sub(":", "", $1); print $1 }'
}

@test "SIGINT during a phase under hdd removes both loop layers, the mount and the throttle" {
	"$FSPROF" run -w seqio:size=16M,direct=yes --device-model hdd \
		--scratch "$SCRATCH" 2>"$SCRATCH.err" >/dev/null &
	pid=$!
	wait_for "grep -q 'phase write' '$SCRATCH.err'" 60
	sleep 1
	loops=$(model_loops)
	echo "loops: $loops"
	[ "$(echo "$loops" | wc -l)" -eq 2 ]
	devs=$(devnums $loops)
	[ -n "$(throttle_rules $devs)" ]
	kill -INT "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 130 ]
	echo "throttle rules on $(echo $devs) after: $(throttle_rules $devs | tr '\n' ' ')"
	[ -z "$(throttle_rules $devs)" ]
	for l in $loops; do
		# a detached loop device has no backing file
		wait_for "! losetup '$l' >/dev/null 2>&1" 5
	done
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the traced device is a loop on a throttled lower loop, recorded in the JSON" {
	run "$FSPROF" run -w seqio:size=1M --device-model hdd --scratch "$SCRATCH" \
		--json "$SCRATCH.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"throttle on /dev/loop"*"below the traced /dev/loop"* ]]
	jqr "$SCRATCH.json" '.cases[0].target.device_model_stack' >"$SCRATCH.stack"
	cat "$SCRATCH.stack"
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.device_model_stack | [.placement, .faithful, .throttled_dio, .limits.wiops, .traced_rotational] | @tsv')" = \
		"$(printf 'lower-loop\ttrue\ttrue\t150\ttrue')" ]
	traced=$(jqr "$SCRATCH.json" '.cases[0].target | "\(.dev_major):\(.dev_minor)"')
	throttled=$(jqr "$SCRATCH.json" '.cases[0].target.device_model_stack.throttled_dev')
	[ "$traced" != "$throttled" ]
}

@test "under custom:wiops=100 an XFS fsync loop stays at the limit, log writes included, by fsprof and by XFS's own stats" {
	local json=$XFS_RUN.json
	[ "$(cat "$XFS_RUN.status")" -eq 0 ] || { cat "$XFS_RUN.out"; false; }
	phase='.cases[0].phases[] | select(.name=="cycles")'
	secs=$(jqr "$json" "$phase | .wall_ns / 1e9")
	ours=$(jqr "$json" "$phase | .metrics.xfs.log_writes")
	xfs=$(jqr "$json" "$phase | .metrics.xfs.sysfs_log_writes")
	blk=$(jqr "$json" "$phase | .block.io_classes.log_write.ios")
	# every write and cache flush of the traced device is one request on the
	# throttled one
	reqs=$(jqr "$json" "$phase | .block.classes.write.ios + .block.classes.flush.ios")
	echo "wall $secs s, log writes: fsprof $ours, xfs stats $xfs, block $blk; writes + flushes $reqs"
	[ "$ours" -gt 0 ]
	[ "$ours" -eq "$xfs" ]
	[ "$blk" -eq "$ours" ]
	python3 - "$secs" "$ours" "$reqs" <<'PY'
import sys
secs, logw, reqs = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
assert logw / secs <= 115, f"{logw / secs:.0f} log writes/s over a limit of 100"
assert 80 <= reqs / secs <= 115, f"{reqs / secs:.0f} requests/s against a limit of 100"
PY
}

# bpftrace counts the cache flush requests (rwbs "F...") of every loop device
flush_counts_start() {
	tracefs_ensure
	bpftrace -e 'tracepoint:block:block_rq_issue
		/args->dev >> 20 == 7 && strncmp(args->rwbs, "F", 1) == 0/ { @f[args->dev] = count(); }' \
		>"$SCRATCH.bt" 2>&1 &
	BPFTRACE_PID=$!
	wait_for "grep -q '^Attaching' '$SCRATCH.bt'" 60
}

# the flushes bpftrace counted on device MAJ:MIN $1
flushes_on() {
	local kdev=$(((${1%%:*} << 20) | ${1##*:}))
	awk -v d="@f[$kdev]:" '$1 == d { print $2; f = 1 } END { if (!f) print 0 }' "$SCRATCH.bt"
}

@test "a cache flush on the traced device reaches the throttled lower loop and costs a write IO there" {
	# the shared run's bpftrace log is $XFS_RUN.bt (flushes_on)
	local json=$XFS_RUN.json output SCRATCH=$XFS_RUN
	output=$(cat "$XFS_RUN.out")
	echo "$output"
	[ "$(cat "$XFS_RUN.status")" -eq 0 ]
	upper=$(jqr "$json" '.cases[0].target | "\(.dev_major):\(.dev_minor)"')
	lower=$(jqr "$json" '.cases[0].target.device_model_stack.throttled_dev')
	up=$(flushes_on "$upper")
	low=$(flushes_on "$lower")
	echo "flush requests: upper $upper $up, lower $lower $low"
	echo "bpftrace's last lines: $(tail -4 "$SCRATCH.bt" | tr '\n' ' ')"
	# XFS flushes before every fsync's log write: 200 fsyncs
	[ "$up" -ge 200 ]
	# each one a flush of the lower device (blkdev_fsync of its file)
	[ "$low" -ge "$up" ]
	[ "$low" -le $((up + 10)) ]
	# charged there: writes + flushes together hold the limit, and flushes
	# are half of them (passed free, the phase would run at 200 requests/s)
	phase='.cases[0].phases[] | select(.name=="cycles")'
	secs=$(jqr "$json" "$phase | .wall_ns / 1e9")
	w=$(jqr "$json" "$phase | .block.classes.write.ios")
	f=$(jqr "$json" "$phase | .block.classes.flush.ios")
	echo "cycles: $w writes + $f flushes in $secs s"
	python3 - "$secs" "$w" "$f" <<'PY'
import sys
secs, w, f = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
assert f >= 0.3 * (w + f), f"{f} flushes of {w + f} requests"
assert (w + f) / secs <= 115, f"{(w + f) / secs:.0f} requests/s over a limit of 100"
PY
	# the report's check counts flushes as the throttle does, and it held
	if [[ "$output" == *"throttle not held"* ]]; then
		false
	fi
}

# On the traced disk itself the throttle charges bios: a PREFLUSH/FUA log
# write is one bio but becomes a flush and a write request, so an fsync
# loop runs at twice the model's request rate there; the report says so.
@test "on a --dir the throttle lets an fsync loop's flushes through, and the report says it was not held" {
	truncate -s 1G "$SCRATCH/dirimg"
	loop=$(losetup -f --show --direct-io=on "$SCRATCH/dirimg")
	mkfs.xfs -q -f "$loop"
	mkdir "$SCRATCH/mnt"
	mount "$loop" "$SCRATCH/mnt"
	run "$FSPROF" run -w fsync:files=100 --dir "$SCRATCH/mnt" \
		--device-model custom:wiops=100 --json "$SCRATCH.json"
	dev=$(devnums "$loop")
	umount "$SCRATCH/mnt"
	losetup -d "$loop"
	rm -rf "$SCRATCH/mnt" "$SCRATCH/dirimg"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"throttle not held in cycles: "*" write IOPS (cache flushes included) against a limit of 100"* ]]
	[ "$(jqr "$SCRATCH.json" '[.cases[0].phases[] | select(.name == "cycles") | .findings[] | select(.rule == "throttle-not-held")] | length')" -eq 1 ]
	[ -z "$(throttle_rules "$dev")" ]
}

@test "--device-model on a --dir of the root filesystem is refused" {
	run "$FSPROF" run -w seqio:size=1M --dir /var/tmp --device-model hdd
	[ "$status" -ne 0 ]
	[[ "$output" == *"disk holding the root filesystem"* ]]
	# nothing on the root filesystem's disk
	root=$(findmnt -n -o MAJ:MIN -T /var/tmp)
	[ -z "$(throttle_rules "$root" "${root%:*}:0")" ]
}

@test "--device-model on a --dir of another disk throttles it and says busy time and issuers are not faithful" {
	truncate -s 256M "$SCRATCH/dirimg"
	loop=$(losetup -f --show "$SCRATCH/dirimg")
	mkfs.ext4 -q "$loop"
	mkdir "$SCRATCH/mnt"
	mount "$loop" "$SCRATCH/mnt"
	run "$FSPROF" run -w seqio:size=1M --dir "$SCRATCH/mnt" \
		--device-model custom:wiops=1000 --json "$SCRATCH.json"
	dev=$(devnums "$loop")
	umount "$SCRATCH/mnt"
	losetup -d "$loop"
	rm -rf "$SCRATCH/mnt" "$SCRATCH/dirimg"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"not measured faithfully"* ]]
	[ "$(jqr "$SCRATCH.json" '.cases[0].target.device_model_stack | [.placement, .faithful] | @tsv')" = \
		"$(printf 'traced-disk\tfalse')" ]
	[ -z "$(throttle_rules "$dev")" ]
}

@test "a target's own model= in --fs throttles that target alone, and the report names each target's model" {
	run "$FSPROF" run -w seqio:size=1M --fs "a=ext4,h=ext4:model='custom:wiops=200'" \
		--scratch "$SCRATCH" --json "$SCRATCH.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jqr "$SCRATCH.json" '[.cases[] | [.target_name, .target.device_model, .target.device_model_stack.placement // "-"] | join("|")] | join(";")')" = \
		"a|none|-;h|custom: riops=0 wiops=200 rbps=0 wbps=0|lower-loop" ]
	[[ "$output" == *"device models:"*"  a: none"*"  h: custom: riops=0 wiops=200 rbps=0 wbps=0"* ]]
	dev=$(jqr "$SCRATCH.json" '.cases[1].target.device_model_stack.throttled_dev')
	[ -z "$(throttle_rules "$dev")" ]
}

@test "an unknown device model is a usage error" {
	run "$FSPROF" run --device-model floppy --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown device model 'floppy'"* ]]
}
