/* SPDX-License-Identifier: GPL-2.0 */
/* What a reproduction bundle is made of (bundle.h writes it). */
#ifndef FSPROF_REPRO_BUNDLE_SPEC_H
#define FSPROF_REPRO_BUNDLE_SPEC_H

#include <stdbool.h>

#include "results/results.h"

struct bundle_spec {
	const struct run_result *run;
	const char *run_name; /* as the command line named it */
	const char *dir;
	bool force; /* write into a directory that is not empty */
	/* fsprof run's words that make the same cases, and those a guest
	 * needs besides its kernel (rerun.h); n_case_words 0: no rerun */
	char *const *case_words;
	unsigned int n_case_words;
	char *const *guest_words;
	unsigned int n_guest_words;
	const char *no_rerun; /* why there is no rerun, when there is none */
};

#endif
