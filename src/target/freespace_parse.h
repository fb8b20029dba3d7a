/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The free-extent histograms of e2freefrag and of xfs_db's freesp, parsed
 * into one table (results/aging.h): byte ranges, extents, blocks, percent.
 */
#ifndef FSPROF_FREESPACE_PARSE_H
#define FSPROF_FREESPACE_PARSE_H

#include "results/aging.h"

/*
 * e2freefrag's report ("Blocksize: 4096 bytes", "Free blocks: N (P%)",
 * "Num. free extent: N", then "  4K...    8K-  :  extents  blocks  P%"
 * rows). 0, or -EINVAL when text holds no histogram (out->error says).
 */
int freespace_parse_e2freefrag(const char *text, struct freespace_table *out);

/*
 * xfs_db -r -c "sb 0" -c "p blocksize" -c "freesp -s": "blocksize = 4096",
 * then "from to extents blocks pct" rows in blocks, then "total free
 * extents N" and "total free blocks N". 0 or -EINVAL (out->error says).
 */
int freespace_parse_xfs_db(const char *text, struct freespace_table *out);

#endif
