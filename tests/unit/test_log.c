// SPDX-License-Identifier: GPL-2.0
/* What fsprof's messages print (src/util/log.h) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stderr_capture.h"
#include "util/log.h"

/* a guest's error with its console quoted runs to kilobytes: stderr has it
 * whole, the last error (a case's error field) its first 1023 bytes */
static void a_long_error_is_printed_whole(void **state)
{
	struct stderr_capture cap;
	char msg[3001];
	const char *out;

	(void)state;
	memset(msg, 'x', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = '\0';
	msg[2999] = 'E';
	assert_int_equal(stderr_capture_begin(&cap), 0);
	log_error("kernel 6.12: %s", msg);
	out = stderr_capture_end(&cap);
	assert_int_equal(strlen(out),
			 strlen("fsprof: kernel 6.12: ") + 3000 + 1);
	assert_string_equal(out + strlen(out) - 2, "E\n");
	assert_int_equal(strlen(log_last_error()), 1023);
}

static void a_short_error_is_printed_and_kept(void **state)
{
	struct stderr_capture cap;

	(void)state;
	assert_int_equal(stderr_capture_begin(&cap), 0);
	log_error("--fs: %s", "no such filesystem 'ext5'");
	assert_string_equal(stderr_capture_end(&cap),
			    "fsprof: --fs: no such filesystem 'ext5'\n");
	assert_string_equal(log_last_error(),
			    "--fs: no such filesystem 'ext5'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_long_error_is_printed_whole),
		cmocka_unit_test(a_short_error_is_printed_and_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
