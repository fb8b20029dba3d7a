// SPDX-License-Identifier: GPL-2.0
/* Rules on what a phase waited for: throttling, space, locks, device, CPU. */
#include <stdio.h>
#include <string.h>

#include "analyze/rules.h"
#include "analyze/thresholds.h"
#include "results/metric_names.h"

static const char *sysctl_value(const struct case_result *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->target.sysctls.n; i++)
		if (!strcmp(c->target.sysctls.v[i].name, name))
			return c->target.sysctls.v[i].value;
	return "?";
}

bool rule_dirty_throttled(const struct phase_facts *x, struct finding *f)
{
	const struct case_result *c = x->c;
	double share =
		x->budget.present ?
			budget_cause_share(&x->budget, "dirty_throttle") :
			x->throttle;

	if (x->too_short || share < THROTTLE_SHARE)
		return false;
	f->severity = FINDING_WARNING;
	finding_title(f, "%s: writers were throttled in balance_dirty_pages",
		      x->p->name);
	if (x->budget.present)
		finding_evidence(
			f, "sched.offcpu_ns.dirty_throttle",
			share * x->budget.total_ns, share, THROTTLE_SHARE,
			"the workload slept %.0f%% of its time in dirty throttling (sched time budget)",
			100 * share);
	finding_evidence(
		f, "writeback.throttle_pause_ns",
		(double)fact_metric(x, MN(WRITEBACK_THROTTLE_PAUSE_NS)),
		x->throttle, THROTTLE_SHARE,
		"%llu pauses, %.2f s in all: %.0f%% of the phase",
		(unsigned long long)fact_metric(x,
						MN(WRITEBACK_THROTTLE_COUNT)),
		(double)fact_metric(x, MN(WRITEBACK_THROTTLE_PAUSE_NS)) / 1e9,
		100 * x->throttle);
	if (x->block)
		finding_evidence(
			f, "block.busy_ns", (double)x->p->block.device.busy_ns,
			x->busy, NAN,
			"the device was busy %.0f%% of the phase, writing %.1f MB",
			100 * x->busy, (double)x->dev_write_bytes / 1e6);
	finding_evidence(
		f, "target.sysctls", NAN, NAN, NAN,
		"vm.dirty_ratio=%s, vm.dirty_background_ratio=%s, vm.dirty_bytes=%s",
		sysctl_value(c, "vm.dirty_ratio"),
		sysctl_value(c, "vm.dirty_background_ratio"),
		sysctl_value(c, "vm.dirty_bytes"));
	finding_advice(
		f, ADVICE_SYSCTL, "vm.dirty_ratio=40",
		"the dirty limits are tight for this device: a larger vm.dirty_ratio (or vm.dirty_bytes) holds more of a burst in memory, at the cost of longer syncs; a sustained stream runs at the device's speed either way");
	return true;
}

