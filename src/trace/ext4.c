// SPDX-License-Identifier: GPL-2.0
/* ext4 domain, user side: see bpf/ext4.bpf.c. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fsprof/ext4.h"
#include "ext4.skel.h"
#include "trace/attach.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "trace/percpu.h"
#include "util/log.h"

/* the programs, by the event they count; variants share an event */
enum ext4_prog {
	E4_REQ,
	E4_ALLOC,
	E4_MBALLOC,
	E4_MBPA,
	E4_IPA,
	E4_GPA,
	E4_FREE,
	E4_RESV,
	E4_RESV1,
	E4_FLUSH,
	E4_FLUSH3,
	E4_DAEXT,
	E4_DAFORCED,
	E4_WP,
	E4_WPRES,
	E4_FSIN,
	E4_FSOUT,
	E4_SYNCFS,
	E4_FCSTOP,
	E4_DEEP, /* from here on: the deep set, several hits per file */
	E4_DIRTY = E4_DEEP,
	E4_ESLOOKUP,
	E4_NR,
};

static const char *const ext4_events[E4_NR] = {
	[E4_REQ] = "ext4_request_blocks",
	[E4_ALLOC] = "ext4_allocate_blocks",
	[E4_MBALLOC] = "ext4_mballoc_alloc",
	[E4_MBPA] = "ext4_mballoc_prealloc",
	[E4_IPA] = "ext4_mb_new_inode_pa",
	[E4_GPA] = "ext4_mb_new_group_pa",
	[E4_FREE] = "ext4_free_blocks",
	[E4_RESV] = "ext4_da_reserve_space",
	[E4_RESV1] = "ext4_da_reserve_space",
	[E4_FLUSH] = "ext4_da_write_folios_start",
	[E4_FLUSH3] = "ext4_da_write_pages",
	[E4_DAEXT] = "ext4_da_write_pages_extent",
	[E4_DAFORCED] = "ext4_alloc_da_blocks",
	[E4_WP] = "ext4_writepages",
	[E4_WPRES] = "ext4_writepages_result",
	[E4_FSIN] = "ext4_sync_file_enter",
	[E4_FSOUT] = "ext4_sync_file_exit",
	[E4_SYNCFS] = "ext4_sync_fs",
	[E4_FCSTOP] = "ext4_fc_commit_stop",
	[E4_DIRTY] = "ext4_mark_inode_dirty",
	[E4_ESLOOKUP] = "ext4_es_lookup_extent_exit",
};

/* the names the report gives the criteria passes (enum ext4_cr) */
static const char *const cr_names[EXT4_CR_NR] = {
	[EXT4_CR_POWER2_ALIGNED] = "ext4.mballoc_cr_power2_aligned",
	[EXT4_CR_GOAL_LEN_FAST] = "ext4.mballoc_cr_goal_len_fast",
	[EXT4_CR_BEST_AVAIL_LEN] = "ext4.mballoc_cr_best_avail_len",
	[EXT4_CR_GOAL_LEN_SLOW] = "ext4.mballoc_cr_goal_len_slow",
	[EXT4_CR_ANY_FREE] = "ext4.mballoc_cr_any_free",
	[EXT4_CR_UNKNOWN] = "ext4.mballoc_cr_unknown",
};

struct ext4_domain {
	struct ext4_bpf *skel;
	struct bpf_program *prog[E4_NR];
	struct bpf_link **link[E4_NR];
	bool missing[E4_NR]; /* the kernel has no such event */
	int ncpus;
	struct ext4_stats *percpu; /* ncpus values, for one lookup */
};

