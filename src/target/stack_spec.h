/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A block device stack under an image target's filesystem: --raid LEVEL:N
 * makes N loop members and an md array of them, --dm linear a dm-linear
 * device (on the array when both are given: dm on md). Parsed here; made
 * by target/stack_up.c.
 */
#ifndef FSPROF_STACK_SPEC_H
#define FSPROF_STACK_SPEC_H

#include <stdbool.h>
#include <stddef.h>

/* members of an array fsprof makes: what a test or a user needs, bounded */
#define STACK_SPEC_MAX_MEMBERS 8

struct stack_spec {
	unsigned int raid_members; /* loop members of an md array; 0: none */
	unsigned int raid_level; /* its level: 0 or 1 */
	bool dm_linear; /* a dm-linear device on top */
	char raid_text[16]; /* as given: "0:2" */
};

/* all zero: no stack, what a run without --raid or --dm has */
/* --raid 0:N | 1:N, N from 2 to STACK_SPEC_MAX_MEMBERS; 0 or -EINVAL */
int stack_spec_parse_raid(const char *text, struct stack_spec *s, char *why,
			  size_t len);

/* --dm linear; 0 or -EINVAL */
int stack_spec_parse_dm(const char *text, struct stack_spec *s, char *why,
			size_t len);

bool stack_spec_active(const struct stack_spec *s);

/* "md raid0 of 2 loop members, dm-linear on it", for messages */
void stack_spec_describe(const struct stack_spec *s, char *buf, size_t len);

/*
 * --device DEV[,DEV]...: split list into out (n of at most max paths of
 * len bytes each); the count, or -EINVAL (said in why) for an empty or
 * too long entry, one given twice, or more than max of them
 */
int stack_devices_parse(const char *list, char *out, size_t len,
			unsigned int max, char *why, size_t whylen);

/* the devices a --device target of stack s needs: N for --raid, else 1 */
unsigned int stack_spec_devices(const struct stack_spec *s);

#endif
