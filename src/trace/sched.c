// SPDX-License-Identifier: GPL-2.0
/*
 * Sched domain, user side: see bpf/sched.bpf.c. At every collect it reads
 * the (phase, stack) waits, names the stacks it has not seen yet from
 * /proc/kallsyms, sorts each into a cause (src/trace/sched_causes.c) and
 * reports per phase the time budget: wall = on-CPU + off-CPU by cause +
 * unaccounted.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "fsprof/sched.h"
#include "trace/fsprof_skel.h"
#include "trace/attach.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "trace/domain_def.h"
#include "trace/kallsyms.h"
#include "trace/percpu.h"
#include "trace/phase_keys.h"
#include "trace/sched_causes.h"
#include "util/log.h"
#include "util/quiet_thread.h"

#define KALLSYMS "/proc/kallsyms"
#define MAX_STACK_PATH "/proc/sys/kernel/perf_event_max_stack"

/* a stack of the stack map, read and named once */
struct sched_stack {
	bool known;
	enum sched_cause cause;
	enum sched_path path; /* who asked, for durability waits */
	bool meta_read; /* read_io under a metadata path */
	unsigned int n_frames;
	char (*frame)[STACK_FRAME_LEN]; /* "jbd2_log_wait_commit+0xee" */
};

/* one (phase, stack) of the waits map */
struct sched_wait {
	int stack_id;
	struct hist_counts h;
};

struct sched_waits {
	size_t n, cap;
	struct sched_wait *v;
};

enum sched_prog {
	SC_SWITCH,
	SC_SWITCH_O, /* sched_switch before 5.18, without prev_state */
	SC_WAKEUP,
	SC_FORK,
	SC_NR,
};

/* the programs, and the event each counts */
static const struct program_def sched_progs[SC_NR] = {
	[SC_SWITCH] = { "fsprof_switch", "sched:sched_switch" },
	[SC_SWITCH_O] = { "fsprof_switch_o", "sched:sched_switch" },
	[SC_WAKEUP] = { "fsprof_wakeup", "sched:sched_wakeup" },
	[SC_FORK] = { "fsprof_fork", "sched:sched_process_fork" },
};

/* the maxima of struct sched_phase_stats */
static const size_t sched_stats_max[] = {
	PERCPU_HIST_MAX(struct sched_phase_stats, wakeup_delay),
};

/* its counts are reported by hand: sched_add_counts() */
static const struct domain_def sched_def = {
	.name = "sched",
	.progs = sched_progs,
	.n_progs = SC_NR,
	.stats_map = "sched_stats",
	.stats_size = sizeof(struct sched_phase_stats),
	.stats_max = sched_stats_max,
	.n_stats_max = ARRAY_SIZE(sched_stats_max),
};

/* the maximum of a histogram: the one word not added up over CPUs */
static const size_t hist_max_at[] = { offsetof(struct hist_counts, max) };

struct sched_domain {
	struct fsprof_bpf *skel;
	bool loaded;
	bool switch_old; /* sched_switch of 3 arguments (before 5.18) */
	struct program_slot slots[SC_NR];
	char unavailable[160]; /* why the domain cannot run here, or "" */
	struct percpu_stats stats;
	struct percpu_stats waits; /* sched_waits: a histogram per CPU */
	/* a phase's waits whose stack found no room, made ahead (BPF wait_add) */
	struct phase_keys wait_keys;
	struct sched_stack *stacks; /* SCHED_STACK_ENTRIES, by stack id */
	bool names_warned;
	unsigned int epoch; /* the case counted (bpf case_epoch), from 1 */
	/* the kernel keeps steal, interrupt time apart: sched_taken_probe */
	bool steal_kept, irq_kept;
	/* the text span, scanned while the other domains load */
	pthread_t span_thread;
	bool span_started;
	int span_err;
	struct ksym_text_scan span;
};

static void sched_span_join(struct sched_domain *d);

/* the stacks named so far forgotten: their ids are the stack map's */
static void sched_stacks_forget(struct sched_domain *d)
{
	unsigned int i;

	if (!d->stacks)
		return;
	for (i = 0; i < SCHED_STACK_ENTRIES; i++)
		free(d->stacks[i].frame);
	memset(d->stacks, 0, SCHED_STACK_ENTRIES * sizeof(*d->stacks));
}

static void sched_domain_free(struct sched_domain *d)
{
	sched_span_join(d);
	sched_stacks_forget(d);
	free(d->stacks);
	percpu_stats_fini(&d->stats);
	percpu_stats_fini(&d->waits);
	detach_programs(d->slots, SC_NR);
	free(d);
}

/*
 * What this kernel must offer, probed before load so that the domain can
 * say why it is unavailable. tp_btf programs get bpf_get_stackid through
 * the raw tracepoint helpers: probing those says whether it exists.
 */
