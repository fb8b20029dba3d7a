// SPDX-License-Identifier: GPL-2.0
/*
 * The cause table of the sched domain, src/trace/sched_causes.h, on stacks
 * as bpf_get_stackid + /proc/kallsyms gave them on 6.18 (innermost first,
 * the BPF and scheduler frames included, as the domain passes them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace/sched_causes.h"

#define CLASSIFY(...)                                                       \
	sched_cause_classify((const char *const[]){ __VA_ARGS__ },          \
			     sizeof((const char *const[]){ __VA_ARGS__ }) / \
				     sizeof(const char *))

/* what every stack starts with: the program, the tracepoint, __schedule */
#define PLUMBING                                                        \
	"bpf_prog_6deef7357e7b4530_fsprof_switch+0x1a3",                \
		"bpf_trace_run4+0x8e", "__bpf_trace_sched_switch+0x10", \
		"__schedule+0x4c5", "schedule+0x23"

static void an_ext4_fsync_waits_for_the_journal_commit(void **state)
{
	(void)state;
	assert_int_equal(CLASSIFY(PLUMBING, "jbd2_log_wait_commit+0xee",
				  "ext4_sync_file+0x1f2", "do_fsync+0x3b",
				  "__x64_sys_fsync+0xf"),
			 SCHED_CAUSE_JOURNAL_COMMIT);
	assert_int_equal(CLASSIFY(PLUMBING, "jbd2_log_wait_commit+0xee",
				  "jbd2_complete_transaction+0x70",
				  "ext4_sync_file+0x1f2"),
			 SCHED_CAUSE_JOURNAL_COMMIT);
}

/*
 * btrfs's fsync, from a real run (6.18): the superblock's FUA write, the
 * cache flush before it and the log's own blocks, all inside
 * btrfs_sync_log; a full transaction commit is its own cause
 */
static void a_btrfs_fsync_waits_for_its_log_sync_or_commit(void **state)
{
	(void)state;
	assert_int_equal(
		CLASSIFY(PLUMBING, "io_schedule+0x3f", "folio_wait_bit+0x120",
			 "write_all_supers+0x32a", "btrfs_sync_log+0xa08",
			 "btrfs_sync_file+0x40d", "do_fsync+0x3b"),
		SCHED_CAUSE_BTRFS_LOG_SYNC);
	assert_int_equal(CLASSIFY(PLUMBING, "io_schedule_timeout+0x51",
				  "wait_for_completion_io+0x86",
				  "write_all_supers+0x78c",
				  "btrfs_sync_log+0xa08",
				  "btrfs_sync_file+0x40d"),
			 SCHED_CAUSE_BTRFS_LOG_SYNC);
	assert_int_equal(CLASSIFY(PLUMBING, "out_of_line_wait_on_bit+0x93",
				  "btrfs_btree_wait_writeback_range+0x106",
				  "__btrfs_wait_marked_extents+0xce",
				  "btrfs_wait_tree_log_extents+0x1f",
				  "btrfs_sync_log+0x564",
				  "btrfs_sync_file+0x40d"),
			 SCHED_CAUSE_BTRFS_LOG_SYNC);
	assert_int_equal(CLASSIFY(PLUMBING, "wait_for_commit+0x10c",
				  "btrfs_commit_transaction+0x93d",
				  "btrfs_sync_file+0x4a5", "do_fsync+0x3b"),
			 SCHED_CAUSE_BTRFS_COMMIT);
	assert_true(sched_cause_is_durability(SCHED_CAUSE_BTRFS_LOG_SYNC));
	assert_true(sched_cause_is_durability(SCHED_CAUSE_BTRFS_COMMIT));
}

#define PATH(...)                                                          \
	sched_path_classify((const char *const[]){ __VA_ARGS__ },          \
			    sizeof((const char *const[]){ __VA_ARGS__ }) / \
				    sizeof(const char *))

/*
 * Who asked for a durability wait, from stacks of real runs (issue 32): an
 * O_DSYNC write reaches the filesystem's fsync and is the write's
 */