static void ext4_programs_index(struct ext4_domain *d)
{
	struct ext4_bpf *s = d->skel;

#define E4_SLOT(id, name)                     \
	do {                                  \
		d->prog[id] = s->progs.name;  \
		d->link[id] = &s->links.name; \
	} while (0)
	E4_SLOT(E4_REQ, fsprof_e4_req);
	E4_SLOT(E4_ALLOC, fsprof_e4_alloc);
	E4_SLOT(E4_MBALLOC, fsprof_e4_mball);
	E4_SLOT(E4_MBPA, fsprof_e4_mbpa);
	E4_SLOT(E4_IPA, fsprof_e4_ipa);
	E4_SLOT(E4_GPA, fsprof_e4_gpa);
	E4_SLOT(E4_FREE, fsprof_e4_free);
	E4_SLOT(E4_RESV, fsprof_e4_resv);
	E4_SLOT(E4_RESV1, fsprof_e4_resv1);
	E4_SLOT(E4_FLUSH, fsprof_e4_flush);
	E4_SLOT(E4_FLUSH3, fsprof_e4_flsh3);
	E4_SLOT(E4_DAEXT, fsprof_e4_daext);
	E4_SLOT(E4_DAFORCED, fsprof_e4_dafrc);
	E4_SLOT(E4_WP, fsprof_e4_wp);
	E4_SLOT(E4_WPRES, fsprof_e4_wpres);
	E4_SLOT(E4_FSIN, fsprof_e4_fsin);
	E4_SLOT(E4_FSOUT, fsprof_e4_fsout);
	E4_SLOT(E4_SYNCFS, fsprof_e4_syncf);
	E4_SLOT(E4_FCSTOP, fsprof_e4_fcstp);
	E4_SLOT(E4_DIRTY, fsprof_e4_dirty);
	E4_SLOT(E4_ESLOOKUP, fsprof_e4_eslk);
#undef E4_SLOT
}

/* the deep set fires several times per file: only with --probes deep */
static bool deep_probes_wanted(const struct trace_config *cfg)
{
	return cfg->deep;
}

/*
 * Probe every event; where the prototype changed, load the variant that
 * matches the kernel's and record the other as not needed (autoload off).
 */
static void ext4_programs_choose(struct ext4_domain *d,
				 const struct trace_config *cfg)
{
	bool deep = deep_probes_wanted(cfg);
	int nargs[E4_NR], i;

	for (i = 0; i < E4_NR; i++) {
		/* a program not wanted is neither loaded nor reported */
		if (i >= E4_DEEP && !deep) {
			nargs[i] = -ENOENT;
			d->missing[i] = false;
			continue;
		}
		nargs[i] = btf_tracepoint_nargs(cfg->btf, ext4_events[i]);
		d->missing[i] = nargs[i] < 0;
	}
	/* ext4_da_reserve_space gained the block count in 6.10 */
	d->missing[E4_RESV1] = false;
	bpf_program__set_autoload(d->prog[E4_RESV], nargs[E4_RESV] >= 2);
	bpf_program__set_autoload(d->prog[E4_RESV1], nargs[E4_RESV] == 1);
	/*
	 * ext4_da_write_pages became ext4_da_write_folios_start in 6.17: one
	 * of them is loaded, and only the first is reported when both miss
	 */
	if (!d->missing[E4_FLUSH3])
		d->missing[E4_FLUSH] = false;
	d->missing[E4_FLUSH3] = false;
	bpf_program__set_autoload(d->prog[E4_FLUSH], nargs[E4_FLUSH] >= 0);
	bpf_program__set_autoload(d->prog[E4_FLUSH3],
				  nargs[E4_FLUSH] < 0 && nargs[E4_FLUSH3] >= 0);
	for (i = 0; i < E4_NR; i++)
		if (i != E4_RESV && i != E4_RESV1 && i != E4_FLUSH &&
		    i != E4_FLUSH3)
			bpf_program__set_autoload(d->prog[i], nargs[i] >= 0);
}

static int ext4_open(void **priv, const struct trace_config *cfg)
{
	struct ext4_domain *d = calloc(1, sizeof(*d));
	int err;

	if (!d)
		return -ENOMEM;
	d->percpu =
		percpu_values_alloc(sizeof(struct ext4_stats), &d->ncpus, &err);
	if (!d->percpu)
		goto fail;
	d->skel = ext4_bpf__open();
	if (!d->skel) {
		err = -errno;
		goto fail;
	}
	d->skel->rodata->targ_dev = cfg->kernel_dev;
	ext4_programs_index(d);
	ext4_programs_choose(d, cfg);
	*priv = d;
	return 0;
fail:
	free(d->percpu);
	free(d);
	return err;
}

static int ext4_load(void *priv)
{
	struct ext4_domain *d = priv;

	return ext4_bpf__load(d->skel);
}

