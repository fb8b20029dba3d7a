// SPDX-License-Identifier: GPL-2.0
/* Rules on the XFS log and the ext3/ext4 (jbd2) journal. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/rules.h"
#include "analyze/thresholds.h"
#include "results/metric_names.h"

#define MiB (1024.0 * 1024.0)

/* the log region's size on the device, bytes (0 when unknown) */
static uint64_t log_region_bytes(const struct case_result *c)
{
	uint64_t sectors = 0;
	unsigned int i;

	for (i = 0; i < c->target.log.n; i++)
		sectors += c->target.log.range[i].sectors;
	return sectors * 512;
}

/* the size a log or journal of cur bytes should grow to, 0 if it cannot */
static uint64_t log_grown_size(const struct case_result *c, uint64_t cur,
			       uint64_t floor, uint64_t max)
{
	uint64_t want = cur * XFS_LOG_GROW_FACTOR, cap = max;

	if (c->target.image_size &&
	    (double)c->target.image_size * XFS_LOG_MAX_FS_SHARE < (double)cap)
		cap = (uint64_t)((double)c->target.image_size *
				 XFS_LOG_MAX_FS_SHARE);
	if (want < floor)
		want = floor;
	if (want > cap)
		want = cap;
	want = want / (1 << 20) * (1 << 20);
	return cur && want > cur ? want : 0;
}

static void evidence_budget(const struct phase_facts *x, struct finding *f,
			    const char *cause, double threshold)
{
	char metric[64];
	double s = budget_cause_share(&x->budget, cause);

	snprintf(metric, sizeof(metric), "sched.offcpu_ns.%s", cause);
	finding_evidence(
		f, metric, s * x->budget.total_ns, s, threshold,
		"the workload slept %.0f%% of its time in %s (sched time budget)",
		100 * s, cause);
}

/*
 * A phase that waits on durability: with the time budget, its share asleep
 * on cause; always, the share of the phase its sync calls took.
 */
static void evidence_sync_wait(const struct phase_facts *x, struct finding *f,
			       const char *cause)
{
	if (x->budget.present)
		evidence_budget(x, f, cause, COMMIT_WAIT_SHARE);
	finding_evidence(
		f, "op.fsync_ns.sum", x->sync_share * x->wall_ns, x->sync_share,
		COMMIT_WAIT_SHARE,
		"%.0f%% of the phase was spent in %llu fsync/fdatasync/syncfs calls",
		100 * x->sync_share, (unsigned long long)x->sync_calls);
}

/* the device cache flushes those sync calls cost, when there were any */
static void evidence_flushes(const struct phase_facts *x, struct finding *f)
{
	if (!x->block || !x->class_ios[BLK_IOC_FLUSH])
		return;
	finding_evidence(f, "block.io_classes.flush.busy_ns",
			 (double)x->p->block.ioclass[BLK_IOC_FLUSH].busy_ns,
			 x->class_busy[BLK_IOC_FLUSH], NAN,
			 "%llu device cache flushes took %.0f%% of the phase",
			 (unsigned long long)x->class_ios[BLK_IOC_FLUSH],
			 100 * x->class_busy[BLK_IOC_FLUSH]);
}

static void evidence_log_io(const struct phase_facts *x, struct finding *f)
{
	char bytes[32];

	analyze_format_bytes((double)x->class_bytes[BLK_IOC_LOG_WRITE], bytes,
			     sizeof(bytes));
	finding_evidence(
		f, "block.io_classes.log_write.busy_ns",
		(double)x->p->block.ioclass[BLK_IOC_LOG_WRITE].busy_ns,
		x->log_io, LOG_IO_SHARE,
		"log writes took %.0f%% of the phase and %.0f%% of the device's work: %llu of its %llu requests, %s, with the device busy %.0f%% (their own busy time %.0f%%)",
		100 * x->log_io, 100 * x->log_dev_share,
		(unsigned long long)x->class_ios[BLK_IOC_LOG_WRITE],
		(unsigned long long)x->ios, bytes, 100 * x->busy,
		100 * x->class_busy[BLK_IOC_LOG_WRITE]);
}

/* with a per-request device model, what the log buffer size costs */
static void evidence_model_log_rate(const struct phase_facts *x,
				    struct finding *f)
{
	uint64_t iops = x->c->target.model.m.wiops;
	char now[32], max[32];

