// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "trace/btf_probe.h"

/* modules whose tracepoints fsprof uses */
static const char *const traced_modules[] = { "ext4", "jbd2", "xfs", "btrfs" };

#define BTF_TRACE_PREFIX "btf_trace_"

/* qsort_r: two type ids of btf by their names */
static int by_name(const void *x, const void *y, void *arg)
{
	const struct btf *btf = arg;
	const struct btf_type *a =
		btf__type_by_id(btf, *(const unsigned int *)x);
	const struct btf_type *b =
		btf__type_by_id(btf, *(const unsigned int *)y);

	return strcmp(btf__name_by_offset(btf, a->name_off),
		      btf__name_by_offset(btf, b->name_off));
}

/* btf's own btf_trace_* typedefs (not its base's), sorted: -ENOMEM or 0 */
static int trace_index_build(struct btf_trace_index *ix, const struct btf *btf)
{
	const struct btf *base = btf__base_btf(btf);
	unsigned int id = base ? btf__type_cnt(base) : 1,
		     n = btf__type_cnt(btf);
	size_t cap = 0;

	ix->btf = btf;
	for (; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_typedef(t) ||
		    strncmp(btf__name_by_offset(btf, t->name_off),
			    BTF_TRACE_PREFIX, sizeof(BTF_TRACE_PREFIX) - 1))
			continue;
		if (ix->n == cap) {
			unsigned int *more;

			cap = cap ? 2 * cap : 1024;
			more = realloc(ix->ids, cap * sizeof(*more));
			if (!more)
				return -ENOMEM;
			ix->ids = more;
		}
		ix->ids[ix->n++] = id;
	}
	qsort_r(ix->ids, ix->n, sizeof(*ix->ids), by_name, (void *)btf);
	return 0;
}

/* the typedef's id in ix, or -ENOENT */
static int trace_index_find(const struct btf_trace_index *ix, const char *name)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct btf_type *t =
			btf__type_by_id(ix->btf, ix->ids[mid]);
		int c = strcmp(name, btf__name_by_offset(ix->btf, t->name_off));

		if (!c)
			return (int)ix->ids[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -ENOENT;
}

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/*
 * The kernel's BTF, parsed from a mapping of its sysfs file where the
 * kernel allows one (6.16+): read(2) of a sysfs binary file returns a page
 * at most, so libbpf's fread of the 5.5 MB takes ~1,340 calls, and the
 * parse copies the data once more. Mapped: 8.4 -> 4.3 ms the first parse
 * of a process here. NULL where it cannot be mapped.
 */
static struct btf *vmlinux_btf_mapped(void)
{
	struct btf *btf = NULL;
	struct stat st;
	void *data;
	int fd;

	fd = open(VMLINUX_BTF, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0) {
		data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			    fd, 0);
		if (data != MAP_FAILED) {
			btf = btf__new(data, (__u32)st.st_size);
			if (libbpf_get_error(btf))
				btf = NULL;
			munmap(data, (size_t)st.st_size);
		}
	}
	close(fd);
	return btf;
}

int kernel_btf_load(struct kernel_btf *kb)
{
	unsigned int i;
	int err;

	memset(kb, 0, sizeof(*kb));
	kb->vmlinux = vmlinux_btf_mapped();
	if (!kb->vmlinux)
		kb->vmlinux = btf__load_vmlinux_btf();
	err = (int)libbpf_get_error(kb->vmlinux);
	if (err) {
		kb->vmlinux = NULL;
		return err;
	}
	for (i = 0; i < sizeof(traced_modules) / sizeof(traced_modules[0]);
	     i++) {
		char path[64];
		struct btf *mod;

		snprintf(path, sizeof(path), "/sys/kernel/btf/%s",
			 traced_modules[i]);
		if (access(path, R_OK))
			continue; /* built in, or not loaded */
		mod = btf__parse_split(path, kb->vmlinux);
		if (libbpf_get_error(mod))
			continue;
		kb->modules[kb->n_modules++] = mod;
	}
	err = trace_index_build(&kb->traces[0], kb->vmlinux);
	for (i = 0; !err && i < kb->n_modules; i++)
		err = trace_index_build(&kb->traces[1 + i], kb->modules[i]);
	if (err)
		kernel_btf_free(kb);
	return err;
}

void kernel_btf_free(struct kernel_btf *kb)
{
	unsigned int i;

	for (i = 0; i < kb->n_modules; i++)
		btf__free(kb->modules[i]);
	btf__free(kb->vmlinux);
	for (i = 0; i < 1 + BTF_PROBE_MAX_MODULES; i++)
		free(kb->traces[i].ids);
	memset(kb, 0, sizeof(*kb));
}

