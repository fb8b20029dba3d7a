// SPDX-License-Identifier: GPL-2.0
/*
 * Block domain: every request the target device issues is counted in the
 * phase that was running when it was issued, by IO class (log / meta / data,
 * read / write, flush, discard, other) and issuer (who submitted its first
 * bio), with its size and its issue -> complete latency in log2 histograms.
 * The device's busy time and in-flight requests are integrated over time for
 * the device, each class and each issuer.
 *
 * The issuer and the durability intent (PREFLUSH / FUA) are read in the
 * submitter's context, when a submitted bio gets a new request (block_getrq):
 * at block_rq_issue the current task is often kblockd, and a loop device
 * strips FUA from the request. The bio's pointer carries that to the request:
 * rq->bio is its first bio. Bios merged into an existing request are not
 * looked at (block_bio_queue would see every one of them, ~6x more map
 * inserts on metadata workloads). A bio the block layer splits passes its
 * record to the split-off part (block_split).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fsprof/block.h"
#include "phase.bpf.h"
#include "timeline.bpf.h"
#include "events.bpf.h"
#include "core_fixes.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* the log's LBA ranges, [log_lo[i], log_hi[i]) in 512-byte sectors */
const volatile __u64 log_lo[BLK_LOG_MAX_RANGES] = {};
const volatile __u64 log_hi[BLK_LOG_MAX_RANGES] = {};
const volatile __u32 n_log_ranges = 0;

/* a request slower than this (issue -> complete) is a rare event */
const volatile __u64 slow_io_ns = BLK_SLOW_IO_NS_DEFAULT;

/* fsprof's tgid: it and its descendants are the workload */
const volatile __u32 workload_tgid = 0;

/* written by userspace with phase (and phase_start_ns): the one before */
__u32 prev_phase = FSPROF_PHASE_NONE;

/* who submitted the latest PREFLUSH / FUA bio: flush requests carry no bio */
__u32 last_flush_issuer = BLK_ISS_UNSEEN;

/* issues whose latency could not be tracked because inflight was full */
__u64 inflight_full = 0;
/* requests not counted because io_stats was full (never expected) */
__u64 stats_full = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, BLK_IO_ENTRIES);
	__type(key, __u32);
	__type(value, struct blk_io_stats);
} io_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BLK_NTRACKS);
	__type(key, __u32);
	__type(value, struct blk_track);
} tracks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BLK_BUSY_ENTRIES);
	__type(key, __u32);
	__type(value, struct blk_busy);
} busy SEC(".maps");

struct bio_info {
	__u32 issuer;
	__u32 intent; /* BIO_PREFLUSH | BIO_FUA */
};

#define BIO_PREFLUSH 1
#define BIO_FUA 2

/* submitted bios of the target, by address; old ones age out */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct bio_info);
} bios SEC(".maps");

struct inflight {
	__u64 issue_ns;
	__u32 phase;
	__u16 ioclass;
	__u16 issuer;
};

/* requests in flight, keyed by struct request address */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, struct inflight);
} inflight SEC(".maps");

TIMELINE_MAP(struct blk_tl_bin);

static const struct blk_io_stats zero_stats;

/* request flag bits from the running kernel's enum req_flag_bits */
#define REQ_BIT(name) (1U << bpf_core_enum_value(enum req_flag_bits, name))

static __always_inline bool has_prefix(const char *s, const char *prefix,
				       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (s[i] != prefix[i])
			return false;
	return true;
}

/* the workqueue a kworker is running a work item of, e.g. "xfs-cil/loop3" */
static __always_inline __u32 kworker_issuer(struct task_struct *task)
{
	struct kthread *kt = task_kthread(task);
	struct workqueue_struct *wq;
	struct worker *worker;
	char name[16] = {};

	if (!kt)
		return BLK_ISS_KWORKER;
	worker = BPF_CORE_READ(kt, data);
	if (!worker)
		return BLK_ISS_KWORKER;
	wq = BPF_CORE_READ(worker, current_pwq, wq);
	if (!wq || bpf_core_read_str(name, sizeof(name), &wq->name) <= 0)
		return BLK_ISS_KWORKER;
	if (has_prefix(name, "xfs-cil/", 8) || has_prefix(name, "xfs-log/", 8))
		return BLK_ISS_XFS_LOG;
	if (has_prefix(name, "writeback", 10)) /* with its NUL */
		return BLK_ISS_WRITEBACK;
	return BLK_ISS_KWORKER;
}

