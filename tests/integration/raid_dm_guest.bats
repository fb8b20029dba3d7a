#!/usr/bin/env bats
# md RAID0 and RAID1 of two loop members, and dm-linear on one, in a QEMU
# guest of Debian's 6.12 (this machine's kernel has neither md nor
# device-mapper; raid_dm_refusal.bats checks the refusal here). One
#   fsprof run --kernel 6.12 --fs "r0=ext4:raid='0:2',
#       bad0=ext4:raid='0:2':mkfs='-b 512',r1=ext4:raid='1:2',
#       badlin=ext4:dm=linear:mkfs='-b 512',lin=ext4:dm=linear,
#       r1m=ext4:raid='1:2':model='custom:wiops=25'" -w seqio:size=8M
# boots the guest once (setup_file) and runs the six cases in it; the
# tests read its JSON and its report. The two bad targets build their
# stack, then fail at mkfs: the next case finds the array's name and the
# dm minor free again only if the failed case's teardown removed them
# (the first case is a good one: the schema check's own test edits it). The filesystem's own writes are
# the dm-linear case's: dm-linear passes every bio to its one member
# unchanged, so what that member saw is what ext4 wrote for the same
# workload; the same 8 MiB are written on every target (seqio's bytes).
# r1m is RAID1 under a device model: each member a disk of the model, its
# loop on a lower loop of its own, served by an engine of its own (FUSE).
# In the same boot, after that run, the guest script (the shipped one with
# lib/guest_kill_cleanup.sh after it, through FSPROF_VM_SCRIPTS) kills an
# fsprof run on dm on md under a model with SIGKILL and runs fsprof
# cleanup; its "kill9:" lines reach the host at the end of the guest's
# run.log, which the host prints as the guest's fsprof exited 1.
# Then (lib/guest_device_stack.sh) --device on two loop devices the guest
# script makes over files, as a user's two disks: --device A,B --raid 1:2
# and --device A --dm linear, each an fsprof run of seqio 8M; its
# "devstack:" lines give each report's stack and members' writes, and what
# is left after; a third run on the array, killed with SIGKILL in its write
# phase, then fsprof cleanup.
# Skipped, with the reason, where QEMU cannot be had.

load helpers

# seqio writes 8 MiB; mkfs.ext4 picks 1 KiB blocks and a 4 MiB journal on
# the small filesystems; md's default chunk is 512 KiB
SEQIO_BYTES=8388608
CHUNK_SECTORS=1024
DM_OFFSET=2048 # STACK_DM_OFFSET: the dm-linear table starts 1 MiB in
# r1m's model: 25 write requests a second on each member's lower loop
MODEL_WIOPS=25
# the engine answers each request at its time, one at a time: no slice's
# quota passes early (kept at 0 in the bound below)
SLICE_S=0

# the guest script: the shipped one, then the kill -9 and cleanup
guest_scripts() {
	local top=$BATS_TEST_DIRNAME/../..
	cp -r "$top/scripts/vm" "$VM_OUT/vm-scripts"
	{
		echo '#!/bin/sh'
		echo 'fsprof_run() {'
		cat "$top/scripts/vm/guest-fsprof-run.sh"
		echo '}'
		cat "$LIB/guest_kill_cleanup.sh"
		cat "$LIB/guest_device_stack.sh"
		echo '(fsprof_run "$@")'
		echo 'rc=$?'
		echo 'devstack_run >>"$1/run.log" 2>&1'
		echo 'kill9_cleanup >>"$1/run.log" 2>&1'
		echo 'exit "$rc"'
	} >"$VM_OUT/vm-scripts/guest-fsprof-run.sh"
	chmod 755 "$VM_OUT/vm-scripts/guest-fsprof-run.sh"
}