static void sched_probe_kernel(struct sched_domain *d)
{
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) <= 0)
		snprintf(
			d->unavailable, sizeof(d->unavailable),
			"this kernel has no task-local storage for BPF (5.11+)");
	else if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_STACK_TRACE, NULL) <= 0)
		snprintf(d->unavailable, sizeof(d->unavailable),
			 "this kernel has no BPF stack maps");
	else if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT,
					 BPF_FUNC_get_stackid, NULL) <= 0)
		snprintf(
			d->unavailable, sizeof(d->unavailable),
			"this kernel has no bpf_get_stackid for tracing programs");
	else if (d->slots[SC_SWITCH].missing)
		snprintf(d->unavailable, sizeof(d->unavailable),
			 "this kernel has no tp_btf sched_switch");
}

/* where each architecture's system calls begin their random gap */
static const char *const syscall_dispatchers[] = {
	"do_syscall_64", /* x86_64 */
	"invoke_syscall", /* arm64 */
};

static void *sched_span_scan(void *arg)
{
	struct sched_domain *d = arg;

	/* one pass over the symbols for the span and the dispatcher */
	d->span_err = kallsyms_scan_text(KALLSYMS, syscall_dispatchers,
					 ARRAY_SIZE(syscall_dispatchers),
					 &d->span);
	return NULL;
}

/*
 * The text span the stack fingerprint needs (bpf/sched.bpf.c); without it
 * every sleeper's stack is walked. FSPROF_SCHED_STACK_MEMO=0 asks for that.
 * Reading /proc/kallsyms takes 50-70 ms: a thread does it while the other
 * domains load, and sched_span_set() gives it to the programs before they
 * are attached (a global they read, not a constant of their load).
 */
static void sched_span_start(struct sched_domain *d)
{
	const char *memo = getenv("FSPROF_SCHED_STACK_MEMO");

	if (memo && !strcmp(memo, "0"))
		return;
	if (quiet_thread_start(&d->span_thread, sched_span_scan, d,
			       "fsprof-ksyms")) {
		sched_span_scan(d); /* no thread: the scan on this one */
		return;
	}
	d->span_started = true;
}

static void sched_span_join(struct sched_domain *d)
{
	if (!d->span_started)
		return;
	pthread_join(d->span_thread, NULL);
	d->span_started = false;
}

/*
 * The span's code ranges for the fingerprint; a range kallsyms did not
 * make repeats the first (an empty one, 0 + 0, would take a word of 0)
 */
static void sched_text_ranges_set(struct sched_domain *d)
{
	_Static_assert(SCHED_TEXT_RANGES == KSYM_TEXT_RANGES,
		       "one fingerprint range per kallsyms text range");
	unsigned int i, from;

	for (i = 0; i < SCHED_TEXT_RANGES; i++) {
		from = i < d->span.n_ranges ? i : 0;
		d->skel->bss->text_range_lo[i] = d->span.range_lo[from];
		d->skel->bss->text_range_span[i] =
			d->span.range_hi[from] - d->span.range_lo[from];
	}
}

/* after load, before attach: the programs' span from the scan */
static void sched_span_set(struct sched_domain *d)
{
	const char *memo = getenv("FSPROF_SCHED_STACK_MEMO");

	if (memo && !strcmp(memo, "0"))
		return;
	sched_span_join(d);
	if (d->span_err) {
		log_debug(
			"sched: no kernel text span in %s: every sleeper's stack is walked",
			KALLSYMS);
		return;
	}
	if (d->span.which >= 0) {
		d->skel->bss->entry_lo = d->span.start;
		d->skel->bss->entry_hi = d->span.end;
	}
	sched_text_ranges_set(d);
	/* last: a program takes the ranges as set when text_set is */
	__atomic_store_n(&d->skel->bss->text_set, 1, __ATOMIC_RELEASE);
}

static bool sched_info_available(const struct kernel_btf *kb)
{
	const char *wakeup = getenv("FSPROF_SCHED_WAKEUP");

	if (wakeup && !strcmp(wakeup, "1"))
		return false;
	return btf_struct_has_member(kb, "task_struct", "sched_info") &&
	       btf_struct_has_member(kb, "sched_info", "run_delay") &&
	       btf_struct_has_member(kb, "sched_info", "last_queued") &&
	       btf_struct_has_member(kb, "sched_entity", "cfs_rq") &&
	       btf_struct_has_member(kb, "cfs_rq", "rq") &&
	       btf_struct_has_member(kb, "rq", "clock");
}

/*
 * A stack map cannot be made with frames beyond the kernel's limit: then
 * the domain is unavailable, known before the load of all domains, which
 * its map would fail
 */
