// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results/classic_json.h"
#include "results/findings_json.h"
#include "results/budget_parts.h"
#include "results/aging_json.h"
#include "results/block_stack_json.h"
#include "results/json.h"
#include "results/procs_json.h"
#include "results/headline.h"
#include "results/summary.h"
#include "util/histogram.h"
#include "util/log.h"

/* fio's default percentile list */
static const double percentiles[] = { 1,  5,	10,   20,    30,   40,
				      50, 60,	70,   80,    90,   95,
				      99, 99.5, 99.9, 99.95, 99.99 };

/*
 * A histogram in the unit its name says (block "latency" and "*_ns" in ns,
 * "size" and "*_bytes" in bytes, "*_blocks" in filesystem blocks).
 */
static json_t *hist_json(const struct latency_hist *h)
{
	json_t *pct = json_object(), *hist = json_array();
	unsigned int i;

	for (i = 0; i < sizeof(percentiles) / sizeof(percentiles[0]); i++) {
		char key[32];

		snprintf(key, sizeof(key), "%f", percentiles[i]);
		json_object_set_new(
			pct, key,
			json_integer((json_int_t)latency_hist_percentile(
				h, percentiles[i])));
	}
	for (i = 0; i < HIST_NSLOTS; i++) {
		uint64_t high = hist_slot_high(i);

		if (!h->slot[i])
			continue;
		json_array_append_new(
			hist,
			json_pack("{s:I, s:I, s:I}", "low",
				  (json_int_t)hist_slot_low(i), "high",
				  (json_int_t)(high > INT64_MAX ? INT64_MAX :
								  high),
				  "count", (json_int_t)h->slot[i]));
	}
	return json_pack("{s:I, s:I, s:I, s:I, s:o, s:o}", "count",
			 (json_int_t)h->count, "sum", (json_int_t)h->sum_ns,
			 "mean",
			 (json_int_t)(h->count ? h->sum_ns / h->count : 0),
			 "max", (json_int_t)h->max_ns, "percentile", pct,
			 "histogram", hist);
}

static json_t *block_class_json(const struct block_class_result *c)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:o, s:o}", "ios",
			 (json_int_t)c->ios, "bytes", (json_int_t)c->bytes,
			 "preflush", (json_int_t)c->preflush, "fua",
			 (json_int_t)c->fua, "completion_unseen",
			 (json_int_t)c->unseen, "size", hist_json(&c->size),
			 "latency", hist_json(&c->lat));
}

/* busy time and in-flight requests; the average needs the phase's wall */
static void block_busy_set(json_t *obj, const struct block_busy_result *t,
			   uint64_t wall_ns)
{
	json_t *avg =
		wall_ns ? json_real((double)t->inflight_ns / (double)wall_ns) :
			  json_null();

	json_object_set_new(obj, "busy_ns",
			    json_integer((json_int_t)t->busy_ns));
	json_object_set_new(obj, "inflight",
			    json_pack("{s:I, s:o, s:I}", "time_ns",
				      (json_int_t)t->inflight_ns, "avg", avg,
				      "max", (json_int_t)t->max_inflight));
}

/* per IO class: its total, busy time, and each issuer that had requests */
static json_t *block_io_classes_json(const struct block_result *b,
				     uint64_t wall_ns)
{
	json_t *classes = json_object();
	unsigned int c, i;

	for (c = 0; c < BLK_IOC_NR; c++) {
		struct block_class_result sum;
		json_t *issuers = json_object(), *obj;

		memset(&sum, 0, sizeof(sum));
		for (i = 0; i < b->n_io; i++) {
			if (b->io[i].ioclass != c)
				continue;
			block_class_add(&sum, &b->io[i].r);
			json_object_set_new(issuers,
					    blk_issuer_name(b->io[i].issuer),
					    block_class_json(&b->io[i].r));
		}
		obj = block_class_json(&sum);
		block_busy_set(obj, &b->ioclass[c], wall_ns);
		json_object_set_new(obj, "issuers", issuers);
		json_object_set_new(classes, blk_ioclass_name(c), obj);
	}
	return classes;
}

