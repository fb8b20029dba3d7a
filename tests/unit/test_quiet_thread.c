// SPDX-License-Identifier: GPL-2.0
/*
 * quiet_thread_start: the thread runs the function with every signal
 * blocked (a process-directed SIGINT goes to the main thread), under the
 * name given; the caller's own mask is as it was.
 */
#include <semaphore.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/quiet_thread.h"

struct seen {
	sem_t named; /* posted once quiet_thread_start has returned */
	sigset_t mask;
	char name[16];
};

static void *look(void *arg)
{
	struct seen *s = arg;

	pthread_sigmask(SIG_BLOCK, NULL, &s->mask);
	sem_wait(&s->named);
	pthread_getname_np(pthread_self(), s->name, sizeof(s->name));
	return s;
}

static void test_the_thread_blocks_every_signal_and_has_its_name(void **state)
{
	struct seen s = { 0 };
	sigset_t before, after;
	pthread_t t;
	void *ret;

	(void)state;
	sem_init(&s.named, 0, 0);
	sigemptyset(&before);
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	assert_int_equal(quiet_thread_start(&t, look, &s, "fsprof-test"), 0);
	sem_post(&s.named);
	assert_int_equal(pthread_join(t, &ret), 0);
	assert_ptr_equal(ret, &s);
	assert_true(sigismember(&s.mask, SIGINT));
	assert_true(sigismember(&s.mask, SIGTERM));
	assert_true(sigismember(&s.mask, SIGCHLD));
	assert_string_equal(s.name, "fsprof-test");
	pthread_sigmask(SIG_BLOCK, NULL, &after);
	assert_false(sigismember(&after, SIGINT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_the_thread_blocks_every_signal_and_has_its_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
