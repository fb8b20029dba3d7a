// SPDX-License-Identifier: GPL-2.0
/*
 * A saved results JSON (json.c, docs/results-json.md) read back into the
 * results model, so that `fsprof report` and `fsprof diff` re-render and
 * re-analyse a run with no kernel and no root. What json.c derives (rates,
 * percentiles, shares, the repeat summary) is not read: it is recomputed
 * from what it was derived from.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "results/json_read.h"
#include "results/json_read_int.h"
#include "results/procs_json.h"
#include "version.h"

static int metrics_read(struct jread *r, const char *where, json_t *obj,
			struct metric_set *m)
{
	const char *domain, *key;
	json_t *v, *sub;
	char name[METRIC_NAME_LEN + 1];

	json_object_foreach(obj, domain, v)
	{
		uint64_t value;

		if (!json_is_object(v)) {
			if (strlen(domain) >= METRIC_NAME_LEN)
				return jread_fail(
					r, where,
					"metric name '%s' is too long", domain);
			if (jread_value_u64(r, where, v, &value))
				return jread_fail(r, where,
						  "metric '%s' is not a count",
						  domain);
			if (metric_add(m, domain, value))
				return jread_fail(r, where, "out of memory");
			continue;
		}
		json_object_foreach(v, key, sub)
		{
			if ((size_t)snprintf(name, sizeof(name), "%s.%s",
					     domain, key) >= METRIC_NAME_LEN)
				return jread_fail(
					r, where,
					"metric name '%s.%s' is too long",
					domain, key);
			if (jread_value_u64(r, where, sub, &value))
				return jread_fail(r, where,
						  "metric '%s' is not a count",
						  name);
			if (metric_add(m, name, value))
				return jread_fail(r, where, "out of memory");
		}
	}
	return 0;
}

static int hist_named(struct jread *r, const char *where, const char *name,
		      json_t *obj, struct metric_set *m)
{
	struct latency_hist *h;

	if (strlen(name) >= METRIC_NAME_LEN)
		return jread_fail(r, where, "histogram name '%s' is too long",
				  name);
	h = metric_hist(m, name);
	if (!h)
		return jread_fail(r, where, "out of memory");
	return jread_hist(r, where, obj, h);
}

/* histograms.<domain>.<name> (or histograms.<name> with no domain) */
static int histograms_read(struct jread *r, const char *where, json_t *obj,
			   struct metric_set *m)
{
	const char *domain, *key;
	json_t *v, *sub;
	char name[2 * METRIC_NAME_LEN];

	json_object_foreach(obj, domain, v)
	{
		if (!json_is_object(v))
			return jread_fail(r, where, "'%s' is not an object",
					  domain);
		if (json_object_get(v, "histogram")) {
			if (hist_named(r, where, domain, v, m))
				return -EINVAL;
			continue;
		}
		json_object_foreach(v, key, sub)
		{
			snprintf(name, sizeof(name), "%s.%s", domain, key);
			if (hist_named(r, where, name, sub, m))
				return -EINVAL;
		}
	}
	return 0;
}

static int timeline_read(struct jread *r, const char *where, json_t *obj,
			 struct series_set *set)
{
	const char *name;
	json_t *series, *bins;

	if (!obj)
		return 0;
	if (jread_u64(r, where, obj, "bin_ns", &set->bin_ns) ||
	    jread_u64(r, where, obj, "start_mono_ns", &set->start_ns) ||
	    jread_object(r, where, obj, "series", &series))
		return -EINVAL;
	json_object_foreach(series, name, bins)
	{
		size_t i, n = json_array_size(bins);
		uint64_t *v;
		json_t *b;
		int err = 0;

		if (!json_is_array(bins) || strlen(name) >= SERIES_NAME_LEN)
			return jread_fail(r, where,
					  "series '%s' is not a list of bins",
					  name);
		v = calloc(n ? n : 1, sizeof(*v));
		if (!v)
			return jread_fail(r, where, "out of memory");
		json_array_foreach(bins, i, b) if (!err)
			err = jread_value_u64(r, where, b, &v[i]);
		if (!err && series_add(set, name, v, (unsigned int)n))
			err = jread_fail(r, where, "out of memory");
		free(v);
		if (err)
			return err;
	}
	return 0;
}

