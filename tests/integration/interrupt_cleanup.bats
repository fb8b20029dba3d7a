#!/usr/bin/env bats
# A run stopped by a signal tears everything down and says it was interrupted.

load helpers

setup() {
	scratch_create
	export FSPROF_DB="$SCRATCH.db"
}

teardown() {
	rm -f "$SCRATCH".db*
	scratch_remove
}

# start a long run (run options $3..., default --size 4G), wait for phase $1
# to begin, send signal $2, then wait. "phase NAME ..." is logged after the
# phase's untimed prepare step, as its body begins (progress_phase_begin):
# a signal any time after it lands in the phase; 0.2 s puts it inside a
# write(2) or read(2) of the body (1 s before session 17: 0.8 s a kill)
interrupt_during_phase() {
	local phase=$1 sig=$2
	shift 2
	[ $# -gt 0 ] || set -- --size 4G
	"$FSPROF" run "$@" --scratch "$SCRATCH" --json "$SCRATCH.json" \
		>"$SCRATCH.out" 2>"$SCRATCH.err" &
	pid=$!
	wait_for "grep -q 'phase $phase' '$SCRATCH.err'" 120
	sleep 0.2
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

# the reader of fsprof's output goes away (| head): its next log line is a
# SIGPIPE, whose default action killed fsprof with the mount, loop device
# and BPF programs in place
@test "the output pipe closed mid-run (-v 2>&1 | head -n 1): torn down, nothing left behind, exit 141" {
	local codes
	codes=$("$FSPROF" run -v -w seqio:size=64M --fs ext4 --scratch "$SCRATCH" \
		--json "$SCRATCH.json" 2>&1 | head -n 1 >"$SCRATCH.out"
		echo "${PIPESTATUS[@]}")
	cat "$SCRATCH.out"
	echo "exit codes: $codes"
	[ "${codes%% *}" -eq 141 ]
	wait_for "leftovers '$SCRATCH' >/dev/null" 5 || true
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	rm -f "$SCRATCH.out" "$SCRATCH.json"
}

# reads held to 32 MB/s: the read phase lasts 8 s however fast the disk (a
# 4 GiB write before it took 30-45 s of the file's time), and the model's
# engine (FUSE mount, daemon, lower loop) is more for the teardown to take
# away
@test "SIGTERM during the read phase tears down, exits 143 and keeps the finished write phase, marked incomplete" {
	run interrupt_during_phase read TERM -w seqio:size=256M --device-model custom:rbps=32M
	cat "$SCRATCH.err"
	[ "$status" -eq 143 ]
	wait_for "leftovers '$SCRATCH' >/dev/null" 5 || true
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	lower=$(jqr "$SCRATCH.json" '.cases[0].target.device_model_stack.throttled_dev')
	[[ "$lower" =~ ^[0-9]+:[0-9]+$ ]]
	[ "$(jqr "$SCRATCH.json" '.complete')" = false ]
	[ "$(jqr "$SCRATCH.json" '.interrupted')" = true ]
	[ "$(jqr "$SCRATCH.json" '[.cases[0].phases[].name] | join(",")')" = write ]
	rm -f "$SCRATCH.out" "$SCRATCH.err" "$SCRATCH.json"
}

# process $1 has exited: gone, or a zombie not yet reaped (a killed run's
# command is reparented to PID 1, which here reaps it 1.2-1.7 s later; it
# let go of its working directory, and with it the mount, as it exited)
exited() {
	! kill -0 "$1" 2>/dev/null ||
		[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# the loop devices backed by $1 (a file or a loop device), one per line
loops_backed_by() {
	local f
	for f in /sys/block/loop*/loop/backing_file; do
		[ -e "$f" ] || continue
		[ "$(sed 's/ (deleted)$//' "$f")" = "$1" ] &&
			echo "/dev/$(basename "$(dirname "$(dirname "$f")")")"
	done
	return 0
}

# O_DIRECT writes: the run is killed in a write(2) of one modelled 4 KiB
# request (the write phase would last a minute and more) and dies at
# once. The engine's daemon outlives it, serving the filesystem above
# until fsprof cleanup has unmounted it; then cleanup unmounts the FUSE
# file system and stops the daemon.
@test "after kill -9 in a phase under --device-model hdd, the next run names fsprof cleanup, which removes both loop devices, the mounts, the model's daemon and the image" {
	"$FSPROF" run -w seqio:size=2G,direct=yes --device-model hdd --scratch "$SCRATCH" \
		>"$SCRATCH.out" 2>"$SCRATCH.err" &
	pid=$!
	wait_for "grep -q 'phase write' '$SCRATCH.err'" 120
	sleep 0.2 # in the body, as interrupt_during_phase's
	image=$(ls "$SCRATCH"/fsprof.*/image)
	lower=$(loops_backed_by "$(dirname "$image")/model/disk")
	upper=$(loops_backed_by "$lower")
	daemon=$(for p in $(pgrep -x fsprof-model); do
		[[ "$(readlink "/proc/$p/cwd" 2>/dev/null)" == "$SCRATCH/"* ]] && echo "$p"
	done; true)
	kill -KILL "$pid"
	wait "$pid" || true
	# what a killed run leaves: the kernel keeps all of it, and the daemon
	# goes on serving
	[ -n "$lower" ]
	[ -n "$upper" ]
	[ -n "$daemon" ]
	kill -0 "$daemon"
	grep -q " $SCRATCH/" /proc/mounts
	grep -q "fuse.fsprof-model" /proc/mounts
	[ -f "$image" ]
	ls "$SCRATCH"/fsprof-"$pid".state

	run "$FSPROF" run -q -w seqio:size=1M --no-trace --scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"a dead fsprof run (pid $pid) left "*" thing(s) behind: "*"mount on $SCRATCH/"* ]]
	[[ "$output" == *"remove them with 'fsprof cleanup --scratch $SCRATCH'"* ]]

	run "$FSPROF" cleanup --scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"removed mount on $SCRATCH/"* ]]
	[[ "$output" == *"removed device model's FUSE mount on $SCRATCH/"* ]]
	[[ "$output" == *"removed device model's daemon (pidfile $SCRATCH/"* ]]
	wait_for "! kill -0 $daemon 2>/dev/null" 5
	if grep -q "fuse.fsprof-model.* $SCRATCH/" /proc/mounts; then
		false
	fi
	wait_for "[ -z \"\$(loops_backed_by '$lower')\" ]" 5
	[ -z "$(loops_backed_by "$image")" ]
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	rm -f "$SCRATCH.out" "$SCRATCH.err"
}

