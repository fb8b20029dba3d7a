// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/facts.h"
#include "analyze/thresholds.h"
#include "results/budget_parts.h"
#include "results/metric_names.h"

uint64_t fact_metric(const struct phase_facts *x, const char *name)
{
	return metric_value(&x->p->metrics, name);
}

bool fact_has(const struct phase_facts *x, const char *name)
{
	return metric_find(&x->p->metrics, name) != NULL;
}

double fact_hist_sum(const struct phase_facts *x, const char *name)
{
	const struct latency_hist *h = metric_hist_find(&x->p->metrics, name);

	return h ? (double)h->sum_ns : 0;
}

uint64_t fact_hist_count(const struct phase_facts *x, const char *name)
{
	const struct latency_hist *h = metric_hist_find(&x->p->metrics, name);

	return h ? h->count : 0;
}

double fact_hist_p50(const struct phase_facts *x, const char *name)
{
	const struct latency_hist *h = metric_hist_find(&x->p->metrics, name);

	return h && h->count ? latency_hist_percentile(h, 50) : 0;
}

double fact_share(const struct phase_facts *x, double ns)
{
	double s;

	if (x->wall_ns <= 0)
		return 0;
	s = ns / x->wall_ns;
	return s > 1 ? 1 : s;
}

static bool is_mount_sep(char c)
{
	return c == ',' || c == '\0';
}

bool mount_option_has(const char *opts, const char *option)
{
	size_t n = strlen(option);
	const char *p = opts;

	while (n && (p = strstr(p, option))) {
		if ((p == opts || p[-1] == ',') && is_mount_sep(p[n]))
			return true;
		p++;
	}
	return false;
}

uint64_t mount_option_size(const char *opts, const char *key)
{
	size_t n = strlen(key);
	const char *p = opts;

	while ((p = strstr(p, key))) {
		if ((p == opts || p[-1] == ',') && p[n] == '=') {
			char *end;
			uint64_t v = strtoull(p + n + 1, &end, 10);

			if (*end == 'k' || *end == 'K')
				v <<= 10;
			else if (*end == 'm' || *end == 'M')
				v <<= 20;
			return v;
		}
		p++;
	}
	return 0;
}

static enum fs_family fs_family_of(const char *fstype)
{
	if (!strcmp(fstype, "xfs"))
		return FS_XFS;
	if (!strncmp(fstype, "ext", 3))
		return FS_EXT;
	if (!strcmp(fstype, "btrfs"))
		return FS_BTRFS;
	return FS_OTHER;
}

/* sched.* metrics, counters first, histogram sums when only those exist */
static double sched_value(const struct metric_set *m, const char *name,
			  bool *found)
{
	const struct metric *c = metric_find(m, name);
	const struct latency_hist *h;

	if (c) {
		*found = true;
		return (double)c->value;
	}
	h = metric_hist_find(m, name);
	if (h) {
		*found = true;
		return (double)h->sum_ns;
	}
	return 0;
}

static void budget_add_cause(struct time_budget *b, const char *cause,
			     double ns)
{
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		if (!strcmp(b->off[i].cause, cause)) {
			b->off[i].ns += ns;
			return;
		}
	}
	if (b->n == BUDGET_MAX_CAUSES)
		return;
	snprintf(b->off[b->n].cause, sizeof(b->off[b->n].cause), "%s", cause);
	b->off[b->n++].ns = ns;
}

