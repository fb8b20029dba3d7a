// SPDX-License-Identifier: GPL-2.0
/* btrfs domain, user side: see bpf/btrfs.bpf.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "fsprof/btrfs.h"
#include "trace/fsprof_skel.h"
#include "trace/attach.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "trace/domain_def.h"
#include "trace/percpu.h"

enum btrfs_prog {
	BT_SYNC_FILE,
	BT_COMMIT,
	BT_SYNC_FS,
	BT_NR,
};

static const struct program_def btrfs_progs[BT_NR] = {
	[BT_SYNC_FILE] = { "fsprof_bt_fsync", "btrfs:btrfs_sync_file" },
	[BT_COMMIT] = { "fsprof_bt_commit", "btrfs:btrfs_transaction_commit" },
	[BT_SYNC_FS] = { "fsprof_bt_syncfs", "btrfs:btrfs_sync_fs" },
};

/* the pointer type each program takes first: its prototype's, or not loaded */
static const char *const btrfs_first_arg[BT_NR] = {
	[BT_SYNC_FILE] = "file",
	[BT_COMMIT] = "btrfs_fs_info",
	[BT_SYNC_FS] = "btrfs_fs_info",
};

struct btrfs_domain {
	struct fsprof_bpf *skel;
	struct program_slot slots[BT_NR];
	struct percpu_stats stats;
};

#define BT_COUNTER(field, metric, prog) \
	COUNTER_DEF("btrfs." #metric, struct btrfs_stats, field, prog),

static const struct counter_def btrfs_counters[] = { BTRFS_COUNTERS(
	BT_COUNTER) };

static const struct domain_def btrfs_def = {
	.name = "btrfs",
	.progs = btrfs_progs,
	.n_progs = BT_NR,
	.stats_map = "btrfs_stats",
	.stats_size = sizeof(struct btrfs_stats),
	.counters = btrfs_counters,
	.n_counters = ARRAY_SIZE(btrfs_counters),
};

/*
 * The struct the tracepoint's first argument points to, from its
 * btf_trace_<event> typedef (btrfs_transaction_commit took a btrfs_root
 * before 6.x); NULL when the event or its type cannot be read.
 */
static const char *first_arg_struct(const struct kernel_btf *kb,
				    const char *event)
{
	const struct btf *btf;
	const struct btf_type *t = btf_tracepoint_arg(kb, event, 0, &btf);

	if (!t || !btf_is_ptr(t))
		return NULL;
	t = btf__type_by_id(btf, btf__resolve_type(btf, t->type));
	return t && btf_is_struct(t) ? btf__name_by_offset(btf, t->name_off) :
				       NULL;
}

static void btrfs_free(struct btrfs_domain *d)
{
	percpu_stats_fini(&d->stats);
	detach_programs(d->slots, BT_NR);
	free(d);
}

static int btrfs_open(void **priv, struct fsprof_bpf *skel,
			 const struct trace_config *cfg)
{
	struct btrfs_domain *d = calloc(1, sizeof(*d));
	int err, i;

	if (!d)
		return -ENOMEM;
	d->skel = skel;
	err = domain_def_open(&btrfs_def, d->skel->skeleton, &d->stats,
			      d->slots);
	if (err)
		goto fail;
	for (i = 0; i < BT_NR; i++) {
		const char *arg = first_arg_struct(
			cfg->btf, program_def_tracepoint(&btrfs_progs[i]));

		d->slots[i].missing = !arg || strcmp(arg, btrfs_first_arg[i]);
		bpf_program__set_autoload(d->slots[i].prog,
					  !d->slots[i].missing);
	}
	*priv = d;
	return 0;
fail:
	btrfs_free(d);
	return err;
}

static int btrfs_attach(void *priv, struct attach_list *list)
{
	struct btrfs_domain *d = priv;

	return domain_def_attach(&btrfs_def, d->slots, list);
}

static int btrfs_bind(void *priv, const struct trace_config *cfg)
{
	struct btrfs_domain *d = priv;

	__atomic_store_n(&d->skel->bss->btrfs_targ_dev, cfg->kernel_dev,
			 __ATOMIC_RELEASE);
	return 0;
}

static bool traced(const void *ctx, int prog)
{
	const struct btrfs_domain *d = ctx;

	return program_slot_attached(&d->slots[prog]);
}

static int btrfs_collect(void *priv, unsigned int phase,
			 struct phase_result *out)
{
	struct btrfs_domain *d = priv;
	struct btrfs_stats *sum;
	int err;

	sum = domain_def_phase_sum(&btrfs_def, &d->stats, phase, &err);
	if (!sum)
		return err;
	err = domain_def_report(&btrfs_def, sum, &out->metrics, traced, d);
	free(sum);
	return err;
}

static void btrfs_destroy(void *priv)
{
	if (priv)
		btrfs_free(priv);
}

static const char *const btrfs_fstypes[] = { "btrfs", NULL };

const struct trace_domain_ops btrfs_domain = {
	.fstypes = btrfs_fstypes,
	.name = "btrfs",
	.charging = "an event: the phase running when it fired",
	.open = btrfs_open,
	.attach = btrfs_attach,
	.bind = btrfs_bind,
	.collect = btrfs_collect,
	.destroy = btrfs_destroy,
};
