// SPDX-License-Identifier: GPL-2.0
/*
 * The analyze stage's rules and verdicts (src/analyze/) on constructed
 * results: each rule fires on its mechanism, stays quiet on a healthy
 * phase, and its thresholds hold at their edges; the time budget, when
 * present, decides over device and CPU shares.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/analyze.h"
#include "analyze/thresholds.h"
#include "analyze_fixture.h"

struct fx {
	struct run_result run;
	struct case_result *c;
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	*state = f;
	return f ? 0 : -1;
}

/* start again with an empty run (run_result_free leaves its capacity) */
static void fx_reset(struct fx *f)
{
	run_result_free(&f->run);
	memset(&f->run, 0, sizeof(f->run));
	f->c = NULL;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	run_result_free(&f->run);
	free(f);
	return 0;
}

/* analyse and return the finding of rule in phase ph, or NULL */
static const struct finding *fired(struct fx *f, unsigned int ph,
				   const char *rule)
{
	assert_int_equal(analyze_run(&f->run), 0);
	return finding_list_find(&f->c->phases[ph].findings, rule);
}

static unsigned int warnings(const struct phase_result *p)
{
	unsigned int i, n = 0;

	for (i = 0; i < p->findings.n; i++)
		n += p->findings.v[i].severity == FINDING_WARNING;
	return n;
}

static bool evidence_says(const struct finding *f, const char *text)
{
	unsigned int i;

	for (i = 0; i < f->n_evidence; i++)
		if (strstr(f->ev[i].text, text))
			return true;
	return false;
}

/* an XFS rm-sync as measured under the hdd model: 237 full 32k iclogs */
static struct phase_result *xfs_rm_sync(struct fx *f, double log_busy)
{
	struct phase_result *p;

	f->c = fx_case(&f->run, "xfs", "xfs", 1);
	snprintf(f->c->target.super_opts, sizeof(f->c->target.super_opts),
		 "rw,inode64,logbufs=8,logbsize=32k,noquota");
	f->c->target.model.m.wiops = 150;
	p = fx_phase(f->c, "rm-sync", 2.0);
	fx_busy(p, 0.97, 7);
	/* many small data requests keep the by-request share below log_busy */
	fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_XFS_LOG, 237, 7744000, log_busy);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WRITEBACK, 2000, 8192000, 0.1);
	metric_add(&p->metrics, "xfs.log_writes", 237);
	metric_add(&p->metrics, "xfs.log_forces", 2);
	metric_add(&p->metrics, "xfs.sysfs_log_bytes", 7744000);
	fx_hist(&p->metrics, "xfs.log_write_bytes", 237, 30711);
	fx_hist(&p->metrics, "op.sync_ns", 1, 2000000000);
	return p;
}

static void xfs_log_io_bound_fires_with_logbsize_advice(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	xfs_rm_sync(f, 0.88);
	fi = fired(f, 0, "xfs-log-io-bound");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_WARNING);
	assert_int_equal(fi->advice.kind, ADVICE_MOUNT);
	assert_string_equal(fi->advice.option, "logbsize=256k");
	assert_true(evidence_says(fi, "94% full"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_LOG);
}

static void xfs_log_io_bound_threshold_edges(void **state)
{
	struct fx *f = *state;

	/* by requests: 0.97 * 237 / 2237 = 0.10; the class's own busy decides */
	xfs_rm_sync(f, LOG_IO_SHARE - 0.01);
	assert_null(fired(f, 0, "xfs-log-io-bound"));
	f->c->phases[0].block.ioclass[BLK_IOC_LOG_WRITE].busy_ns =
		(uint64_t)(LOG_IO_SHARE * 2.0 * NS) + 1;
	assert_non_null(fired(f, 0, "xfs-log-io-bound"));
}

static void
xfs_log_io_bound_counts_requests_on_a_per_request_device(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = xfs_rm_sync(f, 0.3);

	/* few other requests: log writes are 95% of the requests */
	p->block.n_io = 1;
	p->block.cls[BLK_OPC_WRITE].ios = 237;
	fx_io(p, BLK_IOC_META_WRITE, BLK_ISS_XFS_AIL, 12, 49152, 0.05);
	assert_non_null(fired(f, 0, "xfs-log-io-bound"));
}

static void xfs_log_io_bound_at_largest_logbsize_has_no_knob(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = xfs_rm_sync(f, 0.6);
	const struct finding *fi;

	snprintf(f->c->target.super_opts, sizeof(f->c->target.super_opts),
		 "rw,logbsize=256k");
	metric_set_free(&p->metrics);
	metric_add(&p->metrics, "xfs.log_writes", 34);
	metric_add(&p->metrics, "xfs.log_forces", 1);
	fx_hist(&p->metrics, "xfs.log_write_bytes", 34, 245000);
	fi = fired(f, 0, "xfs-log-io-bound");
	assert_non_null(fi);
	assert_string_equal(fi->advice.option, "");
	assert_non_null(strstr(fi->advice.text, "already at its largest"));
}

static void xfs_log_io_bound_not_when_forces_cut_the_writes(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = xfs_rm_sync(f, 0.88);

	metric_add(&p->metrics, "xfs.log_forces", 200);
	assert_null(fired(f, 0, "xfs-log-io-bound"));
}

static void xfs_log_io_bound_follows_the_budget_when_present(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = xfs_rm_sync(f, 0.88);

	/* the device was writing the log, but the workload waited elsewhere */
	fx_budget(p, 0.5, "xfs_log_force", 0.1, "read_io", 0.3);
	assert_null(fired(f, 0, "xfs-log-io-bound"));
	assert_true(f->c->phases[0].verdict.budget);
	metric_set_free(&p->metrics);
	metric_add(&p->metrics, "xfs.log_writes", 237);
	metric_add(&p->metrics, "xfs.log_forces", 2);
	fx_hist(&p->metrics, "xfs.log_write_bytes", 237, 30711);
	fx_budget(p, 0.01, "xfs_log_force", 0.95, NULL, 0);
	assert_non_null(fired(f, 0, "xfs-log-io-bound"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_LOG);
}

/* an fsync loop: one log force, one iclog write and one flush per fsync */
static struct phase_result *fsync_loop(struct fx *f, const char *fstype,
				       uint64_t fsyncs)
{
	struct phase_result *p;

	f->c = fx_case(&f->run, fstype, fstype, 1);
	p = fx_phase(f->c, "cycles", 16.0);
	snprintf(p->sync, sizeof(p->sync), "fsync");
	fx_busy(p, 0.99, 1.0);
	fx_fsyncs(p, fsyncs, 0.99);
	if (!strcmp(fstype, "xfs")) {
		fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_WORKLOAD, fsyncs,
		      fsyncs * 4096, 0.25);
		fx_io(p, BLK_IOC_FLUSH, BLK_ISS_WORKLOAD, 2 * fsyncs, 0, 0.5);
		metric_add(&p->metrics, "xfs.log_writes", fsyncs);
		metric_add(&p->metrics, "xfs.log_forces", fsyncs);
		metric_add(&p->metrics, "xfs.log_force_fsync", fsyncs);
		fx_hist(&p->metrics, "xfs.log_write_bytes", fsyncs, 896);
	} else {
		fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_JBD2, fsyncs,
		      fsyncs * 26000, 0.15);
		fx_io(p, BLK_IOC_FLUSH, BLK_ISS_JBD2, 2 * fsyncs, 0, 0.77);
		metric_add(&p->metrics, "jbd2.commits", fsyncs);
		metric_add(&p->metrics, "jbd2.blocks_logged", fsyncs * 6);
		fx_hist(&p->metrics, "jbd2.commit_ns", fsyncs,
			(uint64_t)(0.93 * 16 * NS / (double)fsyncs));
	}
	return p;
}

