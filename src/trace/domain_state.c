// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "trace/domain_state.h"
#include "trace/phase_map.h"

/* .bss, .data, .data.*: the globals programs and userspace both write */
static bool writable_globals(const struct bpf_map *map)
{
	const char *name = bpf_map__name(map);

	return bpf_map__is_internal(map) && !strstr(name, ".rodata") &&
	       !strstr(name, ".kconfig");
}

int domain_state_save(struct domain_state *s, struct bpf_object *obj)
{
	struct bpf_map *map;

	memset(s, 0, sizeof(*s));
	bpf_object__for_each_map(map, obj) {
		size_t len = 0;
		void *mem;

		if (!writable_globals(map))
			continue;
		/* loaded: the mmapped value itself (libbpf's skeleton view) */
		mem = (void *)bpf_map__initial_value(map, &len);
		if (!mem || !len)
			continue;
		if (s->n == DOMAIN_STATE_MAX_SECTIONS) {
			domain_state_free(s);
			return -E2BIG;
		}
		s->sec[s->n].saved = malloc(len);
		if (!s->sec[s->n].saved) {
			domain_state_free(s);
			return -ENOMEM;
		}
		memcpy(s->sec[s->n].saved, mem, len);
		s->sec[s->n].mem = mem;
		s->sec[s->n++].len = len;
	}
	return 0;
}

void domain_state_restore(const struct domain_state *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		memcpy(s->sec[i].mem, s->sec[i].saved, s->sec[i].len);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* an mmappable array (a timeline's bins) zeroed through its mapping */
static int array_zero_mapped(int fd, const struct bpf_map *map)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t stride = (bpf_map__value_size(map) + 7) & ~(size_t)7;
	size_t len = stride * bpf_map__max_entries(map);
	void *mem;

	len = (len + page - 1) / page * page;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED)
		return -errno;
	memset(mem, 0, len);
	munmap(mem, len);
	return 0;
}

/* every value of an array map zeroed, in one batch */
static int array_zero(int fd, const struct bpf_map *map)
{
	unsigned int n = bpf_map__max_entries(map), i;
	size_t len = (bpf_map__value_size(map) + 7) & ~(size_t)7;
	__u32 *keys, count = n;
	void *zeros;
	int err;

	if (bpf_map__map_flags(map) & BPF_F_MMAPABLE)
		return array_zero_mapped(fd, map);

	if (bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_ARRAY)
		len *= (size_t)libbpf_num_possible_cpus();
	keys = calloc(n, sizeof(*keys));
	zeros = calloc(n, len);
	err = keys && zeros ? 0 : -ENOMEM;
	for (i = 0; !err && i < n; i++)
		keys[i] = i;
	if (!err && bpf_map_update_batch(fd, keys, zeros, &count, NULL))
		err = -errno;
	free(keys);
	free(zeros);
	return err;
}

/* every entry of a hash (or stack trace) map deleted */
static int hash_empty(int fd, const struct bpf_map *map)
{
	size_t ks = bpf_map__key_size(map);
	unsigned int max = bpf_map__max_entries(map), n = 0, i;
	char *keys = malloc((size_t)max * ks);
	const void *prev = NULL;
	int err = 0;

	if (!keys)
		return -ENOMEM;
	/* the keys first: deleting while walking restarts the walk */
	while (n < max && !bpf_map_get_next_key(fd, prev, keys + n * ks)) {
		prev = keys + n * ks;
		n++;
	}
	for (i = 0; i < n; i++)
		if (bpf_map_delete_elem(fd, keys + i * ks) && errno != ENOENT &&
		    !err)
			err = -errno;
	free(keys);
	return err;
}

int domain_state_reset(const struct domain_state *s, struct bpf_object *obj)
{
	struct bpf_map *map;
	int err = 0, e;

	domain_state_restore(s);
	bpf_object__for_each_map(map, obj) {
		int fd = bpf_map__fd(map);

		if (fd < 0 || bpf_map__is_internal(map) ||
		    !strcmp(bpf_map__name(map), PHASE_MAP_NAME))
			continue;
		switch (bpf_map__type(map)) {
		case BPF_MAP_TYPE_ARRAY:
		case BPF_MAP_TYPE_PERCPU_ARRAY:
			e = array_zero(fd, map);
			break;
		case BPF_MAP_TYPE_HASH:
		case BPF_MAP_TYPE_PERCPU_HASH:
		case BPF_MAP_TYPE_LRU_HASH:
		case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		case BPF_MAP_TYPE_STACK_TRACE:
			e = hash_empty(fd, map);
			break;
		default: /* rings, task storage: nothing a count is kept in */
			e = 0;
		}
		if (e && !err)
			err = e;
	}
	return err;
}

void domain_state_free(struct domain_state *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		free(s->sec[i].saved);
	memset(s, 0, sizeof(*s));
}
