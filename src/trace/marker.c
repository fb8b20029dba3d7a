// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <bpf/libbpf.h>

#include "fsprof/marker.h"
#include "trace/attach.h"
#include "trace/fsprof_skel.h"
#include "trace/marker.h"
#include "trace/tracer.h"
#include "util/kdev.h"
#include "util/log.h"

static int marker_undo(void *arg)
{
	marker_tracer_stop(arg);
	return 0;
}

/* its part of the object: the pipe, and its program on */
static int marker_open(void *arg, struct fsprof_bpf *s)
{
	struct marker_tracer *m = arg;

	s->rodata->nr_write = SYS_write;
	s->rodata->pipe_ino = m->pipe_ino;
	s->rodata->pipe_sdev = m->pipe_sdev;
	return bpf_program__set_autoload(s->progs.fsprof_marker_write, true);
}

static void marker_loaded(void *arg, struct fsprof_bpf *s, int err)
{
	struct marker_tracer *m = arg;

	if (err)
		log_warn(
			"phase markers: load into the kernel: %s; fsprof switches phases when it reads them (after the write returns)",
			strerror_safe(-err));
	m->skel = err ? NULL : s;
}

int marker_tracer_prepare(struct marker_tracer *m, struct tracer *t,
			  int write_fd)
{
	struct tracer_extra x = { marker_open, marker_loaded, m };
	struct stat st;

	m->skel = NULL;
	if (fstat(write_fd, &st))
		return -errno;
	m->pipe_ino = st.st_ino;
	/* the kernel's dev_t encoding, as the BPF side compares it */
	m->pipe_sdev = kdev_encode(st.st_dev);
	tracer_set_extra(t, &x);
	return 0;
}

int marker_tracer_attach(struct marker_tracer *m, struct attach_list *programs,
			 struct teardown *td)
{
	struct program_slot slot;
	struct fsprof_bpf *s = m->skel;
	int err;

	if (!s)
		return -ENOENT; /* not loaded: said so */
	slot = (struct program_slot){
		.prog = s->progs.fsprof_marker_write,
		.link = &s->links.fsprof_marker_write,
		.event = "raw_syscalls:sys_enter",
	};
	if (attach_programs("marker", &slot, 1, programs) != 1) {
		marker_tracer_stop(m);
		return -ENOENT;
	}
	err = teardown_push(td, marker_undo, m,
			    "detach the phase marker program");
	if (err)
		marker_tracer_stop(m);
	return err;
}

int marker_tracer_entry(const struct marker_tracer *m, uint64_t k,
			struct marker_entry *out)
{
	uint64_t seen;

	if (!m->skel)
		return -ENOENT;
	seen = __atomic_load_n(&m->skel->bss->writes, __ATOMIC_ACQUIRE);
	if (k >= seen || seen - k > MARKER_LOG_LEN)
		return -EAGAIN;
	*out = m->skel->bss->marker_log[k % MARKER_LOG_LEN];
	return 0;
}

void marker_tracer_set_state(struct marker_tracer *m, unsigned int next_phase,
			     unsigned int open_phase)
{
	if (!m->skel)
		return;
	m->skel->data->next_phase = next_phase;
	m->skel->bss->open_phase = open_phase;
}

void marker_tracer_set_cgroup(struct marker_tracer *m, uint64_t cgroup_id)
{
	if (m->skel)
		m->skel->bss->cmd_cgroup = cgroup_id;
}

void marker_tracer_detach(struct marker_tracer *m)
{
	if (!m->skel)
		return;
	bpf_link__destroy(m->skel->links.fsprof_marker_write);
	m->skel->links.fsprof_marker_write = NULL;
}

void marker_tracer_stop(struct marker_tracer *m)
{
	marker_tracer_detach(m);
	m->skel = NULL;
}
