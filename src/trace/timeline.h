/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A domain's timeline bins, user side (see include/fsprof/timeline.h): the
 * BPF array's bins a phase spans, mmapped at its end, read into named
 * series and cleared for the next one. Mapped only then: the whole array
 * (36,000 bins, 2 MB for block's) would count in the RSS of every run.
 */
#ifndef FSPROF_TRACE_TIMELINE_H
#define FSPROF_TRACE_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

struct bpf_map;

struct timeline_map {
	int fd; /* the array's */
	size_t len; /* the array's bytes, as mmapped */
	size_t stride; /* bytes per bin; 0 when not open */
	unsigned int max_bins;
	uint64_t bin_ns;
};

/* one series: the __u64 at offset in every bin */
struct timeline_field {
	const char *series; /* "jbd2.commits" */
	size_t offset;
};

/* the bin width --bin asked for, or the default */
uint64_t timeline_bin_ns(uint64_t asked);

/* map (a BPF_F_MMAPABLE array of bins), after load: its geometry */
int timeline_map_open(struct timeline_map *tl, struct bpf_map *map,
		      uint64_t bin_ns);

/*
 * The bins of the phase p that just ended into p->timeline, one series per
 * field, then clear them: as many bins as p's wall time spans (one more if
 * an event landed just after its end), all of them when it overflowed.
 */
int timeline_map_collect(struct timeline_map *tl, struct phase_result *p,
			 const struct timeline_field *fields,
			 unsigned int n_fields);

void timeline_map_close(struct timeline_map *tl);

#endif
