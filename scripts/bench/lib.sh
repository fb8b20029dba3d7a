# Shared by the benchmarks: a private ext4 loop filesystem, cleanup on exit,
# and the median of ratios. Source it; run as root after `make`.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FSPROF=${FSPROF:-$top/build/fsprof}
BENCH_DIR=$(mktemp -d /var/tmp/fsprof-bench.XXXXXX)
BENCH_LOOP=
BENCH_SHM=
# short: fs_mark overflows a fixed buffer on long paths
BENCH_MNT=$(mktemp -d /tmp/fsb.XXXX)

bench_cleanup() {
	mountpoint -q "$BENCH_MNT" && umount "$BENCH_MNT"
	[ -n "$BENCH_LOOP" ] && losetup -d "$BENCH_LOOP"
	rm -rf --one-file-system "$BENCH_DIR"
	[ -n "$BENCH_SHM" ] && rm -rf --one-file-system "$BENCH_SHM"
	rmdir "$BENCH_MNT" 2>/dev/null || true
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

# an ext4 filesystem of $1 on a direct-IO loop device, mounted on BENCH_MNT;
# $2 = memory: its image in tmpfs (/dev/shm), not on the host disk
bench_fs() {
	local image=$BENCH_DIR/image
	if [ "${2:-}" = memory ]; then
		BENCH_SHM=$(mktemp -d /dev/shm/fsprof-bench.XXXXXX)
		image=$BENCH_SHM/image
	fi
	truncate -s "$1" "$image"
	BENCH_LOOP=$(losetup -f --show --direct-io=on "$image")
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$BENCH_LOOP"
	mkdir -p "$BENCH_MNT"
	mount "$BENCH_LOOP" "$BENCH_MNT"
}

# the output of command $1 (a shell command), once it is not empty and has
# stayed the same for 0.5 s (a tool's programs all loaded or attached); up
# to 60 s, else nothing and 1
settled() {
	local now last= same=0
	for _ in $(seq 600); do
		now=$(eval "$1")
		if [ -n "$now" ] && [ "$now" = "$last" ]; then
			same=$((same + 1))
			[ "$same" -ge 5 ] && { echo "$now"; return 0; }
		else
			same=0
		fi
		last=$now
		sleep 0.1
	done
	return 1
}

drop_caches() {
	sync -f "$BENCH_MNT"
	echo 3 >/proc/sys/vm/drop_caches
}

now_ns() {
	date +%s%N
}

# median, min and max of the numbers on stdin
median() {
	python3 -c 'import statistics, sys
v = [float(x) for x in sys.stdin.read().split()]
print("median %.3f (min %.3f, max %.3f, n %d)" % (statistics.median(v), min(v), max(v), len(v)))'
}
