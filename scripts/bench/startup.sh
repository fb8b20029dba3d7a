#!/usr/bin/env bash
# What `fsprof trace --dir D -- true` costs (issue 34: at most 150 ms of
# wall time and 20 MB of RSS), on a private ext4 loop filesystem, and
# where that time and memory go:
#   - wall and peak RSS of the whole process, from outside (farm-bench);
#     with BASELINE (another fsprof binary) the two run in turn, A B A B,
#     and the figure is the median of the pairs' ratios;
#   - the whole wall split into the process's stages, from the lines
#     fsprof logs with -v (src/util/stage.h: the monotonic clock, CPU,
#     VmRSS and the peak, VmHWM, at each): spawn to main (the dynamic
#     loader and libraries), preflight and target, the command forked
#     (its cgroup), the phase marker's set-up, the tracer (the BTF probes and
#     the domains' opens, their one load, each attach, bind), the marker's attach,
#     the command, collect,
#     teardown (the marker's detach), the tracer stopped, analysis and
#     report, the SQLite record, and main's end to the exit; each stage's
#     time, and the RSS and peak at its end (a peak that grew in a stage
#     was made there);
#   - the tracer's own split it logs with -v: the kernel's BTF parsed for
#     the probes, each domain's open (configuration, probing), the one
#     load of all (libbpf's relocation against the kernel's BTF + the
#     verifier, the same figure on each domain's line),
#     attach and bind (its maps emptied, the case's target set), and the
#     tracer's totals;
#   - the time in each bpf(2) command, summed over the process: the
#     verifier's in BPF_PROG_LOAD, the kernel's BTF checks in BTF_LOAD,
#     MAP_CREATE, LINK_CREATE (attach); the rest of a domain's load is
#     libbpf's user-space work (parsing the kernel's BTF, relocations).
#     The -v runs carry this shim (LD_PRELOAD), which adds its own load to
#     "spawn to main"; farm-bench's runs carry nothing.
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

# each -v run: its stage lines, with the moments it was spawned and reaped
python3 - "$rounds" "$out" "$FSPROF" "$dir" "$BENCH_DIR" <<'EOF'
import os, sys, time
rounds, out, fsprof, d, bench = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
env = dict(os.environ, LD_PRELOAD=bench + "/bpf_syscall_time.so",
           BPF_SYSCALL_TIME_OUT=bench + "/syscalls.txt")
with open(out, "a") as f:
    for _ in range(rounds):
        r, w = os.pipe()
        null = os.open(os.devnull, os.O_WRONLY)
        acts = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, w, 2)]
        t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        pid = os.posix_spawn(fsprof, [fsprof, "trace", "-v", "--dir", d, "--", "true"],
                             env, file_actions=acts)
        os.close(w)
        os.close(null)
        text = b""
        while True:
            b = os.read(r, 65536)
            if not b:
                break
            text += b
        os.close(r)
        _, status = os.waitpid(pid, 0)
        t1 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        f.write("run: spawned %d\n" % t0)
        for line in text.decode(errors="replace").splitlines():
            if line.startswith(("fsprof: tracer: ", "fsprof: stage: ")):
                f.write(line + "\n")
        f.write("run: reaped %d status %d\n" % (t1, status))
EOF

python3 - "$out" "$BENCH_DIR/syscalls.txt" <<'EOF'
import re, statistics, sys
from collections import OrderedDict
items = OrderedDict()
stages = OrderedDict()  # stage -> [(ms, rss_kb, peak_kb)]
runs = []
def add(d, k, v):
    d.setdefault(k, []).append(v)
def tracer_line(text):
    if text.startswith("kernel BTF parsed in"):
        add(items, "kernel BTF (probes)", float(text.split()[-2]))
    elif text.startswith("one load of"):
        add(items, "the domains' one load", float(text.split()[-2]))
    elif re.match(r"\d+ domain\(s\) loaded in", text):
        add(items, "tracer load (all)", float(text.split()[-2]))
    elif text.startswith("bound to the case in"):
        add(items, "tracer bind (all)", float(text.split()[-2]))
    else:
        d = re.match(r"(\w+) domain: (.*)", text)
        if not d:
            return
        for part in d.group(2).split(", "):
            what, ms = part.split()[0], part.split()[-2]
            add(items, "%s %s" % (d.group(1), what), float(ms))
run = None
for line in open(sys.argv[1]):
    line = line.strip()
    m = re.match(r"run: spawned (\d+)", line)
    if m:
        run = {"t0": int(m.group(1)), "marks": []}
        continue
    m = re.match(r"run: reaped (\d+)", line)
    if m and run:
        run["t1"] = int(m.group(1))
        # the last VmHWM fsprof logged: wait4's ru_maxrss would carry this
        # Python's own (posix_spawn's vfork shares its memory until exec)
        run["peak"] = max([x[3] for x in run["marks"]] or [-1])
        runs.append(run)
        run = None
        continue
    m = re.match(r"fsprof: stage: (.+) at (\d+) ns, cpu ([\d.]+) ms, rss (-?\d+) kB, peak (\d+) kB", line)
    if m and run:
        run["marks"].append((m.group(1), int(m.group(2)), int(m.group(4)), int(m.group(5))))
        continue
    m = re.match(r"fsprof: tracer: (.*)", line)
    if m:
        tracer_line(m.group(1))
# each stage is the time up to its mark, from the one before
names = {"main": "spawn to main (loader, libraries)", "preflight": "preflight",
         "target up": "target up", "command forked": "command forked, cgroup",
         "marker prepared": "phase marker: its pipe",
         "domains opened": "tracer: BTF probes, domains opened",
         "domains loaded": "tracer: the domains' one load",
         "tracer up": "tracer: bind", "marker up": "phase marker: attach",
         "command started": "command released", "command exited": "the command",
         "collected": "collect", "target down": "teardown (target, cgroup)",
         "tracer stopped": "tracer stopped", "analysed": "analysis",
         "reported": "report", "recorded": "run history (SQLite)"}
# "domains loaded": the one load of every domain's programs (libbpf, the
# verifier); "<d> domain attached": that domain's attach
for r in runs:
    prev = r["t0"]
    for name, mono, rss, peak in r["marks"]:
        add(stages, names.get(name, name), ((mono - prev) / 1e6, rss, peak))
        prev = mono
    add(stages, "main's end to exit", ((r["t1"] - prev) / 1e6, -1, r["peak"]))
    add(stages, "TOTAL (spawned to reaped)", ((r["t1"] - r["t0"]) / 1e6, -1, r["peak"]))
print("split of the whole wall, -v runs (ms: median, min-max; RSS and peak at the stage's end, kB, median):")
for k, v in stages.items():
    ms = [x[0] for x in v]
    rss = [x[1] for x in v if x[1] >= 0]
    print("  %-36s %7.1f  (%.1f-%.1f)  rss %6s  peak %6d" % (
        k, statistics.median(ms), min(ms), max(ms),
        "%d" % statistics.median(rss) if rss else "-", statistics.median([x[2] for x in v])))
for line in open(sys.argv[2]):
    f = dict(kv.split("=", 1) for kv in line.split())
    for k in ("prog_load", "btf_load", "map_create", "link_create", "other"):
        add(items, "bpf(%s)" % k.upper(), float(f[k + "_ms"]))
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
