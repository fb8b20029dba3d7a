// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "fsprof/phase.h"
#include "trace/phase_map.h"
#include "util/log.h"

int phase_map_create(struct phase_map *pm)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_MMAPABLE);
	size_t len = (sizeof(struct phase_shared) + 4095) & ~4095UL;
	void *mem;
	int err;

	pm->mem = NULL;
	pm->fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "fsprof_phase",
				sizeof(__u32), sizeof(struct phase_shared), 1,
				&opts);
	if (pm->fd < 0) {
		err = -errno;
		log_error("create the phase map: %s", strerror_safe(-err));
		return err;
	}
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, pm->fd, 0);
	if (mem == MAP_FAILED) {
		err = -errno;
		log_error("mmap the phase map: %s", strerror_safe(-err));
		close(pm->fd);
		pm->fd = -1;
		return err;
	}
	pm->mem = mem;
	return 0;
}

int phase_map_share(const struct phase_map *pm, const struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, PHASE_MAP_NAME);

	if (!map)
		return -ENOENT;
	return bpf_map__reuse_fd(map, pm->fd);
}

void phase_map_publish(struct phase_map *pm, unsigned int phase,
		       uint64_t start_ns)
{
	struct phase_shared *ps = pm->mem;
	struct phase_switch *sw;
	uint64_t seq;

	if (!ps || phase >= FSPROF_MAX_PHASES)
		return;
	seq = __atomic_load_n(&ps->seq, __ATOMIC_RELAXED);
	if (phase != FSPROF_PHASE_NONE)
		__atomic_store_n(&ps->start_ns[phase], start_ns,
				 __ATOMIC_RELAXED);
	sw = &ps->log[seq % PHASE_LOG_LEN];
	__atomic_store_n(&sw->at_ns, start_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&sw->phase, phase, __ATOMIC_RELAXED);
	/* the entry and the start before the count that publishes them */
	__atomic_store_n(&ps->seq, seq + 1, __ATOMIC_RELEASE);
}

void phase_map_close(struct phase_map *pm)
{
	size_t len = (sizeof(struct phase_shared) + 4095) & ~4095UL;

	if (pm->mem)
		munmap(pm->mem, len);
	pm->mem = NULL;
	if (pm->fd >= 0)
		close(pm->fd);
	pm->fd = -1;
}
