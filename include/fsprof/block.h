/* SPDX-License-Identifier: GPL-2.0 */
/* Structures the block domain shares between bpf/block.bpf.c and userspace. */
#ifndef FSPROF_BLOCK_H
#define FSPROF_BLOCK_H

#ifndef __bpf__
#include <linux/bpf.h> /* struct bpf_spin_lock; vmlinux.h has it in BPF */
#endif

#include "fsprof/hist.h"
#include "fsprof/phase.h"

/* What a request does, by operation only (the summary userspace derives). */
enum blk_opclass {
	BLK_OPC_READ,
	BLK_OPC_WRITE,
	BLK_OPC_FLUSH, /* REQ_OP_FLUSH, or a write carrying no data */
	BLK_OPC_DISCARD, /* discard, secure erase, write zeroes */
	BLK_OPC_OTHER,
	BLK_OPC_NR,
};

/*
 * What a request is for, decided at issue: log by LBA range (the ext4
 * journal's extents, the XFS internal log), else meta by REQ_META, else data;
 * split read/write. A flush is REQ_OP_FLUSH or a write carrying no data.
 */
enum blk_ioclass {
	BLK_IOC_DATA_READ,
	BLK_IOC_DATA_WRITE,
	BLK_IOC_META_READ,
	BLK_IOC_META_WRITE,
	BLK_IOC_LOG_READ,
	BLK_IOC_LOG_WRITE,
	BLK_IOC_FLUSH,
	BLK_IOC_DISCARD, /* discard, secure erase, write zeroes */
	BLK_IOC_OTHER,
	BLK_IOC_NR,
};

/* Who submitted the request's first bio (read at block_bio_queue). */
enum blk_issuer {
	BLK_ISS_WORKLOAD, /* fsprof's process or a descendant of it */
	BLK_ISS_JBD2, /* jbd2/<dev> */
	BLK_ISS_XFS_LOG, /* kworker running xfs-cil/<dev> or xfs-log/<dev> */
	BLK_ISS_XFS_AIL, /* xfsaild/<dev> */
	BLK_ISS_WRITEBACK, /* kworker running the "writeback" workqueue */
	BLK_ISS_KWORKER, /* kworker running any other workqueue */
	BLK_ISS_OTHER, /* any other task */
	BLK_ISS_UNSEEN, /* first bio not seen at submission */
	BLK_ISS_NR,
};

/* One per (phase, IO class, issuer) in a hash keyed blk_io_index(). */
/*
 * Per CPU (a per-CPU hash by blk_io_index()): added to without a lock or
 * atomics, a request's issue on one CPU and its completion on another
 * each in their own. Userspace adds the CPUs up; the maxima take the
 * largest (BLK_IO_STATS_MAX).
 */
struct blk_io_stats {
	unsigned long long ios; /* requests issued */
	unsigned long long bytes; /* their data bytes */
	unsigned long long preflush; /* first bio asked for REQ_PREFLUSH */
	unsigned long long fua; /* first bio asked for REQ_FUA */
	unsigned long long size_max;
	unsigned long long lat_count; /* completions paired with an issue */
	unsigned long long lat_sum_ns;
	unsigned long long lat_max_ns;
	/*
	 * requests whose completion the kernel never reported: their
	 * address was issued again while they were still in flight (those
	 * userspace finds when the phase ends are added at collect)
	 */
	unsigned long long unseen;
	unsigned long long size_slot[HIST_NSLOTS]; /* request bytes */
	unsigned long long lat_slot[HIST_NSLOTS]; /* issue -> complete, ns */
};

static inline unsigned int
blk_io_index(unsigned int phase, unsigned int ioclass, unsigned int issuer)
{
	return (phase * BLK_IOC_NR + ioclass) * BLK_ISS_NR + issuer;
}

#define BLK_IO_ENTRIES (FSPROF_MAX_PHASES * BLK_IOC_NR * BLK_ISS_NR)

/*
 * Busy time and in-flight requests are integrated over time on tracks: the
 * whole device, each IO class, each issuer.
 */
#define BLK_TRACK_DEVICE 0
#define BLK_TRACK_IOCLASS(c) (1 + (c))
#define BLK_TRACK_ISSUER(i) (1 + BLK_IOC_NR + (i))
#define BLK_NTRACKS (1 + BLK_IOC_NR + BLK_ISS_NR)
/*
 * Track arrays have a power-of-two size, so that BPF can bound an index
 * with a mask the verifier of every kernel follows (6.1's lost the bound of
 * a compare once the index was spilled).
 */
#define BLK_TRACK_SLOTS 32
#define BLK_TRACK_SLOT(t) ((t) & (BLK_TRACK_SLOTS - 1))
_Static_assert(BLK_NTRACKS <= BLK_TRACK_SLOTS, "BLK_TRACK_SLOTS too small");

/* a track's state now: requests in flight since last_ns */
struct blk_track {
	unsigned long long inflight;
	unsigned long long last_ns;
	/* of track_expired[track], how much inflight has been lowered by */
	unsigned long long expired_applied;
};

