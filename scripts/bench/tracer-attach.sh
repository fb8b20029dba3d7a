#!/usr/bin/env bash
# Benchmark for the tracer: open + load + attach of every kernel domain,
# median of 20 rounds, and fsprof's own peak RSS during a 256 MiB seqio run
# (from its JSON). Targets: block alone under 50 ms and 20 MB (issue 2); all
# domains under 100 ms and 32 MB (issue 5). Run as root after `make`.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
make -s build/bench/tracer_attach build/fsprof
for fs in ext4 xfs all; do build/bench/tracer_attach 20 "$fs"; done
json=$(mktemp /tmp/fsprof-bench.XXXXXX.json)
trap 'rm -f "$json"' EXIT
build/fsprof run -q --size 256M --json "$json" >/dev/null
echo "fsprof run --size 256M: peak RSS $(jq .self.max_rss_kib "$json") KiB"
