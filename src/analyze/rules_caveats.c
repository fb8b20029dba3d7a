// SPDX-License-Identifier: GPL-2.0
/* Caveats: what limits how far a phase's numbers can be trusted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model_excess.h"
#include "analyze/rules.h"
#include "analyze/thresholds.h"
#include "results/metric_names.h"

/* where the device time between phases went, and which phase it concerns */
struct spill_facts {
	double busy_ns, total_ns;
	uint64_t ios, read_bytes, write_bytes;
	bool reads; /* mostly reads: a prepare step before the next phase */
	bool located; /* from the rare events' timestamps */
	unsigned int gap; /* after phase gap (n_phases: before the first) */
	unsigned int phase; /* the phase the finding goes to */
};

/* the gap between phases an event at t fell into */
static unsigned int spill_gap_of(const struct case_result *c, uint64_t t)
{
	unsigned int i;

	if (c->n_phases && t < c->phases[0].start_mono_ns)
		return c->n_phases;
	for (i = 0; i + 1 < c->n_phases; i++)
		if (t >= c->phases[i].end_mono_ns &&
		    t < c->phases[i + 1].start_mono_ns)
			return i;
	return c->n_phases - 1;
}

/* the gap most of the case's between-phase events fell into */
static bool spill_busiest_gap(const struct case_result *c, unsigned int *gap)
{
	unsigned int *counts = calloc(c->n_phases + 1, sizeof(*counts));
	unsigned int i, best = 0;
	bool any = false;
	size_t e;

	if (!counts)
		return false;
	for (e = 0; e < c->events.n; e++) {
		if (c->events.v[e].phase)
			continue;
		counts[spill_gap_of(c, c->events.v[e].t_ns)]++;
		any = true;
	}
	for (i = 1; i <= c->n_phases; i++)
		if (counts[i] > counts[best])
			best = i;
	free(counts);
	*gap = best;
	return any;
}

static bool spill_locate(const struct case_result *c, struct spill_facts *s)
{
	const struct block_result *b = &c->spill.block;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	if (!b->traced || !c->n_phases)
		return false;
	s->busy_ns = (double)b->device.busy_ns;
	s->total_ns = s->busy_ns;
	for (i = 0; i < c->n_phases; i++)
		s->total_ns += (double)c->phases[i].block.device.busy_ns;
	if (s->busy_ns < SPILL_MIN_NS || s->busy_ns < SPILL_SHARE * s->total_ns)
		return false;
	for (i = 0; i < BLK_OPC_NR; i++)
		s->ios += b->cls[i].ios;
	s->read_bytes = b->cls[BLK_OPC_READ].bytes;
	s->write_bytes = b->cls[BLK_OPC_WRITE].bytes;
	s->reads = s->read_bytes > s->write_bytes;
	s->located = spill_busiest_gap(c, &s->gap);
	if (!s->located)
		s->gap = c->n_phases - 1;
	if (s->gap == c->n_phases) /* before the first phase */
		s->phase = 0;
	else if (s->reads && s->gap + 1 < c->n_phases)
		s->phase = s->gap + 1;
	else
		s->phase = s->gap;
	return true;
}

bool rule_spill_over(const struct phase_facts *x, struct finding *f)
{
	const struct case_result *c = x->c;
	struct spill_facts s;

	if (!spill_locate(c, &s) || s.phase != x->index)
		return false;
	/* work a phase left behind is missing from its time; reads before a
	 * phase (a prepare step, another process) only change its cache */
	f->severity = s.reads ? FINDING_INFO : FINDING_WARNING;
	if (s.reads)
		finding_title(f, "device reads between phases, before %s",
			      x->p->name);
	else
		finding_title(
			f,
			"device work between phases: %s's timing excludes it",
			x->p->name);
	finding_evidence(
		f, "spill.block.busy_ns", s.busy_ns, s.busy_ns / s.total_ns,
		SPILL_SHARE,
		"%.2f s of device time between phases, %.0f%% of the case's device time: %llu requests, %.1f MB read, %.1f MB written",
		s.busy_ns / 1e9, 100 * s.busy_ns / s.total_ns,
		(unsigned long long)s.ios, (double)s.read_bytes / 1e6,
		(double)s.write_bytes / 1e6);
	if (!s.located)
		finding_evidence(
			f, "cases.events", NAN, NAN, NAN,
			"no rare event between phases says when: charged to the last phase");
	else if (s.reads)
		finding_evidence(
			f, "cases.events", NAN, NAN, NAN,
			"more read than written (%.1f MB against %.1f MB), just before %s: an untimed prepare step (cache drop, verification walk) or another process read from this device, and %s starts with the cache that left",
			(double)s.read_bytes / 1e6, (double)s.write_bytes / 1e6,
			x->p->name, x->p->name);
	else
		finding_evidence(
			f, "cases.events", NAN, NAN, NAN,
			"more written than read (%.1f MB against %.1f MB), after %s ended: work %s left behind (writeback, log or journal writes) that its wall time does not include",
			(double)s.write_bytes / 1e6, (double)s.read_bytes / 1e6,
			x->p->name, x->p->name);
	finding_advice(
		f, ADVICE_WORKLOAD, NULL, "%s",
		s.reads ?
			"read the phase's numbers with its cache state in mind (a cache dropped by another process makes it start cold)" :
			"end the phase with the sync it needs (fsync, syncfs), so that its timing includes the work it causes");
	return true;
}

