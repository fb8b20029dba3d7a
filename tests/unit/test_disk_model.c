// SPDX-License-Identifier: GPL-2.0
/*
 * The device model's disk (model/disk.c) against its own parameters: the
 * seek curve through the data sheet's three points, random and sequential
 * service times on simulated request streams, the write cache and its
 * flush, a rate model's pace, and the parameters' text round trip.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/disk.h"
#include "model/preset.h"

#define MIB (1024ULL * 1024)
#define SPAN (1024 * MIB)
/* the engine's round trip between one answer and the next request */
#define GAP_NS 66000ULL

static void model_of(const char *name, struct disk_model *d)
{
	struct device_model m;
	char why[200];

	assert_int_equal(device_model_parse(name, &m, why, sizeof(why)), 0);
	assert_int_equal(disk_model_init(d, &m, SPAN), 0);
}

static void seek_curve_meets_the_data_sheet(void **state)
{
	struct disk_model d;

	(void)state;
	model_of("hdd", &d);
	assert_true(disk_seek_ns(&d, 0) == 0);
	assert_true(fabs(disk_seek_ns(&d, 1e-9) - 1e6) < 1e3);
	assert_true(fabs(disk_seek_ns(&d, 1) - 20e6) < 1e3);
	assert_true(fabs(disk_mean_seek_ns(&d) - 8.5e6) < 1e4);
	/* it rises with the distance */
	assert_true(disk_seek_ns(&d, 0.1) < disk_seek_ns(&d, 0.2));
	disk_model_free(&d);
	model_of("hdd-15k", &d);
	assert_true(fabs(disk_mean_seek_ns(&d) - 3.1e6) < 1e4);
	assert_true(fabs(disk_seek_ns(&d, 1) - 6.5e6) < 1e3);
	disk_model_free(&d);
}

static uint64_t rnd(uint64_t *s, uint64_t n)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (*s >> 11) % n;
}

/* one request at a time, each GAP_NS after the previous answer */
static double mean_service(struct disk_model *d, enum disk_op op, int n,
			   uint64_t len, bool random, double *rate)
{
	uint64_t now = 1000000, total = 0, seed = 7, off = SPAN / 2, done;
	int i;

	for (i = 0; i < n; i++) {
		if (random)
			off = rnd(&seed, SPAN / 4096 - len / 4096) * 4096;
		done = disk_model_submit(d, op, off, len, now);
		total += done - now;
		now = done + GAP_NS;
		off += len;
	}
	if (rate)
		*rate = (double)n * (double)len * 1e9 / (double)total;
	return (double)total / n;
}

static void random_reads_take_overhead_seek_and_half_a_turn(void **state)
{
	struct disk_model d;
	double mean, want;

	(void)state;
	model_of("hdd", &d);
	mean = mean_service(&d, DISK_READ, 20000, 4096, true, NULL);
	want = disk_predict_random_read_ns(&d, 4096);
	print_message("random 4 KiB reads: %.3f ms, predicted %.3f ms\n",
		      mean / 1e6, want / 1e6);
	assert_true(fabs(mean / want - 1) < 0.03);
	disk_model_free(&d);
}

static void sequential_reads_stream_at_the_media_rate(void **state)
{
	struct disk_model d;
	double rate;

	(void)state;
	model_of("hdd", &d);
	mean_service(&d, DISK_READ, 200, MIB, false, &rate);
	print_message("sequential 1 MiB reads: %.1f MB/s\n", rate / 1e6);
	assert_true(fabs(rate / 120e6 - 1) < 0.05);
	disk_model_free(&d);
}

static void sequential_writes_beat_random_reads_tenfold(void **state)
{
	struct disk_model d;
	double w, r;

	(void)state;
	model_of("hdd", &d);
	w = mean_service(&d, DISK_WRITE, 4000, 4096, false, NULL);
	disk_model_reset(&d);
	r = mean_service(&d, DISK_READ, 2000, 4096, true, NULL);
	print_message("4 KiB: sequential write %.0f us, random read %.0f us\n",
		      w / 1e3, r / 1e3);
	assert_true(r / w >= 10);
	disk_model_free(&d);
}

static void a_flush_drains_the_cache_and_costs_little_when_clean(void **state)
{
	struct disk_model d;
	uint64_t now = 1000000, done, seed = 3;
	int i;

	(void)state;
	model_of("hdd", &d);
	done = disk_model_submit(&d, DISK_FLUSH, 0, 0, now);
	assert_int_equal(done - now, d.m.overhead_ns);
	for (i = 0; i < 16; i++) {
		done = disk_model_submit(&d, DISK_WRITE,
					 rnd(&seed, SPAN / 4096) * 4096, 4096,
					 now);
		/* into the cache: the interface's time, not the media's */
		assert_true(done - now < 200000);
		now = done + GAP_NS;
	}
	assert_true(d.n_dirty > 0);
	done = disk_model_submit(&d, DISK_FLUSH, 0, 0, now);
	/* at least a revolution's worth for what is still dirty */
	assert_true(done - now > 8000000);
	assert_int_equal(d.n_dirty, 0);
	assert_int_equal(d.dirty_bytes, 0);
	disk_model_free(&d);
}

static void a_full_cache_holds_writes_to_the_destage_rate(void **state)
{
	struct disk_model d;
	double rate;

	(void)state;
	model_of("hdd", &d);
	/* far more than the 32 MiB cache, sequential */
	mean_service(&d, DISK_WRITE, 1024, MIB, false, &rate);
	print_message("sequential 1 MiB writes, 1 GiB: %.1f MB/s\n",
		      rate / 1e6);
	assert_true(rate < 120e6 * 1.1);
	assert_true(rate > 120e6 * 0.85);
	disk_model_free(&d);
}

static void a_rate_model_paces_requests(void **state)
{
	struct disk_model d;
	double mean;

	(void)state;
	model_of("custom:wiops=100", &d);
	mean = mean_service(&d, DISK_WRITE, 50, 4096, true, NULL);
	assert_true(fabs(mean - 10e6) < 1e3);
	/* a flush counts as one write */
	assert_true(disk_model_submit(&d, DISK_FLUSH, 0, 0, 0) > 0);
	disk_model_free(&d);
}

static void the_parameters_survive_their_text(void **state)
{
	struct device_model m, back;
	char text[DEVICE_MODEL_TEXT_LEN], why[200];

	(void)state;
	assert_int_equal(device_model_parse("hdd-15k", &m, why, sizeof(why)),
			 0);
	device_model_format(&m, text, sizeof(text));
	assert_int_equal(device_model_unformat(text, &back), 0);
	assert_string_equal(back.name, "hdd-15k");
	assert_int_equal(back.rpm, 15000);
	assert_int_equal(back.seek_avg_ns, m.seek_avg_ns);
	assert_int_equal(back.cache_bytes, m.cache_bytes);
	assert_int_equal(back.readahead_bytes, m.readahead_bytes);
	assert_int_equal(device_model_unformat("hdd: rpm=7200 seek_ns=1",
					       &back),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seek_curve_meets_the_data_sheet),
		cmocka_unit_test(
			random_reads_take_overhead_seek_and_half_a_turn),
		cmocka_unit_test(sequential_reads_stream_at_the_media_rate),
		cmocka_unit_test(sequential_writes_beat_random_reads_tenfold),
		cmocka_unit_test(
			a_flush_drains_the_cache_and_costs_little_when_clean),
		cmocka_unit_test(a_full_cache_holds_writes_to_the_destage_rate),
		cmocka_unit_test(a_rate_model_paces_requests),
		cmocka_unit_test(the_parameters_survive_their_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
