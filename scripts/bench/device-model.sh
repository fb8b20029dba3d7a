#!/usr/bin/env bash
# The slow-device model, old placement against new, on the same phases:
# - old: the blkio throttle on the traced device itself (an XFS on a
#   direct-IO loop, run with --dir, where fsprof can only throttle the traced
#   disk - what every image target got before the stacked model);
# - new: the throttle on a lower loop under the traced one (an image target).
# Interleaved rounds, the order alternating. Per phase, the median over the
# rounds of: wall time, device busy % (traced device), requests (reads +
# writes + flushes), and the issuer shares of the writes.
# usage: device-model.sh [ROUNDS=3] [MODEL=hdd] [WORKLOAD=untar:preset=small]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
rounds=${1:-3}
model=${2:-hdd}
workload=${3:-untar:preset=small}

# old placement: fsprof --dir on a fresh XFS of our own
old_run() {
	truncate -s 2G "$BENCH_DIR/image"
	BENCH_LOOP=$(losetup -f --show --direct-io=on "$BENCH_DIR/image")
	mkfs.xfs -q -f "$BENCH_LOOP"
	mount "$BENCH_LOOP" "$BENCH_MNT"
	"$FSPROF" run -q -w "$workload" --dir "$BENCH_MNT" --device-model "$model" \
		--json "$BENCH_DIR/old.$1.json" >/dev/null 2>&1
	umount "$BENCH_MNT"
	losetup -d "$BENCH_LOOP"
	BENCH_LOOP=
	rm -f "$BENCH_DIR/image"
}

new_run() {
	mkdir -p "$BENCH_DIR/scratch"
	"$FSPROF" run -q -w "$workload" --fs xfs --image-size 2G \
		--device-model "$model" --scratch "$BENCH_DIR/scratch" \
		--json "$BENCH_DIR/new.$1.json" >/dev/null
}

for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then old_run "$r"; new_run "$r"; else new_run "$r"; old_run "$r"; fi
	echo "round $r of $rounds done" >&2
done

# one line per placement, round and phase
for placement in old new; do
	for f in "$BENCH_DIR/$placement".*.json; do
		jq -r --arg p "$placement" '.cases[0].phases[] | .block as $b |
			($b.classes.write.ios) as $w |
			[$p, .name, .wall_ns / 1e9, 100 * $b.busy_ns / .wall_ns,
			 $b.classes.read.ios + $w + $b.classes.flush.ios,
			 ([$b.io_classes | to_entries[] | select(.key | endswith("_write")) |
			   .value.issuers | to_entries[] | {k: .key, v: .value.ios}] |
			  group_by(.k) | map({k: .[0].k, v: (map(.v) | add)}) |
			  map(select(.v > 0)) | sort_by(-.v) |
			  map("\(.k) \(if $w > 0 then (100 * .v / $w | floor) else 0 end)%") |
			  join(", "))] | @tsv' "$f"
	done
done | python3 -c '
import statistics, sys
rows = {}
for line in sys.stdin:
    p, phase, wall, busy, reqs, issuers = line.rstrip("\n").split("\t")
    rows.setdefault((phase, p), []).append((float(wall), float(busy), int(reqs), issuers))
print("| phase | model | wall s | busy % | requests | write issuers (last round) |")
print("|---|---|---|---|---|---|")
phases = list(dict.fromkeys(phase for phase, _ in rows))
for phase, p in [(ph, pl) for ph in phases for pl in ("old", "new")]:
    v = rows.get((phase, p))
    if not v:
        continue
    med = lambda i: statistics.median(x[i] for x in v)
    where = "throttle on the traced device" if p == "old" else "stacked (lower loop)"
    print(f"| {phase} | {where} | {med(0):.2f} | {med(1):.1f} | {med(2):.0f} | {v[-1][3]} |")
'
