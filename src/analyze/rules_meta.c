// SPDX-License-Identifier: GPL-2.0
/*
 * Rules on metadata the phase had to read from the device: an unlink or a
 * lookup that waits for blocks its filesystem did not hold in memory.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/rules.h"
#include "analyze/thresholds.h"
#include "results/metric_names.h"

/*
 * Frames of the paths that read metadata to find or free a file: unlink
 * (and the eviction and truncation that free its blocks), rmdir, lookups.
 */
static const char *const meta_path_frames[] = {
	"do_unlinkat", "do_rmdir", "evict",    "lookup",
	"_iget",       "truncate", "readdir", "iterate_dir",
};

/* indirect-mapped (ext2/ext3-style) block freeing */
static const char *const indirect_frames[] = {
	"ext4_free_branches", "ext4_ind_truncate", "ext2_free_branches",
	"ext2_truncate_blocks",
};

static bool frame_is(const char *frame, const char *const *names,
		     size_t n_names)
{
	size_t i;

	for (i = 0; i < n_names; i++)
		if (strstr(frame, names[i]))
			return true;
	return false;
}

static bool stack_has(const struct stack_record *s, const char *const *names,
		      size_t n_names)
{
	unsigned int i;

	for (i = 0; i < s->n_frames; i++)
		if (frame_is(s->frame[i], names, n_names))
			return true;
	return false;
}

/*
 * The read_io waits under a metadata path: their time and count over every
 * stack (sched.meta_read_ns, _count); a run recorded before those were
 * kept has the heaviest stacks' alone (a lower bound). The heaviest
 * stacks name the path.
 */
struct meta_waits {
	double ns;
	uint64_t count;
	bool indirect; /* one of them frees indirect-mapped blocks */
	const char *frame; /* the innermost metadata frame of the heaviest */
};

static void meta_waits_read(const struct phase_facts *x, struct meta_waits *w)
{
	const struct phase_result *p = x->p;
	const size_t n_path = sizeof(meta_path_frames) / sizeof(char *);
	const size_t n_ind = sizeof(indirect_frames) / sizeof(char *);
	unsigned int i, j;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < p->sched_stacks.n; i++) {
		const struct stack_record *s = &p->sched_stacks.v[i];

		if (strcmp(s->cause, "read_io") ||
		    !stack_has(s, meta_path_frames, n_path))
			continue;
		w->ns += (double)s->total_ns;
		w->count += s->count;
		w->indirect |= stack_has(s, indirect_frames, n_ind);
		for (j = 0; !w->frame && j < s->n_frames; j++)
			if (frame_is(s->frame[j], indirect_frames, n_ind) ||
			    frame_is(s->frame[j], meta_path_frames, n_path))
				w->frame = s->frame[j];
	}
	/* every stack's: 4 deep bitmap reads of 16 ms were out of the top */
	if (metric_find(&p->metrics, MN(SCHED_META_READ_NS))) {
		w->ns = (double)fact_metric(x, MN(SCHED_META_READ_NS));
		w->count = fact_metric(x, MN(SCHED_META_READ_COUNT));
	}
}

/* a frame's function without its offset ("evict+0x135" -> "evict") */
static const char *frame_name(const char *frame)
{
	return frame ? frame : "an unlink or lookup";
}

static int frame_len(const char *frame)
{
	return (int)strcspn(frame_name(frame), "+");
}

/* ext2 and ext3 map every file through indirect blocks */
static bool fs_indirect_mapped(const struct phase_facts *x)
{
	return !strcmp(x->c->target.fstype, "ext2") ||
	       !strcmp(x->c->target.fstype, "ext3");
}