/* fsprof itself or a task it forked (up to 8 generations) */
static __always_inline bool task_is_workload(struct task_struct *task)
{
	int depth;

	if (!workload_tgid)
		return false;
	for (depth = 0; depth < 8 && task; depth++) {
		__u32 tgid = BPF_CORE_READ(task, tgid);

		if (tgid == workload_tgid)
			return true;
		if (tgid <= 1)
			return false;
		task = BPF_CORE_READ(task, real_parent);
	}
	return false;
}

static __always_inline __u32 current_issuer(void)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	char comm[16];

	if (task_is_workload(task))
		return BLK_ISS_WORKLOAD;
	if (bpf_get_current_comm(comm, sizeof(comm)))
		return BLK_ISS_OTHER;
	if (has_prefix(comm, "jbd2/", 5))
		return BLK_ISS_JBD2;
	if (has_prefix(comm, "xfsaild/", 8))
		return BLK_ISS_XFS_AIL;
	if (has_prefix(comm, "kworker/", 8))
		return kworker_issuer(task);
	return BLK_ISS_OTHER;
}

static __always_inline int on_getrq(struct bio *bio)
{
	struct bio_info info = {};
	__u64 key = (__u64)bio;
	__u32 opf;

	if (!bio || bio_dev(bio) != targ_dev)
		return 0;
	opf = BPF_CORE_READ(bio, bi_opf);
	info.issuer = current_issuer();
	if (opf & REQ_BIT(__REQ_PREFLUSH))
		info.intent |= BIO_PREFLUSH;
	if (opf & REQ_BIT(__REQ_FUA))
		info.intent |= BIO_FUA;
	if (info.intent)
		last_flush_issuer = info.issuer;
	bpf_map_update_elem(&bios, &key, &info, BPF_ANY);
	return 0;
}

/* the split-off front of a bio was submitted by whoever submitted the bio */
static __always_inline int on_bio_split(struct bio *split)
{
	__u64 key = (__u64)split, parent;
	struct bio_info *info;

	if (!split || bio_dev(split) != targ_dev)
		return 0;
	/* bio_chain(split, parent) ran just before the event */
	parent = (__u64)BPF_CORE_READ(split, bi_private);
	info = bpf_map_lookup_elem(&bios, &parent);
	if (info)
		bpf_map_update_elem(&bios, &key, info, BPF_ANY);
	return 0;
}

static __always_inline bool sector_in_log(__u64 sector)
{
	unsigned int i;

	for (i = 0; i < BLK_LOG_MAX_RANGES; i++) {
		if (i >= n_log_ranges)
			break;
		if (sector >= log_lo[i] && sector < log_hi[i])
			return true;
	}
	return false;
}

static __always_inline __u32 rq_ioclass(struct request *rq, __u32 bytes)
{
	__u32 flags = BPF_CORE_READ(rq, cmd_flags);
	__u32 op = flags & req_op_mask();
	bool write;

	if (op == REQ_OP_VALUE(REQ_OP_FLUSH))
		return BLK_IOC_FLUSH;
	if (op == REQ_OP_VALUE(REQ_OP_DISCARD) ||
	    op == REQ_OP_VALUE(REQ_OP_SECURE_ERASE) ||
	    op == REQ_OP_VALUE(REQ_OP_WRITE_ZEROES))
		return BLK_IOC_DISCARD;
	if (op != REQ_OP_VALUE(REQ_OP_READ) && op != REQ_OP_VALUE(REQ_OP_WRITE))
		return BLK_IOC_OTHER;
	write = op == REQ_OP_VALUE(REQ_OP_WRITE);
	if (write && !bytes)
		return BLK_IOC_FLUSH; /* a PREFLUSH carrying no data */
	if (sector_in_log(BPF_CORE_READ(rq, __sector)))
		return write ? BLK_IOC_LOG_WRITE : BLK_IOC_LOG_READ;
	if (flags & REQ_BIT(__REQ_META))
		return write ? BLK_IOC_META_WRITE : BLK_IOC_META_READ;
	return write ? BLK_IOC_DATA_WRITE : BLK_IOC_DATA_READ;
}

