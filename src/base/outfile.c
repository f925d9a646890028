#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* What a path given to -o is, and so how it is written. */
enum out_kind {
	OUT_STDOUT,   /* "-" or /dev/stdout: our own standard output */
	OUT_STDERR,   /* /dev/stderr */
	OUT_IN_PLACE, /* a FIFO or character device: opened and written, never replaced */
	OUT_REPLACE,  /* a regular file, existing or not: a temporary renamed over it */
};

struct ud_outfile {
	FILE *stream;  /* OUT_REPLACE: a memory stream, so that nothing is on disk until commit */
	char *path;    /* as given, for messages */
	char *target;  /* OUT_REPLACE: the file renamed over (a symlink's target) */
	char *buf;     /* OUT_REPLACE: what was written, once the memory stream is closed */
	size_t len;
	mode_t mode;   /* OUT_REPLACE: the replacement's */
	enum out_kind kind;
};

/* Where a path resolves to, and the mode its replacement gets. */
struct resolved {
	enum out_kind kind;
	char *target; /* OUT_REPLACE only; malloc'd */
	mode_t mode;
};

static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* The directory that will hold path's temporary must take a new file. */
static int check_dir(const char *shown, const char *path, struct ud_err *err)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (access(dir, W_OK | X_OK) != 0)
		return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
	return 0;
}

/* An existing regular file (or a symlink to one): replaced, keeping its mode, if it could be written in place. */
static int resolve_regular(const char *path, const struct stat *st, struct resolved *r, struct ud_err *err)
{
	char real[PATH_MAX];

	/* No write bit at all is someone's "keep this", even for root, whom access() lets write anything. */
	if (access(path, W_OK) != 0 || !(st->st_mode & 0222))
		return ud_fail(err, "%s: read-only file: not replaced (only a file that could be written in place is)",
			       path);
	if (!realpath(path, real))
		return ud_fail(err, "%s: cannot resolve: %s", path, strerror(errno));
	r->target = strdup(real);
	if (!r->target)
		return ud_fail(err, "%s: out of memory", path);
	r->mode = st->st_mode & 07777;
	r->kind = OUT_REPLACE;
	return check_dir(path, real, err);
}

static int resolve(const char *path, struct resolved *r, struct ud_err *err)
{
	struct stat st;

	*r = (struct resolved){ .kind = OUT_REPLACE };
	if (!*path)
		return ud_fail(err, "an empty file name");
	if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0)
		return r->kind = OUT_STDOUT, 0;
	if (strcmp(path, "/dev/stderr") == 0)
		return r->kind = OUT_STDERR, 0;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			return ud_fail(err, "%s: cannot write: %s", path, strerror(errno));
		if (lstat(path, &st) == 0)
			return ud_fail(err, "%s: a symbolic link to a file that does not exist: not followed", path);
		r->target = strdup(path);
		r->mode = new_file_mode();
		return r->target ? check_dir(path, path, err) : ud_fail(err, "%s: out of memory", path);
	}
	if (S_ISDIR(st.st_mode))
		return ud_fail(err, "%s: is a directory", path);
	if (S_ISREG(st.st_mode))
		return resolve_regular(path, &st, r, err);
	if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
		return ud_fail(err, "%s: not a regular file, FIFO or character device", path);
	if (access(path, W_OK) != 0)
		return ud_fail(err, "%s: cannot write: %s", path, strerror(errno));
	r->kind = OUT_IN_PLACE;
	return 0;
}

int ud_outfile_check(const char *path, struct ud_err *err)
{
	struct resolved r;
	int ret = resolve(path, &r, err);

	free(r.target);
	return ret;
}

