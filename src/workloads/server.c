#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "server.h"

int ud_loopback_free_port(struct ud_err *err)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;

	if (fd < 0)
		return ud_fail(err, "socket: %s", strerror(errno));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 && getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	else
		ud_fail(err, "cannot find a free port on 127.0.0.1: %s", strerror(errno));
	close(fd);
	return port;
}

/* Reads fd until its writer closes it, keeping the first cap - 1 bytes in out, NUL-terminated. */
static void read_capped(int fd, char *out, size_t cap)
{
	size_t len = 0;
	char skip[4096];
	ssize_t k;

	for (;;) {
		bool room = len < cap - 1;

		k = read(fd, room ? out + len : skip, room ? cap - 1 - len : sizeof(skip));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		if (room)
			len += (size_t)k;
	}
	out[len] = '\0';
}

_Noreturn void ud_exec_child(const char *bin, char *const argv[], int out, const char *dir)
{
	int devnull = open("/dev/null", O_RDONLY);

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (devnull < 0 || out < 0 || dup2(devnull, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
	    dup2(out, STDERR_FILENO) < 0 || (dir && chdir(dir) != 0))
		_exit(126);
	execv(bin, argv);
	_exit(127);
}

int ud_client_run(const char *name, const char *bin, char *const argv[], char **out, struct rusage *ru,
		  struct ud_err *err)
{
	int p[2], status = 0;
	pid_t pid;

	*out = malloc(UD_CLIENT_OUTPUT_MAX);
	if (!*out || pipe2(p, O_CLOEXEC) != 0) {
		ud_fail(err, "%s: %s", name, *out ? strerror(errno) : "out of memory");
		free(*out);
		*out = NULL;
		return -1;
	}
	if ((pid = fork()) == 0)
		ud_exec_child(bin, argv, p[1], NULL);
	close(p[1]);
	if (pid > 0)
		read_capped(p[0], *out, UD_CLIENT_OUTPUT_MAX);
	close(p[0]);
	while (pid > 0 && wait4(pid, &status, 0, ru) < 0 && errno == EINTR)
		;
	if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (pid < 0)
		ud_fail(err, "fork: %s", strerror(errno));
	else
		ud_fail(err, "%s failed (status %d): %.200s", name, ud_exit_code(status), *out);
	free(*out);
	*out = NULL;
	return -1;
}

void ud_server_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int ud_exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool ud_log_tail(const char *path, const char *what, char *buf, size_t len)
{
	char text[4096];
	FILE *f;
	size_t n = 0;
	char *end, *start;
	bool found;

	buf[0] = '\0';
	if ((f = fopen(path, "r")) != NULL) {
		if (fseek(f, -(long)(sizeof(text) - 1), SEEK_END) != 0)
			rewind(f);
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
	}
	text[n] = '\0';
	found = strstr(text, what) != NULL;
	for (end = text + n; end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '); end--)
		*(end - 1) = '\0';
	start = strrchr(text, '\n');
	snprintf(buf, len, "%s", start ? start + 1 : text);
	return found;
}
