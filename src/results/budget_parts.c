// SPDX-License-Identifier: GPL-2.0
/* The time budget's parts taken from the workload on its CPUs. */
#include "results/budget_parts.h"

const struct budget_taken_part budget_taken_parts[BUDGET_TAKEN_NR] = {
	{ "sched.stolen_ns", "stolen", "stolen by the hypervisor" },
	{ "sched.irq_ns", "irq", "interrupts" },
};