void time_budget_read(struct time_budget *b, const struct phase_result *p)
{
	const struct metric_set *m = &p->metrics;
	size_t plen = strlen(BUDGET_OFFCPU_PREFIX);
	bool found = false, any = false;
	double off = 0, wall;
	unsigned int i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < m->n; i++) {
		if (strncmp(m->v[i].name, BUDGET_OFFCPU_PREFIX, plen))
			continue;
		budget_add_cause(b, m->v[i].name + plen, (double)m->v[i].value);
		any = true;
	}
	if (!any) {
		for (i = 0; i < m->n_hists; i++) {
			if (strncmp(m->hists[i].name, BUDGET_OFFCPU_PREFIX,
				    plen))
				continue;
			budget_add_cause(b, m->hists[i].name + plen,
					 (double)m->hists[i].h.sum_ns);
			any = true;
		}
	}
	/* the time taken from the workload on its CPUs, a cause of its own */
	for (i = 0; i < BUDGET_TAKEN_NR; i++) {
		const struct metric *t =
			metric_find(m, budget_taken_parts[i].metric);

		if (t && t->value)
			budget_add_cause(b, budget_taken_parts[i].key,
					 (double)t->value);
	}
	wall = sched_value(m, MN(SCHED_WALL_NS), &found);
	if (!any && !found)
		return;
	b->present = true;
	found = false;
	b->oncpu_ns = sched_value(m, MN(SCHED_ONCPU_NS), &found);
	if (!found)
		b->oncpu_ns = (double)(p->user_ns + p->sys_ns);
	b->unaccounted_ns = sched_value(m, MN(SCHED_UNACCOUNTED_NS), &found);
	/* causes largest first, as the verdict lists them */
	for (i = 1; i < b->n; i++) {
		unsigned int j = i;

		while (j > 0 && b->off[j - 1].ns < b->off[j].ns) {
			typeof(b->off[0]) t = b->off[j];

			b->off[j] = b->off[j - 1];
			b->off[--j] = t;
		}
	}
	b->unattributed_ns = b->unaccounted_ns;
	for (i = 0; i < b->n; i++) {
		if (budget_cause_is_idle(b->off[i].cause))
			b->idle_ns += b->off[i].ns;
		else
			off += b->off[i].ns;
		if (!budget_cause_is_idle(b->off[i].cause) &&
		    budget_cause_bound(b->off[i].cause) == BOUND_NR)
			b->unattributed_ns += b->off[i].ns;
	}
	b->total_ns = b->oncpu_ns + off + b->unaccounted_ns;
	if (b->total_ns <= 0)
		b->total_ns = wall > 0 ? wall : (double)p->wall_ns;
	/* a budget that cannot name where most of the time went decides
	 * nothing: see BUDGET_UNATTRIBUTED_MAX */
	if (b->unattributed_ns >= BUDGET_UNATTRIBUTED_MAX * b->total_ns)
		b->unusable = true;
}

bool budget_cause_is_idle(const char *cause)
{
	return !strcmp(cause, "sleep") || !strcmp(cause, "wait_child");
}

enum bound_kind budget_cause_bound(const char *cause)
{
	static const struct {
		const char *cause;
		enum bound_kind bound;
	} map[] = {
		{ "journal_commit", BOUND_JOURNAL },
		{ "journal_locked", BOUND_JOURNAL },
		{ "journal_space", BOUND_JOURNAL },
		{ "xfs_log_force", BOUND_LOG },
		{ "xfs_log_space", BOUND_LOG },
		/* btrfs: its tree log is a log, its transaction commit a
		 * commit, as jbd2's */
		{ "btrfs_log_sync", BOUND_LOG },
		{ "btrfs_commit", BOUND_JOURNAL },
		{ "dirty_throttle", BOUND_THROTTLE },
		{ "writeback_wait", BOUND_DEVICE },
		{ "read_io", BOUND_DEVICE },
		{ "direct_io", BOUND_DEVICE },
		{ "device_flush", BOUND_DEVICE },
		{ "blk_queue", BOUND_DEVICE },
		{ "mutex", BOUND_LOCK },
		{ "rwsem", BOUND_LOCK },
		{ "lock", BOUND_LOCK },
		{ "xfs_buf_lock", BOUND_LOCK },
		{ "xfs_inode_lock", BOUND_LOCK },
		{ "runqueue", BOUND_CPU },
		/* the CPU it was on ran something else: it waited for a CPU */
		{ "stolen", BOUND_CPU },
		{ "irq", BOUND_CPU },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].cause, cause))
			return map[i].bound;
	return BOUND_NR;
}

