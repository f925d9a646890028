#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "launch.h"

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ULL + (uint64_t)tv.tv_usec * 1000ULL;
}

int ud_exit_status(int wait_status)
{
	if (WIFEXITED(wait_status))
		return WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		return 128 + WTERMSIG(wait_status);
	return UD_EXIT_RUN_FAILED;
}

static void child(char *const argv[], int go_fd, int err_fd)
{
	char c;
	int e;

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	/* EOF instead of the byte: the parent gave up, do not run the command. */
	if (read(go_fd, &c, 1) != 1)
		_exit(127);
	close(go_fd);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(126);
	_exit(127);
}

/* exec's EACCES for a directory reads as a permission problem: say what it is. */
static bool is_directory(const char *path)
{
	struct stat st;

	return strchr(path, '/') && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int ud_launch_counted(char *const argv[], const struct ud_event *ev, size_t n, struct ud_count *counts,
		      struct ud_launch_result *res, struct ud_err *err)
{
	return ud_launch_sampled(argv, ev, n, counts, NULL, res, err);
}

int ud_launch_sampled(char *const argv[], const struct ud_event *ev, size_t n, struct ud_count *counts,
		      const struct ud_launch_sampling *s, struct ud_launch_result *res, struct ud_err *err)
{
	int go[2], ep[2], exec_errno = 0, ret = UD_LAUNCH_OK;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	struct ud_counters *set;
	struct ud_sampler *smp = NULL;
	struct ud_err serr = UD_ERR_INIT;
	struct rusage ru;
	uint64_t start;
	ssize_t got;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe2(go, O_CLOEXEC) != 0)
		return ud_fail(err, "pipe: %s", strerror(errno)), UD_LAUNCH_SYSTEM;
	if (pipe2(ep, O_CLOEXEC) != 0) {
		close(go[0]);
		close(go[1]);
		return ud_fail(err, "pipe: %s", strerror(errno)), UD_LAUNCH_SYSTEM;
	}
	pid = fork();
	if (pid < 0) {
		ud_fail(err, "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return UD_LAUNCH_SYSTEM;
	}
	if (pid == 0) {
		close(go[1]);
		close(ep[0]);
		child(argv, go[0], ep[1]);
	}
	close(go[0]);
	close(ep[1]);

	set = ud_counters_open(ev, n, pid, UD_COUNT_INHERIT | UD_COUNT_ENABLE_ON_EXEC);
	if (!set)
		ud_fail(err, "out of memory");
	if (!set || (s && !(smp = ud_sampler_open(s->config, pid, UD_SAMPLER_ENABLE_ON_EXEC, s->records_fd, err)))) {
		close(go[1]); /* the child sees EOF and exits without running */
		close(ep[0]);
		waitpid(pid, NULL, 0);
		ud_counters_close(set);
		return UD_LAUNCH_SYSTEM;
	}
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	start = ud_now_ns();
	if (write(go[1], "g", 1) != 1)
		exec_errno = errno;
	close(go[1]);
	got = read(ep[0], &exec_errno, sizeof(exec_errno));
	close(ep[0]);
	while (wait4(pid, &res->wait_status, 0, &ru) < 0 && errno == EINTR)
		;
	res->elapsed_ns = ud_now_ns() - start;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	res->user_ns = tv_ns(ru.ru_utime);
	res->sys_ns = tv_ns(ru.ru_stime);

	if (got == (ssize_t)sizeof(exec_errno)) {
		ret = UD_LAUNCH_EXEC_FAILED;
		ud_fail(err, "%s: %s", argv[0],
			exec_errno == ENOENT ? "command not found" : is_directory(argv[0]) ? "a directory, not a program"
											  : strerror(exec_errno));
	} else if (ud_counters_read(set, counts, err) != 0) {
		ret = UD_LAUNCH_SYSTEM;
	}
	if (smp && ud_sampler_close(smp, &serr) != 0 && ret == UD_LAUNCH_OK) {
		*err = serr;
		ret = UD_LAUNCH_SYSTEM;
	}
	ud_counters_close(set);
	return ret;
}

int ud_adopt_orphans(struct ud_err *err)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
		return ud_fail(err, "cannot become a child subreaper: %s", strerror(errno));
	return 0;
}

/* Whether /proc/PID/stat names parent as its parent. */
static int child_of(long pid, pid_t parent)
{
	char path[64], buf[512], *close_paren;
	FILE *f;
	int ppid = -1;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) state ppid": comm may hold spaces and parentheses, so read after the last ')'. */
	close_paren = strrchr(buf, ')');
	return close_paren && sscanf(close_paren + 1, " %*c %d", &ppid) == 1 && ppid == parent;
}

/* Up to max children of this process into pids, but those in spare, killed first when kill_them; returns how many. */
static size_t scan_children(pid_t *pids, size_t max, const pid_t *spare, size_t nspare, bool kill_them)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t found = 0;

	if (!d)
		return 0;
	while (found < max && (e = readdir(d))) {
		pid_t pid;
		bool spared = false;

		if (!isdigit((unsigned char)e->d_name[0]) || !child_of(atol(e->d_name), getpid()))
			continue;
		pid = (pid_t)atol(e->d_name);
		for (size_t i = 0; i < nspare && !spared; i++)
			spared = spare[i] == pid;
		if (spared)
			continue;
		if (kill_them)
			kill(pid, SIGKILL);
		pids[found++] = pid;
	}
	closedir(d);
	return found;
}

size_t ud_children(pid_t *pids, size_t max)
{
	return scan_children(pids, max, NULL, 0, false);
}

void ud_kill_descendants(const pid_t *spare, size_t nspare)
{
	pid_t pids[256];
	size_t n;

	/* Killing a child orphans its own children, which a subreaper adopts: repeat until none is left. */
	while ((n = scan_children(pids, sizeof(pids) / sizeof(pids[0]), spare, nspare, true)) > 0)
		for (size_t i = 0; i < n; i++)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
}
