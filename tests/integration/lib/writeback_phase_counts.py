#!/usr/bin/env python3
"""Compare fsprof's per-phase writeback metrics with a bpftrace log.

usage: writeback_phase_counts.py RESULTS.json BPFTRACE.log

The log comes from lib/writeback.bt: "W <bdi> <nsecs> <pages> <reason>" per
flusher pass and "B <bdi> <nsecs> <pause_ms>" per balance_dirty_pages call,
for every bdi. nsecs is bpf_ktime_get_ns(), the clock of the phases'
start_mono_ns/end_mono_ns. For each phase, the target bdi's ("MAJ:MIN" of the
target) pages and throttle sleeps inside the phase window must equal
fsprof's writeback.pages_written, throttle_count and throttle_pause_ns (the
tracepoint's pause is jiffies * 1000 / HZ, truncated: 1 ms per sleep of
slack). Prints one line per phase, then "other_bdi_pages N": what other
bdis wrote inside the phase windows. Exits 1 on any difference.
"""
import json
import sys


def main():
    results = json.load(open(sys.argv[1]))["cases"][0]
    target = results["target"]
    bdi = "%d:%d" % (target["dev_major"], target["dev_minor"])
    passes, sleeps = [], []
    for line in open(sys.argv[2]):
        parts = line.split()
        if len(parts) == 5 and parts[0] == "W":
            passes.append((parts[1], int(parts[2]), int(parts[3])))
        elif len(parts) == 4 and parts[0] == "B" and int(parts[3]) > 0:
            sleeps.append((parts[1], int(parts[2]), int(parts[3])))
    bad, other_total = 0, 0
    for phase in results["phases"]:
        lo, hi = phase["start_mono_ns"], phase["end_mono_ns"]
        wb = phase["metrics"].get("writeback", {})
        pages = sum(p for b, t, p in passes if b == bdi and lo <= t <= hi)
        other = sum(p for b, t, p in passes if b != bdi and lo <= t <= hi)
        other_total += other
        slept = [ms for b, t, ms in sleeps if b == bdi and lo <= t <= hi]
        pause_ns = wb.get("throttle_pause_ns", 0)
        ok = (pages == wb.get("pages_written")
              and len(slept) == wb.get("throttle_count")
              and sum(slept) * 10**6 <= pause_ns
              <= (sum(slept) + len(slept)) * 10**6)
        bad += not ok
        print("%s %s: pages bpftrace %d fsprof %s (other bdis %d); "
              "throttle sleeps bpftrace %d (%d ms) fsprof %s (%d ns)"
              % ("ok" if ok else "MISMATCH", phase["name"], pages,
                 wb.get("pages_written"), other, len(slept), sum(slept),
                 wb.get("throttle_count"), pause_ns))
    print("other_bdi_pages %d" % other_total)
    if not results["phases"]:
        print("no phases in results")
        bad = 1
    sys.exit(1 if bad else 0)


main()
