#!/usr/bin/env bats
# The bad-input matrix: every bad input gets a message that names it and
# says what to do, the documented exit code (2 usage, 3 environment; 1 for
# what only the kernel or mkfs can judge), and nothing is created or lost.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	# shared inputs: tarballs, results files, devices
	INPUTS=$(mktemp -d /var/tmp/fsprof-badinput.XXXXXX)
	export INPUTS FSPROF_DB="$INPUTS/runs.db"
	mkdir "$INPUTS/t"
	echo data >"$INPUTS/t/a"
	tar cf "$INPUTS/good.tar" -C "$INPUTS/t" a
	head -c 700 "$INPUTS/good.tar" >"$INPUTS/truncated.tar"
	tar czf "$INPUTS/good.tar.gz" -C "$INPUTS/t" a
	head -c 40 "$INPUTS/good.tar.gz" >"$INPUTS/truncated.tar.gz"
	echo "not a tar archive" >"$INPUTS/text.tar"
	python3 "$LIB/craft_tar.py" dotdot "$INPUTS/dotdot.tar" "$INPUTS/evil"
	python3 "$LIB/craft_tar.py" absolute "$INPUTS/absolute.tar" "$INPUTS/evil"
	python3 "$LIB/craft_tar.py" symlink_absolute "$INPUTS/symlink.tar" "$INPUTS/evil"
	# results files: a real one, then spoilt copies
	"$FSPROF" run -q --no-trace -w seqio:size=1M --scratch "$INPUTS" \
		--json "$INPUTS/good.json" >/dev/null
	head -c 200 "$INPUTS/good.json" >"$INPUTS/truncated.json"
	jq '.schema_version = 99' "$INPUTS/good.json" >"$INPUTS/future.json"
	echo "hello" >"$INPUTS/notjson.json"
	: >"$INPUTS/empty.json"
	mkdir "$INPUTS/ro" "$INPUTS/small"
	mount -t tmpfs -o ro,size=1m tmpfs "$INPUTS/ro"
	mount -t tmpfs -o size=1m tmpfs "$INPUTS/small"
}

teardown_file() {
	umount "$INPUTS/ro" "$INPUTS/small"
	rm -rf --one-file-system "$INPUTS"
}

setup() {
	scratch_create
	DISK="" PARTED=""
}

teardown() {
	mountpoint -q "$SCRATCH.mnt" 2>/dev/null && umount "$SCRATCH.mnt"
	rmdir "$SCRATCH.mnt" 2>/dev/null || true
	[ -n "$DISK" ] && losetup -d "$DISK"
	rm -f "$SCRATCH.disk"
	scratch_remove
}

# refused STATUS NEEDLE ARGS...: fsprof ARGS exits STATUS, says NEEDLE (the
# input named), and leaves the scratch directory and the machine untouched
refused() {
	local want=$1 needle=$2 loops_before
	shift 2
	loops_before=$(losetup -a | grep -c "$SCRATCH" || true)
	run "$FSPROF" "$@"
	echo "exit $status: $output"
	[ "$status" -eq "$want" ]
	[[ "$output" == *"$needle"* ]]
	[ -z "$(ls -A "$SCRATCH")" ]
	# nothing mounted in the scratch directory (the test's own mount of
	# $SCRATCH.mnt is not in it)
	if grep -qE " $SCRATCH(/| )" /proc/mounts; then
		false
	fi
	[ "$(losetup -a | grep -c "$SCRATCH" || true)" -eq "$loops_before" ]
	[ ! -e "$INPUTS/evil" ]
}

# a usage error: the message, and one hint line
usage_refused() {
	refused 2 "$@"
	# the error, not 72 lines of usage
	[[ "$output" != *"usage: fsprof"* ]]
}

# a blank loop device of our own
disk_create() {
	truncate -s 1G "$SCRATCH.disk"
	DISK=$(losetup -f --show "$SCRATCH.disk")
}

