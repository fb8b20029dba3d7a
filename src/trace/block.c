// SPDX-License-Identifier: GPL-2.0
/* Block domain, user side: see bpf/block.bpf.c. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "trace/fsprof_skel.h"
#include "trace/attach.h"
#include "trace/block_procs.h"
#include "trace/percpu.h"
#include "trace/phase_keys.h"
#include "trace/btf_probe.h"
#include "trace/domain.h"
#include "trace/timeline.h"
#include "util/clock.h"
#include "util/kdev.h"
#include "util/log.h"
#include "util/sysfile.h"

/*
 * The programs, in the attach report's order. A tracepoint whose prototype
 * lost its request_queue argument in 5.11 has two: the current one, then
 * its _Q variant; one of the two is loaded.
 */
enum block_prog {
	BL_ISSUE,
	BL_ISSUE_Q,
	BL_DONE,
	BL_GETRQ,
	BL_GETRQ_Q,
	BL_SPLIT,
	BL_SPLIT_Q,
	BL_FRONTMERGE,
	BL_FRONTMERGE_Q,
	BL_REQUEUE,
	BL_REQUEUE_Q,
	BL_NR,
};

static const struct program_def block_progs[BL_NR] = {
	[BL_ISSUE] = { "fsprof_rq_issue", "block:block_rq_issue" },
	[BL_ISSUE_Q] = { "fsprof_rq_issue_q", "block:block_rq_issue" },
	[BL_DONE] = { "fsprof_rq_done", "block:block_rq_complete" },
	[BL_GETRQ] = { "fsprof_getrq", "block:block_getrq" },
	[BL_GETRQ_Q] = { "fsprof_getrq_q", "block:block_getrq" },
	[BL_SPLIT] = { "fsprof_bio_split", "block:block_split" },
	[BL_SPLIT_Q] = { "fsprof_bio_split_q", "block:block_split" },
	[BL_FRONTMERGE] = { "fsprof_frontmerge", "block:block_bio_frontmerge" },
	[BL_FRONTMERGE_Q] = { "fsprof_frontmerge_q",
			      "block:block_bio_frontmerge" },
	[BL_REQUEUE] = { "fsprof_rq_requeue", "block:block_rq_requeue" },
	[BL_REQUEUE_Q] = { "fsprof_rq_requeue_q", "block:block_rq_requeue" },
};

struct block_domain {
	struct fsprof_bpf *skel;
	struct program_slot slots[BL_NR]; /* missing: the kernel has no event */
	struct timeline_map timeline;
	struct blk_tracks_expired *track_expired; /* mmapped */
	uint64_t inflight_expired, bios_expired; /* swept out, case totals */
	bool every_process; /* count block IO per process (record) */
	struct percpu_stats busy; /* the busy map: per CPU */
	struct percpu_stats io; /* io_stats: per CPU */
	/* the disks' requests in flight, in sysfs: the target's, or its
	 * members' */
	char inflight_path[BLK_MEMBERS_MAX][64];
	unsigned int n_disks;
	unsigned int n_members; /* a stacked target's; 0: not stacked */
	struct percpu_stats members; /* member_io: per CPU */
	/*
	 * requests found never completed when their phase ended, by
	 * blk_io_index(): added to the phase's completion_unseen
	 */
	unsigned int lost[BLK_IO_ENTRIES];
	struct phase_keys io_keys; /* io_stats's, made ahead of the phases */
};

/* the maxima of struct blk_io_stats */
static const size_t io_max_at[] = {
	offsetof(struct blk_io_stats, size_max),
	offsetof(struct blk_io_stats, lat_max_ns),
};

/* the maximum of struct blk_member_io */
static const size_t member_max_at[] = {
	offsetof(struct blk_member_io, lat_max_ns),
};

/* the maxima of struct blk_busy_phase: every track's max_inflight */
static size_t busy_max_at[BLK_TRACK_SLOTS];

static void busy_max_at_fill(void)
{
	unsigned int i;

	for (i = 0; i < BLK_TRACK_SLOTS; i++)
		busy_max_at[i] = offsetof(struct blk_busy_phase, t) +
				 i * sizeof(struct blk_busy) +
				 offsetof(struct blk_busy, max_inflight);
}