setup_file() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 || {
		export VM_SKIP="qemu-system-x86_64 is not installed"
		return 0
	}
	local rc=0
	VM_OUT=$(mktemp -d /var/tmp/fsprof-raid-vm.XXXXXX)
	export VM_OUT
	guest_scripts
	FSPROF_VM_SCRIPTS=$VM_OUT/vm-scripts "$FSPROF" run --kernel 6.12 \
		--fs "r0=ext4:raid='0:2',bad0=ext4:raid='0:2':mkfs='-b 512',r1=ext4:raid='1:2',badlin=ext4:dm=linear:mkfs='-b 512',lin=ext4:dm=linear,r1m=ext4:raid='1:2':model='custom:wiops=$MODEL_WIOPS'" \
		-w seqio:size=8M --image-size 128M --no-db --scratch "$VM_OUT" \
		--kernel-timeout 7min --json "$VM_OUT/run.json" \
		>"$VM_OUT/run.log" 2>&1 || rc=$?
	echo "$rc" >"$VM_OUT/run.rc"
}

setup() {
	[ -z "${VM_SKIP:-}" ] || skip "$VM_SKIP"
}

teardown_file() {
	if [ -n "${VM_OUT:-}" ]; then
		rm -rf --one-file-system "$VM_OUT"
	fi
}

show_log() {
	echo "fsprof run --kernel 6.12 exited $(cat "$VM_OUT/run.rc"):"
	tail -n 40 "$VM_OUT/run.log"
}

# the case of target $1, then the filter $2 applied to it
on_case() {
	jq -e --arg t "$1" --argjson seq "$SEQIO_BYTES" \
		--argjson chunk "$CHUNK_SECTORS" --argjson dmoff "$DM_OFFSET" \
		--argjson wiops "$MODEL_WIOPS" --argjson slice "$SLICE_S" \
		"[.cases[] | select(.target_name == \$t)][0] | $2" \
		"$VM_OUT/run.json" >/dev/null || {
		show_log
		jq -c --arg t "$1" '.cases[] | select(.target_name == $t) |
			{stack: .target.block_stack, log: .target.log,
			 phases: [.phases[] | {name, block: {write: .block.classes.write.bytes,
				members: .block.members}}]}' "$VM_OUT/run.json"
		return 1
	}
}

@test "one boot of 6.12 runs the four stacked cases, each complete, each traced on its members" {
	# 1: the two bad targets failed, as meant
	[ "$(cat "$VM_OUT/run.rc")" -eq 1 ] || { show_log; return 1; }
	[ "$(grep -c 'booting Linux' "$VM_OUT/run.log")" -eq 1 ] || { show_log; return 1; }
	jq -e '[.cases[] | select(.complete) | .target_name] == ["r0", "r1", "lin", "r1m"]
		and all(.cases[] | select(.complete); . as $c | .complete
		and .target.block_untraced == null
		and (.target.block_stack.members | length) >= 1
		and all(.target.block_stack.members[]; .name | test("^loop[0-9]+$"))
		and all(.phases[]; (.block.members | length)
			== ($c.target.block_stack.members | length)))' \
		"$VM_OUT/run.json" >/dev/null || { show_log; return 1; }
	on_case r0 '.target.block_stack.layout | test("^md[0-9]+ \\(md raid0, chunk 512 KiB\\)$")'
	on_case r1 '.target.block_stack.layout | test("^md[0-9]+ \\(md raid1\\)$")'
	on_case lin '.target.block_stack.layout | test("^dm-[0-9]+ \\(dm-linear\\)$")'
	on_case r0 '(.target.block_stack.members | length) == 2'
	on_case r1 '(.target.block_stack.members | length) == 2'
	on_case lin '(.target.block_stack.members | length) == 1'
	on_case r1m '(.target.block_stack.members | length) == 2'
}

@test "a case that fails after its stack is built tears it down: the next one gets the array's name and the dm minor again" {
	jq -e '[.cases[] | select(.complete | not) | .target_name] == ["bad0", "badlin"]
		and all(.cases[] | select(.complete | not); .error | test("mkfs"))' \
		"$VM_OUT/run.json" >/dev/null || { show_log; return 1; }
	# fsprof names its arrays from md200 up, the first free; dm takes the
	# lowest free minor: nothing else in the guest has either
	on_case r0 '.target.block_stack.top == "md200"'
	on_case r1 '.target.block_stack.top == "md200"'
	on_case lin '.target.block_stack.top == "dm-0"'
}

