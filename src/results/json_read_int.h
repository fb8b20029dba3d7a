/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the results JSON reader (json_read*.c): typed field getters
 * that name the JSON path of whatever is wrong. Each returns 0, or -EINVAL
 * with the reason in the reader's error buffer; a field that is absent
 * keeps the default the caller set (a results file of this schema version
 * always has them; the reader does not insist on what no reader needs).
 */
#ifndef FSPROF_JSON_READ_INT_H
#define FSPROF_JSON_READ_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

struct jread {
	char *err;
	size_t errlen;
	bool failed;
};

/* record the first error: "<where>: <what>"; returns -EINVAL */
int jread_fail(struct jread *r, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* member key of object obj as an object / array; NULL when absent */
int jread_object(struct jread *r, const char *where, json_t *obj,
		 const char *key, json_t **out);
int jread_array(struct jread *r, const char *where, json_t *obj,
		const char *key, json_t **out);

/* a non-negative integer (a real with no fraction is accepted) */
int jread_u64(struct jread *r, const char *where, json_t *obj, const char *key,
	      uint64_t *out);
int jread_uint(struct jread *r, const char *where, json_t *obj, const char *key,
	       unsigned int *out);
int jread_bool(struct jread *r, const char *where, json_t *obj, const char *key,
	       bool *out);
/* any number; null reads as NAN */
int jread_double(struct jread *r, const char *where, json_t *obj,
		 const char *key, double *out);
/* a string that fits in buf (size bytes with its NUL); null reads as "" */
int jread_str(struct jread *r, const char *where, json_t *obj, const char *key,
	      char *buf, size_t size);

/* the value itself (not a member) as a non-negative integer */
int jread_value_u64(struct jread *r, const char *where, json_t *v,
		    uint64_t *out);

/* a histogram as json.c writes it: count, sum, max, histogram[] */
int jread_hist(struct jread *r, const char *where, json_t *obj,
	       struct latency_hist *h);

/* phase.block (json.c block_json) */
int jread_block(struct jread *r, const char *where, json_t *obj,
		struct block_result *b);

/* target.block_stack and phase.block.members (block_stack_json.c);
 * absent: not stacked */
int jread_block_stack(struct jread *r, const char *where, json_t *t,
		      struct block_stack *st);
int jread_block_members(struct jread *r, const char *where, json_t *obj,
			struct block_result *b);

/* case.age (aging_json.c): null or absent reads as not aged */
int jread_aging(struct jread *r, const char *where, json_t *obj,
		struct age_result *a);

/* phase.findings[] (findings_json.c) */
int jread_findings(struct jread *r, const char *where, json_t *arr,
		   struct finding_list *l);

#endif
