/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time budget's metric names, as the sched domain writes them
 * (src/trace/sched.c) and every report and rule reads them:
 *
 *   wall = on-CPU + off-CPU (by cause) + taken + unaccounted
 *
 * "taken" is the time the workload was on a CPU that the kernel did not
 * charge as its CPU: the hypervisor ran something else on the vCPU
 * (steal), or interrupts ran (where the kernel accounts their time apart).
 * Each part is present only where the kernel keeps it apart.
 */
#ifndef FSPROF_BUDGET_PARTS_H
#define FSPROF_BUDGET_PARTS_H

#define BUDGET_OFFCPU_PREFIX "sched.offcpu_ns."

struct budget_taken_part {
	const char *metric; /* "sched.stolen_ns" */
	const char *key; /* in share_of_wall, OpenMetrics and the verdict */
	const char *label; /* in the text report and the charts */
};

#define BUDGET_TAKEN_NR 2 /* steal, interrupts */

extern const struct budget_taken_part budget_taken_parts[BUDGET_TAKEN_NR];

#endif
