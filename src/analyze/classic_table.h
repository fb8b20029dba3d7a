/* SPDX-License-Identifier: GPL-2.0 */
/*
 * data/classic.tsv, the classic experiments' published figures, parsed
 * (its header says the format). The file is embedded into fsprof at build
 * time (scripts/embed-classic.awk), as data/noise-floors.tsv is: the
 * figures are part of the program that compares with them, so a binary
 * needs no installed data path and cannot pair with another version's
 * table.
 */
#ifndef FSPROF_ANALYZE_CLASSIC_TABLE_H
#define FSPROF_ANALYZE_CLASSIC_TABLE_H

#include <stddef.h>

#include "results/classic.h"

/* the embedded file's text (build/gen/classic_tsv.c) */
extern const char classic_tsv[];

/*
 * text into l: an experiment per experiment row with its figures and
 * ratios (the original's side only; ours empty). 0; -EINVAL with err
 * "line N: why"; -ENOMEM. l is emptied on failure.
 */
int classic_table_parse(const char *text, struct classic_list *l, char *err,
			size_t errlen);

#endif
