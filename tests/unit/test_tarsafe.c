// SPDX-License-Identifier: GPL-2.0
/* Member path and link checks of untar (src/workload/tarsafe.h) */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "workload/tarsafe.h"

static void check_normal(const char *in, const char *want)
{
	char out[64];
	int rc = tarsafe_normalize(in, out, sizeof(out));

	if (rc)
		fail_msg("tarsafe_normalize(\"%s\") = %d, want \"%s\"", in, rc,
			 want);
	if (strcmp(out, want))
		fail_msg("tarsafe_normalize(\"%s\") = \"%s\", want \"%s\"", in,
			 out, want);
}

static void normalize_drops_dot_components_and_extra_slashes(void **state)
{
	(void)state;
	check_normal("a/b", "a/b");
	check_normal("./a//./b/", "a/b");
	check_normal("././a", "a");
	check_normal("a/.", "a");
	check_normal(".", "");
	check_normal("./", "");
	check_normal("", "");
	check_normal("a/../b", "a/../b"); /* kept, for the check to refuse */
	check_normal(".hidden/..x", ".hidden/..x");
}

static void normalize_keeps_an_absolute_path_absolute(void **state)
{
	(void)state;
	check_normal("/etc/passwd", "/etc/passwd");
	check_normal("//etc//passwd", "/etc/passwd");
	check_normal("/", "/");
}

static void normalize_refuses_a_path_longer_than_the_buffer(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(tarsafe_normalize("abc/defgh", out, sizeof(out)),
			 -ENAMETOOLONG);
	assert_int_equal(tarsafe_normalize("abc/def", out, sizeof(out)), 0);
	assert_string_equal(out, "abc/def");
}

static void check_path(const char *path, const char *want_problem)
{
	const char *got = tarsafe_path_problem(path);

	if (!want_problem && got)
		fail_msg("path \"%s\" refused (%s), want it accepted", path,
			 got);
	if (want_problem && (!got || !strstr(got, want_problem)))
		fail_msg("path \"%s\": problem \"%s\", want \"%s\"", path,
			 got ? got : "(none)", want_problem);
}

static void member_paths_inside_are_accepted(void **state)
{
	(void)state;
	check_path("a", NULL);
	check_path("linux-6.1/fs/ext4/inode.c", NULL);
	check_path("a/..b/c..", NULL);
	check_path("...", NULL);
}

static void absolute_and_dotdot_member_paths_are_refused(void **state)
{
	(void)state;
	check_path("/etc/passwd", "absolute");
	check_path("..", "'..'");
	check_path("../x", "'..'");
	check_path("a/../../x", "'..'");
	check_path("a/..", "'..'");
	check_path("a/../b", "'..'"); /* harmless, but tar has no need of it */
}

static void check_symlink(const char *member, const char *target,
			  const char *want_problem)
{
	const char *got = tarsafe_symlink_problem(member, target);

	if (!want_problem && got)
		fail_msg("symlink %s -> %s refused (%s), want it accepted",
			 member, target, got);
	if (want_problem && (!got || !strstr(got, want_problem)))
		fail_msg("symlink %s -> %s: problem \"%s\", want \"%s\"",
			 member, target, got ? got : "(none)", want_problem);
}

static void symlinks_resolving_inside_are_accepted(void **state)
{
	(void)state;
	check_symlink("a/s", "x", NULL);
	check_symlink("a/s", "../x", NULL);
	check_symlink("a/b/s", "../../x", NULL);
	check_symlink("a/s", "./../x", NULL);
	check_symlink("a/s", "b/../../x", NULL);
	check_symlink("s", ".", NULL);
	check_symlink("a/s", "..", NULL);
}

static void symlinks_leaving_the_extraction_dir_are_refused(void **state)
{
	(void)state;
	check_symlink("s", "..", "outside");
	check_symlink("s", "../x", "outside");
	check_symlink("a/s", "../../x", "outside");
	check_symlink("a/b/s", "../../../etc/passwd", "outside");
	check_symlink("s", "b/../../x", "outside");
	check_symlink("a/s", "x/../../../y", "outside");
	check_symlink("a/s", "/etc", "absolute");
	check_symlink("a/s", "", "empty");
}

static void check_hardlink(const char *target, const char *want_problem)
{
	const char *got = tarsafe_hardlink_problem(target);

	if (!want_problem && got)
		fail_msg("hard link to %s refused (%s), want it accepted",
			 target, got);
	if (want_problem && (!got || !strstr(got, want_problem)))
		fail_msg("hard link to %s: problem \"%s\", want \"%s\"", target,
			 got ? got : "(none)", want_problem);
}

static void hard_links_must_name_a_member_inside(void **state)
{
	(void)state;
	check_hardlink("a/x", NULL);
	check_hardlink("x", NULL);
	check_hardlink("/etc/passwd", "absolute");
	check_hardlink("../x", "'..'");
	check_hardlink("a/../../x", "'..'");
	check_hardlink("", "empty");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			normalize_drops_dot_components_and_extra_slashes),
		cmocka_unit_test(normalize_keeps_an_absolute_path_absolute),
		cmocka_unit_test(
			normalize_refuses_a_path_longer_than_the_buffer),
		cmocka_unit_test(member_paths_inside_are_accepted),
		cmocka_unit_test(absolute_and_dotdot_member_paths_are_refused),
		cmocka_unit_test(symlinks_resolving_inside_are_accepted),
		cmocka_unit_test(
			symlinks_leaving_the_extraction_dir_are_refused),
		cmocka_unit_test(hard_links_must_name_a_member_inside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