# --fs
@test "bad input: an unknown filesystem" { usage_refused "unknown filesystem 'zfs'" run --fs zfs --scratch "$SCRATCH"; }
@test "bad input: an unknown --fs setting" { usage_refused "unknown setting 'bogus' for ext4" run --fs ext4:bogus=1 --scratch "$SCRATCH"; }
@test "bad input: an unquoted comma in mount options" { usage_refused "must be quoted" run --fs ext4:mount=noatime,nodelalloc --scratch "$SCRATCH"; }
@test "bad input: an unbalanced quote in mkfs options" { usage_refused "unbalanced ' quote" run --fs "ext4:mkfs='-m 0" --scratch "$SCRATCH"; }
@test "bad input: mkfs options mkfs rejects (exit 1, mkfs's words)" { refused 1 "Invalid filesystem option set: nosuchfeature" run -q -w seqio:size=1M --fs "ext4:mkfs='-O nosuchfeature'" --scratch "$SCRATCH"; }
@test "bad input: mount options the kernel rejects (exit 1, the kernel's words)" { refused 1 "Unknown parameter 'nosuchopt'" run -q -w seqio:size=1M --fs ext4:mount=nosuchopt --scratch "$SCRATCH"; }

# sizes
@test "bad input: a garbage size" { usage_refused "--size: 'lots' is not a size" run --size lots --scratch "$SCRATCH"; }
@test "bad input: a negative size" { usage_refused "--size: '-5' is not a size" run --size -5 --scratch "$SCRATCH"; }
@test "bad input: a zero size" { usage_refused "--image-size: size '0' is zero" run --image-size 0 --scratch "$SCRATCH"; }
@test "bad input: a size that overflows 64 bits" { usage_refused "size '99999999999T' is too large" run --image-size 99999999999T --scratch "$SCRATCH"; }
@test "bad input: a fraction of a byte" { usage_refused "size '1.5' has a fraction of a byte" run --size 1.5 --scratch "$SCRATCH"; }
@test "bad input: a size in bits" { usage_refused "'Kb' would mean bits" run --size 4Kb --scratch "$SCRATCH"; }
@test "bad input: an image larger than the scratch filesystem (exit 3)" { refused 3 "free but the image needs" run --image-size 500T --scratch "$SCRATCH"; }

# durations
@test "bad input: a garbage duration" { usage_refused "--bin: 'garbage' is not a duration" run --bin garbage --scratch "$SCRATCH"; }
@test "bad input: a duration without a unit" { usage_refused "--slow-io: '5' is not a duration" run --slow-io 5 --scratch "$SCRATCH"; }
@test "bad input: --bin 1ns, absurd for a timeline bin" { usage_refused "--bin 1ns is out of range: give 1ms to 1h" run --bin 1ns --scratch "$SCRATCH"; }
@test "bad input: --bin 2h" { usage_refused "--bin 2h is out of range" run --bin 2h --scratch "$SCRATCH"; }
@test "bad input: --slow-io 1h" { usage_refused "--slow-io 1h is out of range: give 1ns to 10min" run --slow-io 1h --scratch "$SCRATCH"; }
@test "bad input: a zero duration" { usage_refused "--slow-io" run --slow-io 0ms --scratch "$SCRATCH"; }

