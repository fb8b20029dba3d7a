#!/usr/bin/python3
"""Check fsprof's trace export (--trace FILE.json.gz) against the Chrome
trace-event format Perfetto imports, and against the run's results JSON.

usage: trace_check.py TRACE.json.gz RESULTS.json

The file must gunzip and parse; every event needs ph, pid and (but
counters and process metadata) tid; X slices need ts and dur >= 0; slices
of one track (pid, tid) must nest: one either holds the other or they do
not overlap. Per case (pid = case index + 1): a process name, a "phases"
track with one slice per phase spanning its start..end, jbd2 commit slices
as many as the case's jbd2 commit events, one instant per log force,
writeback pass and slow IO on tracks of those names, and counter samples
whose sum per IO class is the timeline's. Exits 1 on any problem.
"""
import gzip
import json
import sys
from collections import defaultdict

KIND_TRACK = {"log_force": "xfs log forces", "work": "writeback passes",
              "slow_io": "slow IOs"}


def main():
    trace = json.load(gzip.open(sys.argv[1], "rt"))
    doc = json.load(open(sys.argv[2]))
    ev = trace["traceEvents"]
    bad = []
    tracks = {}
    procs = {}
    slices = defaultdict(list)
    instants = defaultdict(int)
    counters = defaultdict(lambda: defaultdict(int))
    for e in ev:
        ph = e.get("ph")
        if ph is None or "pid" not in e:
            bad.append(f"event without ph or pid: {e}")
            continue
        if ph == "M":
            if e["name"] == "thread_name":
                tracks[(e["pid"], e["tid"])] = e["args"]["name"]
            elif e["name"] == "process_name":
                procs[e["pid"]] = e["args"]["name"]
        elif ph == "X":
            if e["dur"] < 0 or "tid" not in e:
                bad.append(f"bad slice {e}")
            slices[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e))
        elif ph == "i":
            instants[(e["pid"], e["tid"])] += 1
        elif ph == "C":
            for k, v in e["args"].items():
                counters[e["pid"]][k] += v
        else:
            bad.append(f"unexpected ph {ph}")
    # slices nest on every track
    for key, s in slices.items():
        s.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        for start, end, e in s:
            while stack and stack[-1] <= start + 1e-3:
                stack.pop()
            if stack and end > stack[-1] + 1e-3:
                bad.append(f"track {tracks.get(key)} of pid {key[0]}: slice {e['name']} "
                           f"[{start}, {end}] overlaps its parent's end {stack[-1]}")
            stack.append(end)
    for ci, c in enumerate(doc["cases"], 1):
        if ci not in procs:
            bad.append(f"case {ci}: no process name")
        names = {tid: n for (pid, tid), n in tracks.items() if pid == ci}
        by_name = defaultdict(list)
        for tid, n in names.items():
            by_name[n.split(" (")[0]].append(tid)
        ph_tid = by_name.get("phases", [None])[0]
        got = sorted((x[0], x[1], x[2]["name"]) for x in slices.get((ci, ph_tid), []))
        want = sorted((p["start_mono_ns"] / 1e3, p["start_mono_ns"] / 1e3 + p["wall_ns"] / 1e3,
                       p["name"]) for p in c["phases"])
        if [g[2] for g in got] != [w[2] for w in want] or any(
                abs(g[0] - w[0]) > 1 or abs(g[1] - w[1]) > 1 for g, w in zip(got, want)):
            bad.append(f"case {ci}: phase slices {got[:3]} != {want[:3]}")
        commits = sum(1 for e in c["events"] if e.get("kind") == "commit")
        got_commits = sum(len(slices.get((ci, t), [])) for t in by_name.get("jbd2 commits", []))
        if got_commits != commits:
            bad.append(f"case {ci}: {got_commits} commit slices, {commits} commit events")
        for kind, track in KIND_TRACK.items():
            n = sum(1 for e in c["events"] if e.get("kind") == kind)
            got_n = sum(instants.get((ci, t), 0) for t in by_name.get(track, []))
            if got_n != n:
                bad.append(f"case {ci}: {got_n} instants on {track!r}, {n} {kind} events")
        for cls in ("data_read", "data_write", "meta_read", "meta_write", "log_read", "log_write"):
            want = sum(sum(p["timeline"]["series"].get(f"block.{cls}_bytes", []))
                       for p in c["phases"])
            if counters[ci].get(cls, 0) != want:
                bad.append(f"case {ci}: counter {cls} sums to {counters[ci].get(cls, 0)}, timeline {want}")
    for b in bad[:30]:
        print(b)
    print(f"{len(ev)} events, {sum(len(s) for s in slices.values())} slices, "
          f"{len(tracks)} tracks, {len(bad)} problem(s)")
    return 1 if bad else 0


sys.exit(main())
