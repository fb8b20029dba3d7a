#!/usr/bin/env bash
# fsprof's bonnie workload against bonnie++ itself: block output and block
# input throughput (K/sec from the CSV lines), in interleaved A/B pairs on
# the same ext4 filesystem on a direct-IO loop device this script makes.
# Prints each pair and the median ratio fsprof / bonnie++ (target >= 0.95).
#
# bonnie++ does not drop caches: it relies on a file of twice RAM. To keep
# its reads off the page cache with a file that fits this machine, both tools
# run in a memory cgroup of MEM_LIMIT (page cache is charged to the cgroup).
#
# usage (root): scripts/bench/bonnie-vs-bonnie++.sh
#   FSPROF=build/fsprof SIZE_MIB=1024 PAIRS=5 MEM_LIMIT=256M SCRATCH=/var/tmp
#   NO_TRACE=1: run fsprof without kernel tracing
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
FSPROF=${FSPROF:-$top/build/fsprof}
SIZE_MIB=${SIZE_MIB:-1024}
PAIRS=${PAIRS:-5}
MEM_LIMIT=${MEM_LIMIT:-256M}
SCRATCH=${SCRATCH:-/var/tmp}
trace_opt=()
[ -n "${NO_TRACE:-}" ] && trace_opt=(--no-trace)

die() {
	echo "bonnie-vs-bonnie++: $*" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || die "needs root (loop device, mount, cgroup, bonnie++ -u root)"
command -v bonnie++ >/dev/null || die "bonnie++ is not installed (apt-get install bonnie++)"
[ -x "$FSPROF" ] || die "$FSPROF is not built (make)"

work=$(mktemp -d "$SCRATCH/fsprof-bench-bonnie.XXXXXX")
mnt=$work/mnt
loop=""
cg=""

cleanup() {
	set +e
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$loop" ] && losetup -d "$loop"
	[ -n "$cg" ] && [ -d "$cg" ] && rmdir "$cg"
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the target: a sparse image on a direct-IO loop device, ext4, mounted
truncate -s $((SIZE_MIB * 3 + 512))M "$work/img"
loop=$(losetup --find --show --direct-io=on "$work/img")
[ "$(cat "/sys/block/${loop#/dev/}/loop/dio")" = 1 ] ||
	die "$loop does not use direct IO: the comparison would measure the page cache twice"
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$loop"
mkdir -p "$mnt"
mount "$loop" "$mnt"

# the memory cgroup (v1 or v2) both tools run in
if [ -d /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/memory ]; then
	cg=/sys/fs/cgroup/memory/fsprof-bench-$$
	mkdir "$cg"
	echo "$MEM_LIMIT" >"$cg/memory.limit_in_bytes"
elif [ -f /sys/fs/cgroup/cgroup.controllers ] &&
	grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
	cg=/sys/fs/cgroup/fsprof-bench-$$
	mkdir "$cg"
	echo "$MEM_LIMIT" >"$cg/memory.max"
else
	echo "bonnie-vs-bonnie++: no memory cgroup: bonnie++ may read from the page cache" >&2
fi

in_cgroup() {
	(
		[ -n "$cg" ] && echo "$BASHPID" >"$cg/cgroup.procs"
		exec "$@"
	)
}

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# "put_block get_block" (K/sec) from fsprof's 1.97 CSV line
run_fsprof() {
	local line
	line=$(in_cgroup "$FSPROF" run -q "${trace_opt[@]}" --dir "$mnt" \
		-w "bonnie:size=${SIZE_MIB}M" --format bonnie-csv | tail -1)
	echo "$line" | awk -F, '{print $10, $16}'
}

# "put_block get_block" (K/sec) from bonnie++'s CSV line (1.97 or 1.98)
run_bonnie() {
	local line
	mkdir -p "$mnt/bonnie++"
	line=$(in_cgroup bonnie++ -q -d "$mnt/bonnie++" -s "$SIZE_MIB" -n 0 \
		-r 0 -u root -f 2>/dev/null | tail -1)
	rmdir "$mnt/bonnie++"
	case "${line%%,*}" in
	1.97) echo "$line" | awk -F, '{print $10, $16}' ;;
	1.98) echo "$line" | awk -F, '{print $12, $18}' ;;
	*) die "unexpected bonnie++ CSV line: $line" ;;
	esac
}

echo "bonnie vs bonnie++: ${SIZE_MIB} MiB file, ext4 on $loop (direct IO), memory cgroup ${cg:+$MEM_LIMIT}, $PAIRS pairs"
echo "pair  first     fsprof out    in   bonnie++ out    in   ratio out   in"
ratios_out=()
ratios_in=()
for ((i = 1; i <= PAIRS; i++)); do
	# alternate who goes first so drift hits both alike
	if ((i % 2)); then
		drop_caches
		read -r f_out f_in < <(run_fsprof)
		drop_caches
		read -r b_out b_in < <(run_bonnie)
		first=fsprof
	else
		drop_caches
		read -r b_out b_in < <(run_bonnie)
		drop_caches
		read -r f_out f_in < <(run_fsprof)
		first=bonnie++
	fi
	for v in "$f_out" "$f_in" "$b_out" "$b_in"; do
		[[ "$v" =~ ^[0-9]+$ ]] ||
			die "a test was too short to measure ('$v'): use a larger SIZE_MIB"
	done
	r_out=$(awk -v a="$f_out" -v b="$b_out" 'BEGIN {printf "%.3f", a / b}')
	r_in=$(awk -v a="$f_in" -v b="$b_in" 'BEGIN {printf "%.3f", a / b}')
	ratios_out+=("$r_out")
	ratios_in+=("$r_in")
	printf "%4d  %-8s %10s %7s %12s %7s %9s %6s\n" "$i" "$first" \
		"$f_out" "$f_in" "$b_out" "$b_in" "$r_out" "$r_in"
done

median() {
	printf "%s\n" "$@" | sort -g | awk '{v[NR] = $1} END {
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

m_out=$(median "${ratios_out[@]}")
m_in=$(median "${ratios_in[@]}")
echo "median ratio fsprof / bonnie++: block out $m_out, block in $m_in (target >= 0.95)"