static int intervals_read(struct jread *r, const char *where, json_t *arr,
			  struct phase_result *p)
{
	json_t *s;
	size_t i, n = json_array_size(arr);

	if (!n)
		return 0;
	p->intervals = calloc(n, sizeof(*p->intervals));
	if (!p->intervals)
		return jread_fail(r, where, "out of memory");
	p->intervals_cap = (unsigned int)n;
	json_array_foreach(arr, i, s)
	{
		struct interval_sample *iv = &p->intervals[p->n_intervals++];

		if (!json_is_object(s))
			return jread_fail(r, where,
					  "an interval is not an object");
		if (jread_u64(r, where, s, "t_ns", &iv->t_ns) ||
		    jread_u64(r, where, s, "files", &iv->files) ||
		    jread_u64(r, where, s, "bytes", &iv->bytes))
			return -EINVAL;
	}
	return 0;
}

/* <obj>.sched.top_stacks[] */
static int stacks_read(struct jread *r, const char *where, json_t *obj,
		       struct stack_top *top)
{
	json_t *sched, *arr, *s, *frames, *f;
	size_t i, k;

	if (jread_object(r, where, obj, "sched", &sched))
		return -EINVAL;
	if (!sched || jread_array(r, where, sched, "top_stacks", &arr))
		return sched ? -EINVAL : 0;
	json_array_foreach(arr, i, s)
	{
		struct stack_record *rec;

		if (top->n == STACK_TOP_MAX)
			break;
		rec = &top->v[top->n++];
		if (!json_is_object(s))
			return jread_fail(r, where, "a stack is not an object");
		if (jread_str(r, where, s, "cause", rec->cause,
			      sizeof(rec->cause)) ||
		    jread_u64(r, where, s, "count", &rec->count) ||
		    jread_u64(r, where, s, "total_ns", &rec->total_ns) ||
		    jread_array(r, where, s, "frames", &frames))
			return -EINVAL;
		json_array_foreach(frames, k, f)
		{
			const char *fn = json_string_value(f);

			if (!fn || strlen(fn) >= STACK_FRAME_LEN)
				return jread_fail(
					r, where,
					"a stack frame is not a short string");
			if (rec->n_frames < STACK_MAX_FRAMES)
				strcpy(rec->frame[rec->n_frames++], fn);
		}
	}
	return 0;
}

static int phase_read(struct jread *r, const char *where, json_t *obj,
		      struct phase_result *p)
{
	json_t *work, *cpu, *block, *metrics, *hists, *intervals, *timeline,
		*findings;

