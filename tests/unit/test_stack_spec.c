// SPDX-License-Identifier: GPL-2.0
/*
 * --raid and --dm (src/target/stack_spec.h) and the kernel features they
 * need (src/target/stack_features.h), the latter on a fake /proc, /dev and
 * /lib/modules/R tree in a temp directory.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "target/fsspec.h"
#include "target/stack_features.h"
#include "target/stack_spec.h"

static char top[64];
static char proc[PATH_MAX], dev[PATH_MAX], modules[PATH_MAX];

static void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int make_tree(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/fsprof-stack.XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(proc, sizeof(proc), "%s/proc", top);
	snprintf(dev, sizeof(dev), "%s/dev", top);
	snprintf(modules, sizeof(modules), "%s/modules", top);
	if (mkdir(proc, 0700) || mkdir(dev, 0700) || mkdir(modules, 0700))
		return -1;
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	return system(cmd) ? -1 : 0;
}

static void raid_takes_level_0_or_1_and_2_to_8_members(void **state)
{
	struct stack_spec s = { 0 };
	char why[256];

	(void)state;
	assert_false(stack_spec_active(&s));
	assert_int_equal(stack_spec_parse_raid("0:2", &s, why, sizeof(why)), 0);
	assert_int_equal(s.raid_level, 0);
	assert_int_equal(s.raid_members, 2);
	assert_true(stack_spec_active(&s));
	assert_int_equal(stack_spec_parse_raid("1:8", &s, why, sizeof(why)), 0);
	assert_int_equal(s.raid_level, 1);
	assert_int_equal(s.raid_members, 8);
	assert_int_equal(stack_spec_parse_raid("5:3", &s, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "LEVEL 0 or 1"));
	assert_int_equal(stack_spec_parse_raid("1:1", &s, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "from 2 to 8"));
	assert_int_equal(stack_spec_parse_raid("0:9", &s, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(stack_spec_parse_raid("0:2x", &s, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(stack_spec_parse_raid("0:-2", &s, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(stack_spec_parse_raid("0", &s, why, sizeof(why)),
			 -EINVAL);
}

static void dm_takes_linear_only(void **state)
{
	struct stack_spec s = { 0 };
	char why[256];

	(void)state;
	assert_int_equal(stack_spec_parse_dm("striped", &s, why, sizeof(why)),
			 -EINVAL);
	assert_false(stack_spec_active(&s));
	assert_int_equal(stack_spec_parse_dm("linear", &s, why, sizeof(why)),
			 0);
	assert_true(s.dm_linear);
}

static void a_target_has_its_own_stack_in_fs(void **state)
{
	struct fsspec fs[4];
	struct stack_spec run = { 0 };
	char why[256];
	int n;

	(void)state;
	n = fsspec_parse("r0=ext4:raid='0:2',lin=xfs:dm=linear,"
			 "both=ext4:raid='1:3':dm=linear,ext4",
			 fs, 4, why, sizeof(why));
	assert_int_equal(n, 4);
	assert_int_equal(fs[0].stack.raid_members, 2);
	assert_int_equal(fs[0].stack.raid_level, 0);
	assert_string_equal(fs[0].label, "ext4:raid='0:2'");
	assert_true(fs[1].stack.dm_linear);
	assert_int_equal(fs[1].stack.raid_members, 0);
	assert_string_equal(fs[2].label, "ext4:raid='1:3':dm=linear");
	/* a target without one takes the run's --raid / --dm */
	assert_true(fsspec_stack(&fs[3], &run) == &run);
	assert_true(fsspec_stack(&fs[0], &run) == &fs[0].stack);
	assert_int_equal(fsspec_parse("ext4:raid='2:2'", fs, 4, why,
				      sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "LEVEL 0 or 1"));
	assert_int_equal(fsspec_parse("ext4:dm=crypt", fs, 4, why, sizeof(why)),
			 -EINVAL);
}

static void a_target_has_its_own_device_model_in_fs(void **state)
{
	struct device_model run = { .name = "none", .rotational = -1 };
	struct fsspec fs[4];
	char why[256];
	int n;

	(void)state;
	n = fsspec_parse("h=ext4:raid='1:2':model=hdd,"
			 "c=xfs:model='custom:wiops=50,wbps=8M',plain=ext4,"
			 "off=ext4:model=none",
			 fs, 4, why, sizeof(why));
	assert_int_equal(n, 4);
	assert_string_equal(fs[0].label, "ext4:raid='1:2':model='hdd'");
	assert_true(fsspec_model(&fs[0], &run) == &fs[0].model);
	assert_int_equal(fs[0].model.rpm, 7200);
	assert_int_equal(fs[0].model.rotational, 1);
	/* a custom model's commas and colon, quoted */
	assert_int_equal(fs[1].model.wiops, 50);
	assert_int_equal(fs[1].model.wbps, 8 << 20);
	assert_int_equal(fs[1].model.riops, 0);
	/* a target without one takes the run's --device-model; none is
	 * none, whatever the run's */
	assert_true(fsspec_model(&fs[2], &run) == &run);
	assert_true(fsspec_model(&fs[3], &run) == &fs[3].model);
	assert_false(device_model_active(fsspec_model(&fs[3], &run)));
	assert_int_equal(fsspec_parse("ext4:model=floppy", fs, 4, why,
				      sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "model= of ext4: unknown device model"));
}

