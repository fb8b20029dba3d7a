// SPDX-License-Identifier: GPL-2.0
/*
 * One bound verdict per phase: what the phase's time went to. From the
 * sched time budget when it was measured (the causes workload threads
 * slept on, and on-CPU time); else from device busy time, CPU time,
 * durability calls and dirty throttling.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze_int.h"
#include "analyze/thresholds.h"

static void share_add(struct phase_verdict *v, const char *name, double value)
{
	if (v->n_shares == VERDICT_MAX_SHARES)
		return;
	snprintf(v->shares[v->n_shares].name,
		 sizeof(v->shares[v->n_shares].name), "%s", name);
	v->shares[v->n_shares++].value = value;
}

static void text_append(struct phase_verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void text_append(struct phase_verdict *v, const char *fmt, ...)
{
	size_t len = strlen(v->text);
	va_list ap;

	if (len + 1 >= sizeof(v->text))
		return;
	va_start(ap, fmt);
	vsnprintf(v->text + len, sizeof(v->text) - len, fmt, ap);
	va_end(ap);
}

/* the IO class with the most device time, for "mostly data writes" */
static int busiest_class(const struct phase_facts *x)
{
	int best = -1;
	unsigned int c;

	for (c = 0; c < BLK_IOC_NR; c++)
		if (x->class_busy[c] > 0 &&
		    (best < 0 || x->class_busy[c] > x->class_busy[best]))
			best = (int)c;
	return best;
}

bool phase_is_cached(const struct phase_facts *x)
{
	const struct phase_result *p = x->p;

	if (!x->block || x->busy >= CACHE_IDLE_BUSY)
		return false;
	if (p->work.bytes)
		return (double)x->dev_bytes <
		       CACHE_DEVICE_BYTES_SHARE * (double)p->work.bytes;
	/* metadata only: in memory, and busy on the CPU with it */
	return p->work.files && x->cpu >= BOUND_MAJORITY;
}

static void verdict_device_text(const struct phase_facts *x,
				struct phase_verdict *v)
{
	int cls = busiest_class(x);

	text_append(v, "device busy %.0f%%, qd %.1f", 100 * x->busy, x->qd);
	if (cls >= 0)
		text_append(v, "; busiest IO class %s (%.0f%% of the phase)",
			    blk_ioclass_name(cls), 100 * x->class_busy[cls]);
	text_append(v, "; CPU %.0f%%", 100 * x->cpu);
}

static void verdict_via_device_text(const struct phase_facts *x,
				    struct phase_verdict *v);

static void verdict_from_budget(const struct phase_facts *x,
				struct phase_verdict *v)
{
	static const enum bound_kind kinds[] = {
		BOUND_CPU, BOUND_DEVICE,   BOUND_JOURNAL,
		BOUND_LOG, BOUND_THROTTLE, BOUND_LOCK,
	};
	const struct time_budget *b = &x->budget;
	enum bound_kind best = BOUND_MIXED;
	double best_share = 0, s;
	unsigned int i;
	char name[48];

	double share[BOUND_NR] = { 0 };
	bool via_device[BOUND_NR] = { false };
	enum bound_kind k;