	if (!iops || x->logbsize >= XFS_LOGBSIZE_MAX)
		return;
	analyze_format_bytes((double)x->logbsize * (double)iops, now,
			     sizeof(now));
	analyze_format_bytes((double)XFS_LOGBSIZE_MAX * (double)iops, max,
			     sizeof(max));
	finding_evidence(
		f, "target.device_model_stack.limits.wiops", (double)iops, NAN,
		NAN,
		"the device model allows %llu writes/s: %s/s of log with %llu KiB buffers, %s/s with 256 KiB",
		(unsigned long long)iops, now,
		(unsigned long long)(x->logbsize / 1024), max);
}

/* the workload's wait per durability point, ms (0 unknown) */
static double dur_cost_ms(const struct phase_facts *x)
{
	double total = budget_usable(&x->budget) ? x->budget.total_ns :
						   x->wall_ns;

	return x->dur.events ?
		       x->dur.wait * total / (double)x->dur.events / 1e6 :
		       0;
}

/*
 * The durability evidence of a commit- or force-bound phase: the time
 * waited (with the same points' cache flushes), who asked, and how many
 * per operation.
 */
static void evidence_durability(const struct phase_facts *x, struct finding *f,
				const char *cause)
{
	const struct durability_facts *d = &x->dur;
	const char *what = x->fs == FS_EXT ? "commits (fast commits included)" :
					     d->events_what;
	char metric[64];

	if (budget_usable(&x->budget)) {
		evidence_budget(x, f, cause, COMMIT_WAIT_SHARE);
		if (d->flush_share >= CAUSE_MENTION_SHARE)
			finding_evidence(
				f, "sched.offcpu_ns.device_flush",
				d->flush_share * x->budget.total_ns, d->wait,
				COMMIT_WAIT_SHARE,
				"and %.0f%% in the cache flushes of the same durability points (device_flush): %.0f%% together",
				100 * d->flush_share, 100 * d->wait);
		if (d->data_share >= CAUSE_MENTION_SHARE)
			finding_evidence(
				f, "sched.sync_data_ns",
				d->data_share * x->budget.total_ns, d->wait,
				COMMIT_WAIT_SHARE,
				"and %.0f%% writing the data of the same calls first (writeback_wait under the fsync or O_*SYNC write), a device round trip of each point: %.0f%% together",
				100 * d->data_share, 100 * d->wait);
	} else {
		evidence_sync_wait(x, f, cause);
	}
	if (d->paths_known) {
		static const char *const paths[DUR_PATH_NR] = {
			"write", "fsync", "syncfs", "namespace", "other"
		};
		static const char *const under[DUR_PATH_NR] = {
			"under a write call",
			"under an fsync or fdatasync call",
			"under a sync or syncfs call",
			"under a create, unlink or rename",
			"under no system call fsprof knows",
		};
		unsigned int best = 0, i;

		for (i = 1; i < DUR_PATH_NR; i++)
			if (d->path_share[i] > d->path_share[best])
				best = i;
		snprintf(metric, sizeof(metric), "sched.sync_path_ns.%s",
			 paths[best]);
		finding_evidence(
			f, metric, (double)fact_metric(x, metric),
			d->source_share, NAN,
			"asked for by %s: %.0f%% of the workload's commit, log-force and flush waits slept %s (write %.0f%%, fsync %.0f%%, syncfs %.0f%%, namespace %.0f%%, other %.0f%%)",
			dur_source_name(d->source), 100 * d->source_share,
			under[best], 100 * d->path_share[DUR_PATH_WRITE],
			100 * d->path_share[DUR_PATH_FSYNC],
			100 * d->path_share[DUR_PATH_SYNCFS],
			100 * d->path_share[DUR_PATH_NAMESPACE],
			100 * d->path_share[DUR_PATH_OTHER]);
	} else {
		finding_evidence(
			f, "sched.sync_path_ns", NAN, NAN, NAN,
			"asked for by %s (from the counters and the mount options: no stacks of the waits in this run)",
			dur_source_name(d->source));
	}
	if (d->ops)
		finding_evidence(
			f,
			x->fs == FS_XFS	  ? MN(XFS_LOG_FORCES) :
			x->fs == FS_BTRFS ? MN(BTRFS_FSYNCS) :
					    MN(JBD2_COMMITS),
			(double)d->events, d->per_op, COMMITS_PER_OP,
			"%llu %s for %llu %s: %.2f per operation%s, each costing the workload %.2f ms",
			(unsigned long long)d->events, what,
			(unsigned long long)d->ops, d->ops_what, d->per_op,
			/* as printed: 2048 for 2049 operations is 1.00 */
			round(d->per_op * 100) >= 100 ?
				" (one per operation or more)" :
			d->per_op >= COMMITS_PER_OP ?
				" (at least one per two operations)" :
				"",
			dur_cost_ms(x));
}