static void sched_stack_limit(struct sched_domain *d)
{
	FILE *f = fopen(MAX_STACK_PATH, "re");
	int max_stack = -1;

	if (f) {
		if (fscanf(f, "%d", &max_stack) != 1)
			max_stack = -1;
		fclose(f);
	}
	if (max_stack >= 0 && max_stack < SCHED_STACK_DEPTH)
		snprintf(
			d->unavailable, sizeof(d->unavailable),
			"no stack map: kernel.perf_event_max_stack is %d, below the %d frames a stack keeps",
			max_stack, SCHED_STACK_DEPTH);
}

/* unavailable: neither its programs nor its maps are made at the load */
static void sched_off(struct sched_domain *d)
{
	struct bpf_map *const maps[] = {
		d->skel->maps.sched_tasks, d->skel->maps.sched_stacks,
		d->skel->maps.sched_waits, d->skel->maps.sched_stats,
		d->skel->maps.stack_memo,  d->skel->maps.raw_stack,
	};
	unsigned int i;

	for (i = 0; i < SC_NR; i++)
		bpf_program__set_autoload(d->slots[i].prog, false);
	for (i = 0; i < ARRAY_SIZE(maps); i++)
		bpf_map__set_autocreate(maps[i], false);
}

/*
 * The time the kernel took from the workload on its CPUs, from the run
 * queue's clock and task clock (bpf/sched.bpf.c: rq_taken); steal and
 * interrupts are told apart, each only where the kernel keeps it apart
 * from the task's CPU: rq.prev_steal_time_rq exists with
 * CONFIG_PARAVIRT_TIME_ACCOUNTING, rq.prev_irq_time with
 * CONFIG_IRQ_TIME_ACCOUNTING.
 */
static void sched_taken_probe(struct sched_domain *d,
			      const struct kernel_btf *kb)
{
	bool path = btf_struct_has_member(kb, "sched_entity", "cfs_rq") &&
		    btf_struct_has_member(kb, "cfs_rq", "rq") &&
		    btf_struct_has_member(kb, "rq", "clock") &&
		    btf_struct_has_member(kb, "rq", "clock_task");

	d->steal_kept = path &&
			btf_struct_has_member(kb, "rq", "prev_steal_time_rq");
	d->irq_kept = path && btf_struct_has_member(kb, "rq", "prev_irq_time");
	d->skel->rodata->taken_time = d->steal_kept || d->irq_kept;
}

static int sched_open(void **priv, struct fsprof_bpf *skel,
			 const struct trace_config *cfg)
{
	struct sched_domain *d = calloc(1, sizeof(*d));
	int err = 0, nargs;

	if (!d)
		return -ENOMEM;
	d->stacks = calloc(SCHED_STACK_ENTRIES, sizeof(*d->stacks));
	if (!d->stacks) {
		err = -ENOMEM;
		goto fail;
	}
	d->skel = skel;
	err = domain_def_open(&sched_def, d->skel->skeleton, &d->stats,
			      d->slots);
	if (!err)
		err = percpu_stats_init(&d->waits, d->skel->maps.sched_waits,
					sizeof(struct hist_counts), hist_max_at,
					ARRAY_SIZE(hist_max_at));
	if (err)
		goto fail;
	/* this thread runs the workload generators, or a command's does */
	d->skel->rodata->own_tgid = (__u32)getpid();
	d->skel->rodata->workload_tid = cfg->workload_pid ?
						(__u32)cfg->workload_pid :
						(__u32)syscall(SYS_gettid);

	/*
	 * prev_state became the fourth argument in 5.18: commit fa2c3254d7cf
	 * ("sched/tracing: Don't re-read p->state when emitting sched_switch
	 * event")
	 */
	sched_span_start(d);
	nargs = btf_tracepoint_nargs(cfg->btf, "sched_switch");
	d->slots[SC_SWITCH].missing = nargs != 4 && nargs != 3;
	d->switch_old = nargs == 3;
	bpf_program__set_autoload(d->slots[SC_SWITCH].prog, nargs == 4);
	bpf_program__set_autoload(d->slots[SC_SWITCH_O].prog, nargs == 3);
	d->slots[SC_WAKEUP].missing =
		btf_tracepoint_nargs(cfg->btf, "sched_wakeup") != 1;
	d->skel->rodata->sched_info_delay = sched_info_available(cfg->btf);
	d->skel->rodata->rdonly_cast_ok = kernel_btf_rdonly_cast(cfg->btf);
	sched_taken_probe(d, cfg->btf);
	bpf_program__set_autoload(d->slots[SC_WAKEUP].prog,
				  !d->slots[SC_WAKEUP].missing &&
					  !d->skel->rodata->sched_info_delay);
	d->slots[SC_FORK].missing =
		btf_tracepoint_nargs(cfg->btf, "sched_process_fork") != 2;
	bpf_program__set_autoload(d->slots[SC_FORK].prog,
				  !d->slots[SC_FORK].missing);
	sched_probe_kernel(d);
	if (cfg->every_process)
		snprintf(
			d->unavailable, sizeof(d->unavailable),
			"every process is the workload (fsprof record): there is no one workload whose time to budget");
	if (!d->unavailable[0])
		sched_stack_limit(d);
	if (d->unavailable[0]) {
		log_warn(
			"sched domain unavailable: %s; the run goes on without the off-CPU time budget",
			d->unavailable);
		sched_off(d);
	}
	*priv = d;
	return 0;
fail:
	sched_domain_free(d);
	return err;
}

