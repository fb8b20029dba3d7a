/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracepoint's BTF pointer argument, read as the verifier reads an
 * untrusted one. Since 6.2 tp_btf arguments are trusted pointers, and every
 * load of a pointer field through a trusted pointer makes the verifier look
 * for <struct>__safe_rcu, __safe_trusted and their _or_null variants by
 * name in the kernel's BTF: a linear scan of its ~126,000 types each time
 * (6.18), on every path it verifies. That was 17% of `fsprof trace -- true`'s
 * CPU time. Through an untrusted pointer (bpf_rdonly_cast, which the
 * verifier turns into a register move) the loads are checked against the
 * type alone and run as the same direct loads (with a fault fixup). Only
 * for reading fields: an untrusted pointer is no helper's argument. And only
 * for types of vmlinux's BTF: the verifier takes the type id as one of
 * vmlinux's, and a module's type (ext4's on a distribution kernel) fails
 * the load.
 * Kernels without bpf_rdonly_cast (before 6.2) have no trusted arguments:
 * userspace leaves rdonly_cast_ok false there, and the call is dead code
 * the verifier drops.
 */
#ifndef FSPROF_UNTRUSTED_BPF_H
#define FSPROF_UNTRUSTED_BPF_H

#include <bpf/bpf_core_read.h>

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;

/* set by userspace when the kernel's BTF has the bpf_rdonly_cast kfunc */
const volatile bool rdonly_cast_ok = false;

#define UNTRUSTED(type, p)                                                     \
	(rdonly_cast_ok ?                                                      \
		 (type *)bpf_rdonly_cast((p), bpf_core_type_id_kernel(type)) : \
		 (p))

#endif
