#!/usr/bin/env bash
# BPF time per block IO, by the kernel's own accounting (bpf_stats
# run_time_ns), on the same phase: a direct 4 KiB write (seqio direct=yes,
# bs=4k) on an ext4 loop filesystem. Side by side, in interleaved rounds:
#   - fsprof's default probe set, as fsprof run loads it (self.bpf_run_ns
#     of the write phase / its write requests);
#   - fsprof's block domain alone: its programs' share of that, sampled
#     over a window of the same write phase (their prog ids from the run's
#     file descriptors, as per-io-programs.sh does);
#   - libbpf-tools' biolatency -d on the target's disk (its issue ->
#     complete latency histogram);
#   - the usual pair that gives what fsprof gives: biolatency plus
#     libbpf-tools' offcputime (off-CPU time by stack, every task).
# Both sides see the loop's own writes into its backing file on the host
# disk too (their programs run and filter them out): the figure is per IO
# of the target. Medians, and the ratios issue 34 sets as targets: block
# <= 1.2x biolatency; the default set <= 2x biolatency and <= 0.15x the
# pair. FSPROF_BPF_UNTRUSTED=0 in the environment is passed on to fsprof
# (bpf/untrusted.bpf.h), to compare.
# usage: per-io-cost.sh [ROUNDS=5] [SIZE=512M]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
rounds=${1:-5}
size=${2:-512M}
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

# the block domain's programs (bpf/block.bpf.c) among a run's
block_progs='^fsprof_(getrq|getrq_q|frontmerge|frontmerge_q|bio_split|bio_split_q|rq_issue|rq_issue_q|rq_done|rq_requeue|rq_requeue_q)$'

# run_time_ns summed over the block programs whose ids are in $1 (a,b,c)
block_ns() {
	bpftool prog show -j | jq --argjson m "[$1]" --arg re "$block_progs" \
		'[.[] | select(.run_cnt != null and (.id as $i | $m | index($i)) and
		(.name | test($re))) | .run_time_ns] | add // 0'
}

