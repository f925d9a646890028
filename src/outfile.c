#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

struct ud_outfile {
	FILE *stream;
	char *target;  /* NULL when written in place */
	char *tmp;
	int is_stdout;
};

static struct ud_outfile *open_direct(const char *path, struct ud_err *err)
{
	struct ud_outfile *out = calloc(1, sizeof(*out));

	if (!out) {
		ud_fail(err, "%s: out of memory", path);
		return NULL;
	}
	out->stream = fopen(path, "w");
	if (!out->stream) {
		ud_fail(err, "%s: cannot write: %s", path, strerror(errno));
		free(out);
		return NULL;
	}
	return out;
}

struct ud_outfile *ud_outfile_open(const char *path, struct ud_err *err)
{
	struct ud_outfile *out;
	struct stat st;
	const char *slash;
	size_t dirlen;
	int fd;

	if (strcmp(path, "-") == 0) {
		out = calloc(1, sizeof(*out));
		if (!out) {
			ud_fail(err, "out of memory");
			return NULL;
		}
		out->stream = stdout;
		out->is_stdout = 1;
		return out;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			ud_fail(err, "%s: is a directory", path);
			return NULL;
		}
		return open_direct(path, err);
	}

	out = calloc(1, sizeof(*out));
	if (!out) {
		ud_fail(err, "%s: out of memory", path);
		return NULL;
	}
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	out->target = strdup(path);
	out->tmp = malloc(strlen(path) + 16);
	if (!out->target || !out->tmp) {
		ud_outfile_abort(out);
		ud_fail(err, "%s: out of memory", path);
		return NULL;
	}
	/* A dot-file beside the target: same filesystem, so rename is atomic. */
	sprintf(out->tmp, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
	fd = mkstemp(out->tmp);
	if (fd < 0) {
		ud_fail(err, "%s: cannot write: %s", path, strerror(errno));
		free(out->tmp);
		out->tmp = NULL;
		ud_outfile_abort(out);
		return NULL;
	}
	/* mkstemp makes 0600; a profile is an ordinary file. */
	fchmod(fd, 0644 & ~umask(umask(0)));
	out->stream = fdopen(fd, "w");
	if (!out->stream) {
		ud_fail(err, "%s: cannot write: %s", path, strerror(errno));
		close(fd);
		ud_outfile_abort(out);
		return NULL;
	}
	return out;
}

FILE *ud_outfile_stream(struct ud_outfile *out)
{
	return out->stream;
}

int ud_outfile_commit(struct ud_outfile *out, struct ud_err *err)
{
	const char *name = out->target ? out->target : "output";
	int failed;

	if (out->is_stdout) {
		failed = fflush(stdout) != 0;
		free(out);
		return failed ? ud_fail(err, "standard output: %s", strerror(errno)) : 0;
	}
	failed = ferror(out->stream) | fflush(out->stream);
	if (out->tmp && !failed)
		failed = fsync(fileno(out->stream));
	failed |= fclose(out->stream);
	out->stream = NULL;
	if (failed) {
		ud_fail(err, "%s: write failed: %s", name, strerror(errno));
		ud_outfile_abort(out);
		return -1;
	}
	if (out->tmp && rename(out->tmp, out->target) != 0) {
		ud_fail(err, "%s: cannot rename into place: %s", name, strerror(errno));
		ud_outfile_abort(out);
		return -1;
	}
	free(out->tmp);
	free(out->target);
	free(out);
	return 0;
}

void ud_outfile_abort(struct ud_outfile *out)
{
	if (!out)
		return;
	if (out->stream && !out->is_stdout)
		fclose(out->stream);
	if (out->tmp)
		unlink(out->tmp);
	free(out->tmp);
	free(out->target);
	free(out);
}
