// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/analyze.h"
#include "results/json_read.h"
#include "run/kernel_run.h"
#include "run/run.h"
#include "run/run_history.h"
#include "run/signals.h"
#include "target/remove_tree.h"
#include "util/clock.h"
#include "util/log.h"
#include "vm/guest.h"
#include "vm/kernel.h"
#include "workload/params.h"

/* a TCG guest runs a quick workload in minutes; a hang ends here */
#define KERNEL_TIMEOUT_DEFAULT_NS (1800ULL * 1000000000ULL)
/* the guest's scratch disk beyond the largest image: its state files,
 * and room for mkfs.xfs's minimum on a small workload */
#define GUEST_SCRATCH_SLACK (1ULL << 30)

/* a kernel's guest, and where it is (enum guest_state, or -errno) */
struct kernel_guest {
	struct guest g;
	struct guest_spec spec;
	int state;
	double up_s; /* QEMU started to its fsprof at its first case */
};

struct kernel_run {
	const struct run_options *opt;
	struct vm_kernel k[VM_MAX_KERNELS];
	struct kernel_guest g[VM_MAX_KERNELS];
	unsigned int n;
	/* the fstypes of --fs, then the stack's needs (md-raid0, dm-linear):
	 * the modules and config a guest's kernel must have */
	const char *fstypes[FSSPEC_MAX + 3];
	const char *programs[FSSPEC_MAX + 2]; /* mkfs.*, mdadm, dmsetup */
	unsigned int n_fstypes, n_programs;
	char modules[256]; /* the guests load (vm_kernel_guest_modules) */
	struct runstate state; /* what fsprof cleanup removes after a kill */
	bool has_state;
	uint64_t scratch_bytes;
	volatile sig_atomic_t stop;
	/* kernels given by path are staged here, for this run only: a
	 * developer's build changes between runs, and the cache would keep
	 * every one; in the state file as a workdir (fsprof cleanup) */
	char path_cache[4096];
	int path_cache_record;
};

static const char *kernel_cache(struct kernel_run *kr,
				const struct vm_kernel *k)
{
	if (!vm_kernel_is_path(k))
		return NULL;
	if (!kr->path_cache[0]) {
		char real[PATH_MAX];
		int id;

		/* fsprof. as every workdir fsprof cleanup removes */
		snprintf(kr->path_cache, sizeof(kr->path_cache),
			 "%s/fsprof.kernels-XXXXXX", kr->opt->scratch);
		if (!mkdtemp(kr->path_cache)) {
			kr->path_cache[0] = '\0';
			return NULL;
		}
		id = kr->has_state && realpath(kr->path_cache, real) ?
			     runstate_add(&kr->state, "workdir", real) :
			     0;
		kr->path_cache_record = id > 0 ? id : 0;
	}
	return kr->path_cache;
}

/* the kernels staged from paths, gone with the run (false: left) */
static bool path_cache_remove(struct kernel_run *kr)
{
	if (!kr->path_cache[0])
		return true;
	if (remove_tree(kr->path_cache)) {
		log_warn(
			"could not remove %s, where kernels given by path were staged (fsprof cleanup --scratch %s)",
			kr->path_cache, kr->opt->scratch);
		return false;
	}
	if (kr->path_cache_record)
		runstate_remove(&kr->state, kr->path_cache_record);
	return true;
}

/* what is not in the list yet goes at its end */
static void list_add(const char **list, unsigned int *n, const char *what)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(list[i], what))
			return;
	list[(*n)++] = what;
}

/* --raid, --dm, raid=, dm=: the guests build the stack with their tools */
static void stack_needs_of(struct kernel_run *kr, const struct stack_spec *s)
{
	if (s->raid_members) {
		list_add(kr->fstypes, &kr->n_fstypes,
			 s->raid_level ? "md-raid1" : "md-raid0");
		list_add(kr->programs, &kr->n_programs, "mdadm");
	}
	if (s->dm_linear) {
		list_add(kr->fstypes, &kr->n_fstypes, "dm-linear");
		list_add(kr->programs, &kr->n_programs, "dmsetup");
	}
}

