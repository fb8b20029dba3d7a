// SPDX-License-Identifier: GPL-2.0
/*
 * The metric names the analysis (results/metric_names.h) and the per-op
 * ratios (results/per_op.c) read are names the trace side writes: a
 * counter of the X-macro lists, a family a naming function completes
 * (op.<op>_ns, sched.offcpu_ns.<cause>, sched.sync_path_ns.<path>,
 * xfs.log_force_<class>, writeback.work_<reason>), or a name a collector
 * spells whole in src/trace/. A misspelt name reads 0 without a word;
 * here it fails.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "results/metric_names.h"
#include "results/per_op.h"
#include "trace/sched_causes.h"
#include "trace/xfs_callers.h"
#include "workload/workload.h"

/* "<prefix><name><suffix>" for one of names(0..n) */
static bool family(const char *m, const char *prefix, const char *suffix,
		   const char *(*name)(unsigned int), unsigned int n)
{
	size_t p = strlen(prefix), s = strlen(suffix), len = strlen(m);
	unsigned int i;

	if (strncmp(m, prefix, p) || len < p + s || strcmp(m + len - s, suffix))
		return false;
	for (i = 0; i < n; i++) {
		const char *x = name(i);

		if (strlen(x) == len - p - s && !strncmp(m + p, x, len - p - s))
			return true;
	}
	return false;
}

static const char *op_name(unsigned int i)
{
	return op_class_name((enum op_class)i);
}

static const char *cause_name(unsigned int i)
{
	return sched_cause_name((enum sched_cause)i);
}

static const char *path_name(unsigned int i)
{
	return sched_path_name((enum sched_path)i);
}

static const char *force_name(unsigned int i)
{
	return xfs_force_class_name((enum xfs_force_class)i);
}

/* the kernel's writeback reasons (enum wb_reason in vmlinux.h), lower case */
static char wb_reasons[32][32];
static unsigned int n_wb_reasons;

static const char *wb_reason(unsigned int i)
{
	return wb_reasons[i];
}

static void wb_reasons_read(void)
{
	glob_t g;
	char line[512], *p;
	FILE *f;

	if (n_wb_reasons || glob("vmlinux/*/vmlinux.h", 0, NULL, &g))
		return;
	f = fopen(g.gl_pathv[0], "re");
	globfree(&g);
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && n_wb_reasons < 32) {
		size_t k = 0;

		p = strstr(line, "WB_REASON_");
		if (!p || !strchr(p, '=') || !strncmp(p, "WB_REASON_MAX", 13))
			continue;
		for (p += 10; (*p >= 'A' && *p <= 'Z') || *p == '_' ||
			      (*p >= '0' && *p <= '9');
		     p++)
			if (k + 1 < sizeof(wb_reasons[0]))
				wb_reasons[n_wb_reasons][k++] =
					(char)(*p >= 'A' && *p <= 'Z' ?
						       *p - 'A' + 'a' :
						       *p);
		wb_reasons[n_wb_reasons++][k] = '\0';
	}
	fclose(f);
}

/* "name" (with its quotes) in one of the collectors' sources */
static bool spelt_in_trace(const char *name)
{
	char quoted[128], *text;
	bool found = false;
	size_t i, n;
	glob_t g;
	FILE *f;

	snprintf(quoted, sizeof(quoted), "\"%s\"", name);
	assert_int_equal(glob("src/trace/*.c", 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc && !found; i++) {
		f = fopen(g.gl_pathv[i], "re");
		assert_non_null(f);
		text = calloc(1, 1 << 20);
		assert_non_null(text);
		n = fread(text, 1, (1 << 20) - 1, f);
		text[n] = '\0';
		found = strstr(text, quoted) != NULL;
		free(text);
		fclose(f);
	}
	globfree(&g);
	return found;
}

static bool trace_writes(const char *m)
{
	wb_reasons_read();
	return metric_name_is_counter(m) ||
	       family(m, "op.", "_ns", op_name, OP_NR) ||
	       family(m, "sched.offcpu_ns.", "", cause_name, SCHED_CAUSE_NR) ||
	       family(m, "sched.offcpu_count.", "", cause_name,
		      SCHED_CAUSE_NR) ||
	       family(m, "sched.sync_path_ns.", "", path_name, SCHED_PATH_NR) ||
	       family(m, "sched.sync_path_count.", "", path_name,
		      SCHED_PATH_NR) ||
	       family(m, "xfs.log_force_", "", force_name,
		      XFS_FORCE_CLASS_NR) ||
	       family(m, "writeback.work_", "", wb_reason, n_wb_reasons) ||
	       family(m, "writeback.", "_pages", wb_reason, n_wb_reasons) ||
	       spelt_in_trace(m);
}

static void every_name_the_analysis_reads_is_written(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < MR_NR; i++) {
		if (!trace_writes(metric_read_names[i]))
			fail_msg(
				"the analysis reads %s: no collector writes it",
				metric_read_names[i]);
	}
}

static void every_name_a_per_op_ratio_reads_is_written(void **state)
{
	const char *m;
	unsigned int i;

	(void)state;
	for (i = 0; (m = per_op_metric_read(i)); i++)
		if (!trace_writes(m))
			fail_msg(
				"a per_op ratio reads %s: no collector writes it",
				m);
	assert_true(i >= 10);
}

/* the check can fail: a misspelling of each kind is not a name */
static void a_misspelt_name_is_not_written(void **state)
{
	(void)state;
	assert_true(trace_writes("jbd2.commits"));
	assert_false(trace_writes("jbd2.comits"));
	assert_true(trace_writes("op.fsync_ns"));
	assert_false(trace_writes("op.fsyncs_ns"));
	assert_true(trace_writes("sched.sync_path_ns.namespace"));
	assert_false(trace_writes("sched.sync_path_ns.names"));
	assert_true(trace_writes("xfs.log_force_fsync"));
	assert_false(trace_writes("xfs.log_forces_fsync"));
	assert_true(trace_writes("writeback.work_sync"));
	assert_false(trace_writes("writeback.work_synk"));
	assert_true(trace_writes("jbd2.flushing_ns"));
	assert_false(trace_writes("jbd2.flush_ns"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_name_the_analysis_reads_is_written),
		cmocka_unit_test(every_name_a_per_op_ratio_reads_is_written),
		cmocka_unit_test(a_misspelt_name_is_not_written),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
