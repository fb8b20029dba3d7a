#!/usr/bin/env bash
# Derives fsprof diff's per-metric noise floors (data/noise-floors.tsv) from
# A/A runs: the same workloads x targets run twice, as two separate fsprof
# runs of --repeat REPEATS each, and compared with the floor off (diff
# --noise 0). Every (case, phase, metric) of the pair gives one relative
# gap |mean_A - mean_B| / max(|mean_A|, |mean_B|); each row of the TSV
# (first glob that matches, as the diff looks it up) takes the QUANTILE of
# its metrics' gaps, rounded up to a whole percent (a tenth below 1%), as
# its floor. noise_floors.py writes the rows back with the figures.
# usage: noise-floors.sh [REPEATS=5] [QUANTILE=0.95]
#        noise-floors.sh --from A.json B.json [QUANTILE]  (reuse two runs)
# Run as root after `make`, under /var/tmp/fsprof-timing.lock.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
tsv=$top/data/noise-floors.tsv

# the kinds the rows name: kernel counts (seqio, files1m), fsync's commits
# and flushes, mdcreate's allocations; both filesystems. Sized so that
# their main phases last at least SHORT_PHASE_NS (0.5 s) here: shorter
# phases are left out of the figures (noise_floors.py)
workloads=(-w seqio:size=384M -w files1m:files=500 -w fsync:files=600
	-w mdcreate:files=50000)

if [ "${1:-}" = --from ]; then
	a=$2 b=$3 q=${4:-0.95}
else
	repeats=${1:-5} q=${2:-0.95}
	a=$BENCH_DIR/a.json b=$BENCH_DIR/b.json
	for side in a b; do
		"$FSPROF" run -q "${workloads[@]}" --fs ext4,xfs \
			--repeat "$repeats" --scratch "$BENCH_DIR" \
			--json "$BENCH_DIR/$side.json" >"$BENCH_DIR/$side.out" ||
			{ cat "$BENCH_DIR/$side.out"; exit 1; }
	done
	# kept for a re-derivation (--from) without new runs
	mkdir -p /var/tmp/fsprof-noise-floors
	cp "$a" "$b" /var/tmp/fsprof-noise-floors/
fi
"$FSPROF" diff --noise 0 --format json "$a" "$b" >"$BENCH_DIR/aa.diff"
python3 "$(dirname "$0")/noise_floors.py" "$BENCH_DIR/aa.diff" "$a" "$b" "$tsv" \
	"$q" "$(uname -r), $(nproc) CPUs"
cat "$tsv"
