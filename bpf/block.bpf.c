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
 * record to the split-off part (block_split). The records live in a
 * direct-mapped array (bio_slots), the few that must wait longer in a hash.
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
#include "kdev.bpf.h"
#include "hist.bpf.h"
#include "untrusted.bpf.h"

/* this domain's target (bpf/phase.bpf.h) */
__u32 block_targ_dev = 0;


/*
 * The case's target, set by userspace for each case (writable globals,
 * all 0 between cases: trace/domain_state.h).
 *
 * the log's LBA ranges, [log_lo[i], log_hi[i]) in 512-byte sectors of the
 * disk of member log_member[i] (0 when the target is not stacked)
 */
__u64 log_lo[BLK_LOG_MAX_RANGES] = {};
__u64 log_hi[BLK_LOG_MAX_RANGES] = {};
__u32 log_member[BLK_LOG_MAX_RANGES] = {};
__u32 n_log_ranges = 0;

/*
 * A stacked target's member disks (include/fsprof/block.h): their dev_t,
 * and a partition's sectors on it ([member_lo, member_hi); 0, 0 for a
 * whole disk). n_members 0: the target is block_targ_dev itself, one member.
 */
__u32 n_members = 0;
__u32 member_dev[BLK_MEMBERS_MAX] = {};
__u64 member_lo[BLK_MEMBERS_MAX] = {};
__u64 member_hi[BLK_MEMBERS_MAX] = {};

/*
 * A partition target: its sectors on the disk, [part_lo, part_hi); 0, 0
 * for a whole disk. Requests and bios carry disk sectors (after the
 * partition remap) and the disk's dev_t, so a sibling partition's IO is
 * told apart by where it lands. Flushes carry no sector: a flush empties
 * the disk's cache for every partition and is counted whoever asked.
 */
__u64 part_lo = 0;
__u64 part_hi = 0;

/* a request slower than this (issue -> complete) is a rare event */
const volatile __u64 slow_io_ns = BLK_SLOW_IO_NS_DEFAULT;

/* fsprof's tgid, or a traced command's: it and its descendants are the workload */
const volatile __u32 workload_tgid = 0;
/* fsprof record: every process is the workload, counted per process */
const volatile bool every_process = false;

/* who submitted the latest PREFLUSH / FUA bio: flush requests carry no bio */
__u32 last_flush_issuer = BLK_ISS_UNSEEN;

/* issues whose latency could not be tracked because inflight was full */
__u64 inflight_full = 0;
/* requests not counted because io_stats was full (never expected) */
__u64 stats_full = 0;
/* requests the driver put back (block_rq_requeue): issued again, counted once */
__u64 requeues = 0;
/* issues that met the record of a request never seen completing */
__u64 inflight_stale = 0;
/*
 * Fault injection for the tests (FSPROF_TEST_DROP_COMPLETIONS=N, 0: off):
 * every Nth completion on the target is ignored, as if the kernel had
 * never reported it (as it does by itself about once in 30,000 requests
 * here: completion_unseen), counted in the phase of its request
 */
const volatile __u32 test_drop_every = 0;
__u64 test_completions = 0;
__u64 test_dropped[FSPROF_MAX_PHASES] = {};
/*
 * phases whose records still live when the disk had nothing in flight
 * userspace took out of their tracks and counted as completion_unseen
 * (block_in_flight): a reuse of such a record's address moves nothing
 */
__u8 phase_expired[FSPROF_MAX_PHASES] = {};
/* issues whose first bio had no record or a stale one: issuer unseen */
__u64 bio_unmatched = 0;

