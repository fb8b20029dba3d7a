// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <bpf/libbpf.h>

#include "fsprof/phase.h"

#include "trace/domain_def.h"
#include "util/log.h"

int domain_def_open(const struct domain_def *def,
		    const struct bpf_object_skeleton *skel,
		    struct percpu_stats *stats, struct program_slot *slots)
{
	const struct bpf_map *map =
		bpf_object__find_map_by_name(*skel->obj, def->stats_map);
	int err;

	if (!map) {
		log_warn("%s domain: no BPF map %s", def->name, def->stats_map);
		return -ENOENT;
	}
	err = percpu_stats_init(stats, map, def->stats_size, def->stats_max,
				def->n_stats_max);
	if (!err)
		err = program_slots_fill(skel, def->progs, def->n_progs, slots);
	return err;
}

int domain_def_attach(const struct domain_def *def, struct program_slot *slots,
		      struct attach_list *list)
{
	return attach_programs(def->name, slots, def->n_progs, list) > 0 ?
		       0 :
		       -ENOENT;
}

void *domain_def_phase_sum(const struct domain_def *def,
			   struct percpu_stats *stats, unsigned int phase,
			   int *err)
{
	void *sum;

	if (phase >= FSPROF_MAX_PHASES) {
		*err = -EINVAL;
		return NULL;
	}
	sum = calloc(1, def->stats_size);
	if (!sum) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = percpu_stats_read(stats, phase, sum);
	if (*err) {
		free(sum);
		return NULL;
	}
	return sum;
}

int domain_def_report(const struct domain_def *def, const void *sum,
		      struct metric_set *m, counter_traced_fn traced,
		      const void *ctx)
{
	return counters_report(m, sum, def->counters, def->n_counters, traced,
			       ctx);
}