	if (!json_is_object(obj))
		return jread_fail(r, where, "not an object");
	if (!json_is_string(json_object_get(obj, "name")))
		return jread_fail(r, where, "a phase needs a name");
	if (jread_str(r, where, obj, "name", p->name, sizeof(p->name)) ||
	    jread_uint(r, where, obj, "id", &p->id) ||
	    jread_u64(r, where, obj, "start_mono_ns", &p->start_mono_ns) ||
	    jread_u64(r, where, obj, "end_mono_ns", &p->end_mono_ns) ||
	    jread_u64(r, where, obj, "wall_ns", &p->wall_ns) ||
	    jread_str(r, where, obj, "cache", p->cache, sizeof(p->cache)) ||
	    jread_str(r, where, obj, "sync", p->sync, sizeof(p->sync)) ||
	    jread_object(r, where, obj, "workload", &work) ||
	    jread_object(r, where, obj, "cpu", &cpu) ||
	    jread_object(r, where, obj, "block", &block) ||
	    jread_object(r, where, obj, "metrics", &metrics) ||
	    jread_object(r, where, obj, "histograms", &hists) ||
	    jread_array(r, where, obj, "intervals", &intervals) ||
	    jread_object(r, where, obj, "timeline", &timeline) ||
	    jread_array(r, where, obj, "findings", &findings))
		return -EINVAL;
	if (work && (jread_u64(r, where, work, "bytes", &p->work.bytes) ||
		     jread_u64(r, where, work, "ops", &p->work.ops) ||
		     jread_u64(r, where, work, "files", &p->work.files)))
		return -EINVAL;
	if (cpu &&
	    (jread_u64(r, where, cpu, "user_ns", &p->user_ns) ||
	     jread_u64(r, where, cpu, "sys_ns", &p->sys_ns) ||
	     jread_u64(r, where, cpu, "voluntary_ctxsw", &p->vol_ctxsw) ||
	     jread_u64(r, where, cpu, "involuntary_ctxsw", &p->invol_ctxsw)))
		return -EINVAL;
	if (block && jread_block(r, where, block, &p->block))
		return -EINVAL;
	if (metrics_read(r, where, metrics, &p->metrics) ||
	    histograms_read(r, where, hists, &p->metrics) ||
	    intervals_read(r, where, intervals, p) ||
	    timeline_read(r, where, timeline, &p->timeline) ||
	    stacks_read(r, where, obj, &p->sched_stacks))
		return -EINVAL;
	if (procs_json_get(obj, &p->procs))
		return jread_fail(
			r, where,
			"block_processes is not {\"top\": [{pid, comm, ios, bytes, write_bytes}], ...}");
	return jread_findings(r, where, findings, &p->findings);
}

static int event_kind_of(const char *domain, const char *name)
{
	unsigned int k;

	for (k = 0; k < FSPROF_EV_NR; k++) {
		const struct event_kind_info *info = event_kind_info(k);

		if (info && !strcmp(info->domain, domain) &&
		    !strcmp(info->name, name))
			return (int)k;
	}
	return -1;
}

static int events_read(struct jread *r, const char *where, json_t *arr,
		       struct event_list *l)
{
	json_t *e;
	size_t i;

	json_array_foreach(arr, i, e)
	{
		const struct event_kind_info *info;
		struct event_record rec;
		char domain[16] = "", name[32] = "";
		unsigned int k;
		int kind;

		memset(&rec, 0, sizeof(rec));
		if (!json_is_object(e))
			return jread_fail(r, where,
					  "an event is not an object");
		if (jread_str(r, where, e, "domain", domain, sizeof(domain)) ||
		    jread_str(r, where, e, "kind", name, sizeof(name)) ||
		    jread_u64(r, where, e, "t_ns", &rec.t_ns) ||
		    jread_uint(r, where, e, "phase", &rec.phase))
			return -EINVAL;
		kind = event_kind_of(domain, name);
		if (kind < 0)
			continue; /* a kind a newer fsprof knows */
		rec.kind = (uint16_t)kind;
		info = event_kind_info((unsigned int)kind);
		/* json.c writes the raw u64: a flush's sector ~0 reads -1 */
		for (k = 0; k < EVENT_NVALUES; k++) {
			json_t *v =
				info->values[k] ?
					json_object_get(e, info->values[k]) :
					NULL;

			if (!v)
				continue;
			if (!json_is_integer(v))
				return jread_fail(
					r, where,
					"event value '%s' is not an integer",
					info->values[k]);
			rec.v[k] = (uint64_t)json_integer_value(v);
		}
		for (k = 0; k < EVENT_MAX_STRINGS; k++)
			if (info->strings[k] &&
			    jread_str(r, where, e, info->strings[k], rec.s[k],
				      sizeof(rec.s[k])))
				return -EINVAL;
		if (event_list_add(l, &rec))
			return jread_fail(r, where, "out of memory");
	}
	return 0;
}

/* device_model_stack.members: a stacked target's throttled members */
static int model_members_read(struct jread *r, const char *where, json_t *stack,
			      struct model_result *out)
{
	json_t *members, *m;
	char dev[32];
	size_t i;