static int ext4_attach(void *priv, struct attach_list *list)
{
	struct ext4_domain *d = priv;
	struct program_slot slots[E4_NR];
	char events[E4_NR][64];
	int i;

	for (i = 0; i < E4_NR; i++) {
		snprintf(events[i], sizeof(events[i]), "ext4:%s",
			 ext4_events[i]);
		slots[i] = (struct program_slot){ d->prog[i], d->link[i],
						  events[i], d->missing[i] };
	}
	return attach_programs("ext4", slots, E4_NR, list) > 0 ? 0 : -ENOENT;
}

/* is the event behind prog traced: attached, or its variant attached */
static bool traced(const struct ext4_domain *d, enum ext4_prog prog)
{
	switch (prog) {
	case E4_RESV:
	case E4_RESV1:
		return *d->link[E4_RESV] || *d->link[E4_RESV1];
	case E4_FLUSH:
	case E4_FLUSH3:
		return *d->link[E4_FLUSH] || *d->link[E4_FLUSH3];
	default:
		return *d->link[prog] != NULL;
	}
}

static void hist_sum(struct hist_counts *into, const struct hist_counts *h)
{
	unsigned int i;

	into->count += h->count;
	into->sum += h->sum;
	if (h->max > into->max)
		into->max = h->max;
	for (i = 0; i < HIST_NSLOTS; i++)
		into->slot[i] += h->slot[i];
}

/* the counters are all unsigned long long, in order up to the histograms */
#define EXT4_NCOUNTERS                                      \
	(offsetof(struct ext4_stats, alloc_extent_blocks) / \
	 sizeof(unsigned long long))

static void stats_sum(struct ext4_stats *into, const struct ext4_stats *st)
{
	unsigned long long *dst = (unsigned long long *)into;
	const unsigned long long *src = (const unsigned long long *)st;
	size_t i;

	for (i = 0; i < EXT4_NCOUNTERS; i++)
		dst[i] += src[i];
	hist_sum(&into->alloc_extent_blocks, &st->alloc_extent_blocks);
	hist_sum(&into->da_flush_extent_blocks, &st->da_flush_extent_blocks);
	hist_sum(&into->fsync_ns, &st->fsync_ns);
}

struct named_count {
	const char *name;
	unsigned long long value;
	enum ext4_prog prog; /* reported only when its event is traced */
};

