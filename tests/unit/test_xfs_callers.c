// SPDX-License-Identifier: GPL-2.0
/* the classes of log-force callers, src/trace/xfs_callers.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "trace/xfs_callers.h"

static void force_callers_fall_into_their_classes(void **state)
{
	(void)state;
	assert_int_equal(xfs_force_class_of("xfs_file_fsync"), XFS_FORCE_FSYNC);
	/* xfs_dir_fsync tail-calls: the address is in the VFS */
	assert_int_equal(xfs_force_class_of("do_fsync"), XFS_FORCE_FSYNC);
	assert_int_equal(xfs_force_class_of("xfs_fs_sync_fs"),
			 XFS_FORCE_SYNC_FS);
	assert_int_equal(xfs_force_class_of("xfs_log_worker"),
			 XFS_FORCE_LOG_WORKER);
	assert_int_equal(xfs_force_class_of("xfsaild"), XFS_FORCE_AIL);
	/* wsync: a create's synchronous transaction forces at its commit */
	assert_int_equal(xfs_force_class_of("__xfs_trans_commit"),
			 XFS_FORCE_SYNC_TRANS);
	assert_string_equal(xfs_force_class_name(XFS_FORCE_SYNC_TRANS),
			    "sync_trans");
	assert_int_equal(xfs_force_class_of("xfs_extent_busy_flush"),
			 XFS_FORCE_BUSY);
	assert_int_equal(xfs_force_class_of("xfs_reclaim_inode"),
			 XFS_FORCE_OTHER);
	assert_string_equal(xfs_force_class_name(XFS_FORCE_SYNC_FS), "sync_fs");
}

/* the second event of every force comes from inside the force itself */
static void the_cil_half_of_a_force_is_its_own_class(void **state)
{
	(void)state;
	assert_int_equal(xfs_force_class_of("xfs_log_force"), XFS_FORCE_CIL);
	assert_int_equal(xfs_force_class_of("xfs_log_force_seq"),
			 XFS_FORCE_CIL);
	assert_int_equal(xfs_force_class_of("xfs_log_force_lsn"),
			 XFS_FORCE_CIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(force_callers_fall_into_their_classes),
		cmocka_unit_test(the_cil_half_of_a_force_is_its_own_class),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