static void xfs_log_force_bound_fires_on_an_fsync_loop(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	fsync_loop(f, "xfs", 600);
	fi = fired(f, 0, "xfs-log-force-bound");
	assert_non_null(fi);
	assert_int_equal(fi->advice.kind, ADVICE_WORKLOAD);
	assert_null(fired(f, 0, "xfs-log-io-bound"));
	assert_null(fired(f, 0, "device-bound"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_LOG);
}

static void xfs_log_force_bound_needs_a_force_per_call(void **state)
{
	struct fx *f = *state;
	struct phase_result *p =
		fsync_loop(f, "xfs", DURABILITY_MIN_EVENTS - 1);

	assert_null(fired(f, 0, "xfs-log-force-bound"));
	/* one syncfs waiting on the whole log is not this pattern, budget or not */
	metric_set_free(&p->metrics);
	fx_fsyncs(p, 1, 0.8);
	metric_add(&p->metrics, "xfs.log_writes", 193);
	metric_add(&p->metrics, "xfs.log_forces", 1);
	fx_budget(p, 0.18, "xfs_log_force", 0.76, NULL, 0);
	assert_null(fired(f, 0, "xfs-log-force-bound"));
}

/*
 * An fsync loop on a write-through disk (make run, hdd-15k): each fsync
 * writes its data, then forces the log, 49% and 49%. One durability point:
 * log bound, whatever the buffer size (it flipped to mixed at 49.9%).
 */
static void xfs_log_force_bound_groups_the_fsyncs_own_data_writes(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = fsync_loop(f, "xfs", 400);
	const struct finding *fi;

	fx_budget(p, 0.01, "xfs_log_force", 0.49, "writeback_wait", 0.49);
	metric_add(&p->metrics, "sched.sync_data_ns",
		   (uint64_t)(0.49 * (double)p->wall_ns));
	metric_add(&p->metrics, "sched.sync_path_ns.fsync",
		   (uint64_t)(0.49 * (double)p->wall_ns));
	metric_add(&p->metrics, "sched.offcpu_count.xfs_log_force", 400);
	fi = fired(f, 0, "xfs-log-force-bound");
	assert_non_null(fi);
	assert_true(evidence_says(fi, "writing the data of the same calls"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_LOG);
}

/* one fdatasync of a big file waits for its data: not a durability point */
static void one_big_fdatasync_is_not_grouped_with_commits(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "write", 2.0);
	fx_busy(p, 0.9, 4.0);
	fx_fsyncs(p, 1, 0.6);
	metric_add(&p->metrics, "jbd2.commits", 12);
	fx_hist(&p->metrics, "jbd2.commit_ns", 12, (uint64_t)(0.01 * NS));
	fx_budget(p, 0.3, "writeback_wait", 0.6, "journal_commit", 0.1);
	metric_add(&p->metrics, "sched.sync_data_ns", (uint64_t)(0.6 * 2 * NS));
	metric_add(&p->metrics, "sched.sync_path_ns.fsync",
		   (uint64_t)(0.1 * 2 * NS));
	assert_null(fired(f, 0, "jbd2-commit-bound"));
	assert_int_not_equal(f->c->phases[0].verdict.bound, BOUND_JOURNAL);
}

static void
jbd2_commit_bound_advises_fast_commit_when_the_kernel_has_it(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = fsync_loop(f, "ext4", 600);
	const struct finding *fi;

	metric_add(&p->metrics, "ext4.fc_commits", 0);
	metric_add(&p->metrics, "ext4.fc_fallbacks", 0);
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_WARNING);
	assert_int_equal(fi->advice.kind, ADVICE_MKFS);
	assert_string_equal(fi->advice.option, "-O fast_commit");
	assert_true(evidence_says(fi, "small commits"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_JOURNAL);
}

static void jbd2_commit_bound_does_not_assume_fast_commit(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	/* no ext4.fc_commits: the kernel has no fast-commit tracepoint */
	fsync_loop(f, "ext4", 600);
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_int_equal(fi->advice.kind, ADVICE_WORKLOAD);
}

/* a fast_commit filesystem whose fsyncs fell back: the reason is the advice */
static void
jbd2_commit_bound_names_the_fast_commit_fallback_reason(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = fsync_loop(f, "ext4", 600);
	const struct finding *fi;

	metric_add(&p->metrics, "ext4.fc_commits", 10);
	metric_add(&p->metrics, "ext4.fc_fallbacks", 590);
	metric_add(&p->metrics, "ext4.fc_ineligible", 589);
	metric_add(&p->metrics, "ext4.fc_failed", 1);
	metric_add(&p->metrics, "ext4.fc_fallback_reason.xattr", 589);
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_int_equal(fi->advice.kind, ADVICE_WORKLOAD);
	assert_non_null(strstr(fi->advice.text, "extended attribute"));
	assert_true(evidence_says(fi, "589 of 589 (100%)"));
	assert_true(evidence_says(fi, "590 fell back"));
}

/* few fallbacks: the fast commits served the fsyncs, no fallback advice */
static void jbd2_commit_bound_keeps_fast_commits_that_served(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = fsync_loop(f, "ext4", 600);
	const struct finding *fi;

	metric_add(&p->metrics, "ext4.fc_commits", 590);
	metric_add(&p->metrics, "ext4.fc_fallbacks", 10);
	metric_add(&p->metrics, "ext4.fc_failed", 10);
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_int_equal(fi->advice.kind, ADVICE_WORKLOAD);
	assert_null(strstr(fi->advice.text, "fell back"));
	assert_true(evidence_says(fi, "590 served an fsync"));
}

/* a data=journal inode's fsync always takes a full commit */
static void
jbd2_commit_bound_does_not_advise_fast_commit_on_data_journal(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = fsync_loop(f, "ext4", 600);
	const struct finding *fi;

	snprintf(f->c->target.mount_opts, sizeof(f->c->target.mount_opts),
		 "rw,data=journal");
	metric_add(&p->metrics, "ext4.fc_commits", 0);
	metric_add(&p->metrics, "ext4.fc_fallbacks", 0);
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_string_not_equal(fi->advice.option, "-O fast_commit");
	assert_true(evidence_says(fi, "would not serve these fsyncs"));
}

/* btrfs: an fsync per file, asleep in btrfs_sync_log */
static struct phase_result *btrfs_fsync_loop(struct fx *f, double log_sync)
{
	struct phase_result *p;

	f->c = fx_case(&f->run, "btrfs", "btrfs", 1);
	p = fx_phase(f->c, "cycles", 1.0);
	snprintf(p->sync, sizeof(p->sync), "fsync");
	fx_busy(p, 0.66, 1.0);
	fx_fsyncs(p, 600, 0.9);
	fx_io(p, BLK_IOC_FLUSH, BLK_ISS_WORKLOAD, 1200, 0, 0.23);
	metric_add(&p->metrics, "btrfs.fsyncs", 600);
	metric_add(&p->metrics, "btrfs.transaction_commits", 1);
	metric_add(&p->metrics, "btrfs.transaction_commits_user", 1);
	metric_add(&p->metrics, "sched.offcpu_count.btrfs_log_sync", 1800);
	metric_add(&p->metrics, "sched.sync_path_ns.fsync",
		   (uint64_t)(log_sync * NS));
	fx_budget(p, 0.26, "btrfs_log_sync", log_sync, "writeback_wait",
		  0.74 - log_sync);
	return p;
}

static void btrfs_log_sync_bound_fires_on_an_fsync_loop(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	btrfs_fsync_loop(f, 0.59);
	fi = fired(f, 0, "btrfs-log-sync-bound");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_WARNING);
	assert_int_equal(fi->advice.kind, ADVICE_WORKLOAD);
	assert_non_null(strstr(fi->title, "(fsync/fdatasync calls)"));
	assert_null(fired(f, 0, "device-bound"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_LOG);
}

/* most fsyncs committed the transaction: that is the advice, not fewer */
static void btrfs_log_sync_bound_says_when_fsyncs_committed(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = btrfs_fsync_loop(f, 0.59);
	const struct finding *fi;

	/* 1 + 399 of 600 fsyncs committed in the process's own context */
	metric_add(&p->metrics, "btrfs.transaction_commits", 399);
	metric_add(&p->metrics, "btrfs.transaction_commits_user", 399);
	fi = fired(f, 0, "btrfs-log-sync-bound");
	assert_non_null(fi);
	assert_non_null(strstr(fi->advice.text, "committed the whole"));
	assert_true(evidence_says(fi, "67% of the 600 fsyncs"));
}

static void btrfs_log_sync_bound_needs_half_the_phase(void **state)
{
	struct fx *f = *state;

	btrfs_fsync_loop(f, 0.3);
	assert_null(fired(f, 0, "btrfs-log-sync-bound"));
}

static void
jbd2_commit_bound_advises_data_writeback_for_ordered_waits(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = fsync_loop(f, "ext4", 600);
	const struct finding *fi;

	fx_hist(&p->metrics, "jbd2.flushing_ns", 600,
		(uint64_t)(0.8 * 0.93 * 16 * NS / 600));
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_string_equal(fi->advice.option, "data=writeback");
}

static void jbd2_commit_bound_needs_a_commit_per_fsync(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = fsync_loop(f, "ext4", 600);

	/* 600 fsyncs, 200 commits: most fsyncs shared a commit */
	metric_set_free(&p->metrics);
	fx_fsyncs(p, 600, 0.99);
	metric_add(&p->metrics, "jbd2.commits", 200);
	fx_hist(&p->metrics, "jbd2.commit_ns", 200, (uint64_t)(0.08 * NS));
	assert_null(fired(f, 0, "jbd2-commit-bound"));
}

/*
 * A phase of n synchronous operations (issue 32): no fsync call of the
 * workload, one commit (ext4) or force (xfs) each, the workload asleep on
 * them `wait` of its time under `path` (sched.sync_path_ns.<path>)
 */
static struct phase_result *sync_ops(struct fx *f, const char *fstype,
				     const char *mount, uint64_t n,
				     const char *path, double wait)
{
	bool xfs = !strcmp(fstype, "xfs");
	struct phase_result *p;
	char name[64];

	f->c = fx_case(&f->run, fstype, fstype, 1);
	snprintf(f->c->target.mount_opts, sizeof(f->c->target.mount_opts), "%s",
		 mount);
	p = fx_phase(f->c, "write", 2.0);
	fx_busy(p, 0.8, 0.8);
	fx_hist(&p->metrics, "op.write_ns", n, 1000);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WORKLOAD, n, n * 4096, 0.2);
	fx_io(p, BLK_IOC_LOG_WRITE, xfs ? BLK_ISS_WORKLOAD : BLK_ISS_JBD2, n,
	      n * 2048, 0.2);
	fx_io(p, BLK_IOC_FLUSH, BLK_ISS_WORKLOAD, 2 * n, 0, 0.5);
	metric_add(&p->metrics, xfs ? "xfs.log_forces" : "jbd2.commits", n);
	if (xfs)
		metric_add(&p->metrics, "xfs.log_writes", n);
	fx_budget(p, 0.05, xfs ? "xfs_log_force" : "journal_commit", wait,
		  "writeback_wait", 0.9 - wait);
	snprintf(name, sizeof(name), "sched.offcpu_count.%s",
		 xfs ? "xfs_log_force" : "journal_commit");
	metric_add(&p->metrics, name, n);
	snprintf(name, sizeof(name), "sched.sync_path_ns.%s", path);
	metric_add(&p->metrics, name, (uint64_t)(wait * 2 * NS));
	return p;
}