static void meta_read_advice(const struct phase_facts *x, bool indirect,
			     struct finding *f)
{
	if (fs_indirect_mapped(x)) {
		finding_advice(
			f, ADVICE_FSTYPE, "ext4",
			"use ext4: extents free a file without reading mapping blocks (tune2fs -O extents on an %s applies only to files written after it); or keep the metadata warm: delete before other data evicts it",
			x->c->target.fstype);
	} else if (indirect) {
		finding_advice(
			f, ADVICE_WORKLOAD, NULL,
			"the files are indirect-mapped (written before extents were on): rewrite them (copy and rename) so they get extents, or keep the metadata warm");
	} else {
		finding_advice(
			f, ADVICE_NONE, NULL,
			"keep the metadata warm: enough memory that data streamed before the phase does not evict inodes, directories and mapping blocks (a lower vm.vfs_cache_pressure keeps dentries and inodes longer)");
	}
}

static void meta_read_evidence(const struct phase_facts *x,
			       const struct meta_waits *w, double wait_share,
			       struct finding *f)
{
	uint64_t ios = x->class_ios[BLK_IOC_META_READ];
	uint64_t bytes = x->class_bytes[BLK_IOC_META_READ];
	uint64_t files = x->p->work.files;
	double of_busy = x->busy > 0 ?
				 x->class_busy[BLK_IOC_META_READ] / x->busy :
				 0;

	if (w->ns > 0)
		finding_evidence(
			f, "sched.meta_read_ns", w->ns, wait_share,
			META_READ_WAIT_SHARE,
			"the workload slept %.0f%% of the phase in %llu metadata reads, the heaviest under %.*s (sched time budget)",
			100 * wait_share, (unsigned long long)w->count,
			frame_len(w->frame), frame_name(w->frame));
	finding_evidence(
		f, "block.io_classes.meta_read.ios / workload.files",
		files ? (double)ios / (double)files : NAN, NAN,
		META_READ_PER_FILE_WARN,
		"%llu metadata reads (%.0f KiB) for %llu files: %.2f per file%s",
		(unsigned long long)ios, (double)bytes / 1024,
		(unsigned long long)files,
		files ? (double)ios / (double)files : 0.0,
		files && (double)ios < META_READ_PER_FILE_WARN * (double)files ?
			" (blocks files share: inode tables, bitmaps, directories)" :
			"");
	finding_evidence(
		f, "block.io_classes.meta_read.busy_ns",
		x->class_busy[BLK_IOC_META_READ] * x->wall_ns, of_busy,
		META_READ_DEV_SHARE,
		"metadata reads kept the device busy %.0f%% of its busy time, %.0f%% of the phase",
		100 * of_busy, 100 * x->class_busy[BLK_IOC_META_READ]);
}

bool rule_metadata_read_bound(const struct phase_facts *x, struct finding *f)
{
	struct meta_waits w;
	double wait_share, of_busy;
	uint64_t files;

	if (x->too_short || !x->block || !x->class_ios[BLK_IOC_META_READ] ||
	    x->busy <= 0)
		return false;
	meta_waits_read(x, &w);
	of_busy = x->class_busy[BLK_IOC_META_READ] / x->busy;
	/* time first: the budget's waits; else the class's busy share */
	if (budget_usable(&x->budget))
		wait_share = x->budget.total_ns > 0 ?
				     w.ns / x->budget.total_ns :
				     0;
	else
		wait_share = x->class_busy[BLK_IOC_META_READ];
	if (wait_share < META_READ_WAIT_SHARE || of_busy < META_READ_DEV_SHARE)
		return false;
	files = x->p->work.files;
	f->severity = !files || (double)x->class_ios[BLK_IOC_META_READ] >=
					META_READ_PER_FILE_WARN * (double)files ?
			      FINDING_WARNING :
			      FINDING_INFO;
	finding_title(f, "%s waited for metadata reads%s", x->p->name,
		      w.indirect ? ": indirect blocks read to free files" :
				   "");
	meta_read_evidence(x, &w, wait_share, f);
	if (w.indirect)
		finding_mechanism_append(
			f,
			"Here the heaviest waits free indirect-mapped blocks (%.*s).",
			frame_len(w.frame), frame_name(w.frame));
	meta_read_advice(x, w.indirect, f);
	return true;
}
