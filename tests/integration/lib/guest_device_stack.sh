# Part of raid_dm_guest.bats's guest script (busybox sh, in the guest, after
# the guest's own fsprof run): --device with --raid and --dm on the user's
# own block devices. Two loop devices over files in /scratch stand for two
# disks; fsprof run --device A,B --raid 1:2 --force makes the md array of
# them, then --device A --dm linear --force a dm-linear device on one, each
# twice (--repeat 2: the second builds its stack again on the devices the
# first's teardown gave back; two cases give the report its "stacked
# targets" section, whose repeat 1 lines are read here); then
# a third run on the array (seqio 64M, O_DIRECT: seconds under TCG) is
# killed with SIGKILL 1 s into its write phase and fsprof cleanup removes
# what it left. What the reports say of each stack and of its members'
# writes, and what is left after (md arrays, dm devices, mounts, the two
# loops and their backing files, an md superblock on either), as
# two "devstack:" lines in the guest's run.log, before kill9_cleanup's: the
# host prints the last 8 lines of it.

DS=/scratch/ds

# "md200 (md raid1) | write: loop0 8.4 / 0.0 1.2 ms, loop1 ..." of a report
devstack_figures() {
	local layout write
	layout=$(tr '\n' ' ' <"$1" | grep -o 'repeat 1): [^;]*;' | head -n 1)
	layout=${layout#repeat 1): }
	write=$(grep -m 1 '^    write: ' "$1" | sed 's/^ *//')
	echo "layout=[${layout%;}] $write"
}

# md=[..] dm=[..] mounts=N (below scratch dir $1)
devstack_devices() {
	local md dm
	md=$(ls /sys/block | grep '^md' | tr '\n' ' ')
	dm=$(ls /sys/block | grep '^dm-' | tr '\n' ' ')
	echo "md=[${md% }] dm=[${dm% }] mounts=$(grep -c " $1" /proc/mounts)"
}

# what is left: the above, our two loops and their files, whether mdadm
# still finds an md superblock on either, what scratch dir $1 holds
devstack_left() {
	local l sb=
	for l in "$DS_A" "$DS_B"; do
		if mdadm --examine "$l" >/dev/null 2>&1; then
			sb="${sb}md "
		else
			sb="${sb}none "
		fi
	done
	echo "$(devstack_devices "$1")" \
		"a=${DS_A#/dev/}:$(cat "/sys/block/${DS_A#/dev/}/loop/backing_file")" \
		"b=${DS_B#/dev/}:$(cat "/sys/block/${DS_B#/dev/}/loop/backing_file")" \
		"sb=[${sb% }] left=[$(ls -A "$1" | tr '\n' ' ')]"
}

# the RAID1 run killed in its write phase, then fsprof cleanup: one line
devstack_kill9() {
	local k=$DS/k pid i=0 rc=0 crc=0 killed
	mkdir -p "$k"
	/fsprof run --no-trace --no-db -w seqio:size=64M,direct=yes \
		--device "$DS_A,$DS_B" --raid 1:2 --force --scratch "$k" \
		>"$k.out" 2>&1 &
	pid=$!
	while ! grep -q 'phase write' "$k.out" && [ $i -lt 1200 ]; do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	kill -9 "$pid"
	wait "$pid" || rc=$?
	killed=$(devstack_devices "$k")
	/fsprof cleanup --scratch "$k" >"$k.cleanup" 2>&1 || crc=$?
	echo "devstack: kill9 ($rc): $killed; cleanup exited $crc:" \
		"$(grep -c '^removed ' "$k.cleanup") removed; after: $(devstack_left "$k")"
}

devstack_run() {
	local rc1=0 rc2=0 line
	# --device's lock lives in /run/fsprof, as on any system; the guest's
	# initramfs has no /run
	mkdir -p "$DS/s" /run
	truncate -s 96M "$DS/a.img" "$DS/b.img"
	DS_A=$(losetup -f) && losetup "$DS_A" "$DS/a.img" &&
		DS_B=$(losetup -f) && losetup "$DS_B" "$DS/b.img" || {
		echo "devstack: no loop devices: $(losetup -a | tr '\n' ' ')"
		return 1
	}
	/fsprof run --no-db -w seqio:size=8M --repeat 2 \
		--device "$DS_A,$DS_B" --raid 1:2 --force --scratch "$DS/s" \
		>"$DS/r1.out" 2>&1 || rc1=$?
	# one line for both runs and what they left, one for the kill: the
	# host prints only the last 8 lines of the guest's run.log
	line="devstack: r1 exited $rc1: $(devstack_figures "$DS/r1.out")"
	/fsprof run --no-db -w seqio:size=8M --repeat 2 --device "$DS_A" \
		--dm linear --force --scratch "$DS/s" >"$DS/lin.out" 2>&1 || rc2=$?
	line="$line; lin exited $rc2: $(devstack_figures "$DS/lin.out")"
	[ "$rc1$rc2" = 00 ] ||
		line="$line; failed: $(tail -n 3 "$DS/r1.out" "$DS/lin.out" | tr '\n' ' ')"
	echo "$line; after: $(devstack_left "$DS/s")"
	devstack_kill9
	losetup -d "$DS_A"
	losetup -d "$DS_B"
	rm -f "$DS/a.img" "$DS/b.img"
}
