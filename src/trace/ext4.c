// SPDX-License-Identifier: GPL-2.0
/* ext4 domain, user side: see bpf/ext4.bpf.c. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "fsprof/ext4.h"
#include "trace/fsprof_skel.h"
#include "trace/attach.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "trace/domain_def.h"
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
	E4_FCSTATS,
	E4_DEEP, /* from here on: the deep set, several hits per file */
	E4_DIRTY = E4_DEEP,
	E4_ESLOOKUP,
	E4_NR,
};

/* the programs, and the event each counts */
static const struct program_def ext4_progs[E4_NR] = {
	[E4_REQ] = { "fsprof_e4_req", "ext4:ext4_request_blocks" },
	[E4_ALLOC] = { "fsprof_e4_alloc", "ext4:ext4_allocate_blocks" },
	[E4_MBALLOC] = { "fsprof_e4_mball", "ext4:ext4_mballoc_alloc" },
	[E4_MBPA] = { "fsprof_e4_mbpa", "ext4:ext4_mballoc_prealloc" },
	[E4_IPA] = { "fsprof_e4_ipa", "ext4:ext4_mb_new_inode_pa" },
	[E4_GPA] = { "fsprof_e4_gpa", "ext4:ext4_mb_new_group_pa" },
	[E4_FREE] = { "fsprof_e4_free", "ext4:ext4_free_blocks" },
	[E4_RESV] = { "fsprof_e4_resv", "ext4:ext4_da_reserve_space" },
	[E4_RESV1] = { "fsprof_e4_resv1", "ext4:ext4_da_reserve_space" },
	[E4_FLUSH] = { "fsprof_e4_flush", "ext4:ext4_da_write_folios_start" },
	[E4_FLUSH3] = { "fsprof_e4_flsh3", "ext4:ext4_da_write_pages" },
	[E4_DAEXT] = { "fsprof_e4_daext", "ext4:ext4_da_write_pages_extent" },
	[E4_DAFORCED] = { "fsprof_e4_dafrc", "ext4:ext4_alloc_da_blocks" },
	[E4_WP] = { "fsprof_e4_wp", "ext4:ext4_writepages" },
	[E4_WPRES] = { "fsprof_e4_wpres", "ext4:ext4_writepages_result" },
	[E4_FSIN] = { "fsprof_e4_fsin", "ext4:ext4_sync_file_enter" },
	[E4_FSOUT] = { "fsprof_e4_fsout", "ext4:ext4_sync_file_exit" },
	[E4_SYNCFS] = { "fsprof_e4_syncf", "ext4:ext4_sync_fs" },
	[E4_FCSTOP] = { "fsprof_e4_fcstp", "ext4:ext4_fc_commit_stop" },
	[E4_FCSTATS] = { "fsprof_e4_fcsts", "ext4:ext4_fc_stats" },
	[E4_DIRTY] = { "fsprof_e4_dirty", "ext4:ext4_mark_inode_dirty" },
	[E4_ESLOOKUP] = { "fsprof_e4_eslk", "ext4:ext4_es_lookup_extent_exit" },
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
	struct fsprof_bpf *skel;
	/* the kernel's fast-commit ineligibility reasons by value, lower case */
	char fc_reasons[EXT4_FC_REASONS_MAX][32];
	struct program_slot slots[E4_NR]; /* missing: the kernel has no event */
	struct percpu_stats stats;
};

/* the maxima of struct ext4_stats: its histograms' */
static const size_t ext4_stats_max[] = {
	PERCPU_HIST_MAX(struct ext4_stats, alloc_extent_blocks),
	PERCPU_HIST_MAX(struct ext4_stats, da_flush_extent_blocks),
	PERCPU_HIST_MAX(struct ext4_stats, fsync_ns),
};

