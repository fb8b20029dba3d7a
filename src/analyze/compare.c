// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-target comparison: the same workload phase on several targets
 * (--fs A,B,...). For each phase where the targets differ by more than the
 * noise, name the resource whose time grew most from the fastest target to
 * the slowest, with its counts normalised per file or per byte.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules.h"
#include "analyze/thresholds.h"
#include "results/metric_names.h"
#include "util/stats.h"

static bool same_workload(const struct case_result *a,
			  const struct case_result *b)
{
	/* targets are compared on one kernel: across kernels is the diff's */
	return !strcmp(a->workload, b->workload) &&
	       !strcmp(a->params, b->params) && case_same_kernel(a, b);
}

/* the index of c's target among cmp's, added when new; -1 when full */
static int target_slot(struct comparison *cmp, const struct case_result *c)
{
	unsigned int i;

	for (i = 0; i < cmp->n_targets; i++)
		if (!strcmp(cmp->targets[i].label, c->target_label))
			return (int)i;
	if (cmp->n_targets == COMPARISON_MAX_TARGETS)
		return -1;
	snprintf(cmp->targets[cmp->n_targets].label,
		 sizeof(cmp->targets[0].label), "%s", c->target_label);
	/* findings name it short; the full spec is listed once */
	snprintf(cmp->targets[cmp->n_targets].name,
		 sizeof(cmp->targets[0].name), "%s", case_target_name(c));
	return (int)cmp->n_targets++;
}

/* the slot of an off-CPU cause in cx, added when new; -1 when full */
static int cause_slot(struct compare_ctx *cx, const char *cause)
{
	unsigned int i;

	for (i = 0; i < cx->n_causes; i++)
		if (!strcmp(cx->cause[i], cause))
			return (int)i;
	if (cx->n_causes == COMPARE_MAX_CAUSES)
		return -1;
	snprintf(cx->cause[cx->n_causes], sizeof(cx->cause[0]), "%s", cause);
	return (int)cx->n_causes++;
}

/* the phase's time budget, each cause as its share x the wall time */
static void target_add_budget(struct compare_ctx *cx, unsigned int t,
			      const struct phase_result *p)
{
	struct time_budget b;
	double scale;
	unsigned int i;
	int slot;

	time_budget_read(&b, p);
	if (!budget_usable(&b) || b.total_ns <= 0) {
		cx->budget[t] = false;
		return;
	}
	scale = (double)p->wall_ns / b.total_ns;
	cx->oncpu_ns[t] += b.oncpu_ns * scale;
	cx->rest_ns[t] += b.unaccounted_ns * scale;
	for (i = 0; i < b.n; i++) {
		if (budget_cause_is_idle(b.off[i].cause))
			continue;
		slot = cause_slot(cx, b.off[i].cause);
		if (slot >= 0 && budget_cause_bound(b.off[i].cause) != BOUND_NR)
			cx->cause_ns[t][slot] += b.off[i].ns * scale;
		else
			cx->rest_ns[t] += b.off[i].ns * scale;
	}
}

/* add one case's phase into target t's sums (means are taken after) */
static void target_add(struct compare_ctx *cx, unsigned int t,
		       const struct phase_result *p, double *walls)
{
	const struct block_result *b = &p->block;
	unsigned int c, i;

	if (!cx->cmp->targets[t].n)
		cx->budget[t] = true;
	target_add_budget(cx, t, p);
	walls[cx->cmp->targets[t].n++] = (double)p->wall_ns;
	cx->cpu_ns[t] += (double)(p->user_ns + p->sys_ns);
	cx->throttle_ns[t] += (double)metric_value(
		&p->metrics, MN(WRITEBACK_THROTTLE_PAUSE_NS));
	if (!b->traced)
		return;
	for (c = 0; c < BLK_IOC_NR; c++)
		cx->class_busy_ns[t][c] += (double)b->ioclass[c].busy_ns;
	for (i = 0; i < b->n_io; i++) {
		cx->class_ios[t][b->io[i].ioclass] += (double)b->io[i].r.ios;
		cx->class_bytes[t][b->io[i].ioclass] +=
			(double)b->io[i].r.bytes;
		cx->class_lat_ns[t][b->io[i].ioclass] +=
			(double)b->io[i].r.lat.sum_ns;
	}
}