/* the timeline's series: bytes per data-carrying class, and all requests */
static const struct timeline_field block_timeline[] = {
	{ "block.data_read_bytes",
	  offsetof(struct blk_tl_bin, bytes[BLK_IOC_DATA_READ]) },
	{ "block.data_write_bytes",
	  offsetof(struct blk_tl_bin, bytes[BLK_IOC_DATA_WRITE]) },
	{ "block.meta_read_bytes",
	  offsetof(struct blk_tl_bin, bytes[BLK_IOC_META_READ]) },
	{ "block.meta_write_bytes",
	  offsetof(struct blk_tl_bin, bytes[BLK_IOC_META_WRITE]) },
	{ "block.log_read_bytes",
	  offsetof(struct blk_tl_bin, bytes[BLK_IOC_LOG_READ]) },
	{ "block.log_write_bytes",
	  offsetof(struct blk_tl_bin, bytes[BLK_IOC_LOG_WRITE]) },
	{ "block.ios", offsetof(struct blk_tl_bin, ios) },
};

/*
 * Load the variant of prog the running kernel's prototype takes: prog with
 * nargs arguments (without the queue), or prog + 1 with queue_args more.
 * Returns the kernel's count, < 0 for no such tracepoint.
 */
static int variants_choose(struct block_domain *d, enum block_prog prog,
			   int nargs, int queue_args,
			   const struct kernel_btf *btf)
{
	struct program_slot *now = &d->slots[prog], *with_queue = now + 1;
	int n = btf_tracepoint_nargs(
		btf, program_def_tracepoint(&block_progs[prog]));

	now->missing = n < 0;
	bpf_program__set_autoload(now->prog, n == nargs);
	bpf_program__set_autoload(with_queue->prog, n == nargs + queue_args);
	return n;
}

static void block_programs_choose(struct block_domain *d,
				  const struct kernel_btf *btf)
{
	struct program_slot *done = &d->slots[BL_DONE];
	int n;

	variants_choose(d, BL_GETRQ, 1, 1, btf);
	variants_choose(d, BL_SPLIT, 2, 1, btf);
	variants_choose(d, BL_ISSUE, 1, 1, btf);
	variants_choose(d, BL_REQUEUE, 1, 1, btf);
	/* before 5.11 block_bio_frontmerge also had the queue and request */
	n = variants_choose(d, BL_FRONTMERGE, 1, 2, btf);
	d->slots[BL_FRONTMERGE].missing = n != 1 && n != 3;
	done->missing = btf_tracepoint_nargs(btf, "block_rq_complete") < 0;
	bpf_program__set_autoload(done->prog, !done->missing);
}

/* the log's ranges in disk sectors (log_region_read adds a partition's start) */
static void block_set_log(struct fsprof_bpf *skel, const struct log_region *log)
{
	unsigned int i;

	for (i = 0; log && i < log->n && i < BLK_LOG_MAX_RANGES; i++) {
		skel->bss->log_lo[i] = log->range[i].start;
		skel->bss->log_hi[i] =
			log->range[i].start + log->range[i].sectors;
	}
	skel->bss->n_log_ranges = i;
}

/*
 * A stacked target: its members' disks (a partition's sector range on
 * it) are the target, and the log's ranges are on them
 */
static void block_set_members(struct block_domain *d,
			      const struct block_stack *st)
{
	struct fsprof_bpf *skel = d->skel;
	unsigned int i;

	for (i = 0; i < st->n && i < BLK_MEMBERS_MAX; i++) {
		const struct stack_member *m = &st->member[i];

		skel->bss->member_dev[i] =
			kdev_encode(makedev(m->disk_major, m->disk_minor));
		if (m->part_sectors) {
			skel->bss->member_lo[i] = m->part_start;
			skel->bss->member_hi[i] =
				m->part_start + m->part_sectors;
		}
		snprintf(d->inflight_path[i], sizeof(d->inflight_path[i]),
			 "/sys/dev/block/%u:%u/inflight", m->disk_major,
			 m->disk_minor);
	}
	skel->bss->n_members = d->n_members = d->n_disks = i;
	for (i = 0; i < st->n_log && i < BLK_LOG_MAX_RANGES; i++) {
		skel->bss->log_lo[i] = st->log[i].start;
		skel->bss->log_hi[i] = st->log[i].start + st->log[i].sectors;
		skel->bss->log_member[i] = st->log[i].member;
	}
	skel->bss->n_log_ranges = i;
}

