// SPDX-License-Identifier: GPL-2.0
/*
 * The mechanisms per operation (src/results/per_op.c): every ratio is
 * there when its numerator was measured and its denominator is above 0,
 * and absent - never 0 - otherwise: a denominator of 0, a denominator
 * nothing measured, a block count without the block domain.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analyze_fixture.h"
#include "results/per_op.h"

#define MAX_SEEN 32

/* every per_op value a phase gives */
struct seen {
	unsigned int n;
	char name[MAX_SEEN][64];
	double v[MAX_SEEN];
};

static int collect(void *ctx, const char *name, double value)
{
	struct seen *s = ctx;

	assert_true(per_op_is_ratio(name));
	assert_true(s->n < MAX_SEEN);
	snprintf(s->name[s->n], sizeof(s->name[0]), "%s", name);
	s->v[s->n++] = value;
	return 0;
}

static const double *seen_find(const struct seen *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return &s->v[i];
	return NULL;
}

static void values_of(const struct phase_result *p, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(per_op_values(p, collect, s), 0);
}

/* the kernel's counts that only ever stand above a ratio's line */
static const char *const numerators[] = {
	"ext4.mballoc_groups_scanned",
	"ext4.mballoc_extents_scanned",
	"ext4.alloc_requested_blocks",
	"ext4.da_flush_blocks",
	"ext4.da_flush_extents",
	"ext4.da_forced_flushes",
	"jbd2.blocks",
	"xfs.log_force_events",
};

/* the counts some ratio divides by (a few are numerators too) */
static const char *const denominators[] = {
	"ext4.alloc_requests",
	"ext4.mballoc_cr_power2_aligned",
	"ext4.mballoc_cr_goal_len_fast",
	"ext4.mballoc_cr_best_avail_len",
	"ext4.mballoc_cr_goal_len_slow",
	"ext4.mballoc_cr_any_free",
	"ext4.alloc_goal_hits",
	"ext4.alloc_goal_misses",
	"ext4.da_flushes",
	"jbd2.commits",
	"xfs.log_writes",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define ALL_RATIOS 16

/*
 * A phase with every count a ratio reads: the numerators at 40, the
 * denominators at den (absent when den < 0) but zero at 0, the workload's
 * MB, files, fsyncs and the block domain's requests as work says
 */
static struct phase_result *phase_with(struct run_result *run, int den,
				       const char *zero, bool work)
{
	struct phase_result *p =
		fx_phase(fx_case(run, "ext4", "ext4", 1), "create", 1.0);
	unsigned int i;

	for (i = 0; i < N(numerators); i++)
		assert_int_equal(metric_add(&p->metrics, numerators[i], 40), 0);
	for (i = 0; den >= 0 && i < N(denominators); i++)
		assert_int_equal(
			metric_add(&p->metrics, denominators[i],
				   zero && !strcmp(zero, denominators[i]) ?
					   0 :
					   (uint64_t)den),
			0);
	if (work) {
		p->work.bytes = 8000000; /* 8 MB */
		p->work.files = 200;
		fx_fsyncs(p, 20, 0.1);
		fx_io(p, BLK_IOC_LOG_WRITE, BLK_ISS_JBD2, 10, 40960, 0.1);
		fx_io(p, BLK_IOC_DATA_WRITE, BLK_ISS_WORKLOAD, 30, 8000000,
		      0.3);
	}
	return p;
}

static void every_ratio_with_its_denominator(void **state)
{
	struct run_result run = { 0 };
	struct seen s;
	const double *v;

	(void)state;
	values_of(phase_with(&run, 10, NULL, true), &s);
	assert_int_equal(s.n, ALL_RATIOS);
	v = seen_find(&s, "per_op.ext4.da_extents_per_flush");
	assert_non_null(v);
	assert_true(fabs(*v - 4.0) < 1e-9); /* 40 extents, 10 flushes */
	v = seen_find(&s, "per_op.block.ios_per_mb");
	assert_non_null(v);
	assert_true(fabs(*v - 5.0) < 1e-9); /* 40 requests, 8 MB */
	v = seen_find(&s, "per_op.xfs.log_bytes_per_log_write");
	assert_non_null(v);
	assert_true(fabs(*v - 4096.0) < 1e-9);
	run_result_free(&run);
}

/* nodelalloc, an idle phase: the counters are there and read 0 */
static void no_ratio_over_a_denominator_of_0(void **state)
{
	struct run_result run = { 0 };
	struct seen s;

	(void)state;
	values_of(phase_with(&run, 0, NULL, false), &s);
	assert_int_equal(s.n, 0);
	run_result_free(&run);
}

/* the counters were not there at all */
static void no_ratio_over_an_absent_denominator(void **state)
{
	struct run_result run = { 0 };
	struct seen s;

	(void)state;
	values_of(phase_with(&run, -1, NULL, false), &s);
	assert_int_equal(s.n, 0);
	run_result_free(&run);
}

/* the case: delalloc's other counts there, no flush */
static void extents_per_flush_without_a_flush_is_absent(void **state)
{
	struct run_result run = { 0 };
	struct phase_result *p;
	struct seen s;

	(void)state;
	p = phase_with(&run, 10, "ext4.da_flushes", true);
	values_of(p, &s);
	assert_int_equal(s.n, ALL_RATIOS - 1);
	assert_null(seen_find(&s, "per_op.ext4.da_extents_per_flush"));
	assert_non_null(seen_find(&s, "per_op.ext4.da_flush_blocks_per_mb"));
	run_result_free(&run);
}

/*
 * Without the block domain the phase's requests and bytes are not known:
 * the ratios they stand in are absent, not 0 (IOs per MB of the work,
 * bytes per XFS log write)
 */
static void block_ratios_need_the_block_domain(void **state)
{
	struct run_result run = { 0 };
	struct phase_result *p;
	struct seen s;

	(void)state;
	p = phase_with(&run, 10, NULL, true);
	p->block.traced = false;
	values_of(p, &s);
	assert_null(seen_find(&s, "per_op.block.ios_per_mb"));
	assert_null(seen_find(&s, "per_op.block.bytes_per_io"));
	assert_null(seen_find(&s, "per_op.xfs.log_bytes_per_log_write"));
	assert_int_equal(s.n, ALL_RATIOS - 3);
	run_result_free(&run);
}

/* a ratio's numerator the phase lacks: absent, though its line is > 0 */
static void an_unmeasured_numerator_gives_no_ratio(void **state)
{
	struct run_result run = { 0 };
	struct phase_result *p;
	struct seen s;

	(void)state;
	p = fx_phase(fx_case(&run, "ext4", "ext4", 1), "create", 1.0);
	assert_int_equal(metric_add(&p->metrics, "ext4.da_flushes", 10), 0);
	values_of(p, &s);
	assert_null(seen_find(&s, "per_op.ext4.da_extents_per_flush"));
	run_result_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_ratio_with_its_denominator),
		cmocka_unit_test(no_ratio_over_a_denominator_of_0),
		cmocka_unit_test(no_ratio_over_an_absent_denominator),
		cmocka_unit_test(extents_per_flush_without_a_flush_is_absent),
		cmocka_unit_test(block_ratios_need_the_block_domain),
		cmocka_unit_test(an_unmeasured_numerator_gives_no_ratio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