/* per issuer: requests, bytes and device time over every IO class */
static json_t *block_issuers_json(const struct block_result *b,
				  uint64_t wall_ns)
{
	json_t *issuers = json_object();
	unsigned int s, i;

	for (s = 0; s < BLK_ISS_NR; s++) {
		uint64_t ios = 0, bytes = 0;
		json_t *obj;

		for (i = 0; i < b->n_io; i++) {
			if (b->io[i].issuer != s)
				continue;
			ios += b->io[i].r.ios;
			bytes += b->io[i].r.bytes;
		}
		obj = json_pack("{s:I, s:I}", "ios", (json_int_t)ios, "bytes",
				(json_int_t)bytes);
		block_busy_set(obj, &b->issuer[s], wall_ns);
		json_object_set_new(issuers, blk_issuer_name(s), obj);
	}
	return issuers;
}

static json_t *block_json(const struct block_result *b, uint64_t wall_ns)
{
	struct block_class_result total;
	json_t *classes, *obj;
	unsigned int c;

	if (!b->traced)
		return json_pack("{s:b}", "traced", 0);
	classes = json_object();
	for (c = 0; c < BLK_OPC_NR; c++)
		json_object_set_new(classes, blk_opclass_name(c),
				    block_class_json(&b->cls[c]));
	block_result_total(b, &total);
	obj = json_pack("{s:b, s:o, s:o}", "traced", 1, "total",
			block_class_json(&total), "classes", classes);
	block_busy_set(obj, &b->device, wall_ns);
	json_object_set_new(obj, "io_classes",
			    block_io_classes_json(b, wall_ns));
	json_object_set_new(obj, "issuers", block_issuers_json(b, wall_ns));
	/* requests of the phase that had not completed when it was collected */
	json_object_set_new(obj, "inflight_at_end",
			    json_integer(b->inflight_at_end));
	/* a stacked target's: each member's (target.block_stack.members) */
	if (b->n_members)
		json_object_set_new(obj, "members", block_members_json(b));
	return obj;
}

static json_t *log_region_json(const struct log_region *r)
{
	json_t *ranges = json_array();
	unsigned int i;

	for (i = 0; i < r->n; i++)
		json_array_append_new(
			ranges,
			json_pack("{s:I, s:I}", "start_sector",
				  (json_int_t)r->range[i].start, "sectors",
				  (json_int_t)r->range[i].sectors));
	return json_pack("{s:s, s:o}", "source", r->source, "ranges", ranges);
}

static json_t *phase_core_json(const struct phase_result *p);

/* "jbd2.commits" -> obj.jbd2.commits */
static void json_set_dotted(json_t *root, const char *name, json_t *value)
{
	const char *dot = strchr(name, '.');
	char domain[METRIC_NAME_LEN];
	json_t *sub;

	if (!dot) {
		json_object_set_new(root, name, value);
		return;
	}
	snprintf(domain, sizeof(domain), "%.*s", (int)(dot - name), name);
	sub = json_object_get(root, domain);
	if (!sub) {
		sub = json_object();
		json_object_set_new(root, domain, sub);
	}
	json_object_set_new(sub, dot + 1, value);
}

static json_t *metrics_json(const struct metric_set *s)
{
	json_t *obj = json_object();
	unsigned int i;

	for (i = 0; i < s->n; i++)
		json_set_dotted(obj, s->v[i].name,
				json_integer((json_int_t)s->v[i].value));
	return obj;
}

static json_t *histograms_json(const struct metric_set *s)
{
	json_t *obj = json_object();
	unsigned int i;

	for (i = 0; i < s->n_hists; i++)
		json_set_dotted(obj, s->hists[i].name,
				hist_json(&s->hists[i].h));
	return obj;
}

static json_t *intervals_json(const struct phase_result *p)
{
	json_t *arr = json_array();
	unsigned int i;

	for (i = 0; i < p->n_intervals; i++) {
		const struct interval_sample *s = &p->intervals[i];

		json_array_append_new(arr,
				      json_pack("{s:I, s:I, s:I}", "t_ns",
						(json_int_t)s->t_ns, "files",
						(json_int_t)s->files, "bytes",
						(json_int_t)s->bytes));
	}
	return arr;
}

