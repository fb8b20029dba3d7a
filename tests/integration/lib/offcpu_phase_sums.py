#!/usr/bin/env python3
"""Compare fsprof's per-phase off-CPU and stolen time with a bpftrace
switch log.

usage: offcpu_phase_sums.py RESULTS.json BPFTRACE.log TID [TOLERANCE]

The log (lib/offcpu.bt) has "out <tid> <nsecs> <state> <steal> <taken>"
and "in <tid> <nsecs> <steal> <taken>" lines for every switch of a task
named fsprof. For
the thread TID (fsprof's main thread: its pid), every stretch from a
switch-out to the next switch-in is an off-CPU wait, charged to the phase
whose window holds the switch-in (as fsprof charges it); a stretch that
left the CPU runnable (state 0, or TASK_REPORT_MAX when preempted) is
runqueue time. Every stretch from a switch-in to the next switch-out is
time on a CPU: the hypervisor's steal on that CPU meanwhile was taken from
the thread - the growth of its run queue's prev_steal_time_rq, but no more
than the growth of clock - clock_task, what the kernel really took out of
the task clock (it caps a burst of steal at the clock's own advance, and
prev_steal_time_rq still counts all of it: 724 us against 677 us taken in
one loaded run), nor than the stretch - and is split between the phase
windows the stretch spans in proportion to its time in each (as fsprof
splits it).

For every phase, fsprof's sched.offcpu_ns and sched.offcpu_ns.runqueue must
be within TOLERANCE (default 0.03) of the peer's, give or take 2 us a wait,
and its sched.stolen_ns within TOLERANCE of the peer's, give or take 20 us.
Prints one line per phase; exits 1 on any mismatch.
"""
import json
import sys

PREEMPTED = (0, 0x100)  # TASK_RUNNING, TASK_REPORT_MAX (6.x) when preempted


def switches(log, tid):
    """the switches of tid, in time order (bpftrace prints each CPU's
    buffer in turn, so the log is not)"""
    seen = []
    for line in open(log):
        parts = line.split()
        if len(parts) < 3 or parts[0] not in ("out", "in"):
            continue
        if not parts[1].isdigit() or int(parts[1]) != tid:
            continue
        is_in = parts[0] == "in"
        state = 0 if is_in else int(parts[3])
        steal = int(parts[3 if is_in else 4])
        taken = int(parts[4 if is_in else 5])
        seen.append((int(parts[2]), is_in, state, (steal, taken)))
    return sorted(seen)


def stretches(log, tid):
    """(switch-in time, off-CPU ns, runnable) of every stretch of tid"""
    out_at = None
    runnable = False
    for t, is_in, state, _ in switches(log, tid):
        if not is_in:
            out_at = t
            runnable = state in PREEMPTED
        elif out_at is not None:
            yield t, t - out_at, runnable
            out_at = None


def on_cpu(log, tid):
    """(switch-in time, switch-out time, steal meanwhile) of every stretch
    tid was on a CPU"""
    in_at = None
    for t, is_in, _, (steal, taken) in switches(log, tid):
        if is_in:
            in_at = (t, steal, taken)
        elif in_at is not None:
            took = min(max(steal - in_at[1], 0), max(taken - in_at[2], 0),
                       t - in_at[0])
            yield in_at[0], t, took
            in_at = None


def stolen_in(stretches, lo, hi):
    """the steal of the stretches on a CPU, in proportion to their time
    in [lo, hi]"""
    ns = 0.0
    for t_in, t_out, steal in stretches:
        part = min(t_out, hi) - max(t_in, lo)
        if steal and part > 0:
            ns += steal * part / (t_out - t_in)
    return ns


def close(a, b, waits, tolerance):
    """within tolerance, give or take 2 us a wait: the two programs read
    the clock at different moments of the same switch"""
    return abs(a - b) <= tolerance * max(a, b) + 2000 * waits + 100000


def main():
    results = json.load(open(sys.argv[1]))["cases"][0]
    tid = int(sys.argv[3])
    tolerance = float(sys.argv[4]) if len(sys.argv) > 4 else 0.03
    seen = list(stretches(sys.argv[2], tid))
    running = list(on_cpu(sys.argv[2], tid))
    bad = 0
    for phase in results["phases"]:
        lo, hi = phase["start_mono_ns"], phase["end_mono_ns"]
        inside = [(ns, r) for t, ns, r in seen if lo <= t <= hi]
        off = sum(ns for ns, _ in inside)
        rq = sum(ns for ns, r in inside if r)
        sched = phase["metrics"].get("sched", {})
        f_off = sched.get("offcpu_ns", -1)
        f_rq = sched.get("offcpu_ns.runqueue", 0)
        n = len(inside)
        stolen = stolen_in(running, lo, hi)
        f_stolen = sched.get("stolen_ns", -1)
        ok = close(off, f_off, n, tolerance) and close(rq, f_rq, n, tolerance)
        ok = ok and abs(stolen - f_stolen) <= tolerance * stolen + 20000
        bad += not ok
        print("%s %s: bpftrace off-CPU %d ns (runqueue %d ns) in %d waits, "
              "stolen %d ns; fsprof %d ns (runqueue %d ns) in %d waits, "
              "stolen %d ns"
              % ("ok" if ok else "MISMATCH", phase["name"], off, rq,
                 len(inside), stolen, f_off, f_rq,
                 sched.get("offcpu_count", -1), f_stolen))
    if not results["phases"] or not seen:
        print("no phases in the results or no switches of %d in the log" % tid)
        bad = 1
    sys.exit(1 if bad else 0)


main()