/* advice by who asked; false: the fsync path's own advice applies */
static bool durability_source_advice(const struct phase_facts *x,
				     struct finding *f)
{
	const struct durability_facts *d = &x->dur;
	const char *what = x->fs == FS_XFS   ? "log force" :
			   x->fs == FS_BTRFS ? "log sync" :
					       "commit";
	double data = x->p->work.bytes ?
			      (double)x->p->work.bytes :
			      (double)x->class_bytes[BLK_IOC_DATA_WRITE];
	double journal = (double)x->class_bytes[BLK_IOC_LOG_WRITE];
	char jb[32], db[32], opt[32];
	double ms = dur_cost_ms(x);

	if (d->data_journal && data > 0 &&
	    journal >= DATA_JOURNAL_TWICE_SHARE * data) {
		analyze_format_bytes(journal, jb, sizeof(jb));
		analyze_format_bytes(data, db, sizeof(db));
		finding_evidence(
			f, "block.io_classes.log_write.bytes", journal,
			journal / data, DATA_JOURNAL_TWICE_SHARE,
			"%s written to the journal for %s of data (%.0f%%): data=journal wrote the data twice",
			jb, db, 100 * journal / data);
		finding_advice(
			f, ADVICE_MOUNT, "data=ordered",
			"mount with data=ordered: data=journal wrote the data twice (%s to the journal for %s of data), and every commit carries it; ordered mode writes it once, in place, before the commit that refers to it",
			jb, db);
		return true;
	}
	switch (d->source) {
	case DUR_SRC_SYNC_MOUNT:
		snprintf(opt, sizeof(opt), "%s",
			 !strcmp(d->sync_option, "sync") ? "async" : "");
		if (!opt[0])
			snprintf(opt, sizeof(opt), "-%s", d->sync_option);
		finding_advice(
			f, ADVICE_MOUNT, opt,
			"mount without %s: it made each operation wait for its own %s (%.2f ms each, %llu of them). Without it, data and names are durable at the next commit or at the application's own fsync: an application that needs an operation durable must then fsync it",
			d->sync_option, what, ms,
			(unsigned long long)d->events);
		return true;
	case DUR_SRC_SYNC_WRITE:
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"group commits: each O_SYNC/O_DSYNC write waited %.2f ms for its own %s (at most %.0f such writes/s). Write a batch and fdatasync once per batch or transaction, or let concurrent writers share %ss",
			ms, what, ms > 0 ? 1000 / ms : 0, what);
		return true;
	case DUR_SRC_SYNC_DIR:
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"directory operations were synchronous without a sync mount: lsattr -d shows chattr +D/+S directories; chattr -D -S them unless each create, unlink or rename must be durable on its own (%.2f ms each)",
			ms);
		return true;
	case DUR_SRC_KERNEL:
		finding_advice(
			f, ADVICE_NONE, NULL,
			"the waits slept under no system call fsprof knows (%.0f%% of them): the heaviest stacks (sched.top_stacks) show the path that asked; each cost %.2f ms",
			100 * d->path_share[DUR_PATH_OTHER], ms);
		return true;
	case DUR_SRC_SYNCFS:
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"fewer sync/syncfs calls: each waited %.2f ms for a %s",
			ms, what);
		return true;
	default:
		return false;
	}
}

