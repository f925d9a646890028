#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

/* Large enough that a 1 GB paste takes few reads; the binary sniff looks at this much. */
#define UD_READ_BLOCK 65536

static const struct {
	size_t cap;
	const char *name;
} kinds[] = {
	[UD_INPUT_CPUINFO] = { UD_CAP_CPUINFO, "cpuinfo file" },
	[UD_INPUT_EVENT_TABLE] = { UD_CAP_EVENT_TABLE, "event table" },
	[UD_INPUT_SPEC] = { UD_CAP_SPEC, "spec file" },
	[UD_INPUT_TEMPLATE] = { UD_CAP_TEMPLATE, "template" },
	[UD_INPUT_PROFILE] = { UD_CAP_PROFILE, "profile" },
	[UD_INPUT_IMPORT] = { UD_CAP_IMPORT, "file to import" },
	[UD_INPUT_SCHEMA] = { UD_CAP_SCHEMA, "JSON Schema" },
};

size_t ud_input_cap(enum ud_input_kind kind)
{
	return kinds[kind].cap;
}

static const char *file_type(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int ud_is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *too_large(const char *path, enum ud_input_kind kind, struct ud_err *err)
{
	size_t cap = kinds[kind].cap;

	if (cap >= (1u << 20))
		ud_fail(err, "%s: larger than the %zu MiB limit for a %s", path, cap >> 20, kinds[kind].name);
	else
		ud_fail(err, "%s: larger than the %zu KiB limit for a %s", path, cap >> 10, kinds[kind].name);
	return NULL;
}

/*
 * Refuses text, which holds a NUL byte, naming its line; frees text.  The
 * binary people most often hand over by mistake is perf record's output
 * (magic "PERFILE2", tools/perf/util/header.c): it gets the command that
 * makes text of it.
 */
static char *binary(char *text, const char *path, enum ud_input_kind kind, struct ud_err *err)
{
	int line = 1;

	if (strncmp(text, "PERFILE2", 8) == 0)
		ud_fail(err, "%s: a perf.data file (perf record's binary data), not a %s: 'perf report --stdio -i %s' "
			     "prints its text",
			path, kinds[kind].name, path);
	else {
		for (const char *p = text; *p; p++)
			line += *p == '\n';
		ud_fail(err, "%s:%d: byte 0x00: binary data, not a %s", path, line, kinds[kind].name);
	}
	free(text);
	return NULL;
}

/* Reads fd to its end, at most cap bytes; size is the file's own (0: unknown, as /proc says). */
static char *read_all(int fd, const char *path, enum ud_input_kind kind, size_t size, size_t *len,
		      struct ud_err *err)
{
	size_t cap = kinds[kind].cap, used = 0, room = size ? size + 1 : UD_READ_BLOCK;
	char *text = malloc(room + 1);

	if (!text)
		return ud_fail(err, "%s: out of memory", path), NULL;
	for (;;) {
		ssize_t got;

		if (used == room) {
			/* used <= cap here: the check after each read refused the rest. */
			char *grown = realloc(text, (room *= 2) + 1);

			if (!grown) {
				free(text);
				return ud_fail(err, "%s: out of memory", path), NULL;
			}
			text = grown;
		}
		/* The first block alone first: a binary file is refused before it is read whole. */
		got = read(fd, text + used, used < UD_READ_BLOCK && room - used > UD_READ_BLOCK - used
						     ? UD_READ_BLOCK - used : room - used);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ud_fail(err, "%s: %s", path, strerror(errno));
			free(text);
			return NULL;
		}
		if (used < UD_READ_BLOCK && memchr(text + used, '\0', (size_t)got))
			return binary(text, path, kind, err);
		used += (size_t)got;
		if (used > cap) {
			free(text);
			return too_large(path, kind, err);
		}
		if (got == 0)
			break;
	}
	text[used] = '\0';
	if (len)
		*len = used;
	return text;
}

char *ud_read_file(const char *path, enum ud_input_kind kind, size_t *len, struct ud_err *err)
{
	/* Non-blocking: opening a FIFO for reading would wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	char *text;

	if (fd < 0)
		return ud_fail(err, "%s: %s", path, strerror(errno)), NULL;
	if (fstat(fd, &st) != 0) {
		ud_fail(err, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		ud_fail(err, "%s: %s, not a %s", path, file_type(st.st_mode), kinds[kind].name);
		close(fd);
		return NULL;
	}
	if ((size_t)st.st_size > kinds[kind].cap) {
		close(fd);
		return too_large(path, kind, err);
	}
	text = read_all(fd, path, kind, (size_t)st.st_size, len, err);
	close(fd);
	return text;
}

int ud_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? errno : EIO;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

FILE *ud_open_input(const char *path, enum ud_input_kind kind, char **buf, struct ud_err *err)
{
	size_t len;
	FILE *f;

	*buf = ud_read_file(path, kind, &len, err);
	if (!*buf)
		return NULL;
	f = fmemopen(*buf, len, "r");
	if (!f) {
		ud_fail(err, "%s: %s", path, strerror(errno));
		free(*buf);
		*buf = NULL;
	}
	return f;
}
