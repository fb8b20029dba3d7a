// SPDX-License-Identifier: GPL-2.0
/*
 * The shared path of the domains (src/trace/domain_def.h): the per-CPU sum
 * of their statistics, their counters' reporting, their program slots.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <bpf/libbpf.h>

#include <cmocka.h>

#include "fsprof/jbd2.h"
#include "fsprof/phase.h"
#include "results/metrics.h"
#include "trace/attach.h"
#include "trace/counters.h"
#include "trace/domain_def.h"
#include "trace/percpu.h"

#define NCPUS 3

static const size_t jbd2_max[] = {
	PERCPU_HIST_MAX(struct jbd2_stats, commit_ns),
	PERCPU_HIST_MAX(struct jbd2_stats, run_ns[0]),
	PERCPU_HIST_MAX(struct jbd2_stats, run_ns[JBD2_T_NR - 1]),
};

static void counters_and_slots_add_up_over_cpus(void **state)
{
	struct jbd2_stats v[NCPUS], sum;
	int cpu;

	(void)state;
	memset(v, 0, sizeof(v));
	for (cpu = 0; cpu < NCPUS; cpu++) {
		v[cpu].commits = 10 + cpu; /* 10 + 11 + 12 */
		v[cpu].handle_dirtied_blocks = 1ULL << 40;
		v[cpu].commit_ns.count = 2;
		v[cpu].commit_ns.sum = 1000;
		v[cpu].commit_ns.slot[HIST_NSLOTS - 1] = cpu;
		v[cpu].run_ns[JBD2_T_NR - 1].slot[0] = 1;
	}
	percpu_stats_sum(&sum, v, NCPUS, sizeof(sum), jbd2_max, 3);
	assert_int_equal(sum.commits, 33);
	assert_true(sum.handle_dirtied_blocks == 3ULL << 40);
	assert_int_equal(sum.commit_ns.count, 6);
	assert_int_equal(sum.commit_ns.sum, 3000);
	assert_int_equal(sum.commit_ns.slot[HIST_NSLOTS - 1], 0 + 1 + 2);
	assert_int_equal(sum.run_ns[JBD2_T_NR - 1].slot[0], 3);
}

static void a_maximum_is_the_largest_over_cpus_not_their_sum(void **state)
{
	struct jbd2_stats v[NCPUS], sum;

	(void)state;
	memset(v, 0, sizeof(v));
	v[0].commit_ns.max = 700;
	v[1].commit_ns.max = 900;
	v[2].commit_ns.max = 800;
	v[1].run_ns[0].max = 5;
	/* a histogram whose max is not listed is summed like the rest */
	v[0].run_ns[1].max = 4;
	v[2].run_ns[1].max = 4;
	percpu_stats_sum(&sum, v, NCPUS, sizeof(sum), jbd2_max, 3);
	assert_int_equal(sum.commit_ns.max, 900);
	assert_int_equal(sum.run_ns[0].max, 5);
	assert_int_equal(sum.run_ns[1].max, 8);
}

static void the_sum_starts_from_zero(void **state)
{
	struct jbd2_stats v[1], sum;

	(void)state;
	memset(v, 0, sizeof(v));
	memset(&sum, 0xab, sizeof(sum));
	v[0].commits = 1;
	percpu_stats_sum(&sum, v, 1, sizeof(sum), jbd2_max, 3);
	assert_int_equal(sum.commits, 1);
	assert_int_equal(sum.commit_ns.max, 0);
	assert_int_equal(sum.blocks, 0);
}

struct two {
	unsigned long long a, b;
};

static bool only_prog_1(const void *ctx, int prog)
{
	(void)ctx;
	return prog == 1;
}

static void a_counter_is_reported_only_when_its_program_is_traced(void **state)
{
	static const struct counter_def defs[] = {
		{ "t.a", offsetof(struct two, a), 0 },
		{ "t.b", offsetof(struct two, b), 1 },
	};
	const struct two stats = { 7, 0 };
	struct metric_set m;
	const struct metric *b;

	(void)state;
	memset(&m, 0, sizeof(m));
	assert_int_equal(
		counters_report(&m, &stats, defs, 2, only_prog_1, NULL), 0);
	/* b's program is traced: its zero is a measurement */
	b = metric_find(&m, "t.b");
	assert_non_null(b);
	assert_int_equal(b->value, 0);
	assert_null(metric_find(&m, "t.a"));
	metric_set_free(&m);
}