/*
 * The loaded object's failure, this domain's alone (the tracer loads each
 * domain by itself after a failed load of all): unavailable, and kept, so
 * that its attach records why
 */
static int sched_load_failed(void *priv, int err)
{
	struct sched_domain *d = priv;

	snprintf(d->unavailable, sizeof(d->unavailable),
		 "load into the kernel: %s (run with -v for the verifier log)",
		 strerror_safe(-err));
	log_warn(
		"sched domain unavailable: %s; the run goes on without the off-CPU time budget",
		d->unavailable);
	return 0;
}

/*
 * A domain that cannot run here still loads "successfully": its attach
 * then records every program as failed with the reason, so that the
 * results say why there is no time budget.
 */
/* the (phase, lost stack) key of sched_waits, zeroed (phase_keys.h) */
static int wait_keys_make(void *arg, unsigned int phase)
{
	struct sched_domain *d = arg;
	struct sched_wait_key key = { .phase = phase,
				      .stack_id = SCHED_STACK_LOST };

	return percpu_key_make(&d->waits, &key);
}

static void wait_keys_drop(void *arg, unsigned int phase)
{
	struct sched_domain *d = arg;
	struct sched_wait_key key = { .phase = phase,
				      .stack_id = SCHED_STACK_LOST };

	bpf_map_delete_elem(bpf_map__fd(d->skel->maps.sched_waits), &key);
}

static int sched_loaded(void *priv)
{
	struct sched_domain *d = priv;

	if (d->unavailable[0])
		return 0;
	d->loaded = true;
	d->wait_keys = (struct phase_keys){ .domain = "sched",
					    .make = wait_keys_make,
					    .drop = wait_keys_drop,
					    .arg = d };
	return 0;
}

/*
 * A case: its stack map was emptied, so ids name other stacks now; the
 * workload's tasks start afresh (bpf case_task) from the new epoch.
 */
static int sched_bind(void *priv, const struct trace_config *cfg)
{
	struct sched_domain *d = priv;

	(void)cfg;
	sched_stacks_forget(d);
	d->names_warned = false;
	phase_keys_start(&d->wait_keys);
	__atomic_store_n(&d->skel->bss->case_epoch, ++d->epoch,
			 __ATOMIC_RELEASE);
	return 0;
}

static void sched_phase_after(void *priv, unsigned int from, unsigned int to,
			      bool exact)
{
	struct sched_domain *d = priv;

	(void)exact;
	if (d->loaded)
		phase_keys_switched(&d->wait_keys, from, to);
}

/* every program as failed, with the reason the domain cannot run */
static void sched_record_unavailable(struct sched_domain *d,
				     const struct program_slot *slots, int n,
				     struct attach_list *list)
{
	struct attach_record *rec;
	int i;

	for (i = 0; i < n; i++) {
		rec = attach_list_add(list);
		if (!rec)
			return;
		snprintf(rec->domain, sizeof(rec->domain), "sched");
		snprintf(rec->program, sizeof(rec->program), "%s",
			 bpf_program__name(slots[i].prog));
		snprintf(rec->event, sizeof(rec->event), "%s", slots[i].event);
		rec->state = ATTACH_FAILED;
		snprintf(rec->reason, sizeof(rec->reason), "%s",
			 d->unavailable);
	}
}

static int sched_attach(void *priv, struct attach_list *list)
{
	struct sched_domain *d = priv;

	if (!d->loaded) {
		struct program_slot slots[SC_NR];

		memcpy(slots, d->slots, sizeof(slots));
		/* the one sched_switch variant this kernel would have run */
		slots[0].prog = d->switch_old ? slots[1].prog : slots[0].prog;
		sched_record_unavailable(d, slots, 1, list);
		sched_record_unavailable(d, slots + 2, 2, list);
		return -ENOENT;
	}
	sched_span_set(d);
	attach_programs("sched", d->slots, SC_NR, list);
	/* without sched_switch nothing is measured */
	return program_slot_attached(&d->slots[SC_SWITCH]) ||
			       program_slot_attached(&d->slots[SC_SWITCH_O]) ?
		       0 :
		       -ENOENT;
}

