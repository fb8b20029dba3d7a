/* SPDX-License-Identifier: GPL-2.0 */
/*
 * With -v, where a process's wall time and memory go, one line a stage:
 * "fsprof: stage: NAME at MONO ns, cpu U+S ms, rss R kB, peak P kB",
 * NAME made from fmt as printf makes it.
 * MONO is CLOCK_MONOTONIC (absolute: scripts/bench/startup.sh subtracts
 * the moment it started the process); cpu the process's user + system
 * time; rss is VmRSS now, peak its high-water mark (VmHWM). Without -v a
 * mark costs nothing but main's, taken before -v is parsed and logged with
 * the next mark when it is given.
 */
#ifndef FSPROF_STAGE_H
#define FSPROF_STAGE_H

void stage_mark(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