# fsprof: its own BPF time in the write phase / the phase's write
# requests; and its block programs' time over 2 s of that phase / the
# device's writes in those 2 s
fsprof_cost() {
	local pid ids a b t0 t1 lo=${BENCH_LOOP#/dev/}
	"$FSPROF" run -q --no-db -w "$workload" --dir "$BENCH_MNT" \
		--json "$BENCH_DIR/f.json" >/dev/null &
	pid=$!
	# its programs once attached, then a second into the write phase
	for _ in $(seq 300); do
		ids=$(grep -h '^prog_id:' /proc/$pid/fdinfo/* 2>/dev/null |
			awk '{print $2}' | sort -u | paste -sd, -)
		[ -n "$ids" ] && [ "$(block_ns "$ids")" != 0 ] && break
		sleep 0.1
	done
	sleep 1
	a=$(awk '{print $5}' "/sys/block/$lo/stat")
	t0=$(block_ns "$ids")
	sleep 2
	b=$(awk '{print $5}' "/sys/block/$lo/stat")
	t1=$(block_ns "$ids")
	wait "$pid"
	jq -r --argjson blk "$(python3 -c "print(($t1 - $t0) / max($b - $a, 1))")" \
		'.cases[0].phases[] | select(.name=="write") |
		"\(.metrics.self.bpf_run_ns / .block.classes.write.ios) \(.metrics.self.bpf_runs / .block.classes.write.ios) \($blk)"' \
		"$BENCH_DIR/f.json"
}

# The peers, Debian's libbpf-tools (package libbpf-tools), as a user would
# run them: biolatency on the target's disk alone, and with offcputime
# (every task's off-CPU time by user and kernel stack) the pair that gives
# what fsprof gives.
disk=${BENCH_LOOP#/dev/}
biolatency="biolatency -d $disk"
offcputime="offcputime"

# "run_time_ns run_cnt" summed over the programs whose ids are in $1
progs_sum() {
	bpftool prog show -j | jq -r --argjson m "[$1]" '[.[] |
		select(.run_cnt != null and (.id as $i | $m | index($i)))] |
		"\([.[].run_time_ns] | add // 0) \([.[].run_cnt] | add // 0)"'
}

# the BPF programs the processes $@ hold (by their file descriptors), a,b,c
prog_ids() {
	local pid
	for pid in "$@"; do
		grep -h '^prog_id:' /proc/"$pid"/fdinfo/* 2>/dev/null
	done | awk '{print $2}' | sort -un | paste -sd, -
}

# the tools $@ (one command line each) running together: the BPF time of
# their own programs over an untraced run / the device's writes
tools_cost() {
	local ns0 ns1 runs0 runs1 ios0 ios1 ids pids=() cmd
	echo 1 >/proc/sys/kernel/bpf_stats_enabled
	for cmd in "$@"; do
		# shellcheck disable=SC2086 # one command line, split into words
		$cmd >"$BENCH_DIR/tool.out" 2>&1 &
		pids+=($!)
	done
	# their programs, once the set has stopped growing for 0.5 s
	ids=$(settled "prog_ids ${pids[*]}") || {
		echo "per-io-cost: $* loaded no settled set of programs in 60 s" >&2
		kill -INT "${pids[@]}"
		return 1
	}
	read -r ns0 runs0 <<<"$(progs_sum "$ids")"
	ios0=$(awk '{print $5}' "/sys/block/$disk/stat")
	"$FSPROF" run -q --no-db --no-trace -w "$workload" --dir "$BENCH_MNT" >/dev/null
	read -r ns1 runs1 <<<"$(progs_sum "$ids")"
	ios1=$(awk '{print $5}' "/sys/block/$disk/stat")
	kill -INT "${pids[@]}"
	wait "${pids[@]}" || true
	echo "$stats_before" >/proc/sys/kernel/bpf_stats_enabled
	python3 -c "print(($ns1 - $ns0) / ($ios1 - $ios0), ($runs1 - $runs0) / ($ios1 - $ios0))"
}

: >"$BENCH_DIR/f"
: >"$BENCH_DIR/k"
: >"$BENCH_DIR/b"
: >"$BENCH_DIR/p"
for ((r = 0; r < rounds; r++)); do
	if ((r % 2)); then
		read -r fns fruns kns <<<"$(fsprof_cost)"
		read -r bns bruns <<<"$(tools_cost "$biolatency")"
		read -r pns pruns <<<"$(tools_cost "$biolatency" "$offcputime")"
	else
		read -r pns pruns <<<"$(tools_cost "$biolatency" "$offcputime")"
		read -r bns bruns <<<"$(tools_cost "$biolatency")"
		read -r fns fruns kns <<<"$(fsprof_cost)"
	fi
	echo "round $r: fsprof $fns ns in $fruns runs per write IO (block $kns ns); biolatency $bns ns in $bruns runs; with offcputime $pns ns in $pruns runs"
	echo "$fns" >>"$BENCH_DIR/f"
	echo "$kns" >>"$BENCH_DIR/k"
	echo "$bns" >>"$BENCH_DIR/b"
	echo "$pns" >>"$BENCH_DIR/p"
done
echo "ns per write IO:"
echo "  fsprof default set $(median <"$BENCH_DIR/f")"
echo "  its block domain $(median <"$BENCH_DIR/k")"
echo "  biolatency -d $disk $(median <"$BENCH_DIR/b")"
echo "  biolatency + offcputime $(median <"$BENCH_DIR/p")"
mid() { median <"$1" | awk '{print $2}'; }
f=$(mid "$BENCH_DIR/f")
k=$(mid "$BENCH_DIR/k")
b=$(mid "$BENCH_DIR/b")
p=$(mid "$BENCH_DIR/p")
python3 - "$f" "$k" "$b" "$p" <<'PY'
import sys
f, k, b, p = map(float, sys.argv[1:])
for what, v, target in (("block domain / biolatency", k / b, 1.2),
                        ("default set / biolatency", f / b, 2.0),
                        ("default set / the pair", f / p, 0.15)):
    print("  %-27s %5.2fx  (target <= %.2fx: %s)" %
          (what, v, target, "met" if v <= target else "not met"))
PY
