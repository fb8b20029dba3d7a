/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constructed results for the analyze stage's tests: a run with cases and
 * phases whose metrics say exactly what a test needs (device busy time
 * per IO class, requests, CPU, durability calls, named metrics, the sched
 * time budget), without a kernel.
 */
#ifndef FSPROF_TEST_ANALYZE_FIXTURE_H
#define FSPROF_TEST_ANALYZE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "util/histogram.h"

#define NS 1000000000.0

static inline struct case_result *fx_case(struct run_result *run,
					  const char *fstype, const char *label,
					  unsigned int n_phases)
{
	struct case_result *c = run_result_add_case(run, n_phases);

	snprintf(c->target.fstype, sizeof(c->target.fstype), "%s", fstype);
	snprintf(c->target_label, sizeof(c->target_label), "%s", label);
	snprintf(c->workload, sizeof(c->workload), "wl");
	snprintf(c->params, sizeof(c->params), "p=1");
	snprintf(c->target.model.m.name, sizeof(c->target.model.m.name),
		 "none");
	c->target.model.m.rotational = -1;
	snprintf(c->target.super_opts, sizeof(c->target.super_opts), "rw");
	snprintf(c->target.mount_opts, sizeof(c->target.mount_opts), "rw");
	c->complete = true;
	c->repeat = 1;
	c->ram_bytes = 24ULL << 30;
	c->data_bytes = 64ULL << 30; /* larger than RAM unless a test says */
	c->target.image_size = 2ULL << 30;
	return c;
}

/* a phase of wall seconds, with the block domain traced and idle */
static inline struct phase_result *fx_phase(struct case_result *c,
					    const char *name, double wall_s)
{
	struct phase_result *p = &c->phases[c->n_phases];

	snprintf(p->name, sizeof(p->name), "%s", name);
	p->id = c->n_phases + 1;
	p->wall_ns = (uint64_t)(wall_s * NS);
	p->start_mono_ns =
		1000 * (uint64_t)NS + c->n_phases * 100 * (uint64_t)NS;
	p->end_mono_ns = p->start_mono_ns + p->wall_ns;
	snprintf(p->cache, sizeof(p->cache), "warm");
	snprintf(p->sync, sizeof(p->sync), "syncfs");
	p->block.traced = true;
	p->block.io = calloc(BLK_IOC_NR * BLK_ISS_NR, sizeof(*p->block.io));
	c->n_phases++;
	return p;
}

static inline void fx_cpu(struct phase_result *p, double share)
{
	p->sys_ns = (uint64_t)(share * (double)p->wall_ns);
}

static inline void fx_hist(struct metric_set *m, const char *name,
			   uint64_t count, uint64_t each)
{
	struct latency_hist *h = metric_hist(m, name);
	uint64_t i;

	for (i = 0; i < count; i++)
		latency_hist_record(h, each);
}

/* requests of one class from one issuer, and the class's busy share */
static inline void fx_io(struct phase_result *p, enum blk_ioclass cls,
			 enum blk_issuer iss, uint64_t ios, uint64_t bytes,
			 double busy_share)
{
	struct block_result *b = &p->block;
	struct block_io_result *io = &b->io[b->n_io++];
	enum blk_opclass op = blk_ioclass_op(cls);
	uint64_t i;

	io->ioclass = cls;
	io->issuer = iss;
	io->r.ios = ios;
	io->r.bytes = bytes;
	for (i = 0; i < ios; i++) {
		latency_hist_record(&io->r.size, ios ? bytes / ios : 0);
		latency_hist_record(&io->r.lat, 5000000);
	}
	b->cls[op].ios += ios;
	b->cls[op].bytes += bytes;
	for (i = 0; i < ios; i++)
		latency_hist_record(&b->cls[op].size, ios ? bytes / ios : 0);
	b->ioclass[cls].busy_ns = (uint64_t)(busy_share * (double)p->wall_ns);
}

/* the whole device's busy share and queue depth */
static inline void fx_busy(struct phase_result *p, double share, double qd)
{
	p->block.device.busy_ns = (uint64_t)(share * (double)p->wall_ns);
	p->block.device.inflight_ns = (uint64_t)(qd * (double)p->wall_ns);
}

/* n fsync calls taking share of the phase */
static inline void fx_fsyncs(struct phase_result *p, uint64_t n, double share)
{
	fx_hist(&p->metrics, "op.fsync_ns", n,
		(uint64_t)(share * (double)p->wall_ns / (double)n));
}

/* the sched time budget: on-CPU share, then (cause, share) pairs */
static inline void fx_budget(struct phase_result *p, double oncpu,
			     const char *cause, double share,
			     const char *cause2, double share2)
{
	char name[64];
	double wall = (double)p->wall_ns, rest = 1 - oncpu - share - share2;

	metric_add(&p->metrics, "sched.wall_ns", p->wall_ns);
	metric_add(&p->metrics, "sched.oncpu_ns", (uint64_t)(oncpu * wall));
	snprintf(name, sizeof(name), "sched.offcpu_ns.%s", cause);
	metric_add(&p->metrics, name, (uint64_t)(share * wall));
	if (cause2) {
		snprintf(name, sizeof(name), "sched.offcpu_ns.%s", cause2);
		metric_add(&p->metrics, name, (uint64_t)(share2 * wall));
	}
	if (rest > 0)
		metric_add(&p->metrics, "sched.offcpu_ns.other",
			   (uint64_t)(rest * wall));
}

#endif