/*
 * FSPROF_TEST_DROP_COMPLETIONS=N (N >= 2): ignore every Nth completion on
 * the target, for the tests of completion_unseen (the kernel loses one
 * by itself only about once in 30,000 requests). 0 when unset or 0.
 */
static unsigned int block_test_drop_every(void)
{
	const char *v = getenv("FSPROF_TEST_DROP_COMPLETIONS");
	unsigned long n;
	char *end;

	if (!v || !*v || !strcmp(v, "0"))
		return 0;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || n < 2 || n > UINT32_MAX) {
		log_warn(
			"FSPROF_TEST_DROP_COMPLETIONS=%.32s is not a whole number of at least 2: ignored, every completion is counted",
			v);
		return 0;
	}
	log_warn(
		"FSPROF_TEST_DROP_COMPLETIONS=%lu: one block completion in %lu is ignored on purpose (fault injection for the tests); these results are not the device's",
		n, n);
	return (unsigned int)n;
}

static int block_open(void **priv, struct fsprof_bpf *skel,
		      const struct trace_config *cfg)
{
	struct block_domain *d = calloc(1, sizeof(*d));
	struct fsprof_bpf *s;
	int err;

	if (!d)
		return -ENOMEM;
	s = d->skel = skel;
	s->rodata->workload_tgid =
		cfg->workload_pid ? (__u32)cfg->workload_pid : (__u32)getpid();
	s->rodata->every_process = cfg->every_process;
	d->every_process = cfg->every_process;
	s->rodata->test_drop_every = block_test_drop_every();
	s->rodata->rdonly_cast_ok = kernel_btf_rdonly_cast(cfg->btf);
	s->rodata->tl_bin_ns = timeline_bin_ns(cfg->bin_ns);
	if (cfg->slow_io_ns)
		s->rodata->slow_io_ns = cfg->slow_io_ns;
	err = program_slots_fill(s->skeleton, block_progs, BL_NR, d->slots);
	if (err) {
		free(d);
		return err;
	}
	block_programs_choose(d, cfg->btf);
	busy_max_at_fill();
	err = percpu_stats_init(&d->busy, s->maps.busy,
				sizeof(struct blk_busy_phase), busy_max_at,
				BLK_TRACK_SLOTS);
	if (!err)
		err = percpu_stats_init(
			&d->io, s->maps.io_stats, sizeof(struct blk_io_stats),
			io_max_at, sizeof(io_max_at) / sizeof(io_max_at[0]));
	if (!err)
		err = percpu_stats_init(&d->members, s->maps.member_io,
					sizeof(struct blk_member_io),
					member_max_at, 1);
	if (err) {
		percpu_stats_fini(&d->io);
		percpu_stats_fini(&d->busy);
		free(d);
		return err;
	}
	*priv = d;
	return 0;
}

static size_t track_expired_len(void)
{
	return (sizeof(struct blk_tracks_expired) + 4095) & ~(size_t)4095;
}

/*
 * every (class, issuer) key of phase in io_stats, zeroed (phase_keys.h);
 * after one the kernel would not make in its wait, the rest are left to
 * the BPF side, so that a phase waits once at most
 */
static int io_keys_make(void *arg, unsigned int phase)
{
	struct block_domain *d = arg;
	unsigned int c, i;
	int err;

	for (c = 0; c < BLK_IOC_NR; c++)
		for (i = 0; i < BLK_ISS_NR; i++) {
			__u32 key = blk_io_index(phase, c, i);

			err = percpu_key_make(&d->io, &key);
			if (err)
				return err;
		}
	return 0;
}

static void io_keys_drop(void *arg, unsigned int phase)
{
	struct block_domain *d = arg;
	int fd = bpf_map__fd(d->skel->maps.io_stats);
	unsigned int c, i;

	for (c = 0; c < BLK_IOC_NR; c++)
		for (i = 0; i < BLK_ISS_NR; i++) {
			__u32 key = blk_io_index(phase, c, i);

			bpf_map_delete_elem(fd, &key);
		}
}