/*
 * Created as keys are first needed: a preallocated map would hold every
 * phase's every (class, issuer) on every CPU (4 KiB each). Userspace makes
 * a phase's keys before the phase begins (io_keys_make in trace/block.c):
 * creating a key here draws on the BPF allocator's per-CPU cache, which
 * holds one per-CPU value at first and refills later, from irq_work, so a
 * burst of new keys can find it empty (the first request of a class in a
 * new phase went uncounted while its completion was timed: "4 requests,
 * 5 timed").
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, BLK_IO_ENTRIES);
	__type(key, __u32);
	__type(value, struct blk_io_stats);
} io_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct blk_tracks);
} tracks SEC(".maps");

/* expired requests per track, written by userspace only (BLK_STALE_NS) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct blk_tracks_expired);
} track_expired SEC(".maps");

/*
 * busy and in-flight time of every track, by phase: per CPU, added to
 * without atomics (a request issued on one CPU and completed on another
 * bounced one shared line between them at every event)
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FSPROF_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct blk_busy_phase);
} busy SEC(".maps");

/*
 * Submitted bios of the target, by address: a record is used up when its
 * request issues. It is kept in its slot of bio_slots; one pushed out of
 * its slot by a newer bio before its request issued (a plug holding many,
 * a hash collision) waits here. Userspace sweeps out the few that never
 * issue (bios merged away behind a front merge). A plain hash: an LRU
 * update cost 1.5 us per IO here, this 0.9 us with the delete.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct blk_bio_info);
} bios SEC(".maps");

struct blk_bio_slot {
	struct bpf_spin_lock lock;
	__u64 bio; /* whose record this is; 0: empty */
	struct blk_bio_info info;
};

/*
 * The bio records first: an array slot costs a lookup and an uncontended
 * lock, where a hash update, lookup and delete cost ~450 ns a request
 * (bpf_stats, direct 4 KiB writes). Most requests issue on the CPU that
 * submitted their bio, right after: the slot is still theirs.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BLK_BIO_SLOTS);
	__type(key, __u32);
	__type(value, struct blk_bio_slot);
} bio_slots SEC(".maps");

/*
 * requests in flight, keyed by struct request address, and the records of
 * completed ones (not live), which the next request at the address reuses
 * (include/fsprof/block.h). Preallocated (~6 MB): an element allocated at
 * issue can fail for want of memory in the BPF allocator's cache, and a
 * request counted then could never be timed.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BLK_INFLIGHT_ENTRIES);
	__type(key, __u64);
	__type(value, struct blk_inflight);
} inflight SEC(".maps");

TIMELINE_MAP(block, struct blk_tl_bin);
EVENT_RING(block);

/* every_process: requests by (phase, submitting process), and its name */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BLK_PROC_ENTRIES);
	__type(key, struct blk_proc_key);
	__type(value, struct blk_proc_io);
} proc_io SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BLK_PROC_COMMS);
	__type(key, __u32);
	__type(value, struct blk_proc_comm);
} proc_comm SEC(".maps");

/* processes whose IO found proc_io full */
__u64 proc_full = 0;

/* a stacked target: requests and bytes by (phase, member), IO class */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BLK_MEMBER_ENTRIES);
	__type(key, __u32);
	__type(value, struct blk_member_io);
} member_io SEC(".maps");

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

#define PF_KTHREAD_FLAG 0x00200000 /* include/linux/sched.h, stable */

/*
 * fsprof itself or a task it forked (up to 8 generations); with
 * every_process, any task that is not a kernel thread
 */
static __always_inline bool task_is_workload(struct task_struct *trusted)
{
	struct task_struct *task = UNTRUSTED(struct task_struct, trusted);
	int depth;

	if (every_process)
		return !(task->flags & PF_KTHREAD_FLAG);
	if (!workload_tgid)
		return false;
	for (depth = 0; depth < 8 && task; depth++) {
		__u32 tgid = task->tgid;

		if (tgid == workload_tgid)
			return true;
		if (tgid <= 1)
			return false;
		task = task->real_parent;
	}
	return false;
}

