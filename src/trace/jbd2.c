// SPDX-License-Identifier: GPL-2.0
/*
 * jbd2 domain, user side: see bpf/jbd2.bpf.c. Besides the BPF counts, it
 * reads the journal's transaction count from /proc/fs/jbd2/<dev>-8/info at
 * every phase boundary and reports the difference as the peer metric
 * jbd2.proc_transactions, which jbd2.commits must equal.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fsprof/jbd2.h"
#include "trace/fsprof_skel.h"
#include "trace/attach.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "trace/domain_def.h"
#include "trace/percpu.h"
#include "trace/jbd2_proc.h"
#include "trace/kconfig.h"
#include "trace/timeline.h"
#include "util/clock.h"
#include "util/kdev.h"
#include "util/log.h"

/* the run_stats times, named as the metrics report them */
static const char *const run_time_names[JBD2_T_NR] = {
	[JBD2_T_REQUEST_DELAY] = "jbd2.request_delay_ns",
	[JBD2_T_RUNNING] = "jbd2.running_ns",
	[JBD2_T_LOCKED] = "jbd2.locked_ns",
	[JBD2_T_FLUSHING] = "jbd2.flushing_ns",
	[JBD2_T_LOGGING] = "jbd2.logging_ns",
};

/* the kernel's own count of the journal's commits, per phase */
struct proc_peer {
	char path[512]; /* empty: no info file for this journal */
	uint64_t at_open, at_begin;
	/* counted by the target's mounts before the last mount again */
	uint64_t carried;
	unsigned int running; /* the phase begun last, 0 between phases */
	bool begin_exact; /* at_begin was read at the programs' boundary */
	bool lost; /* a phase's count is unknown, so the spill's is too */
	bool have[FSPROF_MAX_PHASES];
	uint64_t count[FSPROF_MAX_PHASES];
};

enum jbd2_prog {
	J2_START,
	J2_END,
	J2_STATS,
	J2_CHKPT,
	J2_STALL,
	J2_DEEP, /* from here on: the deep set, per handle */
	J2_HBEG = J2_DEEP,
	J2_HSTAT,
	J2_NR,
};

/* the programs, and the event each counts */
static const struct program_def jbd2_progs[J2_NR] = {
	[J2_START] = { "fsprof_j2_start", "jbd2:jbd2_start_commit" },
	[J2_END] = { "fsprof_j2_end", "jbd2:jbd2_end_commit" },
	[J2_STATS] = { "fsprof_j2_stats", "jbd2:jbd2_run_stats" },
	[J2_CHKPT] = { "fsprof_j2_chkpt", "jbd2:jbd2_checkpoint_stats" },
	[J2_STALL] = { "fsprof_j2_stall", "jbd2:jbd2_lock_buffer_stall" },
	[J2_HBEG] = { "fsprof_j2_hbeg", "jbd2:jbd2_handle_start" },
	[J2_HSTAT] = { "fsprof_j2_hstat", "jbd2:jbd2_handle_stats" },
};

/* the maxima of struct jbd2_stats: its histograms' */
static const size_t jbd2_stats_max[] = {
	PERCPU_HIST_MAX(struct jbd2_stats, commit_ns),
	PERCPU_HIST_MAX(struct jbd2_stats, run_ns[JBD2_T_REQUEST_DELAY]),
	PERCPU_HIST_MAX(struct jbd2_stats, run_ns[JBD2_T_RUNNING]),
	PERCPU_HIST_MAX(struct jbd2_stats, run_ns[JBD2_T_LOCKED]),
	PERCPU_HIST_MAX(struct jbd2_stats, run_ns[JBD2_T_FLUSHING]),
	PERCPU_HIST_MAX(struct jbd2_stats, run_ns[JBD2_T_LOGGING]),
};
_Static_assert(ARRAY_SIZE(jbd2_stats_max) == 1 + JBD2_T_NR,
	       "every histogram of struct jbd2_stats has its max listed");