/* the distinct fstypes of --fs, and the mkfs each needs in the guest */
static void fstypes_of(struct kernel_run *kr)
{
	static char mkfs[FSSPEC_MAX][32];
	const struct run_options *opt = kr->opt;
	unsigned int i, j;

	for (i = 0; i < opt->n_fs; i++) {
		for (j = 0; j < kr->n_fstypes; j++)
			if (!strcmp(kr->fstypes[j], opt->fs[i].fstype))
				break;
		if (j < kr->n_fstypes)
			continue;
		snprintf(mkfs[j], sizeof(mkfs[j]), "mkfs.%s",
			 opt->fs[i].fstype);
		kr->fstypes[j] = opt->fs[i].fstype;
		kr->programs[j] = mkfs[j];
		kr->n_fstypes++;
	}
	kr->n_programs = kr->n_fstypes;
	for (i = 0; i < opt->n_fs; i++)
		stack_needs_of(kr, fsspec_stack(&opt->fs[i], &opt->stack));
}

/* k's place among the kernels of LIST that are the same as it (1-based),
 * when LIST names it more than once (an A/A); else 0 */
static unsigned int kernel_slot(const struct kernel_run *kr,
				const struct vm_kernel *k)
{
	unsigned int i, slot = 0, same = 0;

	for (i = 0; i < kr->n; i++) {
		if (strcmp(kr->k[i].dir, k->dir))
			continue;
		same++;
		if (&kr->k[i] == k)
			slot = same;
	}
	return same > 1 ? slot : 0;
}

/* every kernel staged and checked before the first boot: EXIT_USAGE */
static int kernels_ready(struct kernel_run *kr)
{
	char err[2048];
	unsigned int i;
	int n;

	n = vm_kernels_parse(kr->opt->kernels, kr->k, VM_MAX_KERNELS, err,
			     sizeof(err));
	if (n < 0) {
		log_error("--kernel: %s", err);
		return EXIT_USAGE;
	}
	kr->n = (unsigned int)n;
	for (i = 0; i < kr->n; i++) {
		struct vm_kernel *k = &kr->k[i];

		if (kr->opt->kernel_modules && !vm_kernel_is_path(k) &&
		    strcmp(k->spec, "running")) {
			log_error(
				"--kernel-modules %s: kernel %s is a Debian kernel, whose package has its modules; --kernel-modules is for a kernel given by path (or running)",
				kr->opt->kernel_modules, k->spec);
			return EXIT_USAGE;
		}
		log_info("kernel %s: staging", k->spec);
		if (vm_kernel_stage(k, kr->opt->kernel_modules,
				    kernel_cache(kr, k), kr->fstypes,
				    kr->n_fstypes, err, sizeof(err)) ||
		    vm_kernel_check(k, kr->fstypes, kr->n_fstypes, err,
				    sizeof(err))) {
			log_error("%s; nothing was booted", err);
			return EXIT_USAGE;
		}
		log_debug("kernel %s: Linux %s from %s in %s, BTF %s", k->spec,
			  k->release, k->source, k->dir, k->btf_hash);
	}
	/* the same kernel twice: its messages say which guest, 6.1#2 */
	for (i = 0; i < kr->n; i++) {
		unsigned int slot = kernel_slot(kr, &kr->k[i]);
		size_t len = strlen(kr->k[i].spec);

		if (slot && len + 12 < sizeof(kr->k[i].spec))
			snprintf(kr->k[i].spec + len,
				 sizeof(kr->k[i].spec) - len, "#%u", slot);
	}
	return EXIT_OK;
}

static void cases_tag(struct run_result *r, const struct vm_kernel *k,
		      const struct guest_result *g, unsigned int slot)
{
	unsigned int i;

	for (i = 0; i < r->n_cases; i++) {
		struct case_kernel *ck = &r->cases[i].kernel;

		ck->guest = true;
		snprintf(ck->release, sizeof(ck->release), "%s",
			 g->release[0] ? g->release : k->release);
		snprintf(ck->source, sizeof(ck->source), "%s", k->source);
		snprintf(ck->btf_hash, sizeof(ck->btf_hash), "%s", k->btf_hash);
		snprintf(ck->accel, sizeof(ck->accel), "%s", g->accel);
		ck->emulated = !strcmp(g->accel, "tcg");
		ck->slot = slot;
	}
}

/* the last lines of the guest's fsprof output, for a failed guest run */
static void log_tail(const char *text)
{
	const char *p = text ? text + strlen(text) : NULL;
	int lines = 0;

	if (!p)
		return;
	while (p > text && lines < 8)
		if (*--p == '\n' && p[1])
			lines++;
	log_error("its fsprof's output ended:\n%s", p);
}