static void o_dsync_writes_are_commit_bound_by_the_writes(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	sync_ops(f, "ext4", "", 2000, "write", 0.8);
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_WARNING);
	assert_non_null(strstr(fi->title, "(O_SYNC/O_DSYNC writes)"));
	assert_true(evidence_says(fi, "1.00 per operation (one per operation"));
	assert_int_equal(fi->advice.kind, ADVICE_WORKLOAD);
	assert_non_null(strstr(fi->advice.text, "group commits"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_JOURNAL);
	/* the durability writes are not "small requests one at a time" */
	assert_null(fired(f, 0, "device-bound"));
}

static void a_sync_mount_is_advised_away_with_its_caveat(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	sync_ops(f, "ext4", "sync", 2000, "write", 0.8);
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_non_null(strstr(fi->title, "(the synchronous mount)"));
	assert_int_equal(fi->advice.kind, ADVICE_MOUNT);
	assert_string_equal(fi->advice.option, "async");
	assert_non_null(strstr(fi->advice.text, "must then fsync"));
	run_result_free(&f->run);
	memset(&f->run, 0, sizeof(f->run));
	/* wsync has no negation: the option removes it */
	sync_ops(f, "xfs", "wsync", 800, "namespace", 0.8);
	fi = fired(f, 0, "xfs-log-force-bound");
	assert_non_null(fi);
	assert_string_equal(fi->advice.option, "-wsync");
}

/* issue 32: 49% journal_commit and 49% device_flush is one mechanism */
static void a_commits_own_cache_flushes_count_with_it(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = fsync_loop(f, "ext4", 600);
	const struct finding *fi;

	fx_budget(p, 0.02, "journal_commit", 0.49, "device_flush", 0.49);
	metric_add(&p->metrics, "sched.offcpu_count.journal_commit", 600);
	metric_add(&p->metrics, "sched.sync_path_ns.fsync",
		   (uint64_t)(0.98 * 16 * NS));
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_true(evidence_says(fi, "98% together"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_JOURNAL);
	assert_non_null(strstr(f->c->phases[0].verdict.text,
			       "are one mechanism: 98% together"));
}

static void data_journal_is_advised_back_to_ordered(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = fsync_loop(f, "ext4", 600);
	const struct finding *fi;

	snprintf(f->c->target.mount_opts, sizeof(f->c->target.mount_opts),
		 "data=journal");
	p->work.bytes = 600 * 16384; /* 26000 of journal per commit: 159% */
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_non_null(fi);
	assert_string_equal(fi->advice.option, "data=ordered");
	assert_true(evidence_says(fi, "data=journal wrote the data twice"));
	/* half of it in the journal is not yet the data twice */
	p->work.bytes = 600 * 60000;
	fi = fired(f, 0, "jbd2-commit-bound");
	assert_string_not_equal(fi->advice.option, "data=ordered");
}

/* a commit wait that is no pattern is the device's, said in numbers */
static void few_commits_count_as_device_time_in_numbers(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "write", 2.0);
	fx_busy(p, 0.9, 1.0);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WORKLOAD, 500, 500 << 20, 0.85);
	metric_add(&p->metrics, "jbd2.commits", 1);
	fx_budget(p, 0.1, "journal_commit", 0.3, "writeback_wait", 0.55);
	assert_null(fired(f, 0, "jbd2-commit-bound"));
	assert_int_equal(p->verdict.bound, BOUND_DEVICE);
	assert_non_null(
		strstr(p->verdict.text,
		       "1 commits, under the 10 of a per-operation pattern"));
	assert_null(strstr(p->verdict.text, "few"));
}

/* the longest verdicts keep their end: a short phase whose commit waits
 * count as device time (the text report cut one at "device busy 99% (p") */
static void a_long_verdict_keeps_its_short_phase_caveat(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const char *end = "too short for the shares to be reliable)";

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "rm-sync", 0.08);
	fx_busy(p, 0.99, 1.0);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WORKLOAD, 50, 50 << 20, 0.85);
	metric_add(&p->metrics, "jbd2.commits", 1);
	fx_budget(p, 0.02, "journal_commit", 0.67, "writeback_wait", 0.31);
	fired(f, 0, "jbd2-commit-bound");
	assert_int_equal(p->verdict.bound, BOUND_DEVICE);
	assert_non_null(strstr(p->verdict.text, "count as device time"));
	assert_true(strlen(p->verdict.text) > 320); /* the field held 320 */
	assert_string_equal(
		p->verdict.text + strlen(p->verdict.text) - strlen(end), end);
}

static void jbd2_journal_full_says_not_measured_without_budget(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct finding *fi;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	f->c->target.log.n = 1;
	f->c->target.log.range[0].sectors = (16 << 20) / 512;
	p = fx_phase(f->c, "extract", 20);
	metric_add(&p->metrics, "jbd2.blocks_logged", 6000);
	metric_add(&p->metrics, "jbd2.checkpoint_written_blocks", 2500);
	fi = fired(f, 0, "jbd2-journal-full");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_INFO);
	assert_true(evidence_says(fi, "not measured"));
	assert_string_equal(fi->advice.option, "-J size=64");
	/* with the budget saying it waited, a warning */
	fx_budget(p, 0.1, "journal_space", 0.4, NULL, 0);
	fi = fired(f, 0, "jbd2-journal-full");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_WARNING);
}

/* files1m create: 4 KiB writes into 1 MiB files */
static struct phase_result *ext4_create(struct fx *f, const char *opts,
					uint64_t allocs, uint64_t blocks_each)
{
	struct phase_result *p;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	snprintf(f->c->target.super_opts, sizeof(f->c->target.super_opts), "%s",
		 opts);
	p = fx_phase(f->c, "create", 10);
	fx_cpu(p, 0.55);
	fx_busy(p, 0.49, 20);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WRITEBACK, 2000, 2097152000, 0.4);
	p->work.bytes = 2097152000;
	p->work.files = 2000;
	fx_hist(&p->metrics, "op.write_ns", 512000, 10000);
	metric_add(&p->metrics, "ext4.alloc_requests", allocs);
	metric_add(&p->metrics, "ext4.da_reserves", 0);
	fx_hist(&p->metrics, "ext4.alloc_extent_blocks", allocs, blocks_each);
	return p;
}

