#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guard.h"

/* The write end of the pipe to the guard; -1 while there is none. */
static int guard_fd = -1;

/* The folders the guard would remove, one a record: '+' or '-', the path, a NUL. */
struct listed {
	char **dirs;
	size_t n, cap;
};

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void note(struct listed *l, char op, const char *dir)
{
	if (op == '-') {
		for (size_t i = 0; i < l->n; i++) {
			if (strcmp(l->dirs[i], dir) == 0) {
				free(l->dirs[i]);
				l->dirs[i] = l->dirs[--l->n];
				return;
			}
		}
		return;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		char **grown = realloc(l->dirs, cap * sizeof(*grown));

		if (!grown)
			return;
		l->dirs = grown;
		l->cap = cap;
	}
	if ((l->dirs[l->n] = strdup(dir)))
		l->n++;
}

/* The guard itself: reads records until uarchdiff's end of the pipe closes, then removes what is listed. */
static void guard_main(int fd)
{
	struct listed l = { 0 };
	char buf[8192];
	size_t have = 0;
	ssize_t k;

	while ((k = read(fd, buf + have, sizeof(buf) - have)) != 0) {
		char *start = buf, *end;

		if (k < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		have += (size_t)k;
		while ((end = memchr(start, '\0', have - (size_t)(start - buf)))) {
			note(&l, start[0], start + 1);
			start = end + 1;
		}
		have -= (size_t)(start - buf);
		memmove(buf, start, have);
		if (have == sizeof(buf)) /* a record longer than any path: not ours */
			have = 0;
	}
	for (size_t i = 0; i < l.n; i++)
		nftw(l.dirs[i], rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	_exit(0);
}

/*
 * In the forked guard: a session of its own, standard streams on /dev/null
 * (it must not hold a pipe someone waits on, as Ansible waits on a task's
 * output), every other descriptor closed but the pipe.
 */
static void become_guard(int fd)
{
	int null = open("/dev/null", O_RDWR);

	setsid();
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	for (int i = 0; i <= 2 && null >= 0; i++)
		dup2(null, i);
	if (fd != 3) {
		dup2(fd, 3);
		fd = 3;
	}
	close_range(4, ~0U, 0);
	if (null > 3)
		close(null);
	guard_main(fd);
}

int ud_guard_start(struct ud_err *err)
{
	int p[2];
	pid_t pid;

	if (guard_fd >= 0)
		return 0;
	if (pipe2(p, O_CLOEXEC) != 0)
		return ud_fail(err, "cannot start the cleanup guard: pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return ud_fail(err, "cannot start the cleanup guard: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(p[1]);
		become_guard(p[0]);
	}
	close(p[0]);
	guard_fd = p[1];
	return 0;
}

static void send_record(char op, const char *dir)
{
	size_t len = strlen(dir) + 2;
	char *rec = guard_fd >= 0 ? malloc(len) : NULL;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	size_t off = 0;

	if (!rec)
		return;
	rec[0] = op;
	memcpy(rec + 1, dir, len - 1);
	/* a guard that died is no reason to die too */
	sigaction(SIGPIPE, &ign, &old);
	while (off < len) {
		ssize_t k = write(guard_fd, rec + off, len - off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		off += (size_t)k;
	}
	sigaction(SIGPIPE, &old, NULL);
	free(rec);
}

void ud_guard_add(const char *dir)
{
	send_record('+', dir);
}

void ud_guard_remove(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	send_record('-', dir);
}

void ud_guard_forget(void)
{
	if (guard_fd >= 0)
		close(guard_fd);
	guard_fd = -1;
}
