// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <bpf/btf.h>

#include "trace/btf_probe.h"

int btf_tracepoint_nargs(const struct btf *btf, const char *event)
{
	const struct btf_type *t;
	char name[128];
	int id;

	if (!btf)
		return -ENOENT;
	snprintf(name, sizeof(name), "btf_trace_%s", event);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return -ENOENT;
	/* typedef -> pointer -> func_proto(void *ctx, args...) */
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!t || !btf_is_ptr(t))
		return -EINVAL;
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return -EINVAL;
	return btf_vlen(t) - 1;
}