static void a_durability_wait_is_charged_to_the_call_that_asked(void **state)
{
	(void)state;
	assert_int_equal(PATH(PLUMBING, "xlog_wait_on_iclog+0x17c",
			      "xfs_log_force_seq+0x89", "xfs_file_fsync+0x1d2",
			      "xfs_file_buffered_write+0x2b8",
			      "vfs_write+0x29c", "ksys_write+0x6f"),
			 SCHED_PATH_WRITE);
	assert_int_equal(PATH(PLUMBING, "jbd2_log_wait_commit+0xee",
			      "ext4_sync_file+0x1f2", "do_fsync+0x3b",
			      "__x64_sys_fdatasync+0xf"),
			 SCHED_PATH_FSYNC);
	assert_int_equal(PATH(PLUMBING, "jbd2_log_wait_commit+0xee",
			      "ext4_sync_fs+0x1", "sync_filesystem+0x7",
			      "__x64_sys_syncfs+0x4"),
			 SCHED_PATH_SYNCFS);
	/* dirsync / wsync: the create's own transaction commits */
	assert_int_equal(PATH(PLUMBING, "jbd2_log_wait_commit+0xee",
			      "jbd2_journal_stop+0x1", "ext4_create+0x1",
			      "path_openat+0x1", "do_filp_open+0x1"),
			 SCHED_PATH_NAMESPACE);
	assert_int_equal(PATH(PLUMBING, "xlog_wait_on_iclog+0x17c",
			      "__xfs_trans_commit+0x1", "xfs_remove+0x1",
			      "do_unlinkat+0x1"),
			 SCHED_PATH_NAMESPACE);
	assert_int_equal(PATH(PLUMBING, "jbd2_log_wait_commit+0xee",
			      "kjournald2+0x1", "kthread+0x1"),
			 SCHED_PATH_OTHER);
	assert_string_equal(sched_path_name(SCHED_PATH_NAMESPACE), "namespace");
}

/* folio_wait_bit is a page wait; under folio_wait_writeback, not a read */
static void a_wait_for_data_writeback_is_writeback_wait(void **state)
{
	(void)state;
	assert_int_equal(CLASSIFY(PLUMBING, "io_schedule+0x3f",
				  "folio_wait_bit+0x120",
				  "folio_wait_writeback+0x2a",
				  "__filemap_fdatawait_range+0xac",
				  "file_write_and_wait_range+0x8f",
				  "ext4_sync_file+0xa0", "do_fsync+0x3b"),
			 SCHED_CAUSE_WRITEBACK_WAIT);
	assert_int_equal(CLASSIFY(PLUMBING, "wb_wait_for_completion+0x5b",
				  "sync_inodes_sb+0xd6",
				  "sync_filesystem+0x5c"),
			 SCHED_CAUSE_WRITEBACK_WAIT);
}

static void a_page_wait_under_a_read_is_read_io(void **state)
{
	(void)state;
	assert_int_equal(CLASSIFY(PLUMBING, "io_schedule+0x3f",
				  "folio_wait_bit_common+0x13d",
				  "filemap_get_pages+0x5e2",
				  "filemap_read+0xe1", "vfs_read+0x2a4"),
			 SCHED_CAUSE_READ_IO);
	/* the same page lock wait outside any read path is not a read */
	assert_int_equal(CLASSIFY(PLUMBING, "io_schedule+0x3f",
				  "folio_wait_bit_common+0x13d",
				  "__folio_lock+0x17",
				  "write_cache_pages+0x2c1"),
			 SCHED_CAUSE_OTHER);
	assert_int_equal(
		CLASSIFY(PLUMBING, "io_schedule+0x3f", "bit_wait_io+0xd",
			 "__wait_on_bit+0x29", "out_of_line_wait_on_bit+0x93",
			 "ext4_read_bh+0x7c", "ext4_read_inode_bitmap+0x2d1"),
		SCHED_CAUSE_READ_IO);
	/* a directory block read by a lookup */
	assert_int_equal(
		CLASSIFY(PLUMBING, "io_schedule+0x3f", "bit_wait_io+0xd",
			 "__wait_on_bit+0x29", "out_of_line_wait_on_bit+0x93",
			 "__ext4_find_entry+0x31b", "ext4_lookup+0x1d4"),
		SCHED_CAUSE_READ_IO);
}

