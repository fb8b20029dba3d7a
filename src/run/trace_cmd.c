// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/live_case.h"
#include "run/command.h"
#include "run/live_phases.h"
#include "run/marker_reader.h"
#include "run/trace_cmd.h"
#include "trace/marker.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/spawn.h"
#include "util/stage.h"

/* the image for a command's target: sparse, it takes what CMD writes */
#define TRACE_IMAGE_SIZE (4ULL << 30)
/* after SIGINT is forwarded: how long the command may take to exit */
#define TRACE_KILL_AFTER_NS (10ULL * 1000000000ULL)
#define TRACE_POLL_NS 1000000000ULL

struct trace_ctx {
	struct live_case lc;
	struct command cmd;
	int marker_rd, marker_wr; /* the FSPROF_PHASE_FD pipe */
	struct marker_tracer marker;
	struct marker_reader reader;
	struct live_phases lp;
	struct cpu_cgroup cg; /* the command's CPU, its children's with it */
	bool forwarded; /* the stop signal went to the command */
	uint64_t forwarded_ns;
};

static void on_child(int sig)
{
	(void)sig; /* only to wake poll() */
}

/*
 * SIGINT/SIGTERM/SIGHUP: to the command's process group, then SIGKILL;
 * SIGPIPE (fsprof's own output closed) goes on as SIGTERM
 */
static void trace_forward_stop(struct trace_ctx *tc, uint64_t now)
{
	if (!tc->lc.stop)
		return;
	if (!tc->forwarded) {
		tc->forwarded = true;
		tc->forwarded_ns = now;
		log_warn(
			"%s: sent to the command's process group; waiting for it",
			strsignal(tc->lc.stop));
		command_signal(&tc->cmd,
			       tc->lc.stop == SIGPIPE ? SIGTERM : tc->lc.stop);
	} else if (now - tc->forwarded_ns > TRACE_KILL_AFTER_NS &&
		   tc->forwarded_ns) {
		log_warn("the command is still running 10 s after %s: SIGKILL",
			 strsignal(tc->lc.stop));
		command_signal(&tc->cmd, SIGKILL);
		tc->forwarded_ns = 0;
	}
}

/*
 * The command stopped: said, with the way on. It stays stopped, as a
 * shell's job does, until it is continued or a stop signal ends it (sent
 * with SIGCONT: at once); fsprof does not end a run on its own for it.
 */
static void trace_tell_stopped(const struct trace_ctx *tc, int sig)
{
	bool tty = sig == SIGTTIN || sig == SIGTTOU;

	log_warn(
		"the command (pid %d) is stopped by %s%s; fsprof waits until it goes on (kill -CONT %d) or ends: Ctrl-C (SIGINT) ends it",
		(int)tc->cmd.pid,
		sig == SIGSTOP ? "SIGSTOP" :
		sig == SIGTSTP ? "SIGTSTP" :
		sig == SIGTTIN ? "SIGTTIN" :
		sig == SIGTTOU ? "SIGTTOU" :
				 strsignal(sig),
		tty ? " (it read from the terminal or set its modes, which a command cannot from the process group of its own it runs in: give it its input from a file or a pipe)" :
		      "",
		(int)tc->cmd.pid);
}

/*
 * Until the command exits: markers, time phases, signals. SIGCHLD is
 * blocked but while ppoll waits, so that an exit is never missed between
 * the check and the wait.
 */
static void trace_wait(struct trace_ctx *tc)
{
	struct pollfd pfd = { .fd = tc->marker_rd, .events = POLLIN };
	sigset_t chld, saved, waiting;
	struct timespec ts;
	uint64_t now, next;
	int stopped;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &saved);
	waiting = saved;
	sigdelset(&waiting, SIGCHLD);
	for (;;) {
		now = clock_mono_ns();
		trace_forward_stop(tc, now);
		if (command_exited(&tc->cmd))
			break;
		stopped = command_stopped(&tc->cmd);
		if (stopped)
			trace_tell_stopped(tc, stopped);
		next = live_phases_tick(&tc->lp, now);
		if (!next || next > TRACE_POLL_NS)
			next = TRACE_POLL_NS;
		ts.tv_sec = (time_t)(next / 1000000000ULL);
		ts.tv_nsec = (long)(next % 1000000000ULL);
		if (ppoll(&pfd, pfd.fd >= 0 ? 1 : 0, &ts, &waiting) > 0 &&
		    !marker_reader_drain(&tc->reader))
			pfd.fd = -1; /* every writer closed it */
	}
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (pfd.fd >= 0)
		marker_reader_drain(&tc->reader); /* what it wrote last */
}

static int trace_pipe_open(struct trace_ctx *tc)
{
	int fds[2];

	/* packet mode: one write, one read, paired with the kernel's log */
	if (pipe2(fds, O_DIRECT | O_CLOEXEC)) {
		log_error("trace: make the FSPROF_PHASE_FD pipe: %s",
			  strerror_safe(errno));
		return -errno;
	}
	tc->marker_rd = fds[0];
	tc->marker_wr = fds[1];
	return fcntl(tc->marker_rd, F_SETFL, O_NONBLOCK) ? -errno : 0;
}

/* the counts of the markers and the command's end, in the spill-over */
static void trace_record_outcome(struct trace_ctx *tc, int status)
{
	struct metric_set *m = &tc->lc.c->spill.metrics;

	metric_add(m, "trace.exit_status", (uint64_t)status);
	metric_add(m, "trace.marker_lines", tc->reader.lines);
	metric_add(m, "trace.marker_lines_bad", tc->reader.bad);
	metric_add(m, "trace.marker_lines_late", tc->reader.late);
}