static void block_phase_after(void *priv, unsigned int from, unsigned int to,
			      bool exact)
{
	struct block_domain *d = priv;

	(void)exact;
	phase_keys_switched(&d->io_keys, from, to);
}

static int block_loaded(void *priv)
{
	struct block_domain *d = priv;
	int err = timeline_map_open(&d->timeline, d->skel->maps.block_timeline,
				    d->skel->rodata->tl_bin_ns);

	if (!err) {
		void *m = mmap(NULL, track_expired_len(),
			       PROT_READ | PROT_WRITE, MAP_SHARED,
			       bpf_map__fd(d->skel->maps.track_expired), 0);

		if (m == MAP_FAILED)
			return -errno;
		d->track_expired = m;
	}
	if (!err)
		d->io_keys = (struct phase_keys){ .domain = "block",
						  .make = io_keys_make,
						  .drop = io_keys_drop,
						  .arg = d };
	return err;
}

/*
 * A case: its disk (requests carry the whole disk's dev_t, not a
 * partition's), or its stack's members, and its log's ranges; the maps
 * were emptied. A bio-based disk issues no requests: nothing to count.
 */
static int block_bind(void *priv, const struct trace_config *cfg)
{
	struct block_domain *d = priv;
	struct fsprof_bpf *s = d->skel;
	unsigned int dev = cfg->disk_dev ? cfg->disk_dev : cfg->kernel_dev;

	if (cfg->no_requests)
		return -ENODEV; /* run.c said why */
	d->inflight_expired = d->bios_expired = 0;
	memset(d->lost, 0, sizeof(d->lost));
	d->n_members = 0;
	snprintf(d->inflight_path[0], sizeof(d->inflight_path[0]),
		 "/sys/dev/block/%u:%u/inflight", kdev_major(dev),
		 kdev_minor(dev));
	d->n_disks = 1;
	if (cfg->part_sectors) {
		s->bss->part_lo = cfg->part_start;
		s->bss->part_hi = cfg->part_start + cfg->part_sectors;
	}
	if (cfg->stack && cfg->stack->n)
		block_set_members(d, cfg->stack);
	else
		block_set_log(s, cfg->log);
	phase_keys_start(&d->io_keys);
	/* last: the programs count from here */
	__atomic_store_n(&s->bss->block_targ_dev, dev, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Without issue and complete, in-flight requests never clear and the device
 * looks busy forever: then the domain is unavailable, not half there.
 */
static int block_attach(void *priv, struct attach_list *list)
{
	struct block_domain *d = priv;
	const struct program_slot *sl = d->slots;
	bool issue, done;

	attach_programs("block", d->slots, BL_NR, list);
	/* attached, in whichever variant the kernel's prototype took */
	issue = program_slot_attached(&sl[BL_ISSUE]) ||
		program_slot_attached(&sl[BL_ISSUE_Q]);
	done = program_slot_attached(&sl[BL_DONE]);
	if (!issue || !done) {
		log_warn(
			"block domain: unavailable: it cannot count without block_rq_issue and block_rq_complete, and %s did not attach (see the attach report)",
			!issue ? "block_rq_issue" : "block_rq_complete");
		return -ENOENT;
	}
	return 0;
}

/* a request that lost its completion: out of its tracks' in-flight count */
static void inflight_expire(struct block_domain *d,
			    const struct blk_inflight *fl)
{
	unsigned int tracks[3] = { BLK_TRACK_DEVICE,
				   BLK_TRACK_IOCLASS(fl->ioclass),
				   BLK_TRACK_ISSUER(fl->issuer) };
	unsigned int i;

	d->inflight_expired++;
	for (i = 0; i < 3; i++)
		if (tracks[i] < BLK_NTRACKS)
			__atomic_add_fetch(&d->track_expired->n[tracks[i]], 1,
					   __ATOMIC_RELEASE);
}

/* the kernel's "operation not supported" (not in userspace's errno.h) */
#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

/* records read from inflight in one system call */
#define INFLIGHT_BATCH 1024

/*
 * Every record in inflight, live or not, to fn, read in batches: the map
 * holds a record per request address the device has used (up to 65,536 on
 * a many-queued NVMe disk), which a lookup per key would read with two
 * system calls each. A kernel without batch reads for hashes (5.6) gets a
 * lookup per key. fn returns false to stop.
 */
static int inflight_scan(struct block_domain *d,
			 bool (*fn)(void *arg, __u64 key,
				    const struct blk_inflight *fl),
			 void *arg)
{
	int fd = bpf_map__fd(d->skel->maps.inflight);
	__u64 *keys = calloc(INFLIGHT_BATCH, sizeof(*keys));
	struct blk_inflight *vals = calloc(INFLIGHT_BATCH, sizeof(*vals));
	__u64 token = 0, key, next, *prev = NULL;
	bool first = true, more = true;
	int err = 0;

	if (!keys || !vals) {
		err = -ENOMEM;
		goto out;
	}
	while (more) {
		__u32 i, n = INFLIGHT_BATCH;

		if (bpf_map_lookup_batch(fd, first ? NULL : &token, &token,
					 keys, vals, &n, NULL)) {
			if (errno != ENOENT) {
				err = -errno;
				break;
			}
			more = false; /* the last batch, n of them */
		}
		first = false;
		for (i = 0; i < n; i++)
			if (!fn(arg, keys[i], &vals[i]))
				goto out;
	}
	if (err != -EINVAL && err != -EOPNOTSUPP && err != -ENOTSUPP)
		goto out;
	err = 0; /* no batch reads here: key by key */
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, vals) && !fn(arg, key, vals))
			break;
	}