	if (jread_array(r, where, stack, "members", &members))
		return -EINVAL;
	json_array_foreach(members, i, m)
	{
		struct model_member *mm = &out->member[out->n_members];

		if (out->n_members == BLK_MEMBERS_MAX)
			return jread_fail(r, where, "more than %d members",
					  BLK_MEMBERS_MAX);
		dev[0] = '\0';
		if (jread_str(r, where, m, "member", mm->member,
			      sizeof(mm->member)) ||
		    jread_str(r, where, m, "throttled_device", mm->device,
			      sizeof(mm->device)) ||
		    jread_str(r, where, m, "throttled_dev", dev, sizeof(dev)) ||
		    jread_bool(r, where, m, "throttled_dio", &mm->dio))
			return -EINVAL;
		if (sscanf(dev, "%u:%u", &mm->major, &mm->minor) != 2)
			return jread_fail(
				r, where,
				"a member's throttled_dev '%s' is not MAJ:MIN",
				dev);
		out->n_members++;
	}
	return 0;
}

/*
 * The device model: from device_model_stack, or from the device_model text
 * alone when there is no stack (no model, or a file written before the
 * stack existed: its model then has no placement).
 */
static int model_read(struct jread *r, const char *where, json_t *t,
		      struct model_result *out)
{
	struct device_model *m = &out->m;
	char text[DEVICE_MODEL_TEXT_LEN] = "", dev[32] = "";
	json_t *stack, *limits, *rot, *engine;

	if (jread_str(r, where, t, "device_model", text, sizeof(text)) ||
	    jread_object(r, where, t, "device_model_stack", &stack))
		return -EINVAL;
	/* the text holds every parameter (a seeking disk's too) */
	if (device_model_unformat(text, m))
		return jread_fail(
			r, where,
			"device_model '%s' is neither 'none' nor 'NAME: riops=N wiops=N rbps=N wbps=N' nor 'NAME: rpm=N seek_ns=...'",
			text);
	if (!stack)
		return 0;
	m->rotational = -1;
	if (jread_str(r, where, stack, "model", m->name, sizeof(m->name)) ||
	    jread_object(r, where, stack, "limits", &limits) ||
	    jread_str(r, where, stack, "placement", out->placement,
		      sizeof(out->placement)) ||
	    jread_str(r, where, stack, "throttled_device", out->device,
		      sizeof(out->device)) ||
	    jread_str(r, where, stack, "throttled_dev", dev, sizeof(dev)) ||
	    jread_bool(r, where, stack, "throttled_dio", &out->dio))
		return -EINVAL;
	if (limits && (jread_u64(r, where, limits, "riops", &m->riops) ||
		       jread_u64(r, where, limits, "wiops", &m->wiops) ||
		       jread_u64(r, where, limits, "rbps", &m->rbps) ||
		       jread_u64(r, where, limits, "wbps", &m->wbps)))
		return -EINVAL;
	if (dev[0] && sscanf(dev, "%u:%u", &out->major, &out->minor) != 2)
		return jread_fail(r, where, "throttled_dev '%s' is not MAJ:MIN",
				  dev);
	rot = json_object_get(stack, "traced_rotational");
	if (json_is_boolean(rot))
		m->rotational = json_is_true(rot);
	engine = json_object_get(stack, "engine");
	if (json_is_object(engine) &&
	    (jread_u64(r, where, engine, "round_trip_ns",
		       &out->engine.round_trip_ns) ||
	     jread_u64(r, where, engine, "charged", &out->engine.charged) ||
	     jread_u64(r, where, engine, "modelled_ns",
		       &out->engine.modelled_ns) ||
	     jread_u64(r, where, engine, "short_requests",
		       &out->engine.short_requests) ||
	     jread_u64(r, where, engine, "short_excess_ns",
		       &out->engine.short_excess_ns)))
		return -EINVAL;
	return model_members_read(r, where, stack, out);
}