static void
delalloc_off_fires_with_nodelalloc_and_small_allocations(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	ext4_create(f, "rw,nodelalloc", 512012, 1);
	fi = fired(f, 0, "ext4-delalloc-off");
	assert_non_null(fi);
	assert_int_equal(fi->advice.kind, ADVICE_MOUNT);
	assert_string_equal(fi->advice.option, "delalloc");
}

static void delalloc_off_quiet_with_delalloc_or_large_writes(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;

	/* O_DIRECT allocates per write with delalloc on: not this rule */
	ext4_create(f, "rw", 512012, 1);
	assert_null(fired(f, 0, "ext4-delalloc-off"));
	fx_reset(f);
	/* nodelalloc with 1 MiB writes: 256 blocks per allocation */
	p = ext4_create(f, "rw,nodelalloc", 2000, 256);
	(void)p;
	assert_null(fired(f, 0, "ext4-delalloc-off"));
	fx_reset(f);
	/* edge: just under one allocation per two writes */
	ext4_create(f, "rw,nodelalloc", 255999, 1);
	assert_null(fired(f, 0, "ext4-delalloc-off"));
}

static void delalloc_defeated_fires_on_small_flushes(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = ext4_create(f, "rw", 2000, 256);

	metric_add(&p->metrics, "ext4.da_flush_extents", 2000 * 32);
	fx_hist(&p->metrics, "ext4.da_flush_extent_blocks", 2000 * 32, 8);
	assert_non_null(fired(f, 0, "ext4-delalloc-defeated"));
	fx_reset(f);
	p = ext4_create(f, "rw", 2000, 256);
	metric_add(&p->metrics, "ext4.da_flush_extents", 2000 * 3);
	fx_hist(&p->metrics, "ext4.da_flush_extent_blocks", 2000 * 3, 8);
	assert_null(fired(f, 0, "ext4-delalloc-defeated"));
}

static void mballoc_scanning_edges_and_severity(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = ext4_create(f, "rw", 2000, 256);
	const struct finding *fi;

	metric_add(&p->metrics, "ext4.mballoc_regular", 1000);
	metric_add(&p->metrics, "ext4.mballoc_groups_scanned", 7900);
	metric_add(&p->metrics, "ext4.mballoc_cr_any_free", 240);
	assert_null(fired(f, 0, "ext4-mballoc-scanning"));
	metric_add(&p->metrics, "ext4.mballoc_groups_scanned", 100);
	fi = fired(f, 0, "ext4-mballoc-scanning");
	assert_non_null(fi);
	/* CPU 55%: the scanning is CPU the phase spends */
	assert_int_equal(fi->severity, FINDING_WARNING);
	p->sys_ns = p->wall_ns / 10;
	fi = fired(f, 0, "ext4-mballoc-scanning");
	assert_int_equal(fi->severity, FINDING_INFO);
}

static struct phase_result *throttled_writer(struct fx *f, double share)
{
	struct phase_result *p;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "write", 10);
	fx_busy(p, 0.95, 30);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WRITEBACK, 5000, 5e9, 0.95);
	metric_add(&p->metrics, "writeback.throttle_count", 1000);
	metric_add(&p->metrics, "writeback.throttle_pause_ns",
		   (uint64_t)(share * 10 * NS));
	return p;
}

static void dirty_throttled_threshold_edges(void **state)
{
	struct fx *f = *state;

	throttled_writer(f, THROTTLE_SHARE - 0.01);
	assert_null(fired(f, 0, "dirty-throttled"));
	fx_reset(f);
	throttled_writer(f, THROTTLE_SHARE + 0.01);
	assert_non_null(fired(f, 0, "dirty-throttled"));
	fx_reset(f);
	throttled_writer(f, 0.7);
	assert_non_null(fired(f, 0, "dirty-throttled"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_THROTTLE);
}

static void free_space_flush_info_then_warning_with_budget(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct finding *fi;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "write", 3);
	metric_add(&p->metrics, "writeback.work_fs_free_space", 2);
	metric_add(&p->metrics, "writeback.fs_free_space_pages", 235040);
	fi = fired(f, 0, "fs-free-space-flush");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_INFO);
	assert_true(evidence_says(fi, "not measured"));
	/* the phase syncs: its waits for writeback are its own */
	fx_budget(p, 0.2, "writeback_wait", 0.6, NULL, 0);
	fi = fired(f, 0, "fs-free-space-flush");
	assert_int_equal(fi->severity, FINDING_INFO);
	/* it does not: it waited for the flush */
	snprintf(p->sync, sizeof(p->sync), "none");
	fi = fired(f, 0, "fs-free-space-flush");
	assert_int_equal(fi->severity, FINDING_WARNING);
}

static void the_workloads_own_sleeps_are_no_bound(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;

	/* afd-like: 37% asleep by choice, 33% on locks, 30% on CPU */
	f->c = fx_case(&f->run, "xfs", "xfs", 1);
	p = fx_phase(f->c, "distribute", 1);
	fx_budget(p, 0.30, "sleep", 0.37, "rwsem", 0.33);
	assert_non_null(fired(f, 0, "lock-contention"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_LOCK);
	assert_non_null(strstr(f->c->phases[0].verdict.text, "chose to wait"));
}

static void free_space_flush_on_xfs_only_in_a_phase_without_sync(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;

	f->c = fx_case(&f->run, "xfs", "xfs", 2);
	p = fx_phase(f->c, "extract", 22);
	snprintf(p->sync, sizeof(p->sync), "none");
	metric_add(&p->metrics, "writeback.work_sync", 2);
	metric_add(&p->metrics, "writeback.sync_pages", 100019);
	p = fx_phase(f->c, "ex-sync", 4);
	metric_add(&p->metrics, "writeback.work_sync", 2);
	assert_non_null(fired(f, 0, "fs-free-space-flush"));
	assert_null(fired(f, 1, "fs-free-space-flush"));
}

static void lock_contention_needs_the_budget(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct finding *fi;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "create", 5);
	fx_cpu(p, 0.4);
	assert_null(fired(f, 0, "lock-contention"));
	metric_add(&p->metrics, "jbd2.lock_buffer_stalls", 3);
	fi = fired(f, 0, "lock-contention");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_INFO);
	assert_true(evidence_says(fi, "not measured"));
	fx_budget(p, 0.4, "rwsem", 0.5, NULL, 0);
	fi = fired(f, 0, "lock-contention");
	assert_int_equal(fi->severity, FINDING_WARNING);
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_LOCK);
}

/* seqio write on a fast device: 4 KiB writes, then one fdatasync */
static struct phase_result *healthy_write(struct fx *f)
{
	struct phase_result *p;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "write", 3.3);
	snprintf(p->sync, sizeof(p->sync), "fdatasync");
	fx_cpu(p, 0.24);
	fx_busy(p, 0.72, 6.7);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WRITEBACK, 919, 1073741824, 0.2);
	fx_io(p, BLK_IOC_FLUSH, BLK_ISS_JBD2, 2, 0, 0.51);
	fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_JBD2, 3, 77824, 0.0002);
	p->work.bytes = 1073741824;
	p->work.ops = 262144;
	p->work.files = 1;
	fx_fsyncs(p, 1, 0.54);
	fx_hist(&p->metrics, "op.write_ns", 262144, 5800);
	metric_add(&p->metrics, "jbd2.commits", 1);
	fx_hist(&p->metrics, "jbd2.commit_ns", 1, (uint64_t)(1.7 * NS));
	metric_add(&p->metrics, "ext4.alloc_requests", 30);
	metric_add(&p->metrics, "ext4.da_reserves", 262144);
	return p;
}

static void healthy_write_raises_no_warning_and_is_device_bound(void **state)
{
	struct fx *f = *state;
	struct phase_result *p = healthy_write(f);

	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(warnings(&f->c->phases[0]), 0);
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_DEVICE);
	assert_false(f->c->phases[0].verdict.budget);
	assert_non_null(strstr(f->c->phases[0].verdict.text, "busy 72%"));
	/*
	 * As measured with the budget: the fdatasync sleeps in the one jbd2
	 * commit, which waits for the cache flush: the device's time, not
	 * the journal's
	 */
	fx_budget(p, 0.40, "journal_commit", 0.44, "writeback_wait", 0.16);
	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(warnings(&f->c->phases[0]), 0);
	assert_true(f->c->phases[0].verdict.budget);
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_DEVICE);
}

