// SPDX-License-Identifier: GPL-2.0
/*
 * Sched domain: where the workload's time went when it was not on a CPU.
 * Every off-CPU stretch of a workload task, from its switch-out to its next
 * switch-in, is counted in the phase running at the switch-in, keyed by the
 * kernel stack it went to sleep with (bpf_get_stackid at sched_switch, where
 * current is the task leaving). A task preempted while runnable has no
 * stack: its wait is for a CPU (SCHED_STACK_RUNQUEUE). Userspace names the
 * stacks and sorts them into causes.
 *
 * The workload is fsprof's main thread (the one running the workload
 * generators, workload_tid) and every process it forks, with their threads
 * and descendants. fsprof's own helper threads (the reader of the rings) are
 * not. Membership is an entry in task-local storage, made at fork: a task
 * without one costs a NULL check per event, the cheapest filter there is
 * for sched_switch, which fires on every context switch of the machine.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fsprof/sched.h"
#include "phase.bpf.h"
#include "core_fixes.bpf.h"
#include "hist.bpf.h"
#include "untrusted.bpf.h"


/*
 * The workload's root thread (fsprof's thread running the generators, or a
 * traced command's first thread), and fsprof's own process: its other
 * threads (the ring reader) are never the workload. A traced command's
 * threads are.
 */
const volatile __u32 workload_tid = 0;
const volatile __u32 own_tgid = 0;

/*
 * The code a stack fingerprint takes words from (from /proc/kallsyms):
 * SCHED_TEXT_RANGES ranges [text_range_lo, + text_range_span]
 * (src/trace/kallsyms.h: the kernel's text, its init text, the modules'
 * area), without the kernel's data between them. Set after load, before
 * attach (userspace reads /proc/kallsyms while the other domains load);
 * text_set last: 0 walks every stack.
 */
__u64 text_set = 0;
__u64 text_range_lo[SCHED_TEXT_RANGES] = {};
__u64 text_range_span[SCHED_TEXT_RANGES] = {};
/*
 * The system call dispatcher's code (do_syscall_64 on x86): with
 * randomize_kstack_offset it puts a random gap on the stack below its
 * frame, which holds stale words of older calls. The fingerprint stops
 * at the return address into it. 0, 0: not known, the whole window.
 */
__u64 entry_lo = 0;
__u64 entry_hi = 0;

/*
 * A sleeper's wakeup delay from the scheduler's own accounting
 * (CONFIG_SCHED_INFO: task_struct.sched_info, against its run queue's
 * clock, found through its CFS run queue: CONFIG_FAIR_GROUP_SCHED), set by
 * userspace when the kernel's BTF has them: no sched_wakeup program then,
 * which fires ~4 times per direct IO, machine-wide. Without them the
 * wakeup program times it.
 */
const volatile bool sched_info_delay = false;

/*
 * The time the kernel took from a workload task on its CPU (steal,
 * interrupts: rq_taken), set by userspace when the kernel's BTF has the
 * run queue's task clock and the way to it
 */
const volatile bool taken_time = false;

/*
 * The case being counted, set by userspace as each case begins; 0 between
 * cases, when nothing is. fsprof's main thread is the workload of every
 * case: its entry from an earlier case starts afresh (a stretch off its CPU
 * that began before the case did is not the case's).
 */
__u32 case_epoch = 0;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct sched_task);
} sched_tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, SCHED_STACK_ENTRIES);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, SCHED_STACK_DEPTH * sizeof(__u64));
} sched_stacks SEC(".maps");

/*
 * per CPU, added to without atomics: a task that sleeps on one CPU and
 * wakes on the other moved the shared line at every wait
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, SCHED_WAIT_ENTRIES);
	__type(key, struct sched_wait_key);
	__type(value, struct hist_counts);
} sched_waits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FSPROF_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct sched_phase_stats);
} sched_stats SEC(".maps");

/* fingerprint -> stack id (include/fsprof/sched.h) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHED_MEMO_ENTRIES);
	__type(key, __u64);
	__type(value, struct sched_memo);
} stack_memo SEC(".maps");

struct sched_raw_stack {
	__u64 w[SCHED_RAW_WORDS];
	__u64 uses; /* of the memo on this CPU: every 16th is checked */
};

/* room for the raw stack: 1 KiB is more than a BPF stack frame holds */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sched_raw_stack);
} raw_stack SEC(".maps");

static const struct hist_counts zero_wait;

static __always_inline struct sched_phase_stats *sched_stats_of(__u32 phase)
{
	return bpf_map_lookup_elem(&sched_stats, &phase);
}