static __always_inline __u32 current_issuer(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
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

/*
 * A record's slot, by Fibonacci hashing of the sector its bio started at
 * when recorded (the verifier does no arithmetic on the bio's address).
 * That sector is where its request starts (rq->__sector, checked at
 * issue), and where the front a split cuts off starts.
 */
static __always_inline struct blk_bio_slot *bio_slot(__u64 sector)
{
	__u32 i = (__u32)((sector * 0x9E3779B97F4A7C15ULL) >>
			  (64 - BLK_BIO_SLOT_BITS));

	return bpf_map_lookup_elem(&bio_slots, &i);
}

/* keep bio's record; the slot's older one, still waiting, moves to bios */
static __always_inline void bio_put(__u64 bio, const struct blk_bio_info *info)
{
	struct blk_bio_slot *s = bio_slot(info->sector);
	struct blk_bio_info old;
	__u64 old_bio;

	if (!s) {
		bpf_map_update_elem(&bios, &bio, info, BPF_ANY);
		return;
	}
	bpf_spin_lock(&s->lock);
	old_bio = s->bio;
	old = s->info;
	s->bio = bio;
	s->info = *info;
	bpf_spin_unlock(&s->lock);
	if (old_bio && old_bio != bio)
		bpf_map_update_elem(&bios, &old_bio, &old, BPF_ANY);
}

/*
 * The record of bio, recorded starting at sector, into *info, used up
 * (take) or left (peek); false: none
 */
static __always_inline bool bio_get(__u64 bio, __u64 sector,
				    struct blk_bio_info *info, bool take)
{
	struct blk_bio_slot *s = bio_slot(sector);
	struct blk_bio_info *h;
	bool found = false;

	if (s) {
		bpf_spin_lock(&s->lock);
		if (s->bio == bio) {
			*info = s->info;
			if (take)
				s->bio = 0;
			found = true;
		}
		bpf_spin_unlock(&s->lock);
		if (found)
			return true;
	}
	h = bpf_map_lookup_elem(&bios, &bio);
	if (!h)
		return false;
	*info = *h;
	if (take)
		bpf_map_delete_elem(&bios, &bio);
	return true;
}

/* what the submitter of a bio meant: recorded in its own context */
static __always_inline void bio_record(struct bio *bio)
{
	struct blk_bio_info info = {};
	__u64 key = (__u64)bio;
	__u32 opf;

	opf = bio->bi_opf;
	info.sector = bio->bi_iter.bi_sector;
	info.ns = bpf_ktime_get_ns();
	info.issuer = current_issuer();
	if (every_process && info.issuer == BLK_ISS_WORKLOAD) {
		struct blk_proc_comm pc = {};

		info.tgid = bpf_get_current_pid_tgid() >> 32;
		if (!bpf_map_lookup_elem(&proc_comm, &info.tgid)) {
			bpf_get_current_comm(pc.comm, sizeof(pc.comm));
			bpf_map_update_elem(&proc_comm, &info.tgid, &pc,
					    BPF_NOEXIST);
		}
	}
	if (opf & REQ_BIT(__REQ_PREFLUSH))
		info.intent |= BLK_BIO_PREFLUSH;
	if (opf & REQ_BIT(__REQ_FUA))
		info.intent |= BLK_BIO_FUA;
	if (info.intent)
		last_flush_issuer = info.issuer;
	bio_put(key, &info);
}

static __always_inline bool sector_in_target(__u64 sector)
{
	return !part_hi || (sector >= part_lo && sector < part_hi);
}

/*
 * Which member of a stacked target a request on disk dev at sector is on,
 * or -1. A global function, checked once: its loop is not unrolled into
 * its five callers. bytes 0 (a flush, or a completion) is placed by its
 * disk alone.
 */
__noinline int member_find(__u32 dev, __u64 sector, __u32 bytes)
{
	unsigned int i;

	for (i = 0; i < BLK_MEMBERS_MAX; i++) {
		if (i >= n_members)
			break;
		if (member_dev[i] != dev)
			continue;
		if (!bytes || !member_hi[i] ||
		    (sector >= member_lo[i] && sector < member_hi[i]))
			return i;
	}
	return -1;
}

/* the target's member a request or bio is on (0 when not stacked), or -1 */
static __always_inline int target_member(__u32 dev, __u64 sector, __u32 bytes)
{
	if (n_members)
		return member_find(dev, sector, bytes);
	if (dev != block_targ_dev)
		return -1;
	/* an empty flush has no place: it flushes the whole disk */
	return !bytes || sector_in_target(sector) ? 0 : -1;
}

static __always_inline bool bio_is_target(struct bio *bio)
{
	if (!bio)
		return false;
	return target_member(gendisk_dev(bio_gendisk(bio)),
			     bio->bi_iter.bi_sector, bio->bi_iter.bi_size) >= 0;
}

/* the target's member rq is on, by its disk only (completions), or -1 */
static __always_inline int rq_disk_member(struct request *rq)
{
	if (!rq)
		return -1;
	return target_member(gendisk_dev(rq_gendisk(rq)), 0, 0);
}

static __always_inline int on_getrq(struct bio *bio)
{
	if (bio_is_target(bio))
		bio_record(bio);
	return 0;
}

/*
 * A bio merged at the front of a request becomes its first bio (rq->bio),
 * and never passes block_getrq: record it here, or the request would meet
 * a stale record of an older bio at the same address.
 */
static __always_inline int on_frontmerge(struct bio *bio)
{
	return on_getrq(bio);
}

/* the split-off front of a bio was submitted by whoever submitted the bio */
static __always_inline int on_bio_split(struct bio *split)
{
	__u64 key = (__u64)split, parent;
	struct blk_bio_info part;

	if (!bio_is_target(split))
		return 0;
	/* bio_chain(split, parent) ran just before the event */
	parent = (__u64)split->bi_private;
	if (bio_get(parent, split->bi_iter.bi_sector, &part, false)) {
		part.sector = split->bi_iter.bi_sector;
		bio_put(key, &part);
	}
	return 0;
}

/* a global function, checked once: its loop is not unrolled into callers */
__noinline int sector_in_log(__u32 member, __u64 sector)
{
	unsigned int i;

	for (i = 0; i < BLK_LOG_MAX_RANGES; i++) {
		if (i >= n_log_ranges)
			break;
		if (log_member[i] == member && sector >= log_lo[i] &&
		    sector < log_hi[i])
			return 1;
	}
	return 0;
}

/*
 * The op bits of cmd_flags: the first flag bit (__REQ_FAILFAST_DEV) equals
 * REQ_OP_BITS, so the mask comes from the kernel's own enum.
 */
static __always_inline __u32 req_op_mask(void)
{
	return (1U << bpf_core_enum_value(enum req_flag_bits,
					  __REQ_FAILFAST_DEV)) -
	       1;
}

static __always_inline __u32 rq_ioclass(struct request *rq, __u32 bytes,
					__u32 member)
{
	__u32 flags = rq->cmd_flags;
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
	if (sector_in_log(member, rq->__sector))
		return write ? BLK_IOC_LOG_WRITE : BLK_IOC_LOG_READ;
	if (flags & REQ_BIT(__REQ_META))
		return write ? BLK_IOC_META_WRITE : BLK_IOC_META_READ;
	return write ? BLK_IOC_DATA_WRITE : BLK_IOC_DATA_READ;
}

/* what one event did to one track, read under the lock */
struct track_change {
	__u64 since; /* the track's last event before this one */
	__u64 inflight, after; /* in flight before and after the event */
};

/* the most in flight on a track around one event */
static __always_inline __u64 track_peak(const struct track_change *c)
{
	return c->inflight > c->after ? c->inflight : c->after;
}

/*
 * Under the tracks' lock: take the requests userspace found stale out of
 * flight, note the stretch since the track's last event, then move
 * inflight by delta. The stretch is split and charged after the unlock
 * (track_apply): a short critical section, and few verifier states.
 */
static __always_inline void track_step(struct blk_track *tr, __u64 expired,
				       __u64 now, int delta,
				       struct track_change *c)
{
	if (expired > tr->expired_applied) {
		__u64 gone = expired - tr->expired_applied;

		tr->inflight = gone < tr->inflight ? tr->inflight - gone : 0;
		tr->expired_applied = expired;
	}
	c->since = tr->last_ns;
	c->inflight = tr->inflight;
	if (now > tr->last_ns)
		tr->last_ns = now;
	if (delta > 0)
		tr->inflight++;
	else if (tr->inflight)
		tr->inflight--;
	c->after = tr->inflight;
}

static __always_inline void busy_part_add(struct blk_busy_phase *cur,
					  __u32 phase, __u32 track,
					  const struct phase_part *pt,
					  __u64 inflight)
{
	struct blk_busy_phase *bp = cur;
	__u32 key = pt->phase;

	if (!pt->ns)
		return;
	if (pt->phase != phase)
		bp = bpf_map_lookup_elem(&busy, &key);
	if (!bp)
		return;
	track = BLK_TRACK_SLOT(track);
	bp->t[track].busy_ns += pt->ns;
	bp->t[track].inflight_ns += pt->ns * inflight;
}

/*
 * After the unlock: the stretch since the track's last event, if anything
 * was in flight, split at the phase switches it spans and charged, most
 * often all to the phase now; then the phase's peak in flight. A global
 * function of scalars, checked once rather than in each of its three calls'
 * states.
 */
__noinline int track_apply(__u32 phase_track, __u64 now, __u64 since,
			   __u64 inflight, __u64 peak)
{
	struct phase_part part[PHASE_SPLIT_MAX] = {};
	__u32 phase = phase_track >> 8, track = phase_track & 0xff;
	struct phase_shared *ps = phase_map();
	struct blk_busy_phase *cur = bpf_map_lookup_elem(&busy, &phase);
	struct blk_busy *b;

	if (ps && inflight && now > since) {
		phase_split(ps, since, now, part);
		busy_part_add(cur, phase, track, &part[0], inflight);
		busy_part_add(cur, phase, track, &part[1], inflight);
		busy_part_add(cur, phase, track, &part[2], inflight);
		busy_part_add(cur, phase, track, &part[3], inflight);
	}
	if (!cur)
		return 0;
	b = &cur->t[BLK_TRACK_SLOT(track)];
	if (peak > b->max_inflight)
		b->max_inflight = peak;
	return 0;
}

/*
 * One request issued (delta 1) or completed (-1) on the device, its class
 * and its issuer: three tracks moved in one critical section. A global
 * function: the verifier checks it once, not in every state of each of its
 * three callers (inlined, fsprof_rq_issue alone took 0.68 s of the ~1.1 s
 * a case spent loading every domain's programs).
 */
__noinline int tracks_event(__u32 ioclass, __u32 issuer, __u64 now, int delta)
{
	struct track_change dev = {}, cls = {}, iss = {};
	struct blk_tracks_expired *exp;
	struct blk_tracks *all;
	__u32 zero = 0, phase, kc, ki;
	__u64 e_dev, e_cls, e_iss;

	kc = BLK_TRACK_SLOT(BLK_TRACK_IOCLASS(ioclass));
	ki = BLK_TRACK_SLOT(BLK_TRACK_ISSUER(issuer));
	all = bpf_map_lookup_elem(&tracks, &zero);
	exp = bpf_map_lookup_elem(&track_expired, &zero);
	phase = current_phase();
	if (!all || !exp)
		return 0;
	e_dev = *(volatile __u64 *)&exp->n[BLK_TRACK_DEVICE];
	e_cls = *(volatile __u64 *)&exp->n[kc];
	e_iss = *(volatile __u64 *)&exp->n[ki];

	bpf_spin_lock(&all->lock);
	track_step(&all->t[BLK_TRACK_DEVICE], e_dev, now, delta, &dev);
	track_step(&all->t[kc], e_cls, now, delta, &cls);
	track_step(&all->t[ki], e_iss, now, delta, &iss);
	bpf_spin_unlock(&all->lock);

	track_apply(phase << 8 | BLK_TRACK_DEVICE, now, dev.since, dev.inflight,
		    track_peak(&dev));
	track_apply(phase << 8 | kc, now, cls.since, cls.inflight,
		    track_peak(&cls));
	track_apply(phase << 8 | ki, now, iss.since, iss.inflight,
		    track_peak(&iss));
	return 0;
}

static __always_inline struct blk_io_stats *io_stats_get(__u32 idx)
{
	struct blk_io_stats *st = bpf_map_lookup_elem(&io_stats, &idx);

	if (st)
		return st;
	bpf_map_update_elem(&io_stats, &idx, &zero_stats, BPF_NOEXIST);
	return bpf_map_lookup_elem(&io_stats, &idx);
}

/*
 * The entry a request's issue counted it in: its completion (or its
 * finding as never completed) adds to it and never creates one, so that
 * a request is timed only where it was counted
 */
static __always_inline struct blk_io_stats *io_stats_of(__u32 idx)
{
	return bpf_map_lookup_elem(&io_stats, &idx);
}

static __always_inline void timeline_count(__u32 phase, __u32 ioclass,
					   __u32 bytes, __u64 now)
{
	struct blk_tl_bin *bin = timeline_bin(&block_timeline, phase, now);

	if (!bin)
		return;
	__sync_fetch_and_add(&bin->ios, 1);
	if (ioclass >= BLK_TL_CLASSES)
		return;
	/* check and index in one register: 6.1's verifier loses it otherwise */
	barrier_var(ioclass);
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
	e = event_reserve(&block_rare_events, block_events_dropped, phase, FSPROF_EV_BLK_SLOW_IO);
	if (!e)
		return;
	e->aux = EVENT_AUX_BLK(ioclass, issuer);
	e->v[0] = rq->__sector;
	e->v[1] = rq->__data_len;
	e->v[2] = latency;
	event_submit(&block_rare_events, e);
}

/*
 * The issuer and intent of a request: the record of its first bio, made in
 * the submitter's context. A record is only believed when the bio still
 * starts where the request starts: an address reused by a newer bio that
 * was never recorded must not lend it an older bio's issuer.
 */
static __always_inline __u32 rq_issuer(struct request *rq, __u64 now,
				       __u32 *intent, __u32 *tgid)
{
	__u64 bio = (__u64)rq->bio;
	struct blk_bio_info info;

	*intent = 0;
	*tgid = 0;
	if (!bio) /* the flush machinery's own request: no bio */
		return last_flush_issuer < BLK_ISS_NR ? last_flush_issuer :
							BLK_ISS_UNSEEN;
	/*
	 * used up either way: the maps hold only the bios on their way. A
	 * slot is never swept: a record older than userspace's sweep would
	 * leave in the hash is not believed either.
	 */
	if (!bio_get(bio, rq->__sector, &info, true) ||
	    info.sector != rq->__sector || info.issuer >= BLK_ISS_NR ||
	    now > info.ns + BLK_BIO_STALE_NS) {
		__sync_fetch_and_add(&bio_unmatched, 1);
		return BLK_ISS_UNSEEN;
	}
	*intent = info.intent;
	*tgid = info.tgid;
	return info.issuer;
}

/* every_process: one request into its process's count for the phase */
static __always_inline void proc_io_count(__u32 phase, __u32 tgid,
					  __u32 ioclass, __u32 bytes)
{
	struct blk_proc_key key = { .phase = phase, .tgid = tgid };
	struct blk_proc_io *p, zero = {};

	p = bpf_map_lookup_elem(&proc_io, &key);
	if (!p) {
		bpf_map_update_elem(&proc_io, &key, &zero, BPF_NOEXIST);
		p = bpf_map_lookup_elem(&proc_io, &key);
	}
	if (!p) {
		__sync_fetch_and_add(&proc_full, 1);
		return;
	}
	__sync_fetch_and_add(&p->ios, 1);
	__sync_fetch_and_add(&p->bytes, bytes);
	if (ioclass == BLK_IOC_DATA_WRITE || ioclass == BLK_IOC_META_WRITE ||
	    ioclass == BLK_IOC_LOG_WRITE)
		__sync_fetch_and_add(&p->write_bytes, bytes);
}

/* a stacked target: one request into its member's count for the phase */
static __always_inline void member_count(__u32 phase, int member, __u32 ioclass,
					 __u32 bytes)
{
	__u32 key = phase * BLK_MEMBERS_MAX + (__u32)member;
	struct blk_member_io *m;

	if (member < 0 || member >= BLK_MEMBERS_MAX || ioclass >= BLK_IOC_NR)
		return;
	m = bpf_map_lookup_elem(&member_io, &key);
	if (!m)
		return;
	/* check and index in one register, as timeline_count does */
	barrier_var(ioclass);
	m->ios[ioclass]++;
	m->bytes[ioclass] += bytes;
}

/* a stacked target: one completion into its member's latency */
static __always_inline void member_latency(__u32 phase, __u32 member,
					   __u64 latency)
{
	__u32 key = phase * BLK_MEMBERS_MAX + member;
	struct blk_member_io *m;

	if (member >= BLK_MEMBERS_MAX)
		return;
	m = bpf_map_lookup_elem(&member_io, &key);
	if (!m)
		return;
	m->lat_count++;
	m->lat_sum_ns += latency;
	if (latency > m->lat_max_ns)
		m->lat_max_ns = latency;
}

/* one request issued, into this CPU's share of its entry */
static __always_inline void io_stats_count(struct blk_io_stats *st, __u32 bytes,
					   __u32 intent)
{
	st->ios++;
	st->bytes += bytes;
	if (intent & BLK_BIO_PREFLUSH)
		st->preflush++;
	if (intent & BLK_BIO_FUA)
		st->fua++;
	if (bytes > st->size_max)
		st->size_max = bytes;
	hist_count(st->size_slot, bytes);
}

/* a record of a phase whose leftovers userspace counted (phase_expired) */
static __always_inline bool record_expired(const struct blk_inflight *fl)
{
	__u32 phase = fl->phase;

	return phase < FSPROF_MAX_PHASES && phase_expired[phase];
}

static __always_inline int on_issue(struct request *rq)
{
	struct blk_inflight fl = {}, *old;
	struct blk_io_stats *st;
	__u64 key = (__u64)rq;
	__u32 bytes, intent, tgid;
	long err = 0;
	int member;

	if (!rq)
		return 0;
	bytes = rq->__data_len;
	/* another disk's, or a sibling partition's */
	member =
		target_member(gendisk_dev(rq_gendisk(rq)), rq->__sector, bytes);
	if (member < 0)
		return 0;

	fl.issue_ns = bpf_ktime_get_ns();
	fl.phase = current_phase();
	fl.member = (__u16)member;
	fl.ioclass = rq_ioclass(rq, bytes, member);
	fl.issuer = rq_issuer(rq, fl.issue_ns, &intent, &tgid);
	fl.live = 1;

	old = bpf_map_lookup_elem(&inflight, &key);
	if (old && old->live) {
		/*
		 * A requeued request is issued again: it is still the one in
		 * flight, counted, timed and charged from its first issue.
		 */
		if (old->requeued) {
			old->requeued = 0;
			return 0;
		}
		/*
		 * Otherwise the record outlived its request (its completion
		 * was never seen): this is a new request at a reused address.
		 * The old one leaves its tracks, the new one is counted.
		 */
		__sync_fetch_and_add(&inflight_stale, 1);
		if (!record_expired(old)) {
			tracks_event(old->ioclass, old->issuer, fl.issue_ns,
				     -1);
			/*
			 * in its own phase, class and issuer: there its count
			 * of requests exceeds its count of latencies by one
			 */
			st = io_stats_of(blk_io_index(old->phase, old->ioclass,
						      old->issuer));
			if (st)
				st->unseen++;
		}
	}
	st = io_stats_get(blk_io_index(fl.phase, fl.ioclass, fl.issuer));
	if (!st) {
		/* not counted, so not timed either: the address holds none */
		__sync_fetch_and_add(&stats_full, 1);
		if (old)
			old->live = 0;
		return 0;
	}
	if (old)
		*old = fl; /* the address's record, reused in place */
	else
		err = bpf_map_update_elem(&inflight, &key, &fl, BPF_NOEXIST);

	io_stats_count(st, bytes, intent);
	timeline_count(fl.phase, fl.ioclass, bytes, fl.issue_ns);
	if (n_members)
		member_count(fl.phase, member, fl.ioclass, bytes);
	if (every_process && tgid)
		proc_io_count(fl.phase, tgid, fl.ioclass, bytes);
	if (err) {
		__sync_fetch_and_add(&inflight_full, 1);
		return 0;
	}
	tracks_event(fl.ioclass, fl.issuer, fl.issue_ns, 1);
	return 0;
}

static __always_inline int on_requeue(struct request *rq)
{
	__u64 key = (__u64)rq;
	struct blk_inflight *fl;

	if (rq_disk_member(rq) < 0)
		return 0;
	__sync_fetch_and_add(&requeues, 1);
	fl = bpf_map_lookup_elem(&inflight, &key);
	if (fl && fl->live)
		fl->requeued = 1;
	return 0;
}

/* a live record whose completion the tests had fsprof ignore */
#define LIVE_TEST_DROPPED 2

/*
 * This completion is one the tests asked to ignore. A request completed
 * again after one was ignored (a flush sequence ends its request twice)
 * was not lost after all: it ends now, and is not counted as dropped.
 */
static __always_inline bool test_drop(struct blk_inflight *fl)
{
	__u32 phase = fl->phase;
	__u64 n;

	if (phase >= FSPROF_MAX_PHASES)
		return false;
	if (fl->live == LIVE_TEST_DROPPED) {
		__sync_fetch_and_add(&test_dropped[phase], -1);
		return false;
	}
	n = __sync_fetch_and_add(&test_completions, 1) + 1;
	if (n % test_drop_every)
		return false;
	__sync_fetch_and_add(&test_dropped[phase], 1);
	fl->live = LIVE_TEST_DROPPED;
	return true;
}

static __always_inline int on_complete(struct request *rq)
{
	struct blk_inflight *fl;
	struct blk_io_stats *st;
	__u64 key = (__u64)rq, now, delta;
	__u32 idx, ioclass, issuer, phase;

	/*
	 * Another disk's request is told by its device, not by a miss in
	 * inflight: a miss in a hash costs three times the device's loads
	 * (193 vs 51 ns a run here), and the host disk under a loop target
	 * completes as many requests as the target.
	 */
	if (rq_disk_member(rq) < 0)
		return 0;
	fl = bpf_map_lookup_elem(&inflight, &key);
	if (!fl || !fl->live)
		return 0;
	if (record_expired(fl)) {
		fl->live = 0; /* out of its tracks, its phase collected */
		return 0;
	}
	if (test_drop_every && test_drop(fl))
		return 0;
	now = bpf_ktime_get_ns();
	delta = now - fl->issue_ns;
	ioclass = fl->ioclass;
	issuer = fl->issuer;
	phase = fl->phase;
	idx = blk_io_index(phase, ioclass, issuer);
	tracks_event(ioclass, issuer, now, -1);
	/*
	 * before the slow IO event, not after: phase kept live past it is
	 * spilled, and 6.1's verifier then loses its bound in event_reserve
	 */
	if (n_members)
		member_latency(phase, fl->member, delta);
	slow_io_event(rq, phase, ioclass, issuer, delta);

	/* this CPU's share of the entry the issue counted the request in */
	st = io_stats_of(idx);
	if (st) {
		st->lat_count++;
		st->lat_sum_ns += delta;
		if (delta > st->lat_max_ns)
			st->lat_max_ns = delta;
		hist_count(st->lat_slot, delta);
	} else {
		__sync_fetch_and_add(&stats_full, 1);
	}
	/*
	 * Out of flight last: userspace collects a phase once none of its
	 * requests is in flight (tracer_settle), so its latency must be
	 * counted by then. On a VM whose vCPU is preempted between the two,
	 * the other way round left requests untimed (1-8 of 1,670 writeback
	 * requests of an hdd ex-sync on a loaded machine).
	 */
	fl->live = 0; /* the record stays for the address's next request */
	return 0;
}

SEC("tp_btf/block_getrq")
int BPF_PROG(fsprof_getrq, struct bio *bio)
{
	return on_getrq(UNTRUSTED(struct bio, bio));
}

/* before 5.11 (and 5.10.137) the request queue was the first argument */
SEC("tp_btf/block_getrq")
int BPF_PROG(fsprof_getrq_q, void *q, struct bio *bio)
{
	return on_getrq(UNTRUSTED(struct bio, bio));
}

SEC("tp_btf/block_bio_frontmerge")
int BPF_PROG(fsprof_frontmerge, struct bio *bio)
{
	return on_frontmerge(UNTRUSTED(struct bio, bio));
}

/* before 5.11: (q, rq, bio) */
SEC("tp_btf/block_bio_frontmerge")
int BPF_PROG(fsprof_frontmerge_q, void *q, void *rq, struct bio *bio)
{
	return on_frontmerge(UNTRUSTED(struct bio, bio));
}

SEC("tp_btf/block_rq_requeue")
int BPF_PROG(fsprof_rq_requeue, struct request *rq)
{
	return on_requeue(UNTRUSTED(struct request, rq));
}

SEC("tp_btf/block_rq_requeue")
int BPF_PROG(fsprof_rq_requeue_q, void *q, struct request *rq)
{
	return on_requeue(UNTRUSTED(struct request, rq));
}

SEC("tp_btf/block_split")
int BPF_PROG(fsprof_bio_split, struct bio *split)
{
	return on_bio_split(UNTRUSTED(struct bio, split));
}

SEC("tp_btf/block_split")
int BPF_PROG(fsprof_bio_split_q, void *q, struct bio *split)
{
	return on_bio_split(UNTRUSTED(struct bio, split));
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(fsprof_rq_issue, struct request *rq)
{
	return on_issue(UNTRUSTED(struct request, rq));
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(fsprof_rq_issue_q, void *q, struct request *rq)
{
	return on_issue(UNTRUSTED(struct request, rq));
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(fsprof_rq_done, struct request *rq)
{
	return on_complete(UNTRUSTED(struct request, rq));
}
