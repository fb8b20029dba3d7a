#!/usr/bin/env python3
"""Requests the kernel issued and never reported complete, per phase:
bpftrace's count against fsprof's.

usage: unpaired_requests.py MISSED BPFTRACE_LOG RESULTS.json...

The log has block_rq_issue / block_rq_complete / block_rq_requeue lines
("I|C|R NSECS DEV SECTOR NR_SECTOR"; bpftrace prints each CPU's events in
turn, so they are put in time order first). An issue with data is unpaired
when no completion comes at its device and sector before the next issue
there, or before the log ends (a requeue puts the request back: its next
issue is the same request). It belongs to the phase of the results whose
[start_mono_ns, end_mono_ns] holds its issue (bpftrace's nsecs is the same
clock). fsprof's count for a phase is its completion_unseen over every
class and issuer, plus its inflight_at_end, less the completions it was
made to ignore (FSPROF_TEST_DROP_COMPLETIONS: block.test_completions_dropped,
which bpftrace saw complete); it may not count fewer than those.

bpftrace's programs on classic tracepoints skip an event that comes while
one of them runs on the same CPU (a completion in an interrupt during its
issue probe), counted in their recursion_misses: MISSED, its completion
program's. A skipped completion makes an issue look unpaired to bpftrace
only. So in every phase fsprof's count may not exceed bpftrace's, and
bpftrace's excess over all phases may not exceed MISSED.

Prints one line per phase where either count is not 0, then the totals.
Exits 1 if either rule is broken, 2 if bpftrace lost events from its
buffer (the pairing would be wrong)."""
import json
import sys

missed = int(sys.argv[1])
events = []
for line in open(sys.argv[2]):
    if "Lost" in line and "events" in line:
        print(f"bpftrace lost events: {line.strip()}", file=sys.stderr)
        sys.exit(2)
    p = line.split()
    if len(p) != 5 or p[0] not in ("I", "C", "R"):
        continue
    events.append((int(p[1]), p[0], (p[2], p[3]), int(p[4])))
events.sort()

live = {}
unpaired = []  # issue times
for t, kind, key, nr in events:
    if not nr:
        continue
    if kind == "I":
        if key in live:
            unpaired.append(live[key])
        live[key] = t
    else:
        live.pop(key, None)
unpaired += live.values()

phases = []
for path in sys.argv[3:]:
    for case in json.load(open(path))["cases"]:
        for ph in case["phases"]:
            b = ph["block"]
            ours = b.get("inflight_at_end", 0)
            for cls in (b.get("io_classes") or {}).values():
                for iss in cls["issuers"].values():
                    ours += iss["completion_unseen"]
            dropped = (ph.get("metrics", {}).get("block", {})
                       .get("test_completions_dropped", 0))
            phases.append((ph["start_mono_ns"], ph["end_mono_ns"],
                           f"{path} {ph['name']}", ours - dropped, dropped))

bad = 0
total_ours = total_bt = 0
for start, end, name, ours, dropped in phases:
    theirs = sum(1 for t in unpaired if start <= t < end)
    if dropped:
        print(f"{name}: fsprof ignored {dropped} completions on purpose")
    if ours < 0:
        print(f"{name}: fsprof did not count {-ours} of the completions it ignored")
        bad += 1
        ours = 0
    total_ours += ours
    total_bt += theirs
    if ours or theirs:
        print(f"{name}: fsprof {ours}, bpftrace {theirs}")
    if ours > theirs:
        print(f"{name}: fsprof counts more than bpftrace saw")
        bad += 1
print(f"in the phases: fsprof {total_ours}, bpftrace {total_bt}; "
      f"bpftrace {len(unpaired)} in all, {missed} completions it skipped")
if total_bt - total_ours > missed:
    print(f"bpftrace's {total_bt - total_ours} more are not its skipped completions")
    bad += 1
sys.exit(1 if bad else 0)
