// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <bpf/libbpf.h>

#include "trace/fsprof_skel.h"
#include "trace/bpf_group.h"
#include "trace/kconfig.h"

struct bpf_group *bpf_group_open(const struct phase_map *pm)
{
	/* no kernel config: CONFIG_HZ 0, and jiffies stay jiffies */
	LIBBPF_OPTS(bpf_object_open_opts, opts, .kconfig = kconfig_fallback());
	struct bpf_group *g = calloc(1, sizeof(*g));
	struct bpf_program *prog;
	int err;

	if (!g)
		return NULL;
	g->skel = fsprof_bpf__open_opts(&opts);
	if (!g->skel) {
		err = -errno;
		goto fail;
	}
	/* a domain's open turns its own programs on */
	bpf_object__for_each_program(prog, g->skel->obj)
		bpf_program__set_autoload(prog, false);
	err = phase_map_share(pm, g->skel->obj);
	if (err)
		goto fail;
	return g;
fail:
	bpf_group_free(g);
	errno = -err;
	return NULL;
}

struct bpf_object *bpf_group_object(const struct bpf_group *g)
{
	return g->skel->obj;
}

/*
 * FSPROF_TEST_REFUSE_PROGRAM=NAME: that program's load fails, when it
 * loads (fault injection for fsprof's own tests: a program the kernel
 * refuses fails the whole object). Its attach type made fentry's, libbpf
 * looks for a kernel function of its tracepoint's name and finds none.
 */
static void group_test_refuse(struct bpf_group *g)
{
	const char *name = getenv("FSPROF_TEST_REFUSE_PROGRAM");
	struct bpf_program *prog;

	if (!name || !*name)
		return;
	prog = bpf_object__find_program_by_name(g->skel->obj, name);
	if (prog && bpf_program__autoload(prog))
		bpf_program__set_expected_attach_type(prog, BPF_TRACE_FENTRY);
}

int bpf_group_load(struct bpf_group *g)
{
	group_test_refuse(g);
	return fsprof_bpf__load(g->skel);
}

int bpf_group_save(struct bpf_group *g)
{
	return domain_state_save(&g->state, g->skel->obj);
}

void bpf_group_free(struct bpf_group *g)
{
	if (!g)
		return;
	domain_state_free(&g->state);
	fsprof_bpf__destroy(g->skel);
	free(g);
}
