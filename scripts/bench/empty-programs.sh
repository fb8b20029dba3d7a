#!/usr/bin/env bash
# What having a BPF program on each of fsprof's tracepoints costs a dense
# phase before the programs do anything (issue 34: where the wall goes):
# the phase untraced, with empty programs (`return 0`, tp_btf) attached to
# the default set's tracepoints by a loader of its own, and traced by
# fsprof, in paired rotating rounds on a memory-backed ext4 loop (as
# wall-overhead.sh), each the median of its wall over the untraced run's
# with the distribution-free 95% interval of the median.
#   empty-programs.sh [SECONDS=240] [WORKLOAD=fsync:files=4000] [PHASE=cycles]
# EMPTY_ONLY="sched block" attaches only the programs whose tracepoint
# names hold one of the words (a second empty variant beside all).
# Measured (6 December, 6.18, 2 vCPUs, fsync cycles, 35 rounds): empty
# programs on the 33 tracepoints 1.053 (CI 1.011-1.080), on sched's and
# block's 8 1.021 (CI 0.980-1.046); fsprof 1.262 (CI 1.206-1.326).
set -euo pipefail
here=$(dirname "$0")
source "$here/lib.sh"
budget=${1:-240}
workload=${2:-fsync:files=4000}
phase=${3:-cycles}
make -s -C "$top" build/bench/empty_programs build/fsprof
loader=$top/build/bench/empty_programs

# the default set's tracepoints (bpf/*.bpf.c, --probes default), those
# this kernel's BTF has
tps="sched_switch sched_wakeup sched_process_fork block_getrq
block_bio_frontmerge block_rq_requeue block_split block_rq_issue
block_rq_complete jbd2_start_commit jbd2_end_commit jbd2_run_stats
jbd2_checkpoint_stats jbd2_lock_buffer_stall ext4_request_blocks
ext4_allocate_blocks ext4_mballoc_alloc ext4_mballoc_prealloc
ext4_mb_new_inode_pa ext4_mb_new_group_pa ext4_free_blocks
ext4_da_reserve_space ext4_da_write_folios_start ext4_da_write_pages
ext4_da_write_pages_extent ext4_alloc_da_blocks ext4_writepages
ext4_writepages_result ext4_sync_file_enter ext4_sync_file_exit
ext4_sync_fs writeback_start writeback_written balance_dirty_pages"
have=$(bpftool btf dump file /sys/kernel/btf/vmlinux |
	grep -o 'btf_trace_[a-z0-9_]*' | sort -u)
{
	echo '#include "vmlinux.h"'
	echo '#include <bpf/bpf_helpers.h>'
	echo 'char LICENSE[] SEC("license") = "GPL";'
	for tp in $tps; do
		grep -qx "btf_trace_$tp" <<<"$have" || continue
		echo "SEC(\"tp_btf/$tp\") int e_$tp(void *ctx) { return 0; }"
	done
} >"$BENCH_DIR/empty.bpf.c"
clang -O2 -g -target bpf -I"$top/vmlinux/x86" -c "$BENCH_DIR/empty.bpf.c" \
	-o "$BENCH_DIR/empty.bpf.o"
bench_fs 4G memory

# one run of the phase in mode $1: its wall, ns
one() {
	local args=(--no-trace) pid=
	case $1 in
	fsprof) args=() ;;
	empty*)
		# shellcheck disable=SC2046,SC2086 # the words, split
		coproc EMPTY { exec "$loader" "$BENCH_DIR/empty.bpf.o" \
			$([ "$1" = empty_only ] && echo ${EMPTY_ONLY}); }
		pid=$EMPTY_PID
		read -r _ _ <&"${EMPTY[0]}"
		;;
	esac
	"$FSPROF" run -q --no-db "${args[@]}" --dir "$BENCH_MNT" -w "$workload" \
		--json "$BENCH_DIR/r.json" >/dev/null
	if [ -n "$pid" ]; then
		kill "$pid"
		wait "$pid" || true
	fi
	jq -r --arg p "$phase" '.cases[0].phases[] | select(.name == $p) |
		.wall_ns' "$BENCH_DIR/r.json"
}

modes=(none empty fsprof)
[ -n "${EMPTY_ONLY:-}" ] && modes+=(empty_only)
t_end=$(($(date +%s) + budget))
round=0
while [ "$(date +%s)" -lt "$t_end" ]; do
	line="round=$round"
	for ((k = 0; k < ${#modes[@]}; k++)); do
		m=${modes[$(((k + round) % ${#modes[@]}))]}
		line+=" $m=$(one "$m")"
	done
	echo "$line" >>"$BENCH_DIR/rounds"
	round=$((round + 1))
done
python3 - "$BENCH_DIR/rounds" "$workload" "$phase" "$here" <<'PY'
import statistics, sys
sys.path.insert(0, sys.argv[4])
from median_ci import median_ci
rows = [dict(kv.split("=") for kv in l.split()) for l in open(sys.argv[1])]
for m in [k for k in rows[0] if k not in ("round", "none")]:
    r = [int(x[m]) / int(x["none"]) for x in rows]
    lo, hi, _ = median_ci(r)
    ci = "CI %.3f-%.3f" % (lo, hi) if lo else "too few rounds for a CI"
    print("%s %s, %s / untraced wall: median %.3f, %s, %d rounds"
          % (sys.argv[2], sys.argv[3], m, statistics.median(r), ci, len(r)))
PY