/* a counter_def row of include/fsprof/jbd2.h's list */
#define J2_COUNTER(field, metric, prog) \
	COUNTER_DEF("jbd2." #metric, struct jbd2_stats, field, prog),

/* the counters, each reported when the program counting it is traced */
static const struct counter_def jbd2_counters[] = { JBD2_COUNTERS(J2_COUNTER) };

static const struct domain_def jbd2_def = {
	.name = "jbd2",
	.progs = jbd2_progs,
	.n_progs = J2_NR,
	.stats_map = "jbd2_stats",
	.stats_size = sizeof(struct jbd2_stats),
	.stats_max = jbd2_stats_max,
	.n_stats_max = ARRAY_SIZE(jbd2_stats_max),
	.counters = jbd2_counters,
	.n_counters = ARRAY_SIZE(jbd2_counters),
};

struct jbd2_domain {
	struct fsprof_bpf *skel;
	struct program_slot slots[J2_NR]; /* missing: the kernel has no event */
	struct percpu_stats stats;
	struct proc_peer peer;
	bool hz_known; /* libbpf found the kernel config for CONFIG_HZ */
	struct timeline_map timeline;
};

/* the timeline's series, each the bins of the metric of the same name */
static const struct timeline_field jbd2_timeline[] = {
	{ "jbd2.commits", offsetof(struct jbd2_tl_bin, commits) },
	{ "jbd2.blocks_logged", offsetof(struct jbd2_tl_bin, blocks_logged) },
};

/* the deep set fires several times per file: only with --probes deep */
static bool deep_probes_wanted(const struct trace_config *cfg)
{
	return cfg->deep;
}

static void proc_peer_open(struct proc_peer *p, unsigned int kernel_dev)
{
	unsigned int major = kdev_major(kernel_dev),
		     minor = kdev_minor(kernel_dev);
	char name[64];
	int err;

	err = jbd2_proc_dev_name(major, minor, name, sizeof(name));
	if (!err)
		err = jbd2_proc_find(JBD2_PROC_ROOT, name, p->path,
				     sizeof(p->path));
	if (!err)
		err = jbd2_proc_read_transactions(p->path, &p->at_open);
	if (err) {
		log_debug(
			"jbd2: no journal statistics for %u:%u under %s (%s): jbd2.proc_transactions not reported",
			major, minor, JBD2_PROC_ROOT, strerror_safe(-err));
		p->path[0] = '\0';
	}
}

/*
 * The kernel counts a commit in its statistics only after it has woken the
 * commit's waiters (fs/jbd2/commit.c: "Calculate overall stats" follows
 * wake_up(&journal->j_wait_done_commit)). An fsync that returns, a phase that
 * ends and a read of the info file can all run before the journal thread
 * gets the CPU back: the read then misses a commit that jbd2_run_stats has
 * already charged to the phase, and the next phase's read finds it. So a
 * boundary read waits, up to JBD2_PEER_SETTLE_MS, until the kernel's count
 * covers every commit the programs have seen since they were attached
 * (the count was first read before attach, so it can only be ahead).
 */
#define JBD2_PEER_SETTLE_MS 200
#define JBD2_PEER_POLL_NS 500000L

static bool proc_peer_read(struct proc_peer *p, const volatile __u64 *seen,
			   uint64_t *count)
{
	uint64_t start = clock_mono_ns(),
		 deadline = start + JBD2_PEER_SETTLE_MS * 1000000ull;
	struct timespec poll = { .tv_nsec = JBD2_PEER_POLL_NS };
	unsigned int polls;
	int err;

	if (!p->path[0])
		return false;
	for (polls = 0;; polls++) {
		err = jbd2_proc_read_transactions(p->path, count);
		if (err) {
			log_warn(
				"jbd2: read %s: %s; jbd2.proc_transactions not reported from here on",
				p->path, strerror_safe(-err));
			p->path[0] = '\0';
			return false;
		}
		if (*count - p->at_open + p->carried >= *seen) {
			if (polls)
				log_debug(
					"jbd2: the journal's count caught up with the programs' %llu commits after %u polls, %llu us",
					(unsigned long long)*seen, polls,
					(unsigned long long)(clock_mono_ns() -
							     start) / 1000);
			return true;
		}
		if (clock_mono_ns() >= deadline)
			break;
		nanosleep(&poll, NULL);
	}
	log_debug(
		"jbd2: %s counts %llu commits since open, the programs saw %llu; read after %d ms",
		p->path,
		(unsigned long long)(*count - p->at_open + p->carried),
		(unsigned long long)*seen, JBD2_PEER_SETTLE_MS);
	return true;
}

static void jbd2_free(struct jbd2_domain *d)
{
	timeline_map_close(&d->timeline);
	percpu_stats_fini(&d->stats);
	detach_programs(d->slots, J2_NR);
	free(d);
}

static int jbd2_open(void **priv, struct fsprof_bpf *skel,
			 const struct trace_config *cfg)
{
	struct jbd2_domain *d = calloc(1, sizeof(*d));
	/* no kernel config: CONFIG_HZ 0, and the jiffies times go unreported */
	bool hz_known = !kconfig_fallback();
	int i, err;

	if (!d)
		return -ENOMEM;
	d->skel = skel;
	err = domain_def_open(&jbd2_def, d->skel->skeleton, &d->stats,
			      d->slots);
	if (err)
		goto fail;
	d->skel->rodata->tl_bin_ns = timeline_bin_ns(cfg->bin_ns);
	d->hz_known = hz_known;
	for (i = 0; i < J2_NR; i++) {
		bool wanted = i < J2_DEEP || deep_probes_wanted(cfg);
		const char *tp = program_def_tracepoint(&jbd2_progs[i]);

		/* a program not wanted is neither loaded nor reported */
		d->slots[i].missing = wanted &&
				      btf_tracepoint_nargs(cfg->btf, tp) < 0;
		bpf_program__set_autoload(d->slots[i].prog,
					  wanted && !d->slots[i].missing);
	}
	*priv = d;
	return 0;
fail:
	jbd2_free(d);
	return err;
}

static int jbd2_loaded(void *priv)
{
	struct jbd2_domain *d = priv;

	return timeline_map_open(&d->timeline, d->skel->maps.jbd2_timeline,
				 d->skel->rodata->tl_bin_ns);
}

static int jbd2_attach(void *priv, struct attach_list *list)
{
	struct jbd2_domain *d = priv;

	return domain_def_attach(&jbd2_def, d->slots, list);
}

static int jbd2_bind(void *priv, const struct trace_config *cfg)
{
	struct jbd2_domain *d = priv;

	/* first: the peer's window must contain the programs' */
	memset(&d->peer, 0, sizeof(d->peer));
	proc_peer_open(&d->peer, cfg->kernel_dev);
	__atomic_store_n(&d->skel->bss->jbd2_targ_dev, cfg->kernel_dev,
			 __ATOMIC_RELEASE);
	return 0;
}

/*
 * The peer is read outside the programs' window on both sides: before the
 * phase id is published at a begin, after it is cleared at an end. A phase
 * the kernel switched to or from before these hooks ran (exact false) has
 * no peer count: its reads are not at the boundary the programs used. Nor
 * has the spill then, which is the whole count less the phases'.
 */
static void jbd2_phase_before(void *priv, unsigned int from, unsigned int to,
			      bool exact)
{
	struct jbd2_domain *d = priv;
	struct proc_peer *p = &d->peer;
	uint64_t now;

	(void)from;
	if (to != FSPROF_PHASE_NONE &&
	    proc_peer_read(p, &d->skel->bss->commits_seen, &now)) {
		p->at_begin = now;
		p->begin_exact = exact;
	}
}

static void jbd2_phase_after(void *priv, unsigned int from, unsigned int to,
			     bool exact)
{
	struct jbd2_domain *d = priv;
	struct proc_peer *p = &d->peer;
	unsigned int ended = p->running;
	uint64_t now;

	(void)from;
	p->running = to < FSPROF_MAX_PHASES ? to : FSPROF_PHASE_NONE;
	if (to != FSPROF_PHASE_NONE || ended == FSPROF_PHASE_NONE ||
	    !proc_peer_read(p, &d->skel->bss->commits_seen, &now))
		return;
	if (!exact || !p->begin_exact) {
		p->lost = true;
		return;
	}
	p->count[ended] = now - p->at_begin;
	p->have[ended] = true;
}

/*
 * The journal's info file starts again from zero at a mount again: what
 * it had counted, read after the syncfs before the unmount (so no commit
 * is left for the unmount to make) once it covers the commits the
 * programs saw, is carried over; the new journal's count is the new base.
 */
static void jbd2_remount(void *priv, bool mounted)
{
	struct jbd2_domain *d = priv;
	struct proc_peer *p = &d->peer;
	uint64_t now;
	int err;

	if (!mounted) {
		if (proc_peer_read(p, &d->skel->bss->commits_seen, &now))
			p->carried += now - p->at_open;
		return;
	}
	if (!p->path[0])
		return;
	err = jbd2_proc_read_transactions(p->path, &now);
	if (err) {
		log_warn(
			"jbd2: read %s after mounting the target again: %s; jbd2.proc_transactions not reported from here on",
			p->path, strerror_safe(-err));
		p->path[0] = '\0';
		return;
	}
	p->at_open = now;
}

/* the peer for phase, or for the spill: all commits not in a phase */
static bool peer_count(struct jbd2_domain *d, unsigned int phase,
		       uint64_t *count)
{
	struct proc_peer *p = &d->peer;
	uint64_t now, in_phases = 0;
	unsigned int i;

	if (phase != FSPROF_PHASE_NONE) {
		*count = p->count[phase];
		return p->have[phase];
	}
	if (p->lost)
		return false;
	if (!proc_peer_read(p, &d->skel->bss->commits_seen, &now))
		return false;
	for (i = 1; i < FSPROF_MAX_PHASES; i++)
		in_phases += p->have[i] ? p->count[i] : 0;
	*count = now - p->at_open + p->carried - in_phases;
	return true;
}

/* is the program attached (so its zero is a measured zero) */
static bool traced(const void *ctx, int prog)
{
	const struct jbd2_domain *d = ctx;

	return program_slot_attached(&d->slots[prog]);
}

static int hists_report(const struct jbd2_domain *d,
			const struct jbd2_stats *sum, struct metric_set *m)
{
	unsigned int i;
	int err = 0;

	if (traced(d, J2_START) && traced(d, J2_END))
		err = metric_hist_add_counts(m, "jbd2.commit_ns",
					     &sum->commit_ns);
	/* without CONFIG_HZ the times are not known: no histograms at all */
	if (!traced(d, J2_STATS) || !d->hz_known || d->skel->bss->hz_unknown)
		return err;
	for (i = 0; i < JBD2_T_NR && !err; i++)
		err = metric_hist_add_counts(m, run_time_names[i],
					     &sum->run_ns[i]);
	return err;
}

static int jbd2_collect(void *priv, unsigned int phase,
			struct phase_result *out)
{
	struct jbd2_domain *d = priv;
	struct metric_set *m = &out->metrics;
	struct jbd2_stats *sum;
	uint64_t peer;
	int err;

	sum = domain_def_phase_sum(&jbd2_def, &d->stats, phase, &err);
	if (!sum)
		return err;
	err = domain_def_report(&jbd2_def, sum, m, traced, d);
	if (!err)
		err = hists_report(d, sum, m);
	if (!err && peer_count(d, phase, &peer))
		err = metric_add(m, "jbd2.proc_transactions", peer);
	if (!err)
		err = metric_add(m, "jbd2.events_dropped",
				 d->skel->bss->jbd2_events_dropped[phase]);
	if (!err && phase != FSPROF_PHASE_NONE && traced(d, J2_STATS))
		err = timeline_map_collect(&d->timeline, out, jbd2_timeline,
					   sizeof(jbd2_timeline) /
						   sizeof(jbd2_timeline[0]));
	if (!err && phase == FSPROF_PHASE_NONE &&
	    (!d->hz_known || d->skel->bss->hz_unknown))
		log_warn(
			"jbd2: the kernel's CONFIG_HZ is unknown (no /proc/config.gz or /boot/config-*): commit times in jiffies were not converted and are not reported");
	free(sum);
	return err;
}

static int jbd2_event_ring(void *priv)
{
	const struct jbd2_domain *d = priv;

	return bpf_map__fd(d->skel->maps.jbd2_rare_events);
}

static void jbd2_destroy(void *priv)
{
	if (priv)
		jbd2_free(priv);
}

static const char *const jbd2_fstypes[] = { "ext3", "ext4", NULL };

const struct trace_domain_ops jbd2_domain = {
	.fstypes = jbd2_fstypes,
	.name = "jbd2",
	.charging =
		"a commit: the phase in which it finished; handles and run statistics with it",
	.open = jbd2_open,
	.loaded = jbd2_loaded,
	.attach = jbd2_attach,
	.bind = jbd2_bind,
	.phase_before = jbd2_phase_before,
	.phase_after = jbd2_phase_after,
	.remount = jbd2_remount,
	.collect = jbd2_collect,
	.event_ring = jbd2_event_ring,
	.destroy = jbd2_destroy,
};