out:
	free(keys);
	free(vals);
	return err;
}

struct stale_scan {
	__u64 now;
	__u64 keys[INFLIGHT_BATCH]; /* found stale: deleted after the scan */
	unsigned int n;
};

static bool stale_find(void *arg, __u64 key, const struct blk_inflight *fl)
{
	struct stale_scan *sc = arg;

	if (fl->live && sc->now >= fl->issue_ns + BLK_STALE_NS)
		sc->keys[sc->n++] = key;
	return sc->n < INFLIGHT_BATCH;
}

/*
 * Sweep out requests in flight for longer than BLK_STALE_NS, and bio
 * records older than BLK_BIO_STALE_NS that no request used up.
 */
static void block_sweep(struct block_domain *d)
{
	int fl_fd = bpf_map__fd(d->skel->maps.inflight);
	int bio_fd = bpf_map__fd(d->skel->maps.bios);
	struct stale_scan *sc = calloc(1, sizeof(*sc));
	struct blk_bio_info info;
	uint64_t now = clock_mono_ns();
	struct blk_inflight fl;
	__u64 key, next;
	bool first = true;
	unsigned int i;

	if (sc) {
		sc->now = now;
		inflight_scan(d, stale_find, sc);
		/*
		 * looked at again: a completion (live 0) or a new request at
		 * the address (a new issue time) since the scan is not stale
		 */
		for (i = 0; i < sc->n; i++)
			if (!bpf_map_lookup_elem(fl_fd, &sc->keys[i], &fl) &&
			    fl.live && sc->now >= fl.issue_ns + BLK_STALE_NS &&
			    !bpf_map_delete_elem(fl_fd, &sc->keys[i]) &&
			    d->track_expired)
				inflight_expire(d, &fl);
		free(sc);
	}
	while (!bpf_map_get_next_key(bio_fd, first ? NULL : &key, &next)) {
		first = false;
		key = next;
		if (!bpf_map_lookup_elem(bio_fd, &key, &info) &&
		    now >= info.ns + BLK_BIO_STALE_NS &&
		    !bpf_map_delete_elem(bio_fd, &key))
			d->bios_expired++;
	}
}

/*
 * Whether the block layer has no request in flight on the disks (each
 * one's sysfs inflight: "reads writes"); false when one cannot be read
 */
static bool disk_idle(const struct block_domain *d)
{
	unsigned int r, w, i;
	char buf[64];

	for (i = 0; i < d->n_disks; i++)
		if (sysfile_read_line(d->inflight_path[i], buf, sizeof(buf)) <=
			    0 ||
		    sscanf(buf, "%u %u", &r, &w) != 2 || r || w)
			return false;
	return true;
}

/*
 * A request is put in flight on the disk just after its issue event: one
 * issued less than this before the disk was found idle may not have been
 * in its count yet (a phase's settle looks again a poll later)
 */
#define LOST_MIN_AGE_NS 1000000ULL