double budget_cause_share(const struct time_budget *b, const char *cause)
{
	unsigned int i;

	if (!b->present || b->total_ns <= 0)
		return 0;
	for (i = 0; i < b->n; i++)
		if (!strcmp(b->off[i].cause, cause))
			return b->off[i].ns / b->total_ns;
	return 0;
}

double budget_bound_share(const struct time_budget *b, enum bound_kind k)
{
	double ns = 0;
	unsigned int i;

	if (!b->present || b->total_ns <= 0)
		return 0;
	if (k == BOUND_CPU)
		ns += b->oncpu_ns;
	for (i = 0; i < b->n; i++)
		if (budget_cause_bound(b->off[i].cause) == k)
			ns += b->off[i].ns;
	return ns / b->total_ns;
}

static void block_facts(struct phase_facts *x)
{
	const struct block_result *b = &x->p->block;
	struct block_class_result total;
	unsigned int i;

	x->block = b->traced;
	if (!b->traced)
		return;
	for (i = 0; i < b->n_io; i++) {
		enum blk_ioclass k = b->io[i].ioclass;

		x->class_ios[k] += b->io[i].r.ios;
		x->class_bytes[k] += b->io[i].r.bytes;
		if (k == BLK_IOC_FLUSH || k == BLK_IOC_LOG_WRITE)
			x->durable_ios += b->io[i].r.ios;
		else
			x->durable_ios += b->io[i].r.fua > b->io[i].r.preflush ?
						  b->io[i].r.fua :
						  b->io[i].r.preflush;
	}
	for (i = 0; i < BLK_IOC_NR; i++)
		x->class_busy[i] = fact_share(x, (double)b->ioclass[i].busy_ns);
	block_result_total(b, &total);
	x->ios = total.ios;
	x->dev_bytes = total.bytes;
	x->dev_read_bytes = b->cls[BLK_OPC_READ].bytes;
	x->dev_write_bytes = b->cls[BLK_OPC_WRITE].bytes;
	x->busy = fact_share(x, (double)b->device.busy_ns);
	x->qd = x->wall_ns > 0 ? (double)b->device.inflight_ns / x->wall_ns : 0;
	x->req_bytes_p50 =
		total.size.count ? latency_hist_percentile(&total.size, 50) : 0;
	/* the log's share: its own busy time, or its share of the requests */
	x->log_io = x->class_busy[BLK_IOC_LOG_WRITE];
	if (x->ios) {
		double by_requests = x->busy *
				     (double)x->class_ios[BLK_IOC_LOG_WRITE] /
				     (double)x->ios;

		if (by_requests > x->log_io)
			x->log_io = by_requests;
		x->log_dev_share = (double)x->class_ios[BLK_IOC_LOG_WRITE] /
				   (double)x->ios;
	}
	if (x->busy > 0 &&
	    x->class_busy[BLK_IOC_LOG_WRITE] / x->busy > x->log_dev_share)
		x->log_dev_share = x->class_busy[BLK_IOC_LOG_WRITE] / x->busy;
}

bool log_waits_are_log_io(const struct phase_facts *x)
{
	return x->block &&
	       (x->log_io >= LOG_IO_SHARE || x->log_dev_share >= LOG_IO_SHARE);
}

bool log_io_bound_by_budget(const struct phase_facts *x)
{
	enum bound_kind k = x->fs == FS_XFS ? BOUND_LOG : BOUND_JOURNAL;

	return budget_usable(&x->budget) && log_waits_are_log_io(x) &&
	       budget_bound_share(&x->budget, k) >= LOG_IO_SHARE;
}

static void durability_facts(struct phase_facts *x);

