#!/usr/bin/env bash
# Which of fsprof's BPF programs fire per block IO, how often and at what
# cost, by the kernel's own accounting (bpf_stats run_time_ns / run_cnt):
# the programs of one fsprof run (found by the prog ids its file
# descriptors hold) sampled over 5 s of a write phase, divided by the
# target's write requests in those 5 s (/sys/block/<loop>/stat). Both the
# target's events and the host disk's (the loop's writes into its backing
# file, filtered out by every program) are counted: that is the cost per
# IO of the target. bpf_stats itself costs each run its two clock reads:
# an empty tp_btf program measured ~50 ns a run here, so runs/io times
# 50 ns of the total is the floor of any set of that many programs.
# BACKING=memory puts the image in tmpfs (as wall-overhead.sh does): no
# host disk under the loop, so only the target's events run the programs
# beside the rest of the machine's, and the figures are those of the
# phases wall-overhead.sh times.
# usage: per-io-programs.sh [ROUNDS=3] [WORKLOAD=seqio:size=1G,direct=yes,bs=4k]
#   FSPROF=path compares another build; FSPROF_SCHED_STACK_MEMO=0 passes on
set -euo pipefail
source "$(dirname "$0")/lib.sh"
rounds=${1:-3}
workload=${2:-seqio:size=1G,direct=yes,bs=4k}
if [ "${BACKING:-disk}" = memory ]; then
	bench_fs 4G memory
else
	bench_fs 4G
	fallocate -l 4G "$BENCH_DIR/image"
fi
lo=${BENCH_LOOP#/dev/}

# "id name run_time_ns run_cnt" of the programs whose ids are in $1 (a,b,c)
prog_snap() {
	bpftool prog show -j | jq -r --argjson m "[$1]" '.[] |
		select(.run_cnt != null and (.id as $i | $m | index($i))) |
		"\(.id) \(.name) \(.run_time_ns) \(.run_cnt)"' | sort
}

one_round() {
	local pid ids a b
	"$FSPROF" run -q --no-db -w "$workload" --dir "$BENCH_MNT" \
		--json "$BENCH_DIR/r.json" >"$BENCH_DIR/run.out" 2>&1 &
	pid=$!
	sleep 4
	ids=$(grep -h '^prog_id:' /proc/$pid/fdinfo/* 2>/dev/null |
		awk '{print $2}' | sort -u | paste -sd, -)
	a=$(awk '{print $5}' "/sys/block/$lo/stat")
	prog_snap "$ids" >"$BENCH_DIR/s0"
	sleep 5
	b=$(awk '{print $5}' "/sys/block/$lo/stat")
	prog_snap "$ids" >"$BENCH_DIR/s1"
	wait "$pid"
	join "$BENCH_DIR/s0" "$BENCH_DIR/s1" | awk -v n=$((b - a)) '
		{ dt = $6 - $3; dc = $7 - $4; name = $2; sub(/^fsprof_/, "", name)
		  if (dc > 0) printf "  %-14s %6.2f runs/io %6.0f ns/io %5.0f ns/run\n", name, dc / n, dt / n, dt / dc
		  t += dt; c += dc }
		END { printf "  total          %6.2f runs/io %6.0f ns/io (%d write IOs)\n", c / n, t / n, n }'
}

for ((r = 0; r < rounds; r++)); do
	echo "round $r:"
	one_round | tee -a "$BENCH_DIR/rounds"
done
grep -E '^  total' "$BENCH_DIR/rounds" | awk '{print $4}' >"$BENCH_DIR/totals"
echo "fsprof default set, ns per write IO: $(median <"$BENCH_DIR/totals")"