struct live_scan {
	struct block_domain *d;
	unsigned int phase;
	unsigned int n, young; /* live records; issued after young_ns */
	uint64_t young_ns;
	bool expire; /* the disk has none in flight: the live ones are lost */
};

static bool live_one(void *arg, __u64 key, const struct blk_inflight *fl)
{
	struct live_scan *sc = arg;

	(void)key;
	if (!fl->live || fl->phase != sc->phase)
		return true;
	sc->n++;
	if (fl->issue_ns >= sc->young_ns) {
		sc->young++;
		return true;
	}
	if (sc->expire) {
		unsigned int i =
			blk_io_index(fl->phase, fl->ioclass, fl->issuer);

		if (i < BLK_IO_ENTRIES)
			sc->d->lost[i]++;
		if (sc->d->track_expired)
			inflight_expire(sc->d, fl);
	}
	return true;
}

/*
 * Requests issued in phase that are still in flight. When the disk itself
 * has none in flight (read first: a completion before that read had its
 * event handled before it) and none of the phase's live records is
 * younger than LOST_MIN_AGE_NS, they are of requests the kernel completed
 * without a completion event (docs/metrics.md): they leave their tracks
 * (else the device looks busy until their address is used again), are
 * counted in the phase's completion_unseen, and the BPF side ignores them
 * from here on; collect need not wait for them. The second scan comes only
 * then.
 */
static unsigned int block_in_flight(void *priv, unsigned int phase)
{
	struct block_domain *d = priv;
	struct live_scan sc = { .d = d, .phase = phase };
	bool idle;

	if (phase >= FSPROF_MAX_PHASES)
		return 0;
	sc.young_ns = clock_mono_ns() - LOST_MIN_AGE_NS;
	idle = disk_idle(d);
	inflight_scan(d, live_one, &sc);
	if (!idle || !sc.n || sc.young)
		return sc.n;
	/* issued since (phase 0 can issue anew): in flight, not lost */
	sc.expire = true;
	sc.young = 0;
	inflight_scan(d, live_one, &sc);
	__atomic_store_n(&d->skel->bss->phase_expired[phase], 1,
			 __ATOMIC_RELEASE);
	return sc.young;
}

static void class_from_stats(struct block_class_result *r,
			     const struct blk_io_stats *st)
{
	unsigned int i;

	r->ios = st->ios;
	r->bytes = st->bytes;
	r->preflush = st->preflush;
	r->fua = st->fua;
	r->unseen = st->unseen;
	r->size.count = st->ios;
	r->size.sum_ns = st->bytes;
	r->size.max_ns = st->size_max;
	r->lat.count = st->lat_count;
	r->lat.sum_ns = st->lat_sum_ns;
	r->lat.max_ns = st->lat_max_ns;
	for (i = 0; i < HIST_NSLOTS; i++) {
		r->size.slot[i] = st->size_slot[i];
		r->lat.slot[i] = st->lat_slot[i];
	}
}

/* the (class, issuer) entry of b, appended empty if new; NULL on ENOMEM */
static struct block_class_result *block_io_entry(struct block_result *b,
						 unsigned int ioclass,
						 unsigned int issuer)
{
	struct block_io_result *io;
	unsigned int i;

	for (i = 0; i < b->n_io; i++)
		if (b->io[i].ioclass == ioclass && b->io[i].issuer == issuer)
			return &b->io[i].r;
	io = realloc(b->io, (b->n_io + 1) * sizeof(*io));
	if (!io)
		return NULL;
	b->io = io;
	io = &b->io[b->n_io++];
	memset(io, 0, sizeof(*io));
	io->ioclass = ioclass;
	io->issuer = issuer;
	return &io->r;
}

static int collect_io(struct block_domain *d, unsigned int phase,
		      struct block_result *b)
{
	struct blk_io_stats *st = malloc(sizeof(*st));
	struct block_class_result *one = malloc(sizeof(*one));
	unsigned int c, i;
	int err = 0;