bool rule_xfs_log_io_bound(const struct phase_facts *x, struct finding *f)
{
	uint64_t writes = fact_metric(x, MN(XFS_LOG_WRITES));
	uint64_t forces = fact_metric(x, MN(XFS_LOG_FORCES));
	double payload = fact_hist_p50(x, MN(XFS_LOG_WRITE_BYTES));
	double fill = x->logbsize ? payload / (double)x->logbsize : 0;
	double budget_log = budget_bound_share(&x->budget, BOUND_LOG);
	char pay[32], lb[32];

	if (x->fs != FS_XFS || x->too_short || !x->block || !writes)
		return false;
	/* forces cut the log into writes: the force-bound rule's case */
	if (forces >= DURABILITY_MIN_EVENTS &&
	    (double)forces >= LOG_FORCES_PER_WRITE * (double)writes)
		return false;
	/*
	 * the workload waiting on the log (time budget) for log IO, or without
	 * the budget log IO taking half the phase
	 */
	if (budget_usable(&x->budget) ? !log_io_bound_by_budget(x) :
					x->log_io < LOG_IO_SHARE)
		return false;

	f->severity = FINDING_WARNING;
	finding_title(f, "%s is log-IO bound", x->p->name);
	if (budget_usable(&x->budget))
		finding_evidence(
			f, "sched.offcpu_ns.xfs_log_*",
			budget_log * x->budget.total_ns, budget_log,
			LOG_IO_SHARE,
			"the workload slept %.0f%% of its time on the XFS log (force and space waits, sched time budget)",
			100 * budget_log);
	evidence_log_io(x, f);
	analyze_format_bytes(payload, pay, sizeof(pay));
	analyze_format_bytes((double)x->logbsize, lb, sizeof(lb));
	finding_evidence(
		f, "xfs.log_write_bytes.p50", payload, fill, LOG_BUFFER_FULL,
		"%llu log writes (iclogs) with a median payload of %s in %s log buffers (%.0f%% full): they were written because they filled",
		(unsigned long long)writes, pay, lb, 100 * fill);
	finding_evidence(
		f, "xfs.log_forces", (double)forces, NAN, NAN,
		"%llu log force(s): the writes were not cut short by fsync or sync",
		(unsigned long long)forces);
	evidence_model_log_rate(x, f);

	if (x->logbsize < XFS_LOGBSIZE_MAX && fill >= LOG_BUFFER_FULL) {
		double now = (double)fact_metric(x, MN(XFS_SYSFS_LOG_BYTES));
		unsigned long long after =
			now > 0 ?
				(unsigned long long)(now / XFS_LOGBSIZE_MAX +
						     1) :
				(unsigned long long)(writes * x->logbsize /
							     XFS_LOGBSIZE_MAX +
						     1);

		finding_advice(
			f, ADVICE_MOUNT, "logbsize=256k",
			"mount with -o logbsize=256k: the same log in about %llu writes instead of %llu",
			after, (unsigned long long)writes);
	} else if (x->logbsize < XFS_LOGBSIZE_MAX) {
		finding_advice(
			f, ADVICE_NONE, NULL,
			"the log buffers were written %.0f%% full: something other than size pushes them out (the xfs.log_force_* counters say who); a larger logbsize is not indicated",
			100 * fill);
	} else {
		finding_advice(
			f, ADVICE_MKFS, NULL,
			"logbsize is already at its largest (256k): a log on a separate, faster device (mkfs.xfs -l logdev=DEV, mount -o logdev=DEV) takes the log writes off this one");
	}
	return true;
}

bool rule_xfs_log_force_bound(const struct phase_facts *x, struct finding *f)
{
	uint64_t writes = fact_metric(x, MN(XFS_LOG_WRITES));
	uint64_t forces = x->dur.events;
	double wait = log_force_wait(x);
	double payload = fact_hist_p50(x, MN(XFS_LOG_WRITE_BYTES));
	char pay[32];

	if (x->fs != FS_XFS || x->too_short || wait < COMMIT_WAIT_SHARE)
		return false;
	f->severity = FINDING_WARNING;
	finding_title(f, "%s waits for an XFS log force per operation (%s)",
		      x->p->name, dur_source_name(x->dur.source));
	evidence_durability(x, f, "xfs_log_force");
	finding_evidence(
		f, "xfs.log_forces", (double)forces,
		writes ? (double)forces / (double)writes : NAN,
		LOG_FORCES_PER_WRITE,
		"%llu log forces for %llu log writes (%.2f per write), by caller: fsync path %llu, a transaction's own commit (CIL) %llu, sync_fs %llu, log worker %llu, AIL %llu, busy extents %llu, a synchronous transaction (wsync, dirsync, sync) %llu, other %llu",
		(unsigned long long)forces, (unsigned long long)writes,
		writes ? (double)forces / (double)writes : 0,
		(unsigned long long)fact_metric(x, MN(XFS_LOG_FORCE_FSYNC)),
		(unsigned long long)fact_metric(x, MN(XFS_LOG_FORCE_CIL)),
		(unsigned long long)fact_metric(x, MN(XFS_LOG_FORCE_SYNC_FS)),
		(unsigned long long)fact_metric(x,
						MN(XFS_LOG_FORCE_LOG_WORKER)),
		(unsigned long long)fact_metric(x, MN(XFS_LOG_FORCE_AIL)),
		(unsigned long long)fact_metric(x, MN(XFS_LOG_FORCE_BUSY)),
		(unsigned long long)fact_metric(x,
						MN(XFS_LOG_FORCE_SYNC_TRANS)),
		(unsigned long long)fact_metric(x, MN(XFS_LOG_FORCE_OTHER)));
	analyze_format_bytes(payload, pay, sizeof(pay));
	finding_evidence(
		f, "xfs.log_write_bytes.p50", payload,
		x->logbsize ? payload / (double)x->logbsize : NAN,
		LOG_BUFFER_FULL,
		"median log write %s of a %llu KiB buffer (%.0f%% full, under the %.0f%% of a buffer written because it filled): a larger logbsize would not carry more per write",
		pay, (unsigned long long)(x->logbsize / 1024),
		x->logbsize ? 100 * payload / (double)x->logbsize : 0,
		100 * LOG_BUFFER_FULL);
	evidence_flushes(x, f);
	if (!durability_source_advice(x, f))
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"fewer durability points: one fsync per batch of files (or per transaction of the application) instead of per file; a bigger logbsize does not help here");
	return true;
}