static int counts_report(const struct ext4_domain *d,
			 const struct ext4_stats *s, struct metric_set *m)
{
	const struct named_count counts[] = {
		{ "ext4.alloc_requests", s->alloc_requests, E4_REQ },
		{ "ext4.alloc_requested_blocks", s->alloc_requested_blocks,
		  E4_REQ },
		{ "ext4.alloc_goal_hits", s->alloc_goal_hits, E4_ALLOC },
		{ "ext4.alloc_goal_misses", s->alloc_goal_misses, E4_ALLOC },
		{ "ext4.alloc_failures", s->alloc_failures, E4_ALLOC },
		{ "ext4.mballoc_regular", s->mballoc_regular, E4_MBALLOC },
		{ "ext4.mballoc_groups_scanned", s->mballoc_groups_scanned,
		  E4_MBALLOC },
		{ "ext4.mballoc_extents_scanned", s->mballoc_extents_scanned,
		  E4_MBALLOC },
		{ "ext4.mballoc_prealloc", s->mballoc_prealloc, E4_MBPA },
		{ "ext4.pa_new_inode", s->pa_new_inode, E4_IPA },
		{ "ext4.pa_new_inode_blocks", s->pa_new_inode_blocks, E4_IPA },
		{ "ext4.pa_new_group", s->pa_new_group, E4_GPA },
		{ "ext4.pa_new_group_blocks", s->pa_new_group_blocks, E4_GPA },
		{ "ext4.free_extents", s->free_extents, E4_FREE },
		{ "ext4.freed_blocks", s->freed_blocks, E4_FREE },
		{ "ext4.da_reserves", s->da_reserves, E4_RESV },
		{ "ext4.da_reserved_blocks", s->da_reserved_blocks, E4_RESV },
		{ "ext4.da_flushes", s->da_flushes, E4_FLUSH },
		{ "ext4.da_flush_extents", s->da_flush_extents, E4_DAEXT },
		{ "ext4.da_flush_blocks", s->da_flush_blocks, E4_DAEXT },
		{ "ext4.da_forced_flushes", s->da_forced, E4_DAFORCED },
		{ "ext4.writepages", s->writepages, E4_WP },
		{ "ext4.writepages_pages", s->writepages_pages, E4_WPRES },
		{ "ext4.writepages_errors", s->writepages_errors, E4_WPRES },
		{ "ext4.fsyncs", s->fsyncs, E4_FSOUT },
		{ "ext4.fdatasyncs", s->fdatasyncs, E4_FSOUT },
		{ "ext4.fsync_errors", s->fsync_errors, E4_FSOUT },
		{ "ext4.sync_fs", s->sync_fs, E4_SYNCFS },
		{ "ext4.fc_commits", s->fc_commits, E4_FCSTOP },
		{ "ext4.fc_commit_blocks", s->fc_commit_blocks, E4_FCSTOP },
		{ "ext4.fc_fallbacks", s->fc_fallbacks, E4_FCSTOP },
		{ "ext4.mark_inode_dirty", s->mark_inode_dirty, E4_DIRTY },
		{ "ext4.es_lookups", s->es_lookups, E4_ESLOOKUP },
		{ "ext4.es_lookup_hits", s->es_lookup_hits, E4_ESLOOKUP },
	};
	unsigned int i;
	int err = 0;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]) && !err; i++)
		if (traced(d, counts[i].prog))
			err = metric_add(m, counts[i].name, counts[i].value);
	if (!traced(d, E4_MBALLOC))
		return err;
	for (i = 0; i < EXT4_CR_NR && !err; i++)
		/* a pass the decoder cannot name is worth a row only if seen */
		if (i != EXT4_CR_UNKNOWN || s->mballoc_cr[i])
			err = metric_add(m, cr_names[i], s->mballoc_cr[i]);
	return err;
}

static int hists_report(const struct ext4_domain *d, const struct ext4_stats *s,
			struct metric_set *m)
{
	int err = 0;

	if (traced(d, E4_ALLOC))
		err = metric_hist_add_counts(m, "ext4.alloc_extent_blocks",
					     &s->alloc_extent_blocks);
	if (!err && traced(d, E4_DAEXT))
		err = metric_hist_add_counts(m, "ext4.da_flush_extent_blocks",
					     &s->da_flush_extent_blocks);
	if (!err && traced(d, E4_FSIN) && traced(d, E4_FSOUT))
		err = metric_hist_add_counts(m, "ext4.fsync_ns", &s->fsync_ns);
	return err;
}

static int ext4_collect(void *priv, unsigned int phase,
			struct phase_result *out)
{
	struct ext4_domain *d = priv;
	int fd = bpf_map__fd(d->skel->maps.ext4_stats);
	struct ext4_stats *sum;
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
	err = counts_report(d, sum, &out->metrics);
	if (!err)
		err = hists_report(d, sum, &out->metrics);
	if (!err && phase == FSPROF_PHASE_NONE && d->skel->bss->fsync_untracked)
		err = metric_add(&out->metrics, "ext4.fsync_untracked",
				 d->skel->bss->fsync_untracked);
	free(sum);
	return err;
}

static const struct bpf_object *ext4_object(void *priv)
{
	const struct ext4_domain *d = priv;

	return d->skel->obj;
}

static void ext4_destroy(void *priv)
{
	struct ext4_domain *d = priv;

	if (!d)
		return;
	ext4_bpf__destroy(d->skel);
	free(d->percpu);
	free(d);
}

static const char *const ext4_fstypes[] = { "ext2", "ext3", "ext4", NULL };

const struct trace_domain_ops ext4_domain = {
	.fstypes = ext4_fstypes,
	.name = "ext4",
	.charging =
		"an event: the phase running when it fired; an fsync call: the phase in which it started",
	.open = ext4_open,
	.load = ext4_load,
	.attach = ext4_attach,
	.collect = ext4_collect,
	.object = ext4_object,
	.destroy = ext4_destroy,
};
