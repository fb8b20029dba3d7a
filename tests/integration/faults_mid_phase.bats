#!/usr/bin/env bats
# A phase that fails on a full or read-only filesystem is reported failed
# with its error; the run goes on with the next case, writes its results
# marked incomplete, and leaves nothing behind.

load helpers

setup() {
	scratch_create
	JSON="$SCRATCH.json"
	export FSPROF_DB="$SCRATCH.db"
}

teardown() {
	rm -f "$JSON" "$SCRATCH.out" "$SCRATCH.err" "$SCRATCH".db*
	scratch_remove
}

# the block device, mount point and type of the filesystem fsprof mounted
# below the scratch directory
target_mount() {
	awk -v s="$SCRATCH/" 'index($2, s) == 1 && $3 != "fuse.fsprof-model" { print $1, $2, $3 }' /proc/mounts
}

# run fsprof in the background, wait for phase $1 of fstype $2, do $3 to it.
# The faulted target's writes are held to 64 MB/s (--device-model
# custom:wbps=64M): its 256 MiB write phase lasts 4 s, and the fault lands
# in the middle of it. The next target, which only has to run to its end,
# has no model (model=none): with it, it wrote 4 s more at 64 MB/s.
fault_during_phase() {
	local phase=$1 fstype=$2 fault=$3 dev mnt type
	shift 3
	"$FSPROF" run --scratch "$SCRATCH" --json "$JSON" "$@" \
		>"$SCRATCH.out" 2>"$SCRATCH.err" &
	pid=$!
	wait_for "target_mount | grep -q ' $fstype\$' && grep -q 'phase $phase' '$SCRATCH.err'" 120
	sleep 0.5
	read -r dev mnt type < <(target_mount)
	case $fault in
	shutdown) xfs_io -x -c shutdown "$mnt" ;;
	ext4-error) echo "fsprof test" >/sys/fs/ext4/"${dev#/dev/}"/trigger_fs_error ;;
	esac
	status=0
	wait "$pid" || status=$?
}

@test "ENOSPC in the write phase fails that phase with the error, the next workload still runs, and the JSON and the history are written marked incomplete" {
	run "$FSPROF" run --scratch "$SCRATCH" --json "$JSON" --image-size 512M \
		-w seqio:size=700M -w seqio:size=16M --fs ext4
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"No space left on device"* ]]
	[[ "$output" == *"seqio on ext4: phase write failed"* ]]
	[ "$(jqr "$JSON" '.complete')" = false ]
	[ "$(jqr "$JSON" '.cases | length')" -eq 2 ]
	[ "$(jqr "$JSON" '.cases[0].complete')" = false ]
	[ "$(jqr "$JSON" '.cases[0].failed_phase')" = write ]
	[[ "$(jqr "$JSON" '.cases[0].error')" == "phase write: "*"No space left on device"* ]]
	[ "$(jqr "$JSON" '.cases[1].complete')" = true ]
	[ "$(jqr "$JSON" '[.cases[1].phases[].name] | join(",")')" = write,read,delete ]
	[ "$(sqlite3 "$FSPROF_DB" 'SELECT complete, n_cases FROM runs')" = "0|2" ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "an XFS shut down in the middle of the write phase fails that phase, the next target still runs, and nothing is left" {
	fault_during_phase write xfs shutdown -w seqio:size=256M \
		--fs xfs,ext4:model=none --device-model custom:wbps=64M
	cat "$SCRATCH.err"
	[ "$status" -eq 1 ]
	grep -q "seqio on xfs: phase write failed" "$SCRATCH.err"
	[ "$(jqr "$JSON" '.complete')" = false ]
	[ "$(jqr "$JSON" '.cases[0].failed_phase')" = write ]
	[[ "$(jqr "$JSON" '.cases[0].error')" == "phase write: "*"Input/output error"* ]]
	[ "$(jqr "$JSON" '.cases[1].target.fstype')" = ext4 ]
	[ "$(jqr "$JSON" '.cases[1].complete')" = true ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "an ext4 remounted read-only by an error in the middle of the write phase fails that phase with EROFS, and nothing is left" {
	fault_during_phase write ext4 ext4-error -w seqio:size=256M \
		--fs ext4:mount=errors=remount-ro,xfs:model=none --device-model custom:wbps=64M
	cat "$SCRATCH.err"
	[ "$status" -eq 1 ]
	grep -q "phase write failed" "$SCRATCH.err"
	[ "$(jqr "$JSON" '.cases[0].failed_phase')" = write ]
	[[ "$(jqr "$JSON" '.cases[0].error')" == "phase write: "*"Read-only file system"* ]]
	[ "$(jqr "$JSON" '.cases[1].complete')" = true ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
}