bool rule_xfs_log_space(const struct phase_facts *x, struct finding *f)
{
	uint64_t sleeps = fact_metric(x, MN(XFS_LOG_GRANT_SLEEPS));
	double share =
		x->budget.present ?
			budget_cause_share(&x->budget, "xfs_log_space") :
			fact_share(x, fact_hist_sum(
					      x, MN(XFS_LOG_GRANT_SLEEP_NS)));
	uint64_t cur = log_region_bytes(x->c), grown;
	char opt[64];

	if (x->fs != FS_XFS || x->too_short || share < LOG_SPACE_SHARE)
		return false;
	f->severity = FINDING_WARNING;
	finding_title(f, "%s waits for XFS log space", x->p->name);
	if (x->budget.present)
		evidence_budget(x, f, "xfs_log_space", LOG_SPACE_SHARE);
	else
		finding_evidence(
			f, "xfs.log_grant_sleep_ns.sum",
			fact_hist_sum(x, MN(XFS_LOG_GRANT_SLEEP_NS)), share,
			LOG_SPACE_SHARE,
			"%llu transactions slept %.2f s waiting for log space, %.0f%% of the phase (all tasks: the workload's own share needs the sched time budget)",
			(unsigned long long)sleeps,
			fact_hist_sum(x, MN(XFS_LOG_GRANT_SLEEP_NS)) / 1e9,
			100 * share);
	finding_evidence(
		f, "xfs.cil_waits", (double)fact_metric(x, MN(XFS_CIL_WAITS)),
		NAN, NAN,
		"%llu commits throttled at the CIL's hard limit; xfsaild found %llu items pinned",
		(unsigned long long)fact_metric(x, MN(XFS_CIL_WAITS)),
		(unsigned long long)fact_metric(x, MN(XFS_AIL_PINNED)));
	if (cur)
		finding_evidence(f, "target.log.ranges", (double)cur, NAN, NAN,
				 "the log is %.0f MiB", (double)cur / MiB);
	grown = log_grown_size(x->c, cur, 64ULL << 20, XFS_LOG_MAX_BYTES);
	if (grown) {
		snprintf(opt, sizeof(opt), "-l size=%llum",
			 (unsigned long long)(grown >> 20));
		finding_advice(
			f, ADVICE_MKFS, opt,
			"make the filesystem with a larger log (mkfs.xfs %s) so that the tail is pushed less often; more allocation groups (-d agcount=) spread concurrent transactions",
			opt);
	} else {
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"the log cannot grow much on this filesystem: fewer concurrent metadata-heavy operations, or more allocation groups (mkfs.xfs -d agcount=)");
	}
	return true;
}

/* what makes a fast commit ineligible, by the kernel's reason name */
static const char *fc_reason_text(const char *reason)
{
	static const struct {
		const char *reason, *text;
	} texts[] = {
		{ "xattr",
		  "an extended attribute changed (setxattr, an ACL, a security label)" },
		{ "cross_rename",
		  "a rename that exchanged two names (RENAME_EXCHANGE)" },
		{ "rename_dir", "a directory was renamed" },
		{ "falloc_range",
		  "an fallocate range operation (punch hole, collapse, insert or zero range)" },
		{ "inode_journal_data",
		  "an inode with journalled data (data=journal, chattr +j)" },
		{ "journal_flag_change",
		  "a file's data journalling flag changed (chattr +j/-j)" },
		{ "resize", "the filesystem was resized" },
		{ "swap_boot", "a boot loader inode was swapped" },
		{ "encrypted_filename",
		  "a name was created in an encrypted directory" },
		{ "nomem", "fast commit tracking ran out of memory" },
	};
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (!strcmp(texts[i].reason, reason))
			return texts[i].text;
	return "a reason this build cannot describe";
}