/* a counter_def row of include/fsprof/ext4.h's list */
#define E4_COUNTER(field, metric, prog) \
	COUNTER_DEF("ext4." #metric, struct ext4_stats, field, prog),

/* the counters, each reported when the program counting it is traced */
static const struct counter_def ext4_counters[] = { EXT4_COUNTERS(E4_COUNTER) };

static const struct domain_def ext4_def = {
	.name = "ext4",
	.progs = ext4_progs,
	.n_progs = E4_NR,
	.stats_map = "ext4_stats",
	.stats_size = sizeof(struct ext4_stats),
	.stats_max = ext4_stats_max,
	.n_stats_max = ARRAY_SIZE(ext4_stats_max),
	.counters = ext4_counters,
	.n_counters = ARRAY_SIZE(ext4_counters),
};

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
			d->slots[i].missing = false;
			continue;
		}
		nargs[i] = btf_tracepoint_nargs(
			cfg->btf, program_def_tracepoint(&ext4_progs[i]));
		d->slots[i].missing = nargs[i] < 0;
	}
	/* ext4_da_reserve_space gained the block count in 6.10 */
	d->slots[E4_RESV1].missing = false;
	bpf_program__set_autoload(d->slots[E4_RESV].prog, nargs[E4_RESV] >= 2);
	bpf_program__set_autoload(d->slots[E4_RESV1].prog, nargs[E4_RESV] == 1);
	/*
	 * ext4_da_write_pages became ext4_da_write_folios_start in 6.17: one
	 * of them is loaded, and only the first is reported when both miss
	 */
	if (!d->slots[E4_FLUSH3].missing)
		d->slots[E4_FLUSH].missing = false;
	d->slots[E4_FLUSH3].missing = false;
	bpf_program__set_autoload(d->slots[E4_FLUSH].prog,
				  nargs[E4_FLUSH] >= 0);
	bpf_program__set_autoload(d->slots[E4_FLUSH3].prog,
				  nargs[E4_FLUSH] < 0 && nargs[E4_FLUSH3] >= 0);
	for (i = 0; i < E4_NR; i++)
		if (i != E4_RESV && i != E4_RESV1 && i != E4_FLUSH &&
		    i != E4_FLUSH3)
			bpf_program__set_autoload(d->slots[i].prog,
						  nargs[i] >= 0);
	/* ext4_fc_stats, when the kernel has it, counts the marks */
	d->skel->rodata->fc_stats_traced = nargs[E4_FCSTATS] >= 1;
}

/*
 * The fast-commit constants of this kernel, from BTF: the status values
 * ext4_fc_commit_stop passes and the names of the ineligibility reasons
 * ("xattr" for EXT4_FC_REASON_XATTR); a reason the kernel does not name is
 * "reason<N>".
 */
static void ext4_fc_constants(struct ext4_domain *d,
			      const struct trace_config *cfg)
{
	static const char prefix[] = "EXT4_FC_REASON_";
	const struct btf_type *t = NULL;
	const struct btf *btf;
	const struct btf_enum *e;
	unsigned int i, k;

	d->skel->rodata->fc_status_ok =
		(int)kernel_btf_enum_value(cfg->btf, "EXT4_FC_STATUS_OK", 0);
	d->skel->rodata->fc_status_ineligible = (int)kernel_btf_enum_value(
		cfg->btf, "EXT4_FC_STATUS_INELIGIBLE", 1);
	d->skel->rodata->fc_status_failed = (int)kernel_btf_enum_value(
		cfg->btf, "EXT4_FC_STATUS_FAILED", -1);
	for (i = 0; i < EXT4_FC_REASONS_MAX; i++)
		snprintf(d->fc_reasons[i], sizeof(d->fc_reasons[i]), "reason%u",
			 i);
	btf = kernel_btf_enum_holding(cfg->btf, "EXT4_FC_REASON_XATTR", &t);
	if (!btf)
		return;
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++) {
		const char *name = btf__name_by_offset(btf, e[i].name_off);

		if (strncmp(name, prefix, sizeof(prefix) - 1) || e[i].val < 0 ||
		    e[i].val >= EXT4_FC_REASONS_MAX)
			continue;
		name += sizeof(prefix) - 1;
		for (k = 0; name[k] && k + 1 < sizeof(d->fc_reasons[0]); k++)
			d->fc_reasons[e[i].val][k] =
				(char)(name[k] >= 'A' && name[k] <= 'Z' ?
					       name[k] - 'A' + 'a' :
					       name[k]);
		d->fc_reasons[e[i].val][k] = '\0';
	}
}

static void ext4_free(struct ext4_domain *d)
{
	percpu_stats_fini(&d->stats);
	detach_programs(d->slots, E4_NR);
	free(d);
}

/* ext4's types are in vmlinux's BTF: bpf_rdonly_cast can take them */
static bool ext4_types_built_in(const struct kernel_btf *kb)
{
	int id;

	return kb && kb->vmlinux &&
	       kernel_btf_find(kb, "ext4_allocation_request", BTF_KIND_STRUCT,
			       &id) == kb->vmlinux;
}

