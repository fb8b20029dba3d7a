#!/usr/bin/env python3
"""Compare fsprof's per-phase block counts with a bpftrace event log.

usage: bpftrace_phase_counts.py RESULTS.json BPFTRACE.log

The log holds one line per block_rq_issue event: "<dev> <nsecs> <bytes>",
where dev is the kernel dev_t (major << 20 | minor) and nsecs is
bpf_ktime_get_ns(), the clock of the phases' start_mono_ns/end_mono_ns.
For each phase, the events of the target device inside the phase window are
counted and compared with the phase's block.total ios and bytes.
Prints one line per phase and exits 1 on any difference.
"""
import json
import sys


def main():
    results = json.load(open(sys.argv[1]))["cases"][0]
    target = results["target"]
    dev = (target["dev_major"] << 20) | target["dev_minor"]
    events = []
    for line in open(sys.argv[2]):
        parts = line.split()
        if len(parts) != 3 or not parts[0].isdigit():
            continue
        if int(parts[0]) == dev:
            events.append((int(parts[1]), int(parts[2])))
    bad = 0
    for phase in results["phases"]:
        lo, hi = phase["start_mono_ns"], phase["end_mono_ns"]
        inside = [b for t, b in events if lo <= t <= hi]
        total = phase["block"]["total"]
        ok = len(inside) == total["ios"] and sum(inside) == total["bytes"]
        bad += not ok
        print("%s %s: bpftrace %d IOs %d bytes, fsprof %d IOs %d bytes"
              % ("ok" if ok else "MISMATCH", phase["name"], len(inside),
                 sum(inside), total["ios"], total["bytes"]))
    if not results["phases"]:
        print("no phases in results")
        bad = 1
    sys.exit(1 if bad else 0)


main()
