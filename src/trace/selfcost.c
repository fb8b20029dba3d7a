// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "trace/selfcost.h"
#include "util/log.h"

#define BPF_STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

static int sysctl_write(const char *value)
{
	int fd = open(BPF_STATS_SYSCTL, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0 || write(fd, value, 1) != 1)
		err = -errno;
	if (fd >= 0)
		close(fd);
	return err;
}

static bool sysctl_enabled(void)
{
	char c = '0';
	int fd = open(BPF_STATS_SYSCTL, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = '0';
		close(fd);
	}
	return c == '1';
}

static void selfcost_sample_take(const struct selfcost *sc,
				 struct selfcost_sample *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < sc->n_fds; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(sc->fds[i], &info, &len))
			continue;
		s->run_ns += info.run_time_ns;
		s->run_cnt += info.run_cnt;
		s->missed += info.recursion_misses;
	}
}

void selfcost_start(struct selfcost *sc)
{
	const char *env = getenv("FSPROF_SELF_COST");

	memset(sc, 0, sizeof(*sc));
	sc->stats_fd = -1;
	if (env && !strcmp(env, "0")) {
		sc->off = true;
		return;
	}
	sc->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (sc->stats_fd >= 0)
		return;
	/* before 5.8: the sysctl, restored by selfcost_stop */
	sc->stats_fd = -1;
	if (sysctl_enabled())
		return;
	if (sysctl_write("1"))
		log_warn(
			"cannot switch on BPF run-time stats (%s): fsprof's own cost is not measured",
			strerror_safe(errno));
	else
		sc->sysctl_set = true;
}

void selfcost_add_object(struct selfcost *sc, const struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		int fd = bpf_program__fd(prog);

		if (fd >= 0 && sc->n_fds < SELFCOST_MAX_PROGS)
			sc->fds[sc->n_fds++] = fd;
	}
}

void selfcost_case_start(struct selfcost *sc)
{
	memset(sc->phase, 0, sizeof(sc->phase));
	selfcost_sample_take(sc, &sc->at_start);
}

void selfcost_phase_begin(struct selfcost *sc)
{
	selfcost_sample_take(sc, &sc->begin);
}

void selfcost_phase_end(struct selfcost *sc, unsigned int phase)
{
	struct selfcost_sample now;

	if (phase == 0 || phase >= FSPROF_MAX_PHASES)
		return;
	selfcost_sample_take(sc, &now);
	sc->phase[phase].run_ns += now.run_ns - sc->begin.run_ns;
	sc->phase[phase].run_cnt += now.run_cnt - sc->begin.run_cnt;
	sc->phase[phase].missed += now.missed - sc->begin.missed;
}

int selfcost_collect(struct selfcost *sc, unsigned int phase,
		     struct metric_set *m)
{
	struct selfcost_sample s;
	unsigned int i;
	int err;

	if (phase >= FSPROF_MAX_PHASES)
		return -EINVAL;
	if (sc->off)
		return 0;
	s = sc->phase[phase];
	if (phase == 0) {
		/* between phases: everything since tracing began, minus them */
		selfcost_sample_take(sc, &s);
		s.run_ns -= sc->at_start.run_ns;
		s.run_cnt -= sc->at_start.run_cnt;
		s.missed -= sc->at_start.missed;
		for (i = 1; i < FSPROF_MAX_PHASES; i++) {
			s.run_ns -= sc->phase[i].run_ns;
			s.run_cnt -= sc->phase[i].run_cnt;
			s.missed -= sc->phase[i].missed;
		}
	}
	err = metric_add(m, "self.bpf_run_ns", s.run_ns);
	if (!err)
		err = metric_add(m, "self.bpf_runs", s.run_cnt);
	if (!err)
		err = metric_add(m, "self.bpf_missed_runs", s.missed);
	return err;
}

void selfcost_stop(struct selfcost *sc)
{
	if (sc->stats_fd >= 0)
		close(sc->stats_fd);
	sc->stats_fd = -1;
	if (sc->sysctl_set && sysctl_write("0"))
		log_warn("could not restore kernel.bpf_stats_enabled to 0: %s",
			 strerror_safe(errno));
	sc->sysctl_set = false;
}