const struct btf *kernel_btf_find(const struct kernel_btf *kb, const char *name,
				  int kind, int *id)
{
	unsigned int i;

	if (!kb || !kb->vmlinux)
		return NULL;
	if (kind == BTF_KIND_TYPEDEF &&
	    !strncmp(name, BTF_TRACE_PREFIX, sizeof(BTF_TRACE_PREFIX) - 1)) {
		for (i = 0; i <= kb->n_modules; i++) {
			*id = trace_index_find(&kb->traces[i], name);
			if (*id > 0)
				return kb->traces[i].btf;
		}
		return NULL;
	}
	*id = btf__find_by_name_kind(kb->vmlinux, name, kind);
	if (*id > 0)
		return kb->vmlinux;
	for (i = 0; i < kb->n_modules; i++) {
		*id = btf__find_by_name_kind(kb->modules[i], name, kind);
		if (*id > 0)
			return kb->modules[i];
	}
	return NULL;
}

/* the enum of btf's own types (not its base's) holding enumerator */
static const struct btf_type *enum_holding(const struct btf *btf,
					   const char *enumerator)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 id = base ? btf__type_cnt(base) : 1, n = btf__type_cnt(btf);

	for (; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e;
		__u16 i;

		if (!btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (i = 0; i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off),
				    enumerator))
				return t;
	}
	return NULL;
}

const struct btf *kernel_btf_enum_holding(const struct kernel_btf *kb,
					  const char *enumerator,
					  const struct btf_type **type)
{
	unsigned int i;

	if (!kb || !kb->vmlinux)
		return NULL;
	*type = enum_holding(kb->vmlinux, enumerator);
	if (*type)
		return kb->vmlinux;
	for (i = 0; i < kb->n_modules; i++) {
		*type = enum_holding(kb->modules[i], enumerator);
		if (*type)
			return kb->modules[i];
	}
	return NULL;
}

long long kernel_btf_enum_value(const struct kernel_btf *kb,
				const char *enumerator, long long fallback)
{
	const struct btf_type *t;
	const struct btf *btf = kernel_btf_enum_holding(kb, enumerator, &t);
	const struct btf_enum *e;
	__u16 i;

	if (!btf)
		return fallback;
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, e[i].name_off),
			    enumerator))
			return e[i].val;
	return fallback;
}

/*
 * The tracepoint's prototype, func_proto(void *ctx, args...), from its
 * btf_trace_<event> typedef (a pointer to it); NULL with *err -ENOENT when
 * the kernel has no such tracepoint, -EINVAL when the typedef is not that
 */
static const struct btf_type *tracepoint_proto(const struct kernel_btf *kb,
					       const char *event,
					       const struct btf **btf, int *err)
{
	const struct btf_type *t;
	char name[128];
	int id;

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	*btf = kernel_btf_find(kb, name, BTF_KIND_TYPEDEF, &id);
	*err = -ENOENT;
	if (!*btf)
		return NULL;
	*err = -EINVAL;
	t = btf__type_by_id(*btf, btf__type_by_id(*btf, id)->type);
	if (!t || !btf_is_ptr(t))
		return NULL;
	t = btf__type_by_id(*btf, t->type);
	return t && btf_is_func_proto(t) ? t : NULL;
}

int btf_tracepoint_nargs(const struct kernel_btf *kb, const char *event)
{
	const struct btf_type *t;
	const struct btf *btf;
	int err;

	t = tracepoint_proto(kb, event, &btf, &err);
	return t ? btf_vlen(t) - 1 : err;
}

const struct btf_type *btf_tracepoint_arg(const struct kernel_btf *kb,
					  const char *event, unsigned int i,
					  const struct btf **btf)
{
	const struct btf_type *t;
	int err;

	t = tracepoint_proto(kb, event, btf, &err);
	if (!t || btf_vlen(t) < i + 2)
		return NULL;
	/* after the context pointer */
	return btf__type_by_id(
		*btf, btf__resolve_type(*btf, btf_params(t)[i + 1].type));
}

bool btf_struct_has_member(const struct kernel_btf *kb, const char *type,
			   const char *member)
{
	const struct btf_member *m;
	const struct btf_type *t;
	const struct btf *btf;
	int id, i;

	btf = kernel_btf_find(kb, type, BTF_KIND_STRUCT, &id);
	if (!btf)
		return false;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return true;
	return false;
}

bool kernel_btf_rdonly_cast(const struct kernel_btf *kb)
{
	const char *env = getenv("FSPROF_BPF_UNTRUSTED");

	if (env && !strcmp(env, "0"))
		return false;
	return kb && kb->vmlinux &&
	       btf__find_by_name_kind(kb->vmlinux, "bpf_rdonly_cast",
				      BTF_KIND_FUNC) > 0;
}