@test "after kill -9 of fsprof trace, fsprof cleanup removes the command's cgroup, moving the command, still running, out of it" {
	"$FSPROF" trace --fs ext4 --scratch "$SCRATCH" -- sleep 60 \
		>"$SCRATCH.out" 2>"$SCRATCH.err" &
	pid=$!
	wait_for "[ -n \"\$(find /sys/fs/cgroup -maxdepth 3 -name fsprof-trace-$pid)\" ]" 60
	cg=$(find /sys/fs/cgroup -maxdepth 3 -name "fsprof-trace-$pid")
	# joined before it execs: sleep once the tracer is up
	wait_for "[ \"\$(cat /proc/\$(head -1 '$cg/cgroup.procs')/comm)\" = sleep ]" 60
	cmd=$(head -1 "$cg/cgroup.procs")
	kill -KILL "$pid"
	wait "$pid" || true
	[ -d "$cg" ]
	run "$FSPROF" cleanup --scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"removed cgroup $cg (run $pid)"* ]]
	[ ! -d "$cg" ]
	# the user's command is not fsprof's to end; its working directory
	# holds the mount, detached lazily at once (not after a futile 5 s
	# wait), naming it: the loop device goes with it
	[[ "$output" == *"/mnt is held by pid $cmd (sleep); detaching it lazily"* ]]
	kill -0 "$cmd"
	kill "$cmd"
	wait_for "exited $cmd" 10
	wait_for "leftovers '$SCRATCH' >/dev/null" 10 || true
	run leftovers "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	rm -f "$SCRATCH.out" "$SCRATCH.err"
}

@test "fsprof cleanup leaves a run that is still alive alone" {
	"$FSPROF" run -w seqio:size=2G --device-model hdd --scratch "$SCRATCH" \
		>"$SCRATCH.out" 2>"$SCRATCH.err" &
	pid=$!
	wait_for "grep -q 'phase write' '$SCRATCH.err'" 120
	run "$FSPROF" cleanup --scratch "$SCRATCH"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"0 thing(s) removed"* ]]
	grep -q " $SCRATCH/" /proc/mounts
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 130 ]
	wait_for "leftovers '$SCRATCH' >/dev/null" 5 || true
	run leftovers "$SCRATCH"
	[ "$status" -eq 0 ]
	rm -f "$SCRATCH.out" "$SCRATCH.err"
}