static void one_log_force_without_log_io_is_not_log_bound(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;

	/* an XFS fdatasync: data writeback, then one force and its flush */
	f->c = fx_case(&f->run, "xfs", "xfs", 1);
	p = fx_phase(f->c, "write", 3);
	fx_cpu(p, 0.26);
	fx_busy(p, 0.77, 7);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WRITEBACK, 880, 1073741824, 0.23);
	fx_io(p, BLK_IOC_FLUSH, BLK_ISS_XFS_LOG, 2, 0, 0.54);
	fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_XFS_LOG, 1, 3764, 0.001);
	metric_add(&p->metrics, "xfs.log_writes", 1);
	metric_add(&p->metrics, "xfs.log_forces", 1);
	fx_fsyncs(p, 1, 0.6);
	fx_budget(p, 0.3, "xfs_log_force", 0.6, "writeback_wait", 0.1);
	assert_null(fired(f, 0, "xfs-log-io-bound"));
	assert_null(fired(f, 0, "xfs-log-force-bound"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_DEVICE);
}

static void device_bound_is_ok_unless_requests_go_one_by_one(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct finding *fi;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "remove", 13.8);
	fx_busy(p, 0.95, 1.1);
	fx_io(p, BLK_IOC_META_READ, BLK_ISS_WORKLOAD, 1957, 8015872, 0.94);
	fi = fired(f, 0, "device-bound");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_INFO);
	assert_int_equal(fi->advice.kind, ADVICE_WORKLOAD);
	f->c->phases[0].block.device.inflight_ns = 30 * p->wall_ns;
	fi = fired(f, 0, "device-bound");
	assert_int_equal(fi->severity, FINDING_OK);
	/* at 79% busy, not device bound */
	p->block.device.busy_ns = (uint64_t)(0.79 * (double)p->wall_ns);
	assert_null(fired(f, 0, "device-bound"));
}

static void cpu_bound_with_an_idle_device(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;

	f->c = fx_case(&f->run, "xfs", "xfs", 1);
	p = fx_phase(f->c, "create", 2);
	fx_cpu(p, 0.9);
	fx_busy(p, 0.15, 1);
	fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_XFS_LOG, 40, 9e6, 0.1);
	p->work.files = 200000;
	assert_non_null(fired(f, 0, "cpu-bound"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_CPU);
	p->block.device.busy_ns = (uint64_t)(0.2 * (double)p->wall_ns);
	assert_null(fired(f, 0, "cpu-bound"));
}

static void warm_reread_is_cache_bound_without_device_findings(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "read", 0.9);
	snprintf(p->sync, sizeof(p->sync), "none");
	fx_cpu(p, 0.99);
	p->work.bytes = 1073741824;
	p->work.files = 1;
	assert_non_null(fired(f, 0, "cache-bound"));
	assert_null(fired(f, 0, "cpu-bound"));
	assert_null(fired(f, 0, "device-bound"));
	assert_int_equal(warnings(&f->c->phases[0]), 0);
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_CACHE);
}

static void mixed_when_nothing_leads(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "create", 7);
	fx_cpu(p, 0.56);
	fx_busy(p, 0.42, 13);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WRITEBACK, 2000, 2e9, 0.35);
	p->work.bytes = 2000000000;
	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_MIXED);
	/* 0.5 CPU against 0.3 device: the CPU leads by 1.5x or more */
	fx_cpu(p, 0.5);
	fx_busy(p, 0.33, 13);
	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_CPU);
}

static void every_phase_gets_one_verdict(void **state)
{
	struct fx *f = *state;
	unsigned int i;

	f->c = fx_case(&f->run, "xfs", "xfs", 3);
	fx_phase(f->c, "a", 1);
	fx_phase(f->c, "b", 0.001);
	fx_phase(f->c, "c", 0);
	f->c->phases[1].block.traced = false;
	assert_int_equal(analyze_run(&f->run), 0);
	for (i = 0; i < 3; i++) {
		assert_true(f->c->phases[i].verdict.done);
		assert_true(f->c->phases[i].verdict.bound < BOUND_NR);
		assert_true(f->c->phases[i].verdict.text[0] != '\0');
	}
	assert_non_null(strstr(f->c->phases[1].verdict.text, "too short"));
}

static void spill_over_goes_to_the_phase_its_events_point_at(void **state)
{
	struct fx *f = *state;
	struct event_record e = { 0 };
	const struct finding *fi;

	f->c = fx_case(&f->run, "xfs", "xfs", 3);
	fx_phase(f->c, "extract", 20);
	fx_phase(f->c, "ex-sync", 4);
	fx_phase(f->c, "remove", 10);
	f->c->phases[0].block.device.busy_ns = (uint64_t)(18 * NS);
	f->c->spill.block.traced = true;
	f->c->spill.block.device.busy_ns = (uint64_t)(200 * NS);
	f->c->spill.block.cls[BLK_OPC_READ].ios = 34000;
	f->c->spill.block.cls[BLK_OPC_READ].bytes = 468000000;
	/* between ex-sync and remove: the verify walk reading back */
	e.phase = 0;
	e.t_ns = f->c->phases[1].end_mono_ns + 1000;
	event_list_add(&f->c->events, &e);
	fi = fired(f, 2, "spill-over");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_INFO);
	assert_true(evidence_says(fi, "more read than written"));
	assert_true(evidence_says(fi, "just before remove"));
	assert_null(fired(f, 1, "spill-over"));
	/* writes there: left behind by ex-sync, missing from its time */
	f->c->spill.block.cls[BLK_OPC_WRITE].bytes = 900000000;
	fi = fired(f, 1, "spill-over");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_WARNING);
	/* little of it: nothing */
	f->c->spill.block.device.busy_ns = (uint64_t)(0.2 * NS);
	assert_null(fired(f, 1, "spill-over"));
}

/*
 * A cache flush reaches the throttled device as an empty write and costs a
 * write IO: 100 writes and 100 flushes a second break a limit of 150.
 */
static void a_cache_flush_counts_as_a_write_against_the_model(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct finding *fi;

	f->c = fx_case(&f->run, "xfs", "xfs", 2);
	f->c->target.model.m.wiops = 150;
	p = fx_phase(f->c, "cycles", 2);
	p->block.cls[BLK_OPC_WRITE].ios = 2 * 100;
	p->block.cls[BLK_OPC_FLUSH].ios = 2 * 100;
	p = fx_phase(f->c, "held", 2);
	p->block.cls[BLK_OPC_WRITE].ios = 2 * 75;
	p->block.cls[BLK_OPC_FLUSH].ios = 2 * 75;
	fi = fired(f, 0, "throttle-not-held");
	assert_non_null(fi);
	assert_null(fired(f, 1, "throttle-not-held"));
}

static void caveats_are_info(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct finding *fi;

	f->c = fx_case(&f->run, "xfs", "xfs", 2);
	f->c->target.model.m.wiops = 150;
	f->c->data_bytes = 1 << 30;
	p = fx_phase(f->c, "create", 2);
	p->block.cls[BLK_OPC_WRITE].ios = 2 * 150 * 2;
	p->block.inflight_at_end = 2;
	p->work.bytes = 1 << 30;
	p = fx_phase(f->c, "remove", 0.4);
	p->block.cls[BLK_OPC_WRITE].ios = (uint64_t)(0.4 * 160);
	fi = fired(f, 0, "throttle-not-held");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_INFO);
	assert_null(fired(f, 1, "throttle-not-held"));
	assert_non_null(fired(f, 0, "size-lt-2x-ram"));
	assert_non_null(fired(f, 0, "inflight-at-end"));
	assert_null(fired(f, 0, "short-phase"));
	assert_non_null(fired(f, 1, "short-phase"));
	assert_int_equal(warnings(&f->c->phases[0]), 0);
	/* a phase that dropped its caches read from the device: no caveat */
	snprintf(f->c->phases[0].cache, sizeof(f->c->phases[0].cache),
		 "dropped");
	assert_null(fired(f, 0, "size-lt-2x-ram"));
}

/* a case of many short phases is told once, at its first, naming each */
static void short_phases_are_one_caveat_at_the_first(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	f->c = fx_case(&f->run, "ext4", "ext4", 2);
	fx_phase(f->c, "create", 2);
	fx_phase(f->c, "stat", 0.2);
	fx_phase(f->c, "read", 3);
	fx_phase(f->c, "remove", 0.3);
	assert_null(fired(f, 0, "short-phase"));
	fi = fired(f, 1, "short-phase");
	assert_non_null(fi);
	assert_string_equal(
		fi->title,
		"2 of the case's 4 phases are too short to trust, stat the first");
	assert_int_equal(fi->n_evidence, 2);
	assert_non_null(strstr(fi->ev[0].text, "stat: 0.200 s"));
	assert_non_null(strstr(fi->ev[1].text, "remove: 0.300 s"));
	assert_null(fired(f, 2, "short-phase"));
	assert_null(fired(f, 3, "short-phase"));
}