@test "every request is counted on a member: the members' requests and latencies add up to the phase's, per class" {
	local t
	for t in r0 r1 lin r1m; do
		on_case "$t" 'all(.phases[]; . as $p | all(range(0; 9) as $i
			| ["data_read","data_write","meta_read","meta_write","log_read",
			   "log_write","flush","discard","other"][$i];
			([$p.block.members[].io_classes[.].bytes] | add)
				== $p.block.io_classes[.].bytes
			and ([$p.block.members[].io_classes[.].ios] | add)
				== $p.block.io_classes[.].ios)
			and ([$p.block.members[].latency.count] | add)
				== $p.block.total.latency.count
			and ([$p.block.members[].latency.max_ns] | max)
				== $p.block.total.latency.max)'
	done
}

@test "dm-linear: its one member wrote what the workload wrote, its data exactly" {
	on_case lin '.phases[0].name == "write"
		and .phases[0].workload.bytes == $seq
		and .phases[0].block.members[0].io_classes.data_write.bytes == $seq'
}

@test "md RAID0: the data is split by chunks, half on each member, adding up to what the filesystem wrote" {
	# 8 MiB in 512 KiB chunks, round the two members: 4 MiB each, one
	# chunk more or less when the file starts inside a chunk
	on_case r0 '.phases[0].block.members | all(.[];
		.io_classes.data_write.bytes >= ($seq / 2 - 512 * $chunk)
		and .io_classes.data_write.bytes <= ($seq / 2 + 512 * $chunk))'
	on_case r0 '([.phases[0].block.members[].io_classes.data_write.bytes] | add) == $seq'
	# what the filesystem wrote in all (data, metadata, journal): the
	# same as on dm-linear, within the metadata of a filesystem of
	# another size (1% of the phase)
	local lin
	lin=$(jq '[.cases[] | select(.target_name == "lin")][0].phases[0].block.members[0].write_bytes' \
		"$VM_OUT/run.json")
	on_case r0 "([.phases[0].block.members[].write_bytes] | add) as \$s
		| (\$s - $lin | fabs) <= ($lin / 100)"
	# the read phase reads the file back from both members
	on_case r0 '.phases[1].name == "read" and
		all(.phases[1].block.members[]; .io_classes.data_read.bytes >= ($seq / 2 - 512 * $chunk))'
}

@test "md RAID1: every member wrote all of it, twice what the filesystem wrote in all" {
	on_case r1 '.phases[0].block.members | all(.[]; .io_classes.data_write.bytes == $seq)'
	on_case r1 '.phases[0].block.members[0].write_bytes == .phases[0].block.members[1].write_bytes'
	local lin
	lin=$(jq '[.cases[] | select(.target_name == "lin")][0].phases[0].block.members[0].write_bytes' \
		"$VM_OUT/run.json")
	on_case r1 "([.phases[0].block.members[].write_bytes] | add) as \$s
		| (\$s - 2 * $lin | fabs) <= ($lin / 50)"
	# a read is served by one copy: the members read the file once between them
	on_case r1 '([.phases[1].block.members[].io_classes.data_read.bytes] | add) >= $seq
		and ([.phases[1].block.members[].io_classes.data_read.bytes] | add) < 2 * $seq'
}

