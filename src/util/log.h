/* SPDX-License-Identifier: GPL-2.0 */
/* Messages to stderr, prefixed "fsprof: "; debug ones only with -v. */
#ifndef FSPROF_LOG_H
#define FSPROF_LOG_H

enum log_level { LOG_QUIET, LOG_NORMAL, LOG_VERBOSE };

void log_set_level(enum log_level level);
enum log_level log_get_level(void);

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* the text of the newest log_error() message ("" when none) */
const char *log_last_error(void);

/* strerror that is safe to call with any errno value */
const char *strerror_safe(int err);

#endif
