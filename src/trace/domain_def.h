/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A domain's table entry: what the tracer needs to know of a kernel domain
 * besides its bpf/<domain>.bpf.c. Its programs (name and event), its
 * per-phase statistics (a per-CPU array map of unsigned long long words and
 * which of them are maxima) and its counters' metric names. The shared path
 * sets up the per-CPU reader and the program slots from it, attaches the
 * programs, and reports the counters of a phase.
 */
#ifndef FSPROF_DOMAIN_DEF_H
#define FSPROF_DOMAIN_DEF_H

#include <stddef.h>

#include "trace/attach.h"
#include "trace/counters.h"
#include "trace/percpu.h"

struct bpf_object_skeleton;
struct metric_set;

struct domain_def {
	const char *name; /* "ext4", as the attach report names it */
	const struct program_def *progs;
	int n_progs;
	const char *stats_map; /* "ext4_stats": one value per phase */
	size_t stats_size;
	const size_t *stats_max; /* byte offsets of the maxima */
	unsigned int n_stats_max;
	const struct counter_def *counters; /* NULL: reported by hand */
	size_t n_counters;
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * After the skeleton is opened: stats reads def's map, slots[i] is
 * def->progs[i] (not missing). -errno, logged.
 */
int domain_def_open(const struct domain_def *def,
		    const struct bpf_object_skeleton *skel,
		    struct percpu_stats *stats, struct program_slot *slots);

/* attach every loaded program; -ENOENT when none attached */
int domain_def_attach(const struct domain_def *def, struct program_slot *slots,
		      struct attach_list *list);

/*
 * A phase's statistics of def's map, added up over every CPU into a new
 * block of def->stats_size bytes, which the caller frees; NULL with *err
 * set (-EINVAL for a phase beyond FSPROF_MAX_PHASES, -ENOMEM, or the
 * read's -errno).
 */
void *domain_def_phase_sum(const struct domain_def *def,
			   struct percpu_stats *stats, unsigned int phase,
			   int *err);

/* the counters of def, read from sum, those traced into m */
int domain_def_report(const struct domain_def *def, const void *sum,
		      struct metric_set *m, counter_traced_fn traced,
		      const void *ctx);

#endif