@test "the log class is mapped through dm-linear's offset, RAID0's chunks and RAID1's copies, and ext4's journal writes land in it" {
	local t
	for t in r0 r1 lin; do
		on_case "$t" '.target.block_stack.log_class.mapped
			and (.target.block_stack.log_class.note | startswith("mapped through"))
			and .phases[0].block.io_classes.log_write.ios > 0'
	done
	# dm-linear: the journal's sectors on the member are the table's
	# offset further on
	on_case lin '.target.log.ranges as $fs | .target.block_stack.log_class.ranges as $m
		| ($m | length) == ($fs | length)
		and all(range(0; $fs | length); . as $i
			| $m[$i].start_sector == $fs[$i].start_sector + $dmoff
			and $m[$i].sectors == $fs[$i].sectors)'
	# RAID0: the journal split over the two members, no sector lost or
	# doubled, each within a chunk of half
	on_case r0 '([.target.log.ranges[].sectors] | add) as $fs
		| .target.block_stack.log_class.ranges
		| ([.[].sectors] | add) == $fs
		and ([.[].member] | unique) == [0, 1]
		and all(.[]; (.sectors - $fs / 2 | fabs) <= $chunk)'
	# RAID1: a copy on each member, at the same place on both
	on_case r1 '([.target.log.ranges[].sectors] | add) as $fs
		| .target.block_stack.log_class.ranges
		| length == 2 and .[0].sectors == $fs and .[1].sectors == $fs
		and .[0].start_sector == .[1].start_sector'
	# and the journal's writes reach both copies alike
	on_case r1 '.phases[0].block.members | .[0].io_classes.log_write.bytes
		== .[1].io_classes.log_write.bytes and .[0].io_classes.log_write.bytes > 0'
}

@test "the report names each stack, its log class and its members' share of each phase" {
	grep -Eq "^  r0 \(repeat 1\): md[0-9]+ \(md raid0, chunk 512 KiB\); log class: mapped through" \
		"$VM_OUT/run.log" || { show_log; return 1; }
	grep -Eq "^  r1 \(repeat 1\): md[0-9]+ \(md raid1\); log class: mapped" "$VM_OUT/run.log"
	grep -Eq "^  lin \(repeat 1\): dm-[0-9]+ \(dm-linear\); log class: mapped" "$VM_OUT/run.log"
	grep -q "^stacked targets: block IO of the member disks (MB written / read, mean latency)" \
		"$VM_OUT/run.log"
	grep -Eq "^    write: loop[0-9]+ 8\.4 / 0\.0 [0-9.]+ ms, loop[0-9]+ 8\.4 / 0\.0 [0-9.]+ ms$" \
		"$VM_OUT/run.log"
}

@test "the JSON validates against the schema, and fsprof report reads the stacks back unchanged" {
	run /usr/bin/python3 "$LIB/results_schema_check.py" \
		"$BATS_TEST_DIRNAME/../../docs/results-schema.json" "$VM_OUT/run.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 file(s), 0 error(s)"* ]]
	"$FSPROF" report -f json "$VM_OUT/run.json" >"$VM_OUT/again.json"
	local filter='[.cases[] | .target.block_stack, [.phases[].block.members]]'
	[ "$(jq -cS "$filter" "$VM_OUT/run.json")" = "$(jq -cS "$filter" "$VM_OUT/again.json")" ]
	jq -e '[.cases[] | select(.complete) | .target.block_stack.members | length] == [2, 2, 1, 2]' \
		"$VM_OUT/again.json" >/dev/null
}

@test "RAID1 under a device model: each member on a lower loop and an engine of its own, recorded, in the report" {
	on_case r1m '.target.device_model == "custom: riops=0 wiops=\($wiops) rbps=0 wbps=0"'
	# one lower loop a member, named as block_stack names them,
	# none of them a member itself; the first stands for the target
	on_case r1m '.target.device_model_stack as $m | .target.block_stack as $s
		| $m.placement == "lower-loop" and $m.faithful
		and ($m.members | length) == 2
		and ([$m.members[].member] | sort) == ([$s.members[].name] | sort)
		and ([$m.members[].throttled_dev] | unique | length) == 2
		and all($m.members[]; .throttled_dio
			and (.throttled_device | test("^/dev/loop[0-9]+$")))
		and ([$m.members[].throttled_dev] - [$s.members[] | "\(.major):\(.minor)"]) == [$m.members[].throttled_dev]
		and $m.throttled_dev == $m.members[0].throttled_dev'
	# the report's line, wrapped: read with its lines joined
	tr '\n' ' ' <"$VM_OUT/run.log" | tr -s ' ' |
		grep -Eq "device model: custom: riops=0 wiops=$MODEL_WIOPS rbps=0 wbps=0, each member a disk of the model of its own: /dev/loop[0-9]+ \(7:[0-9]+\) below loop[0-9]+, /dev/loop[0-9]+ \(7:[0-9]+\) below loop[0-9]+" ||
		{ show_log; return 1; }
}