/* {"bin_ns": .., "start_mono_ns": .., "bins": n, "series": {name: [..]}} */
static json_t *timeline_json(const struct series_set *set)
{
	json_t *series = json_object();
	unsigned int i, b;

	for (i = 0; i < set->n; i++) {
		json_t *bins = json_array();

		for (b = 0; b < set->s[i].n; b++)
			json_array_append_new(
				bins, json_integer((json_int_t)set->s[i].v[b]));
		json_object_set_new(series, set->s[i].name, bins);
	}
	return json_pack("{s:I, s:I, s:i, s:o}", "bin_ns",
			 (json_int_t)set->bin_ns, "start_mono_ns",
			 (json_int_t)set->start_ns, "bins",
			 (int)series_set_bins(set), "series", series);
}

/* one rare event: when, which phase, what, and its kind's named fields */
static json_t *event_json(const struct event_record *e)
{
	const struct event_kind_info *k = event_kind_info(e->kind);
	json_t *obj = json_pack("{s:I, s:i}", "t_ns", (json_int_t)e->t_ns,
				"phase", (int)e->phase);
	unsigned int i;

	if (!k) {
		json_object_set_new(obj, "kind", json_integer(e->kind));
		return obj;
	}
	json_object_set_new(obj, "domain", json_string(k->domain));
	json_object_set_new(obj, "kind", json_string(k->name));
	for (i = 0; i < EVENT_NVALUES; i++)
		if (k->values[i])
			json_object_set_new(obj, k->values[i],
					    json_integer((json_int_t)e->v[i]));
	for (i = 0; i < EVENT_MAX_STRINGS; i++)
		if (k->strings[i])
			json_object_set_new(obj, k->strings[i],
					    json_string(e->s[i]));
	return obj;
}

static json_t *events_json(const struct event_list *l)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < l->n; i++)
		json_array_append_new(arr, event_json(&l->v[i]));
	return arr;
}

/* [{"cause", "count", "total_ns", "frames": ["fn+0x1f", ...]}, ...] */
static json_t *stacks_json(const struct stack_top *top)
{
	json_t *arr = json_array();
	unsigned int i, f;

	for (i = 0; i < top->n; i++) {
		const struct stack_record *r = &top->v[i];
		json_t *frames = json_array();

		for (f = 0; f < r->n_frames; f++)
			json_array_append_new(frames, json_string(r->frame[f]));
		json_array_append_new(
			arr,
			json_pack("{s:s, s:I, s:I, s:o}", "cause", r->cause,
				  "count", (json_int_t)r->count, "total_ns",
				  (json_int_t)r->total_ns, "frames", frames));
	}
	return arr;
}

/* the sched domain's heaviest stacks, when it saw any: obj.sched.top_stacks */
static void stacks_set(json_t *obj, const struct stack_top *top)
{
	if (top->n)
		json_set_dotted(obj, "sched.top_stacks", stacks_json(top));
}

/*
 * The time budget's parts as shares of wall, as the text report prints
 * them: obj.sched.share_of_wall = {"oncpu": 0.01, "offcpu": 0.99,
 * "unaccounted": 0, "<cause>": ...}; nothing when there is no budget.
 */
static void budget_shares_set(json_t *obj, const struct metric_set *m)
{
	static const char prefix[] = BUDGET_OFFCPU_PREFIX;
	double wall = (double)metric_value(m, "sched.wall_ns");
	json_t *shares;
	unsigned int i;

	if (!metric_find(m, "sched.wall_ns") || wall <= 0)
		return;
	shares = json_pack(
		"{s:f, s:f, s:f}", "oncpu",
		(double)metric_value(m, "sched.oncpu_ns") / wall, "offcpu",
		(double)metric_value(m, "sched.offcpu_ns") / wall,
		"unaccounted",
		(double)metric_value(m, "sched.unaccounted_ns") / wall);
	for (i = 0; i < m->n; i++)
		if (!strncmp(m->v[i].name, prefix, sizeof(prefix) - 1))
			json_object_set_new(
				shares, m->v[i].name + sizeof(prefix) - 1,
				json_real((double)m->v[i].value / wall));
	for (i = 0; i < BUDGET_TAKEN_NR; i++) {
		const struct metric *t =
			metric_find(m, budget_taken_parts[i].metric);

		if (t)
			json_object_set_new(shares, budget_taken_parts[i].key,
					    json_real((double)t->value / wall));
	}
	json_set_dotted(obj, "sched.share_of_wall", shares);
}