/* the innermost specific frame wins, even under a read path */
static void the_innermost_specific_frame_wins(void **state)
{
	(void)state;
	assert_int_equal(CLASSIFY(PLUMBING, "io_schedule+0x3f",
				  "out_of_line_wait_on_bit+0x93",
				  "jbd2_write_superblock+0x100",
				  "jbd2_log_do_checkpoint+0x1bd",
				  "__jbd2_log_wait_for_space+0x7f",
				  "add_transaction_credits+0x371",
				  "start_this_handle+0x11e", "touch_atime+0xf3",
				  "filemap_read+0x3d6"),
			 SCHED_CAUSE_JOURNAL_SPACE);
	/* a locked running transaction, met while adding credits */
	assert_int_equal(CLASSIFY(PLUMBING, "wait_transaction_locked+0x8a",
				  "add_transaction_credits+0x1f1",
				  "start_this_handle+0x11e"),
			 SCHED_CAUSE_JOURNAL_LOCKED);
}

/* xfs_ilock takes an rwsem: the specific frame outward names the wait */
static void generic_locks_yield_to_a_specific_frame(void **state)
{
	(void)state;
	assert_int_equal(CLASSIFY(PLUMBING, "rwsem_down_write_slowpath+0x25f",
				  "down_write+0x5b", "xfs_ilock+0x7d",
				  "xfs_file_buffered_write+0x6c"),
			 SCHED_CAUSE_XFS_INODE_LOCK);
	assert_int_equal(CLASSIFY(PLUMBING, "rwsem_down_write_slowpath+0x25f",
				  "down_write+0x5b",
				  "ext4_buffered_write_iter+0x3d",
				  "vfs_write+0x28c"),
			 SCHED_CAUSE_RWSEM);
	/* a flush is a synchronous bio too: the flush names it */
	assert_int_equal(CLASSIFY(PLUMBING, "io_schedule_timeout+0x19",
				  "submit_bio_wait+0x5f",
				  "blkdev_issue_flush+0x38",
				  "ext4_sync_file+0x233"),
			 SCHED_CAUSE_DEVICE_FLUSH);
	assert_int_equal(CLASSIFY(PLUMBING, "io_schedule_timeout+0x19",
				  "submit_bio_wait+0x5f",
				  "ext4_some_unlisted_caller+0x10"),
			 SCHED_CAUSE_READ_IO);
}

/* compiler suffixes and prefixes: xfs_log_force* and __mutex_lock.* */
static void suffixes_and_prefixes_match(void **state)
{
	(void)state;
	assert_int_equal(
		CLASSIFY(PLUMBING, "schedule_timeout+0x100",
			 "wait_for_completion+0x86", "__flush_workqueue+0x15a",
			 "xlog_cil_push_now.isra.0+0x5b",
			 "xlog_cil_force_seq+0x62", "xfs_log_force_seq+0x6d",
			 "xfs_file_fsync+0x1d2"),
		SCHED_CAUSE_XFS_LOG_FORCE);
	assert_int_equal(CLASSIFY(PLUMBING, "schedule_preempt_disabled+0x15",
				  "__mutex_lock.constprop.0+0x3c6",
				  "__mutex_lock_slowpath+0x13",
				  "mutex_lock+0x3a", "do_unlinkat+0x134"),
			 SCHED_CAUSE_MUTEX);
	/* a pattern is a whole name unless it ends with '*' */
	assert_int_equal(CLASSIFY(PLUMBING, "xfs_buf_lock_helper+0x10"),
			 SCHED_CAUSE_OTHER);
	assert_int_equal(CLASSIFY(PLUMBING, "xfs_buf_lock+0x3b",
				  "xfs_buf_find_lock+0x2d"),
			 SCHED_CAUSE_XFS_BUF_LOCK);
	assert_int_equal(CLASSIFY(PLUMBING, "xlog_grant_head_wait+0xbc",
				  "xlog_grant_head_check+0xdb",
				  "xfs_log_reserve+0xc2"),
			 SCHED_CAUSE_XFS_LOG_SPACE);
}