/* A FIFO opens only when a reader is there: never wait for one that may not come. */
static int open_in_place(struct ud_outfile *out, struct ud_err *err)
{
	int fd = open(out->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return ud_fail(err, "%s: cannot write: %s", out->path,
			       errno == ENXIO ? "a FIFO with no reader" : strerror(errno));
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	out->stream = fdopen(fd, "w");
	if (!out->stream) {
		close(fd);
		return ud_fail(err, "%s: cannot write: %s", out->path, strerror(errno));
	}
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * The whole output into a dot-file beside the target (same filesystem, so
 * rename is atomic), synced, renamed over it.  The temporary lives only
 * here, with the stop signals held: neither a signal nor a crash while the
 * output was being produced can leave it behind.
 */
static int replace(const struct ud_outfile *out, struct ud_err *err)
{
	const char *slash = strrchr(out->target, '/');
	size_t dirlen = slash ? (size_t)(slash - out->target) + 1 : 0;
	char *tmp = malloc(strlen(out->target) + 16);
	sigset_t term, old;
	int fd, ret = -1;

	if (!tmp)
		return ud_fail(err, "%s: out of memory", out->path);
	sprintf(tmp, "%.*s.%s.XXXXXX", (int)dirlen, out->target, out->target + dirlen);
	sigemptyset(&term);
	sigaddset(&term, SIGINT);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGHUP);
	sigaddset(&term, SIGQUIT);
	sigprocmask(SIG_BLOCK, &term, &old);
	fd = mkstemp(tmp);
	if (fd < 0) {
		ud_fail(err, "%s: cannot write: %s", out->path, strerror(errno));
	} else if (fchmod(fd, out->mode) != 0 || write_all(fd, out->buf, out->len) != 0 || fsync(fd) != 0) {
		ud_fail(err, "%s: write failed: %s", out->path, strerror(errno));
	} else {
		int closed = close(fd);

		fd = -1;
		if (closed != 0 || rename(tmp, out->target) != 0)
			ud_fail(err, "%s: cannot rename into place: %s", out->path, strerror(errno));
		else
			ret = 0;
	}
	if (fd >= 0)
		close(fd);
	if (ret != 0)
		unlink(tmp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(tmp);
	return ret;
}

struct ud_outfile *ud_outfile_open(const char *path, struct ud_err *err)
{
	struct ud_outfile *out;
	struct resolved r;
	int ret;

	if (resolve(path, &r, err) != 0) {
		free(r.target);
		return NULL;
	}
	out = calloc(1, sizeof(*out));
	if (!out || !(out->path = strdup(path))) {
		free(out);
		free(r.target);
		ud_fail(err, "%s: out of memory", path);
		return NULL;
	}
	out->kind = r.kind;
	out->target = r.target;
	if (r.kind == OUT_STDOUT || r.kind == OUT_STDERR) {
		out->stream = r.kind == OUT_STDOUT ? stdout : stderr;
		return out;
	}
	out->mode = r.mode;
	if (r.kind == OUT_IN_PLACE) {
		ret = open_in_place(out, err);
	} else {
		out->stream = open_memstream(&out->buf, &out->len);
		ret = out->stream ? 0 : ud_fail(err, "%s: out of memory", path);
	}
	if (ret != 0) {
		ud_outfile_abort(out);
		return NULL;
	}
	return out;
}

FILE *ud_outfile_stream(struct ud_outfile *out)
{
	return out->stream;
}

static int is_standard(const struct ud_outfile *out)
{
	return out->kind == OUT_STDOUT || out->kind == OUT_STDERR;
}

int ud_outfile_commit(struct ud_outfile *out, struct ud_err *err)
{
	const char *name = out->kind == OUT_STDOUT ? "standard output" : out->kind == OUT_STDERR ? "standard error"
											    : out->path;
	int failed = ferror(out->stream) | fflush(out->stream);

	if (!is_standard(out)) {
		failed |= fclose(out->stream);
		out->stream = NULL;
	}
	if (failed) {
		ud_fail(err, "%s: write failed: %s", name, strerror(errno ? errno : EIO));
		if (is_standard(out))
			clearerr(out->stream); /* reported through err: the end-of-command check (options.h) need not again */
	} else if (out->kind == OUT_REPLACE) {
		failed = replace(out, err);
	}
	ud_outfile_abort(out);
	return failed ? -1 : 0;
}

void ud_outfile_abort(struct ud_outfile *out)
{
	if (!out)
		return;
	if (out->stream && !is_standard(out))
		fclose(out->stream);
	free(out->buf);
	free(out->target);
	free(out->path);
	free(out);
}