static int waits_push(struct sched_waits *w, int stack_id,
		      const struct hist_counts *h)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		struct sched_wait *bigger =
			realloc(w->v, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		w->v = bigger;
		w->cap = cap;
	}
	w->v[w->n].stack_id = stack_id;
	w->v[w->n++].h = *h;
	return 0;
}

/*
 * The (phase, stack) waits of one phase: the map is per CPU, each value
 * the CPUs' shares added up (and the largest of their maxima).
 */
static int sched_read_waits(struct sched_domain *d, unsigned int phase,
			    struct sched_waits *w)
{
	int fd = bpf_map__fd(d->skel->maps.sched_waits);
	struct sched_wait_key key, next;
	struct hist_counts h;
	void *prev = NULL;
	int err = 0;

	while (!err && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (key.phase != phase)
			continue;
		if (percpu_stats_read_key(&d->waits, &key, &h) || !h.count)
			continue; /* gone since, or made ready and not used */
		err = waits_push(w, key.stack_id, &h);
	}
	return err;
}

/* a stack's frames: "name+0xoff", or the address when it has no name */
static int sched_stack_name(struct sched_stack *st, const __u64 *ip,
			    unsigned int n, struct ksym_lookup *sym)
{
	const char *names[SCHED_STACK_DEPTH];
	unsigned int i;

	st->frame = calloc(n ? n : 1, sizeof(*st->frame));
	if (!st->frame)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (sym[i].found)
			snprintf(st->frame[i], STACK_FRAME_LEN, "%s+0x%llx",
				 sym[i].name,
				 (unsigned long long)(ip[i] - sym[i].sym_addr));
		else
			snprintf(st->frame[i], STACK_FRAME_LEN, "0x%llx",
				 (unsigned long long)ip[i]);
		names[i] = sym[i].found ? st->frame[i] : NULL;
	}
	st->n_frames = n;
	st->cause = sched_cause_classify(names, n);
	st->path = sched_path_classify(names, n);
	st->meta_read = st->cause == SCHED_CAUSE_READ_IO &&
			sched_read_is_metadata(names, n);
	st->known = true;
	return 0;
}

static bool stack_is_new(const struct sched_domain *d, int id)
{
	return id >= 0 && id < SCHED_STACK_ENTRIES && !d->stacks[id].known;
}

/* read, name and classify the stacks of w not seen before */
static int sched_name_stacks(struct sched_domain *d,
			     const struct sched_waits *w)
{
	int fd = bpf_map__fd(d->skel->maps.sched_stacks);
	unsigned int n_new = 0, i, f, *depth = NULL;
	struct ksym_lookup *sym = NULL;
	int *ids = NULL, err = 0, named;
	__u64 *ips = NULL;
	size_t k;

	for (k = 0; k < w->n; k++)
		n_new += stack_is_new(d, w->v[k].stack_id);
	if (!n_new)
		return 0;
	ids = calloc(n_new, sizeof(*ids));
	depth = calloc(n_new, sizeof(*depth));
	ips = calloc((size_t)n_new * SCHED_STACK_DEPTH, sizeof(*ips));
	sym = calloc((size_t)n_new * SCHED_STACK_DEPTH, sizeof(*sym));
	if (!ids || !depth || !ips || !sym) {
		err = -ENOMEM;
		goto out;
	}
	for (k = 0, i = 0; k < w->n && i < n_new; k++) {
		int id = w->v[k].stack_id;
		__u64 *ip = ips + (size_t)i * SCHED_STACK_DEPTH;

		if (!stack_is_new(d, id) || bpf_map_lookup_elem(fd, &id, ip))
			continue; /* never deleted: a failed lookup is unexpected */
		for (f = 0; f < SCHED_STACK_DEPTH && ip[f]; f++)
			sym[(size_t)i * SCHED_STACK_DEPTH + f].addr = ip[f];
		ids[i] = id;
		depth[i++] = f;
	}
	n_new = i;
	/* one lookup array; unused slots (address 0) are named nothing */
	named = kallsyms_resolve(KALLSYMS, sym, n_new * SCHED_STACK_DEPTH);
	if (named <= 0 && !d->names_warned) {
		log_warn(
			"sched domain: kernel stacks cannot be named from %s (%s): every sleep is 'other'",
			KALLSYMS,
			named < 0 ? strerror_safe(-named) :
				    "addresses hidden (kptr_restrict)");
		d->names_warned = true;
	}
	for (i = 0; i < n_new && !err; i++) {
		k = (size_t)i * SCHED_STACK_DEPTH;
		err = sched_stack_name(&d->stacks[ids[i]], ips + k, depth[i],
				       sym + k);
	}
out:
	free(ids);
	free(depth);
	free(ips);
	free(sym);
	return err;
}

