#!/usr/bin/env bash
# BPF time per block IO, fsprof's default probe set against a bpftrace
# issue -> complete latency histogram (the classic biolatency), by the
# kernel's own accounting (bpf_stats run_time_ns), on the same phase: a
# direct 4 KiB write (seqio direct=yes, bs=4k) on an ext4 loop filesystem.
# Both sides see the loop's own writes into its backing file on the host
# disk too (their programs run and filter them out): the figure is per IO
# of the target. Interleaved rounds, median.
# usage: per-io-cost.sh [ROUNDS=5] [SIZE=256M]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
rounds=${1:-5}
size=${2:-256M}
bench_fs 4G
# the loop's backing file fully allocated: its writes then cause no
# allocation events on the host filesystem (which both sides' programs
# would see and filter out), as on a real disk
fallocate -l 4G "$BENCH_DIR/image"
mount | grep -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
stats_before=$(cat /proc/sys/kernel/bpf_stats_enabled)
restore() {
	echo "$stats_before" >/proc/sys/kernel/bpf_stats_enabled
	bench_cleanup
}
trap restore EXIT
dev=$(lsblk -dno MAJ:MIN "$BENCH_LOOP" | tr -d ' ')
kdev=$(((${dev%:*} << 20) | ${dev#*:}))
workload="seqio:size=$size,direct=yes,bs=4k"

# fsprof: its own BPF time in the write phase / the phase's write requests
fsprof_cost() {
	"$FSPROF" run -q -w "$workload" --dir "$BENCH_MNT" --json "$BENCH_DIR/f.json" >/dev/null
	jq -r '.cases[0].phases[] | select(.name=="write") |
		"\(.metrics.self.bpf_run_ns / .block.classes.write.ios) \(.metrics.self.bpf_runs / .block.classes.write.ios)"' \
		"$BENCH_DIR/f.json"
}

# bpftrace: its programs' BPF time over an untraced run / the device's writes.
# bpftrace names a program after its event: only those two are counted, not
# whatever else the machine has loaded.
bpftrace_cost() {
	local before after ios0 ios1 bt
	echo 1 >/proc/sys/kernel/bpf_stats_enabled
	bpftrace -e "tracepoint:block:block_rq_issue /args->dev == $kdev/ { @s[args->sector] = nsecs; }
		tracepoint:block:block_rq_complete /@s[args->sector]/ {
			@lat = hist((nsecs - @s[args->sector]) / 1000); delete(@s[args->sector]); }" \
		>"$BENCH_DIR/bt.out" 2>&1 &
	bt=$!
	for _ in $(seq 600); do grep -q '^Attaching' "$BENCH_DIR/bt.out" && break; sleep 0.1; done
	before=$(bpftool prog show -j | jq '[.[] | select(.name == "block_rq_issue" or .name == "block_rq_complete") | .run_time_ns // 0] | add')
	runs0=$(bpftool prog show -j | jq '[.[] | select(.name == "block_rq_issue" or .name == "block_rq_complete") | .run_cnt // 0] | add')
	ios0=$(awk '{print $5}' "/sys/block/${BENCH_LOOP#/dev/}/stat")
	"$FSPROF" run -q --no-trace -w "$workload" --dir "$BENCH_MNT" >/dev/null
	after=$(bpftool prog show -j | jq '[.[] | select(.name == "block_rq_issue" or .name == "block_rq_complete") | .run_time_ns // 0] | add')
	runs1=$(bpftool prog show -j | jq '[.[] | select(.name == "block_rq_issue" or .name == "block_rq_complete") | .run_cnt // 0] | add')
	ios1=$(awk '{print $5}' "/sys/block/${BENCH_LOOP#/dev/}/stat")
	kill -TERM "$bt"
	wait "$bt" || true
	echo "$stats_before" >/proc/sys/kernel/bpf_stats_enabled
	python3 -c "print(($after - $before) / ($ios1 - $ios0), ($runs1 - $runs0) / ($ios1 - $ios0))"
}

: >"$BENCH_DIR/f"
: >"$BENCH_DIR/b"
for ((r = 0; r < rounds; r++)); do
	if ((r % 2)); then
		read -r fns fruns <<<"$(fsprof_cost)"
		read -r bns bruns <<<"$(bpftrace_cost)"
	else
		read -r bns bruns <<<"$(bpftrace_cost)"
		read -r fns fruns <<<"$(fsprof_cost)"
	fi
	echo "round $r: fsprof $fns ns in $fruns runs per write IO; bpftrace $bns ns in $bruns runs"
	echo "$fns" >>"$BENCH_DIR/f"
	echo "$bns" >>"$BENCH_DIR/b"
done
echo "fsprof default set, ns per write IO: $(median <"$BENCH_DIR/f")"
echo "bpftrace biolatency, ns per write IO: $(median <"$BENCH_DIR/b")"
