#!/usr/bin/env python3
"""A sleeper for fsprof trace on a machine whose CPUs are kept busy by
others: it sleeps 0.5 ms at a time for SECONDS (default 2), so at every
wakeup it waits on a run queue for a CPU.

Marks the phase 'contended' on $FSPROF_PHASE_FD and prints the kernel's own
count of that wait: the growth of its run_delay (the second field of
/proc/self/schedstat) from just before the begin marker to just before the
end one, and the number of sleeps. (A wait can fall between a read and its
marker: the test reads run_delay at the marker writes with bpftrace.)"""
import os
import sys
import time

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0


def run_delay():
    with open("/proc/self/schedstat") as f:
        return int(f.read().split()[1])


fd = int(os.environ["FSPROF_PHASE_FD"])
before = run_delay()
os.write(fd, b"begin contended\n")
end = time.monotonic() + SECONDS
sleeps = 0
while time.monotonic() < end:
    time.sleep(0.0005)
    sleeps += 1
after = run_delay()
os.write(fd, b"end\n")
print(f"run_delay_ns {after - before} sleeps {sleeps}")