/* the cause a wait's stack id stands for */
static enum sched_cause wait_cause(const struct sched_domain *d, int id)
{
	if (id == SCHED_STACK_RUNQUEUE)
		return SCHED_CAUSE_RUNQUEUE;
	if (id < 0 || id >= SCHED_STACK_ENTRIES || !d->stacks[id].known)
		return SCHED_CAUSE_NO_STACK;
	return d->stacks[id].cause;
}

/*
 * The durability waits (commit, log force, cache flush) by who asked:
 * sched.sync_path_ns.<path> and sched.sync_path_count.<path>
 */
static int sched_add_sync_paths(const struct sched_domain *d,
				const struct sched_waits *w,
				struct metric_set *m)
{
	uint64_t ns[SCHED_PATH_NR] = { 0 }, n[SCHED_PATH_NR] = { 0 };
	uint64_t data_ns = 0, data_n = 0;
	char name[METRIC_NAME_LEN];
	unsigned int p;
	size_t i;
	int err = 0;

	for (i = 0; i < w->n; i++) {
		int id = w->v[i].stack_id;
		enum sched_cause c = wait_cause(d, id);

		/* an fsync's (or O_*SYNC write's) own data writeback */
		if (c == SCHED_CAUSE_WRITEBACK_WAIT &&
		    (d->stacks[id].path == SCHED_PATH_FSYNC ||
		     d->stacks[id].path == SCHED_PATH_WRITE)) {
			data_ns += w->v[i].h.sum;
			data_n += w->v[i].h.count;
		}
		if (!sched_cause_is_durability(c))
			continue;
		ns[d->stacks[id].path] += w->v[i].h.sum;
		n[d->stacks[id].path] += w->v[i].h.count;
	}
	if (data_n) {
		err = metric_add(m, "sched.sync_data_ns", data_ns);
		if (!err)
			err = metric_add(m, "sched.sync_data_count", data_n);
	}
	for (p = 0; !err && p < SCHED_PATH_NR; p++) {
		if (!n[p])
			continue;
		snprintf(name, sizeof(name), "sched.sync_path_ns.%s",
			 sched_path_name(p));
		err = metric_add(m, name, ns[p]);
		snprintf(name, sizeof(name), "sched.sync_path_count.%s",
			 sched_path_name(p));
		if (!err)
			err = metric_add(m, name, n[p]);
	}
	return err;
}

/* the read_io waits under a metadata path, every stack's */
static int sched_add_meta_reads(const struct sched_domain *d,
				const struct sched_waits *w,
				struct metric_set *m)
{
	uint64_t ns = 0, n = 0;
	size_t i;
	int err;

	for (i = 0; i < w->n; i++) {
		int id = w->v[i].stack_id;

		if (wait_cause(d, id) != SCHED_CAUSE_READ_IO ||
		    !d->stacks[id].meta_read)
			continue;
		ns += w->v[i].h.sum;
		n += w->v[i].h.count;
	}
	err = metric_add(m, "sched.meta_read_ns", ns);
	return err ? err : metric_add(m, "sched.meta_read_count", n);
}

/* sched.offcpu_ns.<cause>, its count and histogram */
static int sched_add_cause(struct metric_set *m, enum sched_cause c,
			   const struct latency_hist *h)
{
	char name[METRIC_NAME_LEN];
	struct latency_hist *out;
	int err;

	snprintf(name, sizeof(name), "sched.offcpu_count.%s",
		 sched_cause_name(c));
	err = metric_add(m, name, h->count);
	snprintf(name, sizeof(name), "sched.offcpu_ns.%s", sched_cause_name(c));
	if (!err)
		err = metric_add(m, name, h->sum_ns);
	out = err ? NULL : metric_hist(m, name);
	if (!out)
		return err ? err : -ENOMEM;
	latency_hist_add(out, h);
	return 0;
}

/*
 * The frames a reader needs: from the caller of __schedule outward (the BPF
 * and tracepoint plumbing and the scheduler's core are the same for all).
 */
static unsigned int first_shown_frame(const struct sched_stack *st)
{
	unsigned int i;

	for (i = 0; i < st->n_frames; i++)
		if (!strncmp(st->frame[i], "__schedule+", 11))
			return i + 1;
	return 0;
}

static void stack_record_fill(const struct sched_domain *d,
			      const struct sched_wait *w,
			      struct stack_record *r)
{
	const struct sched_stack *st = &d->stacks[w->stack_id];
	unsigned int f = first_shown_frame(st);