static void findings_are_sorted_warnings_first(void **state)
{
	struct fx *f = *state;
	const struct finding_list *l;
	unsigned int i;

	xfs_rm_sync(f, 0.88);
	f->c->phases[0].wall_ns = (uint64_t)(0.45 * NS);
	assert_int_equal(analyze_run(&f->run), 0);
	l = &f->c->phases[0].findings;
	assert_true(l->n >= 2);
	for (i = 1; i < l->n; i++)
		assert_true(l->v[i - 1].severity >= l->v[i].severity);
}

/* two targets, one phase each, walls and log-write busy time given */
static void two_targets(struct fx *f, double wall_a, double log_a,
			double wall_b, double log_b, unsigned int repeats)
{
	unsigned int r;

	for (r = 0; r < repeats; r++) {
		struct case_result *a = fx_case(&f->run, "xfs", "xfs", 1);
		struct case_result *b = fx_case(&f->run, "ext4", "ext4", 1);
		struct phase_result *p;
		double jitter = 1 + 0.01 * r;

		p = fx_phase(a, "rm-sync", wall_a * jitter);
		fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_XFS_LOG, 237, 7.7e6,
		      log_a / wall_a);
		p = fx_phase(b, "rm-sync", wall_b * jitter);
		fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_JBD2, 7, 2.9e6,
		      log_b / wall_b);
		a->phases[0].work.files = 0;
		a->repeat = b->repeat = r + 1;
	}
	f->c = &f->run.cases[0];
}

static void target_difference_names_the_grown_resource(void **state)
{
	struct fx *f = *state;
	const struct comparison *cmp;
	const struct finding *fi;

	two_targets(f, 2.0, 1.79, 0.3, 0.11, 1);
	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(f->run.comparisons.n, 1);
	cmp = &f->run.comparisons.v[0];
	assert_int_equal(cmp->n_targets, 2);
	fi = finding_list_find(&cmp->findings, "target-difference");
	assert_non_null(fi);
	assert_non_null(strstr(fi->title, "xfs takes 6.7x as long as ext4"));
	assert_true(evidence_says(fi, "log_write time"));
	assert_true(evidence_says(fi, "33.9x the log_write requests"));
}

static void target_difference_respects_the_noise(void **state)
{
	struct fx *f = *state;

	/* 15% apart in one run each: within a single run's noise */
	two_targets(f, 1.15, 0.5, 1.0, 0.4, 1);
	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(f->run.comparisons.v[0].findings.n, 0);
	fx_reset(f);
	/* 15% apart with 3 tight repeats each: the intervals separate */
	two_targets(f, 1.15, 0.5, 1.0, 0.4, 3);
	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(f->run.comparisons.v[0].findings.n, 1);
	fx_reset(f);
	/* too short on every target */
	two_targets(f, 0.4, 0.3, 0.1, 0.05, 1);
	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(f->run.comparisons.v[0].findings.n, 0);
}

/* the sum of the signed parts after "over T:" in "... +5.22 s, ... -2.54 s" */
static double parts_sum(const char *text)
{
	const char *p = strchr(text, ':');
	double sum = 0;

	while (p && *p) {
		p += strcspn(p, "+-");
		if (!*p)
			break;
		sum += strtod(p, (char **)&p);
	}
	return sum;
}

/* afd-like: 9 processes, their budget mostly locks on the slower target */
static void two_targets_budget(struct fx *f, double wall_a, double lock_a,
			       double wall_b, double lock_b, double flush_a)
{
	struct case_result *a = fx_case(&f->run, "xfs", "xfs", 1);
	struct case_result *b = fx_case(&f->run, "ext4", "ext4", 1);
	struct phase_result *p;

	p = fx_phase(a, "distribute", wall_a);
	fx_io(p, BLK_IOC_FLUSH, BLK_ISS_WORKLOAD, 134, 0, flush_a / wall_a);
	fx_budget(p, 0.2, "rwsem", lock_a, "runqueue", 0.3);
	p = fx_phase(b, "distribute", wall_b);
	fx_io(p, BLK_IOC_FLUSH, BLK_ISS_WORKLOAD, 2, 0, 0.001);
	fx_budget(p, 0.2, "rwsem", lock_b, "runqueue", 0.3);
	f->c = a;
}

static void
target_difference_names_the_budget_cause_that_explains_it(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	/* flush +0.21 s of +1.14 s; rwsem 0.33 x 4.09 - 0.19 x 2.95 = +0.79 s */
	two_targets_budget(f, 4.09, 0.33, 2.95, 0.19, 0.21);
	assert_int_equal(analyze_run(&f->run), 0);
	fi = finding_list_find(&f->run.comparisons.v[0].findings,
			       "target-difference");
	assert_non_null(fi);
	assert_true(fi->n_evidence >= 3);
	assert_non_null(strstr(fi->ev[1].text, "lock waits +0.79 s"));
	assert_true(fabs(parts_sum(fi->ev[1].text) - 1.14) <= 0.025);
	assert_true(fi->ev[1].share >= COMPARE_EXPLAINED_SHARE);
	assert_non_null(strstr(fi->ev[2].text, "flush time"));
	assert_non_null(strstr(fi->mechanism, "locks"));
	assert_false(evidence_says(fi, "no measured resource"));
}

static void target_difference_says_when_nothing_explains_it(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	/* the same lock share on both: neither flushes nor locks explain */
	two_targets_budget(f, 4.09, 0.2, 2.95, 0.2 * 4.09 / 2.95, 0.21);
	assert_int_equal(analyze_run(&f->run), 0);
	fi = finding_list_find(&f->run.comparisons.v[0].findings,
			       "target-difference");
	assert_non_null(fi);
	assert_true(evidence_says(fi, "no measured resource explains"));
	assert_null(strstr(fi->mechanism, "The slower target issues more"));
	/* without a budget on one target, the budget is not compared */
	fx_reset(f);
	two_targets_budget(f, 4.09, 0.33, 2.95, 0.19, 0.21);
	metric_set_free(&f->run.cases[1].phases[0].metrics);
	assert_int_equal(analyze_run(&f->run), 0);
	fi = finding_list_find(&f->run.comparisons.v[0].findings,
			       "target-difference");
	assert_non_null(fi);
	assert_false(evidence_says(fi, "rwsem"));
	assert_true(evidence_says(fi, "no measured resource explains"));
}

/* an fsync loop: ext4 sleeps in journal_commit, xfs in xfs_log_force */
static void target_difference_compares_commits_with_log_forces(void **state)
{
	struct fx *f = *state;
	struct case_result *a = fx_case(&f->run, "ext4", "ext4", 1);
	struct case_result *b = fx_case(&f->run, "xfs", "xfs", 1);
	const struct finding *fi;
	struct phase_result *p;

	p = fx_phase(a, "cycles", 13.3);
	fx_budget(p, 0.01, "journal_commit", 0.99, NULL, 0);
	p = fx_phase(b, "cycles", 10.6);
	fx_budget(p, 0.01, "xfs_log_force", 0.75, "writeback_wait", 0.24);
	f->c = a;
	assert_int_equal(analyze_run(&f->run), 0);
	fi = finding_list_find(&f->run.comparisons.v[0].findings,
			       "target-difference");
	assert_non_null(fi);
	/* 13.17 - 7.95 s, not the 13.17 s of a cause xfs does not have */
	assert_true(evidence_says(fi, "journal and log waits +5.22 s"));
	/* signed parts that add up to the difference, to their rounding */
	assert_true(fabs(parts_sum(fi->ev[1].text) - 2.70) <= 0.015);
	assert_non_null(strstr(fi->ev[1].text, "device waits -2.54 s"));
}

/*
 * mdcreate create on xfs under the hdd model: a third on the CPU creating
 * files, then a syncfs waiting for 193 full iclogs: log writes 48% of the
 * phase but 86% of the device's busy time (90% of its requests), the
 * workload 53% in xfs_log_force
 */
static struct phase_result *xfs_create_then_sync(struct fx *f, double data)
{
	struct phase_result *p;

