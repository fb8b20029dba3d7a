#!/usr/bin/env bats
# files1m, mdcreate and fsync at small sizes on ext4: the counts each
# workload reports are checked against what it must have done, and against
# what the device saw (block_rq_issue).

load helpers

FILES1M=300
MDCREATE=20000
FSYNC_FILES=300
FSYNC_APPENDS=2
MIB=1048576

setup_file() {
	load helpers
	scratch_create
	local w
	for w in "files1m:files=$FILES1M" "mdcreate:files=$MDCREATE,dirs=4" \
		"fsync:files=$FSYNC_FILES,appends=$FSYNC_APPENDS"; do
		name=${w%%:*}
		"$FSPROF" run -w "$w" --fs ext4 --scratch "$SCRATCH" \
			--json "$SCRATCH.$name.json" >"$SCRATCH.$name.out" 2>&1
		echo $? >"$SCRATCH.$name.status"
	done
}

teardown_file() {
	load helpers
	rm -f "$SCRATCH".*.json "$SCRATCH".*.out "$SCRATCH".*.status
	scratch_remove
}

# phase $2's field $3 in workload $1's results
phase() {
	jqr "$SCRATCH.$1.json" ".cases[0].phases[] | select(.name==\"$2\") | $3"
}

@test "files1m, mdcreate and fsync runs on ext4 succeed and leave nothing behind" {
	for name in files1m mdcreate fsync; do
		cat "$SCRATCH.$name.out"
		[ "$(cat "$SCRATCH.$name.status")" -eq 0 ]
	done
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "files1m create: exactly N files of 1 MiB written in 4 KiB writes, and the device wrote at least N MiB" {
	[ "$(phase files1m create .workload.files)" -eq $FILES1M ]
	[ "$(phase files1m create .workload.bytes)" -eq $((FILES1M * MIB)) ]
	[ "$(phase files1m create .histograms.op.write_ns.count)" -eq $((FILES1M * 256)) ]
	[ "$(phase files1m create .histograms.op.create_ns.count)" -eq $FILES1M ]
	# the closing syncfs is inside the timing: the data reached the device
	[ "$(phase files1m create .histograms.op.sync_ns.count)" -eq 1 ]
	bytes=$(phase files1m create .block.classes.write.bytes)
	echo "device write bytes: $bytes"
	[ "$bytes" -ge $((FILES1M * MIB)) ]
	[ "$bytes" -le $((FILES1M * MIB * 105 / 100)) ]
}

@test "files1m read after a cache drop: every file read back whole with its block stamps, all from the device" {
	[ "$(phase files1m read .cache)" = dropped ]
	[ "$(phase files1m read .metrics.files1m.files_verified)" -eq $FILES1M ]
	[ "$(phase files1m read .workload.bytes)" -eq $((FILES1M * MIB)) ]
	bytes=$(phase files1m read .block.classes.read.bytes)
	echo "device read bytes: $bytes"
	[ "$bytes" -ge $((FILES1M * MIB)) ]
}

@test "files1m remove: every file unlinked and the directory re-read empty before its rmdir" {
	[ "$(phase files1m remove .metrics.files1m.files_removed)" -eq $FILES1M ]
	[ "$(phase files1m remove .metrics.files1m.files_left)" -eq 0 ]
	[ "$(phase files1m remove .histograms.op.unlink_ns.count)" -eq $FILES1M ]
	[ "$(phase files1m remove .histograms.op.rmdir_ns.count)" -eq 1 ]
	[ "$(phase files1m remove .histograms.op.sync_ns.count)" -eq 1 ]
}

@test "mdcreate create: N empty files, files/s = files / wall including the closing syncfs" {
	[ "$(phase mdcreate create .workload.files)" -eq $MDCREATE ]
	[ "$(phase mdcreate create .workload.bytes)" -eq 0 ]
	[ "$(phase mdcreate create .histograms.op.create_ns.count)" -eq $MDCREATE ]
	[ "$(phase mdcreate create .histograms.op.mkdir_ns.count)" -eq 5 ]
	[ "$(phase mdcreate create .histograms.op.sync_ns.count)" -eq 1 ]
	run jq -e '.cases[0].phases[] | select(.name=="create") |
		((.workload.files_per_s - .workload.files / (.wall_ns / 1e9)) | fabs) < 1e-6' \
		"$SCRATCH.mdcreate.json"
	[ "$status" -eq 0 ]
	# creates dirty inodes and directory blocks: the device must see writes
	[ "$(phase mdcreate create .block.classes.write.ios)" -gt 0 ]
}

@test "mdcreate remove: every file unlinked, every directory removed, none left" {
	[ "$(phase mdcreate remove .metrics.mdcreate.files_removed)" -eq $MDCREATE ]
	[ "$(phase mdcreate remove .metrics.mdcreate.files_left)" -eq 0 ]
	[ "$(phase mdcreate remove .histograms.op.rmdir_ns.count)" -eq 5 ]
}

@test "fsync cycles: one fsync per append, each reaching the device with a cache flush" {
	fsyncs=$((FSYNC_FILES * FSYNC_APPENDS))
	[ "$(phase fsync cycles .workload.files)" -eq $FSYNC_FILES ]
	[ "$(phase fsync cycles .histograms.op.fsync_ns.count)" -eq $fsyncs ]
	# 16 KiB per append, each file read back once
	[ "$(phase fsync cycles .workload.bytes)" -eq $((fsyncs * 16384 * 2)) ]
	flushes=$(phase fsync cycles .block.classes.flush.ios)
	echo "fsyncs $fsyncs, device flushes $flushes"
	[ "$flushes" -ge "$fsyncs" ]
	[ "$(phase fsync remove .metrics.fsync.files_left)" -eq 0 ]
	[ "$(phase fsync remove .metrics.fsync.files_removed)" -eq $FSYNC_FILES ]
}

@test "every rate equals bytes or files / wall of the same phase, in the JSON and in the text table" {
	for name in files1m mdcreate fsync; do
		run jq -e '[.cases[0].phases[] | select(.wall_ns > 0) |
			((.workload.mb_per_s - .workload.bytes / 1e6 / (.wall_ns / 1e9)) | fabs) < 1e-6 and
			((.workload.files_per_s - .workload.files / (.wall_ns / 1e9)) | fabs) < 1e-6] | all' \
			"$SCRATCH.$name.json"
		[ "$status" -eq 0 ]
	done
	# the table's MB/s column (the third) is the JSON's, to its one decimal
	for p in create read remove; do
		want=$(phase files1m "$p" '.workload.mb_per_s * 10 | round / 10')
		# the row under the table's header: a verdict line of a phase
		# of 0.5 s or more ("create    513.4 ms: ...", no short mark)
		# has a number second too
		got=$(awk -v p="$p" '$1 == "phase" && $2 == "wall" { t = 1 }
			t && $1 == p && $2 ~ /^[0-9.]+$/ { print $3; exit }' \
			"$SCRATCH.files1m.out")
		echo "$p: table $got, JSON $want"
		[ -n "$got" ]
		awk -v a="$got" -v b="$want" 'BEGIN { exit !((a - b) ^ 2 < 0.0025) }'
	done
}
