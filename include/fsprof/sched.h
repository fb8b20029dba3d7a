/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structures the sched domain shares between bpf/sched.bpf.c and userspace:
 * every off-CPU stretch of the workload's tasks (switch-out -> switch-in),
 * aggregated by (phase, kernel stack at switch-out), and a few counts per
 * phase.
 */
#ifndef FSPROF_SCHED_H
#define FSPROF_SCHED_H

#include "fsprof/hist.h"
#include "fsprof/phase.h"

/*
 * Frames kept per stack: enough to reach the system call from any wait seen
 * so far (the deepest, XFS buffer locks under unlink, need ~22).
 */
#define SCHED_STACK_DEPTH 32
/* distinct stacks the stack map holds; a new one beyond it is lost */
#define SCHED_STACK_ENTRIES 8192
/* (phase, stack) pairs aggregated */
#define SCHED_WAIT_ENTRIES 8192

/*
 * Walking a sleeper's stack (bpf_get_stackid) costs ~3.4 us here, the most
 * of any program per IO. A task going to sleep on the same path again
 * leaves the same code addresses on its stack: the words of the raw stack
 * above the program's frame that fall in the kernel's text span are a
 * fingerprint of the path, read in one copy. A fingerprint seen before
 * names its stack without a walk; every SCHED_MEMO_CHECK_EVERY-th use (per
 * CPU) walks anyway and compares (sched.stack_memo_wrong counts the misses).
 */
#define SCHED_RAW_WORDS 128 /* 1 KiB of stack: the innermost ~8 frames */
/*
 * The code ranges a fingerprint word may lie in (KSYM_TEXT_RANGES): a
 * static variable's address, in the kernel's data between them, is left
 * out. Hashed in, it made a new fingerprint of one wait in three (fsync
 * cycles) and filled the memo within seconds.
 */
#define SCHED_TEXT_RANGES 3
#define SCHED_MEMO_ENTRIES 4096
#define SCHED_MEMO_CHECK_EVERY 16

struct sched_memo {
	int stack_id;
};

/* stack ids that are no stack */
#define SCHED_STACK_RUNQUEUE (-1) /* preempted: runnable, waiting for a CPU */
#define SCHED_STACK_LOST (-2) /* asleep, but its stack could not be kept */

/*
 * The waits of one (phase, stack) are a struct hist_counts of their off-CPU
 * time in ns, shared by all CPUs (added to atomically).
 */
struct sched_wait_key {
	__u32 phase; /* running when the task came back on a CPU */
	__s32 stack_id; /* in the stack map, or SCHED_STACK_* */
};

/* One per phase, in a per-CPU array indexed by phase. */
struct sched_phase_stats {
	unsigned long long switch_out; /* workload task left a CPU */
	unsigned long long stack_lost; /* asleep, no room for its stack */
	unsigned long long waits_lost; /* not aggregated: sched_waits full */
	unsigned long long tasks; /* workload tasks that ran in the phase */
	unsigned long long forks; /* tasks that joined the workload */
	unsigned long long stack_walks; /* bpf_get_stackid calls */
	unsigned long long memo_hits; /* stacks named by their fingerprint */
	unsigned long long memo_checks; /* ... walked anyway, to compare */
	unsigned long long memo_wrong; /* ... and found another stack */
	/*
	 * a workload task left a CPU with no switch-in seen since it last
	 * left one: the sched_switch that put it back was not traced
	 */
	unsigned long long switch_in_unseen;
	/*
	 * a workload task left a CPU with no start of its stretch there
	 * recorded (its entry was made at this switch-out, or its switch-in
	 * was unseen): the time taken from it on that stretch is not known
	 */
	unsigned long long stretch_untimed;
	/*
	 * while a workload task was on a CPU, the time the kernel did not
	 * charge it as its CPU: the hypervisor's (steal, with
	 * CONFIG_PARAVIRT_TIME_ACCOUNTING) and the rest, interrupts (with
	 * CONFIG_IRQ_TIME_ACCOUNTING), ns
	 */
	unsigned long long stolen_ns;
	unsigned long long irq_ns;
	/*
	 * sleepers from their wakeup to their switch-in, ns (the run queue
	 * wait the scheduler counts in their sched_info.run_delay)
	 */
	struct hist_counts wakeup_delay;
};

/* per task, in task-local storage: a task that has it is the workload */
struct sched_task {
	unsigned long long out_ns; /* left the CPU; 0 while on it */
	unsigned long long wake_ns; /* woken since; 0 if not */
	unsigned long long run_delay_out; /* its sched_info.run_delay then */
	unsigned long long out_clock; /* its run queue's clock then, or 0 */
	unsigned long long in_ns; /* came on a CPU; 0 while off or unknown */
	unsigned long long in_taken; /* its run queue's rq_taken() then */
	unsigned long long in_steal; /* ... and its steal */
	int stack_id; /* at switch-out */
	unsigned int phase_seen; /* the last phase it was counted in, + 1 */
	unsigned int epoch; /* the case it was last seen in (case_epoch) */
	unsigned int pad;
};

#endif
