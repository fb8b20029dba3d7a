#!/usr/bin/env bash
# fsprof's mdcreate against fs_mark -S0 -s0 (Debian fsmark) on the same ext4
# loop filesystem: empty files in 4 directories. fs_mark -S0 never syncs, so
# fsprof's rate is files / (create phase wall - its closing syncfs), the
# same loop fs_mark times. Interleaved pairs, median ratio fsprof / fs_mark.
# usage: mdcreate-vs-fsmark.sh [PAIRS=5] [FILES=20000]      Target: >= 0.95x.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pairs=${1:-5}
files=${2:-20000}
bench_fs 2G

fsprof_once() {
	"$FSPROF" run -q --no-trace --dir "$BENCH_MNT" \
		-w mdcreate:files=$files,dirs=4 --json "$BENCH_DIR/r.json" >/dev/null
	jq -r '.cases[0].phases[] | select(.name=="create") |
		.workload.files / ((.wall_ns - (.histograms.op.sync_ns.sum // 0)) / 1e9)' \
		"$BENCH_DIR/r.json"
}

fsmark_once() {
	local d=$BENCH_MNT/m$1
	# 4 subdirectories, files spread over them, no sync, 0-byte files
	# fs_mark leaves fs_log.txt files in its working directory
	(cd "$BENCH_DIR" && fs_mark -d "$d" -n "$files" -s 0 -S 0 -D 4 \
		-N $((files / 4)) -L 1 2>&1) |
		awk '/^ *[0-9]+ +[0-9]+ +0 +[0-9.]+/ { print $4 }' | tail -1
	rm -rf "$d"
	sync -f "$BENCH_MNT"
}

: >"$BENCH_DIR/ratio"
for ((i = 0; i < pairs; i++)); do
	if ((i % 2)); then
		m=$(fsmark_once "$i")
		f=$(fsprof_once)
	else
		f=$(fsprof_once)
		m=$(fsmark_once "$i")
	fi
	printf 'pair %d: mdcreate %.0f files/s, fs_mark %.0f files/s\n' "$i" "$f" "$m"
	python3 -c "print($f / $m)" >>"$BENCH_DIR/ratio"
done
echo "mdcreate / fs_mark -S0 -s0 ($files files): $(median <"$BENCH_DIR/ratio")"
