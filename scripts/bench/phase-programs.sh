#!/usr/bin/env bash
# Which of fsprof's BPF programs run in a phase, how often per unit of
# work and at what cost, by the kernel's own accounting (bpf_stats
# run_time_ns / run_cnt), and what share of the phase's wall time they
# take: per-io-programs.sh for any phase. The programs of one fsprof run
# (their ids from its file descriptors) are sampled over WINDOW seconds
# in the middle of the phase; the units of work in that window are the
# phase's rate (files/s, or ops/s when it moves no files, from the run's
# JSON) times the window. The image is in memory (wall-overhead.sh says
# why). bpf_stats adds two clock reads to each run (~50 ns here).
# The workload's own switches (sched.switch_out, and its stack walks) per
# unit, from the phase's metrics, say how many of sched_switch's runs are
# the workload's (one out and one in per switch-out) and how many are the
# rest of the machine's, which the program filters out.
# usage: phase-programs.sh [ROUNDS=3] [WORKLOAD=fsync:files=20000]
#        [PHASE=cycles] [SKIP=1.5] [WINDOW=3] [UNIT=files|ops|bytes]
#        (UNIT default: files, or ops when the phase moves no files)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
rounds=${1:-3}
workload=${2:-fsync:files=20000}
phase=${3:-cycles}
skip=${4:-1.5}
window=${5:-3}
unit=${6:-}
bench_fs 4G memory
stats_before=$(cat /proc/sys/kernel/bpf_stats_enabled)
restore() {
	echo "$stats_before" >/proc/sys/kernel/bpf_stats_enabled
	bench_cleanup
}
trap restore EXIT
echo 1 >/proc/sys/kernel/bpf_stats_enabled

# "id name run_time_ns run_cnt" of the programs whose ids are in $1 (a,b,c)
prog_snap() {
	bpftool prog show -j | jq -r --argjson m "[$1]" '.[] |
		select(.run_cnt != null and (.id as $i | $m | index($i))) |
		"\(.id) \(.name) \(.run_time_ns) \(.run_cnt)"' | sort
}

one_round() {
	local pid ids units
	"$FSPROF" run -q --no-db -w "$workload" --dir "$BENCH_MNT" \
		--json "$BENCH_DIR/r.json" >"$BENCH_DIR/run.out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		ids=$({ grep -h '^prog_id:' /proc/$pid/fdinfo/* 2>/dev/null ||
			true; } | awk '{print $2}' | sort -u | paste -sd, -)
		[ -n "$ids" ] && break
		sleep 0.1
	done
	sleep "$skip"
	# every domain loaded by now (they load one after the other)
	ids=$({ grep -h '^prog_id:' /proc/$pid/fdinfo/* 2>/dev/null ||
		true; } | awk '{print $2}' | sort -u | paste -sd, -)
	prog_snap "$ids" >"$BENCH_DIR/s0"
	sleep "$window"
	prog_snap "$ids" >"$BENCH_DIR/s1"
	wait "$pid"
	units=$(jq -r --arg p "$phase" --arg u "$unit" --argjson t "$window" '
		.cases[0].phases[] | select(.name==$p) | .workload as $w |
		(if $u != "" then $w[$u] elif $w.files > 0 then $w.files
		 else $w.ops end) / (.wall_ns / 1e9) * $t' "$BENCH_DIR/r.json")
	jq -r --arg p "$phase" --arg u "$unit" '.cases[0].phases[] |
		select(.name==$p) | .workload as $w | .metrics.sched as $s |
		(if $u != "" then $w[$u] elif $w.files > 0 then $w.files
		 else $w.ops end) as $n |
		"  (the workload: \($s.switch_out / $n * 100 | round / 100) switch-outs/unit, \(($s.stack_walks // 0) / $n * 100 | round / 100) stack walks/unit)"' \
		"$BENCH_DIR/r.json"
	join "$BENCH_DIR/s0" "$BENCH_DIR/s1" | awk -v n="$units" -v t="$window" '
		{ dt = $6 - $3; dc = $7 - $4; name = $2; sub(/^fsprof_/, "", name)
		  if (dc > 0) printf "  %-16s %7.2f runs/unit %7.0f ns/unit %5.0f ns/run\n", name, dc / n, dt / n, dt / dc
		  tt += dt; c += dc }
		END { printf "  total            %7.2f runs/unit %7.0f ns/unit (%.0f units, BPF %.2f%% of the window)\n", c / n, tt / n, n, 100 * tt / (t * 1e9) }'
}

for ((r = 0; r < rounds; r++)); do
	echo "round $r ($workload $phase, units: ${unit:-files or ops}):"
	one_round | sort -k4 -n -r | tee -a "$BENCH_DIR/rounds"
done
grep -E '^  total' "$BENCH_DIR/rounds" | awk '{print $4}' >"$BENCH_DIR/totals"
echo "fsprof default set, BPF ns per unit: $(median <"$BENCH_DIR/totals")"
