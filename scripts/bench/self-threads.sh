#!/usr/bin/env bash
# What fsprof's own user-space threads cost a run (issue 34): each thread's
# CPU time (schedstat, ns), its wakeups (voluntary context switches: it
# slept and was woken) and preemptions, from /proc/PID/task/TID, read every
# 20 ms while `fsprof run` runs a dense workload on a memory-backed ext4
# loop (the last reading before the thread or the process ended counts;
# one python process reads them, without forking). Whole-run figures:
# setup and teardown included; the rate is per second of the phases.
# Measured (fsync:files=2000, ~1 s of phases): fsprof-events 0.6-0.7 ms of
# CPU, 20 wakeups a second (its 50 ms poll), no preemption of note. The main thread runs the workload
# generators: its CPU is the workload's; the others' (fsprof-events, the
# rings' reader; fsprof-ksyms, the kernel's symbols read at start) is
# fsprof's own, on a CPU the workload could have had.
# usage: self-threads.sh [WORKLOAD=fsync:files=2000] [ROUNDS=3]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
workload=${1:-fsync:files=2000}
rounds=${2:-3}
bench_fs 1G memory

poller='
import json, os, sys, time
pid = int(sys.argv[1])
last = {}
while True:
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        break
    for tid in tids:
        base = "/proc/%d/task/%s/" % (pid, tid)
        try:
            comm = open(base + "comm").read().strip()
            schedstat = open(base + "schedstat").read().split()
            status = open(base + "status").read()
        except OSError:
            continue
        sw = dict(l.split(":\t") for l in status.splitlines()
                  if "ctxt_switches" in l)
        last[tid] = (comm, int(schedstat[0]) / 1e6,
                     int(sw["voluntary_ctxt_switches"]),
                     int(sw["nonvoluntary_ctxt_switches"]))
    time.sleep(0.02)
json.dump(last, open(sys.argv[2], "w"))
'
report='
import json, sys
last, pid, wall = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3])
for tid, (comm, cpu, vol, inv) in sorted(last.items(), key=lambda kv: int(kv[0])):
    name = "main (workload)" if tid == pid else comm
    print("  %-16s cpu %7.1f ms  wakeups %6d (%5.0f/s of the phases)  preempted %5d"
          % (name, cpu, vol, vol / wall, inv))
'

for r in $(seq "$rounds"); do
	"$FSPROF" run -q --no-db -w "$workload" --dir "$BENCH_MNT" \
		--json "$BENCH_DIR/r.json" >/dev/null &
	pid=$!
	python3 -c "$poller" "$pid" "$BENCH_DIR/last.json"
	wait "$pid"
	wall=$(jq '[.cases[0].phases[].wall_ns] | add / 1e9' "$BENCH_DIR/r.json")
	echo "round $r: $workload, the phases' wall $wall s"
	python3 -c "$report" "$BENCH_DIR/last.json" "$pid" "$wall"
done