static void writers_and_the_workload_driver(void **state)
{
	(void)state;
	assert_int_equal(CLASSIFY(PLUMBING, "io_schedule_timeout+0x19",
				  "balance_dirty_pages+0x2b1",
				  "balance_dirty_pages_ratelimited_flags+0x2c6",
				  "generic_perform_write+0x17b"),
			 SCHED_CAUSE_DIRTY_THROTTLE);
	assert_int_equal(CLASSIFY(PLUMBING, "io_schedule+0x3f",
				  "__iomap_dio_rw+0x5b6", "iomap_dio_rw+0x12",
				  "ext4_dio_write_iter+0x2d8"),
			 SCHED_CAUSE_DIRECT_IO);
	assert_int_equal(CLASSIFY(PLUMBING, "do_nanosleep+0x6a",
				  "hrtimer_nanosleep+0xcd"),
			 SCHED_CAUSE_SLEEP);
	assert_int_equal(CLASSIFY(PLUMBING, "do_wait+0x5e",
				  "kernel_wait4+0xa6"),
			 SCHED_CAUSE_WAIT_CHILD);
}

/* frames that could not be named, and frames no entry knows */
static void unknown_and_unnamed_frames_are_other(void **state)
{
	(void)state;
	assert_int_equal(CLASSIFY(PLUMBING, "some_new_wait+0x10",
				  "some_caller+0x20"),
			 SCHED_CAUSE_OTHER);
	assert_int_equal(CLASSIFY(NULL, NULL, "jbd2_log_wait_commit+0xee"),
			 SCHED_CAUSE_JOURNAL_COMMIT);
	assert_int_equal(sched_cause_classify(NULL, 0), SCHED_CAUSE_OTHER);
}

static void every_cause_has_its_own_name(void **state)
{
	unsigned int i, j;

	(void)state;
	for (i = 0; i < SCHED_CAUSE_NR; i++) {
		assert_true(strlen(sched_cause_name(i)) > 0);
		for (j = 0; j < i; j++)
			assert_string_not_equal(sched_cause_name(i),
						sched_cause_name(j));
	}
	assert_string_equal(sched_cause_name(SCHED_CAUSE_RUNQUEUE), "runqueue");
	assert_string_equal(sched_cause_name(SCHED_CAUSE_NR), "other");
}

/*
 * docs/metrics.md's cause table, row by row: the cause and the functions
 * its second column names in backquotes (those after "generic:" marked).
 * Read from the top of the tree, where make test runs the unit tests.
 */
#define DOC_PATH "docs/metrics.md"
#define DOC_HEADER "| cause | functions |"
#define DOC_ROWS 32
#define DOC_NAMES 40

struct doc_row {
	char cause[32];
	char name[DOC_NAMES][48];
	bool generic[DOC_NAMES];
	unsigned int n;
};

static void doc_row_parse(const char *line, struct doc_row *r)
{
	const char *cell = strchr(line + 1, '|'), *end, *q, *tick;
	bool generic = false;
	size_t len;

	memset(r, 0, sizeof(*r));
	assert_non_null(cell);
	/* "| `journal_commit` | ..." */
	q = strchr(line, '`');
	assert_true(q && q < cell);
	len = strcspn(q + 1, "`");
	assert_true(len < sizeof(r->cause));
	memcpy(r->cause, q + 1, len);
	end = strchr(cell + 1, '|');
	assert_non_null(end);
	for (q = cell + 1; q < end && (tick = memchr(q, '`', end - q));) {
		const char *gen = strstr(q, "generic:");

		if (gen && gen < tick)
			generic = true;
		len = strcspn(tick + 1, "`");
		assert_true(r->n < DOC_NAMES && len < sizeof(r->name[0]));
		memcpy(r->name[r->n], tick + 1, len);
		r->generic[r->n++] = generic;
		q = tick + len + 2;
	}
}