static int log_read(struct jread *r, const char *where, json_t *t,
		    struct log_region *log)
{
	json_t *obj, *ranges, *g;
	size_t i;

	if (jread_object(r, where, t, "log", &obj))
		return -EINVAL;
	if (!obj)
		return 0;
	if (jread_str(r, where, obj, "source", log->source,
		      sizeof(log->source)) ||
	    jread_array(r, where, obj, "ranges", &ranges))
		return -EINVAL;
	json_array_foreach(ranges, i, g)
	{
		if (log->n == BLK_LOG_MAX_RANGES)
			return jread_fail(r, where, "more than %d log ranges",
					  BLK_LOG_MAX_RANGES);
		if (jread_u64(r, where, g, "start_sector",
			      &log->range[log->n].start) ||
		    jread_u64(r, where, g, "sectors",
			      &log->range[log->n].sectors))
			return -EINVAL;
		log->n++;
	}
	return 0;
}

static int sysctls_read(struct jread *r, const char *where, json_t *t,
			struct sysctl_record *rec)
{
	const char *name;
	json_t *obj, *v;

	if (jread_object(r, where, t, "sysctls", &obj))
		return -EINVAL;
	json_object_foreach(obj, name, v)
	{
		struct sysctl_value *s;

		if (rec->n == SYSCTL_RECORD_MAX)
			break;
		s = &rec->v[rec->n++];
		if (strlen(name) >= sizeof(s->name) || !json_is_string(v) ||
		    json_string_length(v) >= sizeof(s->value))
			return jread_fail(r, where, "sysctl '%s' is malformed",
					  name);
		strcpy(s->name, name);
		strcpy(s->value, json_string_value(v));
	}
	return 0;
}

static int target_read(struct jread *r, const char *where, json_t *t,
		       struct target_result *out)
{
	const char *mkfs_output;

	if (!json_is_object(t))
		return jread_fail(r, where, "a case needs a target object");
	if (jread_str(r, where, t, "kind", out->kind, sizeof(out->kind)) ||
	    jread_str(r, where, t, "fstype", out->fstype,
		      sizeof(out->fstype)) ||
	    jread_str(r, where, t, "image", out->image, sizeof(out->image)) ||
	    jread_u64(r, where, t, "image_size", &out->image_size) ||
	    jread_str(r, where, t, "device", out->device,
		      sizeof(out->device)) ||
	    jread_str(r, where, t, "workdir", out->workdir,
		      sizeof(out->workdir)) ||
	    jread_uint(r, where, t, "dev_major", &out->dev_major) ||
	    jread_uint(r, where, t, "dev_minor", &out->dev_minor) ||
	    jread_bool(r, where, t, "loop_dio", &out->loop_dio) ||
	    jread_str(r, where, t, "mkfs_cmd", out->mkfs_cmd,
		      sizeof(out->mkfs_cmd)) ||
	    jread_str(r, where, t, "fs_uuid", out->fs_uuid,
		      sizeof(out->fs_uuid)) ||
	    jread_str(r, where, t, "mount_options", out->mount_opts,
		      sizeof(out->mount_opts)) ||
	    jread_str(r, where, t, "super_options", out->super_opts,
		      sizeof(out->super_opts)) ||
	    jread_str(r, where, t, "mount_cmd", out->mount_cmd,
		      sizeof(out->mount_cmd)) ||
	    jread_str(r, where, t, "kernel_release", out->kernel_release,
		      sizeof(out->kernel_release)) ||
	    jread_str(r, where, t, "block_untraced", out->block_untraced,
		      sizeof(out->block_untraced)) ||
	    jread_str(r, where, t, "tracing_unavailable", out->untraced,
		      sizeof(out->untraced)) ||
	    model_read(r, where, t, &out->model) ||
	    log_read(r, where, t, &out->log) ||
	    jread_block_stack(r, where, t, &out->stack) ||
	    sysctls_read(r, where, t, &out->sysctls))
		return -EINVAL;
	mkfs_output = json_string_value(json_object_get(t, "mkfs_output"));
	if (mkfs_output) {
		out->mkfs_output = strdup(mkfs_output);
		if (!out->mkfs_output)
			return jread_fail(r, where, "out of memory");
	}
	return 0;
}