# workloads and parameters
@test "bad input: an unknown workload" { usage_refused "unknown workload 'nosuch'" run -w nosuch --scratch "$SCRATCH"; }
@test "bad input: an unknown workload parameter" { usage_refused "unknown parameter 'nosuch' (known: size, bs, direct, sync)" run -w seqio:nosuch=1 --scratch "$SCRATCH"; [[ "$output" == *"
see 'fsprof list workloads'" ]]; }
@test "bad input: a parameter that is not a size" { usage_refused "size: 'abc' is not a size" run -w seqio:size=abc --scratch "$SCRATCH"; }
@test "bad input: a negative count" { usage_refused "files: '-1' is not a positive whole number" run -w mdcreate:files=-1 --scratch "$SCRATCH"; }
@test "bad input: a count that overflows" { usage_refused "'99999999999999999999' is not a positive whole number" run -w mdcreate:files=99999999999999999999 --scratch "$SCRATCH"; }
@test "bad input: a yes/no parameter given maybe" { usage_refused "direct: 'maybe' is not yes or no" run -w seqio:direct=maybe --scratch "$SCRATCH"; }
@test "bad input: seqio bs out of range" { usage_refused "bs=1073741824 is larger than 16 MiB" run -w seqio:bs=1G,size=1M --scratch "$SCRATCH"; }
@test "bad input: seqio direct IO with an unaligned bs" { usage_refused "multiple of 4096, not 1000" run -w seqio:bs=1000,direct=yes --scratch "$SCRATCH"; }
@test "bad input: afd with too many producers" { usage_refused "at most 64 producers" run -w afd:producers=1000 --scratch "$SCRATCH"; }
@test "bad input: an unknown untar preset" { usage_refused "preset=nosuch is not one of" run -w untar:preset=nosuch --scratch "$SCRATCH"; }
@test "bad input: --size for a workload without a size" { usage_refused "--size: workload mdcreate has no size parameter" run -w mdcreate --size 4M --scratch "$SCRATCH"; }

# tarballs
@test "bad input: a missing tarball" { usage_refused "tarball=$INPUTS/missing.tar" run -w untar:tarball="$INPUTS/missing.tar" --scratch "$SCRATCH"; }
@test "bad input: a file that is not a tar" { usage_refused "$INPUTS/text.tar: cannot read it as a tar archive" run -w untar:tarball="$INPUTS/text.tar" --scratch "$SCRATCH"; }
@test "bad input: a truncated tar" { usage_refused "$INPUTS/truncated.tar: " run -w untar:tarball="$INPUTS/truncated.tar" --scratch "$SCRATCH"; }
@test "bad input: a corrupt .tar.gz" { usage_refused "$INPUTS/truncated.tar.gz: " run -w untar:tarball="$INPUTS/truncated.tar.gz" --scratch "$SCRATCH"; }
@test "bad input: a tar with a '..' member" { usage_refused "'..' component; refusing to extract this archive" run -w untar:tarball="$INPUTS/dotdot.tar" --scratch "$SCRATCH"; }
@test "bad input: a tar with an absolute member" { usage_refused "absolute path; refusing" run -w untar:tarball="$INPUTS/absolute.tar" --scratch "$SCRATCH"; }
@test "bad input: a tar with an absolute symlink" { usage_refused "-> '/etc'" run -w untar:tarball="$INPUTS/symlink.tar" --scratch "$SCRATCH"; }

# --dir
@test "bad input: --dir that does not exist" { refused 3 "--dir $SCRATCH.none: No such file or directory" run --dir "$SCRATCH.none" --scratch "$SCRATCH"; }
@test "bad input: --dir that is not a directory" { refused 3 "--dir $INPUTS/good.tar: not a directory" run --dir "$INPUTS/good.tar" --scratch "$SCRATCH"; }
@test "bad input: --dir on a read-only filesystem" { refused 3 "--dir $INPUTS/ro is not writable" run --dir "$INPUTS/ro" --scratch "$SCRATCH"; }
@test "bad input: --dir without room for the workload" { refused 3 "--dir $INPUTS/small has 1 MiB free but the workload's data needs 4 MiB" run -w seqio:size=4M --dir "$INPUTS/small" --scratch "$SCRATCH"; }
@test "bad input: --dir with --device-model (exit 3, before anything is made)" { refused 3 "--device-model needs an image target" run -w seqio:size=64k --dir "$INPUTS/small" --device-model hdd --scratch "$SCRATCH"; [ -z "$(ls -A "$INPUTS/small")" ]; }
@test "bad input: --dir together with --device" { usage_refused "--dir and --device exclude each other" run --dir /tmp --device /dev/null --scratch "$SCRATCH"; }

# --device
@test "bad input: --device that is not a block device" { refused 3 "--device /dev/null is not a block device" run --device /dev/null --scratch "$SCRATCH"; }
@test "bad input: --device holding the root filesystem" { refused 3 "holds the root filesystem" run --device "$(findmnt -no SOURCE /)" --scratch "$SCRATCH"; }
@test "bad input: --device holding a filesystem, without --force" { disk_create; mkfs.ext4 -q "$DISK"; refused 3 "--device $DISK holds ext4 filesystem" run --device "$DISK" --scratch "$SCRATCH"; blkid "$DISK" | grep -q ext4; }
@test "bad input: --device that is mounted" { disk_create; mkfs.ext4 -q "$DISK"; mkdir "$SCRATCH.mnt"; mount "$DISK" "$SCRATCH.mnt"; refused 3 "--device $DISK (or a partition of it) is mounted" run --device "$DISK" --force --scratch "$SCRATCH"; }
@test "bad input: --device a disk whose partition is mounted" {
	truncate -s 1G "$SCRATCH.disk"
	echo ',64M' | sfdisk -q "$SCRATCH.disk"
	DISK=$(losetup -f --show -P "$SCRATCH.disk")
	wait_for "[ -b ${DISK}p1 ]" 2 || partx -a "$DISK"
	mkfs.ext4 -q "${DISK}p1"
	mkdir "$SCRATCH.mnt"
	mount "${DISK}p1" "$SCRATCH.mnt"
	refused 3 "--device $DISK (or a partition of it) is mounted" run --device "$DISK" --force --scratch "$SCRATCH"
}

# --device-model
@test "bad input: an unknown device model" { usage_refused "unknown device model 'ssd'" run --device-model ssd --scratch "$SCRATCH"; }
@test "bad input: a custom model without limits" { usage_refused "custom: give at least one of riops, wiops, rbps, wbps" run --device-model custom: --scratch "$SCRATCH"; }
@test "bad input: a custom model with an unknown limit" { usage_refused "unknown limit 'foo'" run --device-model custom:foo=1 --scratch "$SCRATCH"; }
@test "bad input: a custom model with a zero limit" { usage_refused "riops: size '0' is zero" run --device-model custom:riops=0 --scratch "$SCRATCH"; }
@test "bad input: a custom model with a limit that is not a number" { usage_refused "wbps: 'fast' is not a size" run --device-model custom:wbps=fast --scratch "$SCRATCH"; }

# other run options
@test "bad input: --repeat 0" { usage_refused "--repeat takes a whole number from 1 to 1000, not '0'" run --repeat 0 --scratch "$SCRATCH"; }
@test "bad input: --verify=1" { usage_refused "--verify takes a number of runs from 2 to 32" run --verify=1 --scratch "$SCRATCH"; }
@test "bad input: an unknown --scale" { usage_refused "--scale takes quick or full, not 'huge'" run --scale huge --scratch "$SCRATCH"; }
@test "bad input: an unknown --format" { usage_refused "--format takes text|json|csv|html|trace|openmetrics|bonnie-csv, not 'xml'" run --format xml --scratch "$SCRATCH"; }
@test "bad input: a missing scratch directory (exit 3)" { refused 3 "$SCRATCH/missing: No such file or directory" run -w seqio:size=1M --scratch "$SCRATCH/missing"; }

# output files, checked before the run
@test "bad input: --json in a missing directory" { usage_refused "--json $SCRATCH.no/r.json" run -q -w seqio:size=1M --json "$SCRATCH.no/r.json" --scratch "$SCRATCH"; }
@test "bad input: --json in a read-only directory" { usage_refused "--json $INPUTS/ro/r.json: cannot write in $INPUTS/ro" run -q -w seqio:size=1M --json "$INPUTS/ro/r.json" --scratch "$SCRATCH"; }
@test "bad input: --html in a missing directory" { usage_refused "--html $SCRATCH.no/r.html" run -q -w seqio:size=1M --html "$SCRATCH.no/r.html" --scratch "$SCRATCH"; }
@test "bad input: --html in a read-only directory" { usage_refused "--html $INPUTS/ro/r.html" run -q -w seqio:size=1M --html "$INPUTS/ro/r.html" --scratch "$SCRATCH"; }

# results files for report and diff
@test "bad input: report of a truncated results file" { usage_refused "$INPUTS/truncated.json: not valid JSON" report "$INPUTS/truncated.json"; }
@test "bad input: report of a results file from a future schema" { usage_refused "$INPUTS/future.json" report "$INPUTS/future.json"; [[ "$output" == *99* ]]; }
@test "bad input: report of a file that is not JSON" { usage_refused "$INPUTS/notjson.json: not valid JSON" report "$INPUTS/notjson.json"; }
@test "bad input: report of an empty file" { usage_refused "$INPUTS/empty.json: is empty, not a results file" report "$INPUTS/empty.json"; }
@test "bad input: diff with a truncated results file" { usage_refused "$INPUTS/truncated.json" diff "$INPUTS/good.json" "$INPUTS/truncated.json"; }

# phase markers (fsprof trace): garbage lines are named and ignored
@test "bad input: garbage on the phase-marker fd is named by line and ignored" {
	run "$FSPROF" trace -q --scratch "$SCRATCH" -- sh -c 'echo garbage >&$FSPROF_PHASE_FD; echo begin >&$FSPROF_PHASE_FD'
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *'line 1 "garbage": unknown verb'* ]]
	[[ "$output" == *'line 2 "begin": begin needs a phase name'* ]]
	[ -z "$(ls -A "$SCRATCH")" ]
}

@test "bad input: an unknown command" { usage_refused "unknown command 'frobnicate'" frobnicate; }