static json_t *phase_json(const struct phase_result *p)
{
	json_t *obj = phase_core_json(p);

	json_object_set_new(obj, "metrics", metrics_json(&p->metrics));
	json_object_set_new(obj, "histograms", histograms_json(&p->metrics));
	json_object_set_new(obj, "intervals", intervals_json(p));
	json_object_set_new(obj, "timeline", timeline_json(&p->timeline));
	stacks_set(obj, &p->sched_stacks);
	procs_json_set(obj, &p->procs);
	budget_shares_set(obj, &p->metrics);
	/* the analyze stage's conclusions */
	json_object_set_new(obj, "verdict", verdict_to_json(&p->verdict));
	json_object_set_new(obj, "findings", findings_to_json(&p->findings));
	return obj;
}

static json_t *phase_core_json(const struct phase_result *p)
{
	return json_pack(
		"{s:s, s:i, s:I, s:I, s:I, s:s, s:s,"
		" s:{s:I, s:I, s:I, s:f, s:f, s:f, s:f},"
		" s:{s:I, s:I, s:f, s:I, s:I}, s:o}",
		"name", p->name, "id", (int)p->id, "start_mono_ns",
		(json_int_t)p->start_mono_ns, "end_mono_ns",
		(json_int_t)p->end_mono_ns, "wall_ns", (json_int_t)p->wall_ns,
		"cache", p->cache, "sync", p->sync, "workload", "bytes",
		(json_int_t)p->work.bytes, "ops", (json_int_t)p->work.ops,
		"files", (json_int_t)p->work.files, "bw_bytes",
		p->wall_ns ? (double)p->work.bytes * 1e9 / (double)p->wall_ns :
			     0.0,
		"mb_per_s", phase_mb_per_s(p), "mib_per_s", phase_mib_per_s(p),
		"files_per_s", phase_files_per_s(p), "cpu", "user_ns",
		(json_int_t)p->user_ns, "sys_ns", (json_int_t)p->sys_ns,
		"percent", phase_cpu_percent(p), "voluntary_ctxsw",
		(json_int_t)p->vol_ctxsw, "involuntary_ctxsw",
		(json_int_t)p->invol_ctxsw, "block",
		block_json(&p->block, p->wall_ns));
}

static json_t *sysctls_json(const struct sysctl_record *rec)
{
	json_t *obj = json_object();
	unsigned int i;

	for (i = 0; i < rec->n; i++)
		json_object_set_new(obj, rec->v[i].name,
				    json_string(rec->v[i].value));
	return obj;
}

/* a stacked target's members, each a disk of the model of its own */
static json_t *model_members_json(const struct model_result *mr)
{
	json_t *arr;
	unsigned int i;
	char dev[32];

	if (!mr->n_members)
		return json_null();
	arr = json_array();
	for (i = 0; i < mr->n_members; i++) {
		const struct model_member *mm = &mr->member[i];

		snprintf(dev, sizeof(dev), "%u:%u", mm->major, mm->minor);
		json_array_append_new(
			arr, json_pack("{s:s, s:s, s:s, s:b}", "member",
				       mm->member, "throttled_device",
				       mm->device, "throttled_dev", dev,
				       "throttled_dio", mm->dio));
	}
	return arr;
}

/* the engine's figures over the case (model_engine, results.h) */
static json_t *model_engine_json(const struct model_engine *e)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I}", "round_trip_ns",
			 (json_int_t)e->round_trip_ns, "charged",
			 (json_int_t)e->charged, "modelled_ns",
			 (json_int_t)e->modelled_ns, "short_requests",
			 (json_int_t)e->short_requests, "short_excess_ns",
			 (json_int_t)e->short_excess_ns);
}

/*
 * The device model as built: its limits, the lower device its engine
 * serves (the throttled_* keys, named when a throttle sat there), and the
 * engine's figures (null when there is no model).
 */