	v->budget = true;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		share[kinds[i]] = budget_bound_share(b, kinds[i]);
	/*
	 * A wait in a commit or log force that neither repeats per operation
	 * nor comes with journal or log IO is the device's (one fdatasync
	 * waiting for the cache flush its commit issues): count it there.
	 */
	if (!journal_commit_wait(x) && !log_waits_are_log_io(x)) {
		via_device[BOUND_JOURNAL] = share[BOUND_JOURNAL] > 0;
		share[BOUND_DEVICE] += share[BOUND_JOURNAL];
		share[BOUND_JOURNAL] = 0;
	}
	if (!log_force_wait(x) && !log_waits_are_log_io(x)) {
		via_device[BOUND_LOG] = share[BOUND_LOG] > 0;
		share[BOUND_DEVICE] += share[BOUND_LOG];
		share[BOUND_LOG] = 0;
	}
	/*
	 * A pattern of commits or forces: the cache flushes of the same
	 * durability points are theirs, not the device's (issue 32: 49%
	 * journal_commit and 49% device_flush is a journal-bound phase)
	 */
	if (x->dur.flush_share + x->dur.data_share > 0) {
		k = x->dur.bound;
		share[BOUND_DEVICE] -= x->dur.flush_share + x->dur.data_share;
		share[k] += x->dur.flush_share + x->dur.data_share;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (share[kinds[i]] > best_share) {
			best_share = share[kinds[i]];
			best = kinds[i];
		}
	}
	if (best_share >= BOUND_MAJORITY)
		v->bound = best;
	else
		v->bound = BOUND_MIXED;
	if (v->bound == BOUND_CPU && phase_is_cached(x))
		v->bound = BOUND_CACHE;
	if (v->bound == BOUND_MIXED)
		text_append(v, "mixed: on CPU %.0f%%",
			    100 * b->oncpu_ns / b->total_ns);
	else
		text_append(v, "%s bound: on CPU %.0f%%",
			    bound_kind_name(v->bound),
			    100 * b->oncpu_ns / b->total_ns);
	share_add(v, "oncpu", b->oncpu_ns / b->total_ns);
	for (i = 0; i < b->n; i++) {
		s = b->off[i].ns / b->total_ns;
		if (s < CAUSE_MENTION_SHARE ||
		    budget_cause_is_idle(b->off[i].cause))
			continue;
		text_append(v, ", %s %.0f%%", b->off[i].cause, 100 * s);
		snprintf(name, sizeof(name), "offcpu.%s", b->off[i].cause);
		share_add(v, name, s);
	}
	text_append(v, " of the workload's time (sched time budget)");
	if (b->idle_ns > 0.05 * b->total_ns)
		text_append(
			v,
			", not counting %.2f s it chose to wait (its own sleeps, waits for its children)",
			b->idle_ns / 1e9);
	if (x->dur.flush_share >= CAUSE_MENTION_SHARE ||
	    x->dur.data_share >= CAUSE_MENTION_SHARE)
		text_append(
			v, "; the %llu %s%s are one mechanism: %.0f%% together",
			(unsigned long long)x->dur.events, x->dur.events_what,
			x->dur.data_share >= CAUSE_MENTION_SHARE ?
				", the data each wrote first (writeback_wait under the sync calls) and their cache flushes" :
				" and their cache flushes (device_flush)",
			100 * x->dur.wait);
	if (v->bound == BOUND_DEVICE &&
	    (via_device[BOUND_JOURNAL] || via_device[BOUND_LOG]) &&
	    budget_bound_share(b, BOUND_JOURNAL) +
			    budget_bound_share(b, BOUND_LOG) >=
		    0.1)
		verdict_via_device_text(x, v);
	if (x->block) {
		text_append(v, "; device busy %.0f%%", 100 * x->busy);
		share_add(v, "device_busy", x->busy);
	}
}

/*
 * Why commit or log-force waits counted as device time, in numbers: too
 * few to be a pattern, or not the workload's own, and the log's share of
 * the phase and of the device under LOG_IO_SHARE.
 */
static void verdict_via_device_text(const struct phase_facts *x,
				    struct phase_verdict *v)
{
	const char *what = x->dur.events_what;

	text_append(v, "; its commit/log-force waits count as device time: ");
	if (!x->dur.pattern)
		text_append(v,
			    "%llu %s, under the %d of a per-operation pattern",
			    (unsigned long long)x->dur.events, what,
			    DURABILITY_MIN_EVENTS);
	else
		text_append(
			v,
			"%llu %s, the workload's waits on them %.0f%% of its time",
			(unsigned long long)x->dur.events, what,
			100 * x->dur.wait);
	text_append(
		v,
		", and %s writes %.0f%% of the phase, %.0f%% of the device's work (under the %.0f%% of log-bound)",
		x->fs == FS_XFS ? "log" : "journal", 100 * x->log_io,
		100 * x->log_dev_share, 100 * LOG_IO_SHARE);
}

/* the larger of CPU and device when it leads clearly enough, else mixed */
static enum bound_kind cpu_or_device(double cpu, double dev)
{
	double top = cpu > dev ? cpu : dev, other = cpu > dev ? dev : cpu;

	if (top >= BOUND_DOMINANT ||
	    (top >= BOUND_MAJORITY && top >= BOUND_LEAD * other))
		return cpu > dev ? BOUND_CPU : BOUND_DEVICE;
	return BOUND_MIXED;
}