static void target_mean(struct compare_ctx *cx, unsigned int t,
			const double *walls)
{
	double n = cx->cmp->targets[t].n;
	struct stats st;
	unsigned int c;

	stats_compute(walls, cx->cmp->targets[t].n, &st);
	cx->wall_ns[t] = st.mean;
	cx->cmp->targets[t].wall_s = st.mean / 1e9;
	cx->cmp->targets[t].ci_lo = st.ci95_lo / 1e9;
	cx->cmp->targets[t].ci_hi = st.ci95_hi / 1e9;
	cx->cpu_ns[t] /= n;
	cx->throttle_ns[t] /= n;
	for (c = 0; c < BLK_IOC_NR; c++) {
		cx->class_busy_ns[t][c] /= n;
		cx->class_ios[t][c] /= n;
		cx->class_bytes[t][c] /= n;
		cx->class_lat_ns[t][c] /= n;
	}
	for (c = 0; c < cx->n_causes; c++)
		cx->cause_ns[t][c] /= n;
	cx->oncpu_ns[t] /= n;
	cx->rest_ns[t] /= n;
}

/* the work the phase did, to normalise by: files, else the case's files */
static void compare_work(struct compare_ctx *cx, const struct case_result *c,
			 unsigned int ph)
{
	unsigned int i;

	cx->files = (double)c->phases[ph].work.files;
	cx->bytes = (double)c->phases[ph].work.bytes;
	if (cx->files || cx->bytes)
		return;
	for (i = 0; i < c->n_phases; i++)
		if ((double)c->phases[i].work.files > cx->files)
			cx->files = (double)c->phases[i].work.files;
}

/* phase ph of first's workload on every target (only: on these two) */
static int compare_fill(const struct run_result *run, unsigned int first,
			unsigned int ph, const char *const *only,
			struct comparison *cmp)
{
	const struct case_result *c0 = &run->cases[first];
	unsigned int i, t, stride = run->n_cases;
	struct compare_ctx cx;
	double *walls;
	int slot, err = 0;

	walls = calloc((size_t)stride * COMPARISON_MAX_TARGETS, sizeof(*walls));
	if (!walls)
		return -ENOMEM;
	memset(&cx, 0, sizeof(cx));
	cx.run = run;
	cx.cmp = cmp;
	snprintf(cmp->workload, sizeof(cmp->workload), "%s", c0->workload);
	snprintf(cmp->params, sizeof(cmp->params), "%s", c0->params);
	snprintf(cmp->phase, sizeof(cmp->phase), "%s", c0->phases[ph].name);
	for (i = first; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		if (!c->complete || !same_workload(c, c0) || ph >= c->n_phases)
			continue;
		if (only && strcmp(c->target_label, only[0]) &&
		    strcmp(c->target_label, only[1]))
			continue;
		slot = target_slot(cmp, c);
		if (slot < 0)
			continue;
		target_add(&cx, (unsigned int)slot, &c->phases[ph],
			   walls + (size_t)slot * stride);
	}
	for (t = 0; t < cmp->n_targets; t++) {
		target_mean(&cx, t, walls + (size_t)t * stride);
		if (cx.wall_ns[t] > cx.wall_ns[cx.slow])
			cx.slow = t;
		if (cx.wall_ns[t] < cx.wall_ns[cx.fast])
			cx.fast = t;
	}
	compare_work(&cx, c0, ph);
	for (i = 0; i < analyze_n_rules; i++) {
		const struct rule *r = &analyze_rules[i];
		struct finding f;

		if (!r->compare)
			continue;
		memset(&f, 0, sizeof(f));
		snprintf(f.rule, sizeof(f.rule), "%s", r->id);
		snprintf(f.domain, sizeof(f.domain), "%s", r->domain);
		snprintf(f.mechanism, sizeof(f.mechanism), "%s", r->mechanism);
		if (r->compare(&cx, &f) &&
		    finding_list_add(&cmp->findings, &f)) {
			err = -ENOMEM;
			break;
		}
	}
	free(walls);
	return err;
}

static int compare_phase(struct run_result *run, unsigned int first,
			 unsigned int ph)
{
	struct comparison *cmp = comparison_list_add(&run->comparisons);

	return cmp ? compare_fill(run, first, ph, NULL, cmp) : -ENOMEM;
}