/*
 * One event on a track: the time since its last event is charged, busy if
 * anything was in flight, to the phase running now; the part before the
 * phase began goes to the phase before it. Then inflight moves by delta.
 */
static __always_inline void track_event(__u32 track, __u64 now, int delta)
{
	__u32 phase = current_phase(), prev = prev_phase, key;
	struct blk_busy *cur, *before;
	struct blk_track *tr;
	__u64 since = phase_start_ns, start;

	if (prev >= FSPROF_MAX_PHASES)
		prev = FSPROF_PHASE_NONE;
	tr = bpf_map_lookup_elem(&tracks, &track);
	key = phase * BLK_NTRACKS + track;
	cur = bpf_map_lookup_elem(&busy, &key);
	key = prev * BLK_NTRACKS + track;
	before = bpf_map_lookup_elem(&busy, &key);
	if (!tr || !cur || !before)
		return;

	bpf_spin_lock(&tr->lock);
	start = tr->last_ns;
	if (tr->inflight && now > start) {
		if (start < since && since < now) {
			before->busy_ns += since - start;
			before->inflight_ns += (since - start) * tr->inflight;
			start = since;
		}
		cur->busy_ns += now - start;
		cur->inflight_ns += (now - start) * tr->inflight;
	}
	if (now > tr->last_ns)
		tr->last_ns = now;
	if (tr->inflight > cur->max_inflight)
		cur->max_inflight = tr->inflight;
	if (delta > 0)
		tr->inflight++;
	else if (tr->inflight)
		tr->inflight--;
	if (tr->inflight > cur->max_inflight)
		cur->max_inflight = tr->inflight;
	bpf_spin_unlock(&tr->lock);
}

static __always_inline void tracks_event(__u32 ioclass, __u32 issuer, __u64 now,
					 int delta)
{
	track_event(BLK_TRACK_DEVICE, now, delta);
	if (ioclass < BLK_IOC_NR)
		track_event(BLK_TRACK_IOCLASS(ioclass), now, delta);
	if (issuer < BLK_ISS_NR)
		track_event(BLK_TRACK_ISSUER(issuer), now, delta);
}

static __always_inline struct blk_io_stats *io_stats_get(__u32 idx)
{
	struct blk_io_stats *st = bpf_map_lookup_elem(&io_stats, &idx);

	if (st)
		return st;
	bpf_map_update_elem(&io_stats, &idx, &zero_stats, BPF_NOEXIST);
	return bpf_map_lookup_elem(&io_stats, &idx);
}

static __always_inline void timeline_count(__u32 phase, __u32 ioclass,
					   __u32 bytes, __u64 now)
{
	struct blk_tl_bin *bin = timeline_bin(&timeline, phase, now);

	if (!bin)
		return;
	__sync_fetch_and_add(&bin->ios, 1);
	if (ioclass < BLK_TL_CLASSES)
		__sync_fetch_and_add(&bin->bytes[ioclass], bytes);
}

/* a request slower than slow_io_ns, charged to the phase it was issued in */
static __always_inline void slow_io_event(struct request *rq, __u32 phase,
					  __u32 ioclass, __u32 issuer,
					  __u64 latency)
{
	struct fsprof_event *e;

	if (latency < slow_io_ns)
		return;
	e = event_reserve(phase, FSPROF_EV_BLK_SLOW_IO);
	if (!e)
		return;
	e->aux = EVENT_AUX_BLK(ioclass, issuer);
	e->v[0] = BPF_CORE_READ(rq, __sector);
	e->v[1] = BPF_CORE_READ(rq, __data_len);
	e->v[2] = latency;
	event_submit(e);
}

