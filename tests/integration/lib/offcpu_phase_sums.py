#!/usr/bin/env python3
"""Compare fsprof's per-phase off-CPU and stolen time with a bpftrace
switch log.

usage: offcpu_phase_sums.py RESULTS.json BPFTRACE.log TID [TOLERANCE]

The log (lib/offcpu.bt) has "out <tid> <nsecs> <state> <steal> <taken>
<pcount> <last_arrival> <rq_clock>" and "in <tid> <nsecs> <steal> <taken>"
lines for every switch of a task named fsprof. For the thread TID
(fsprof's main thread: its pid):

- Every stretch from a switch-out to the next switch-in is an off-CPU
  wait, charged to the phase whose window holds the switch-in (as fsprof
  charges it); a stretch that left the CPU runnable (state 0, or
  TASK_REPORT_MAX when preempted) is runqueue time.
- A switch-in neither program saw (the kernel's pcount, its count of the
  task's arrivals on a CPU, grew by one between two switch-outs with no
  switch-in logged: 1-4 in 3,000 under load) is told from the kernel's own
  record, as fsprof tells it: the wait ended at last_arrival, on the run
  queue's clock, and is charged to the phase of the next switch-out.
- Every stretch from a switch-in to the next switch-out is time on a CPU:
  the hypervisor's steal on that CPU meanwhile was taken from the thread -
  the growth of its run queue's prev_steal_time_rq, but no more than the
  growth of clock - clock_task, what the kernel really took out of the
  task clock (it caps a burst of steal at the clock's own advance), nor
  than the stretch - and is split between the phase windows the stretch
  spans in proportion to its time in each (as fsprof splits it). A
  stretch the kernel's pcount says hid a switch-out and a switch-in (it
  grew by two) has an unknown steal: at most what the peer read for it.

Both programs run at the same sched_switch, one after the other, each
reading the clock. When the hypervisor takes the CPU between the two (a
VM exit there: bpftrace's perf output raises an interrupt), the second
program's switch-in is later by what was stolen: its wait is longer, its
stretch on the CPU shorter, and the stretch's steal, capped at the
stretch, smaller by as much. The steal moved from the stretch into the
wait, and off-CPU + stolen is the same for both. So, for every phase:

- the wait counts are equal (give or take the stretches that hid one);
- off-CPU + stolen equal the peer's within TOLERANCE (default 0.03), give
  or take 2 us a wait;
- off-CPU, runqueue and stolen time each equal the peer's within
  TOLERANCE, give or take 2 us a wait (20 us for steal), and the steal
  that moved: the difference of the two stolen times.

Prints one line per phase; exits 1 on any mismatch.
"""
import json
import sys

PREEMPTED = (0, 0x100)  # TASK_RUNNING, TASK_REPORT_MAX (6.x) when preempted


class Switch:
    """one line of the log"""

    def __init__(self, parts):
        self.is_in = parts[0] == "in"
        self.t = int(parts[2])
        if self.is_in:
            self.state = 0
            self.steal, self.taken = int(parts[3]), int(parts[4])
            self.pcount = self.arrival = self.clock = None
        else:
            self.state = int(parts[3])
            self.steal, self.taken = int(parts[4]), int(parts[5])
            self.pcount, self.arrival, self.clock = (int(p) for p in
                                                     parts[6:9])


def switches(log, tid):
    """the switches of tid, in time order (bpftrace prints each CPU's
    buffer in turn, so the log is not)"""
    seen = []
    for line in open(log):
        parts = line.split()
        if len(parts) < 5 or parts[0] not in ("out", "in"):
            continue
        if not parts[1].isdigit() or int(parts[1]) != tid:
            continue
        seen.append(Switch(parts))
    return sorted(seen, key=lambda s: s.t)