	if (!st || !one) {
		err = -ENOMEM;
		goto out;
	}
	for (c = 0; c < BLK_IOC_NR; c++) {
		for (i = 0; i < BLK_ISS_NR; i++) {
			__u32 key = blk_io_index(phase, c, i);
			struct block_class_result *r;

			err = percpu_stats_read_key(&d->io, &key, st);
			if (err == -ENOENT)
				continue;
			if (err)
				goto out;
			/* made ready (io_keys_make) and never used */
			if (!st->ios && !st->lat_count && !st->unseen &&
			    !d->lost[key])
				continue;
			r = block_io_entry(b, c, i);
			if (!r) {
				err = -ENOMEM;
				goto out;
			}
			memset(one, 0, sizeof(*one));
			class_from_stats(one, st);
			one->unseen += d->lost[key];
			block_class_add(r, one);
			block_class_add(&b->cls[blk_ioclass_op(c)], one);
		}
	}
	err = 0;
out:
	free(one);
	free(st);
	return err;
}

/* a phase's stretch of time: busy time outside it is not its own */
struct phase_window {
	uint64_t start_ns, end_ns; /* end 0: phase 0, no window */
};

/*
 * The busy time of a track is charged at its next event. When requests
 * are still in flight at collect time and the track has seen no event
 * since the phase ended, the stretch from its last event to the end is
 * added here, so that the phase gets its busy time whole.
 */
static void busy_close(const struct blk_track *tr, const struct phase_window *w,
		       struct block_busy_result *into)
{
	uint64_t from;

	if (!w->end_ns || !tr->inflight || tr->last_ns >= w->end_ns)
		return;
	from = tr->last_ns > w->start_ns ? tr->last_ns : w->start_ns;
	into->busy_ns += w->end_ns - from;
	into->inflight_ns += (w->end_ns - from) * tr->inflight;
}

static void busy_add(const struct blk_busy *v, const struct blk_track *tr,
		     const struct phase_window *w,
		     struct block_busy_result *into)
{
	into->busy_ns += v->busy_ns;
	into->inflight_ns += v->inflight_ns;
	if (v->max_inflight > into->max_inflight)
		into->max_inflight = v->max_inflight;
	if (tr)
		busy_close(tr, w, into);
}

static int collect_busy(struct block_domain *d, unsigned int phase,
			const struct phase_window *w, struct block_result *b)
{
	struct blk_busy_phase *v = malloc(sizeof(*v));
	struct blk_tracks *all = malloc(sizeof(*all));
	const struct blk_track *t = NULL;
	__u32 key = phase, zero = 0;
	unsigned int i;
	int err = 0;

	if (!v || !all) {
		err = -ENOMEM;
		goto out;
	}
	err = percpu_stats_read(&d->busy, key, v);
	if (err)
		goto out;
	/* the tracks now, to close a phase's busy time at its end */
	if (w->end_ns &&
	    !bpf_map_lookup_elem_flags(bpf_map__fd(d->skel->maps.tracks), &zero,
				       all, BPF_F_LOCK))
		t = all->t;
	busy_add(&v->t[BLK_TRACK_DEVICE], t ? &t[BLK_TRACK_DEVICE] : NULL, w,
		 &b->device);
	for (i = 0; i < BLK_IOC_NR; i++)
		busy_add(&v->t[BLK_TRACK_IOCLASS(i)],
			 t ? &t[BLK_TRACK_IOCLASS(i)] : NULL, w,
			 &b->ioclass[i]);
	for (i = 0; i < BLK_ISS_NR; i++)
		busy_add(&v->t[BLK_TRACK_ISSUER(i)],
			 t ? &t[BLK_TRACK_ISSUER(i)] : NULL, w, &b->issuer[i]);
out:
	free(v);
	free(all);
	return err;
}

/* a stacked target: each member's requests of the phase, by IO class */
static int collect_members(struct block_domain *d, unsigned int phase,
			   struct block_result *b)
{
	struct blk_member_io v;
	unsigned int i, c;
	int err;

	for (i = 0; i < d->n_members; i++) {
		struct block_member_result *r = &b->member[i];

		err = percpu_stats_read(&d->members,
					phase * BLK_MEMBERS_MAX + i, &v);
		if (err)
			return err;
		for (c = 0; c < BLK_IOC_NR; c++) {
			r->ios[c] += v.ios[c];
			r->bytes[c] += v.bytes[c];
		}
		r->lat.count += v.lat_count;
		r->lat.sum_ns += v.lat_sum_ns;
		if (v.lat_max_ns > r->lat.max_ns)
			r->lat.max_ns = v.lat_max_ns;
	}
	if (d->n_members > b->n_members)
		b->n_members = d->n_members;
	return 0;
}

