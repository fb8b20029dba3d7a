// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <bpf/libbpf.h>

#include "trace/percpu.h"

void *percpu_values_alloc(size_t value_size, int *ncpus, int *err)
{
	void *buf;

	*ncpus = libbpf_num_possible_cpus();
	if (*ncpus <= 0) {
		*err = *ncpus ? *ncpus : -EINVAL;
		return NULL;
	}
	buf = calloc((size_t)*ncpus, value_size);
	if (!buf)
		*err = -ENOMEM;
	return buf;
}