def walk(log, tid):
    """the waits (charged at, ns, runnable, or at) and the stretches on a
    CPU (in, out, steal, hid a switch) of tid"""
    waits, stretches = [], []
    last_out = last_in = None
    for s in switches(log, tid):
        if s.is_in:
            if last_out is not None and last_in is None:
                waits.append((s.t, s.t - last_out.t,
                              last_out.state in PREEMPTED, s.t))
            last_in = s
            continue
        if last_out is not None and last_in is None and \
                s.pcount == last_out.pcount + 1:
            # An arrival between two switch-outs that no switch-in
            # shows: the wait ended at last_arrival (on the run queue's
            # clock, which runs at an offset from nsecs). Charged where
            # it ended, as when fsprof saw the switch-in; had fsprof
            # missed it too, it charged it at this switch-out (ambiguous
            # when a phase switch lies between).
            ended = s.t - (s.clock - s.arrival)
            waits.append((ended, max(s.arrival - last_out.clock, 0),
                          last_out.state in PREEMPTED, s.t))
        if last_in is not None:
            took = min(max(s.steal - last_in.steal, 0),
                       max(s.taken - last_in.taken, 0), s.t - last_in.t)
            hid = last_out is not None and s.pcount > last_out.pcount + 1
            stretches.append((last_in.t, s.t, took, hid))
        last_in = None
        last_out = s
    return waits, stretches


def steal_in(stretches, lo, hi, hidden):
    """the steal of the stretches on a CPU (the known or only the hidden
    ones), in proportion to their time in [lo, hi]"""
    ns = 0.0
    for t_in, t_out, steal, hid in stretches:
        part = min(t_out, hi) - max(t_in, lo)
        if steal and part > 0 and hid == hidden:
            ns += steal * part / (t_out - t_in)
    return ns


def within(a, b, tolerance, slack):
    return abs(a - b) <= tolerance * max(a, b) + slack


def main():
    results = json.load(open(sys.argv[1]))["cases"][0]
    tid = int(sys.argv[3])
    tolerance = float(sys.argv[4]) if len(sys.argv) > 4 else 0.03
    waits, stretches = walk(sys.argv[2], tid)
    bad = 0
    for phase in results["phases"]:
        lo, hi = phase["start_mono_ns"], phase["end_mono_ns"]
        inside = [(ns, r) for t, ns, r, _ in waits if lo <= t <= hi]
        off = sum(ns for ns, _ in inside)
        rq = sum(ns for ns, r in inside if r)
        n = len(inside)
        # the told waits that fsprof may have charged to either side
        either = [ns for t, ns, _, alt in waits
                  if (lo <= t <= hi) != (lo <= alt <= hi)]
        hid = sum(1 for s in stretches if s[3] and lo <= s[1] <= hi)
        stolen = steal_in(stretches, lo, hi, False)
        unknown = steal_in(stretches, lo, hi, True)
        sched = phase["metrics"].get("sched", {})
        f_off = sched.get("offcpu_ns", -1)
        f_rq = sched.get("offcpu_ns.runqueue", 0)
        f_n = sched.get("offcpu_count", -1)
        f_stolen = sched.get("stolen_ns", -1)
        # the steal fsprof, stamping after bpftrace, saw in a wait
        moved = max(stolen + unknown - f_stolen, 0)
        slack = tolerance * off + 2000 * n + 100000 + sum(either)
        ok = abs(f_n - n) <= hid + len(either)
        ok = ok and within(off + stolen, f_off + f_stolen, tolerance,
                           2000 * n + 100000 + unknown + sum(either))
        ok = ok and off - slack <= f_off <= off + moved + slack
        ok = ok and abs(f_rq - rq) <= slack + moved
        ok = ok and 0 <= f_stolen <= (1 + tolerance) * (stolen + unknown) + 20000
        bad += not ok
        print("%s %s: bpftrace off-CPU %d ns (runqueue %d ns) in %d waits, "
              "stolen %d ns (+%d ns in %d stretches that hid a switch); "
              "fsprof %d ns (runqueue %d ns) in %d waits, stolen %d ns; "
              "steal seen in a wait %d ns"
              % ("ok" if ok else "MISMATCH", phase["name"], off, rq, n,
                 stolen, unknown, hid, f_off, f_rq, f_n, f_stolen, moved))
    if not results["phases"] or not waits:
        print("no phases in the results or no switches of %d in the log" % tid)
        bad = 1
    sys.exit(1 if bad else 0)


main()