/* st as of this case: an entry from an earlier one starts afresh */
static __always_inline struct sched_task *case_task(struct sched_task *st)
{
	if (st && st->epoch != case_epoch) {
		__builtin_memset(st, 0, sizeof(*st));
		st->epoch = case_epoch;
	}
	return st;
}

/* the task's entry when it is the workload; the main thread gets it here */
static __always_inline struct sched_task *workload_task(struct task_struct *t)
{
	struct sched_task *st = bpf_task_storage_get(&sched_tasks, t, 0, 0);

	if (st || (__u32)t->pid != workload_tid || !workload_tid)
		return st;
	return bpf_task_storage_get(&sched_tasks, t, 0,
				    BPF_LOCAL_STORAGE_GET_F_CREATE);
}

/*
 * one wait into its (phase, stack), in this CPU's share of the map; a
 * global function: the verifier checks it once, not at each call
 */
__noinline int wait_add(struct sched_phase_stats *ps, __u32 phase,
			__s32 stack_id, __u64 ns)
{
	struct sched_wait_key key = { .phase = phase, .stack_id = stack_id };
	struct hist_counts *h;

	h = bpf_map_lookup_elem(&sched_waits, &key);
	if (!h) {
		bpf_map_update_elem(&sched_waits, &key, &zero_wait,
				    BPF_NOEXIST);
		h = bpf_map_lookup_elem(&sched_waits, &key);
	}
	if (!h) {
		/*
		 * No room for its stack's entry (the map full, or the BPF
		 * allocator's cache empty in a burst of new stacks): the wait
		 * counts as one whose stack was lost, in the entry userspace
		 * made ready for the phase (trace/phase_keys.h), so that its
		 * time stays in the phase's off-CPU time
		 */
		if (ps)
			ps->waits_lost++;
		key.stack_id = SCHED_STACK_LOST;
		h = bpf_map_lookup_elem(&sched_waits, &key);
		if (!h)
			return 0;
	}
	hist_add(h, ns);
	return 0;
}

/*
 * The stack the task goes to sleep with, from this program's own frame
 * (userspace shows it from the caller of __schedule). A stack whose hash
 * bucket holds another one is refused (-EEXIST): without its innermost
 * frame, this program's, it hashes elsewhere and loses nothing.
 */
static __always_inline __s32 sleep_stack(void *ctx)
{
	long id = bpf_get_stackid(ctx, &sched_stacks, 0);

	if (id < 0)
		id = bpf_get_stackid(ctx, &sched_stacks, 1);
	return id < 0 ? SCHED_STACK_LOST : (__s32)id;
}

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/*
 * Where in user space the task entered the kernel: its system call's
 * return address and stack pointer. Stacks alike in their innermost
 * frames but reached by another system call or call site (a journal wait
 * under read's atime update, or under fsync's writeback) differ here.
 * bpf_task_pt_regs came in 5.15 (commit dd6e10fbd9fb): without it, 0.
 */
static __always_inline __u64 user_entry(void)
{
	struct pt_regs *regs;

	if (!bpf_core_enum_value_exists(enum bpf_func_id,
					BPF_FUNC_task_pt_regs))
		return 0;
	regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	if (!regs)
		return 0;
	/* a BTF pointer: loaded directly, not by a probe-read call each */
	return (__u64)PT_REGS_IP(regs) * FNV_PRIME ^ (__u64)PT_REGS_SP(regs);
}

/*
 * The path a task goes to sleep on, as a number: the code addresses among
 * the raw words above ctx (the tracepoint's arguments, on this task's
 * kernel stack) - the return addresses of the innermost frames, and the
 * code pointers they hold (wait queue entries', timers') - and where the
 * task entered the kernel. Heap and stack pointers, counters and times
 * fall outside the text span and are left out. 0: no fingerprint.
 */
__noinline __u64 stack_fingerprint(struct sched_raw_stack *raw)
{
	/*
	 * The bounds as locals, each range one unsigned compare: read in the
	 * loop, the globals are loaded again for every word
	 */
	__u64 lo0 = text_range_lo[0], span0 = text_range_span[0];
	__u64 lo1 = text_range_lo[1], span1 = text_range_span[1];
	__u64 lo2 = text_range_lo[2], span2 = text_range_span[2];
	__u64 elo = entry_lo, espan = entry_hi - entry_lo;
	__u64 h = FNV_OFFSET;
	__u32 i;

	if (!raw)
		return 0;
	/*
	 * No count of the words kept: the verifier would follow every count
	 * as its own path (2^128); h is known or unknown, two per word.
	 */
	for (i = 0; i < SCHED_RAW_WORDS; i++) {
		__u64 w = raw->w[i];

		if (w - lo0 > span0 && w - lo1 > span1 && w - lo2 > span2)
			continue;
		h = (h ^ w) * FNV_PRIME;
		if (w - elo < espan)
			break;
	}
	if (h == FNV_OFFSET)
		return 0;
	return (h ^ user_entry()) * FNV_PRIME;
}