static __always_inline int on_issue(struct request *rq)
{
	struct inflight fl = {};
	struct blk_io_stats *st;
	struct bio_info *info;
	__u64 key = (__u64)rq, bio;
	__u32 bytes, slot, intent = 0;
	long err;

	if (!rq || rq_dev(rq) != targ_dev)
		return 0;

	fl.phase = current_phase();
	bytes = BPF_CORE_READ(rq, __data_len);
	fl.ioclass = rq_ioclass(rq, bytes);
	bio = (__u64)BPF_CORE_READ(rq, bio);
	if (bio) {
		info = bpf_map_lookup_elem(&bios, &bio);
		fl.issuer = info ? info->issuer : BLK_ISS_UNSEEN;
		intent = info ? info->intent : 0;
	} else {
		/* the flush machinery's own request: no bio */
		fl.issuer = last_flush_issuer;
	}
	if (fl.issuer >= BLK_ISS_NR)
		fl.issuer = BLK_ISS_UNSEEN;
	fl.issue_ns = bpf_ktime_get_ns();

	st = io_stats_get(blk_io_index(fl.phase, fl.ioclass, fl.issuer));
	if (!st) {
		__sync_fetch_and_add(&stats_full, 1);
		return 0;
	}
	slot = hist_slot(bytes);
	bpf_spin_lock(&st->lock);
	st->ios++;
	st->bytes += bytes;
	if (intent & BIO_PREFLUSH)
		st->preflush++;
	if (intent & BIO_FUA)
		st->fua++;
	if (bytes > st->size_max)
		st->size_max = bytes;
	if (slot < HIST_NSLOTS)
		st->size_slot[slot]++;
	bpf_spin_unlock(&st->lock);
	timeline_count(fl.phase, fl.ioclass, bytes, fl.issue_ns);

	/* a requeued request is issued again: it is still one in flight */
	err = bpf_map_update_elem(&inflight, &key, &fl, BPF_NOEXIST);
	if (err == -17 /* EEXIST */) {
		bpf_map_update_elem(&inflight, &key, &fl, BPF_EXIST);
		return 0;
	}
	if (err) {
		__sync_fetch_and_add(&inflight_full, 1);
		return 0;
	}
	tracks_event(fl.ioclass, fl.issuer, fl.issue_ns, 1);
	return 0;
}

static __always_inline int on_complete(struct request *rq)
{
	struct inflight *fl;
	struct blk_io_stats *st;
	__u64 key = (__u64)rq, now, delta;
	__u32 idx, slot, ioclass, issuer, phase;

	fl = bpf_map_lookup_elem(&inflight, &key);
	if (!fl)
		return 0;
	now = bpf_ktime_get_ns();
	delta = now - fl->issue_ns;
	ioclass = fl->ioclass;
	issuer = fl->issuer;
	phase = fl->phase;
	idx = blk_io_index(phase, ioclass, issuer);
	bpf_map_delete_elem(&inflight, &key);
	tracks_event(ioclass, issuer, now, -1);
	slow_io_event(rq, phase, ioclass, issuer, delta);

	st = bpf_map_lookup_elem(&io_stats, &idx);
	if (!st)
		return 0;
	slot = hist_slot(delta);
	bpf_spin_lock(&st->lock);
	st->lat_count++;
	st->lat_sum_ns += delta;
	if (delta > st->lat_max_ns)
		st->lat_max_ns = delta;
	if (slot < HIST_NSLOTS)
		st->lat_slot[slot]++;
	bpf_spin_unlock(&st->lock);
	return 0;
}

SEC("tp_btf/block_getrq")
int BPF_PROG(fsprof_getrq, struct bio *bio)
{
	return on_getrq(bio);
}

/* before 5.11 (and 5.10.137) the request queue was the first argument */
SEC("tp_btf/block_getrq")
int BPF_PROG(fsprof_getrq_q, void *q, struct bio *bio)
{
	return on_getrq(bio);
}

SEC("tp_btf/block_split")
int BPF_PROG(fsprof_bio_split, struct bio *split)
{
	return on_bio_split(split);
}

SEC("tp_btf/block_split")
int BPF_PROG(fsprof_bio_split_q, void *q, struct bio *split)
{
	return on_bio_split(split);
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(fsprof_rq_issue, struct request *rq)
{
	return on_issue(rq);
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(fsprof_rq_issue_q, void *q, struct request *rq)
{
	return on_issue(rq);
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(fsprof_rq_done, struct request *rq)
{
	return on_complete(rq);
}