int compare_pair(const struct run_result *run, unsigned int first,
		 unsigned int ph, const char *a, const char *b,
		 struct comparison *out)
{
	const char *only[2] = { a, b };

	memset(out, 0, sizeof(*out));
	return compare_fill(run, first, ph, only, out);
}

int analyze_comparisons(struct run_result *run)
{
	unsigned int i, j, ph, labels;
	int err;

	comparison_list_free(&run->comparisons);
	for (i = 0; i < run->n_cases; i++) {
		const struct case_result *c = &run->cases[i];

		if (!c->complete)
			continue;
		for (j = 0; j < i; j++)
			if (run->cases[j].complete &&
			    same_workload(&run->cases[j], c))
				break;
		if (j < i)
			continue; /* compared with its workload's first case */
		labels = 0;
		for (j = i; j < run->n_cases; j++)
			if (run->cases[j].complete &&
			    same_workload(&run->cases[j], c) &&
			    strcmp(run->cases[j].target_label, c->target_label))
				labels++;
		if (!labels)
			continue;
		for (ph = 0; ph < c->n_phases; ph++) {
			err = compare_phase(run, i, ph);
			if (err)
				return err;
		}
	}
	return 0;
}

/* the resource whose time grew most from the fast target to the slow one */
enum resource { RES_CPU = BLK_IOC_NR, RES_THROTTLE, RES_NONE };

static const char *resource_name(int r)
{
	if (r == RES_CPU)
		return "CPU";
	if (r == RES_THROTTLE)
		return "dirty throttling";
	return blk_ioclass_name(r);
}

static double resource_ns(const struct compare_ctx *cx, unsigned int t, int r)
{
	if (r == RES_CPU)
		return cx->cpu_ns[t];
	if (r == RES_THROTTLE)
		return cx->throttle_ns[t];
	return cx->class_busy_ns[t][r];
}

static int resource_most_grown(const struct compare_ctx *cx)
{
	double best = 0, d;
	int r, res = RES_NONE;

	for (r = 0; r < RES_NONE; r++) {
		d = resource_ns(cx, cx->slow, r) - resource_ns(cx, cx->fast, r);
		if (d > best) {
			best = d;
			res = r;
		}
	}
	return res;
}

static bool beyond_noise(const struct compare_ctx *cx)
{
	const struct comparison *cmp = cx->cmp;
	unsigned int s = cx->slow, f = cx->fast;

	if (cmp->targets[s].n >= 2 && cmp->targets[f].n >= 2)
		return cmp->targets[s].ci_lo > cmp->targets[f].ci_hi;
	return cx->wall_ns[s] >= (1 + COMPARE_MIN_DIFF) * cx->wall_ns[f];
}

/* counts of one IO class per 1000 files, per MB, or absolute */
static void evidence_counts(const struct compare_ctx *cx, struct finding *f,
			    int cls)
{
	const struct comparison *cmp = cx->cmp;
	double per, ios_s, ios_f;
	const char *unit;
	char metric[64];

	if (cx->files > 0) {
		per = 1000.0 / cx->files;
		unit = "per 1000 files";
	} else if (cx->bytes > 0) {
		per = 1e6 / cx->bytes;
		unit = "per MB of workload data";
	} else {
		per = 1;
		unit = "in all";
	}
	ios_s = cx->class_ios[cx->slow][cls] * per;
	ios_f = cx->class_ios[cx->fast][cls] * per;
	snprintf(metric, sizeof(metric), "block.io_classes.%s.ios",
		 blk_ioclass_name(cls));
	finding_evidence(f, metric, cx->class_ios[cx->slow][cls],
			 ios_f > 0 ? ios_s / ios_f : NAN, NAN,
			 "%s requests %s: %s %.2f, %s %.2f (%.1f and %.1f MB)",
			 blk_ioclass_name(cls), unit,
			 cmp->targets[cx->slow].name, ios_s,
			 cmp->targets[cx->fast].name, ios_f,
			 cx->class_bytes[cx->slow][cls] / 1e6,
			 cx->class_bytes[cx->fast][cls] / 1e6);
	if (ios_f > 0 && ios_s >= (1 + COMPARE_MIN_DIFF) * ios_f)
		finding_evidence(
			f, metric, ios_s / ios_f, NAN, NAN,
			"%s issues %.1fx the %s requests of %s for the same work",
			cmp->targets[cx->slow].name, ios_s / ios_f,
			blk_ioclass_name(cls), cmp->targets[cx->fast].name);
	else if (ios_f > 0 && cx->class_ios[cx->slow][cls] > 0)
		finding_evidence(
			f, "block.io_classes.latency.mean",
			cx->class_lat_ns[cx->slow][cls] /
				cx->class_ios[cx->slow][cls],
			NAN, NAN,
			"about as many %s requests, but slower ones: mean latency %s %.1f ms, %s %.1f ms",
			blk_ioclass_name(cls), cmp->targets[cx->slow].name,
			cx->class_lat_ns[cx->slow][cls] /
				cx->class_ios[cx->slow][cls] / 1e6,
			cmp->targets[cx->fast].name,
			cx->class_lat_ns[cx->fast][cls] /
				cx->class_ios[cx->fast][cls] / 1e6);
}

