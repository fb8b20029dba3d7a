/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A phase's block IO by process (fsprof record) in the results JSON:
 * phases[].block_processes = { "top": [{pid, comm, ios, bytes,
 * write_bytes}, ...], "others", "others_bytes", "lost" }, absent when not
 * counted.
 */
#ifndef FSPROF_PROCS_JSON_H
#define FSPROF_PROCS_JSON_H

#include <jansson.h>

#include "results/results.h"

/* obj.block_processes from top, when it counted any */
void procs_json_set(json_t *obj, const struct proc_top *top);

/* top from obj.block_processes (none: left empty); 0 or -EINVAL */
int procs_json_get(const json_t *obj, struct proc_top *top);

#endif
