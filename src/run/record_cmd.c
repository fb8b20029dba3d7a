// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "run/live_case.h"
#include "run/live_phases.h"
#include "run/record_cmd.h"
#include "util/clock.h"
#include "util/log.h"

#define RECORD_POLL_NS 1000000000ULL

static void record_params(const struct run_options *opt, char *out, size_t size)
{
	char iv[32] = "";

	if (opt->interval_ns)
		snprintf(iv, sizeof(iv), ",interval=%gs",
			 opt->interval_ns / 1e9);
	if (opt->duration_ns)
		snprintf(out, size, "duration=%gs%s", opt->duration_ns / 1e9,
			 iv);
	else
		snprintf(out, size, "duration=until SIGINT%s", iv);
}

/* until the duration is over or a signal comes; time phases on the way */
static void record_wait(struct live_case *lc, struct live_phases *lp,
			uint64_t end)
{
	uint64_t now, wait;
	struct timespec ts;

	while (!lc->stop) {
		now = clock_mono_ns();
		if (end && now >= end)
			return;
		wait = live_phases_tick(lp, now);
		if (!wait || wait > RECORD_POLL_NS)
			wait = RECORD_POLL_NS;
		if (end && end - now < wait)
			wait = end - now;
		ts.tv_sec = (time_t)(wait / 1000000000ULL);
		ts.tv_nsec = (long)(wait % 1000000000ULL);
		nanosleep(&ts, NULL); /* a signal cuts it short */
	}
}

int record_command(const struct run_options *opt)
{
	struct case_workload who = { .every_process = true };
	struct target_spec spec;
	struct live_phases lp;
	struct live_case lc;
	uint64_t start, end;
	int code, err;

	live_case_spec(opt, 0, &spec);
	code = live_case_begin(&lc, opt, &spec, "record");
	if (lc.c)
		record_params(opt, lc.c->params, sizeof(lc.c->params));
	if (!code && !lc.stop) {
		err = case_tracer_up(&lc.ct, &lc.tracer, opt, &who, lc.c,
				     &lc.td);
		if (err)
			code = EXIT_RUN_FAILED;
	}
	if (!code && !lc.stop) {
		live_phases_init(&lp, lc.ct.tracer, 0, opt->interval_ns);
		log_info("recording %s%s", opt->dir,
			 opt->duration_ns ? "" : " until SIGINT (Ctrl-C)");
		/* the duration from the moment the programs see the phase */
		start = live_phases_begin(&lp, "record", clock_mono_ns());
		/*
		 * Ctrl-C ends a recording, once there is one: before, while
		 * the programs load, it interrupts (exit 130), not a run of
		 * nothing that exits 0 and writes no --json
		 */
		lc.sigint_ends = true;
		end = opt->duration_ns ? start + opt->duration_ns : 0;
		record_wait(&lc, &lp, end);
		err = live_phases_collect(&lp, lc.c, clock_mono_ns(), false);
		if (err)
			log_warn("collecting the phases: %s",
				 strerror_safe(-err));
		lc.c->complete = !lc.stop || lc.stop == SIGINT;
	}
	return live_case_end(&lc, code);
}