/* the guest's results into the run's; 0, or -errno said */
static int guest_collect(const struct vm_kernel *k, struct guest_result *g,
			 unsigned int slot, struct run_result *into)
{
	struct run_result *r = calloc(1, sizeof(*r));
	char err[1024], name[600];
	json_error_t jerr;
	json_t *root;
	int ret = -EINVAL;

	root = json_loads(g->run_json, 0, &jerr);
	snprintf(name, sizeof(name), "the results of kernel %s", k->spec);
	if (!r || !root)
		log_error("%s: not JSON (%s)", name, jerr.text);
	else if (results_from_json(root, name, r, err, sizeof(err)))
		log_error("%s", err);
	else {
		cases_tag(r, k, g, slot);
		ret = run_result_move_cases(into, r);
		run_result_free(r);
	}
	json_decref(root);
	free(r);
	return ret;
}

/* boot every guest at once (a boot is not measured): each at its gate */
static void guests_boot(struct kernel_run *kr)
{
	const struct run_options *opt = kr->opt;
	char err[8192]; /* a guest's console excerpt in it */
	unsigned int i;

	for (i = 0; i < kr->n; i++) {
		struct kernel_guest *kg = &kr->g[i];
		struct guest_spec *spec = &kg->spec;

		spec->kernel = &kr->k[i];
		spec->args = opt->guest_args;
		spec->n_args = opt->n_guest_args;
		spec->modules = kr->modules;
		spec->programs = kr->programs;
		spec->n_programs = kr->n_programs;
		spec->scratch = opt->scratch;
		spec->scratch_bytes = kr->scratch_bytes;
		spec->cmdline = opt->kernel_cmdline;
		spec->timeout_ns = opt->kernel_timeout_ns ?
					   opt->kernel_timeout_ns :
					   KERNEL_TIMEOUT_DEFAULT_NS;
		spec->stop = &kr->stop;
		spec->state = kr->has_state ? &kr->state : NULL;
		log_info("kernel %s: booting Linux %s (%s)", kr->k[i].spec,
			 kr->k[i].release, guest_accel());
		kg->state = guest_start(&kg->g, spec, err, sizeof(err));
		if (kg->state < 0)
			log_error("kernel %s: %s", kr->k[i].spec, err);
	}
	for (i = 0; i < kr->n; i++) {
		struct kernel_guest *kg = &kr->g[i];

		if (kg->state < 0)
			continue;
		kg->state = guest_wait(&kg->g, err, sizeof(err));
		/* at most: a guest is seen at its gate after the one before */
		kg->up_s = (double)(clock_mono_ns() - kg->g.t0) / 1e9;
		if (kg->state < 0)
			log_error("%s", err);
		else
			log_info(
				"kernel %s: up, its fsprof at its first case within %.1f s of QEMU's start",
				kr->k[i].spec, kg->up_s);
	}
}

/* a round: each guest with a case left runs it, in turn (A, B, A, B) */
static bool guests_round(struct kernel_run *kr, unsigned int *order)
{
	char err[8192]; /* a guest's console excerpt in it */
	unsigned int i;
	bool any = false;

	for (i = 0; i < kr->n && !kr->stop; i++) {
		struct kernel_guest *kg = &kr->g[i];

		if (kg->state != GUEST_READY)
			continue;
		any = true;
		++*order;
		log_info("kernel %s: case %u of the run: %s", kr->k[i].spec,
			 *order, kg->g.next);
		if (guest_go(&kg->g, *order)) {
			log_error("kernel %s: cannot write to its gate",
				  kr->k[i].spec);
			kg->state = -EIO;
			continue;
		}
		kg->state = guest_wait(&kg->g, err, sizeof(err));
		if (kg->state < 0)
			log_error("%s", err);
	}
	return any && !kr->stop;
}

/* a guest at its end: its cases into the run; 0 when it ran every one */
static int guest_done(struct kernel_run *kr, unsigned int i,
		      struct run_result *into)
{
	struct kernel_guest *kg = &kr->g[i];
	struct vm_kernel *k = &kr->k[i];
	struct guest_result *g = &kg->g.res;
	char err[8192]; /* a guest's console excerpt in it */
	int ret;

