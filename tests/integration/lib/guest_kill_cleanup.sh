# Part of raid_dm_guest.bats's guest script (busybox sh, in the guest, after
# the guest's own fsprof run): an fsprof run on dm-linear on an md RAID1 of
# two members, each a disk of the model (a target's model=: a lower loop
# on a FUSE file its own daemon serves), killed with SIGKILL in its write
# phase, then fsprof cleanup. What the kernel shows of fsprof's md arrays,
# dm devices, loop devices, mounts, model FUSE mounts and daemons after
# the kill and after the cleanup, as "kill9:" lines.
# The host sees them at the end of the guest's run.log, which it prints
# when the guest's fsprof exited non-zero (the file's two failing targets).

# md=[..] dm=[..] loops=[..] mounts=N models=N daemons=N, all of the guest's
kill9_devices() {
	local md dm loops l c daemons=0
	md=$(ls /sys/block | grep '^md' | tr '\n' ' ')
	dm=$(ls /sys/block | grep '^dm-' | tr '\n' ' ')
	loops=
	for l in /sys/block/loop*; do
		[ -e "$l/loop/backing_file" ] && loops="$loops${l##*/} "
	done
	for c in /proc/[0-9]*/comm; do
		[ "$(cat "$c" 2>/dev/null)" = fsprof-model ] && daemons=$((daemons + 1))
	done
	echo "md=[${md% }] dm=[${dm% }] loops=[${loops% }]" \
		"mounts=$(grep " $1" /proc/mounts | grep -vc fuse.fsprof-model)" \
		"models=$(grep " $1" /proc/mounts | grep -c fuse.fsprof-model)" \
		"daemons=$daemons"
}

kill9_cleanup() {
	local k9=/scratch/k9 pid i=0 rc=0
	mkdir -p "$k9"
	/fsprof run --no-trace --no-db -w seqio:size=64M,direct=yes \
		--fs "k=ext4:raid='1:2':dm=linear:model='custom:wiops=50'" \
		--image-size 128M --scratch "$k9" >"$k9.out" 2>&1 &
	pid=$!
	while ! grep -q 'phase write' "$k9.out" && [ $i -lt 1200 ]; do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	grep -q 'phase write' "$k9.out" || {
		echo "kill9: no write phase: $(tail -n 3 "$k9.out" | tr '\n' ' ')"
		kill -9 "$pid"
	}
	sleep 1
	kill -9 "$pid"
	wait "$pid"
	echo "kill9: killed ($?): $(kill9_devices "$k9")"
	/fsprof cleanup --scratch "$k9" >"$k9.cleanup" 2>&1 || rc=$?
	echo "kill9: cleanup exited $rc: $(tail -n 1 "$k9.cleanup")"
	echo "kill9: after cleanup: $(kill9_devices "$k9")" \
		"left=[$(ls -A "$k9" | tr '\n' ' ')]"
}
