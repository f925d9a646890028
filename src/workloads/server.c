#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
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

void ud_read_capped(int fd, char *out, size_t cap)
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