bool rule_free_space_flush(const struct phase_facts *x, struct finding *f)
{
	uint64_t items, pages;
	double wait = budget_cause_share(&x->budget, "writeback_wait");
	const struct metric_set *m = &x->p->metrics;
	const char *slowest = NULL;
	double slowest_ns = 0;
	unsigned int i;

	if (x->fs == FS_EXT) {
		items = fact_metric(x, MN(WRITEBACK_WORK_FS_FREE_SPACE));
		pages = fact_metric(x, MN(WRITEBACK_FS_FREE_SPACE_PAGES));
	} else if (x->fs == FS_XFS && !strcmp(x->p->sync, "none")) {
		/* a phase without a sync of its own saw sync writeback */
		items = fact_metric(x, MN(WRITEBACK_WORK_SYNC));
		pages = fact_metric(x, MN(WRITEBACK_SYNC_PAGES));
	} else {
		return false;
	}
	if (!items || x->too_short)
		return false;
	/* a phase that syncs waits for writeback anyway: only one that does
	 * not can be said to wait for this flush */
	f->severity = x->budget.present && wait >= SPACE_FLUSH_WAIT_SHARE &&
				      !strcmp(x->p->sync, "none") ?
			      FINDING_WARNING :
			      FINDING_INFO;
	if (x->fs == FS_EXT)
		finding_title(
			f,
			"%s dirtied more than half of the free space: ext4 flushed it early",
			x->p->name);
	else
		finding_title(
			f,
			"%s ran the filesystem short of free space: dirty data was flushed early",
			x->p->name);
	finding_evidence(
		f,
		x->fs == FS_EXT ? "writeback.work_fs_free_space" :
				  "writeback.work_sync",
		(double)items, NAN, NAN,
		"%llu flusher work items (%s) wrote %.1f MB%s",
		(unsigned long long)items,
		x->fs == FS_EXT ? "reason fs_free_space" :
				  "reason sync, in a phase that does not sync",
		(double)pages * 4096 / 1e6,
		x->fs == FS_XFS ?
			" (XFS flushes on ENOSPC; another process calling sync(2) looks the same)" :
			"");
	if (x->budget.present)
		finding_evidence(
			f, "sched.offcpu_ns.writeback_wait",
			wait * x->budget.total_ns, wait, SPACE_FLUSH_WAIT_SHARE,
			"the workload waited %.0f%% of its time for writeback (sched time budget)",
			100 * wait);
	else
		finding_evidence(
			f, "sched.offcpu_ns.writeback_wait", NAN, NAN,
			SPACE_FLUSH_WAIT_SHARE,
			"how long the workload waited for it: not measured (no sched time budget in this run)");
	/* what the application saw: its slowest kind of call */
	for (i = 0; i < m->n_hists; i++) {
		if (strncmp(m->hists[i].name, "op.", 3) ||
		    (double)m->hists[i].h.sum_ns <= slowest_ns)
			continue;
		slowest = m->hists[i].name;
		slowest_ns = (double)m->hists[i].h.sum_ns;
	}
	if (slowest)
		finding_evidence(
			f, slowest, slowest_ns, fact_share(x, slowest_ns), NAN,
			"the workload's %s calls took %.0f%% of the phase",
			slowest + 3, 100 * fact_share(x, slowest_ns));
	if (x->c->target.image_size)
		finding_evidence(
			f, "target.image_size", (double)x->c->target.image_size,
			NAN, NAN,
			"the filesystem is %.0f MB for %.0f MB of workload data",
			(double)x->c->target.image_size / 1e6,
			(double)x->c->data_bytes / 1e6);
	if (x->c->age.on)
		finding_evidence(
			f, "age.outcome.used_after_age", x->c->age.used_aged,
			x->c->age.used_aged, NAN,
			"aged first (--age %s): %.0f%% of it was in use before the first phase",
			x->c->age.spec, 100 * x->c->age.used_aged);
	finding_mechanism_append(
		f, "%s",
		x->fs == FS_EXT ?
			"ext4: once the blocks reserved for dirty delayed-allocation data exceed half of the free blocks, ext4_nonda_switch() starts writeback of the whole filesystem (reason fs_free_space); once free blocks fall below 150% of them, new writes also allocate at once, as with nodelalloc." :
			"XFS: when a delayed-allocation write or an inode create cannot reserve space, XFS flushes all dirty data (xfs_flush_inodes -> sync_inodes_sb, reason sync), trims speculative preallocation and retries, so the call waits for writeback of the whole filesystem.");
	finding_advice(
		f, ADVICE_WORKLOAD, NULL, "%s",
		x->fs == FS_EXT ?
			"give the filesystem free space of more than twice the data a phase dirties (fsprof: a larger --image-size), or dirty less at once: the phase measured ext4's low-space writeback, not its normal one" :
			"give the filesystem more free space (fsprof: a larger --image-size): a nearly full filesystem measures its out-of-space paths, not its normal ones");
	return true;
}