void phase_facts_init(struct phase_facts *x, const struct case_result *c,
		      unsigned int i)
{
	const struct phase_result *p = &c->phases[i];

	memset(x, 0, sizeof(*x));
	x->c = c;
	x->p = p;
	x->index = i;
	x->fs = fs_family_of(c->target.fstype);
	x->wall_ns = (double)p->wall_ns;
	x->too_short = p->wall_ns < RULE_MIN_WALL_NS;
	x->cpu = x->wall_ns > 0 ?
			 (double)(p->user_ns + p->sys_ns) / x->wall_ns :
			 0;
	block_facts(x);
	x->sync_calls = fact_hist_count(x, MN(OP_FSYNC_NS)) +
			fact_hist_count(x, MN(OP_SYNC_NS));
	x->sync_share = fact_share(x, fact_hist_sum(x, MN(OP_FSYNC_NS)) +
					      fact_hist_sum(x, MN(OP_SYNC_NS)));
	x->throttle = fact_share(
		x, (double)fact_metric(x, MN(WRITEBACK_THROTTLE_PAUSE_NS)));
	if (x->fs == FS_XFS) {
		x->logbsize =
			mount_option_size(c->target.super_opts, "logbsize");
		if (!x->logbsize)
			x->logbsize = mount_option_size(c->target.mount_opts,
							"logbsize");
		if (!x->logbsize)
			x->logbsize = XFS_LOGBSIZE_DEFAULT;
	}
	time_budget_read(&x->budget, p);
	durability_facts(x);
}

static double min2(double a, double b)
{
	return a < b ? a : b;
}

const char *dur_source_name(enum dur_source s)
{
	static const char *const names[DUR_SRC_NR] = {
		[DUR_SRC_NONE] = "unknown",
		[DUR_SRC_FSYNC] = "fsync/fdatasync calls",
		[DUR_SRC_SYNC_WRITE] = "O_SYNC/O_DSYNC writes",
		[DUR_SRC_SYNC_MOUNT] = "the synchronous mount",
		[DUR_SRC_SYNC_DIR] = "synchronous directories (chattr +D/+S)",
		[DUR_SRC_SYNCFS] = "sync/syncfs calls",
		[DUR_SRC_KERNEL] = "the filesystem's own threads",
	};

	return s < DUR_SRC_NR ? names[s] : "unknown";
}

/* the operations durability points could serve, and what they are */
static void dur_ops(struct phase_facts *x)
{
	const char *const ops[] = {
		MN(OP_WRITE_NS),  MN(OP_CREATE_NS), MN(OP_UNLINK_NS),
		MN(OP_RENAME_NS), MN(OP_MKDIR_NS),  MN(OP_RMDIR_NS),
	};
	struct durability_facts *d = &x->dur;
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		d->ops += fact_hist_count(x, ops[i]);
	d->ops_what = "writes, creates, unlinks and renames";
	if (!d->ops && x->block) {
		d->ops = x->class_ios[BLK_IOC_DATA_WRITE];
		d->ops_what = "data write requests";
	}
	d->per_op = d->ops ? (double)d->events / (double)d->ops : NAN;
}

static void dur_paths(struct phase_facts *x)
{
	const char *const names[DUR_PATH_NR] = {
		[DUR_PATH_WRITE] = MN(SCHED_SYNC_PATH_NS_WRITE),
		[DUR_PATH_FSYNC] = MN(SCHED_SYNC_PATH_NS_FSYNC),
		[DUR_PATH_SYNCFS] = MN(SCHED_SYNC_PATH_NS_SYNCFS),
		[DUR_PATH_NAMESPACE] = MN(SCHED_SYNC_PATH_NS_NAMESPACE),
		[DUR_PATH_OTHER] = MN(SCHED_SYNC_PATH_NS_OTHER),
	};
	struct durability_facts *d = &x->dur;
	double ns[DUR_PATH_NR], total = 0;
	unsigned int i;

	for (i = 0; i < DUR_PATH_NR; i++) {
		ns[i] = (double)fact_metric(x, names[i]);
		total += ns[i];
	}
	if (total <= 0)
		return;
	d->paths_known = true;
	for (i = 0; i < DUR_PATH_NR; i++)
		d->path_share[i] = ns[i] / total;
}