/*
 * Every track under one lock: an event moves three of them (the device, its
 * class, its issuer) in one critical section, with one map lookup.
 */
struct blk_tracks {
	struct bpf_spin_lock lock;
	struct blk_track t[BLK_TRACK_SLOTS];
};

/* requests expired per track (BLK_STALE_NS), written by userspace only */
struct blk_tracks_expired {
	unsigned long long n[BLK_TRACK_SLOTS];
};

/*
 * A request in flight this long has lost its completion (a missed event, a
 * program that detached): userspace removes its record, counts it, and
 * lowers its tracks' in-flight count through track_expired, so that the
 * device does not look busy forever.
 */
#define BLK_STALE_NS (60ULL * 1000000000ULL)

/* a bio's record older than this was merged away and never issued */
#define BLK_BIO_STALE_NS (60ULL * 1000000000ULL)

/* the record of a submitted bio, keyed by its address */
struct blk_bio_info {
	unsigned long long sector; /* where the bio started when recorded */
	unsigned long long ns; /* when */
	unsigned int issuer;
	unsigned int intent; /* BLK_BIO_PREFLUSH | BLK_BIO_FUA */
	unsigned int tgid; /* the submitting process (every_process only) */
	unsigned int pad;
};

/*
 * The bio records' first home: a direct-mapped array of BLK_BIO_SLOTS,
 * by a hash of the bio's address. A record whose slot a newer bio takes
 * before its request issues moves to the bios hash (include: bpf/block).
 */
#define BLK_BIO_SLOTS 4096
#define BLK_BIO_SLOT_BITS 12

#define BLK_BIO_PREFLUSH 1
#define BLK_BIO_FUA 2

/* a request in flight, keyed by struct request address */
/*
 * A request's record in the inflight hash, by its address. Requests are
 * preallocated by the block layer, so the same addresses come back: a
 * completed request's record stays, not live, and the next request at its
 * address is written into it in place (an update and a delete of a hash
 * element per request cost ~700 ns here, bpf_stats). Records are never
 * deleted but by userspace's sweep of stale live ones: the map has room
 * for every request of a big NVMe disk (64 queues x 1,023).
 */
#define BLK_INFLIGHT_ENTRIES 65536

struct blk_inflight {
	unsigned long long issue_ns;
	unsigned int phase; /* issued in */
	unsigned short ioclass;
	unsigned short issuer;
	/* put back by the driver: its next issue is not new */
	unsigned short requeued;
	unsigned short member; /* a stacked target's member it is on */
	unsigned int live; /* in flight; 0: completed, the record kept */
};

/* what a track accumulated in one phase */
struct blk_busy {
	unsigned long long busy_ns; /* time with >= 1 request in flight */
	unsigned long long inflight_ns; /* in-flight count integrated over ns */
	unsigned long long max_inflight;
};

/* every track's accumulation in one phase: the busy map's value, by phase */
struct blk_busy_phase {
	struct blk_busy t[BLK_TRACK_SLOTS];
};

/*
 * One timeline bin (include/fsprof/timeline.h): bytes of the requests
 * issued in it, for the classes that carry data (data, meta, log; read and
 * write: the first BLK_TL_CLASSES of enum blk_ioclass), and requests of
 * every class.
 */
#define BLK_TL_CLASSES (BLK_IOC_LOG_WRITE + 1)

struct blk_tl_bin {
	unsigned long long bytes[BLK_TL_CLASSES];
	unsigned long long ios;
};

/*
 * Every process is the workload (fsprof record): the requests each process
 * submitted, by (phase, tgid), and each process's name, for the top-N
 * breakdown. Counted only then.
 */
#define BLK_PROC_ENTRIES 8192
#define BLK_PROC_COMMS 4096
#define BLK_COMM_LEN 16

struct blk_proc_key {
	unsigned int phase;
	unsigned int tgid;
};

struct blk_proc_io {
	unsigned long long ios;
	unsigned long long bytes;
	unsigned long long write_bytes;
};

struct blk_proc_comm {
	char comm[BLK_COMM_LEN];
};

/* default --slow-io: a request slower than this is a rare event */
#define BLK_SLOW_IO_NS_DEFAULT 50000000ULL

/* LBA ranges of the filesystem's log, in 512-byte sectors, [start, end) */
#define BLK_LOG_MAX_RANGES 16

/*
 * A stacked target (md, device-mapper) issues no requests of its own: its
 * member disks do, each a disk dev_t and, for a partition, a sector range
 * on it. Their requests are the target's, and are also counted apart, per
 * (phase, member), by IO class.
 */
#define BLK_MEMBERS_MAX 16

struct blk_member_io {
	unsigned long long ios[BLK_IOC_NR];
	unsigned long long bytes[BLK_IOC_NR];
	/* issue -> complete of its requests, every class */
	unsigned long long lat_count;
	unsigned long long lat_sum_ns;
	unsigned long long lat_max_ns;
};

#define BLK_MEMBER_ENTRIES (FSPROF_MAX_PHASES * BLK_MEMBERS_MAX)

#endif