	ret = guest_end(&kg->g, err, sizeof(err));
	if (ret) {
		log_error("%s", err);
		return ret;
	}
	log_info(
		"kernel %s: Linux %s, %s: %.1f s in QEMU, /init at %.1f s, its first case within %.1f s",
		k->spec, g->release, g->accel, g->wall_s, g->boot_s, kg->up_s);
	ret = g->run_json ? guest_collect(k, g, kernel_slot(kr, k), into) :
			    -EIO;
	if (ret || g->fsprof_rc) {
		log_error("kernel %s (%s): fsprof in the guest exited %d",
			  k->spec, g->release, g->fsprof_rc);
		log_tail(g->run_log);
		ret = -EIO;
	}
	return ret;
}

/* every guest's directory removed: the state file has nothing to keep */
static bool guests_gone(const struct kernel_run *kr)
{
	unsigned int i;

	for (i = 0; i < kr->n; i++)
		if (kr->g[i].g.record)
			return false;
	return true;
}

/* every kernel's cases in turn, each guest booted once; true if one failed */
static bool guests_run(struct kernel_run *kr, struct run_result *into)
{
	unsigned int i, order = 0;
	bool failed = false;

	guests_boot(kr);
	while (guests_round(kr, &order))
		;
	/* all wrap up at once: no case runs any more */
	for (i = 0; i < kr->n; i++)
		if (kr->g[i].state == GUEST_FINISH)
			guest_release(&kr->g[i].g);
	for (i = 0; i < kr->n; i++) {
		if (kr->g[i].state < 0 || guest_done(kr, i, into))
			failed = true;
		guest_destroy(&kr->g[i].g);
	}
	return failed;
}

/* the run's kernel: the guests' releases, as they ran */
static void run_kernels_name(struct run_result *r)
{
	size_t used = 0;
	unsigned int i, j;

	r->kernel_release[0] = '\0';
	for (i = 0; i < r->n_cases; i++) {
		const char *rel = r->cases[i].kernel.release;

		for (j = 0; j < i; j++)
			if (!strcmp(r->cases[j].kernel.release, rel))
				break;
		if (j < i || used >= sizeof(r->kernel_release))
			continue;
		used += (size_t)snprintf(r->kernel_release + used,
					 sizeof(r->kernel_release) - used,
					 "%s%s", used ? "," : "", rel);
	}
}

int run_kernels(const struct run_options *opt,
		const struct workload_params *params)
{
	struct kernel_run *kr = calloc(1, sizeof(*kr));
	struct run_result *r = calloc(1, sizeof(*r));
	uint64_t image, space, files;
	bool failed, cache_gone;
	int code;

	if (!kr || !r) {
		free(kr);
		free(r);
		log_error("out of memory");
		return EXIT_RUN_FAILED;
	}
	kr->opt = opt;
	fstypes_of(kr);
	vm_kernel_guest_modules(kr->fstypes, kr->n_fstypes, kr->modules,
				sizeof(kr->modules));
	run_needs(opt, params, &image, &space, &files);
	kr->scratch_bytes = image + GUEST_SCRATCH_SLACK;
	code = run_output_paths_check(opt) ? EXIT_USAGE : 0;
	if (!code) {
		mkdir(opt->scratch, 0755);
		kr->has_state = !runstate_create(&kr->state, opt->scratch);
		code = kernels_ready(kr);
	}
	if (!code && signals_install(&kr->stop))
		code = EXIT_RUN_FAILED;
	if (code)
		goto out;
	run_result_start(r, opt);
	snprintf(r->suite, sizeof(r->suite), "%s", opt->suite);
	failed = guests_run(kr, r);
	run_kernels_name(r);
	if (analyze_run(r))
		log_warn(
			"analysing the results ran out of memory: findings are incomplete");
	run_result_record_rss(r);
	r->interrupted = kr->stop != 0;
	r->signal = kr->stop;
	code = kr->stop ? 128 + kr->stop : failed ? EXIT_RUN_FAILED : EXIT_OK;
	code = run_report_results(opt, r, code);
	run_history_record(opt, r);
	run_result_free(r);
out:
	cache_gone = path_cache_remove(kr);
	if (kr->has_state)
		runstate_close(&kr->state, cache_gone && guests_gone(kr));
	free(r);
	free(kr);
	return code;
}
