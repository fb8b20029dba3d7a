/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Feature probing of tracepoints from BTF, never from version numbers. The
 * kernel's BTF is vmlinux plus one split BTF per loaded module: on distro
 * kernels ext4, jbd2 and xfs are modules and their tracepoints live there.
 */
#ifndef FSPROF_BTF_PROBE_H
#define FSPROF_BTF_PROBE_H

#include <stdbool.h>

struct btf;
struct btf_type;

#define BTF_PROBE_MAX_MODULES 8

/* the ids of one BTF's btf_trace_* typedefs, sorted by name */
struct btf_trace_index {
	const struct btf *btf;
	unsigned int *ids;
	size_t n;
};

struct kernel_btf {
	struct btf *vmlinux;
	unsigned int n_modules;
	struct btf *modules[BTF_PROBE_MAX_MODULES];
	/*
	 * vmlinux's, then each module's: a tracepoint's typedef found by
	 * bisection, not by libbpf's scan of every type (~150,000 on 6.18):
	 * the 72 scans of a start were 8 ms here, ~0.3 s under TCG
	 */
	struct btf_trace_index traces[1 + BTF_PROBE_MAX_MODULES];
};

/*
 * Load vmlinux BTF and the BTF of the modules fsprof traces (ext4, jbd2,
 * xfs), when loaded. Returns 0 or -errno (no vmlinux BTF).
 */
int kernel_btf_load(struct kernel_btf *kb);
void kernel_btf_free(struct kernel_btf *kb);

/*
 * Number of arguments the tracepoint passes (its btf_trace_<event> typedef,
 * minus the leading context pointer), or -ENOENT when the kernel has no such
 * tracepoint.
 */
int btf_tracepoint_nargs(const struct kernel_btf *kb, const char *event);

/*
 * The type of the tracepoint's argument i (0: the first after the context
 * pointer), its typedefs and qualifiers resolved, and the BTF holding it
 * in *btf; NULL when the kernel has no such tracepoint or argument
 */
const struct btf_type *btf_tracepoint_arg(const struct kernel_btf *kb,
					  const char *event, unsigned int i,
					  const struct btf **btf);

/* the BTF (vmlinux or a module's) that holds type name of kind, or NULL */
const struct btf *kernel_btf_find(const struct kernel_btf *kb, const char *name,
				  int kind, int *id);

/*
 * The enum (named or anonymous, in vmlinux or a module) that has an
 * enumerator of that name: its BTF, and the type in *type; NULL when no
 * enum has it. Kernel constants such as EXT4_FC_STATUS_INELIGIBLE live in
 * anonymous enums, which CO-RE's bpf_core_enum_value cannot name.
 */
const struct btf *kernel_btf_enum_holding(const struct kernel_btf *kb,
					  const char *enumerator,
					  const struct btf_type **type);

/* the value of the enumerator (kernel_btf_enum_holding), or fallback */
long long kernel_btf_enum_value(const struct kernel_btf *kb,
				const char *enumerator, long long fallback);

/* whether struct type (in vmlinux or a module) has a member of that name */
bool btf_struct_has_member(const struct kernel_btf *kb, const char *type,
			   const char *member);

/*
 * Whether the programs may read tracepoint arguments through untrusted
 * pointers (bpf/untrusted.bpf.h): the kernel has the bpf_rdonly_cast kfunc
 * (6.2+). FSPROF_BPF_UNTRUSTED=0 says no, to measure the difference.
 */
bool kernel_btf_rdonly_cast(const struct kernel_btf *kb);

#endif
