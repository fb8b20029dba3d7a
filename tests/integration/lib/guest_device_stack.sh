# Part of raid_dm_guest.bats's guest script (busybox sh, in the guest, after
# the guest's own fsprof run): --device with --raid and --dm on the user's
# own block devices. Two loop devices over files in /scratch stand for two
# disks; fsprof run --device A,B --raid 1:2 --force makes the md array of
# them, then --device A --dm linear --force a dm-linear device on one. What
# the report says of each stack and of its members' writes, and what is
# left after (md arrays, dm devices, mounts, the two loops and their
# backing files, an md superblock on either), as "devstack:" lines at the
# end of the guest's run.log, which the host prints (it keeps the last 8).

DS=/scratch/ds

# "md200 (md raid1) | write: loop0 8.4 / 0.0 1.2 ms, loop1 ..." of a report
devstack_figures() {
	local layout write
	layout=$(tr '\n' ' ' <"$1" | grep -o 'repeat 1): [^;]*;' | head -n 1)
	layout=${layout#repeat 1): }
	write=$(grep -m 1 '^    write: ' "$1" | sed 's/^ *//')
	echo "layout=[${layout%;}] $write"
}

# what is left: md, dm, mounts of the run, our two loops and their files,
# and whether mdadm still finds an md superblock on either
devstack_left() {
	local md dm l sb=
	md=$(ls /sys/block | grep '^md' | tr '\n' ' ')
	dm=$(ls /sys/block | grep '^dm-' | tr '\n' ' ')
	for l in "$DS_A" "$DS_B"; do
		if mdadm --examine "$l" >/dev/null 2>&1; then
			sb="${sb}md "
		else
			sb="${sb}none "
		fi
	done
	echo "md=[${md% }] dm=[${dm% }] mounts=$(grep -c " $DS" /proc/mounts)" \
		"a=${DS_A#/dev/}:$(cat "/sys/block/${DS_A#/dev/}/loop/backing_file")" \
		"b=${DS_B#/dev/}:$(cat "/sys/block/${DS_B#/dev/}/loop/backing_file")" \
		"sb=[${sb% }] left=[$(ls -A "$DS/s" | tr '\n' ' ')]"
}

devstack_run() {
	local rc1=0 rc2=0
	mkdir -p "$DS/s"
	truncate -s 96M "$DS/a.img" "$DS/b.img"
	DS_A=$(losetup -f) && losetup "$DS_A" "$DS/a.img" &&
		DS_B=$(losetup -f) && losetup "$DS_B" "$DS/b.img" || {
		echo "devstack: no loop devices: $(losetup -a | tr '\n' ' ')"
		return 1
	}
	/fsprof run --no-db -w seqio:size=8M --device "$DS_A,$DS_B" \
		--raid 1:2 --force --scratch "$DS/s" >"$DS/r1.out" 2>&1 || rc1=$?
	echo "devstack: r1 exited $rc1: $(devstack_figures "$DS/r1.out")"
	/fsprof run --no-db -w seqio:size=8M --device "$DS_A" --dm linear \
		--force --scratch "$DS/s" >"$DS/lin.out" 2>&1 || rc2=$?
	echo "devstack: lin exited $rc2: $(devstack_figures "$DS/lin.out")"
	[ "$rc1$rc2" = 00 ] ||
		echo "devstack: failed: $(tail -n 3 "$DS/r1.out" "$DS/lin.out" | tr '\n' ' ')"
	echo "devstack: after: $(devstack_left)"
	losetup -d "$DS_A"
	losetup -d "$DS_B"
	rm -f "$DS/a.img" "$DS/b.img"
}
