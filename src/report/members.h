/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stacked target (md, dm) in the text report: its layout, members and
 * log class under the case header, and each member's share of the phases'
 * block IO beside the block IO table.
 */
#ifndef FSPROF_REPORT_MEMBERS_H
#define FSPROF_REPORT_MEMBERS_H

#include <stdio.h>

#include "results/results.h"

/* "stack: dm-0 (dm-linear) on md127 ...; log class ..."; nothing when
 * the target is not stacked */
void report_stack_header(const struct target_result *t, FILE *out);

/*
 * The member rows of phases [from, to), each cell width wide after a
 * label of label columns: MB written / read, and the log's writes where
 * any member had them. Nothing for a target that is not stacked.
 */
void report_member_rows(const struct case_result *c, unsigned int from,
			unsigned int to, int label, int width, FILE *out);

/*
 * A stack under a device model, every member a disk of it: "device model:
 * M, a throttle under each member disk, ...: /dev/loop0 (7:0) below
 * loop1, ...", indented by indent; nothing when the model is not per member
 */
void report_model_members(const struct model_result *mr, unsigned int indent,
			  FILE *out);

/*
 * Many cases side by side: each stacked case's layout, log class and its
 * members' MB written / read per phase, a few lines a case
 */
void report_stacks(const struct run_result *run, FILE *out);

#endif