static unsigned int doc_rows_read(struct doc_row *rows)
{
	FILE *f = fopen(DOC_PATH, "re");
	char line[2048];
	bool in = false;
	unsigned int n = 0;

	if (!f)
		fail_msg("open %s (run from the top of the tree)", DOC_PATH);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, DOC_HEADER, strlen(DOC_HEADER))) {
			in = true;
			continue;
		}
		if (!in || !strncmp(line, "|---", 4))
			continue;
		if (line[0] != '|')
			break;
		assert_true(n < DOC_ROWS);
		doc_row_parse(line, &rows[n++]);
	}
	fclose(f);
	assert_true(n > 0);
	return n;
}

static const struct doc_row *doc_row_of(const struct doc_row *rows,
					unsigned int n, const char *cause)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].cause, cause))
			return &rows[i];
	return NULL;
}

static void every_cause_and_frame_of_the_table_is_in_the_docs(void **state)
{
	struct doc_row *rows = calloc(DOC_ROWS, sizeof(*rows));
	const struct doc_row *r;
	enum sched_cause cause;
	const char *pattern;
	unsigned int n, i, k;
	bool generic;

	(void)state;
	assert_non_null(rows);
	n = doc_rows_read(rows);
	for (i = 0; i < SCHED_CAUSE_NR; i++)
		if (!doc_row_of(rows, n, sched_cause_name(i)))
			fail_msg("cause %s has no row in %s",
				 sched_cause_name(i), DOC_PATH);
	for (i = 0; (pattern = sched_cause_pattern(i, &cause, &generic)); i++) {
		r = doc_row_of(rows, n, sched_cause_name(cause));
		for (k = 0; k < r->n && strcmp(r->name[k], pattern); k++)
			;
		if (k == r->n)
			fail_msg("%s (%s) is not in %s's row of %s", pattern,
				 sched_cause_name(cause), r->cause, DOC_PATH);
		if (r->generic[k] != generic)
			fail_msg("%s: %s says generic %d, the table %d",
				 pattern, DOC_PATH, r->generic[k], generic);
	}
	free(rows);
}

/*
 * Each function a row names, alone on a stack, has that row's cause (the
 * read_io row's page waits count under a read path: filemap_read outside)
 */
static void every_function_the_docs_name_has_its_cause(void **state)
{
	struct doc_row *rows = calloc(DOC_ROWS, sizeof(*rows));
	unsigned int n, i, k;

	(void)state;
	assert_non_null(rows);
	n = doc_rows_read(rows);
	for (i = 0; i < n; i++) {
		const struct doc_row *r = &rows[i];
		bool read = !strcmp(r->cause, "read_io");

		for (k = 0; k < r->n; k++) {
			char frame[64];
			const char *stack[2] = { frame, "filemap_read+0x10" };
			enum sched_cause c;

			snprintf(frame, sizeof(frame), "%.*s+0x10",
				 (int)strcspn(r->name[k], "*"), r->name[k]);
			c = sched_cause_classify(stack, read ? 2 : 1);
			if (strcmp(sched_cause_name(c), r->cause))
				fail_msg(
					"%s names %s in %s's row, classified %s",
					DOC_PATH, r->name[k], r->cause,
					sched_cause_name(c));
		}
	}
	free(rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_ext4_fsync_waits_for_the_journal_commit),
		cmocka_unit_test(
			a_btrfs_fsync_waits_for_its_log_sync_or_commit),
		cmocka_unit_test(
			a_durability_wait_is_charged_to_the_call_that_asked),
		cmocka_unit_test(a_wait_for_data_writeback_is_writeback_wait),
		cmocka_unit_test(a_page_wait_under_a_read_is_read_io),
		cmocka_unit_test(the_innermost_specific_frame_wins),
		cmocka_unit_test(generic_locks_yield_to_a_specific_frame),
		cmocka_unit_test(suffixes_and_prefixes_match),
		cmocka_unit_test(writers_and_the_workload_driver),
		cmocka_unit_test(unknown_and_unnamed_frames_are_other),
		cmocka_unit_test(every_cause_has_its_own_name),
		cmocka_unit_test(
			every_cause_and_frame_of_the_table_is_in_the_docs),
		cmocka_unit_test(every_function_the_docs_name_has_its_cause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