static int block_collect(void *priv, unsigned int phase,
			 struct phase_result *out)
{
	struct block_domain *d = priv;
	struct fsprof_bpf__bss *bss = d->skel->bss;
	struct phase_window w = { 0, 0 };
	int err;

	if (phase >= FSPROF_MAX_PHASES)
		return -EINVAL;
	if (phase != FSPROF_PHASE_NONE)
		block_sweep(d);
	if (phase != FSPROF_PHASE_NONE)
		w = (struct phase_window){ out->start_mono_ns,
					   out->end_mono_ns };
	err = collect_io(d, phase, &out->block);
	if (!err)
		phase_keys_collected(&d->io_keys, phase);
	if (!err)
		err = collect_busy(d, phase, &w, &out->block);
	if (!err)
		err = collect_members(d, phase, &out->block);
	if (err)
		return err;
	out->block.traced = true;
	err = metric_add(&out->metrics, "block.events_dropped",
			 bss->block_events_dropped[phase]);
	if (!err && d->skel->rodata->test_drop_every)
		err = metric_add(&out->metrics,
				 "block.test_completions_dropped",
				 bss->test_dropped[phase]);
	if (!err && d->every_process)
		err = block_procs_collect(bpf_map__fd(d->skel->maps.proc_io),
					  bpf_map__fd(d->skel->maps.proc_comm),
					  phase, &out->procs);
	if (!err && d->every_process)
		out->procs.lost = bss->proc_full;
	if (err)
		return err;
	if (phase != FSPROF_PHASE_NONE)
		return timeline_map_collect(&d->timeline, out, block_timeline,
					    sizeof(block_timeline) /
						    sizeof(block_timeline[0]));
	err = metric_add(&out->metrics, "block.latency_untracked",
			 bss->inflight_full);
	if (!err)
		err = metric_add(&out->metrics, "block.requeues",
				 bss->requeues);
	if (!err)
		err = metric_add(&out->metrics, "block.inflight_expired",
				 d->inflight_expired);
	if (!err)
		err = metric_add(&out->metrics, "block.inflight_stale",
				 bss->inflight_stale);
	if (!err)
		err = metric_add(&out->metrics, "block.bio_records_expired",
				 d->bios_expired);
	if (!err)
		err = metric_add(&out->metrics, "block.issuer_unmatched",
				 bss->bio_unmatched);
	if (!err && bss->stats_full)
		err = metric_add(&out->metrics, "block.requests_uncounted",
				 bss->stats_full);
	return err;
}

static int block_event_ring(void *priv)
{
	const struct block_domain *d = priv;

	return bpf_map__fd(d->skel->maps.block_rare_events);
}

/* a slow IO: its class and issuer by name */
static void block_event_name(void *priv, const struct fsprof_event *raw,
			     struct event_record *rec)
{
	(void)priv;
	if (raw->kind != FSPROF_EV_BLK_SLOW_IO)
		return;
	snprintf(rec->s[0], sizeof(rec->s[0]), "%s",
		 blk_ioclass_name(raw->aux & 0xff));
	snprintf(rec->s[1], sizeof(rec->s[1]), "%s",
		 blk_issuer_name(raw->aux >> 8));
}

static void block_destroy(void *priv)
{
	struct block_domain *d = priv;

	if (!d)
		return;
	timeline_map_close(&d->timeline);
	if (d->track_expired)
		munmap(d->track_expired, track_expired_len());
	detach_programs(d->slots, BL_NR);
	percpu_stats_fini(&d->busy);
	percpu_stats_fini(&d->io);
	percpu_stats_fini(&d->members);
	free(d);
}

const struct trace_domain_ops block_domain = {
	.name = "block",
	.charging =
		"requests (count, bytes, size, latency): the phase they were issued in; busy and in-flight time: the phase in which it elapsed, split at every switch",
	.open = block_open,
	.loaded = block_loaded,
	.attach = block_attach,
	.bind = block_bind,
	.phase_after = block_phase_after,
	.in_flight = block_in_flight,
	.collect = block_collect,
	.event_ring = block_event_ring,
	.event_name = block_event_name,
	.destroy = block_destroy,
};