static int programs_read(struct jread *r, const char *where, json_t *arr,
			 struct attach_list *list)
{
	static const enum attach_state all[] = { ATTACH_ATTACHED,
						 ATTACH_MISSING,
						 ATTACH_FAILED };
	json_t *p;
	size_t i;

	json_array_foreach(arr, i, p)
	{
		struct attach_record *a;
		char state[16] = "";
		unsigned int s;

		a = attach_list_add(list);
		if (!a)
			break; /* RESULTS_MAX_PROGRAMS: json.c wrote no more */
		if (!json_is_object(p))
			return jread_fail(r, where,
					  "a program is not an object");
		if (jread_str(r, where, p, "domain", a->domain,
			      sizeof(a->domain)) ||
		    jread_str(r, where, p, "program", a->program,
			      sizeof(a->program)) ||
		    jread_str(r, where, p, "event", a->event,
			      sizeof(a->event)) ||
		    jread_str(r, where, p, "state", state, sizeof(state)) ||
		    jread_str(r, where, p, "reason", a->reason,
			      sizeof(a->reason)))
			return -EINVAL;
		for (s = 0; s < sizeof(all) / sizeof(all[0]); s++)
			if (!strcmp(attach_state_name(all[s]), state))
				break;
		if (s == sizeof(all) / sizeof(all[0]))
			return jread_fail(r, where, "unknown attach state '%s'",
					  state);
		a->state = all[s];
	}
	return 0;
}

static int charging_read(struct jread *r, const char *where, json_t *obj,
			 struct charging_list *list)
{
	const char *domain;
	json_t *rule;

	json_object_foreach(obj, domain, rule)
	{
		if (list->n == RESULTS_MAX_DOMAINS)
			break;
		if (strlen(domain) >= sizeof(list->v[0].domain) ||
		    !json_is_string(rule) ||
		    json_string_length(rule) >= sizeof(list->v[0].rule))
			return jread_fail(r, where,
					  "charging rule of '%s' is malformed",
					  domain);
		strcpy(list->v[list->n].domain, domain);
		strcpy(list->v[list->n].rule, json_string_value(rule));
		list->n++;
	}
	return 0;
}

static int spill_read(struct jread *r, const char *where, json_t *obj,
		      struct phase_result *spill)
{
	json_t *block, *metrics, *hists;

	if (!obj)
		return 0;
	if (jread_object(r, where, obj, "block", &block) ||
	    jread_object(r, where, obj, "metrics", &metrics) ||
	    jread_object(r, where, obj, "histograms", &hists) ||
	    (block && jread_block(r, where, block, &spill->block)) ||
	    metrics_read(r, where, metrics, &spill->metrics) ||
	    histograms_read(r, where, hists, &spill->metrics) ||
	    stacks_read(r, where, obj, &spill->sched_stacks))
		return -EINVAL;
	return 0;
}

/* "kernel": a case that ran in a guest of fsprof run --kernel */
static int case_kernel_read(struct jread *r, const char *where, json_t *obj,
			    struct case_kernel *k)
{
	json_t *kobj;

	if (jread_object(r, where, obj, "kernel", &kobj))
		return -EINVAL;
	if (!kobj)
		return 0;
	k->guest = true;
	return jread_str(r, where, kobj, "release", k->release,
			 sizeof(k->release)) ||
			       jread_str(r, where, kobj, "source", k->source,
					 sizeof(k->source)) ||
			       jread_str(r, where, kobj, "btf_hash",
					 k->btf_hash, sizeof(k->btf_hash)) ||
			       jread_str(r, where, kobj, "accel", k->accel,
					 sizeof(k->accel)) ||
			       jread_bool(r, where, kobj, "emulated",
					  &k->emulated) ||
			       jread_uint(r, where, kobj, "slot", &k->slot) ?
		       -EINVAL :
		       0;
}

