#!/usr/bin/env python3
"""Compare fsprof's per-phase event counts with a bpftrace event log.

usage: bpftrace_metric_counts.py RESULTS.json BPFTRACE.log EVENT=METRIC...

The log holds one line per tracepoint hit: "<event> <dev> <nsecs>", where
dev is the kernel dev_t (major << 20 | minor) the event carries and nsecs is
bpf_ktime_get_ns(), the clock of the phases' start_mono_ns/end_mono_ns.
For every case and phase, the events of the case's device inside the phase
window are counted and compared with the phase's metric (e.g.
jbd2_run_stats=jbd2.commits). Prints one line per comparison and exits 1 on
any difference, or when no event of a pair was seen at all (a check that
compares zeros checks nothing).
"""
import json
import sys


def metric(phase, dotted):
    value = phase.get("metrics", {})
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def main():
    results = json.load(open(sys.argv[1]))
    pairs = [arg.split("=", 1) for arg in sys.argv[3:]]
    events = {}
    for line in open(sys.argv[2]):
        parts = line.split()
        if len(parts) != 3 or not (parts[1].isdigit() and parts[2].isdigit()):
            continue
        events.setdefault((parts[0], int(parts[1])), []).append(int(parts[2]))
    bad = 0
    seen = {event: 0 for event, _ in pairs}
    for case in results["cases"]:
        target = case["target"]
        dev = (target["dev_major"] << 20) | target["dev_minor"]
        label = "%s on %s" % (case["workload"]["name"],
                              case.get("target_label", target["fstype"]))
        for phase in case["phases"]:
            lo, hi = phase["start_mono_ns"], phase["end_mono_ns"]
            for event, name in pairs:
                stamps = events.get((event, dev), [])
                inside = sum(1 for t in stamps if lo <= t <= hi)
                got = metric(phase, name)
                ok = got == inside
                bad += not ok
                seen[event] += inside
                print("%s %s %s: bpftrace %s %d, fsprof %s %s"
                      % ("ok" if ok else "MISMATCH", label, phase["name"],
                         event, inside, name, got))
    for event, count in seen.items():
        if not count:
            print("NOTHING: no %s event in any phase" % event)
            bad += 1
    if not results["cases"]:
        print("no cases in results")
        bad += 1
    sys.exit(1 if bad else 0)


main()