static json_t *device_model_stack_json(const struct model_result *mr)
{
	const struct device_model *m = &mr->m;
	bool faithful = !strcmp(mr->placement, "lower-loop");
	char dev[32];

	json_t *obj;

	if (!mr->placement[0])
		return json_null();
	snprintf(dev, sizeof(dev), "%u:%u", mr->major, mr->minor);
	obj = json_pack(
		"{s:s, s:{s:I, s:I, s:I, s:I}, s:s, s:s, s:s, s:b, s:b}",
		"model", m->name, "limits", "riops", (json_int_t)m->riops,
		"wiops", (json_int_t)m->wiops, "rbps", (json_int_t)m->rbps,
		"wbps", (json_int_t)m->wbps, "placement", mr->placement,
		"throttled_device", mr->device, "throttled_dev", dev,
		"throttled_dio", mr->dio, "faithful", faithful);
	json_object_set_new(obj, "engine", model_engine_json(&mr->engine));
	json_object_set_new(obj, "members", model_members_json(mr));
	/* what the traced device tells the filesystem: null = left as it was */
	json_object_set_new(obj, "traced_rotational",
			    m->rotational < 0 ? json_null() :
						json_boolean(m->rotational));
	return obj;
}

static json_t *target_json(const struct target_result *t)
{
	char model[DEVICE_MODEL_TEXT_LEN];
	json_t *obj = json_pack(
		"{s:s, s:s, s:s, s:I, s:s, s:s, s:i, s:i, s:b, s:s, s:s?}",
		"kind", t->kind, "fstype", t->fstype, "image", t->image,
		"image_size", (json_int_t)t->image_size, "device", t->device,
		"workdir", t->workdir, "dev_major", (int)t->dev_major,
		"dev_minor", (int)t->dev_minor, "loop_dio", t->loop_dio,
		"mkfs_cmd", t->mkfs_cmd, "mkfs_output", t->mkfs_output);

	json_object_set_new(obj, "fs_uuid", json_string(t->fs_uuid));
	json_object_set_new(obj, "mount_options", json_string(t->mount_opts));
	json_object_set_new(obj, "super_options", json_string(t->super_opts));
	json_object_set_new(obj, "mount_cmd", json_string(t->mount_cmd));
	json_object_set_new(obj, "device_model",
			    json_string(device_model_format(&t->model.m, model,
							    sizeof(model))));
	json_object_set_new(obj, "device_model_stack",
			    device_model_stack_json(&t->model));
	json_object_set_new(obj, "log", log_region_json(&t->log));
	json_object_set_new(obj, "block_stack", block_stack_json(&t->stack));
	json_object_set_new(obj, "kernel_release",
			    json_string(t->kernel_release));
	json_object_set_new(obj, "sysctls", sysctls_json(&t->sysctls));
	json_object_set_new(obj, "block_untraced",
			    t->block_untraced[0] ?
				    json_string(t->block_untraced) :
				    json_null());
	json_object_set_new(obj, "tracing_unavailable",
			    t->untraced[0] ? json_string(t->untraced) :
					     json_null());
	return obj;
}

static json_t *charging_json(const struct charging_list *list)
{
	json_t *obj = json_object();
	unsigned int i;

	for (i = 0; i < list->n; i++)
		json_object_set_new(obj, list->v[i].domain,
				    json_string(list->v[i].rule));
	return obj;
}

static json_t *programs_json(const struct attach_list *list)
{
	json_t *arr = json_array();
	unsigned int i;

	for (i = 0; i < list->n; i++) {
		const struct attach_record *a = &list->v[i];

		json_array_append_new(
			arr, json_pack("{s:s, s:s, s:s, s:s, s:s}", "domain",
				       a->domain, "program", a->program,
				       "event", a->event, "state",
				       attach_state_name(a->state), "reason",
				       a->reason));
	}
	return arr;
}

