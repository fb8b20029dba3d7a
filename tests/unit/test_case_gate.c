// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's side of the case gate (run/case_gate.h), over a socketpair
 * standing for the guest's serial port: the line it says before a case,
 * the order it takes from the host's go, a stop, a host gone.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/case_gate.h"
#include "run/case_run.h"
#include "workload/workload.h"

struct gate_pair {
	int guest, host;
	struct fsspec fs;
	struct case_plan plan;
};

static int pair_setup(void **state)
{
	static struct gate_pair p;
	int sv[2];

	memset(&p, 0, sizeof(p));
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	p.guest = sv[0];
	p.host = sv[1];
	snprintf(p.fs.label, sizeof(p.fs.label), "xfs:mount=logbsize=256k");
	p.plan.wl = workload_find("seqio");
	assert_non_null(p.plan.wl);
	p.plan.fs = &p.fs;
	p.plan.repeat = 2;
	*state = &p;
	return 0;
}

static int pair_teardown(void **state)
{
	struct gate_pair *p = *state;

	close(p->guest);
	if (p->host >= 0)
		close(p->host);
	return 0;
}

/* what the guest said, up to its newline */
static void host_reads(struct gate_pair *p, const char *want)
{
	char buf[256];
	ssize_t n = read(p->host, buf, sizeof(buf) - 1);

	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
}

static void ready_names_the_case_and_go_gives_its_order(void **state)
{
	struct gate_pair *p = *state;
	unsigned int order = 0;

	/* the host's answer is there before the guest asks: it waits */
	assert_int_equal(write(p->host, "go 7\n", 5), 5);
	assert_int_equal(case_gate_wait(p->guest, &p->plan, &order), 0);
	assert_int_equal(order, 7);
	host_reads(p, "ready seqio xfs:mount=logbsize=256k 2\n");
}

static void a_stop_ends_the_cases(void **state)
{
	struct gate_pair *p = *state;
	unsigned int order = 0;

	assert_int_equal(write(p->host, "\r\nstop\n", 7), 7);
	assert_int_equal(case_gate_wait(p->guest, &p->plan, &order), 1);
	assert_int_equal(order, 0);
}

static void a_host_gone_is_an_error(void **state)
{
	struct gate_pair *p = *state;
	unsigned int order = 0;

	close(p->host);
	p->host = -1;
	/* a socket's closed peer would raise it; a serial port's does not */
	signal(SIGPIPE, SIG_IGN);
	assert_true(case_gate_wait(p->guest, &p->plan, &order) < 0);
}

static void finish_waits_for_a_line(void **state)
{
	struct gate_pair *p = *state;

	assert_int_equal(write(p->host, "end\n", 4), 4);
	case_gate_finish(p->guest);
	host_reads(p, "finish\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			ready_names_the_case_and_go_gives_its_order, pair_setup,
			pair_teardown),
		cmocka_unit_test_setup_teardown(a_stop_ends_the_cases,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(a_host_gone_is_an_error,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(finish_waits_for_a_line,
						pair_setup, pair_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
