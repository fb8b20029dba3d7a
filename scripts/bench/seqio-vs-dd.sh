#!/usr/bin/env bash
# fsprof's seqio generator against dd on the same ext4 loop filesystem:
# write (4 KiB writes + fdatasync, as dd bs=4k conv=fdatasync) and a
# cold-cache read (as dd bs=4k after dropping caches). Interleaved A/B pairs,
# the order alternating, median of the per-pair ratios fsprof / dd.
# usage: seqio-vs-dd.sh [PAIRS=5] [SIZE_MIB=1024]     Target: >= 0.95x.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pairs=${1:-5}
mib=${2:-1024}
bench_fs $((mib * 2 + 512))M

fsprof_once() {
	"$FSPROF" run -q --no-trace --dir "$BENCH_MNT" -w seqio:size=${mib}M \
		--json "$BENCH_DIR/r.json" >/dev/null
	jq -r '[.cases[0].phases[] | select(.name=="write" or .name=="read") |
		.workload.mb_per_s] | join(" ")' "$BENCH_DIR/r.json"
}

dd_once() {
	local f=$BENCH_MNT/dd.dat t0 t1 t2 t3
	t0=$(now_ns)
	dd if=/dev/zero of="$f" bs=4k count=$((mib * 256)) conv=fdatasync status=none
	t1=$(now_ns)
	drop_caches
	t2=$(now_ns)
	dd if="$f" of=/dev/null bs=4k status=none
	t3=$(now_ns)
	rm -f "$f"
	sync -f "$BENCH_MNT"
	python3 -c "import sys; b=$mib*1048576; print(b/1e6/(($t1-$t0)/1e9), b/1e6/(($t3-$t2)/1e9))"
}

: >"$BENCH_DIR/write" && : >"$BENCH_DIR/read"
for ((i = 0; i < pairs; i++)); do
	if ((i % 2)); then
		read -r dw dr < <(dd_once)
		read -r fw fr < <(fsprof_once)
	else
		read -r fw fr < <(fsprof_once)
		read -r dw dr < <(dd_once)
	fi
	printf 'pair %d: write fsprof %.1f dd %.1f MB/s; read fsprof %.1f dd %.1f MB/s\n' \
		"$i" "$fw" "$dw" "$fr" "$dr"
	python3 -c "print($fw / $dw)" >>"$BENCH_DIR/write"
	python3 -c "print($fr / $dr)" >>"$BENCH_DIR/read"
done
echo "seqio write / dd write ($mib MiB, 4 KiB + fdatasync): $(median <"$BENCH_DIR/write")"
echo "seqio read / dd read (cold cache, 4 KiB):            $(median <"$BENCH_DIR/read")"
