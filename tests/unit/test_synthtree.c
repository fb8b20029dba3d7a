// SPDX-License-Identifier: GPL-2.0
/*
 * The synthetic kernel-like tree (src/workload/synthtree.h): preset counts,
 * the measured shape, tar order, safety of every member, and that one seed
 * always makes the same tree.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workload/synthtree.h"
#include "workload/tarsafe.h"
#include "workload/treesum.h"

struct tree_stats {
	uint64_t files, dirs, symlinks, bytes;
	uint64_t *sizes; /* sorted */
	uint64_t *per_dir; /* files directly in each directory, sorted */
	uint64_t *name_len; /* sorted */
	double depth_mean; /* '/' in a file's path */
	uint64_t depth_max;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t slashes(const char *p)
{
	uint64_t n = 0;

	for (; *p; p++)
		n += *p == '/';
	return n;
}

/* is a the parent directory of path b? */
static int is_parent(const char *a, const char *b)
{
	size_t len = strlen(a);
	const char *rest = b + len;

	return !strncmp(a, b, len) && *rest == '/' && !strchr(rest + 1, '/');
}

/*
 * Walk the entries as tar order demands: a stack of open directories, each
 * entry's parent on it (depth first: once left, a directory never returns).
 */
static void tree_stats_take(const struct memtar *t, struct tree_stats *st)
{
	const char **stack = calloc(64, sizeof(*stack));
	uint64_t *count = calloc(64, sizeof(*count)), depth_sum = 0, left = 0;
	size_t i, top = 0;

	memset(st, 0, sizeof(*st));
	st->sizes = calloc(t->n, sizeof(uint64_t));
	st->per_dir = calloc(t->n, sizeof(uint64_t));
	st->name_len = calloc(t->n, sizeof(uint64_t));
	assert_non_null(stack);
	assert_non_null(count);
	assert_non_null(st->sizes);
	assert_non_null(st->per_dir);
	assert_non_null(st->name_len);
	for (i = 0; i < t->n; i++) {
		const struct memtar_entry *e = &t->v[i];
		const char *path = memtar_path(t, e);

		if (tarsafe_path_problem(path))
			fail_msg("member %s: %s", path,
				 tarsafe_path_problem(path));
		if (i == 0) {
			assert_int_equal(e->type, MEMTAR_DIR);
			assert_null(strchr(path, '/'));
		} else {
			while (top && !is_parent(stack[top - 1], path))
				st->per_dir[left++] = count[--top];
			if (!top)
				fail_msg(
					"member %s (#%zu) comes after its directory was left: not tar order",
					path, i);
		}
		if (e->type == MEMTAR_DIR) {
			assert_true(top < 64);
			stack[top] = path;
			count[top++] = 0;
			st->dirs++;
			continue;
		}
		if (e->type == MEMTAR_SYMLINK) {
			const char *problem = tarsafe_symlink_problem(
				path, memtar_link(t, e));

			if (problem)
				fail_msg("symlink %s -> %s: %s", path,
					 memtar_link(t, e), problem);
			st->symlinks++;
			continue;
		}
		assert_int_equal(e->type, MEMTAR_FILE);
		assert_true(e->data_off + e->size <= t->data_len);
		count[top - 1]++;
		st->name_len[st->files] = strlen(strrchr(path, '/') + 1);
		st->sizes[st->files++] = e->size;
		st->bytes += e->size;
		depth_sum += slashes(path);
		if (slashes(path) > st->depth_max)
			st->depth_max = slashes(path);
	}
	while (top)
		st->per_dir[left++] = count[--top];
	assert_int_equal(left, st->dirs);
	qsort(st->sizes, st->files, sizeof(uint64_t), cmp_u64);
	qsort(st->per_dir, st->dirs, sizeof(uint64_t), cmp_u64);
	qsort(st->name_len, st->files, sizeof(uint64_t), cmp_u64);
	st->depth_mean = st->files ? (double)depth_sum / (double)st->files : 0;
	free(stack);
	free(count);
}

static void tree_stats_free(struct tree_stats *st)
{
	free(st->sizes);
	free(st->per_dir);
	free(st->name_len);
}

static uint64_t quantile(const uint64_t *sorted, uint64_t n, double q)
{
	return sorted[(uint64_t)(q * (double)n)];
}

static void build_preset(const char *name, struct memtar *t,
			 struct tree_stats *st)
{
	struct synth_spec spec;

	assert_int_equal(synth_preset(name, &spec), 0);
	assert_int_equal(synth_build(&spec, t), 0);
	tree_stats_take(t, st);
}

static void small_preset_is_3000_files_in_kernel_proportions(void **state)
{
	struct tree_stats st;
	struct memtar t;

	(void)state;
	build_preset("small", &t, &st);
	assert_int_equal(st.files, 3000);
	assert_int_equal(st.dirs, 195); /* 3000 * 5096 / 78579 */
	assert_int_equal(st.symlinks, 2);
	assert_int_equal(st.bytes, 3000ULL * 16527);
	tree_stats_free(&st);
	memtar_free(&t);
}

static void linux_6_1_preset_has_the_measured_counts(void **state)
{
	struct tree_stats st;
	struct memtar t;

	(void)state;
	build_preset("linux-6.1", &t, &st);
	assert_int_equal(st.files, 78579);
	assert_int_equal(st.dirs, 5096);
	assert_int_equal(st.symlinks, 56);
	assert_int_equal(st.bytes, 1298682509ULL);
	tree_stats_free(&st);
	memtar_free(&t);
}

