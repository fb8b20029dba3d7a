// SPDX-License-Identifier: GPL-2.0
/* Reading /proc/fs/jbd2/<dev>-<ino>/info: src/trace/jbd2_proc.h */
#include <errno.h>
#include <inttypes.h>
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

#include "trace/jbd2_proc.h"

/* the first lines of a real info file (6.18, a loop device's journal) */
static const char info_text[] =
	"41 transactions (39 requested), each up to 8192 blocks\n"
	"average: \n"
	"  0ms waiting for transaction\n"
	"  0ms request delay\n"
	"  4ms running transaction\n";

static void transaction_count_is_the_first_number(void **state)
{
	uint64_t n = 0;

	(void)state;
	assert_int_equal(jbd2_proc_parse_transactions(info_text, &n), 0);
	assert_int_equal(n, 41);
	assert_int_equal(jbd2_proc_parse_transactions(
				 "0 transactions (0 requested)", &n),
			 0);
	assert_int_equal(n, 0);
}

static void text_without_a_transaction_count_is_refused(void **state)
{
	uint64_t n = 7;

	(void)state;
	assert_int_equal(jbd2_proc_parse_transactions("", &n), -EINVAL);
	assert_int_equal(jbd2_proc_parse_transactions("average: 41", &n),
			 -EINVAL);
	assert_int_equal(jbd2_proc_parse_transactions("41 requested", &n),
			 -EINVAL);
	assert_int_equal(jbd2_proc_parse_transactions("-1 transactions", &n),
			 -EINVAL);
	assert_int_equal(jbd2_proc_parse_transactions(
				 "99999999999999999999 transactions", &n),
			 -EINVAL);
	assert_int_equal(n, 7);
}

struct fake_root {
	char dir[64];
};

static void fake_entry(const struct fake_root *r, const char *name,
		       const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/info", r->dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int fake_root_setup(void **state)
{
	struct fake_root *r = calloc(1, sizeof(*r));

	snprintf(r->dir, sizeof(r->dir), "/tmp/fsprof-jbd2-XXXXXX");
	if (!mkdtemp(r->dir))
		return -1;
	/* names that start like the target's but are another device's */
	fake_entry(r, "loop30-8", "5 transactions (5 requested)\n");
	fake_entry(r, "loop3p1-8", "6 transactions (6 requested)\n");
	fake_entry(r, "loop3-8", info_text);
	fake_entry(r, "sdb", "7 transactions (7 requested)\n");
	*state = r;
	return 0;
}

static int fake_root_teardown(void **state)
{
	struct fake_root *r = *state;
	const char *names[] = { "loop30-8", "loop3p1-8", "loop3-8", "sdb" };
	char path[256];
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/info", r->dir, names[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", r->dir, names[i]);
		rmdir(path);
	}
	rmdir(r->dir);
	free(r);
	return 0;
}

static void device_journal_is_found_by_exact_device_name(void **state)
{
	struct fake_root *r = *state;
	char path[512], want[512];
	uint64_t n = 0;

	assert_int_equal(jbd2_proc_find(r->dir, "loop3", path, sizeof(path)),
			 0);
	snprintf(want, sizeof(want), "%s/loop3-8/info", r->dir);
	assert_string_equal(path, want);
	assert_int_equal(jbd2_proc_read_transactions(path, &n), 0);
	assert_int_equal(n, 41);
}

static void device_without_a_journal_entry_is_not_found(void **state)
{
	struct fake_root *r = *state;
	char path[512];

	/* "sdb" has an entry, but not "<dev>-<inode>": an external journal */
	assert_int_equal(jbd2_proc_find(r->dir, "sdb", path, sizeof(path)),
			 -ENOENT);
	assert_int_equal(jbd2_proc_find(r->dir, "loop", path, sizeof(path)),
			 -ENOENT);
	assert_int_equal(jbd2_proc_find(r->dir, "loop4", path, sizeof(path)),
			 -ENOENT);
}

static void missing_root_or_file_is_an_error(void **state)
{
	char path[512];
	uint64_t n;

	(void)state;
	assert_int_equal(jbd2_proc_find("/nonexistent/jbd2", "loop3", path,
					sizeof(path)),
			 -ENOENT);
	assert_int_equal(jbd2_proc_read_transactions("/nonexistent/jbd2/info",
						     &n),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(transaction_count_is_the_first_number),
		cmocka_unit_test(text_without_a_transaction_count_is_refused),
		cmocka_unit_test_setup_teardown(
			device_journal_is_found_by_exact_device_name,
			fake_root_setup, fake_root_teardown),
		cmocka_unit_test_setup_teardown(
			device_without_a_journal_entry_is_not_found,
			fake_root_setup, fake_root_teardown),
		cmocka_unit_test(missing_root_or_file_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