static json_t *case_json(const struct case_result *c)
{
	json_t *obj, *spill, *phases = json_array();
	unsigned int i;

	for (i = 0; i < c->n_phases; i++)
		json_array_append_new(phases, phase_json(&c->phases[i]));
	obj = json_pack(
		"{s:o, s:{s:s, s:s, s:I, s:I, s:I, s:b}, s:i, s:b, s:o, s:o}",
		"target", target_json(&c->target), "workload", "name",
		c->workload, "params", c->params, "size_bytes",
		(json_int_t)c->size, "data_bytes", (json_int_t)c->data_bytes,
		"ram_bytes", (json_int_t)c->ram_bytes, "size_lt_2x_ram",
		case_fits_in_ram(c), "repeat", (int)c->repeat, "complete",
		c->complete, "programs", programs_json(&c->programs), "phases",
		phases);
	json_object_set_new(obj, "target_label", json_string(c->target_label));
	json_object_set_new(obj, "target_name", json_string(c->target_name));
	if (c->order)
		json_object_set_new(obj, "order", json_integer(c->order));
	json_object_set_new(obj, "charging", charging_json(&c->charging));
	if (c->error[0])
		json_object_set_new(obj, "error", json_string(c->error));
	if (c->failed_phase[0])
		json_object_set_new(obj, "failed_phase",
				    json_string(c->failed_phase));
	json_object_set_new(obj, "events", events_json(&c->events));
	if (c->kernel.guest)
		json_object_set_new(obj, "kernel",
				    json_pack("{s:s, s:s, s:s, s:s, s:b}",
					      "release", c->kernel.release,
					      "source", c->kernel.source,
					      "btf_hash", c->kernel.btf_hash,
					      "accel", c->kernel.accel,
					      "emulated", c->kernel.emulated));
	if (c->kernel.guest && c->kernel.slot)
		json_object_set_new(json_object_get(obj, "kernel"), "slot",
				    json_integer(c->kernel.slot));
	json_object_set_new(obj, "age", aging_json(&c->age));
	json_object_set_new(obj, "events_not_stored",
			    json_integer((json_int_t)c->events.not_stored));
	spill = json_pack("{s:o, s:o, s:o}", "block",
			  block_json(&c->spill.block, 0), "metrics",
			  metrics_json(&c->spill.metrics), "histograms",
			  histograms_json(&c->spill.metrics));
	stacks_set(spill, &c->spill.sched_stacks);
	json_object_set_new(obj, "spill", spill);
	return obj;
}

static json_t *stats_json(const struct stats *st)
{
	return json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (int)st->n,
			 "mean", st->mean, "stddev", st->stddev, "ci95_low",
			 st->ci95_lo, "ci95_high", st->ci95_hi, "min", st->min,
			 "max", st->max);
}

static json_t *summary_groups_json(const struct run_result *run)
{
	json_t *arr = json_array();
	struct summary sum;
	unsigned int g, p, m;

	if (summary_build(run, &sum))
		return arr;
	for (g = 0; g < sum.n; g++) {
		const struct summary_group *grp = &sum.groups[g];
		json_t *phases = json_array();

		for (p = 0; p < grp->n_phases; p++) {
			const struct summary_phase *sp = &grp->phases[p];
			json_t *metrics = json_object();

			for (m = 0; m < sp->n_metrics; m++)
				json_object_set_new(
					metrics, sp->metrics[m].name,
					stats_json(&sp->metrics[m].st));
			json_array_append_new(phases,
					      json_pack("{s:s, s:o}", "name",
							sp->name, "metrics",
							metrics));
		}
		json_t *g = json_pack("{s:s, s:s, s:s, s:i, s:o}", "target",
				      grp->target_label, "workload",
				      grp->workload, "params", grp->params,
				      "repeats", (int)grp->repeats, "phases",
				      phases);

		if (grp->kernel)
			json_object_set_new(g, "kernel",
					    json_string(grp->kernel));
		json_array_append_new(arr, g);
	}
	summary_free(&sum);
	return arr;
}

static json_t *verified_json(const struct finding *f)
{
	const struct verification *v = f ? &f->verified : NULL;

	if (!v || !v->done || v->ratio <= 0)
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:s, s:s}", "speedup", v->ratio,
			 "ci_low", v->ci_lo, "ci_high", v->ci_hi, "applied",
			 v->applied, "verdict", v->verdict);
}

static json_t *string_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *headline_row_json(const struct headline_row *r)
{
	const struct finding *f = r->finding;

	return json_pack(
		"{s:s, s:s, s:s, s:i, s:f, s:f, s:o, s:o, s:o, s:o, s:o, s:o}",
		"target", r->target, "workload", r->workload, "phase", r->phase,
		"repeats", (int)r->repeats, "wall_s", r->wall_s, "share",
		r->share, "bound", string_or_null(r->bound), "rule",
		string_or_null(f ? f->rule : NULL), "title",
		string_or_null(f ? f->title : NULL), "severity",
		string_or_null(f ? finding_severity_name(f->severity) : NULL),
		"advice", string_or_null(f ? f->advice.text : NULL), "verified",
		verified_json(f));
}