static void linux_2_6_33_preset_is_31500_files_in_370_mb(void **state)
{
	struct tree_stats st;
	struct memtar t;

	(void)state;
	build_preset("linux-2.6.33", &t, &st);
	assert_int_equal(st.files, 31500);
	assert_int_equal(st.dirs, 2000);
	assert_int_equal(st.bytes, 370000000ULL);
	tree_stats_free(&st);
	memtar_free(&t);
}

static void assert_near(const char *what, double got, double want,
			double tolerance)
{
	if (got < want * (1 - tolerance) || got > want * (1 + tolerance))
		fail_msg("%s = %.1f, want %.1f within %.0f%%", what, got, want,
			 tolerance * 100);
}

static void linux_6_1_shape_matches_the_measured_distribution(void **state)
{
	struct tree_stats st;
	struct memtar t;
	uint64_t below512 = 0, i;

	(void)state;
	build_preset("linux-6.1", &t, &st);
	assert_near("size p10", (double)quantile(st.sizes, st.files, 0.10), 446,
		    0.05);
	assert_near("size p50", (double)quantile(st.sizes, st.files, 0.50),
		    3874, 0.03);
	assert_near("size p90", (double)quantile(st.sizes, st.files, 0.90),
		    28759, 0.03);
	assert_near("size p99", (double)quantile(st.sizes, st.files, 0.99),
		    124858, 0.05);
	for (i = 0; i < st.files; i++)
		below512 += st.sizes[i] < 512;
	assert_near("share below 512 B", (double)below512 / (double)st.files,
		    0.115, 0.05);
	assert_near("files per dir, median",
		    (double)quantile(st.per_dir, st.dirs, 0.5), 6, 0.2);
	assert_near("files per dir, p90",
		    (double)quantile(st.per_dir, st.dirs, 0.9), 32, 0.2);
	assert_near("depth mean", st.depth_mean, 4.7, 0.05);
	assert_true(st.depth_max <= 10);
	assert_near("name length median",
		    (double)quantile(st.name_len, st.files, 0.5), 12, 0.1);
	tree_stats_free(&st);
	memtar_free(&t);
}

static uint64_t tree_checksum(const struct synth_spec *spec)
{
	struct tree_list l;
	struct tree_sum sum;
	struct memtar t;

	assert_int_equal(synth_build(spec, &t), 0);
	assert_int_equal(tree_list_from_memtar(&t, &l), 0);
	tree_sum_compute(&l, &sum);
	tree_list_free(&l);
	memtar_free(&t);
	return sum.checksum;
}

static void same_seed_builds_the_same_tree_byte_for_byte(void **state)
{
	struct memtar a, b;
	struct synth_spec spec;
	size_t i;

	(void)state;
	assert_int_equal(synth_preset("small", &spec), 0);
	spec.seed = 42;
	assert_int_equal(synth_build(&spec, &a), 0);
	assert_int_equal(synth_build(&spec, &b), 0);
	assert_int_equal(a.n, b.n);
	assert_int_equal(a.data_len, b.data_len);
	assert_memory_equal(a.data, b.data, a.data_len);
	for (i = 0; i < a.n; i++) {
		assert_string_equal(memtar_path(&a, &a.v[i]),
				    memtar_path(&b, &b.v[i]));
		assert_int_equal(a.v[i].size, b.v[i].size);
		assert_int_equal(a.v[i].data_off, b.v[i].data_off);
		assert_int_equal(a.v[i].mode, b.v[i].mode);
		assert_int_equal(a.v[i].mtime, b.v[i].mtime);
	}
	assert_int_equal(tree_checksum(&spec), tree_checksum(&spec));
	memtar_free(&a);
	memtar_free(&b);
}

static void another_seed_builds_another_tree(void **state)
{
	struct synth_spec spec;
	uint64_t one;

	(void)state;
	assert_int_equal(synth_preset("small", &spec), 0);
	spec.seed = 1;
	one = tree_checksum(&spec);
	spec.seed = 2;
	assert_true(tree_checksum(&spec) != one);
}

static void files_override_keeps_the_kernel_proportions(void **state)
{
	struct synth_spec spec;
	struct tree_stats st;
	struct memtar t;

	(void)state;
	assert_int_equal(synth_preset("linux-6.1", &spec), 0);
	synth_spec_scale(&spec, 10000);
	assert_int_equal(spec.dirs, 649); /* 10000 * 5096 / 78579 */
	assert_int_equal(spec.symlinks, 7);
	assert_int_equal(synth_build(&spec, &t), 0);
	tree_stats_take(&t, &st);
	assert_int_equal(st.files, 10000);
	assert_int_equal(st.dirs, 649);
	assert_int_equal(st.symlinks, 7);
	assert_int_equal(st.bytes, 10000ULL * 16527);
	tree_stats_free(&st);
	memtar_free(&t);
}

static void unknown_preset_is_refused(void **state)
{
	struct synth_spec spec;

	(void)state;
	assert_int_equal(synth_preset("linux-9.9", &spec), -EINVAL);
	assert_non_null(strstr(synth_preset_names(), "linux-6.1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			small_preset_is_3000_files_in_kernel_proportions),
		cmocka_unit_test(linux_6_1_preset_has_the_measured_counts),
		cmocka_unit_test(linux_2_6_33_preset_is_31500_files_in_370_mb),
		cmocka_unit_test(
			linux_6_1_shape_matches_the_measured_distribution),
		cmocka_unit_test(same_seed_builds_the_same_tree_byte_for_byte),
		cmocka_unit_test(another_seed_builds_another_tree),
		cmocka_unit_test(files_override_keeps_the_kernel_proportions),
		cmocka_unit_test(unknown_preset_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
