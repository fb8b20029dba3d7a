// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_btf_find's index of tracepoint typedefs against libbpf's own
 * scan, on this machine's kernel BTF (/sys/kernel/btf/vmlinux): every
 * btf_trace_* typedef found at the same id, and a name that is none found
 * by neither. The BTF kernel_btf_load parses (from a mapping of the file
 * where the kernel allows it) is libbpf's, byte for byte.
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

static void test_the_kernel_btf_loaded_is_the_one_libbpf_reads(void **state)
{
	struct btf *theirs = btf__load_vmlinux_btf();
	const void *ours_raw, *theirs_raw;
	__u32 ours_size, theirs_size;
	struct kernel_btf kb;

	(void)state;
	assert_non_null(theirs);
	assert_int_equal(kernel_btf_load(&kb), 0);
	assert_int_equal(btf__type_cnt(kb.vmlinux), btf__type_cnt(theirs));
	ours_raw = btf__raw_data(kb.vmlinux, &ours_size);
	theirs_raw = btf__raw_data(theirs, &theirs_size);
	assert_true(ours_size > 1024 * 1024);
	assert_int_equal(ours_size, theirs_size);
	assert_memory_equal(ours_raw, theirs_raw, ours_size);
	kernel_btf_free(&kb);
	btf__free(theirs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_every_tracepoint_typedef_is_found_where_libbpf_finds_it),
		cmocka_unit_test(
			test_the_kernel_btf_loaded_is_the_one_libbpf_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
