/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Derived metrics of one phase, read from the results model only: shares
 * of the phase's time (device busy, per IO class, CPU, durability calls,
 * dirty throttling), and the time budget of the sched domain when it ran.
 * The verdict and every rule read these instead of recomputing them.
 */
#ifndef FSPROF_ANALYZE_FACTS_H
#define FSPROF_ANALYZE_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "results/results.h"

enum fs_family { FS_OTHER, FS_EXT, FS_XFS, FS_BTRFS };

#define BUDGET_MAX_CAUSES 24

/*
 * Where the workload's threads spent the phase (sched domain, issue 10):
 * sched.oncpu_ns, sched.offcpu_ns.<cause>, sched.unaccounted_ns. total_ns
 * is their sum (thread time; the wall time for one thread) without the
 * time the workload chose to wait (idle_ns: its own sleeps, a parent
 * waiting for its children, who are counted themselves).
 */
struct time_budget {
	bool present;
	/*
	 * measured, but at least BUDGET_UNATTRIBUTED_MAX of it went to no
	 * known cause (unattributed_ns): no cause can reach a majority, so
	 * the verdict and every majority test (commit or force waits, log
	 * waits, on-CPU share) fall back to device and CPU shares; rules on
	 * one named cause's smaller share (locks, throttling, log space)
	 * still read it, a lower bound
	 */
	bool unusable;
	double unattributed_ns;
	double total_ns;
	double idle_ns;
	double oncpu_ns;
	double unaccounted_ns;
	unsigned int n;
	struct {
		char cause[32];
		double ns;
	} off[BUDGET_MAX_CAUSES];
};

/*
 * Who asked for the phase's journal commits or log forces (issue 32): read
 * from the stacks the workload slept on (sched.sync_path_ns.*), the mount
 * options and, without the time budget, the jbd2/XFS counters.
 */
enum dur_source {
	DUR_SRC_NONE,
	DUR_SRC_FSYNC, /* the workload's fsync/fdatasync calls */
	DUR_SRC_SYNC_WRITE, /* O_SYNC/O_DSYNC writes (or chattr +S files) */
	DUR_SRC_SYNC_MOUNT, /* a sync, dirsync or wsync mount */
	DUR_SRC_SYNC_DIR, /* namespace ops in chattr +D/+S directories */
	DUR_SRC_SYNCFS, /* sync/syncfs calls */
	DUR_SRC_KERNEL, /* the journal's timer, log worker, AIL, log space */
	DUR_SRC_NR,
};

/* "fsync calls", "O_SYNC/O_DSYNC writes", ... */
const char *dur_source_name(enum dur_source s);

/* the sched paths the durability waits were asked by (sched_causes.h) */
enum dur_path {
	DUR_PATH_WRITE,
	DUR_PATH_FSYNC,
	DUR_PATH_SYNCFS,
	DUR_PATH_NAMESPACE,
	DUR_PATH_OTHER,
	DUR_PATH_NR,
};

struct durability_facts {
	/*
	 * commits (ext3/4), log forces (xfs), or the fsyncs btrfs served
	 * (each a tree-log sync or a transaction commit) the phase ran
	 */
	uint64_t events;
	const char *events_what; /* "commits", "log forces", ... */
	/*
	 * the bound its waits make: BOUND_JOURNAL for commits (ext3/4, btrfs
	 * transaction commits), BOUND_LOG for logs (xfs, btrfs's tree log)
	 */
	enum bound_kind bound;
	/* btrfs: the fsyncs that committed the transaction themselves */
	uint64_t full_commits;
	/*
	 * the operations they served: the workload's writes, creates,
	 * unlinks, renames, mkdirs and rmdirs; without workload counts
	 * (fsprof trace) the device's data write requests
	 */
	uint64_t ops;
	const char *ops_what; /* what ops counts, for the evidence */
	double per_op; /* events / ops (NAN without ops) */
	/* at least DURABILITY_MIN_EVENTS events: a pattern, not one sync */
	bool pattern;
	/*
	 * the share of the phase the workload waited for them: commit or
	 * force waits, plus the cache flushes of the same durability points
	 * (grouped: flush_share)
	 */
	double wait;
	double commit_share, flush_share;
	/*
	 * the same durability points' own data writeback (writeback_wait
	 * under an fsync or an O_*SYNC write: sched.sync_data_ns), grouped
	 * when the calls repeat per operation: an fsync writes its data, then
	 * commits or forces the log, two device round trips of one point
	 */
	double data_share;
	/* the workload's durability waits by who asked (sum 1; 0 unknown) */
	double path_share[DUR_PATH_NR];
	bool paths_known;
	enum dur_source source;
	double source_share; /* of the durability waits (NAN: from counters) */
	/* the mount option that makes operations synchronous, or NULL */
	const char *sync_option;
	bool data_journal; /* ext3/4 mounted data=journal */
};

