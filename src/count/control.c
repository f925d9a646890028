#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"

/* perf's words, in the order it tries them (a prefix match: "enable" before "disable" cannot clash). */
static const struct {
	const char *word;
	enum ud_control_verb verb;
} words[] = {
	{ "enable", UD_CONTROL_ENABLE }, { "disable", UD_CONTROL_DISABLE }, { "snapshot", UD_CONTROL_SNAPSHOT },
	{ "evlist", UD_CONTROL_EVLIST }, { "stop", UD_CONTROL_STOP },	     { "ping", UD_CONTROL_PING },
};

/* A descriptor number of fd:N,M; -1 when not one this process has open. */
static int given_fd(const char *s, char **end)
{
	long v;

	errno = 0;
	v = strtol(s, end, 10);
	if (*end == s || errno || v < 0 || v > 65535 || fcntl((int)v, F_GETFD) < 0)
		return -1;
	return (int)v;
}

static int open_fds(const char *s, struct ud_control *c, struct ud_err *err)
{
	char *end;

	c->fd = given_fd(s, &end);
	if (c->fd >= 0 && *end == '\0')
		return 0;
	if (c->fd >= 0 && *end == ',')
		c->ack = given_fd(end + 1, &end);
	if (c->fd < 0 || c->ack < 0 || *end != '\0')
		return ud_fail(err, "--control fd:%s: not CTL-FD[,ACK-FD], descriptors open here", s);
	return 0;
}

static int open_fifos(const char *s, struct ud_control *c, struct ud_err *err)
{
	const char *comma = strchr(s, ',');
	char *ctl = comma ? strndup(s, (size_t)(comma - s)) : strdup(s);

	if (!ctl)
		return ud_fail(err, "out of memory");
	c->fd = open(ctl, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	c->own_fd = c->fd >= 0;
	if (c->fd < 0) {
		ud_fail(err, "--control fifo:%s: %s", ctl, strerror(errno));
		free(ctl);
		return -1;
	}
	free(ctl);
	if (!comma)
		return 0;
	c->ack = open(comma + 1, O_WRONLY | O_CLOEXEC);
	c->own_ack = c->ack >= 0;
	if (c->ack < 0)
		return ud_fail(err, "--control fifo: ack %s: %s", comma + 1, strerror(errno));
	return 0;
}

int ud_control_open(const char *spec, struct ud_control *c, struct ud_err *err)
{
	int ret;

	*c = (struct ud_control){ .fd = -1, .ack = -1 };
	if (strncmp(spec, "fd:", 3) == 0)
		ret = open_fds(spec + 3, c, err);
	else if (strncmp(spec, "fifo:", 5) == 0 && spec[5])
		ret = open_fifos(spec + 5, c, err);
	else
		ret = ud_fail(err, "--control '%s': fd:CTL-FD[,ACK-FD] or fifo:CTL-FIFO[,ACK-FIFO]", spec);
	if (ret != 0)
		ud_control_close(c);
	return ret;
}

void ud_control_close(struct ud_control *c)
{
	if (c->own_fd)
		close(c->fd);
	if (c->own_ack)
		close(c->ack);
	*c = (struct ud_control){ .fd = -1, .ack = -1, .done = true };
}

void ud_control_fill(struct ud_control *c)
{
	ssize_t got;

	if (c->done || c->len == sizeof(c->buf))
		return;
	got = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);
	if (got > 0)
		c->len += (size_t)got;
	else if (got == 0 || (errno != EINTR && errno != EAGAIN))
		c->done = true;
}

/* The verb of a line and what follows it. */
static void parse(const char *line, struct ud_control_cmd *cmd)
{
	*cmd = (struct ud_control_cmd){ .verb = UD_CONTROL_UNKNOWN, .arg = "" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t len = strlen(words[i].word);

		if (strncmp(line, words[i].word, len) != 0)
			continue;
		cmd->verb = words[i].verb;
		/* perf's get_cmd_arg(): nothing, or a space and the argument; anything else is malformed */
		cmd->arg = line[len] == '\0' ? "" : line[len] == ' ' ? line + len + 1 : NULL;
		return;
	}
}

bool ud_control_take(struct ud_control *c, struct ud_control_cmd *cmd)
{
	size_t end = 0, used;

	while (end < c->len && c->buf[end] != '\n' && c->buf[end] != '\0' && end < sizeof(c->line) - 1)
		end++;
	/* a line not yet whole waits for the rest, unless it already fills perf's buffer */
	if (end == c->len && end < sizeof(c->line) - 1 && !c->done)
		return false;
	if (end == 0 && c->len == 0)
		return false;
	memcpy(c->line, c->buf, end);
	c->line[end] = '\0';
	used = end < c->len && (c->buf[end] == '\n' || c->buf[end] == '\0') ? end + 1 : end;
	memmove(c->buf, c->buf + used, c->len - used);
	c->len -= used;
	parse(c->line, cmd);
	return true;
}

void ud_control_ack(struct ud_control *c, enum ud_control_verb verb)
{
	/* perf writes sizeof("ack\n"): the NUL too */
	static const char ack[] = "ack\n";

	if (c->ack < 0 || verb == UD_CONTROL_SNAPSHOT || verb == UD_CONTROL_UNKNOWN)
		return;
	while (write(c->ack, ack, sizeof(ack)) < 0 && errno == EINTR)
		;
}
