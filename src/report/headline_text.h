/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The summary block of the text report (all that -q prints), and the
 * phrases the HTML summary shares with it.
 */
#ifndef FSPROF_HEADLINE_TEXT_H
#define FSPROF_HEADLINE_TEXT_H

#include <stdio.h>

#include "results/headline.h"

void report_headline(const struct run_result *run, FILE *out);

void headline_command(const struct run_result *run, char *buf, size_t len);
void headline_explains(const struct headline_row *r, char *buf, size_t len);
void headline_verified_text(const struct headline_row *r, char *buf,
			    size_t len);
void headline_differ_text(const struct headline_differ *d, char *buf,
			  size_t len);

#endif
