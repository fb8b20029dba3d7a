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
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fsprof/jbd2.h"
#include "jbd2.skel.h"
#include "trace/attach.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "trace/percpu.h"
#include "trace/jbd2_proc.h"
#include "trace/kconfig.h"
#include "trace/timeline.h"
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
	unsigned int running; /* the phase begun last, 0 between phases */
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

struct jbd2_domain {
	struct jbd2_bpf *skel;
	bool missing[J2_NR];
	int ncpus;
	struct jbd2_stats *percpu; /* ncpus values, for one lookup */
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

static bool proc_peer_read(struct proc_peer *p, uint64_t *count)
{
	int err;

	if (!p->path[0])
		return false;
	err = jbd2_proc_read_transactions(p->path, count);
	if (err) {
		log_warn(
			"jbd2: read %s: %s; jbd2.proc_transactions not reported from here on",
			p->path, strerror_safe(-err));
		p->path[0] = '\0';
		return false;
	}
	return true;
}

static int jbd2_open(void **priv, const struct trace_config *cfg)
{
	static const char *const events[J2_NR] = {
		[J2_START] = "jbd2_start_commit",
		[J2_END] = "jbd2_end_commit",
		[J2_STATS] = "jbd2_run_stats",
		[J2_CHKPT] = "jbd2_checkpoint_stats",
		[J2_STALL] = "jbd2_lock_buffer_stall",
		[J2_HBEG] = "jbd2_handle_start",
		[J2_HSTAT] = "jbd2_handle_stats",
	};
	struct jbd2_domain *d = calloc(1, sizeof(*d));
	const char *fallback = kconfig_fallback();
	bool hz_known = !fallback;
	/* no kernel config: CONFIG_HZ 0, and the jiffies times go unreported */
	LIBBPF_OPTS(bpf_object_open_opts, opts, .kconfig = fallback);
	struct bpf_program *progs[J2_NR];
	int i, err;

	if (!d)
		return -ENOMEM;
	d->percpu =
		percpu_values_alloc(sizeof(struct jbd2_stats), &d->ncpus, &err);
	if (!d->percpu)
		goto fail;
	d->skel = jbd2_bpf__open_opts(&opts);
	if (!d->skel) {
		err = -errno;
		goto fail;
	}
	d->skel->rodata->targ_dev = cfg->kernel_dev;
	d->skel->rodata->tl_bin_ns = timeline_bin_ns(cfg->bin_ns);
	d->hz_known = hz_known;
	progs[J2_START] = d->skel->progs.fsprof_j2_start;
	progs[J2_END] = d->skel->progs.fsprof_j2_end;
	progs[J2_STATS] = d->skel->progs.fsprof_j2_stats;
	progs[J2_CHKPT] = d->skel->progs.fsprof_j2_chkpt;
	progs[J2_STALL] = d->skel->progs.fsprof_j2_stall;
	progs[J2_HBEG] = d->skel->progs.fsprof_j2_hbeg;
	progs[J2_HSTAT] = d->skel->progs.fsprof_j2_hstat;
	for (i = 0; i < J2_NR; i++) {
		bool wanted = i < J2_DEEP || deep_probes_wanted(cfg);

		/* a program not wanted is neither loaded nor reported */
		d->missing[i] = wanted &&
				btf_tracepoint_nargs(cfg->btf, events[i]) < 0;
		bpf_program__set_autoload(progs[i], wanted && !d->missing[i]);
	}
	/* before attach: the peer's window must contain the programs' */
	proc_peer_open(&d->peer, cfg->kernel_dev);
	*priv = d;
	return 0;
fail:
	free(d->percpu);
	free(d);
	return err;
}

static int jbd2_load(void *priv)
{
	struct jbd2_domain *d = priv;
	int err = jbd2_bpf__load(d->skel);

	if (!err)
		err = timeline_map_open(&d->timeline, d->skel->maps.timeline,
					d->skel->rodata->tl_bin_ns);
	return err;
}

static int jbd2_attach(void *priv, struct attach_list *list)
{
	struct jbd2_domain *d = priv;
	struct jbd2_bpf *s = d->skel;
	struct program_slot slots[J2_NR] = {
		[J2_START] = { s->progs.fsprof_j2_start,
			       &s->links.fsprof_j2_start,
			       "jbd2:jbd2_start_commit", d->missing[J2_START] },
		[J2_END] = { s->progs.fsprof_j2_end, &s->links.fsprof_j2_end,
			     "jbd2:jbd2_end_commit", d->missing[J2_END] },
		[J2_STATS] = { s->progs.fsprof_j2_stats,
			       &s->links.fsprof_j2_stats, "jbd2:jbd2_run_stats",
			       d->missing[J2_STATS] },
		[J2_CHKPT] = { s->progs.fsprof_j2_chkpt,
			       &s->links.fsprof_j2_chkpt,
			       "jbd2:jbd2_checkpoint_stats",
			       d->missing[J2_CHKPT] },
		[J2_STALL] = { s->progs.fsprof_j2_stall,
			       &s->links.fsprof_j2_stall,
			       "jbd2:jbd2_lock_buffer_stall",
			       d->missing[J2_STALL] },
		[J2_HBEG] = { s->progs.fsprof_j2_hbeg, &s->links.fsprof_j2_hbeg,
			      "jbd2:jbd2_handle_start", d->missing[J2_HBEG] },
		[J2_HSTAT] = { s->progs.fsprof_j2_hstat,
			       &s->links.fsprof_j2_hstat,
			       "jbd2:jbd2_handle_stats", d->missing[J2_HSTAT] },
	};

	return attach_programs("jbd2", slots, J2_NR, list) > 0 ? 0 : -ENOENT;
}

/*
 * The peer is read outside the programs' window on both sides: before the
 * phase id is published at a begin, after it is cleared at an end.
 */
static void jbd2_phase_before(void *priv, unsigned int from, unsigned int to)
{
	struct jbd2_domain *d = priv;
	struct proc_peer *p = &d->peer;
	uint64_t now;

	(void)from;
	if (to != FSPROF_PHASE_NONE && proc_peer_read(p, &now))
		p->at_begin = now;
}

static void jbd2_phase_after(void *priv, unsigned int from, unsigned int to)
{
	struct jbd2_domain *d = priv;
	struct proc_peer *p = &d->peer;
	unsigned int ended = p->running;
	uint64_t now;

	(void)from;
	p->running = to < FSPROF_MAX_PHASES ? to : FSPROF_PHASE_NONE;
	if (to == FSPROF_PHASE_NONE && ended != FSPROF_PHASE_NONE &&
	    proc_peer_read(p, &now)) {
		p->count[ended] = now - p->at_begin;
		p->have[ended] = true;
	}
}

static void stats_sum(struct jbd2_stats *into, const struct jbd2_stats *st)
{
	const struct hist_counts *src[1 + JBD2_T_NR];
	struct hist_counts *dst[1 + JBD2_T_NR];
	unsigned int h, i;

	into->commits += st->commits;
	into->commits_started += st->commits_started;
	into->commits_sync += st->commits_sync;
	into->handles += st->handles;
	into->blocks += st->blocks;
	into->blocks_logged += st->blocks_logged;
	into->checkpoints += st->checkpoints;
	into->checkpoint_written += st->checkpoint_written;
	into->checkpoint_dropped += st->checkpoint_dropped;
	into->lock_buffer_stalls += st->lock_buffer_stalls;
	into->lock_buffer_stall_ns += st->lock_buffer_stall_ns;
	into->handles_started += st->handles_started;
	into->handles_stopped += st->handles_stopped;
	into->handle_credits += st->handle_credits;
	into->handle_dirtied_blocks += st->handle_dirtied_blocks;
	src[0] = &st->commit_ns;
	dst[0] = &into->commit_ns;
	for (h = 0; h < JBD2_T_NR; h++) {
		src[1 + h] = &st->run_ns[h];
		dst[1 + h] = &into->run_ns[h];
	}
	for (h = 0; h < 1 + JBD2_T_NR; h++) {
		dst[h]->count += src[h]->count;
		dst[h]->sum += src[h]->sum;
		if (src[h]->max > dst[h]->max)
			dst[h]->max = src[h]->max;
		for (i = 0; i < HIST_NSLOTS; i++)
			dst[h]->slot[i] += src[h]->slot[i];
	}
}

/* the peer for phase, or for the spill: all commits not in a phase */
static bool peer_count(struct proc_peer *p, unsigned int phase, uint64_t *count)
{
	uint64_t now, in_phases = 0;
	unsigned int i;

	if (phase != FSPROF_PHASE_NONE) {
		*count = p->count[phase];
		return p->have[phase];
	}
	if (!proc_peer_read(p, &now))
		return false;
	for (i = 1; i < FSPROF_MAX_PHASES; i++)
		in_phases += p->have[i] ? p->count[i] : 0;
	*count = now - p->at_open - in_phases;
	return true;
}

struct named_count {
	const char *name;
	unsigned long long value;
	enum jbd2_prog prog; /* reported only when it is traced */
};

/* is the program attached (so its zero is a measured zero) */
static bool traced(const struct jbd2_domain *d, enum jbd2_prog prog)
{
	const struct jbd2_bpf *s = d->skel;
	const struct bpf_link *const links[J2_NR] = {
		[J2_START] = s->links.fsprof_j2_start,
		[J2_END] = s->links.fsprof_j2_end,
		[J2_STATS] = s->links.fsprof_j2_stats,
		[J2_CHKPT] = s->links.fsprof_j2_chkpt,
		[J2_STALL] = s->links.fsprof_j2_stall,
		[J2_HBEG] = s->links.fsprof_j2_hbeg,
		[J2_HSTAT] = s->links.fsprof_j2_hstat,
	};

	return links[prog] != NULL;
}

static int counts_report(const struct jbd2_domain *d,
			 const struct jbd2_stats *sum, struct metric_set *m)
{
	const struct named_count counts[] = {
		{ "jbd2.commits", sum->commits, J2_STATS },
		{ "jbd2.commits_started", sum->commits_started, J2_START },
		{ "jbd2.commits_sync", sum->commits_sync, J2_START },
		{ "jbd2.handles", sum->handles, J2_STATS },
		{ "jbd2.blocks", sum->blocks, J2_STATS },
		{ "jbd2.blocks_logged", sum->blocks_logged, J2_STATS },
		{ "jbd2.checkpoints", sum->checkpoints, J2_CHKPT },
		{ "jbd2.checkpoint_written_blocks", sum->checkpoint_written,
		  J2_CHKPT },
		{ "jbd2.checkpoint_dropped_blocks", sum->checkpoint_dropped,
		  J2_CHKPT },
		{ "jbd2.lock_buffer_stalls", sum->lock_buffer_stalls,
		  J2_STALL },
		{ "jbd2.lock_buffer_stall_ns", sum->lock_buffer_stall_ns,
		  J2_STALL },
		{ "jbd2.handles_started", sum->handles_started, J2_HBEG },
		{ "jbd2.handles_stopped", sum->handles_stopped, J2_HSTAT },
		{ "jbd2.handle_credits", sum->handle_credits, J2_HSTAT },
		{ "jbd2.handle_dirtied_blocks", sum->handle_dirtied_blocks,
		  J2_HSTAT },
	};
	unsigned int i;
	int err = 0;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]) && !err; i++)
		if (traced(d, counts[i].prog))
			err = metric_add(m, counts[i].name, counts[i].value);
	return err;
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
	int fd = bpf_map__fd(d->skel->maps.jbd2_stats);
	struct metric_set *m = &out->metrics;
	struct jbd2_stats *sum;
	uint64_t peer;
	__u32 key = phase;
	int cpu, err;

	if (phase >= FSPROF_MAX_PHASES)
		return -EINVAL;
	if (bpf_map_lookup_elem(fd, &key, d->percpu))
		return -errno;
	sum = calloc(1, sizeof(*sum));
	if (!sum)
		return -ENOMEM;
	for (cpu = 0; cpu < d->ncpus; cpu++)
		stats_sum(sum, &d->percpu[cpu]);
	err = counts_report(d, sum, m);
	if (!err)
		err = hists_report(d, sum, m);
	if (!err && peer_count(&d->peer, phase, &peer))
		err = metric_add(m, "jbd2.proc_transactions", peer);
	if (!err)
		err = metric_add(m, "jbd2.events_dropped",
				 d->skel->bss->events_dropped[phase]);
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

static const struct bpf_object *jbd2_object(void *priv)
{
	const struct jbd2_domain *d = priv;

	return d->skel->obj;
}

static int jbd2_event_ring(void *priv)
{
	const struct jbd2_domain *d = priv;

	return bpf_map__fd(d->skel->maps.rare_events);
}

static void jbd2_destroy(void *priv)
{
	struct jbd2_domain *d = priv;

	if (!d)
		return;
	timeline_map_close(&d->timeline);
	jbd2_bpf__destroy(d->skel);
	free(d->percpu);
	free(d);
}

static const char *const jbd2_fstypes[] = { "ext3", "ext4", NULL };

const struct trace_domain_ops jbd2_domain = {
	.fstypes = jbd2_fstypes,
	.name = "jbd2",
	.charging =
		"a commit: the phase in which it finished; handles and run statistics with it",
	.open = jbd2_open,
	.load = jbd2_load,
	.attach = jbd2_attach,
	.phase_before = jbd2_phase_before,
	.phase_after = jbd2_phase_after,
	.collect = jbd2_collect,
	.object = jbd2_object,
	.event_ring = jbd2_event_ring,
	.destroy = jbd2_destroy,
};