	memset(r, 0, sizeof(*r));
	snprintf(r->cause, sizeof(r->cause), "%s", sched_cause_name(st->cause));
	r->count = w->h.count;
	r->total_ns = w->h.sum;
	for (; f < st->n_frames && r->n_frames < STACK_MAX_FRAMES; f++)
		memcpy(r->frame[r->n_frames++], st->frame[f], STACK_FRAME_LEN);
}

static int wait_heavier(const void *a, const void *b)
{
	const struct sched_wait *x = a, *y = b;

	return x->h.sum < y->h.sum ? 1 : x->h.sum > y->h.sum ? -1 : 0;
}

/*
 * The three heaviest named stacks, and the heaviest 'other' one when those
 * three have none: it says which function the cause table is missing.
 */
static void sched_top_stacks(const struct sched_domain *d,
			     struct sched_waits *w, struct stack_top *top)
{
	bool other_shown = false;
	size_t i;

	memset(top, 0, sizeof(*top));
	if (!w->n)
		return; /* qsort of NULL is undefined, even of no elements */
	qsort(w->v, w->n, sizeof(*w->v), wait_heavier);
	for (i = 0; i < w->n && top->n < STACK_TOP_MAX; i++) {
		enum sched_cause c = wait_cause(d, w->v[i].stack_id);

		if (c == SCHED_CAUSE_RUNQUEUE || c == SCHED_CAUSE_NO_STACK)
			continue;
		if (top->n == STACK_TOP_MAX - 1 &&
		    (other_shown || c != SCHED_CAUSE_OTHER))
			continue;
		other_shown |= c == SCHED_CAUSE_OTHER;
		stack_record_fill(d, &w->v[i], &top->v[top->n++]);
	}
}

/*
 * The time taken from the workload on its CPUs in the phase: steal and
 * interrupts, each where the kernel keeps it apart (what it does not is in
 * the task's CPU); their sum
 */
static int sched_add_taken(const struct sched_domain *d,
			   const struct sched_phase_stats *sum,
			   struct metric_set *m, uint64_t *taken)
{
	int err = 0;

	*taken = 0;
	if (d->steal_kept) {
		err = metric_add(m, "sched.stolen_ns", sum->stolen_ns);
		*taken += sum->stolen_ns;
	}
	if (!err && d->irq_kept) {
		err = metric_add(m, "sched.irq_ns", sum->irq_ns);
		*taken += sum->irq_ns;
	}
	if (!err && (d->steal_kept || d->irq_kept))
		err = metric_add(m, "sched.stretch_untimed",
				 sum->stretch_untimed);
	return err;
}

/*
 * The time budget of a phase: wall = on-CPU + off-CPU + taken from it on
 * its CPUs (steal, interrupts) + unaccounted.
 *
 * One task cannot be on a CPU and off it at once, yet its CPU time and its
 * off-CPU stretches overlap: a task woken onto an idle CPU is charged CPU
 * from the run-queue clock update of its wakeup, and that CPU skips the
 * update when it switches to it, so the time from the wakeup to the
 * switch-in (leaving idle, the interrupt's rest) is in both. A direct
 * 4 KiB reader woken 12,000 times a second here had on-CPU + off-CPU at
 * 115% of wall. For one task that overlap is taken out of on-CPU
 * (sched.oncpu_overlap_ns): the off-CPU stretch, timed at the switches,
 * holds it. With several tasks it stays in excess_ns, thread-time.
 */
static int sched_add_budget(const struct phase_result *out, uint64_t offcpu_ns,
			    uint64_t taken_ns, uint64_t tasks,
			    struct metric_set *m)
{
	uint64_t on = out->user_ns + out->sys_ns, wall = out->wall_ns;
	uint64_t parts = on + offcpu_ns + taken_ns, overlap = 0;
	int err;

	if (tasks <= 1 && parts > wall) {
		overlap = parts - wall < on ? parts - wall : on;
		on -= overlap;
		parts -= overlap;
	}
	err = metric_add(m, "sched.wall_ns", wall);
	if (!err)
		err = metric_add(m, "sched.oncpu_ns", on);
	if (!err)
		err = metric_add(m, "sched.oncpu_overlap_ns", overlap);
	if (!err)
		err = metric_add(m, "sched.unaccounted_ns",
				 wall > parts ? wall - parts : 0);
	/* more than wall: several tasks' time (thread-time), or skew */
	if (!err)
		err = metric_add(m, "sched.excess_ns",
				 parts > wall ? parts - wall : 0);
	return err;
}