static int case_read(struct jread *r, const char *where, json_t *obj,
		     struct run_result *run)
{
	json_t *phases, *work, *programs, *charging, *events, *spill, *p;
	struct case_result *c;
	char at[128];
	size_t i;

	if (!json_is_object(obj))
		return jread_fail(r, where, "a case is not an object");
	if (jread_array(r, where, obj, "phases", &phases) ||
	    jread_object(r, where, obj, "workload", &work) ||
	    jread_array(r, where, obj, "programs", &programs) ||
	    jread_object(r, where, obj, "charging", &charging) ||
	    jread_array(r, where, obj, "events", &events) ||
	    jread_object(r, where, obj, "spill", &spill))
		return -EINVAL;
	if (!work || !json_is_string(json_object_get(work, "name")))
		return jread_fail(r, where, "a case needs workload.name");
	c = run_result_add_case(run, (unsigned int)json_array_size(phases));
	if (!c)
		return jread_fail(r, where, "out of memory");
	c->complete = true;
	snprintf(at, sizeof(at), "%s.target", where);
	if (target_read(r, at, json_object_get(obj, "target"), &c->target) ||
	    jread_str(r, where, obj, "target_label", c->target_label,
		      sizeof(c->target_label)) ||
	    jread_str(r, where, obj, "target_name", c->target_name,
		      sizeof(c->target_name)) ||
	    jread_str(r, where, work, "name", c->workload,
		      sizeof(c->workload)) ||
	    jread_str(r, where, work, "params", c->params, sizeof(c->params)) ||
	    jread_u64(r, where, work, "size_bytes", &c->size) ||
	    jread_u64(r, where, work, "data_bytes", &c->data_bytes) ||
	    jread_u64(r, where, work, "ram_bytes", &c->ram_bytes) ||
	    jread_uint(r, where, obj, "repeat", &c->repeat) ||
	    jread_uint(r, where, obj, "order", &c->order) ||
	    jread_bool(r, where, obj, "complete", &c->complete) ||
	    jread_str(r, where, obj, "error", c->error, sizeof(c->error)) ||
	    jread_str(r, where, obj, "failed_phase", c->failed_phase,
		      sizeof(c->failed_phase)) ||
	    programs_read(r, where, programs, &c->programs) ||
	    charging_read(r, where, charging, &c->charging) ||
	    events_read(r, where, events, &c->events) ||
	    case_kernel_read(r, where, obj, &c->kernel) ||
	    jread_aging(r, where, obj, &c->age) ||
	    jread_u64(r, where, obj, "events_not_stored",
		      &c->events.not_stored))
		return -EINVAL;
	snprintf(at, sizeof(at), "%s.spill", where);
	if (spill_read(r, at, spill, &c->spill))
		return -EINVAL;
	json_array_foreach(phases, i, p)
	{
		snprintf(at, sizeof(at), "%s.phases[%zu]", where, i);
		if (phase_read(r, at, p, &c->phases[c->n_phases]))
			return -EINVAL;
		c->n_phases++;
	}
	return 0;
}

/* "2026-12-01T11:32:17Z" -> ns since the epoch; 0 when unreadable */
static uint64_t started_ns(const char *iso)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return 0;
	return (uint64_t)timegm(&tm) * 1000000000ULL;
}

/* "command": the words of the command line (older files: none) */
static int command_read(struct jread *r, const char *where, json_t *root,
			struct run_result *run)
{
	json_t *arr, *word;
	size_t i, n;
	char **argv;
	int ret;

	if (jread_array(r, where, root, "command", &arr) || !arr)
		return r->failed ? -EINVAL : 0;
	n = json_array_size(arr);
	argv = calloc(n + 1, sizeof(*argv));
	if (!argv)
		return jread_fail(r, where, "out of memory");
	json_array_foreach(arr, i, word)
	{
		if (!json_is_string(word)) {
			free(argv);
			return jread_fail(r, where,
					  "command[%zu] is not a string", i);
		}
		argv[i] = (char *)json_string_value(word);
	}
	ret = run_result_set_command(run, (int)n, argv);
	free(argv);
	return ret ? jread_fail(r, where, "out of memory") : 0;
}