/* who asked: the heaviest path, named by the mount's options */
static void dur_source(struct phase_facts *x)
{
	struct durability_facts *d = &x->dur;
	bool sync_mount = d->sync_option && !strcmp(d->sync_option, "sync");
	unsigned int best = 0, i;

	if (d->paths_known) {
		for (i = 1; i < DUR_PATH_NR; i++)
			if (d->path_share[i] > d->path_share[best])
				best = i;
		d->source_share = d->path_share[best];
		switch (best) {
		case DUR_PATH_WRITE:
			d->source = sync_mount ? DUR_SRC_SYNC_MOUNT :
						 DUR_SRC_SYNC_WRITE;
			break;
		case DUR_PATH_NAMESPACE:
			d->source = d->sync_option ? DUR_SRC_SYNC_MOUNT :
						     DUR_SRC_SYNC_DIR;
			break;
		case DUR_PATH_FSYNC:
			d->source = DUR_SRC_FSYNC;
			break;
		case DUR_PATH_SYNCFS:
			d->source = DUR_SRC_SYNCFS;
			break;
		default:
			d->source = DUR_SRC_KERNEL;
		}
		return;
	}
	/* no stacks: the counters say less (NAN: no share of the waits) */
	d->source_share = NAN;
	if (x->fs == FS_EXT && d->events &&
	    (double)fact_metric(x, MN(JBD2_COMMITS_SYNC)) >=
		    COMMITS_PER_SYNC * (double)d->events)
		d->source = d->sync_option ? DUR_SRC_SYNC_MOUNT :
					     DUR_SRC_SYNC_DIR;
	else if (x->fs == FS_XFS && d->events &&
		 (double)fact_metric(x, MN(XFS_LOG_FORCE_SYNC_TRANS)) >=
			 COMMITS_PER_SYNC * (double)d->events)
		d->source = d->sync_option ? DUR_SRC_SYNC_MOUNT :
					     DUR_SRC_SYNC_DIR;
	else if (x->sync_calls >= DURABILITY_MIN_EVENTS)
		d->source = DUR_SRC_FSYNC;
	else if (d->sync_option && d->events >= DURABILITY_MIN_EVENTS)
		d->source = DUR_SRC_SYNC_MOUNT;
}

static bool target_option(const struct case_result *c, const char *o)
{
	return mount_option_has(c->target.mount_opts, o) ||
	       mount_option_has(c->target.super_opts, o);
}

/*
 * btrfs: an fsync is served by the tree log (btrfs_sync_log) or, when the
 * log cannot serve it, by a transaction commit in the fsync's own context;
 * the events are the fsyncs btrfs saw (O_SYNC/O_DSYNC writes included),
 * or without the btrfs domain the workload's own sync calls
 */
static void btrfs_durability_counts(struct phase_facts *x)
{
	struct durability_facts *d = &x->dur;
	double log = budget_cause_share(&x->budget, "btrfs_log_sync");
	double commit = budget_cause_share(&x->budget, "btrfs_commit");

	d->events = fact_has(x, MN(BTRFS_FSYNCS)) ?
			    fact_metric(x, MN(BTRFS_FSYNCS)) :
			    x->sync_calls;
	d->full_commits = fact_metric(x, MN(BTRFS_COMMITS_USER));
	d->events_what = "fsyncs (tree-log syncs and transaction commits)";
	d->bound = commit > log ? BOUND_JOURNAL : BOUND_LOG;
}

/* the share of the phase the workload slept in the durability causes */
static double dur_budget_share(const struct phase_facts *x)
{
	if (x->fs == FS_BTRFS)
		return budget_cause_share(&x->budget, "btrfs_log_sync") +
		       budget_cause_share(&x->budget, "btrfs_commit");
	return budget_cause_share(&x->budget, x->fs == FS_XFS ?
						      "xfs_log_force" :
						      "journal_commit");
}

