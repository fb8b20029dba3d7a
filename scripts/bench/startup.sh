#!/usr/bin/env bash
# What `fsprof trace --dir D -- true` costs before the command runs (issue
# 34: at most 150 ms of wall time and 20 MB of RSS), on a private ext4 loop
# filesystem, and where that time goes:
#   - wall and peak RSS of the whole process, from outside (farm-bench);
#     with BASELINE (another fsprof binary) the two run in turn, A B A B,
#     and the figure is the median of the pairs' ratios;
#   - the split the tracer logs with -v: the kernel's BTF parsed for the
#     probes, each domain's open (skeleton, configuration, probing), load
#     (libbpf's relocation against the kernel's BTF + the verifier),
#     attach and bind (its maps emptied, the case's target set), and the
#     tracer's totals;
#   - the time in each bpf(2) command, summed over the process: the
#     verifier's in BPF_PROG_LOAD, the kernel's BTF checks in BTF_LOAD,
#     MAP_CREATE, LINK_CREATE (attach); the rest of a domain's load is
#     libbpf's user-space work (parsing the kernel's BTF, relocations).
# usage: startup.sh [ROUNDS=11] [BASELINE]    (root, after `make`)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
rounds=${1:-11}
base=${2:-}
bench_fs 64M
dir=$BENCH_MNT
out=$BENCH_DIR/split.txt

# the time in each bpf(2) command (the verifier's in BPF_PROG_LOAD), per
# fsprof process, from a shim around libc's syscall() that libbpf calls
cc -O2 -Wall -shared -fPIC -o "$BENCH_DIR/bpf_syscall_time.so" \
	"$(dirname "$0")/bpf_syscall_time.c" -ldl

for i in $(seq "$rounds"); do
	LD_PRELOAD=$BENCH_DIR/bpf_syscall_time.so \
		BPF_SYSCALL_TIME_OUT=$BENCH_DIR/syscalls.txt \
		"$FSPROF" trace -v --dir "$dir" -- true 2>&1 >/dev/null |
		grep -E '^fsprof: tracer: ' >>"$out" || true
done

python3 - "$out" "$BENCH_DIR/syscalls.txt" <<'EOF'
import re, statistics, sys
from collections import OrderedDict
items = OrderedDict()
for line in open(sys.argv[1]):
    m = re.match(r"fsprof: tracer: (.*)", line.strip())
    if not m:
        continue
    text = m.group(1)
    if text.startswith("kernel BTF parsed in"):
        items.setdefault("kernel BTF (probes)", []).append(float(text.split()[-2]))
    elif re.match(r"\d+ domain\(s\) loaded in", text):
        items.setdefault("tracer load (all)", []).append(float(text.split()[-2]))
    elif text.startswith("bound to the case in"):
        items.setdefault("tracer bind (all)", []).append(float(text.split()[-2]))
    else:
        d = re.match(r"(\w+) domain: (.*)", text)
        if not d:
            continue
        for part in d.group(2).split(", "):
            what, ms = part.split()[0], part.split()[-2]
            items.setdefault("%s %s" % (d.group(1), what), []).append(float(ms))
for line in open(sys.argv[2]):
    f = dict(kv.split("=", 1) for kv in line.split())
    for k in ("prog_load", "btf_load", "map_create", "link_create", "other"):
        items.setdefault("bpf(%s)" % k.upper(), []).append(float(f[k + "_ms"]))
print("split of the tracer's start, ms (median, min-max, n):")
for k, v in items.items():
    print("  %-24s %7.1f  (%.1f-%.1f, %d)" % (k, statistics.median(v), min(v), max(v), len(v)))
EOF

cmd=("$FSPROF" trace --dir "$dir" -- true)
if [ -n "$base" ]; then
	farm-bench -n "$rounds" --timeout 300 --vs "$base trace --dir $dir -- true" -- "${cmd[@]}"
else
	farm-bench -n "$rounds" --timeout 300 -- "${cmd[@]}"
fi
