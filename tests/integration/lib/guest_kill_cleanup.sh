# Part of raid_dm_guest.bats's guest script (busybox sh, in the guest, after
# the guest's own fsprof run): an fsprof run on dm-linear on an md RAID1 of
# two members, each on a throttled lower loop (a target's model=), killed
# with SIGKILL in its write phase, then fsprof cleanup. What the kernel
# shows of fsprof's md arrays, dm devices, loop devices, mounts and blkio
# throttle rules after the kill and after the cleanup, as "kill9:" lines.
# The host sees them at the end of the guest's run.log, which it prints
# when the guest's fsprof exited non-zero (the file's two failing targets).

# md=[..] dm=[..] loops=[..] mounts=N throttles=N, all of the guest's
kill9_devices() {
	local md dm loops l
	md=$(ls /sys/block | grep '^md' | tr '\n' ' ')
	dm=$(ls /sys/block | grep '^dm-' | tr '\n' ' ')
	loops=
	for l in /sys/block/loop*; do
		[ -e "$l/loop/backing_file" ] && loops="$loops${l##*/} "
	done
	echo "md=[${md% }] dm=[${dm% }] loops=[${loops% }]" \
		"mounts=$(grep -c " $1" /proc/mounts)" \
		"throttles=$(cat /sys/fs/cgroup/blkio/blkio.throttle.*_device | grep -c .)"
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