@test "fsprof cleanup removes only what it can prove a dead run's: not a loop device on another file, a mount outside the scratch directory, nor a process a pidfile names that is no model daemon" {
	other=$(mktemp /var/tmp/fsprof-other.XXXXXX)
	truncate -s 64M "$other"
	loop=$(losetup -f --show "$other")
	sleep 60 &
	sleeper=$!
	echo "$sleeper $(awk '{ print $22 }' /proc/$sleeper/stat)" >"$SCRATCH/model.pid"
	outside=$(mktemp -d /var/tmp/fsprof-outside.XXXXXX)
	mount -t tmpfs -o size=1m tmpfs "$outside"
	# a dead run (start time 1 is no process's) claiming both
	cat >"$SCRATCH/fsprof-$$.state" <<-END
	fsprof-state 1
	pid $$
	start 1
	boot $(cat /proc/sys/kernel/random/boot_id)
	cwd /
	scratch $SCRATCH
	+ 1 loop $other
	+ 2 mount $outside
	+ 3 model $outside
	+ 4 model-daemon $SCRATCH/model.pid
	END
	run "$FSPROF" cleanup --scratch "$SCRATCH"
	echo "$output"
	ok=1
	[ "$(loops_backed_by "$other")" = "$loop" ] || ok=0
	mountpoint -q "$outside" || ok=0
	kill -0 "$sleeper" || ok=0
	kill "$sleeper"
	umount "$outside"
	losetup -d "$loop"
	rm -rf "$other" "$outside"
	[ "$ok" -eq 1 ]
	[ "$status" -eq 0 ]
	# the pidfile below the scratch directory is the run's to remove, the
	# process it names (no model daemon) is not
	[[ "$output" == *"removed device model's daemon (pidfile $SCRATCH/model.pid)"* ]]
	[[ "$output" == *"1 thing(s) removed"* ]]
	[ ! -e "$SCRATCH/model.pid" ]
	[ ! -e "$SCRATCH/fsprof-$$.state" ]
}

@test "fsprof cleanup with an unknown option is a usage error that creates nothing" {
	run "$FSPROF" cleanup --frob --scratch "$SCRATCH"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown option '--frob' for cleanup"* ]]
	[ -z "$(ls -A "$SCRATCH")" ]
}

# 20,000 files each with its fsync: the phase lasts well over the 0.2 s
# the kill waits for
@test "after kill -9 of a --dir run, fsprof cleanup removes the work directory, and nothing else in the directory" {
	truncate -s 1G "$SCRATCH.disk"
	disk=$(losetup -f --show "$SCRATCH.disk")
	mkfs.ext4 -q "$disk"
	mkdir "$SCRATCH.mnt"
	mount "$disk" "$SCRATCH.mnt"
	echo keep >"$SCRATCH.mnt/theirs"
	"$FSPROF" run -w fsync:files=20000 --dir "$SCRATCH.mnt" \
		--scratch "$SCRATCH" >"$SCRATCH.out" 2>"$SCRATCH.err" &
	pid=$!
	wait_for "grep -q 'phase cycles' '$SCRATCH.err'" 120
	sleep 0.2
	kill -KILL "$pid"
	wait "$pid" || true
	wait_for "[ ! -d /proc/$pid ]" 10
	ls -d "$SCRATCH.mnt"/fsprof.*

	run "$FSPROF" cleanup --scratch "$SCRATCH"
	echo "$output"
	ok=1
	[ "$status" -eq 0 ] || ok=0
	[[ "$output" == *"removed directory $SCRATCH.mnt/fsprof."* ]] || ok=0
	[ "$(ls -A "$SCRATCH.mnt" | grep -v lost+found)" = theirs ] || ok=0
	[ -z "$(ls -A "$SCRATCH")" ] || ok=0
	umount "$SCRATCH.mnt"
	rmdir "$SCRATCH.mnt"
	losetup -d "$disk"
	rm -f "$SCRATCH.disk" "$SCRATCH.out" "$SCRATCH.err"
	[ "$ok" -eq 1 ]
}

@test "fsprof cleanup never follows a state file out of its directory: not through a symlinked run directory, not for another scratch directory, not from a file others can write" {
	victim="$SCRATCH.victim"
	mkdir -p "$victim/fsprof.evil"
	echo precious >"$victim/fsprof.evil/image"
	ln -s "$victim/fsprof.evil" "$SCRATCH/fsprof.evil"
	state() {
		printf 'fsprof-state 1\npid %s\nstart 1\nboot %s\ncwd /\nscratch %s\n+ 1 image %s\n' \
			"$1" "$(cat /proc/sys/kernel/random/boot_id)" "$2" "$3"
	}
	state $$ "$SCRATCH" "$SCRATCH/fsprof.evil/image" >"$SCRATCH/fsprof-1.state"
	state $$ "$victim" "$victim/fsprof.evil/image" >"$SCRATCH/fsprof-2.state"
	state $$ "$SCRATCH" "$SCRATCH/fsprof.evil/image" >"$SCRATCH/fsprof-3.state"
	chmod 666 "$SCRATCH/fsprof-3.state"
	run "$FSPROF" cleanup --scratch "$SCRATCH"
	echo "$output"
	ok=1
	[ "$(cat "$victim/fsprof.evil/image")" = precious ] || ok=0
	[[ "$output" == *"records the scratch directory $victim, not $SCRATCH: left alone"* ]] || ok=0
	[[ "$output" == *"fsprof-3.state is not this user's own file, or others can write it: left alone"* ]] || ok=0
	rm -rf "$victim" "$SCRATCH"/fsprof-*.state "$SCRATCH/fsprof.evil"
	[ "$ok" -eq 1 ]
}