/*
 * The fingerprint of the stack above ctx. A read past the stack's end
 * faults (guard page): a sleeper fewer than SCHED_RAW_WORDS words below it
 * has the half nearest ctx (its innermost frames) read alone, the rest
 * zero (no code address). Without a fingerprint its stack was walked at
 * every sleep: 15,000 of 84,000 switch-outs of fsync cycles.
 */
static __always_inline __u64 raw_stack_fingerprint(struct sched_raw_stack *raw,
						   void *ctx)
{
	if (!bpf_probe_read_kernel(raw->w, sizeof(raw->w), ctx))
		return stack_fingerprint(raw);
	if (bpf_probe_read_kernel(raw->w, sizeof(raw->w) / 2, ctx))
		return 0;
	__builtin_memset(&raw->w[SCHED_RAW_WORDS / 2], 0, sizeof(raw->w) / 2);
	return stack_fingerprint(raw);
}

/*
 * The sleeper's stack id: remembered by fingerprint, walked the first
 * time, and again every SCHED_MEMO_CHECK_EVERY-th use to check it.
 */
static __always_inline __s32 sleep_stack_memo(void *ctx,
					      struct sched_phase_stats *ps)
{
	struct sched_memo *m = NULL, fresh = {};
	struct sched_raw_stack *raw;
	__u32 zero = 0;
	__u64 fp = 0;
	__s32 id;

	raw = bpf_map_lookup_elem(&raw_stack, &zero);
	fp = raw && text_set ? raw_stack_fingerprint(raw, ctx) : 0;
	if (fp && raw) {
		m = bpf_map_lookup_elem(&stack_memo, &fp);
		/*
		 * every 16th use on this CPU, not of this fingerprint: one
		 * used fewer than 16 times is checked too
		 */
		if (m && ++raw->uses % SCHED_MEMO_CHECK_EVERY) {
			if (ps)
				ps->memo_hits++;
			return m->stack_id;
		}
	}
	id = sleep_stack(ctx);
	if (ps)
		ps->stack_walks++;
	if (!fp || id < 0)
		return id;
	if (!m) {
		fresh.stack_id = id;
		bpf_map_update_elem(&stack_memo, &fp, &fresh, BPF_NOEXIST);
		return id;
	}
	if (ps)
		ps->memo_checks++;
	if (m->stack_id != id) {
		if (ps)
			ps->memo_wrong++;
		m->stack_id = id;
	}
	return id;
}

/* t's run queue, found through its CFS run queue (CONFIG_FAIR_GROUP_SCHED) */
static __always_inline struct rq *task_rq(struct task_struct *trusted)
{
	struct task_struct *t = UNTRUSTED(struct task_struct, trusted);
	struct cfs_rq *cfs;

	if (!bpf_core_field_exists(t->se.cfs_rq) ||
	    !bpf_core_field_exists(struct cfs_rq, rq))
		return NULL;
	cfs = t->se.cfs_rq;
	return cfs ? cfs->rq : NULL;
}

/* the clock of t's run queue, brought up to date by this __schedule() */
static __always_inline __u64 task_rq_clock(struct task_struct *t)
{
	struct rq *rq = task_rq(t);

	return rq ? rq->clock : 0;
}

/*
 * What the clock of t's run queue has run ahead of its task clock since
 * boot: the time the kernel took from whatever ran on that CPU and did not
 * charge it as its CPU, the hypervisor's steal
 * (CONFIG_PARAVIRT_TIME_ACCOUNTING; alone in *steal) and interrupts
 * (CONFIG_IRQ_TIME_ACCOUNTING). Both as of the run queue's last clock
 * update, which this __schedule() makes unless it has just made one.
 */
static __always_inline bool rq_taken(struct task_struct *t, __u64 *taken,
				     __u64 *steal)
{
	struct rq *rq = task_rq(t);

	if (!rq || !bpf_core_field_exists(rq->clock_task))
		return false;
	*taken = rq->clock - rq->clock_task;
	*steal = 0;
	if (bpf_core_field_exists(rq->prev_steal_time_rq))
		*steal = rq->prev_steal_time_rq;
	return true;
}