bool rule_lock_contention(const struct phase_facts *x, struct finding *f)
{
	const struct time_budget *b = &x->budget;
	double share = budget_bound_share(b, BOUND_LOCK);
	const char *top;
	unsigned int i;

	if (x->too_short)
		return false;
	if (!b->present) {
		uint64_t stalls = fact_metric(x, MN(JBD2_LOCK_BUFFER_STALLS));

		if (!stalls)
			return false;
		f->severity = FINDING_INFO;
		finding_title(
			f,
			"%s: metadata buffers were locked for long stretches",
			x->p->name);
		finding_evidence(
			f, "jbd2.lock_buffer_stalls", (double)stalls, NAN, NAN,
			"%llu waits of over 100 ms for a buffer lock, %.2f s in all",
			(unsigned long long)stalls,
			(double)fact_metric(x, MN(JBD2_LOCK_BUFFER_STALL_NS)) /
				1e9);
		finding_evidence(
			f, "sched.offcpu_ns.mutex", NAN, NAN, LOCK_SHARE,
			"the workload's share of time asleep on locks: not measured (no sched time budget in this run)");
		return true;
	}
	if (share < LOCK_SHARE)
		return false;
	f->severity = FINDING_WARNING;
	finding_title(f, "%s: the workload slept %.0f%% of its time on locks",
		      x->p->name, 100 * share);
	top = NULL;
	for (i = 0; i < b->n; i++)
		if (budget_cause_bound(b->off[i].cause) == BOUND_LOCK) {
			top = b->off[i].cause; /* largest first */
			break;
		}
	for (i = 0; i < b->n; i++) {
		char metric[64];
		double s = b->off[i].ns / b->total_ns;

		if (budget_cause_bound(b->off[i].cause) != BOUND_LOCK ||
		    s < 0.01)
			continue;
		snprintf(metric, sizeof(metric), "sched.offcpu_ns.%s",
			 b->off[i].cause);
		finding_evidence(f, metric, b->off[i].ns, s, LOCK_SHARE,
				 "%.0f%% of the workload's time asleep in %s",
				 100 * s, b->off[i].cause);
	}
	/*
	 * One thread cannot contend with itself: the holder is the kernel's
	 * own background work (xfsaild writing buffers back, log IO that pins
	 * them, writeback, a jbd2 commit), and more directories change nothing
	 */
	if (fact_has(x, MN(SCHED_TASKS)) &&
	    fact_metric(x, MN(SCHED_TASKS)) == 1) {
		finding_evidence(
			f, "sched.tasks", 1, NAN, NAN,
			"the workload ran one thread: the locks were held by the kernel's own work, not by other threads of the workload");
		finding_advice(
			f, ADVICE_NONE, NULL,
			"no concurrency of the workload's to spread: the lock holders were background work (metadata writeback by xfsaild or the flusher, log or journal IO holding the buffers); the phase's log, journal and device findings say which is slow");
	} else if (top && !strcmp(top, "xfs_buf_lock")) {
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"XFS metadata buffers (AG headers AGI/AGF, directory and btree blocks) serialise the transactions that change them: spread concurrent work over directories in different allocation groups (mkfs.xfs -d agcount= sets how many there are)");
	} else {
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"spread concurrent work over more directories and files: one directory's i_rwsem serialises the creates and unlinks in it");
	}
	return true;
}

bool rule_device_bound(const struct phase_facts *x, struct finding *f)
{
	const struct target_result *t = &x->c->target;
	double secs = x->wall_ns / 1e9;
	double waited = budget_bound_share(&x->budget, BOUND_DEVICE);
	int best = -1;
	unsigned int c;
	char sz[32], model[DEVICE_MODEL_TEXT_LEN];

	/*
	 * Time first: the workload asleep on the device (read_io, direct_io,
	 * writeback_wait, ...) for DEVICE_BOUND_BUSY of its time is device
	 * bound at a lower busy share (one 4 KiB O_DIRECT request at a time
	 * leaves the device idle between them, yet the workload only waits),
	 * as long as this device was the busy one (DEVICE_WAIT_MIN_BUSY)
	 */
	if (!x->block || x->too_short ||
	    (x->busy < DEVICE_BOUND_BUSY &&
	     (waited < DEVICE_BOUND_BUSY || x->busy < DEVICE_WAIT_MIN_BUSY)) ||
	    x->log_io >= LOG_IO_SHARE || log_io_bound_by_budget(x) ||
	    x->throttle >= THROTTLE_SHARE ||
	    journal_commit_wait(x) >= COMMIT_WAIT_SHARE ||
	    log_force_wait(x) >= COMMIT_WAIT_SHARE)
		return false;
	for (c = 0; c < BLK_IOC_NR; c++)
		if (best < 0 || x->class_busy[c] > x->class_busy[best])
			best = (int)c;
	/* the verdict says as much: ok, unless there is advice */
	f->severity = FINDING_OK;
	finding_title(f, "%s is device bound", x->p->name);
	finding_evidence(
		f, "block.busy_ns", (double)x->p->block.device.busy_ns, x->busy,
		DEVICE_BOUND_BUSY,
		"the device had requests in flight %.0f%% of the phase, %.1f on average",
		100 * x->busy, x->qd);
	if (x->budget.present)
		finding_evidence(
			f, "sched.offcpu_ns.<device causes>",
			waited * x->budget.total_ns, waited, DEVICE_BOUND_BUSY,
			"the workload slept %.0f%% of its time waiting for the device (read_io, direct_io, writeback_wait, device_flush, blk_queue; sched time budget)",
			100 * waited);
	finding_evidence(f, "block.total.ios", (double)x->ios, NAN, NAN,
			 "%.0f requests/s, %.1f MB/s",
			 secs > 0 ? (double)x->ios / secs : 0,
			 secs > 0 ? (double)x->dev_bytes / 1e6 / secs : 0);
	if (best >= 0) {
		char metric[64];

		snprintf(metric, sizeof(metric), "block.io_classes.%s.busy_ns",
			 blk_ioclass_name(best));
		finding_evidence(
			f, metric, (double)x->p->block.ioclass[best].busy_ns,
			x->class_busy[best], NAN,
			"busiest IO class %s: %.0f%% of the phase, %llu requests, %.1f MB",
			blk_ioclass_name(best), 100 * x->class_busy[best],
			(unsigned long long)x->class_ios[best],
			(double)x->class_bytes[best] / 1e6);
	}
	if (t->model.m.wiops || t->model.m.riops)
		finding_evidence(f, "target.device_model", NAN, NAN, NAN,
				 "device model %s",
				 device_model_format(&t->model.m, model,
						     sizeof(model)));
	analyze_format_bytes(x->req_bytes_p50, sz, sizeof(sz));
	if (x->qd < DEVICE_SERIAL_QD &&
	    x->req_bytes_p50 <= DEVICE_SMALL_REQUEST_BYTES &&
	    (double)x->durable_ios >=
		    DEVICE_DURABLE_REQ_SHARE * (double)x->ios) {
		/* their number is the commits', not a request size's */
		finding_evidence(
			f, "block.io_classes.flush.ios", (double)x->durable_ios,
			(double)x->durable_ios / (double)x->ios,
			DEVICE_DURABLE_REQ_SHARE,
			"%llu of the %llu requests (%.0f%%) were durability writes (cache flushes, FUA, journal or log writes), median request %s at queue depth %.1f: their number follows the commits and log forces, not the request size",
			(unsigned long long)x->durable_ios,
			(unsigned long long)x->ios,
			100 * (double)x->durable_ios / (double)x->ios, sz,
			x->qd);
	} else if (x->qd < DEVICE_SERIAL_QD &&
		   x->req_bytes_p50 <= DEVICE_SMALL_REQUEST_BYTES) {
		finding_evidence(
			f, "block.total.size.p50", x->req_bytes_p50, NAN,
			DEVICE_SMALL_REQUEST_BYTES,
			"median request %s at queue depth %.1f: one small request at a time",
			sz, x->qd);
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"the device waits for each small request in turn (median %s at queue depth %.1f): larger requests or more of them in flight (concurrent IO) would use it better",
			sz, x->qd);
		f->severity = FINDING_INFO;
	}
	return true;
}

