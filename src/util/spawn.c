// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/log.h"
#include "util/spawn.h"

static int read_all(int fd, struct spawn_result *result)
{
	size_t cap = 4096;
	char *buf = malloc(cap);
	size_t len = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger) {
				free(buf);
				return -ENOMEM;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	result->output = buf;
	result->output_len = len;
	return 0;
}

int spawn_capture(char *const argv[], struct spawn_result *result)
{
	int pipefd[2], status, err;
	pid_t pid;

	memset(result, 0, sizeof(*result));
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		execvp(argv[0], argv);
		dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	err = read_all(pipefd[0], result);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	if (err)
		return err;
	if (WIFEXITED(status))
		result->exit_code = WEXITSTATUS(status);
	else
		result->exit_code = 128 + WTERMSIG(status);
	if (result->exit_code == 127 && strstr(result->output, "cannot run "))
		return -ENOENT;
	return 0;
}

/* arg into buf at *off, in single quotes when the shell would read it
 * otherwise; a quote inside is '\'' */
static void shell_word(const char *arg, char *buf, size_t len, size_t *off)
{
	bool quote = !*arg ||
		     strpbrk(arg, " \t\n'\"\\$`;&|<>*?()[]{}~#") != NULL;
	const char *p;

	if (!quote) {
		*off += (size_t)snprintf(buf + *off, len - *off, "%s", arg);
		return;
	}
	*off += (size_t)snprintf(buf + *off, len - *off, "'");
	for (p = arg; *p && *off < len; p++)
		*off += (size_t)snprintf(buf + *off, len - *off,
					 *p == '\'' ? "'\\''" : "%c", *p);
	if (*off < len)
		*off += (size_t)snprintf(buf + *off, len - *off, "'");
}

void spawn_format_argv(char *const argv[], char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; argv[i] && off < len; i++) {
		if (i)
			off += (size_t)snprintf(buf + off, len - off, " ");
		if (off < len)
			shell_word(argv[i], buf, len, &off);
	}
}

int spawn_run_said(char *const argv[])
{
	struct spawn_result res = { 0 };
	char cmd[512];
	int err = spawn_capture(argv, &res);

	if (!err && res.exit_code)
		err = -EIO;
	if (err) {
		spawn_format_argv(argv, cmd, sizeof(cmd));
		log_error("%s failed: %s", cmd,
			  res.output && *res.output ? res.output :
						      strerror(-err));
	}
	free(res.output);
	return err;
}