static const char *resource_mechanism(int r)
{
	switch (r) {
	case BLK_IOC_LOG_WRITE:
		return "The slower target writes more (or smaller) log or journal requests for the same operations; its own findings say whether the log buffer size, forces or commits cause it.";
	case BLK_IOC_META_READ:
	case BLK_IOC_DATA_READ:
		return "The slower target reads more from the device for the same work: less of it was cached, or its on-disk layout needs more (and smaller) reads.";
	case BLK_IOC_META_WRITE:
		return "The slower target writes more metadata in place (inode tables, bitmaps, btree blocks) for the same work.";
	case BLK_IOC_DATA_WRITE:
		return "The slower target spends more device time writing the same data: smaller, less merged or less sequential requests.";
	case BLK_IOC_FLUSH:
		return "The slower target issues more device cache flushes (durability points) or waits longer for them.";
	case RES_CPU:
		return "The slower target spends more CPU time in the workload's own threads for the same work (filesystem code, allocation, copies).";
	case RES_THROTTLE:
		return "The slower target's writers were held back longer by dirty throttling: its writeback drains slower.";
	}
	return "None of the measured resources (device time per IO class, CPU, dirty throttling, the causes of the sched time budget) grew by half of the difference: the phase is slower on that target for reasons fsprof did not measure, or by noise the single runs cannot tell from a difference (--repeat).";
}

/*
 * The budget's causes compared by what they wait for, not by name: the
 * same mechanism has different causes on different filesystems (an fsync
 * sleeps in journal_commit on ext4, in xfs_log_force on XFS), so journal
 * and log waits are one group, as are the lock causes and the device
 * causes. BOUND_NR for causes that name no mechanism (other, no_stack).
 */
static enum bound_kind cause_group(const char *cause)
{
	enum bound_kind k = budget_cause_bound(cause);

	return k == BOUND_LOG ? BOUND_JOURNAL : k;
}

static double group_ns(const struct compare_ctx *cx, unsigned int t,
		       enum bound_kind g)
{
	double ns = 0;
	unsigned int i;

	for (i = 0; i < cx->n_causes; i++)
		if (cause_group(cx->cause[i]) == g)
			ns += cx->cause_ns[t][i];
	return ns;
}

/*
 * The group of time-budget causes (off-CPU, or runqueue) that grew most
 * from the fast target to the slow one; BOUND_NR without a budget on both
 * or when none grew.
 */
static enum bound_kind group_most_grown(const struct compare_ctx *cx,
					double *grown)
{
	static const enum bound_kind groups[] = {
		BOUND_CPU,	BOUND_DEVICE, BOUND_JOURNAL,
		BOUND_THROTTLE, BOUND_LOCK,
	};
	enum bound_kind best = BOUND_NR;
	unsigned int s = cx->slow, fa = cx->fast, i;
	double d;

	*grown = 0;
	if (!cx->budget[s] || !cx->budget[fa])
		return BOUND_NR;
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		d = group_ns(cx, s, groups[i]) - group_ns(cx, fa, groups[i]);
		if (d > *grown) {
			*grown = d;
			best = groups[i];
		}
	}
	return best;
}