/* the reason most fast-commit fallbacks were counted under, and how many */
static const char *fc_top_reason(const struct phase_facts *x, uint64_t *n)
{
	static const char prefix[] = "ext4.fc_fallback_reason.";
	const struct metric_set *m = &x->p->metrics;
	const char *top = NULL;
	unsigned int i;

	*n = 0;
	for (i = 0; i < m->n; i++)
		if (!strncmp(m->v[i].name, prefix, sizeof(prefix) - 1) &&
		    m->v[i].value > *n) {
			*n = m->v[i].value;
			top = m->v[i].name + sizeof(prefix) - 1;
		}
	return top;
}

/*
 * Fast commits on this filesystem (mkfs -O fast_commit): how many served
 * an fsync, how many fell back to a full commit and why. Returns true
 * when the fallbacks are the advice: most fsyncs paid a full commit for a
 * reason the workload can avoid.
 */
static bool fast_commit_evidence(const struct phase_facts *x, struct finding *f,
				 bool fc_on)
{
	uint64_t fc = fact_metric(x, MN(EXT4_FC_COMMITS));
	uint64_t fallbacks = fact_metric(x, MN(EXT4_FC_FALLBACKS));
	uint64_t failed = fact_metric(x, MN(EXT4_FC_FAILED));
	uint64_t ineligible = fact_metric(x, MN(EXT4_FC_INELIGIBLE));
	uint64_t jbd2 = fact_metric(x, MN(JBD2_COMMITS)), top_n;
	const char *top = fc_top_reason(x, &top_n);
	char metric[96];
	double share = fc + fallbacks ?
			       (double)fallbacks / (double)(fc + fallbacks) :
			       0;

	if (!fc_on)
		return false;
	if (!(fc + fallbacks)) {
		/*
		 * a data=journal mount clears the fast-commit option (measured:
		 * no ext4_fc_stats after its full commits), and ext4_sync_file
		 * forces a full commit for journalled data
		 */
		if (x->dur.data_journal)
			finding_evidence(
				f, MN(EXT4_FC_COMMITS), 0, NAN, NAN,
				"the filesystem has fast commits, but none ran: a data=journal mount turns them off (no fast-commit cleanup followed its %llu full jbd2 commits), and an fsync of journalled data forces a full commit anyway",
				(unsigned long long)jbd2);
		return false;
	}
	finding_evidence(
		f, MN(EXT4_FC_FALLBACKS), (double)fallbacks, share,
		FC_FALLBACK_SHARE,
		"fast commits: %llu served an fsync, %llu fell back to a full jbd2 commit (%.0f%%): %llu ineligible, %llu could not start (a full commit was running)",
		(unsigned long long)fc, (unsigned long long)fallbacks,
		100 * share, (unsigned long long)ineligible,
		(unsigned long long)failed);
	snprintf(metric, sizeof(metric), "ext4.fc_fallback_reason.%s",
		 top ? top : "");
	if (top && ineligible)
		finding_evidence(
			f, metric, (double)top_n,
			(double)top_n / (double)ineligible, NAN,
			"the ineligible ones: %llu of %llu (%.0f%%) after %s (ext4.fc_fallback_reason.%s)",
			(unsigned long long)top_n,
			(unsigned long long)ineligible,
			100 * (double)top_n / (double)ineligible,
			fc_reason_text(top), top);
	if (share < FC_FALLBACK_SHARE || !top ||
	    (double)top_n < FC_FALLBACK_SHARE * (double)fallbacks)
		return false;
	finding_advice(
		f, ADVICE_WORKLOAD, NULL,
		"%.0f%% of the fsyncs fell back from a fast commit to a full jbd2 commit, %llu of them because %s: that change makes every fsync of the transaction ineligible until a full commit. Make it before the data is written and fsync once after it, or not per file",
		100 * share, (unsigned long long)top_n, fc_reason_text(top));
	return true;
}

