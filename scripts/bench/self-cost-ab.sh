#!/usr/bin/env bash
# What the kernel's BPF run-time statistics (fsprof's self.bpf_* metrics,
# two clock reads around every run of every BPF program) cost a dense
# phase: fsprof run with them (the default) and without (FSPROF_SELF_COST=0)
# in turn, on a memory-backed ext4 loop; the figure is the median of the
# pairs' ratios of the phase's wall time, with its distribution-free 95%
# confidence interval (as wall-overhead.sh).
# usage: self-cost-ab.sh [WORKLOAD=fsync:files=2000] [PHASE=cycles] [PAIRS=16]
# Measured on 6.18 under the other agents' load (24 pairs, fsync cycles):
# median 1.029, CI 0.828-1.141: undecided.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
workload=${1:-fsync:files=2000}
phase=${2:-cycles}
pairs=${3:-16}
bench_fs 1G memory
: >"$BENCH_DIR/pairs"
for i in $(seq "$pairs"); do
	for mode in on off; do
		if [ "$mode" = off ]; then export FSPROF_SELF_COST=0; else unset FSPROF_SELF_COST; fi
		"$FSPROF" run -q --no-db -w "$workload" --dir "$BENCH_MNT" \
			--json "$BENCH_DIR/$mode.json" >/dev/null
	done
	unset FSPROF_SELF_COST
	jq -rn --arg p "$phase" --slurpfile on "$BENCH_DIR/on.json" \
		--slurpfile off "$BENCH_DIR/off.json" \
		'[$on, $off] | map(.[0].cases[0].phases[] | select(.name == $p) | .wall_ns) | "\(.[0]) \(.[1])"' \
		>>"$BENCH_DIR/pairs"
done
python3 - "$BENCH_DIR/pairs" "$workload" "$phase" "$(dirname "$0")" <<'EOF'
import statistics, sys
sys.path.insert(0, sys.argv[4])
from median_ci import median_ci
r = [int(a) / int(b) for a, b in (l.split() for l in open(sys.argv[1]))]
lo, hi, _ = median_ci(r)
ci = "CI %.3f-%.3f" % (lo, hi) if lo else "too few pairs for a CI"
print("%s %s, stats on / off: median %.3f, %s, %d pairs"
      % (sys.argv[2], sys.argv[3], statistics.median(r), ci, len(r)))
EOF
