#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"

/* Large enough that a 1 GB paste takes few reallocations. */
#define UD_READ_BLOCK 65536

/* Reads f to its end; name is for messages. */
static char *read_stream(FILE *f, const char *name, size_t *len, struct ud_err *err)
{
	char *text = NULL;
	size_t used = 0, cap = 0, got;

	do {
		if (cap - used < UD_READ_BLOCK + 1) {
			char *grown = realloc(text, cap = cap ? 2 * cap : 2 * UD_READ_BLOCK);

			if (!grown) {
				free(text);
				ud_fail(err, "%s: out of memory", name);
				return NULL;
			}
			text = grown;
		}
		got = fread(text + used, 1, cap - used - 1, f);
		used += got;
	} while (got > 0);
	if (ferror(f)) {
		free(text);
		ud_fail(err, "%s: %s", name, strerror(errno ? errno : EIO));
		return NULL;
	}
	text[used] = '\0';
	if (len)
		*len = used;
	return text;
}

char *ud_read_file(const char *path, size_t *len, struct ud_err *err)
{
	FILE *f = fopen(path, "rb");
	char *text;

	if (!f) {
		ud_fail(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	text = read_stream(f, path, len, err);
	fclose(f);
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