bool rule_cpu_bound(const struct phase_facts *x, struct finding *f)
{
	const struct phase_result *p = x->p;
	double oncpu = budget_usable(&x->budget) ?
			       budget_bound_share(&x->budget, BOUND_CPU) :
			       x->cpu;

	if (x->too_short || oncpu < CPU_BOUND_SHARE ||
	    (x->block && x->busy >= DEVICE_IDLE_BUSY) || phase_is_cached(x))
		return false;
	f->severity = FINDING_OK;
	finding_title(f, "%s is CPU bound", p->name);
	finding_evidence(f, "cpu.percent", 100 * x->cpu, x->cpu,
			 CPU_BOUND_SHARE,
			 "CPU %.0f%% of the phase (user %.2f s, system %.2f s)",
			 100 * x->cpu, (double)p->user_ns / 1e9,
			 (double)p->sys_ns / 1e9);
	if (x->block)
		finding_evidence(f, "block.busy_ns",
				 (double)p->block.device.busy_ns, x->busy,
				 DEVICE_IDLE_BUSY,
				 "the device was busy only %.0f%% of the phase",
				 100 * x->busy);
	if (p->work.ops && p->work.bytes &&
	    (double)p->work.bytes / (double)p->work.ops < 65536)
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"%.0f bytes per call: larger calls cut the per-call cost",
			(double)p->work.bytes / (double)p->work.ops);
	if (f->advice.text[0])
		f->severity = FINDING_INFO;
	return true;
}

bool rule_cache_bound(const struct phase_facts *x, struct finding *f)
{
	const struct phase_result *p = x->p;

	if (!phase_is_cached(x))
		return false;
	f->severity = FINDING_OK;
	finding_title(f, "%s ran from the page cache", p->name);
	finding_evidence(
		f, "block.total.bytes", (double)x->dev_bytes,
		p->work.bytes ? (double)x->dev_bytes / (double)p->work.bytes :
				NAN,
		CACHE_DEVICE_BYTES_SHARE,
		"the device moved %.1f MB for the workload's %.1f MB (%llu files)",
		(double)x->dev_bytes / 1e6, (double)p->work.bytes / 1e6,
		(unsigned long long)p->work.files);
	finding_evidence(f, "block.busy_ns", (double)p->block.device.busy_ns,
			 x->busy, CACHE_IDLE_BUSY,
			 "the device was busy %.0f%% of the phase; CPU %.0f%%",
			 100 * x->busy, 100 * x->cpu);
	return true;
}