/* the advice for a commit-bound phase, by what the commits waited for */
static void jbd2_commit_advice(const struct phase_facts *x, struct finding *f)
{
	const struct case_result *c = x->c;
	double commit_ns = fact_hist_sum(x, MN(JBD2_COMMIT_NS));
	double flushing_ns = fact_hist_sum(x, MN(JBD2_FLUSHING_NS));
	bool fc_kernel = fact_has(x, MN(EXT4_FC_COMMITS));
	bool fc_on = fact_metric(x, MN(EXT4_FC_COMMITS)) ||
		     fact_metric(x, MN(EXT4_FC_FALLBACKS)) ||
		     strstr(c->target.mkfs_cmd, "fast_commit");
	/*
	 * fast commits serve an fsync's (or an O_SYNC/O_DSYNC write's) path
	 * only, and never a data=journal inode: ext4_sync_file forces a
	 * full commit for it
	 */
	bool fc_can_serve = !x->dur.data_journal &&
			    (x->dur.source == DUR_SRC_FSYNC ||
			     x->dur.source == DUR_SRC_SYNC_WRITE);

	if (fast_commit_evidence(x, f, fc_on))
		return;
	if (!fc_on && fc_kernel && x->dur.data_journal &&
	    x->dur.source == DUR_SRC_FSYNC)
		finding_evidence(
			f, MN(EXT4_FC_COMMITS), 0, NAN, NAN,
			"fast commits would not serve these fsyncs: a data=journal mount turns them off, and an fsync of journalled data forces a full jbd2 commit (%llu of them), so -O fast_commit is not advised",
			(unsigned long long)fact_metric(x, MN(JBD2_COMMITS)));
	if (durability_source_advice(x, f))
		return;
	if (commit_ns > 0 && flushing_ns >= JOURNAL_ORDERED_SHARE * commit_ns) {
		finding_advice(
			f, ADVICE_MOUNT, "data=writeback",
			"commits wait for ordered data (%.0f%% of their time): data=writeback lets them go without it (after a crash, recently written files may show stale data)",
			100 * flushing_ns / commit_ns);
	} else if (fc_kernel && !fc_on && fc_can_serve &&
		   !strcmp(c->target.fstype, "ext4")) {
		finding_advice(
			f, ADVICE_MKFS, "-O fast_commit",
			"make the filesystem with fast commits (mkfs.ext4 -O fast_commit, or tune2fs -O fast_commit): an fsync then logs only the inode's changes instead of a full jbd2 commit. An fsync after an xattr change, a directory rename or an fallocate range operation in the same transaction still takes a full commit (--verify measures how many)");
	} else {
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"fewer durability points: one fsync per batch of files instead of per file (commit= only spaces the journal's own commits, not those fsync forces)");
	}
}

bool rule_jbd2_commit_bound(const struct phase_facts *x, struct finding *f)
{
	double wait = journal_commit_wait(x);
	uint64_t commits = fact_metric(x, MN(JBD2_COMMITS));
	double logged = (double)fact_metric(x, MN(JBD2_BLOCKS_LOGGED));
	double commit_share =
		fact_share(x, fact_hist_sum(x, MN(JBD2_COMMIT_NS)));

	if (x->fs != FS_EXT || x->too_short || wait < COMMIT_WAIT_SHARE)
		return false;
	f->severity = FINDING_WARNING;
	finding_title(f, "%s is journal-commit bound (%s)", x->p->name,
		      dur_source_name(x->dur.source));
	evidence_durability(x, f, "journal_commit");
	finding_evidence(
		f, "jbd2.commits_sync",
		(double)fact_metric(x, MN(JBD2_COMMITS_SYNC)),
		commits ? (double)fact_metric(x, MN(JBD2_COMMITS_SYNC)) /
				  (double)commits :
			  NAN,
		COMMITS_PER_SYNC,
		"%llu jbd2 commits running %.0f%% of the phase (jbd2.commit_ns) and %llu fast commits; %llu of the jbd2 commits forced by a synchronous handle (sync/dirsync mount, chattr +S/+D), %llu on the journal's own timer",
		(unsigned long long)commits, 100 * commit_share,
		(unsigned long long)fact_metric(x, MN(EXT4_FC_COMMITS)),
		(unsigned long long)fact_metric(x, MN(JBD2_COMMITS_SYNC)),
		(unsigned long long)fact_metric(x, MN(JBD2_COMMITS_TIMER)));
	if (commits)
		finding_evidence(
			f, "jbd2.blocks_logged", logged,
			logged / (double)commits, JOURNAL_SMALL_COMMIT_BLOCKS,
			"%.1f journal blocks per commit%s",
			logged / (double)commits,
			logged / (double)commits <=
					JOURNAL_SMALL_COMMIT_BLOCKS ?
				": small commits (at most 16 blocks), their fixed cost (commit block, cache flush) dominates" :
				"");
	evidence_flushes(x, f);
	jbd2_commit_advice(x, f);
	return true;
}

