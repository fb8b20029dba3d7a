/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The case gate of a guest's fsprof run (--case-gate PATH, which the guests
 * of fsprof run --kernel get): before each case the run says
 *   ready WORKLOAD TARGET REPEAT
 * on PATH (the guest's second serial port) and waits for the host's
 *   go ORDER
 * (ORDER: the case's place in the whole run, across kernels), or "stop" to
 * run no more cases; after the last case it says "finish" and waits for
 * any line before it analyses and writes its results. The host so runs
 * the kernels' cases in turn (A, B, A, B), one guest busy at a time, and
 * lets them all wrap up together.
 */
#ifndef FSPROF_RUN_CASE_GATE_H
#define FSPROF_RUN_CASE_GATE_H

struct case_plan;

/* PATH opened for the run (a tty made raw); an fd, or -errno */
int case_gate_open(const char *path);

/* "ready ...", then the host's answer: 0 and its ORDER; 1 for stop;
 * -errno when the gate fails */
int case_gate_wait(int fd, const struct case_plan *plan, unsigned int *order);

/* "finish", then any line from the host */
void case_gate_finish(int fd);

#endif