/* how often the workload slept in them (one durability point: a few) */
static uint64_t dur_budget_sleeps(const struct phase_facts *x)
{
	if (x->fs == FS_BTRFS)
		return fact_metric(x, MN(SCHED_OFFCPU_COUNT_BTRFS_LOG_SYNC)) +
		       fact_metric(x, MN(SCHED_OFFCPU_COUNT_BTRFS_COMMIT));
	return fact_metric(x, x->fs == FS_XFS ?
				      MN(SCHED_OFFCPU_COUNT_XFS_LOG_FORCE) :
				      MN(SCHED_OFFCPU_COUNT_JOURNAL_COMMIT));
}

static void durability_facts(struct phase_facts *x)
{
	static const char *const sync_options[] = { "sync", "dirsync",
						    "wsync" };
	struct durability_facts *d = &x->dur;
	size_t i;

	if (x->fs == FS_OTHER)
		return;
	if (x->fs == FS_BTRFS) {
		btrfs_durability_counts(x);
	} else if (x->fs == FS_XFS) {
		d->events = fact_metric(x, MN(XFS_LOG_FORCES));
		d->events_what = "log forces";
		d->bound = BOUND_LOG;
	} else {
		/* an ext4 fast commit is a commit too: it serves one fsync */
		d->events = fact_metric(x, MN(JBD2_COMMITS)) +
			    fact_metric(x, MN(EXT4_FC_COMMITS));
		d->events_what = "commits";
		d->bound = BOUND_JOURNAL;
	}
	for (i = 0; i < sizeof(sync_options) / sizeof(sync_options[0]); i++)
		if (target_option(x->c, sync_options[i]))
			d->sync_option = sync_options[i];
	d->data_journal = x->fs == FS_EXT &&
			  target_option(x->c, "data=journal");
	dur_ops(x);
	dur_paths(x);
	dur_source(x);
	d->pattern = d->events >= DURABILITY_MIN_EVENTS;
	/* the workload's own calls shared commits: not one per call */
	if (d->source == DUR_SRC_FSYNC &&
	    (double)d->events < COMMITS_PER_SYNC * (double)x->sync_calls)
		d->pattern = false;
	/* forces fewer than the log writes: the buffers filled, not forced */
	if (x->fs == FS_XFS &&
	    (double)d->events <
		    LOG_FORCES_PER_WRITE *
			    (double)fact_metric(x, MN(XFS_LOG_WRITES)))
		d->pattern = false;
	if (!d->pattern)
		return;
	if (budget_usable(&x->budget)) {
		d->commit_share = dur_budget_share(x);
		/*
		 * the cache flushes of those durability points: grouped when
		 * the workload itself waited for a pattern of commits
		 */
		if (dur_budget_sleeps(x) >= DURABILITY_MIN_EVENTS)
			d->flush_share =
				budget_cause_share(&x->budget, "device_flush");
		/* one fdatasync of a big file is not a point per operation */
		if ((d->source == DUR_SRC_FSYNC &&
		     x->sync_calls >= DURABILITY_MIN_EVENTS) ||
		    d->source == DUR_SRC_SYNC_WRITE)
			d->data_share = min2(
				(double)fact_metric(x, MN(SCHED_SYNC_DATA_NS)) /
					x->budget.total_ns,
				budget_cause_share(&x->budget,
						   "writeback_wait"));
		d->wait = d->commit_share + d->flush_share + d->data_share;
	} else if (x->sync_calls >= DURABILITY_MIN_EVENTS) {
		d->commit_share = min2(
			x->sync_share,
			x->fs == FS_EXT ?
				fact_share(x, fact_hist_sum(
						      x, MN(JBD2_COMMIT_NS))) :
				x->busy);
		d->wait = d->commit_share;
	}
}

double journal_commit_wait(const struct phase_facts *x)
{
	return x->fs != FS_OTHER && x->dur.bound == BOUND_JOURNAL ?
		       x->dur.wait :
		       0;
}

double log_force_wait(const struct phase_facts *x)
{
	return x->fs != FS_OTHER && x->dur.bound == BOUND_LOG ? x->dur.wait : 0;
}