/*
 * A part of a stretch on a CPU, its share of the time taken from it. A
 * global function: the verifier checks it once, not at each of its four
 * calls.
 */
__noinline int taken_part(__u32 phase, __u64 part_ns, __u64 len, __u64 taken,
			  __u64 steal)
{
	struct sched_phase_stats *ps;
	__u64 frac;

	if (!part_ns || !len || steal > taken)
		return 0;
	ps = sched_stats_of(phase);
	if (!ps)
		return 0;
	if (part_ns >= len) {
		ps->stolen_ns += steal;
		ps->irq_ns += taken - steal;
		return 0;
	}
	/*
	 * the part's share of the stretch, in 2^-20 (a stretch of 2^44 ns
	 * or more is divided as len >> 40, at least 16)
	 */
	frac = len >> 44 ? (part_ns >> 20) / (len >> 40) :
			   (part_ns << 20) / len;
	ps->stolen_ns += steal * frac >> 20;
	ps->irq_ns += (taken - steal) * frac >> 20;
	return 0;
}

/*
 * A task leaves the CPU it came on at st->in_ns, the kernel having taken
 * taken (steal of it) from that CPU's run queue since boot: the time taken
 * from it there, charged to the phases the stretch spans in proportion to
 * their parts of it (the main thread is on a CPU at every phase switch). A
 * global function, verified once.
 */
__noinline int taken_add(const struct sched_task *st, __u64 taken, __u64 steal,
			 __u64 now)
{
	struct phase_part part[PHASE_SPLIT_MAX] = {};
	struct phase_shared *sh = phase_map();
	__u64 len;

	if (!st || !sh || now <= st->in_ns)
		return 0;
	taken = taken > st->in_taken ? taken - st->in_taken : 0;
	steal = steal > st->in_steal ? steal - st->in_steal : 0;
	if (!taken)
		return 0;
	len = now - st->in_ns;
	/* no more than the stretch: the readings are of one run queue */
	if (taken > len)
		taken = len;
	if (steal > taken)
		steal = taken;
	phase_split(sh, st->in_ns, now, part);
	taken_part(part[0].phase, part[0].ns, len, taken, steal);
	taken_part(part[1].phase, part[1].ns, len, taken, steal);
	taken_part(part[2].phase, part[2].ns, len, taken, steal);
	taken_part(part[3].phase, part[3].ns, len, taken, steal);
	return 0;
}

/*
 * The time a task now switched in has waited on a run queue since it left
 * its CPU, as the scheduler counts it (its sched_info.run_delay, which it
 * updates after this tracepoint): what run_delay already holds since the
 * switch-out, and the wait since it was last queued. A task that moved to
 * another run queue on its way was dequeued there, its wait so far added
 * to run_delay, and queued anew.
 */
static __always_inline __u64 sched_info_wait(struct task_struct *t,
					     const struct sched_task *st)
{
	__u64 delay = 0, queued, clock;

	if (!bpf_core_field_exists(t->sched_info))
		return 0;
	if (t->sched_info.run_delay > st->run_delay_out)
		delay = t->sched_info.run_delay - st->run_delay_out;
	queued = t->sched_info.last_queued;
	clock = task_rq_clock(t);
	if (!queued || !clock)
		return delay;
	return clock > queued ? delay + clock - queued : delay;
}

/*
 * prev leaves a CPU still marked off one: the sched_switch that put it
 * back on never reached this program (1-4 of 3,200 switch-ins of a sleeper
 * behind busy loops here, with no recursion miss counted; bpftrace on the
 * classic tracepoint misses them too). With sched_info the wait is told
 * after all: it ended at the task's last_arrival on its run queue's clock,
 * and its wakeup delay is what run_delay grew since. Charged to the phase
 * running now.
 */
static __always_inline void switch_in_unseen(struct task_struct *prev,
					     struct sched_task *st,
					     struct sched_phase_stats *ps,
					     __u32 phase)
{
	__u64 arrival, delay = 0;

	if (ps)
		ps->switch_in_unseen++;
	if (!sched_info_delay || !bpf_core_field_exists(prev->sched_info) ||
	    !st->out_clock)
		return;
	arrival = prev->sched_info.last_arrival;
	if (arrival <= st->out_clock)
		return;
	wait_add(ps, phase, st->stack_id, arrival - st->out_clock);
	if (prev->sched_info.run_delay > st->run_delay_out)
		delay = prev->sched_info.run_delay - st->run_delay_out;
	if (ps && st->stack_id != SCHED_STACK_RUNQUEUE)
		hist_add(&ps->wakeup_delay, delay);
}