/* each group's name in evidence and the mechanism it stands for */
static const struct {
	enum bound_kind group;
	const char *label;
	const char *mechanism;
} group_text[] = {
	{ BOUND_LOCK, "lock waits",
	  "The slower target's threads slept longer on kernel locks for the same operations (a directory's i_rwsem, XFS inode or buffer locks): its work was more serialised." },
	{ BOUND_CPU, "waits for a CPU",
	  "The slower target's threads waited longer for a CPU (runqueue): more threads were runnable than there were cores - other processes on the machine, or the workload's own - so part of the difference is the machine's load rather than the filesystem; --repeat shows whether it holds." },
	{ BOUND_JOURNAL, "journal and log waits",
	  "The slower target's threads waited longer for journal commits, XFS log forces or log space; its own findings say why." },
	{ BOUND_THROTTLE, "dirty throttling",
	  "The slower target's writers were held back longer by dirty throttling: its writeback drains slower." },
	{ BOUND_DEVICE, "device waits",
	  "The slower target's threads waited longer for the device (reads, direct IO, writeback, cache flushes) for the same work." },
};

/* the group's label (want_label) or mechanism */
static const char *group_says(enum bound_kind g, bool want_label)
{
	size_t i;

	for (i = 0; i < sizeof(group_text) / sizeof(group_text[0]); i++)
		if (group_text[i].group == g)
			return want_label ? group_text[i].label :
					    group_text[i].mechanism;
	return want_label ? "?" : "";
}

/* a part of the difference, its sign always shown: "+1.16 s", "-0.05 s" */
struct part {
	const char *label;
	double ns;
};

static int part_by_size(const void *a, const void *b)
{
	double x = fabs(((const struct part *)a)->ns);
	double y = fabs(((const struct part *)b)->ns);

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * The budget's view, which adds up: each target's wall time is on-CPU +
 * each group of causes + the rest, each part its share of the workload's
 * time x wall; so the parts' differences, signed, sum to the difference
 * in wall time (a part grows on one target and shrinks on the other: both
 * are said, with their signs). The largest listed, the small ones summed.
 */
static double evidence_parts(const struct compare_ctx *cx, struct finding *f,
			     bool add)
{
	static const enum bound_kind groups[] = {
		BOUND_CPU,	BOUND_DEVICE, BOUND_JOURNAL,
		BOUND_THROTTLE, BOUND_LOCK,
	};
	const struct comparison *cmp = cx->cmp;
	unsigned int s = cx->slow, fa = cx->fast, i, np = 0;
	double diff = cx->wall_ns[s] - cx->wall_ns[fa], small = 0, top = 0;
	struct part parts[8];
	char text[224];
	size_t n;

	parts[np++] =
		(struct part){ "on CPU", cx->oncpu_ns[s] - cx->oncpu_ns[fa] };
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		parts[np++] =
			(struct part){ group_says(groups[i], true),
				       group_ns(cx, s, groups[i]) -
					       group_ns(cx, fa, groups[i]) };
	parts[np++] = (struct part){ "other and unaccounted",
				     cx->rest_ns[s] - cx->rest_ns[fa] };
	qsort(parts, np, sizeof(parts[0]), part_by_size);
	n = (size_t)snprintf(text, sizeof(text),
			     "the %+.2f s (%.1fx) of %s over %s:", diff / 1e9,
			     cx->wall_ns[s] / cx->wall_ns[fa],
			     cmp->targets[s].name, cmp->targets[fa].name);
	for (i = 0; i < np; i++) {
		if (parts[i].ns > top)
			top = parts[i].ns;
		/* a part under 2% of the difference goes with the rest */
		if (i >= 4 || fabs(parts[i].ns) < 0.02 * fabs(diff)) {
			small += parts[i].ns;
			continue;
		}
		if (n < sizeof(text))
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "%s %s %+.2f s", i ? "," : "",
					      parts[i].label,
					      parts[i].ns / 1e9);
	}
	if (fabs(small) >= 5e6 && n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, ", the rest %+.2f s",
			 small / 1e9);
	/* its value: the part that explains the most */
	if (add)
		finding_evidence(f, "sched.offcpu_ns", top, top / diff,
				 COMPARE_EXPLAINED_SHARE, "%s", text);
	return top;
}

/*
 * The device, CPU or throttle resource that grew most, with its counts:
 * device time overlaps the threads' waits and other requests, CPU time
 * adds up over threads, so it is said beside the difference, never as a
 * part of it
 */
