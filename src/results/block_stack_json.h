/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stacked target in the results JSON: target.block_stack (its members,
 * layout and log class), and phases[].block.members (each member's
 * requests, in target.block_stack.members' order). Written by json.c,
 * read back by json_read_stack.c.
 */
#ifndef FSPROF_BLOCK_STACK_JSON_H
#define FSPROF_BLOCK_STACK_JSON_H

#include <jansson.h>

#include "results/results.h"

/* target.block_stack: null when the target is not stacked */
json_t *block_stack_json(const struct block_stack *st);

/* phases[].block.members: an array, one object a member */
json_t *block_members_json(const struct block_result *b);

/* a member's write bytes of every class (data, metadata, log) */
uint64_t block_member_write_bytes(const struct block_member_result *m);
uint64_t block_member_read_bytes(const struct block_member_result *m);

#endif