int results_from_json(json_t *root, const char *name, struct run_result *run,
		      char *err, size_t errlen)
{
	struct jread r = { .err = err, .errlen = errlen };
	json_t *version, *tool, *kernel, *self, *cases, *c;
	char started[64] = "";
	size_t i;

	memset(run, 0, sizeof(*run));
	version = json_object_get(root, "schema_version");
	tool = json_object_get(root, "tool");
	if (!json_is_object(root) || !json_is_integer(version) ||
	    !json_is_object(tool) ||
	    !json_is_string(json_object_get(tool, "name")) ||
	    strcmp(json_string_value(json_object_get(tool, "name")), "fsprof"))
		return jread_fail(
			&r, name,
			"JSON, but not fsprof results (no schema_version and tool.name \"fsprof\")");
	if (json_integer_value(version) > RESULTS_SCHEMA_VERSION ||
	    json_integer_value(version) < 1)
		return jread_fail(
			&r, name,
			"results schema version %lld; this fsprof (%s) reads version %d: %s",
			(long long)json_integer_value(version), FSPROF_VERSION,
			RESULTS_SCHEMA_VERSION,
			json_integer_value(version) > RESULTS_SCHEMA_VERSION ?
				"written by a newer fsprof, read it with that one" :
				"not a version fsprof ever wrote");
	if (jread_str(&r, name, tool, "version", run->tool_version,
		      sizeof(run->tool_version)) ||
	    jread_str(&r, name, root, "started", started, sizeof(started)) ||
	    jread_object(&r, name, root, "kernel", &kernel) ||
	    (kernel &&
	     jread_str(&r, name, kernel, "release", run->kernel_release,
		       sizeof(run->kernel_release))) ||
	    jread_bool(&r, name, root, "interrupted", &run->interrupted) ||
	    jread_object(&r, name, root, "self", &self) ||
	    (self &&
	     jread_u64(&r, name, self, "max_rss_kib", &run->max_rss_kib)) ||
	    jread_array(&r, name, root, "cases", &cases) ||
	    command_read(&r, name, root, run))
		goto fail;
	run->started_real_ns = started_ns(started);
	if (json_is_integer(json_object_get(root, "signal")))
		run->signal = (int)json_integer_value(
			json_object_get(root, "signal"));
	/* the suite decides whether the originals are printed (older: none) */
	if (json_is_string(json_object_get(root, "suite")))
		snprintf(run->suite, sizeof(run->suite), "%s",
			 json_string_value(json_object_get(root, "suite")));
	if (!cases) {
		jread_fail(&r, name, "no cases[]: not a complete results file");
		goto fail;
	}
	json_array_foreach(cases, i, c)
	{
		char at[64];

		snprintf(at, sizeof(at), "%s: cases[%zu]", name, i);
		if (case_read(&r, at, c, run))
			goto fail;
	}
	return 0;
fail:
	run_result_free(run);
	memset(run, 0, sizeof(*run));
	return -EINVAL;
}

int results_read_json(const char *path, struct run_result *run, char *err,
		      size_t errlen)
{
	json_error_t jerr;
	struct stat st;
	json_t *root;
	int ret;

	memset(run, 0, sizeof(*run));
	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(
			err, errlen,
			"%s: is a directory, not a results file (fsprof run --json FILE writes one)",
			path);
		return -EISDIR;
	}
	if (!st.st_size) {
		snprintf(
			err, errlen,
			"%s: is empty, not a results file (fsprof run --json FILE writes one)",
			path);
		return -EINVAL;
	}
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		snprintf(
			err, errlen,
			"%s: not valid JSON (line %d, column %d: %s): truncated, or not a results file",
			path, jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	ret = results_from_json(root, path, run, err, errlen);
	json_decref(root);
	return ret;
}
