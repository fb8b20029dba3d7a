#!/usr/bin/env bash
# Benchmark for the block domain: open + load + attach, median of 20 rounds,
# and fsprof's own peak RSS during a 256 MiB seqio run (from its JSON).
# Targets (issue 2): under 50 ms and under 20 MB. Run as root after `make`.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
make -s build/bench/block_attach build/fsprof
build/bench/block_attach 20
json=$(mktemp /tmp/fsprof-bench.XXXXXX.json)
trap 'rm -f "$json"' EXIT
build/fsprof run -q --size 256M --json "$json" >/dev/null
echo "fsprof run --size 256M: peak RSS $(jq .self.max_rss_kib "$json") KiB"