# Each member's write requests (cache flushes included: a rate model
# charges them as writes) pass its own engine at MODEL_WIOPS a second: so
# a member's requests were in flight (issued on it, waiting below it) for
# at least n / MODEL_WIOPS seconds in all, and the sum of their latencies
# is at least that. A member left without a model (~ms a request) would
# fall short. And no member went faster than the model allows (the
# throttle-not-held rule, per member).
@test "RAID1 under a device model: every member's requests wait at its own engine, and no member outran it" {
	on_case r1m '.phases[0].name == "write" and (.phases[0].block.members
		| length == 2 and all(.[];
			(.io_classes | .data_write.ios + .meta_write.ios + .log_write.ios + .flush.ios) as $n
			| $n > 0 and .latency.sum_ns / 1e9 >= $n / $wiops - $slice))'
	on_case r1m '[.phases[].findings[] | select(.rule == "throttle-not-held")] | length == 0'
	# the write phase: RAID1 writes all of it on both
	on_case r1m '.phases[0].block.members | all(.[]; .io_classes.data_write.bytes == $seq)'
	# the figures, for the record
	jq -r '[.cases[] | select(.target_name == "r1m")][0]
		| .target.block_stack.members as $s | .phases[] | . as $p
		| range(0; .block.members | length) as $i | .block.members[$i]
		| "r1m \($p.name) (\($p.wall_ns / 1e6 | floor) ms): \($s[$i].name): \(.io_classes | .data_write.ios + .meta_write.ios + .log_write.ios + .flush.ios) writes+flushes, \(.io_classes | .data_read.ios + .meta_read.ios + .log_read.ios) reads, latency mean \(.latency.mean_ns / 1e6) ms, max \(.latency.max_ns / 1e6) ms, sum \(.latency.sum_ns / 1e6) ms"' \
		"$VM_OUT/run.json"
}

@test "fsprof killed with SIGKILL on dm on md under a model, then fsprof cleanup: no md array, dm device, loop, mount or model engine left" {
	grep '^kill9: ' "$VM_OUT/run.log" || { show_log; return 1; }
	# what the kill left: the array, the dm device on it, two members on
	# two lower loops, the mount, a FUSE mount and a daemon a member
	grep -Eq '^kill9: killed \(137\): md=\[md[0-9]+\] dm=\[dm-[0-9]+\] loops=\[loop[0-9]+ loop[0-9]+ loop[0-9]+ loop[0-9]+\] mounts=1 models=2 daemons=2$' \
		"$VM_OUT/run.log"
	grep -q '^kill9: cleanup exited 0: ' "$VM_OUT/run.log"
	grep -q '^kill9: after cleanup: md=\[\] dm=\[\] loops=\[\] mounts=0 models=0 daemons=0 left=\[\]$' \
		"$VM_OUT/run.log"
}

# --device A,B --raid 1:2 and --device A --dm linear, on two loop devices
# the guest script made: RAID1 writes every block on each member, and
# dm-linear passes each bio to its one member, so each member wrote what
# ext4 wrote for the same workload: the main run's dm-linear case's figure
# (lin). The report gives MB with one decimal (0.05 of rounding); the
# filesystems are of another size (96 MiB devices, 128 MiB images), whose
# metadata and journal differ by up to 2% of the phase (as the RAID1 test
# above allows): MEMBER_TOL_MB = 0.05 + 2% of 8.4 MB, about 0.22.
MEMBER_TOL_MB=0.25

# $1 (MB written, from the report) within MEMBER_TOL_MB of $2 bytes
near_lin() {
	awk -v m="$1" -v b="$2" -v t="$MEMBER_TOL_MB" \
		'BEGIN { d = m - b / 1e6; if (d < 0) d = -d; exit !(d <= t) }' || {
		echo "member wrote $1 MB, the filesystem $2 bytes (tolerance $MEMBER_TOL_MB MB)"
		return 1
	}
}