static int ext4_open(void **priv, struct fsprof_bpf *skel,
			 const struct trace_config *cfg)
{
	struct ext4_domain *d = calloc(1, sizeof(*d));
	int err;

	if (!d)
		return -ENOMEM;
	d->skel = skel;
	err = domain_def_open(&ext4_def, d->skel->skeleton, &d->stats,
			      d->slots);
	if (err)
		goto fail;
	d->skel->rodata->rdonly_cast_ok = kernel_btf_rdonly_cast(cfg->btf);
	d->skel->rodata->ext4_built_in = ext4_types_built_in(cfg->btf);
	ext4_fc_constants(d, cfg);
	ext4_programs_choose(d, cfg);
	*priv = d;
	return 0;
fail:
	ext4_free(d);
	return err;
}

static int ext4_attach(void *priv, struct attach_list *list)
{
	struct ext4_domain *d = priv;

	return domain_def_attach(&ext4_def, d->slots, list);
}

static int ext4_bind(void *priv, const struct trace_config *cfg)
{
	struct ext4_domain *d = priv;

	__atomic_store_n(&d->skel->bss->ext4_targ_dev, cfg->kernel_dev,
			 __ATOMIC_RELEASE);
	return 0;
}

/* is the event behind prog traced: attached, or its variant attached */
static bool traced(const void *ctx, int prog)
{
	const struct ext4_domain *d = ctx;
	const struct program_slot *sl = d->slots;

	switch (prog) {
	case E4_RESV:
	case E4_RESV1:
		return program_slot_attached(&sl[E4_RESV]) ||
		       program_slot_attached(&sl[E4_RESV1]);
	case E4_FLUSH:
	case E4_FLUSH3:
		return program_slot_attached(&sl[E4_FLUSH]) ||
		       program_slot_attached(&sl[E4_FLUSH3]);
	default:
		return program_slot_attached(&sl[prog]);
	}
}

static int counts_report(const struct ext4_domain *d,
			 const struct ext4_stats *s, struct metric_set *m)
{
	unsigned int i;
	int err;

	err = domain_def_report(&ext4_def, s, m, traced, d);
	if (err || !traced(d, E4_MBALLOC))
		return err;
	for (i = 0; i < EXT4_CR_NR && !err; i++)
		/* a pass the decoder cannot name is worth a row only if seen */
		if (i != EXT4_CR_UNKNOWN || s->mballoc_cr[i])
			err = metric_add(m, cr_names[i], s->mballoc_cr[i]);
	return err;
}

/*
 * ext4.fc_ineligible_marks.<reason> and ext4.fc_fallback_reason.<reason>,
 * the reasons seen (a reason never marked has no row)
 */
static int fc_reasons_report(const struct ext4_domain *d,
			     const struct ext4_stats *s, struct metric_set *m)
{
	char name[96];
	unsigned int i;
	int err = 0;

	if (!traced(d, E4_FCSTOP))
		return 0;
	for (i = 0; i < EXT4_FC_REASONS_MAX && !err; i++) {
		if (s->fc_reason_marks[i]) {
			snprintf(name, sizeof(name),
				 "ext4.fc_ineligible_marks.%s",
				 d->fc_reasons[i]);
			err = metric_add(m, name, s->fc_reason_marks[i]);
		}
		if (!err && s->fc_reason_fallbacks[i]) {
			snprintf(name, sizeof(name),
				 "ext4.fc_fallback_reason.%s",
				 d->fc_reasons[i]);
			err = metric_add(m, name, s->fc_reason_fallbacks[i]);
		}
	}
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
	struct ext4_stats *sum;
	int err;

	sum = domain_def_phase_sum(&ext4_def, &d->stats, phase, &err);
	if (!sum)
		return err;
	err = counts_report(d, sum, &out->metrics);
	if (!err)
		err = fc_reasons_report(d, sum, &out->metrics);
	if (!err)
		err = hists_report(d, sum, &out->metrics);
	if (!err && phase == FSPROF_PHASE_NONE && d->skel->bss->fsync_untracked)
		err = metric_add(&out->metrics, "ext4.fsync_untracked",
				 d->skel->bss->fsync_untracked);
	free(sum);
	return err;
}

static void ext4_destroy(void *priv)
{
	if (priv)
		ext4_free(priv);
}

static const char *const ext4_fstypes[] = { "ext2", "ext3", "ext4", NULL };

const struct trace_domain_ops ext4_domain = {
	.fstypes = ext4_fstypes,
	.name = "ext4",
	.charging =
		"an event: the phase running when it fired; an fsync call: the phase in which it started",
	.open = ext4_open,
	.attach = ext4_attach,
	.bind = ext4_bind,
	.collect = ext4_collect,
	.destroy = ext4_destroy,
};