static __always_inline void switch_out(void *ctx, struct task_struct *prev,
				       struct sched_task *st, bool runnable,
				       __u64 now)
{
	__u32 phase = current_phase();
	struct sched_phase_stats *ps = sched_stats_of(phase);
	__u64 taken, steal;

	if (st->out_ns)
		switch_in_unseen(prev, st, ps, phase);
	if (taken_time && st->in_ns) {
		if (rq_taken(prev, &taken, &steal))
			taken_add(st, taken, steal, now);
	} else if (taken_time && ps)
		ps->stretch_untimed++;
	st->in_ns = 0;

	st->stack_id = runnable ? SCHED_STACK_RUNQUEUE :
				  sleep_stack_memo(ctx, ps);
	st->out_ns = now;
	st->wake_ns = 0;
	if (sched_info_delay && bpf_core_field_exists(prev->sched_info)) {
		st->run_delay_out = prev->sched_info.run_delay;
		st->out_clock = task_rq_clock(prev);
	}
	if (!ps)
		return;
	ps->switch_out++;
	if (st->stack_id == SCHED_STACK_LOST)
		ps->stack_lost++;
	if (st->phase_seen != phase + 1) {
		st->phase_seen = phase + 1;
		ps->tasks++;
	}
}

static __always_inline void switch_in(struct task_struct *next,
				      struct sched_task *st, __u64 now)
{
	__u32 phase = current_phase();
	struct sched_phase_stats *ps = sched_stats_of(phase);

	st->in_ns = 0;
	if (taken_time && rq_taken(next, &st->in_taken, &st->in_steal))
		st->in_ns = now;
	if (!st->out_ns || now < st->out_ns)
		return; /* on a CPU since it joined the workload */
	wait_add(ps, phase, st->stack_id, now - st->out_ns);
	if (ps && sched_info_delay && st->stack_id != SCHED_STACK_RUNQUEUE)
		hist_add(&ps->wakeup_delay, sched_info_wait(next, st));
	else if (ps && st->wake_ns && now >= st->wake_ns)
		hist_add(&ps->wakeup_delay, now - st->wake_ns);
	st->out_ns = 0;
	st->wake_ns = 0;
}

/*
 * A task that leaves the CPU runnable was preempted (preempt, or it called
 * schedule() still TASK_RUNNING): it waits for a CPU, not for an event.
 */
static __always_inline int on_switch(void *ctx, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state)
{
	struct sched_task *st;
	__u64 now = 0;

	if (!case_epoch)
		return 0;
	st = case_task(workload_task(prev));
	if (st) {
		now = bpf_ktime_get_ns();
		switch_out(ctx, prev, st, preempt || !prev_state, now);
	}
	st = case_task(bpf_task_storage_get(&sched_tasks, next, 0, 0));
	if (st)
		switch_in(next, st, now ? now : bpf_ktime_get_ns());
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(fsprof_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	return on_switch(ctx, preempt, prev, next, prev_state);
}

/*
 * before commit fa2c3254d7cf ("sched/tracing: Don't re-read p->state when
 * emitting sched_switch event") (5.18) prev_state was not an argument: read
 * it from the task
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(fsprof_switch_o, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	return on_switch(ctx, preempt, prev, next,
			 (unsigned int)task_state(prev));
}

/* a sleeper is runnable again: how long until it gets a CPU */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(fsprof_wakeup, struct task_struct *p)
{
	struct sched_task *st;

	if (!case_epoch)
		return 0;
	st = case_task(bpf_task_storage_get(&sched_tasks, p, 0, 0));
	if (st && st->out_ns && !st->wake_ns &&
	    st->stack_id != SCHED_STACK_RUNQUEUE)
		st->wake_ns = bpf_ktime_get_ns();
	return 0;
}

/*
 * A workload task forked: the child is the workload too, unless it is a
 * thread of fsprof itself (its ring reader is fsprof, not the workload).
 * The root gets its entry here too when it forks before it first leaves a
 * CPU: a traced command released from its wait for the go does, and its
 * first children were not the workload.
 */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(fsprof_fork, struct task_struct *parent, struct task_struct *child)
{
	struct sched_phase_stats *ps;

	if (!case_epoch || !workload_task(parent))
		return 0;
	if ((__u32)child->tgid == own_tgid)
		return 0;
	if (!bpf_task_storage_get(&sched_tasks, child, 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE))
		return 0;
	ps = sched_stats_of(current_phase());
	if (ps)
		ps->forks++;
	return 0;
}