bool rule_throttle_not_held(const struct phase_facts *x, struct finding *f)
{
	const struct target_result *t = &x->c->target;
	struct model_excess over[MODEL_EXCESS_MAX];
	unsigned int n, k;

	if (x->too_short)
		return false;
	n = phase_model_excess(t, x->p, THROTTLE_NOT_HELD_FACTOR, over);
	if (!n)
		return false;
	f->severity = FINDING_INFO;
	finding_title(f, "%s ran faster than the device model allows",
		      x->p->name);
	for (k = 0; k < n; k++) {
		const struct model_excess *o = &over[k];
		/* a stack's member: its own limits, as a disk of the model */
		const char *member = o->member >= 0 && (unsigned int)o->member <
							       t->stack.n ?
					     t->stack.member[o->member].name :
					     NULL;

		finding_evidence(f, o->metric, o->amount, o->rate / o->limit,
				 THROTTLE_NOT_HELD_FACTOR,
				 "%.0f %s%s%s against a limit of %.0f%s",
				 o->rate, o->what, member ? " on member " : "",
				 member ? member : "", o->limit,
				 member ? " a member" : "");
	}
	finding_evidence(f, "target.device_model_stack.placement", NAN, NAN,
			 NAN, "throttle placement: %s",
			 t->model.placement[0] ? t->model.placement : "none");
	return true;
}

/*
 * Once per case, on its first short phase: the evidence names every phase
 * of the case under the line (a run of many short phases gave a block of
 * the same caveat under each)
 */
bool rule_short_phase(const struct phase_facts *x, struct finding *f)
{
	const struct case_result *c = x->c;
	unsigned int i, n = 0;

	if (x->p->wall_ns >= SHORT_PHASE_NS)
		return false;
	for (i = 0; i < x->index && i < c->n_phases; i++)
		if (c->phases[i].wall_ns < SHORT_PHASE_NS)
			return false; /* said at the first one */
	for (i = 0; i < c->n_phases; i++)
		n += c->phases[i].wall_ns < SHORT_PHASE_NS;
	f->severity = FINDING_INFO;
	if (n == 1)
		finding_title(f, "%s is too short to trust (%.3f s)",
			      x->p->name, x->wall_ns / 1e9);
	else
		finding_title(
			f,
			"%u of the case's %u phases are too short to trust, %s the first",
			n, c->n_phases, x->p->name);
	for (i = x->index; i < c->n_phases; i++) {
		const struct phase_result *p = &c->phases[i];

		if (p->wall_ns >= SHORT_PHASE_NS)
			continue;
		finding_evidence(
			f, "wall_ns", (double)p->wall_ns, NAN,
			(double)SHORT_PHASE_NS,
			"%s: %.3f s, under %.1f s: its rates and shares move with a single request or scheduling delay",
			p->name, p->wall_ns / 1e9,
			(double)SHORT_PHASE_NS / 1e9);
	}
	finding_advice(
		f, ADVICE_WORKLOAD, NULL,
		"use more data or files (a larger size= or files=) so that the phase runs for seconds");
	return true;
}

bool rule_fits_in_ram(const struct phase_facts *x, struct finding *f)
{
	const struct phase_result *p = x->p;

	if (!case_fits_in_ram(x->c) || strcmp(p->cache, "warm") ||
	    !p->work.bytes || !x->block ||
	    (double)x->dev_bytes >= 0.5 * (double)p->work.bytes)
		return false;
	f->severity = FINDING_INFO;
	finding_title(f,
		      "%s: the data fits in the page cache, and stayed there",
		      p->name);
	finding_evidence(
		f, "data_bytes", (double)x->c->data_bytes,
		x->c->ram_bytes ?
			(double)x->c->data_bytes / (double)x->c->ram_bytes :
			NAN,
		2.0,
		"%.0f MB of data on a machine with %.0f MB of RAM (size < 2xRAM)",
		(double)x->c->data_bytes / 1e6, (double)x->c->ram_bytes / 1e6);
	finding_evidence(
		f, "block.total.bytes", (double)x->dev_bytes,
		(double)x->dev_bytes / (double)p->work.bytes, 0.5,
		"only %.1f of the phase's %.1f MB reached the device within it",
		(double)x->dev_bytes / 1e6, (double)p->work.bytes / 1e6);
	return true;
}

bool rule_inflight_at_end(const struct phase_facts *x, struct finding *f)
{
	unsigned int n = x->p->block.inflight_at_end;

	if (!n)
		return false;
	f->severity = FINDING_INFO;
	finding_title(f, "%s left %u request(s) in flight", x->p->name, n);
	finding_evidence(
		f, "block.inflight_at_end", n, NAN, NAN,
		"%u request(s) of the phase had not completed 2 s after it ended: their latency is missing from it",
		n);
	return true;
}

bool rule_cpu_stolen(const struct phase_facts *x, struct finding *f)
{
	double stolen = (double)fact_metric(x, MN(SCHED_STOLEN_NS));

	if (x->wall_ns <= 0 || stolen < STOLEN_SHARE * x->wall_ns)
		return false;
	f->severity = FINDING_INFO;
	finding_title(f, "%s: the hypervisor took %.0f%% of its time",
		      x->p->name, 100 * stolen / x->wall_ns);
	finding_evidence(
		f, "sched.stolen_ns", stolen, stolen / x->wall_ns, STOLEN_SHARE,
		"%.1f ms of the phase's %.1f ms the workload's vCPU ran something else (steal)",
		stolen / 1e6, x->wall_ns / 1e6);
	finding_advice(
		f, ADVICE_WORKLOAD, NULL,
		"measure on a host that is not oversubscribed, or with --repeat so that the host's load shows in the interval rather than in one number");
	return true;
}
