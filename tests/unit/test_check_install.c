// SPDX-License-Identifier: GPL-2.0
/* fsprof check's install commands: the package manager and package names
 * of the distribution /etc/os-release describes (its ID or ID_LIKE). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "check/check_probe.h"

static void install_for(const char *os_release, const char *tool, char *buf,
			size_t len)
{
	char path[] = "/tmp/fsprof-os-release-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(os_release, f);
	fclose(f);
	assert_int_equal(check_install_command(path, tool, buf, len), 0);
	unlink(path);
}

static void each_family_gets_its_package_manager_and_names(void **state)
{
	char buf[256];

	(void)state;
	install_for("PRETTY_NAME=\"Debian GNU/Linux 12\"\nID=debian\n",
		    "dmsetup", buf, sizeof(buf));
	assert_string_equal(buf,
			    "apt-get install --no-install-recommends dmsetup");
	install_for("ID=ubuntu\nID_LIKE=debian\n", "qemu-system-x86_64", buf,
		    sizeof(buf));
	assert_string_equal(
		buf, "apt-get install --no-install-recommends qemu-system-x86");
	install_for("ID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\n", "dmsetup",
		    buf, sizeof(buf));
	assert_string_equal(buf, "dnf install device-mapper");
	install_for("ID=fedora\n", "xz", buf, sizeof(buf));
	assert_string_equal(buf, "dnf install xz");
	install_for("ID=arch\n", "busybox", buf, sizeof(buf));
	assert_string_equal(buf, "pacman -S busybox");
	/* unknown: every family's name */
	install_for("ID=gentoo\n", "dmsetup", buf, sizeof(buf));
	assert_non_null(strstr(buf, "Debian dmsetup, Fedora device-mapper"));
}

static void a_tool_it_does_not_list_is_refused(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(check_install_command("/etc/os-release", "vi", buf,
					       sizeof(buf)),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			each_family_gets_its_package_manager_and_names),
		cmocka_unit_test(a_tool_it_does_not_list_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