/* the command runs from here to its exit; its status, or < 0 */
static int trace_run(struct trace_ctx *tc, const char *path, char *const argv[])
{
	struct case_workload who = { 0 };
	struct tracer *tracer;
	char why[256];
	int err, status, cg_err;

	err = trace_pipe_open(tc);
	if (!err)
		err = command_fork(&tc->cmd, path, argv,
				   tc->lc.ct.target.workdir, tc->marker_wr);
	if (err)
		return err;
	/* in its cgroup before it execs: every process it starts is too */
	cg_err = cpu_cgroup_up(&tc->cg, tc->cmd.pid, &tc->lc.td, why,
			       sizeof(why));
	stage_mark("command forked");
	who.pid = tc->cmd.pid;
	/* the marker loads with the domains, in their object (see there) */
	if (!tc->lc.opt->no_trace && tc->lc.ct.target.fs_dev &&
	    !tc->lc.opt->interval_ns && !tracer_start(&tc->lc.tracer))
		marker_tracer_prepare(&tc->marker, &tc->lc.tracer,
				      tc->marker_wr);
	stage_mark("marker prepared");
	err = case_tracer_up(&tc->lc.ct, &tc->lc.tracer, tc->lc.opt, &who,
			     tc->lc.c, &tc->lc.td);
	tracer = tc->lc.ct.tracer;
	stage_mark("tracer up");
	/* its cost is fsprof's own, in the object's as the domains' */
	if (err || !tracer ||
	    marker_tracer_attach(&tc->marker, &tc->lc.c->programs, &tc->lc.td))
		marker_tracer_stop(&tc->marker); /* loaded for nothing */
	stage_mark("marker up");
	/* moved while the tracer loaded */
	if (!cg_err)
		cg_err = cpu_cgroup_moved(&tc->cg, why, sizeof(why));
	if (cg_err)
		log_warn(
			"trace: %s: a phase counts the CPU of the command's children only once they are waited for, in 10 ms ticks",
			why);
	marker_tracer_set_cgroup(&tc->marker,
				 cg_err ? 0 : cpu_cgroup_id(&tc->cg));
	close(tc->marker_wr); /* the command holds it now */
	tc->marker_wr = -1;
	if (err || tc->lc.stop) {
		command_release(&tc->cmd, false);
		command_reap(&tc->cmd);
		return err ? err : -EINTR;
	}
	live_phases_init(&tc->lp, tracer, tc->cmd.pid, tc->lc.opt->interval_ns);
	if (!cg_err)
		live_phases_use_cgroup(&tc->lp, &tc->cg);
	marker_reader_init(&tc->reader, tc->marker_rd, &tc->marker, &tc->lp,
			   tc->lc.opt->interval_ns != 0);
	live_phases_begin(&tc->lp, "cmd", clock_mono_ns());
	command_release(&tc->cmd, true);
	stage_mark("command started");
	trace_wait(tc);
	stage_mark("command exited");
	/* no marker after the command */
	marker_tracer_detach(&tc->marker);
	/* the phases end when the command does; its CPU is read before reaping */
	err = live_phases_collect(&tc->lp, tc->lc.c, clock_mono_ns(),
				  tc->reader.marked &&
					  !tc->lc.opt->interval_ns);
	stage_mark("collected");
	status = command_reap(&tc->cmd);
	command_end_group(&tc->cmd);
	trace_record_outcome(tc, status);
	if (err)
		log_warn("collecting the phases: %s", strerror_safe(-err));
	return status;
}

static int trace_exit_code(int status)
{
	if (status >= 0) {
		if (status)
			log_info(
				"the command exited with status %d: fsprof exits with it",
				status);
		return status;
	}
	return status == -EINTR ? EXIT_OK : EXIT_RUN_FAILED;
}

int trace_command(const struct run_options *opt, char *const argv[])
{
	struct sigaction sa = { .sa_handler = on_child };
	struct target_spec spec;
	struct trace_ctx *tc;
	char why[512], cmd_path[4096];
	int code, status = -EINTR, err;

	err = command_resolve(argv[0], cmd_path, sizeof(cmd_path), why,
			      sizeof(why));
	if (err) {
		log_error("trace: %s", why);
		return err == -ENOENT ? EXIT_COMMAND_NOT_FOUND :
					EXIT_COMMAND_NOT_EXECUTABLE;
	}
	tc = calloc(1, sizeof(*tc));
	if (!tc) {
		log_error("out of memory");
		return EXIT_RUN_FAILED;
	}
	tc->marker_rd = tc->marker_wr = -1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL); /* no SA_RESTART: wakes poll() */
	live_case_spec(opt, TRACE_IMAGE_SIZE, &spec);
	code = live_case_begin(&tc->lc, opt, &spec, "trace");
	if (tc->lc.c)
		spawn_format_argv(argv, tc->lc.c->params,
				  sizeof(tc->lc.c->params));
	if (!code && !tc->lc.stop) {
		status = trace_run(tc, cmd_path, argv);
		if (status < 0 && status != -EINTR)
			snprintf(tc->lc.c->error, sizeof(tc->lc.c->error), "%s",
				 log_last_error());
		tc->lc.c->complete = status >= 0 && !tc->lc.stop;
		code = trace_exit_code(status);
	}
	if (tc->marker_rd >= 0)
		close(tc->marker_rd);
	if (tc->marker_wr >= 0)
		close(tc->marker_wr);
	code = live_case_end(&tc->lc, code);
	free(tc);
	return code;
}
