/* SPDX-License-Identifier: GPL-2.0 */
/* Reading the log2-linear histograms of include/fsprof/hist.h. */
#ifndef FSPROF_HISTOGRAM_H
#define FSPROF_HISTOGRAM_H

#include <stdint.h>

#include "fsprof/hist.h"

/* the smallest value that lands in slot */
uint64_t hist_slot_low(unsigned int slot);
/* one past the largest value that lands in slot (saturates at UINT64_MAX) */
uint64_t hist_slot_high(unsigned int slot);

/*
 * The p-th percentile (0 < p <= 100) of the values counted in slots,
 * interpolated linearly inside the slot that holds it (values 0..3 have
 * exact slots and come back exact). Returns 0 when the histogram is empty.
 */
double hist_percentile(const uint64_t *slots, unsigned int nslots, double p);

uint64_t hist_total(const uint64_t *slots, unsigned int nslots);

/*
 * The slots folded into powers of two, as bcc's log2 histograms:
 * out[0] counts the value 0, out[k] the values [2^(k-1), 2^k).
 */
#define HIST_LOG2_BUCKETS 65
void hist_fold_log2(const uint64_t *slots, unsigned int nslots,
		    uint64_t out[HIST_LOG2_BUCKETS]);

/* the smallest value of log2 bucket k */
uint64_t hist_log2_low(unsigned int k);

#endif
