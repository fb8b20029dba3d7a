#!/usr/bin/env bash
# What the tracer costs per case now that it loads once per run (issue 34):
# a run of N cases (seqio:size=1M on ext4, --repeat N) with -v, and
#   - the tracer's set-up per case: the first case's load (every domain's
#     open, load and attach) and each case's bind (maps emptied, target
#     set), from the tracer's own -v lines;
#   - with BASELINE (another fsprof binary, e.g. one that loaded per case),
#     the whole run's wall time, the two in turn (A B A B), the median of
#     the pairs' ratios (farm-bench).
# usage: attach-once.sh [CASES=8] [ROUNDS=5] [BASELINE]  (root, after make)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cases=${1:-8}
rounds=${2:-5}
base=${3:-}
scratch=$BENCH_DIR/scratch
mkdir -p "$scratch"
args=(run -q --no-db -w seqio:size=1M --fs ext4 --repeat "$cases"
	--scratch "$scratch")

for i in $(seq "$rounds"); do
	"$FSPROF" "${args[@]}" -v 2>&1 >/dev/null |
		grep -E 'tracer: (.* domain\(s\) loaded|bound to the case)' \
			>>"$BENCH_DIR/split.txt" || true
done
echo "tracer per case, $rounds runs of $cases cases:"
grep -o 'loaded in [0-9.]*' "$BENCH_DIR/split.txt" | awk '{print $3}' |
	median | sed 's/^/  first case, domains loaded (ms): /'
grep -o 'bound to the case in [0-9.]*' "$BENCH_DIR/split.txt" |
	awk '{print $6}' | median | sed 's/^/  each case, bound (ms): /'
if [ -n "$base" ]; then
	echo "whole run of $cases cases, this fsprof vs $base:"
	farm-bench -n "$rounds" --timeout 600 --vs "$base ${args[*]}" -- \
		"$FSPROF" "${args[@]}"
fi