static int check(const char *raid, bool dm, char *why, size_t len)
{
	struct kernel_places at = { proc, dev, modules };
	struct stack_spec s = { 0 };

	if (raid)
		assert_int_equal(stack_spec_parse_raid(raid, &s, why, len), 0);
	s.dm_linear = dm;
	return stack_features_check_at(&s, &at, why, len);
}

static void an_empty_kernel_is_refused_naming_the_driver(void **state)
{
	char why[512];

	(void)state;
	assert_int_equal(check("0:2", false, why, sizeof(why)), -ENODEV);
	assert_non_null(strstr(why, "md (software RAID) driver"));
	assert_non_null(strstr(why, "CONFIG_BLK_DEV_MD"));
	assert_int_equal(check(NULL, true, why, sizeof(why)), -ENODEV);
	assert_non_null(strstr(why, "device-mapper"));
	assert_non_null(strstr(why, "CONFIG_BLK_DEV_DM"));
}

static void shipped_modules_are_enough(void **state)
{
	char why[512];

	(void)state;
	put(modules, "modules.dep",
	    "kernel/drivers/md/md-mod.ko.xz:\n"
	    "kernel/drivers/md/raid1.ko.xz: kernel/drivers/md/md-mod.ko.xz\n"
	    "kernel/drivers/md/dm-mod.ko.xz:\n");
	assert_int_equal(check("1:2", true, why, sizeof(why)), 0);
	/* md is there, its raid0 personality is not */
	assert_int_equal(check("0:2", false, why, sizeof(why)), -ENODEV);
	assert_non_null(strstr(why, "raid0 personality"));
	assert_non_null(strstr(why, "CONFIG_MD_RAID0"));
	unlink(strcat(strcpy(why, modules), "/modules.dep"));
}

static void a_loaded_driver_is_seen_without_modules(void **state)
{
	char why[512];

	(void)state;
	put(proc, "mdstat",
	    "Personalities : [raid0] [raid1] \nunused devices: <none>\n");
	put(proc, "misc", "236 device-mapper\n237 loop-control\n");
	assert_int_equal(check("0:3", true, why, sizeof(why)), 0);
	assert_int_equal(check("1:2", false, why, sizeof(why)), 0);
	/* md without personalities loaded: raid1 not there yet */
	put(proc, "mdstat", "Personalities : \nunused devices: <none>\n");
	assert_int_equal(check("1:2", false, why, sizeof(why)), -ENODEV);
	put(modules, "modules.builtin", "kernel/drivers/md/raid1.ko\n");
	assert_int_equal(check("1:2", false, why, sizeof(why)), 0);
}

static void devices_are_split_and_counted(void **state)
{
	char devs[STACK_SPEC_MAX_MEMBERS][64], why[256];
	struct stack_spec s = { 0 };

	(void)state;
	assert_int_equal(stack_devices_parse("/dev/sdb,/dev/sdc", devs[0], 64,
					     STACK_SPEC_MAX_MEMBERS, why,
					     sizeof(why)),
			 2);
	assert_string_equal(devs[0], "/dev/sdb");
	assert_string_equal(devs[1], "/dev/sdc");
	assert_int_equal(stack_devices_parse("/dev/sdb", devs[0], 64,
					     STACK_SPEC_MAX_MEMBERS, why,
					     sizeof(why)),
			 1);
	assert_int_equal(stack_devices_parse("/dev/sdb,", devs[0], 64,
					     STACK_SPEC_MAX_MEMBERS, why,
					     sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "a device name is empty"));
	assert_int_equal(stack_devices_parse("a,b,c", devs[0], 64, 2, why,
					     sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "more than 2 devices"));
	assert_int_equal(stack_devices_parse("/dev/sdb,/dev/sdb", devs[0], 64,
					     STACK_SPEC_MAX_MEMBERS, why,
					     sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "/dev/sdb is given twice"));
	/* what a --device target of each stack needs */
	assert_int_equal(stack_spec_devices(NULL), 1);
	assert_int_equal(stack_spec_devices(&s), 1);
	assert_int_equal(stack_spec_parse_dm("linear", &s, why, sizeof(why)),
			 0);
	assert_int_equal(stack_spec_devices(&s), 1);
	assert_int_equal(stack_spec_parse_raid("1:3", &s, why, sizeof(why)), 0);
	assert_int_equal(stack_spec_devices(&s), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(raid_takes_level_0_or_1_and_2_to_8_members),
		cmocka_unit_test(dm_takes_linear_only),
		cmocka_unit_test(devices_are_split_and_counted),
		cmocka_unit_test(a_target_has_its_own_stack_in_fs),
		cmocka_unit_test(a_target_has_its_own_device_model_in_fs),
		cmocka_unit_test_setup_teardown(
			an_empty_kernel_is_refused_naming_the_driver, make_tree,
			remove_tree),
		cmocka_unit_test_setup_teardown(shipped_modules_are_enough,
						make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(
			a_loaded_driver_is_seen_without_modules, make_tree,
			remove_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
