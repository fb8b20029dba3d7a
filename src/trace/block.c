// SPDX-License-Identifier: GPL-2.0
/* Block domain, user side: see bpf/block.bpf.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "block.skel.h"
#include "trace/attach.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "util/log.h"

struct block_domain {
	struct block_bpf *skel;
	bool issue_missing, done_missing;
	int ncpus;
	struct blk_stats *percpu; /* ncpus values, for one lookup */
};

static int block_open(void **priv, const struct trace_config *cfg)
{
	struct block_domain *d = calloc(1, sizeof(*d));
	int nargs;

	if (!d)
		return -ENOMEM;
	d->ncpus = libbpf_num_possible_cpus();
	if (d->ncpus <= 0) {
		nargs = d->ncpus ? d->ncpus : -EINVAL;
		free(d);
		return nargs;
	}
	d->percpu = calloc((size_t)d->ncpus, sizeof(struct blk_stats));
	d->skel = block_bpf__open();
	if (!d->percpu || !d->skel) {
		int err = d->skel ? -ENOMEM : -errno;

		block_bpf__destroy(d->skel);
		free(d->percpu);
		free(d);
		return err;
	}
	d->skel->rodata->targ_dev = cfg->kernel_dev;

	/* block_rq_issue lost its request_queue argument in 5.11 / 5.10.137 */
	nargs = btf_tracepoint_nargs(cfg->btf, "block_rq_issue");
	d->issue_missing = nargs < 0;
	bpf_program__set_autoload(d->skel->progs.fsprof_rq_issue, nargs == 1);
	bpf_program__set_autoload(d->skel->progs.fsprof_rq_issue_q, nargs == 2);
	d->done_missing =
		btf_tracepoint_nargs(cfg->btf, "block_rq_complete") < 0;
	bpf_program__set_autoload(d->skel->progs.fsprof_rq_done,
				  !d->done_missing);
	*priv = d;
	return 0;
}

static int block_load(void *priv)
{
	struct block_domain *d = priv;

	return block_bpf__load(d->skel);
}

static int block_attach(void *priv, struct attach_list *list)
{
	struct block_domain *d = priv;
	struct block_bpf *s = d->skel;
	struct program_slot slots[] = {
		{ s->progs.fsprof_rq_issue, &s->links.fsprof_rq_issue,
		  "block:block_rq_issue", d->issue_missing },
		{ s->progs.fsprof_rq_issue_q, &s->links.fsprof_rq_issue_q,
		  "block:block_rq_issue", false },
		{ s->progs.fsprof_rq_done, &s->links.fsprof_rq_done,
		  "block:block_rq_complete", d->done_missing },
	};

	return attach_programs("block", slots, 3, list) > 0 ? 0 : -ENOENT;
}

static void block_set_phase(void *priv, unsigned int phase)
{
	struct block_domain *d = priv;

	__atomic_store_n(&d->skel->bss->phase, phase, __ATOMIC_SEQ_CST);
}

static int block_collect(void *priv, unsigned int phase,
			 struct phase_result *out)
{
	struct block_domain *d = priv;
	int fd = bpf_map__fd(d->skel->maps.blk_stats);
	unsigned int c, i;
	int cpu;

	for (c = 0; c < BLK_OPC_NR; c++) {
		struct block_class_result *r = &out->block.cls[c];
		__u32 key = blk_stats_index(phase, c);

		if (bpf_map_lookup_elem(fd, &key, d->percpu))
			return -errno;
		for (cpu = 0; cpu < d->ncpus; cpu++) {
			const struct blk_stats *st = &d->percpu[cpu];

			r->ios += st->ios;
			r->bytes += st->bytes;
			r->lat.count += st->lat_count;
			r->lat.sum_ns += st->lat_sum_ns;
			if (st->lat_max_ns > r->lat.max_ns)
				r->lat.max_ns = st->lat_max_ns;
			for (i = 0; i < HIST_NSLOTS; i++)
				r->lat.slot[i] += st->lat_slot[i];
		}
	}
	out->block.traced = true;
	if (phase == FSPROF_PHASE_NONE)
		return metric_add(&out->metrics, "block.latency_untracked",
				  d->skel->bss->inflight_full);
	return 0;
}

static void block_destroy(void *priv)
{
	struct block_domain *d = priv;

	if (!d)
		return;
	block_bpf__destroy(d->skel);
	free(d->percpu);
	free(d);
}

const struct trace_domain_ops block_domain = {
	.name = "block",
	.open = block_open,
	.load = block_load,
	.attach = block_attach,
	.set_phase = block_set_phase,
	.collect = block_collect,
	.destroy = block_destroy,
};