	f->c = fx_case(&f->run, "xfs", "xfs", 1);
	snprintf(f->c->target.super_opts, sizeof(f->c->target.super_opts),
		 "rw,inode64,logbufs=8,logbsize=32k,noquota");
	f->c->target.model.m.wiops = 150;
	p = fx_phase(f->c, "create", 2.49);
	p->work.files = 20000;
	fx_cpu(p, 0.30);
	fx_busy(p, 0.56, 1.1);
	fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_XFS_LOG, 193, 6313472, 0.48);
	fx_io(p, BLK_IOC_META_READ, BLK_ISS_WORKLOAD, 22, 90112, 0.04);
	if (data > 0)
		fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WRITEBACK, 2000, 8192000,
		      data);
	metric_add(&p->metrics, "xfs.log_writes", 193);
	metric_add(&p->metrics, "xfs.log_forces", 1);
	metric_add(&p->metrics, "xfs.sysfs_log_bytes", 6313472);
	fx_hist(&p->metrics, "xfs.log_write_bytes", 193, 30709);
	fx_hist(&p->metrics, "op.sync_ns", 1, 1300000000);
	fx_budget(p, 0.31, "xfs_log_force", 0.53, "runqueue", 0.06);
	return p;
}

static void xfs_log_io_bound_when_log_writes_are_the_devices_work(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	xfs_create_then_sync(f, 0);
	fi = fired(f, 0, "xfs-log-io-bound");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_WARNING);
	assert_string_equal(fi->advice.option, "logbsize=256k");
	assert_true(evidence_says(fi, "90% of the device's work"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_LOG);
	/* the same waits while the device mostly wrote data: not the log's */
	fx_reset(f);
	xfs_create_then_sync(f, 0.9);
	f->c->phases[0].block.device.busy_ns = (uint64_t)(0.95 * 2.49 * NS);
	f->c->phases[0].block.ioclass[BLK_IOC_LOG_WRITE].busy_ns =
		(uint64_t)(0.2 * 2.49 * NS);
	assert_null(fired(f, 0, "xfs-log-io-bound"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_DEVICE);
}

/* rm -rf on xfs: one thread, asleep on buffers xfsaild and the log hold */
static void lock_contention_of_one_thread_advises_no_spreading(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct finding *fi;

	f->c = fx_case(&f->run, "xfs", "xfs", 1);
	p = fx_phase(f->c, "remove", 2.2);
	fx_cpu(p, 0.05);
	fx_budget(p, 0.05, "xfs_buf_lock", 0.44, "read_io", 0.44);
	metric_add(&p->metrics, "sched.tasks", 1);
	fi = fired(f, 0, "lock-contention");
	assert_non_null(fi);
	assert_int_equal(fi->advice.kind, ADVICE_NONE);
	assert_true(evidence_says(fi, "one thread"));
	assert_null(strstr(fi->advice.text, "more directories"));
	/* four threads on XFS buffer locks: allocation groups */
	metric_set_free(&p->metrics);
	fx_budget(p, 0.05, "xfs_buf_lock", 0.44, "read_io", 0.44);
	metric_add(&p->metrics, "sched.tasks", 4);
	fi = fired(f, 0, "lock-contention");
	assert_non_null(fi);
	assert_int_equal(fi->advice.kind, ADVICE_WORKLOAD);
	assert_non_null(strstr(fi->advice.text, "allocation groups"));
}

/* an ex-sync whose budget lost its stacks: 97% busy, 95% no_stack */
static void verdict_falls_back_when_the_budget_cannot_say(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct phase_verdict *v;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "ex-sync", 8);
	fx_busy(p, 0.97, 4.8);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WRITEBACK, 1200, 160e6, 0.94);
	fx_budget(p, 0.01, "no_stack", 0.95, "writeback_wait", 0.04);
	assert_int_equal(analyze_run(&f->run), 0);
	v = &f->c->phases[0].verdict;
	assert_int_equal(v->bound, BOUND_DEVICE);
	assert_false(v->budget);
	assert_non_null(strstr(v->text, "could not say where 95%"));
	/* under half unattributed: the budget decides */
	fx_reset(f);
	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "ex-sync", 8);
	fx_busy(p, 0.97, 4.8);
	fx_budget(p, 0.01, "no_stack", 0.4, "writeback_wait", 0.59);
	assert_int_equal(analyze_run(&f->run), 0);
	v = &f->c->phases[0].verdict;
	assert_int_equal(v->bound, BOUND_DEVICE);
	assert_true(v->budget);
}

/*
 * A CPU-bound phase on a busy VM host: 35% on CPU, 45% asleep on reads,
 * 20% of its time the hypervisor ran something else on its vCPU
 */
static void stolen_time_is_cpu_time_and_a_caveat_from_5_percent(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct phase_verdict *v;
	const struct finding *fi;
	double wall;

	f->c = fx_case(&f->run, "ext4", "ext4", 1);
	p = fx_phase(f->c, "read", 2);
	wall = (double)p->wall_ns;
	metric_add(&p->metrics, "sched.wall_ns", p->wall_ns);
	metric_add(&p->metrics, "sched.oncpu_ns", (uint64_t)(0.35 * wall));
	metric_add(&p->metrics, "sched.offcpu_ns.read_io",
		   (uint64_t)(0.45 * wall));
	metric_add(&p->metrics, "sched.stolen_ns", (uint64_t)(0.20 * wall));
	fi = fired(f, 0, "cpu-stolen");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_INFO);
	assert_true(evidence_says(fi, "400.0 ms of the phase's 2000.0 ms"));
	v = &f->c->phases[0].verdict;
	assert_true(v->budget);
	/* waiting for its vCPU is waiting for a CPU: 35% + 20% */
	assert_int_equal(v->bound, BOUND_CPU);
	assert_non_null(strstr(v->text, "stolen 20%"));
	assert_int_equal(warnings(&f->c->phases[0]), 0);

	/* at the threshold's edges */
	fx_reset(f);
	f->c = fx_case(&f->run, "ext4", "ext4", 2);
	p = fx_phase(f->c, "a", 2);
	metric_add(&p->metrics, "sched.stolen_ns",
		   (uint64_t)(STOLEN_SHARE * (double)p->wall_ns));
	p = fx_phase(f->c, "b", 2);
	metric_add(&p->metrics, "sched.stolen_ns",
		   (uint64_t)(STOLEN_SHARE * (double)p->wall_ns) - 1000);
	assert_non_null(fired(f, 0, "cpu-stolen"));
	assert_null(fired(f, 1, "cpu-stolen"));
}

/* 4 KiB O_DIRECT writes one at a time: busy 70%, asleep on them 84% */
static void
device_bound_from_the_budget_when_requests_go_one_by_one(void **state)
{
	struct fx *f = *state;
	struct phase_result *p;
	const struct finding *fi;

	f->c = fx_case(&f->run, "xfs", "xfs", 1);
	p = fx_phase(f->c, "write", 26.9);
	fx_busy(p, 0.70, 0.7);
	fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WORKLOAD, 65536, 268435456, 0.70);
	fx_cpu(p, 0.15);
	assert_null(fired(f, 0, "device-bound"));
	fx_budget(p, 0.15, "direct_io", 0.84, NULL, 0);
	fi = fired(f, 0, "device-bound");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_INFO);
	assert_int_equal(fi->advice.kind, ADVICE_WORKLOAD);
	assert_true(evidence_says(fi, "waiting for the device"));
	assert_int_equal(f->c->phases[0].verdict.bound, BOUND_DEVICE);
	/* the waits were for another disk while this one idled */
	fx_busy(p, 0.3, 0.3);
	assert_null(fired(f, 0, "device-bound"));
}

static void reanalysing_replaces_earlier_findings(void **state)
{
	struct fx *f = *state;

	xfs_rm_sync(f, 0.88);
	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(analyze_run(&f->run), 0);
	assert_int_equal(warnings(&f->c->phases[0]), 1);
}

/* a sleep stack of the time budget, innermost frame first */
static void fx_stack(struct phase_result *p, const char *cause, double share,
		     const char *const *frames)
{
	struct stack_record *r = &p->sched_stacks.v[p->sched_stacks.n++];

	snprintf(r->cause, sizeof(r->cause), "%s", cause);
	r->count = 300;
	r->total_ns = (uint64_t)(share * (double)p->wall_ns);
	for (; *frames && r->n_frames < STACK_MAX_FRAMES; frames++)
		snprintf(r->frame[r->n_frames++], STACK_FRAME_LEN, "%s",
			 *frames);
}

