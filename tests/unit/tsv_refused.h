/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A data table's parser (kpi_parse, noise_floors_parse) given text it must
 * refuse: -EINVAL, an error containing why, and the table left empty.
 */
#ifndef FSPROF_TEST_TSV_REFUSED_H
#define FSPROF_TEST_TSV_REFUSED_H

#include <errno.h>
#include <string.h>

/* parse(text, &table, err, len) of a table of type with n and rows */
#define assert_tsv_refused(parse, type, text, why)                           \
	do {                                                                 \
		type table_ = { 0 };                                         \
		char err_[160] = "";                                         \
                                                                             \
		assert_int_equal(parse(text, &table_, err_, sizeof(err_)),   \
				 -EINVAL);                                   \
		if (!strstr(err_, why))                                      \
			fail_msg("'%s': error '%s' does not say '%s'", text, \
				 err_, why);                                 \
		assert_int_equal(table_.n, 0);                               \
		assert_null(table_.rows);                                    \
	} while (0)

#endif
