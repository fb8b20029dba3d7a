// SPDX-License-Identifier: GPL-2.0
/* wb_reason_names() and wb_bdi_name() from src/trace/writeback.h */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/btf.h>

#include <cmocka.h>

#include "trace/writeback.h"

/* a BTF holding enum wb_reason with the given names and values */
static struct btf *btf_with_reasons(const char *const *names, const int *values,
				    int n)
{
	struct btf *btf = btf__new_empty();
	int i;

	assert_non_null(btf);
	assert_true(btf__add_enum(btf, "wb_reason", 4) > 0);
	for (i = 0; i < n; i++)
		assert_int_equal(btf__add_enum_value(btf, names[i], values[i]),
				 0);
	return btf;
}

static void reasons_are_named_by_the_kernel_enum_not_a_table(void **state)
{
	/* a future kernel that renumbers and adds a reason */
	const char *const names[] = { "WB_REASON_SYNC", "WB_REASON_BACKGROUND",
				      "WB_REASON_NEW_THING", "WB_REASON_MAX" };
	const int values[] = { 0, 5, 9, 10 };
	char out[WB_REASON_SLOTS][WB_REASON_NAME_LEN];
	struct btf *btf = btf_with_reasons(names, values, 4);

	(void)state;
	assert_int_equal(wb_reason_names(btf, out), 3);
	assert_string_equal(out[0], "sync");
	assert_string_equal(out[5], "background");
	assert_string_equal(out[9], "new_thing");
	/* WB_REASON_MAX is a count, not a reason: its slot stays numbered */
	assert_string_equal(out[10], "reason_10");
	assert_string_equal(out[1], "reason_1");
	btf__free(btf);
}

static void without_the_enum_every_slot_is_numbered(void **state)
{
	char out[WB_REASON_SLOTS][WB_REASON_NAME_LEN];
	struct btf *btf = btf__new_empty();

	(void)state;
	assert_int_equal(wb_reason_names(btf, out), 0);
	assert_string_equal(out[0], "reason_0");
	assert_string_equal(out[WB_REASON_SLOTS - 1], "reason_15");
	assert_int_equal(wb_reason_names(NULL, out), 0);
	btf__free(btf);
}

static void values_beyond_the_slots_are_ignored(void **state)
{
	const char *const names[] = { "WB_REASON_FAR", "WB_REASON_PERIODIC" };
	const int values[] = { 300, 3 };
	char out[WB_REASON_SLOTS][WB_REASON_NAME_LEN];
	struct btf *btf = btf_with_reasons(names, values, 2);

	(void)state;
	assert_int_equal(wb_reason_names(btf, out), 1);
	assert_string_equal(out[3], "periodic");
	btf__free(btf);
}

/* a sysfs-like tree: disk 8:0 with partition 8:1, and loop 7:2 */
static char *make_sysfs(void)
{
	char tmpl[] = "/tmp/fsprof-unit-sysfs.XXXXXX", cmd[512];
	char *root = mkdtemp(tmpl);

	assert_non_null(root);
	snprintf(
		cmd, sizeof(cmd),
		"cd %s && mkdir -p dev/block devices/sda/sda1 devices/loop2 && "
		"echo 8:0 > devices/sda/dev && echo 8:1 > devices/sda/sda1/dev && "
		"echo 1 > devices/sda/sda1/partition && echo 7:2 > devices/loop2/dev && "
		"ln -s ../../devices/sda dev/block/8:0 && "
		"ln -s ../../devices/sda/sda1 dev/block/8:1 && "
		"ln -s ../../devices/loop2 dev/block/7:2",
		root);
	assert_int_equal(system(cmd), 0);
	return strdup(root);
}

static void remove_tree(char *root)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

static void a_whole_disk_names_its_own_bdi(void **state)
{
	char *root = make_sysfs(), buf[WB_BDI_NAME_LEN];

	(void)state;
	assert_int_equal(wb_bdi_name((7u << 20) | 2, root, buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "7:2");
	assert_int_equal(wb_bdi_name((8u << 20) | 0, root, buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "8:0");
	/* minors above 255 use the 20-bit field */
	assert_int_equal(
		wb_bdi_name((259u << 20) | 300, root, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "259:300");
	remove_tree(root);
}

static void a_partition_names_its_disks_bdi(void **state)
{
	char *root = make_sysfs(), buf[WB_BDI_NAME_LEN];

	(void)state;
	assert_int_equal(wb_bdi_name((8u << 20) | 1, root, buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "8:0");
	remove_tree(root);
}

static void a_name_that_does_not_fit_is_refused(void **state)
{
	char buf[4];

	(void)state;
	assert_int_equal(wb_bdi_name((259u << 20) | 300, "/nonexistent", buf,
				     sizeof(buf)),
			 -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			reasons_are_named_by_the_kernel_enum_not_a_table),
		cmocka_unit_test(without_the_enum_every_slot_is_numbered),
		cmocka_unit_test(values_beyond_the_slots_are_ignored),
		cmocka_unit_test(a_whole_disk_names_its_own_bdi),
		cmocka_unit_test(a_partition_names_its_disks_bdi),
		cmocka_unit_test(a_name_that_does_not_fit_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