/* an ext3 rm -rf of 300 files, cold, as measured under the hdd model */
static struct phase_result *cold_remove(struct fx *f, const char *fstype,
					double wait, double meta_busy)
{
	static const char *const unlink_stack[] = {
		"schedule+0x23",
		"io_schedule+0x3f",
		"ext4_read_bh+0xa2",
		"ext4_free_branches+0x169",
		"ext4_ind_truncate+0x201",
		"ext4_evict_inode+0x296",
		"evict+0x135",
		"do_unlinkat+0x2a2",
		NULL,
	};
	struct phase_result *p;

	f->c = fx_case(&f->run, fstype, fstype, 1);
	p = fx_phase(f->c, "remove", 2.0);
	snprintf(p->cache, sizeof(p->cache), "cold");
	p->work.files = 300;
	fx_busy(p, 0.98, 1);
	fx_io(p, BLK_IOC_META_READ, BLK_ISS_OTHER, 307, 307 * 4096, meta_busy);
	/* the rest on the CPU: a budget that says where all of it went */
	fx_budget(p, 1 - wait, "read_io", wait, NULL, 0);
	fx_stack(p, "read_io", wait, unlink_stack);
	return p;
}

static void metadata_read_bound_on_a_cold_ext3_delete_advises_ext4(void **state)
{
	struct fx *f = *state;
	const struct finding *fi;

	cold_remove(f, "ext3", 0.99, 0.98);
	fi = fired(f, 0, "metadata-read-bound");
	assert_non_null(fi);
	assert_int_equal(fi->severity, FINDING_WARNING);
	assert_int_equal(fi->advice.kind, ADVICE_FSTYPE);
	assert_string_equal(fi->advice.option, "ext4");
	assert_non_null(strstr(fi->title, "indirect blocks"));
	assert_true(evidence_says(fi, "1.02 per file"));
	assert_true(evidence_says(fi, "under ext4_free_branches ("));
	assert_non_null(strstr(fi->mechanism, "extent"));
}

static void metadata_read_bound_threshold_edges(void **state)
{
	struct fx *f = *state;

	cold_remove(f, "ext3", META_READ_WAIT_SHARE - 0.01, 0.98);
	assert_null(fired(f, 0, "metadata-read-bound"));
	fx_reset(f);
	cold_remove(f, "ext3", META_READ_WAIT_SHARE + 0.01, 0.98);
	assert_non_null(fired(f, 0, "metadata-read-bound"));
	/* the reads were mostly not metadata: the device did something else */
	fx_reset(f);
	cold_remove(f, "ext3", 0.99, 0.98 * META_READ_DEV_SHARE - 0.01);
	assert_null(fired(f, 0, "metadata-read-bound"));
	/* reads shared by files (inode tables, bitmaps): a cold cache's
	 * price, info; a block per file: the format's, a warning */
	fx_reset(f);
	cold_remove(f, "ext3", 0.99, 0.98)->work.files =
		(uint64_t)(307 / META_READ_PER_FILE_WARN) + 1;
	assert_int_equal(fired(f, 0, "metadata-read-bound")->severity,
			 FINDING_INFO);
	fx_reset(f);
	cold_remove(f, "ext3", 0.99, 0.98)->work.files =
		(uint64_t)(307 / META_READ_PER_FILE_WARN);
	assert_int_equal(fired(f, 0, "metadata-read-bound")->severity,
			 FINDING_WARNING);
	/* an indirect-mapped ext4 (no extents): rewrite, no other type */
	fx_reset(f);
	cold_remove(f, "ext4", 0.99, 0.98);
	assert_int_equal(fired(f, 0, "metadata-read-bound")->advice.kind,
			 ADVICE_WORKLOAD);
}

static void metadata_read_bound_not_for_data_reads(void **state)
{
	static const char *const data_stack[] = {
		"schedule+0x23",
		"io_schedule+0x3f",
		"filemap_read+0x111",
		"vfs_read+0x2a4",
		NULL,
	};
	struct fx *f = *state;
	struct phase_result *p;

	f->c = fx_case(&f->run, "ext3", "ext3", 1);
	p = fx_phase(f->c, "read", 4.0);
	p->work.files = 300;
	fx_busy(p, 0.98, 1);
	fx_io(p, BLK_IOC_META_READ, BLK_ISS_OTHER, 300, 300 * 4096, 0.6);
	fx_budget(p, 0.01, "read_io", 0.98, NULL, 0);
	fx_stack(p, "read_io", 0.98, data_stack);
	assert_null(fired(f, 0, "metadata-read-bound"));
}

static void every_rule_has_an_id_domain_and_mechanism(void **state)
{
	unsigned int i, j;

	(void)state;
	assert_true(analyze_rule_count() >= 20);
	for (i = 0; i < analyze_rule_count(); i++) {
		assert_non_null(analyze_rule_id(i));
		for (j = 0; j < i; j++)
			assert_string_not_equal(analyze_rule_id(i),
						analyze_rule_id(j));
	}
	assert_null(analyze_rule_id(analyze_rule_count()));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(xfs_log_io_bound_fires_with_logbsize_advice),
		T(xfs_log_io_bound_threshold_edges),
		T(xfs_log_io_bound_counts_requests_on_a_per_request_device),
		T(xfs_log_io_bound_at_largest_logbsize_has_no_knob),
		T(xfs_log_io_bound_not_when_forces_cut_the_writes),
		T(xfs_log_io_bound_follows_the_budget_when_present),
		T(xfs_log_force_bound_fires_on_an_fsync_loop),
		T(xfs_log_force_bound_needs_a_force_per_call),
		T(jbd2_commit_bound_advises_fast_commit_when_the_kernel_has_it),
		T(jbd2_commit_bound_does_not_assume_fast_commit),
		T(jbd2_commit_bound_names_the_fast_commit_fallback_reason),
		T(xfs_log_force_bound_groups_the_fsyncs_own_data_writes),
		T(one_big_fdatasync_is_not_grouped_with_commits),
		T(jbd2_commit_bound_keeps_fast_commits_that_served),
		T(jbd2_commit_bound_does_not_advise_fast_commit_on_data_journal),
		T(btrfs_log_sync_bound_fires_on_an_fsync_loop),
		T(btrfs_log_sync_bound_needs_half_the_phase),
		T(btrfs_log_sync_bound_says_when_fsyncs_committed),
		T(jbd2_commit_bound_advises_data_writeback_for_ordered_waits),
		T(jbd2_commit_bound_needs_a_commit_per_fsync),
		T(o_dsync_writes_are_commit_bound_by_the_writes),
		T(a_sync_mount_is_advised_away_with_its_caveat),
		T(a_commits_own_cache_flushes_count_with_it),
		T(data_journal_is_advised_back_to_ordered),
		T(few_commits_count_as_device_time_in_numbers),
		T(a_long_verdict_keeps_its_short_phase_caveat),
		T(jbd2_journal_full_says_not_measured_without_budget),
		T(delalloc_off_fires_with_nodelalloc_and_small_allocations),
		T(delalloc_off_quiet_with_delalloc_or_large_writes),
		T(delalloc_defeated_fires_on_small_flushes),
		T(mballoc_scanning_edges_and_severity),
		T(dirty_throttled_threshold_edges),
		T(free_space_flush_info_then_warning_with_budget),
		T(free_space_flush_on_xfs_only_in_a_phase_without_sync),
		T(lock_contention_needs_the_budget),
		T(the_workloads_own_sleeps_are_no_bound),
		T(healthy_write_raises_no_warning_and_is_device_bound),
		T(one_log_force_without_log_io_is_not_log_bound),
		T(device_bound_is_ok_unless_requests_go_one_by_one),
		T(cpu_bound_with_an_idle_device),
		T(warm_reread_is_cache_bound_without_device_findings),
		T(mixed_when_nothing_leads),
		T(every_phase_gets_one_verdict),
		T(spill_over_goes_to_the_phase_its_events_point_at),
		T(caveats_are_info),
		T(a_cache_flush_counts_as_a_write_against_the_model),
		T(short_phases_are_one_caveat_at_the_first),
		T(findings_are_sorted_warnings_first),
		T(target_difference_names_the_grown_resource),
		T(target_difference_respects_the_noise),
		T(target_difference_names_the_budget_cause_that_explains_it),
		T(target_difference_says_when_nothing_explains_it),
		T(target_difference_compares_commits_with_log_forces),
		T(verdict_falls_back_when_the_budget_cannot_say),
		T(stolen_time_is_cpu_time_and_a_caveat_from_5_percent),
		T(lock_contention_of_one_thread_advises_no_spreading),
		T(xfs_log_io_bound_when_log_writes_are_the_devices_work),
		T(device_bound_from_the_budget_when_requests_go_one_by_one),
		T(reanalysing_replaces_earlier_findings),
		T(metadata_read_bound_on_a_cold_ext3_delete_advises_ext4),
		T(metadata_read_bound_threshold_edges),
		T(metadata_read_bound_not_for_data_reads),
		cmocka_unit_test(every_rule_has_an_id_domain_and_mechanism),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