static void evidence_resource(const struct compare_ctx *cx, struct finding *f,
			      int r, double grown)
{
	const struct comparison *cmp = cx->cmp;
	unsigned int s = cx->slow, fa = cx->fast;
	double diff = cx->wall_ns[s] - cx->wall_ns[fa];

	finding_evidence(
		f, "resource_ns", grown, grown / diff, COMPARE_EXPLAINED_SHARE,
		"%s time: %s %.2f s, %s %.2f s (%+.2f s)%s", resource_name(r),
		cmp->targets[s].name, resource_ns(cx, s, r) / 1e9,
		cmp->targets[fa].name, resource_ns(cx, fa, r) / 1e9,
		grown / 1e9,
		grown <= diff ?
			"" :
		r == RES_CPU ?
			": more than the difference, as CPU time adds up over the threads" :
			": more than the difference, as device time overlaps the threads' waits and other requests");
	if (r < BLK_IOC_NR)
		evidence_counts(cx, f, r);
}

bool rule_target_difference(const struct compare_ctx *cx, struct finding *f)
{
	const struct comparison *cmp = cx->cmp;
	unsigned int s = cx->slow, fa = cx->fast;
	double ws = cx->wall_ns[s], wf = cx->wall_ns[fa], grown = 0, cgrown,
	       top;
	bool budget;
	double need = COMPARE_EXPLAINED_SHARE * (ws - wf);
	enum bound_kind cause;
	int r;

	if (s == fa || ws < SHORT_PHASE_NS || wf <= 0 || !beyond_noise(cx))
		return false;
	r = resource_most_grown(cx);
	if (r != RES_NONE)
		grown = resource_ns(cx, s, r) - resource_ns(cx, fa, r);
	cause = group_most_grown(cx, &cgrown);
	f->severity = FINDING_INFO;
	finding_title(f, "%s: %s takes %.1fx as long as %s", cmp->phase,
		      cmp->targets[s].name, ws / wf, cmp->targets[fa].name);
	if (cmp->targets[s].n >= 2 && cmp->targets[fa].n >= 2)
		finding_evidence(
			f, "wall_ns", ws, ws / wf, NAN,
			"%s %.3f s (95%% CI %.3f-%.3f), %s %.3f s (%.3f-%.3f): the intervals do not overlap",
			cmp->targets[s].name, ws / 1e9, cmp->targets[s].ci_lo,
			cmp->targets[s].ci_hi, cmp->targets[fa].name, wf / 1e9,
			cmp->targets[fa].ci_lo, cmp->targets[fa].ci_hi);
	else
		finding_evidence(
			f, "wall_ns", ws, ws / wf - 1, COMPARE_MIN_DIFF,
			"%s %.3f s, %s %.3f s: %.0f%% longer (one run each: more than the %.0f%% a single run can move)",
			cmp->targets[s].name, ws / 1e9, cmp->targets[fa].name,
			wf / 1e9, 100 * (ws / wf - 1), 100 * COMPARE_MIN_DIFF);
	/*
	 * the parts that add up (with a budget on both) and the resource
	 * that grew most: the one that explains more of the difference first
	 */
	budget = cx->budget[s] && cx->budget[fa];
	top = budget ? evidence_parts(cx, f, false) : 0;
	if (r != RES_NONE && grown >= need && top < need)
		evidence_resource(cx, f, r, grown);
	if (budget)
		evidence_parts(cx, f, true);
	if (r != RES_NONE && !(grown >= need && top < need))
		evidence_resource(cx, f, r, grown);
	/* each that grew by half the difference or more says its mechanism */
	if (grown >= need)
		finding_mechanism_append(f, "%s", resource_mechanism(r));
	if (cause != BOUND_NR && cgrown >= need)
		finding_mechanism_append(f, "%s", group_says(cause, false));
	if (grown < need && (cause == BOUND_NR || cgrown < need)) {
		double most = grown > cgrown ? grown : cgrown;

		finding_evidence(
			f, COMPARE_UNEXPLAINED_METRIC, most, most / (ws - wf),
			COMPARE_EXPLAINED_SHARE,
			"no measured resource explains the difference: the one that grew most accounts for %.0f%% of it",
			100 * most / (ws - wf));
		finding_mechanism_append(f, "%s", resource_mechanism(RES_NONE));
	}
	return true;
}