/* three programs as a generated skeleton lists them */
static struct bpf_program *const fake_prog[3] = {
	(struct bpf_program *)0x1000, (struct bpf_program *)0x2000,
	(struct bpf_program *)0x3000
};
static struct bpf_program *prog_ptr[3];
static struct bpf_link *link_ptr[3];

static void fake_skeleton(struct bpf_object_skeleton *skel,
			  struct bpf_prog_skeleton *progs)
{
	static const char *const names[3] = { "fsprof_a", "fsprof_b",
					      "fsprof_c" };
	int i;

	memset(skel, 0, sizeof(*skel));
	for (i = 0; i < 3; i++) {
		prog_ptr[i] = fake_prog[i];
		link_ptr[i] = NULL;
		progs[i] = (struct bpf_prog_skeleton){ names[i], &prog_ptr[i],
						       &link_ptr[i] };
	}
	skel->name = "fake_bpf";
	skel->prog_cnt = 3;
	skel->prog_skel_sz = sizeof(*progs);
	skel->progs = progs;
}

static void slots_are_the_named_programs_in_the_tables_order(void **state)
{
	static const struct program_def defs[] = {
		{ "fsprof_c", "x:c_event" },
		{ "fsprof_a", "x:a_event" },
	};
	struct bpf_prog_skeleton progs[3];
	struct bpf_object_skeleton skel;
	struct program_slot slots[2];

	(void)state;
	fake_skeleton(&skel, progs);
	assert_int_equal(program_slots_fill(&skel, defs, 2, slots), 0);
	assert_ptr_equal(slots[0].prog, fake_prog[2]);
	assert_ptr_equal(slots[0].link, &link_ptr[2]);
	assert_string_equal(slots[0].event, "x:c_event");
	assert_false(slots[0].missing);
	assert_ptr_equal(slots[1].prog, fake_prog[0]);
	assert_false(program_slot_attached(&slots[1]));
	link_ptr[0] = (struct bpf_link *)0x10;
	assert_true(program_slot_attached(&slots[1]));
}

static void a_program_the_skeleton_lacks_is_an_error(void **state)
{
	static const struct program_def defs[] = {
		{ "fsprof_a", "x:a_event" },
		{ "fsprof_gone", "x:gone" },
	};
	struct bpf_prog_skeleton progs[3];
	struct bpf_object_skeleton skel;
	struct program_slot slots[2];

	(void)state;
	fake_skeleton(&skel, progs);
	assert_int_equal(program_slots_fill(&skel, defs, 2, slots), -ENOENT);
}

static void a_tracepoint_is_the_event_without_its_system(void **state)
{
	const struct program_def with = { "p", "jbd2:jbd2_start_commit" };
	const struct program_def bare = { "p", "sched_switch" };

	(void)state;
	assert_string_equal(program_def_tracepoint(&with), "jbd2_start_commit");
	assert_string_equal(program_def_tracepoint(&bare), "sched_switch");
}

/* a phase the maps have no slot for is refused before any map is read */
static void a_phase_beyond_the_maps_is_refused(void **state)
{
	const struct domain_def def = {
		.name = "jbd2", .stats_size = sizeof(struct jbd2_stats)
	};
	struct percpu_stats stats;
	int err = 0;

	(void)state;
	memset(&stats, 0, sizeof(stats));
	assert_null(
		domain_def_phase_sum(&def, &stats, FSPROF_MAX_PHASES, &err));
	assert_int_equal(err, -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counters_and_slots_add_up_over_cpus),
		cmocka_unit_test(
			a_maximum_is_the_largest_over_cpus_not_their_sum),
		cmocka_unit_test(the_sum_starts_from_zero),
		cmocka_unit_test(
			a_counter_is_reported_only_when_its_program_is_traced),
		cmocka_unit_test(a_tracepoint_is_the_event_without_its_system),
		cmocka_unit_test(
			slots_are_the_named_programs_in_the_tables_order),
		cmocka_unit_test(a_program_the_skeleton_lacks_is_an_error),
		cmocka_unit_test(a_phase_beyond_the_maps_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
