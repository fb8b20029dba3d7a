// SPDX-License-Identifier: GPL-2.0
/*
 * mount_holder(): the live process whose working directory or open file is
 * below a directory, found by /proc's paths; not one beside it, nor this
 * process itself. Real processes: a child of this test, in a directory of
 * its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "target/mount_holder.h"

/* top/mnt (held), top/mnt/w, and top/mnt2 beside it */
struct dirs {
	char top[64], held[80], work[96], file[96], beside[80];
};

static void dirs_make(struct dirs *d)
{
	snprintf(d->top, sizeof(d->top), "/tmp/fsprof-holder.XXXXXX");
	assert_non_null(mkdtemp(d->top));
	snprintf(d->held, sizeof(d->held), "%s/mnt", d->top);
	snprintf(d->work, sizeof(d->work), "%s/w", d->held);
	snprintf(d->file, sizeof(d->file), "%s/f", d->held);
	snprintf(d->beside, sizeof(d->beside), "%s/mnt2", d->top);
	assert_int_equal(mkdir(d->held, 0755), 0);
	assert_int_equal(mkdir(d->work, 0755), 0);
	assert_int_equal(mkdir(d->beside, 0755), 0);
}

static void dirs_remove(struct dirs *d)
{
	unlink(d->file);
	rmdir(d->work);
	rmdir(d->held);
	rmdir(d->beside);
	rmdir(d->top);
}

/*
 * a child named holder-test, working in dir, or with file open for
 * writing: its pid once it is there; it waits to be killed
 */
static pid_t child_in(const char *dir, const char *file)
{
	int p[2];
	pid_t pid;
	char c = 0;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		prctl(PR_SET_NAME, "holder-test");
		if (file ? open(file, O_CREAT | O_WRONLY, 0644) < 0 :
			   chdir(dir) != 0)
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	return pid;
}

static void child_end(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void a_process_working_below_the_directory_holds_it(void **state)
{
	struct dirs d;
	char comm[32] = "";
	pid_t pid;

	(void)state;
	dirs_make(&d);
	pid = child_in(d.work, NULL);
	assert_int_equal(mount_holder(d.held, comm, sizeof(comm)), pid);
	assert_string_equal(comm, "holder-test");
	/* a directory whose name the held one's begins with: not held */
	assert_int_equal(mount_holder(d.beside, comm, sizeof(comm)), 0);
	child_end(pid);
	assert_int_equal(mount_holder(d.held, comm, sizeof(comm)), 0);
	dirs_remove(&d);
}

static void a_process_with_a_file_open_below_it_holds_it(void **state)
{
	struct dirs d;
	char comm[32] = "";
	pid_t pid;

	(void)state;
	dirs_make(&d);
	pid = child_in(NULL, d.file);
	assert_int_equal(mount_holder(d.held, comm, sizeof(comm)), pid);
	child_end(pid);
	dirs_remove(&d);
}

/*
 * the mount point by a path through a symlink: its parent resolved as
 * /proc gives it, never the mount point itself (a stat of a mounted
 * filesystem's root waits on a FUSE daemon that no longer answers)
 */
static void
a_mount_point_named_through_a_symlinked_parent_is_found(void **state)
{
	char comm[32] = "", link[96], via[112];
	struct dirs d;
	pid_t pid;

	(void)state;
	dirs_make(&d);
	snprintf(link, sizeof(link), "%s.link", d.top);
	snprintf(via, sizeof(via), "%s/mnt", link);
	assert_int_equal(symlink(d.top, link), 0);
	pid = child_in(d.work, NULL);
	assert_int_equal(mount_holder(via, comm, sizeof(comm)), pid);
	assert_int_equal(mount_holder(link, comm, sizeof(comm)), 0);
	child_end(pid);
	unlink(link);
	dirs_remove(&d);
}

static void this_process_is_no_holder(void **state)
{
	struct dirs d;
	char comm[32] = "", cwd[4096];
	int fd;

	(void)state;
	dirs_make(&d);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(d.held), 0);
	fd = open(".", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(mount_holder(d.held, comm, sizeof(comm)), 0);
	close(fd);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(mount_holder("/nonexistent/fsprof-holder", comm,
				      sizeof(comm)),
			 -ENOENT);
	dirs_remove(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			a_process_working_below_the_directory_holds_it),
		cmocka_unit_test(a_process_with_a_file_open_below_it_holds_it),
		cmocka_unit_test(
			a_mount_point_named_through_a_symlinked_parent_is_found),
		cmocka_unit_test(this_process_is_no_holder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
