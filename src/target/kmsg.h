/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel logged during a step (a mount that failed says why only
 * there). Open a watch before the step, read the new lines after it.
 */
#ifndef FSPROF_KMSG_H
#define FSPROF_KMSG_H

#include <stddef.h>

/* an fd positioned at the end of the kernel log, or -1 */
int kmsg_watch_begin(void);

/*
 * The messages logged since begin that contain one of the words (case
 * insensitive), joined with "; " into buf. Closes fd.
 */
void kmsg_watch_end(int fd, const char *const *words, char *buf, size_t len);

#endif