@test "--device A,B --raid 1:2 and --device A --dm linear: the stack on the user's devices, each member traced, nothing left but the devices" {
	grep '^devstack: ' "$VM_OUT/run.log" || { show_log; return 1; }
	local lin line r1 lin_line after a b re
	lin=$(jq '[.cases[] | select(.target_name == "lin")][0].phases[0].block.members[0].write_bytes' \
		"$VM_OUT/run.json")
	# one line: "devstack: r1 exited 0: ...; lin exited 0: ...; after: ..."
	line=$(grep '^devstack: r1 ' "$VM_OUT/run.log") || { show_log; return 1; }
	r1=${line%%; lin exited *}
	lin_line=${line#*; lin exited }
	lin_line="devstack: lin exited ${lin_line%%; after: *}"
	after="devstack: after: ${line#*; after: }"
	re='a=(loop[0-9]+):/scratch/ds/a.img b=(loop[0-9]+):/scratch/ds/b.img'
	[[ "$after" =~ $re ]] || { show_log; return 1; }
	a=${BASH_REMATCH[1]}
	b=${BASH_REMATCH[2]}
	# RAID1 on the two: an md array, its members the two devices given,
	# each writing what the filesystem wrote, both the same
	re="^devstack: r1 exited 0: layout=\[md[0-9]+ \(md raid1\)\] write: (loop[0-9]+) ([0-9.]+) / [0-9.]+ [0-9.]+ ms, (loop[0-9]+) ([0-9.]+) / [0-9.]+ [0-9.]+ ms$"
	[[ "$r1" =~ $re ]] || { echo "$line"; return 1; }
	[ "$(printf '%s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[3]}" | sort)" = \
		"$(printf '%s\n' "$a" "$b" | sort)" ]
	[ "${BASH_REMATCH[2]}" = "${BASH_REMATCH[4]}" ]
	near_lin "${BASH_REMATCH[2]}" "$lin"
	near_lin "${BASH_REMATCH[4]}" "$lin"
	# dm-linear on the first: its one member
	re="^devstack: lin exited 0: layout=\[dm-[0-9]+ \(dm-linear\)\] write: (loop[0-9]+) ([0-9.]+) / [0-9.]+ [0-9.]+ ms$"
	[[ "$lin_line" =~ $re ]] || { echo "$line"; return 1; }
	[ "${BASH_REMATCH[1]}" = "$a" ]
	near_lin "${BASH_REMATCH[2]}" "$lin"
	# after both: no array, no dm device, no mount; the two loops still
	# there on their files; no md superblock on either (zeroed after the
	# array was stopped); nothing in the scratch directory
	[[ "$after" == "devstack: after: md=[] dm=[] mounts=0 a=$a:/scratch/ds/a.img b=$b:/scratch/ds/b.img sb=[none none] left=[]" ]] ||
		{ echo "$after"; return 1; }
}

@test "--device A,B --raid 1:2 killed with SIGKILL, then fsprof cleanup: the array stopped, the members' md superblocks zeroed, the devices left" {
	local line a b re
	line=$(grep '^devstack: kill9 ' "$VM_OUT/run.log") || { show_log; return 1; }
	echo "$line"
	re='a=(loop[0-9]+):/scratch/ds/a.img b=(loop[0-9]+):/scratch/ds/b.img'
	[[ "$line" =~ $re ]]
	a=${BASH_REMATCH[1]}
	b=${BASH_REMATCH[2]}
	# what the kill left: the array on the two devices, its mount
	[[ "$line" =~ ^"devstack: kill9 (137): md=["md[0-9]+"] dm=[] mounts=1; cleanup exited 0: "[0-9]+" removed; after: " ]]
	[[ "$line" == *"; after: md=[] dm=[] mounts=0 a=$a:/scratch/ds/a.img b=$b:/scratch/ds/b.img sb=[none none] left=[]" ]]
}
