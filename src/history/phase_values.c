// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>

#include "history/phase_values.h"

struct walk {
	phase_value_fn fn;
	void *ctx;
	int code;
};

static void walk_int(struct walk *w, const char *name, uint64_t value)
{
	struct phase_value v = { .name = name,
				 .i = value > INT64_MAX ? INT64_MAX :
							  (int64_t)value };

	if (!w->code)
		w->code = w->fn(&v, w->ctx);
}

static void walk_real(struct walk *w, const char *name, double value)
{
	struct phase_value v = { .name = name, .is_real = true, .d = value };

	/* SQLite would store NaN as NULL */
	if (!w->code && isfinite(value))
		w->code = w->fn(&v, w->ctx);
}

static void walk_user_side(struct walk *w, const struct phase_result *p)
{
	walk_real(w, "phase.wall_s", (double)p->wall_ns / 1e9);
	walk_real(w, "phase.user_s", (double)p->user_ns / 1e9);
	walk_real(w, "phase.sys_s", (double)p->sys_ns / 1e9);
	walk_real(w, "phase.cpu_pct", phase_cpu_percent(p));
	walk_real(w, "phase.mb_per_s", phase_mb_per_s(p));
	walk_real(w, "phase.files_per_s", phase_files_per_s(p));
	walk_int(w, "phase.bytes", p->work.bytes);
	walk_int(w, "phase.ops", p->work.ops);
	walk_int(w, "phase.files", p->work.files);
	walk_int(w, "phase.vol_ctxsw", p->vol_ctxsw);
	walk_int(w, "phase.invol_ctxsw", p->invol_ctxsw);
}

/* "<prefix>.ios" and "<prefix>.bytes" of a class result that saw IO */
static void walk_block_class(struct walk *w, const char *prefix,
			     const struct block_class_result *c)
{
	char name[METRIC_NAME_LEN + 16];

	if (!c->ios)
		return;
	snprintf(name, sizeof(name), "%s.ios", prefix);
	walk_int(w, name, c->ios);
	snprintf(name, sizeof(name), "%s.bytes", prefix);
	walk_int(w, name, c->bytes);
}

static void walk_block(struct walk *w, const struct block_result *b)
{
	struct block_class_result total, by_class[BLK_IOC_NR] = { 0 };
	char prefix[48];
	unsigned int i;

	if (!b->traced)
		return;
	block_result_total(b, &total);
	walk_int(w, "block.total.ios", total.ios);
	walk_int(w, "block.total.bytes", total.bytes);
	walk_int(w, "block.busy_ns", b->device.busy_ns);
	for (i = 0; i < BLK_OPC_NR; i++) {
		snprintf(prefix, sizeof(prefix), "block.op.%s",
			 blk_opclass_name(i));
		walk_block_class(w, prefix, &b->cls[i]);
	}
	for (i = 0; i < b->n_io; i++)
		if (b->io[i].ioclass < BLK_IOC_NR)
			block_class_add(&by_class[b->io[i].ioclass],
					&b->io[i].r);
	for (i = 0; i < BLK_IOC_NR; i++) {
		snprintf(prefix, sizeof(prefix), "block.class.%s",
			 blk_ioclass_name(i));
		walk_block_class(w, prefix, &by_class[i]);
	}
}

static void walk_hist(struct walk *w, const struct metric_hist *mh)
{
	const struct latency_hist *h = &mh->h;
	char name[METRIC_NAME_LEN + 8];

	if (!h->count)
		return;
	snprintf(name, sizeof(name), "%s.count", mh->name);
	walk_int(w, name, h->count);
	snprintf(name, sizeof(name), "%s.mean", mh->name);
	walk_real(w, name, (double)h->sum_ns / (double)h->count);
	snprintf(name, sizeof(name), "%s.p50", mh->name);
	walk_real(w, name, latency_hist_percentile(h, 50));
	snprintf(name, sizeof(name), "%s.p99", mh->name);
	walk_real(w, name, latency_hist_percentile(h, 99));
}

int phase_values_walk(const struct phase_result *p, phase_value_fn fn,
		      void *ctx)
{
	struct walk w = { .fn = fn, .ctx = ctx };
	unsigned int i;

	walk_user_side(&w, p);
	walk_block(&w, &p->block);
	for (i = 0; i < p->metrics.n; i++)
		walk_int(&w, p->metrics.v[i].name, p->metrics.v[i].value);
	for (i = 0; i < p->metrics.n_hists; i++)
		walk_hist(&w, &p->metrics.hists[i]);
	return w.code;
}