struct phase_facts {
	const struct case_result *c;
	const struct phase_result *p;
	unsigned int index; /* of p in c->phases */
	enum fs_family fs;
	double wall_ns;
	bool too_short; /* < RULE_MIN_WALL_NS: no warnings */

	double cpu; /* (user + sys) / wall; above 1 with several processes */

	bool block; /* the block domain saw this phase */
	double busy; /* device busy / wall */
	double qd; /* requests in flight on average */
	double class_busy[BLK_IOC_NR]; /* per IO class, / wall */
	uint64_t class_ios[BLK_IOC_NR];
	uint64_t class_bytes[BLK_IOC_NR];
	uint64_t ios, dev_bytes, dev_read_bytes, dev_write_bytes;
	double req_bytes_p50; /* request size, every request */
	/* cache flushes, journal/log writes and other FUA/PREFLUSH requests */
	uint64_t durable_ios;

	/* fsync, fdatasync and syncfs calls of the workload */
	uint64_t sync_calls;
	double sync_share; /* their time / wall */

	double throttle; /* writeback.throttle_pause_ns / wall */

	/* the log's (or journal's) share of the phase: see LOG_IO_SHARE */
	double log_io;
	/* its share of the device's work: of the busy time or the requests */
	double log_dev_share;

	/* xfs: the log buffer size in use (super options), bytes */
	uint64_t logbsize;

	struct time_budget budget;

	struct durability_facts dur;
};

/* fill x for phase index i of case c */
void phase_facts_init(struct phase_facts *x, const struct case_result *c,
		      unsigned int i);

/* the budget can decide a majority: measured and mostly attributed */
static inline bool budget_usable(const struct time_budget *b)
{
	return b->present && !b->unusable;
}

/* the sched time budget of one phase (present false when not measured) */
void time_budget_read(struct time_budget *b, const struct phase_result *p);

/* the counter, or 0 */
uint64_t fact_metric(const struct phase_facts *x, const char *name);

/* the counter exists in this phase (its tracepoint was attached) */
bool fact_has(const struct phase_facts *x, const char *name);

/* a histogram's sum, count and p50 (0 when absent) */
double fact_hist_sum(const struct phase_facts *x, const char *name);
uint64_t fact_hist_count(const struct phase_facts *x, const char *name);
double fact_hist_p50(const struct phase_facts *x, const char *name);

/* value / wall, capped at 1 */
double fact_share(const struct phase_facts *x, double ns);

/*
 * The time budget's share of the causes that make up one kind of bound
 * (journal_commit + journal_space for BOUND_JOURNAL, on-CPU and runqueue
 * for BOUND_CPU, ...). 0 without a budget.
 */
double budget_bound_share(const struct time_budget *b, enum bound_kind k);

/* one cause's share ("journal_commit"), 0 when absent */
double budget_cause_share(const struct time_budget *b, const char *cause);

/* the workload's own waits (sleep, wait_child): not any resource's */
bool budget_cause_is_idle(const char *cause);

/* the kind of bound an off-CPU cause belongs to; BOUND_NR for "other" */
enum bound_kind budget_cause_bound(const char *cause);

/*
 * The share of the phase the workload waited for journal commits (ext3/4)
 * or XFS log forces, whoever asked for them (fsync calls, O_SYNC/O_DSYNC
 * writes, sync/dirsync/wsync mounts, synchronous handles): x->dur.wait.
 * 0 unless they are a pattern: at least DURABILITY_MIN_EVENTS of them,
 * and, when the workload's own fsync-family calls asked, at least
 * COMMITS_PER_SYNC per call (else the calls shared commits). The time:
 * the budget's journal_commit / xfs_log_force share with the device_flush
 * share of the same durability points, when it was measured; else the
 * smaller of the calls' share of the phase and the commits' (ext) or the
 * device's (xfs) busy share; 0 without either (inconclusive).
 */
double journal_commit_wait(const struct phase_facts *x);
double log_force_wait(const struct phase_facts *x);

/*
 * The phase's journal or log waits were waits for log IO: log writes took
 * LOG_IO_SHARE of the phase, or that share of the device's work (its busy
 * time or its requests) - a phase that spends a third on the CPU and then
 * waits for a syncfs whose log writes are nearly all the device did.
 */
bool log_waits_are_log_io(const struct phase_facts *x);

/* the time budget says the log's IO bounds the phase (journal or log) */
bool log_io_bound_by_budget(const struct phase_facts *x);

/* "logbsize=32k" out of a mount option string; 0 when absent */
uint64_t mount_option_size(const char *opts, const char *key);

/* the option (exactly, as one comma-separated item) is in opts */
bool mount_option_has(const char *opts, const char *option);

#endif
