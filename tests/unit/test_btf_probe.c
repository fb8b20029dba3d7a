// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_btf_find's index of tracepoint typedefs against libbpf's own
 * scan, on this machine's kernel BTF (/sys/kernel/btf/vmlinux): every
 * btf_trace_* typedef found at the same id, and a name that is none found
 * by neither.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <bpf/btf.h>

#include "trace/btf_probe.h"

static void
test_every_tracepoint_typedef_is_found_where_libbpf_finds_it(void **state)
{
	struct kernel_btf kb;
	unsigned int id, n, seen = 0;
	const struct btf *btf;
	int got;

	(void)state;
	assert_int_equal(kernel_btf_load(&kb), 0);
	n = btf__type_cnt(kb.vmlinux);
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(kb.vmlinux, id);
		const char *name = btf__name_by_offset(kb.vmlinux, t->name_off);

		if (!btf_is_typedef(t) || strncmp(name, "btf_trace_", 10))
			continue;
		btf = kernel_btf_find(&kb, name, BTF_KIND_TYPEDEF, &got);
		assert_ptr_equal(btf, kb.vmlinux);
		assert_int_equal(got, btf__find_by_name_kind(kb.vmlinux, name,
							     BTF_KIND_TYPEDEF));
		seen++;
	}
	/* a kernel with BTF has hundreds of tracepoints */
	assert_true(seen > 100);
	assert_null(kernel_btf_find(&kb, "btf_trace_no_such_event",
				    BTF_KIND_TYPEDEF, &got));
	/* other kinds and names as libbpf finds them */
	btf = kernel_btf_find(&kb, "task_struct", BTF_KIND_STRUCT, &got);
	assert_ptr_equal(btf, kb.vmlinux);
	assert_int_equal(got, btf__find_by_name_kind(kb.vmlinux, "task_struct",
						     BTF_KIND_STRUCT));
	kernel_btf_free(&kb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_every_tracepoint_typedef_is_found_where_libbpf_finds_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