static void verdict_from_shares(const struct phase_facts *x,
				struct phase_verdict *v)
{
	double cpu = x->cpu > 1 ? 1 : x->cpu;
	double journal = journal_commit_wait(x), logw = log_force_wait(x);
	double log_io = x->block ? x->log_io : 0;

	share_add(v, "cpu", x->cpu);
	if (x->block) {
		share_add(v, "device_busy", x->busy);
		share_add(v, "log_write", log_io);
	}
	if (x->throttle > 0)
		share_add(v, "dirty_throttle", x->throttle);
	if (x->sync_calls)
		share_add(v, "sync_calls", x->sync_share);

	if (x->throttle >= BOUND_MAJORITY) {
		v->bound = BOUND_THROTTLE;
		text_append(
			v,
			"throttle bound: writers slept %.0f%% of the phase in balance_dirty_pages; ",
			100 * x->throttle);
		verdict_device_text(x, v);
		return;
	}
	if (x->fs == FS_EXT &&
	    (journal >= BOUND_MAJORITY || log_io >= LOG_IO_SHARE)) {
		v->bound = BOUND_JOURNAL;
		if (journal >= BOUND_MAJORITY)
			text_append(
				v,
				"journal bound: %.0f%% of the phase in fsync/syncfs, each waiting for its own jbd2 commit; ",
				100 * x->sync_share);
		else
			text_append(
				v,
				"journal bound: journal writes %.0f%% of the phase; ",
				100 * log_io);
		share_add(v, "journal_commit_wait", journal);
		verdict_device_text(x, v);
		return;
	}
	if (x->fs == FS_XFS &&
	    (logw >= BOUND_MAJORITY || log_io >= LOG_IO_SHARE)) {
		v->bound = BOUND_LOG;
		if (logw >= BOUND_MAJORITY)
			text_append(
				v,
				"log bound: %.0f%% of the phase in fsync/syncfs, each forcing the XFS log; ",
				100 * x->sync_share);
		else
			text_append(
				v,
				"log bound: log writes %.0f%% of the phase; ",
				100 * log_io);
		share_add(v, "log_force_wait", logw);
		verdict_device_text(x, v);
		return;
	}
	if (phase_is_cached(x)) {
		v->bound = BOUND_CACHE;
		if (x->p->work.bytes)
			text_append(
				v,
				"cache bound: the device moved %.1f MB for the workload's %.1f MB and was busy %.0f%% of the phase; CPU %.0f%%",
				(double)x->dev_bytes / 1e6,
				(double)x->p->work.bytes / 1e6, 100 * x->busy,
				100 * x->cpu);
		else
			text_append(
				v,
				"cache bound: %llu files' metadata changed in memory; the device was busy %.0f%% of the phase; CPU %.0f%%",
				(unsigned long long)x->p->work.files,
				100 * x->busy, 100 * x->cpu);
		return;
	}
	v->bound = cpu_or_device(cpu, x->block ? x->busy : 0);
	if (v->bound == BOUND_CPU) {
		text_append(v, "cpu bound: CPU %.0f%% of the phase",
			    100 * x->cpu);
		if (x->block)
			text_append(v, "; device busy %.0f%%", 100 * x->busy);
	} else if (v->bound == BOUND_DEVICE) {
		text_append(v, "device bound: ");
		verdict_device_text(x, v);
	} else {
		text_append(v, "mixed: CPU %.0f%%", 100 * x->cpu);
		if (x->block)
			text_append(v, ", device busy %.0f%%", 100 * x->busy);
		if (cpu + (x->block ? x->busy : 0) < BOUND_MAJORITY &&
		    !x->budget.unusable)
			text_append(
				v,
				"; most of the phase went neither to the CPU nor to this device (a sched time budget would say where)");
	}
}

void analyze_verdict(const struct phase_facts *x, struct phase_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->done = true;
	if (budget_usable(&x->budget) && x->budget.total_ns > 0) {
		verdict_from_budget(x, v);
	} else {
		verdict_from_shares(x, v);
		if (x->budget.unusable) {
			double u =
				x->budget.unattributed_ns / x->budget.total_ns;

			share_add(v, "budget_unattributed", u);
			text_append(
				v,
				" (device and CPU shares: the sched time budget could not say where %.0f%% of the workload's time went)",
				100 * u);
		}
	}
	if (x->too_short)
		text_append(
			v,
			" (phase of %.0f ms: too short for the shares to be reliable)",
			x->wall_ns / 1e6);
}
