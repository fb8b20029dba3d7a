#!/usr/bin/env python3
"""Classify a bpftrace log of block_rq_issue by IO class, independently of
fsprof, and compare with fsprof's per-phase block.io_classes.

usage: block_classes_check.py BPFTRACE.log RESULTS.json...

The log holds one line per block_rq_issue event:
"<dev> <nsecs> <bytes> <sector> <rwbs>" (dev = major << 20 | minor, nsecs =
bpf_ktime_get_ns(), the clock of the phases' start/end_mono_ns).
A request is, in this order: flush (op F, or a write of no data), discard
(D), log (sector inside one of target.log.ranges), meta (M in rwbs), else
data; split read/write. Exits 1 on any difference.
"""
import json
import sys

CLASSES = ["data_read", "data_write", "meta_read", "meta_write", "log_read",
           "log_write", "flush", "discard", "other"]


def classify(nbytes, sector, rwbs, ranges):
    # rwbs: [F = PREFLUSH] op [F = FUA] [A] [S] [M] ... (blk_fill_rwbs)
    ops = rwbs[1:] if rwbs.startswith("F") and len(rwbs) > 1 else rwbs
    op = ops[:1]
    if op == "F" or (op == "W" and nbytes == 0):
        return "flush"
    if op == "D" or ops.startswith("WZ"):
        return "discard"
    if op not in ("R", "W"):
        return "other"
    rw = "write" if op == "W" else "read"
    if any(lo <= sector < hi for lo, hi in ranges):
        return "log_" + rw
    if "M" in ops[1:]:
        return "meta_" + rw
    return "data_" + rw


def main():
    events = []
    for line in open(sys.argv[1]):
        parts = line.split()
        if len(parts) != 5 or not parts[0].isdigit():
            continue
        events.append((int(parts[0]), int(parts[1]), int(parts[2]),
                       int(parts[3]), parts[4]))
    bad = checked = 0
    for path in sys.argv[2:]:
        case = json.load(open(path))["cases"][0]
        target = case["target"]
        dev = (target["dev_major"] << 20) | target["dev_minor"]
        ranges = [(r["start_sector"], r["start_sector"] + r["sectors"])
                  for r in target["log"]["ranges"]]
        for phase in case["phases"]:
            lo, hi = phase["start_mono_ns"], phase["end_mono_ns"]
            want = {c: [0, 0] for c in CLASSES}
            for d, t, nbytes, sector, rwbs in events:
                if d == dev and lo <= t <= hi:
                    c = classify(nbytes, sector, rwbs, ranges)
                    want[c][0] += 1
                    want[c][1] += nbytes
            got = phase["block"]["io_classes"]
            for c in CLASSES:
                g = [got[c]["ios"], got[c]["bytes"]]
                ok = g == want[c]
                bad += not ok
                checked += 1
                if want[c][0] or g[0] or not ok:
                    print("%s %s %s %s: bpftrace %d IOs %d bytes, fsprof "
                          "%d IOs %d bytes" % ("ok" if ok else "MISMATCH",
                                               target["fstype"],
                                               phase["name"], c, want[c][0],
                                               want[c][1], g[0], g[1]))
    if not checked:
        print("no phases in the results")
        bad = 1
    sys.exit(1 if bad else 0)


main()