bool rule_jbd2_journal_full(const struct phase_facts *x, struct finding *f)
{
	double logged = (double)fact_metric(x, MN(JBD2_BLOCKS_LOGGED));
	double written =
		(double)fact_metric(x, MN(JBD2_CHECKPOINT_WRITTEN_BLOCKS));
	uint64_t cur = log_region_bytes(x->c), grown;
	double share = budget_cause_share(&x->budget, "journal_space");
	char opt[64];

	if (x->fs != FS_EXT || x->too_short)
		return false;
	if (x->budget.present) {
		if (share < LOG_SPACE_SHARE)
			return false;
		f->severity = FINDING_WARNING;
		evidence_budget(x, f, "journal_space", LOG_SPACE_SHARE);
	} else {
		if (written < JOURNAL_CHECKPOINT_MIN_BLOCKS || logged <= 0 ||
		    written < JOURNAL_CHECKPOINT_SHARE * logged)
			return false;
		/* the time it cost needs the budget: say so, do not guess */
		f->severity = FINDING_INFO;
		finding_evidence(
			f, "sched.offcpu_ns.journal_space", NAN, NAN,
			LOG_SPACE_SHARE,
			"time the workload waited for journal space: not measured (no sched time budget in this run)");
	}
	finding_title(f,
		      "%s filled the journal: checkpoints wrote metadata back",
		      x->p->name);
	finding_evidence(
		f, "jbd2.checkpoint_written_blocks", written,
		logged > 0 ? written / logged : NAN, JOURNAL_CHECKPOINT_SHARE,
		"checkpoints had to write %.0f blocks for %.0f logged (%.0f%%)",
		written, logged, logged > 0 ? 100 * written / logged : 0);
	if (cur)
		finding_evidence(f, "target.log.ranges", (double)cur, NAN, NAN,
				 "the journal is %.0f MiB", (double)cur / MiB);
	grown = log_grown_size(x->c, cur, 64ULL << 20, 1024ULL << 20);
	if (grown) {
		snprintf(opt, sizeof(opt), "-J size=%llu",
			 (unsigned long long)(grown >> 20));
		finding_advice(
			f, ADVICE_MKFS, opt,
			"make the filesystem with a larger journal (mkfs.ext4 %s, in MiB)",
			opt);
	}
	return true;
}

/*
 * btrfs: an fsync logs the inode's changes in its tree log and syncs the
 * log (btrfs_sync_log: the log's blocks, then the superblocks with a cache
 * flush and FUA); when the log cannot serve it (a rename or unlink of an
 * inode logged in this transaction, a log that is full, a transaction
 * that needs a commit) it commits the whole transaction.
 */
bool rule_btrfs_log_sync_bound(const struct phase_facts *x, struct finding *f)
{
	const struct durability_facts *d = &x->dur;
	double commits = (double)d->full_commits;
	double full = d->events ? commits / (double)d->events : 0;

	if (x->fs != FS_BTRFS || x->too_short || d->wait < COMMIT_WAIT_SHARE)
		return false;
	f->severity = FINDING_WARNING;
	finding_title(
		f, "%s waits for a btrfs %s per operation (%s)", x->p->name,
		d->bound == BOUND_JOURNAL ? "transaction commit" : "log sync",
		dur_source_name(d->source));
	evidence_durability(x, f,
			    d->bound == BOUND_JOURNAL ? "btrfs_commit" :
							"btrfs_log_sync");
	if (fact_has(x, MN(BTRFS_COMMITS_USER)))
		finding_evidence(
			f, "btrfs.transaction_commits_user", commits, full,
			BTRFS_FULL_COMMIT_SHARE,
			"%llu transaction commits in a process's own context (an fsync the tree log could not serve, or a sync), %.0f%% of the %llu fsyncs; %llu transaction commits in all",
			(unsigned long long)d->full_commits, 100 * full,
			(unsigned long long)d->events,
			(unsigned long long)fact_metric(x, MN(BTRFS_COMMITS)));
	evidence_flushes(x, f);
	if (durability_source_advice(x, f))
		return true;
	if (fact_has(x, MN(BTRFS_COMMITS_USER)) &&
	    full >= BTRFS_FULL_COMMIT_SHARE)
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"%.0f%% of the fsyncs committed the whole transaction instead of syncing the tree log: the log could not serve them (a change it cannot log, such as some renames, or a log that needs a full commit); the heaviest stacks under btrfs_commit_transaction (sched.top_stacks) show the call. Fsync before such a change, or fewer durability points",
			100 * full);
	else
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"fewer durability points: one fsync per batch of files (or per transaction of the application) instead of per file. The tree log already writes only the changed inodes: no mount or mkfs option makes one fsync cheaper (commit= spaces the transaction commits, not the log syncs an fsync waits for)");
	return true;
}