static int sched_add_counts(const struct sched_phase_stats *sum,
			    unsigned int phase, struct metric_set *m)
{
	int err = 0;

	/* phase 0 is many stretches: a task is counted again in each */
	if (phase != FSPROF_PHASE_NONE)
		err = metric_add(m, "sched.tasks", sum->tasks);
	if (!err)
		err = metric_add(m, "sched.forks", sum->forks);
	if (!err)
		err = metric_add(m, "sched.switch_out", sum->switch_out);
	if (!err)
		err = metric_add(m, "sched.stack_lost", sum->stack_lost);
	if (!err)
		err = metric_add(m, "sched.waits_lost", sum->waits_lost);
	if (!err)
		err = metric_add(m, "sched.stack_walks", sum->stack_walks);
	if (!err)
		err = metric_add(m, "sched.stack_memo_hits", sum->memo_hits);
	if (!err)
		err = metric_add(m, "sched.stack_memo_checks",
				 sum->memo_checks);
	if (!err)
		err = metric_add(m, "sched.stack_memo_wrong", sum->memo_wrong);
	if (!err)
		err = metric_add(m, "sched.switch_in_unseen",
				 sum->switch_in_unseen);
	if (!err)
		err = metric_add(m, "sched.wakeup_delay_ns",
				 sum->wakeup_delay.sum);
	if (!err && sum->wakeup_delay.count)
		err = metric_hist_add_counts(m, "sched.wakeup_delay_ns",
					     &sum->wakeup_delay);
	return err;
}

/*
 * fsprof's main thread runs the workload and collects its phases. What the
 * kernel took from a task on its CPU is charged when the task leaves the
 * CPU (bpf/sched.bpf.c: taken_add), and a CPU-bound phase can run, end and
 * be collected without one switch: leave the CPU once (a 1 us sleep
 * switches to another task or idle), so that the part of the stretch in
 * the ended phase is in its stats before they are read.
 */
static void sched_close_own_stretch(const struct sched_domain *d)
{
	const struct timespec brief = { 0, 1000 };

	if (d->skel->rodata->taken_time &&
	    (__u32)syscall(SYS_gettid) == d->skel->rodata->workload_tid)
		nanosleep(&brief, NULL);
}

static int sched_collect(void *priv, unsigned int phase,
			 struct phase_result *out)
{
	struct sched_domain *d = priv;
	struct metric_set *m = &out->metrics;
	struct latency_hist *by_cause;
	struct sched_waits w = { 0 };
	struct sched_phase_stats sum;
	uint64_t offcpu = 0, count = 0, taken;
	unsigned int c;
	size_t i;
	int err;

	by_cause = calloc(SCHED_CAUSE_NR, sizeof(*by_cause));
	if (!by_cause)
		return -ENOMEM;
	sched_close_own_stretch(d);
	err = percpu_stats_read(&d->stats, phase, &sum);
	if (!err)
		err = sched_read_waits(d, phase, &w);
	if (!err)
		err = sched_name_stacks(d, &w);
	for (i = 0; !err && i < w.n; i++)
		latency_hist_add_counts(
			&by_cause[wait_cause(d, w.v[i].stack_id)], &w.v[i].h);
	for (c = 0; !err && c < SCHED_CAUSE_NR; c++) {
		if (!by_cause[c].count)
			continue;
		offcpu += by_cause[c].sum_ns;
		count += by_cause[c].count;
		err = sched_add_cause(m, c, &by_cause[c]);
	}
	if (!err)
		err = sched_add_sync_paths(d, &w, m);
	if (!err)
		err = sched_add_meta_reads(d, &w, m);
	if (!err)
		err = metric_add(m, "sched.offcpu_ns", offcpu);
	if (!err)
		err = metric_add(m, "sched.offcpu_count", count);
	if (!err)
		err = sched_add_taken(d, &sum, m, &taken);
	if (!err && phase != FSPROF_PHASE_NONE)
		err = sched_add_budget(out, offcpu, taken, sum.tasks, m);
	if (!err)
		err = sched_add_counts(&sum, phase, m);
	if (!err)
		sched_top_stacks(d, &w, &out->sched_stacks);
	if (!err)
		phase_keys_collected(&d->wait_keys, phase);
	free(w.v);
	free(by_cause);
	return err;
}

static void sched_destroy(void *priv)
{
	if (priv)
		sched_domain_free(priv);
}

const struct trace_domain_ops sched_domain = {
	.name = "sched",
	.charging =
		"an off-CPU stretch of a workload task: the phase in which it ended (the task's switch-in), whole",
	.open = sched_open,
	.loaded = sched_loaded,
	.load_failed = sched_load_failed,
	.attach = sched_attach,
	.bind = sched_bind,
	.phase_after = sched_phase_after,
	.collect = sched_collect,
	.destroy = sched_destroy,
};