static json_t *headline_differ_json(const struct headline_differ *d)
{
	const struct comparison *cmp = d->cmp;
	json_t *targets = json_array(), *attribution = json_array();
	unsigned int t, e;

	for (t = 0; t < cmp->n_targets; t++)
		json_array_append_new(targets,
				      json_pack("{s:s, s:f}", "target",
						cmp->targets[t].name, "wall_s",
						cmp->targets[t].wall_s));
	for (e = 0; e < d->finding->n_evidence; e++)
		json_array_append_new(attribution,
				      json_string(d->finding->ev[e].text));
	return json_pack("{s:s, s:s, s:f, s:s, s:o, s:o}", "workload",
			 cmp->workload, "phase", cmp->phase, "diff_s",
			 d->diff_s, "title", d->finding->title, "targets",
			 targets, "evidence", attribution);
}

/*
 * summary: the statistics over repeats (groups), and the answer first
 * (headline, differs): what the text report's first block says
 */
static json_t *summary_json(const struct run_result *run)
{
	json_t *rows = json_array(), *differs = json_array();
	struct headline h;
	unsigned int i;

	if (!headline_build(run, &h)) {
		for (i = 0; i < h.n_rows; i++)
			json_array_append_new(rows,
					      headline_row_json(&h.rows[i]));
		for (i = 0; i < h.n_differs; i++)
			json_array_append_new(
				differs, headline_differ_json(&h.differs[i]));
	}
	return json_pack("{s:o, s:f, s:o, s:o}", "groups",
			 summary_groups_json(run), "phases_s", h.total_s,
			 "headline", rows, "differs", differs);
}

static json_t *command_json(const struct run_result *run)
{
	json_t *arr = json_array();
	unsigned int i;

	for (i = 0; i < run->n_command; i++)
		json_array_append_new(arr, json_string(run->command[i]));
	return arr;
}

json_t *results_to_json(const struct run_result *run)
{
	time_t started = (time_t)(run->started_real_ns / 1000000000ULL);
	json_t *root, *cases = json_array();
	char when[64];
	unsigned int i;
	struct tm tm;

	gmtime_r(&started, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (i = 0; i < run->n_cases; i++)
		json_array_append_new(cases, case_json(&run->cases[i]));
	root = json_pack("{s:i, s:{s:s, s:s}, s:s, s:{s:s}, s:b, s:b, s:i}",
			 "schema_version", RESULTS_SCHEMA_VERSION, "tool",
			 "name", "fsprof", "version", run->tool_version,
			 "started", when, "kernel", "release",
			 run->kernel_release, "complete",
			 run_result_complete(run), "interrupted",
			 run->interrupted, "signal", run->signal);
	json_object_set_new(root, "self",
			    json_pack("{s:I}", "max_rss_kib",
				      (json_int_t)run->max_rss_kib));
	json_object_set_new(root, "cases", cases);
	json_object_set_new(root, "summary", summary_json(run));
	json_object_set_new(root, "comparisons",
			    comparisons_to_json(&run->comparisons));
	json_object_set_new(root, "suite",
			    run->suite[0] ? json_string(run->suite) :
					    json_null());
	json_object_set_new(root, "classic", classic_to_json(&run->classic));
	if (run->n_command)
		json_object_set_new(root, "command", command_json(run));
	return root;
}

int results_write_json(const struct run_result *run, const char *path)
{
	json_t *root = results_to_json(run);
	char tmp[4096];
	int err = 0, n;

	if (!root) {
		log_error("building the JSON results failed");
		return -ENOMEM;
	}
	/* truncated, it would be some other file */
	n = snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		log_error(
			"write JSON results to %.64s...: the path is too long",
			path);
		json_decref(root);
		return -ENAMETOOLONG;
	}
	if (json_dump_file(root, tmp, JSON_INDENT(2) | JSON_SORT_KEYS)) {
		err = -EIO;
		log_error(
			"write JSON results to %s: cannot write the file (does its directory exist and is it writable?)",
			tmp);
		unlink(tmp);
	} else if (rename(tmp, path)) {
		err = -errno;
		log_error("write JSON results to %s: %s", path,
			  strerror_safe(-err));
		unlink(tmp);
	}
	json_decref(root);
	return err;
}
