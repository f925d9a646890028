#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"

/* What a path given to -o is, and so how it is written. */
enum out_kind {
	OUT_STDOUT,   /* "-" or /dev/stdout: our own standard output */
	OUT_STDERR,   /* /dev/stderr */
	OUT_IN_PLACE, /* a FIFO or character device: opened and written, never replaced */
	OUT_REPLACE,  /* a regular file, existing or not: a temporary renamed over it */
};

/* The kernel's limit on symbolic links followed in one lookup (ELOOP past it). */
#define LINKS_MAX 40
/* A temporary's name keeps this much of the target's, so that ".NAME.XXXXXX" fits in NAME_MAX. */
#define TEMP_NAME_KEEP 200
/* Names tried for a temporary before giving up: each clash is another writer's temporary. */
#define TEMP_TRIES 1000

/*
 * Where a path leads: the folder that holds the file, open from resolution
 * to commit so that nothing on the way can be swapped meanwhile, and the
 * file's name in it.
 */
struct place {
	enum out_kind kind;
	int dirfd;             /* -1 for the standard streams */
	char name[NAME_MAX + 1];
	bool follow;           /* OUT_IN_PLACE reached through a /proc magic link (/dev/fd/N of a pipe): open it followed */
	bool exists;           /* OUT_REPLACE: a file is there to replace */
	mode_t mode;           /* OUT_REPLACE: the replacement's */
};

struct ud_outfile {
	FILE *stream;  /* OUT_REPLACE: a memory stream, so that nothing is on disk until commit */
	char *path;    /* as given, for messages */
	struct place at;
	bool fresh;    /* ud_outfile_create(): a file that must not exist */
	bool append;   /* ud_outfile_append(): OUT_REPLACE's file added to, a write per flush, never replaced */
	char *buf;     /* OUT_REPLACE: what was written, once the memory stream is closed */
	size_t len;
};

static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/*
 * Whether a file or link owned by uid, in the folder dir, may be used: the
 * rule of fs.protected_symlinks=1, protected_fifos=1 and
 * protected_regular=1, applied here whatever the system's setting.  In a
 * sticky world-writable folder (/tmp) anyone can plant a link, a FIFO, a
 * device node or a file, so only the caller's own and the folder owner's
 * are used there; elsewhere whoever could plant one could write the file.
 */
static bool may_use(const struct stat *dir, uid_t uid)
{
	if (!(dir->st_mode & S_ISVTX) || !(dir->st_mode & S_IWOTH))
		return true;
	return uid == geteuid() || uid == dir->st_uid;
}

static const char *node_kind(mode_t mode)
{
	return S_ISLNK(mode) ? "a symbolic link" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device"
	       : S_ISREG(mode) ? "a file" : "a node";
}

/*
 * may_use()'s refusal for st, found in the folder dirfd.  Another user's
 * FIFO there would receive the output, and their file's mode would pass to
 * the replacement: the caller picks a path nobody else could have planted.
 */
static int check_owner(const char *shown, int dirfd, const struct stat *st, struct ud_err *err)
{
	struct stat dir;

	if (fstat(dirfd, &dir) != 0)
		return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
	if (may_use(&dir, st->st_uid))
		return 0;
	return ud_fail(err,
		       "%s: %s owned by uid %ld in a sticky world-writable folder (uid %ld's): not %s (only the "
		       "caller's or the folder owner's are): pick another path",
		       shown, node_kind(st->st_mode), (long)st->st_uid, (long)dir.st_uid,
		       S_ISLNK(st->st_mode) ? "followed" : "written");
}

/* One lookup in progress: the components still to walk, and the link the last one came through. */
struct walk {
	char rest[2 * PATH_MAX];
	int links;
	int link_dirfd;         /* the folder of the last component's link, -1 when it was reached directly */
	char link_name[NAME_MAX + 1];
};

static int open_dir(int at, const char *name)
{
	return openat(at, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* The link comp in pl->dirfd, checked against the rule, replaced by its target at the front of what is left. */
static int follow_link(const char *shown, struct place *pl, struct walk *w, const char *comp, const char *left,
		       const struct stat *st, struct ud_err *err)
{
	char target[PATH_MAX], joined[sizeof(w->rest)];
	ssize_t n;

	if (check_owner(shown, pl->dirfd, st, err) != 0)
		return -1;
	if (++w->links > LINKS_MAX)
		return ud_fail(err, "%s: cannot write: %s", shown, strerror(ELOOP));
	n = readlinkat(pl->dirfd, comp, target, sizeof(target) - 1);
	if (n <= 0)
		return ud_fail(err, "%s: cannot write: %s", shown, strerror(n == 0 ? ENOENT : errno));
	target[n] = '\0';
	if (!*left) { /* the last component: remembered, for a link to nothing and for /proc's magic links */
		if (w->link_dirfd >= 0)
			close(w->link_dirfd);
		w->link_dirfd = fcntl(pl->dirfd, F_DUPFD_CLOEXEC, 3);
		snprintf(w->link_name, sizeof(w->link_name), "%s", comp);
	}
	if ((size_t)snprintf(joined, sizeof(joined), "%s%s%s", target, *left ? "/" : "", left) >= sizeof(joined))
		return ud_fail(err, "%s: cannot write: %s", shown, strerror(ENAMETOOLONG));
	if (target[0] == '/') {
		int root = open_dir(AT_FDCWD, "/");

		if (root < 0)
			return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
		close(pl->dirfd);
		pl->dirfd = root;
	}
	memcpy(w->rest, joined, strlen(joined) + 1);
	return 0;
}

/*
 * Walks path a component at a time, as the kernel's lookup does, opening
 * every folder with O_NOFOLLOW and following each symbolic link itself
 * under may_use()'s rule.  Leaves pl->dirfd on the folder that holds the
 * last component and its name in pl->name (which may not exist yet).
 */
static int walk(const char *shown, const char *path, struct place *pl, struct walk *w, struct ud_err *err)
{
	if (strlen(path) >= sizeof(w->rest) / 2)
		return ud_fail(err, "%s: cannot write: %s", shown, strerror(ENAMETOOLONG));
	snprintf(w->rest, sizeof(w->rest), "%s", path);
	if ((pl->dirfd = open_dir(AT_FDCWD, path[0] == '/' ? "/" : ".")) < 0)
		return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
	for (;;) {
		char comp[NAME_MAX + 1], *p = w->rest + strspn(w->rest, "/");
		size_t len = strcspn(p, "/");
		const char *left = p + len + strspn(p + len, "/");
		struct stat st;
		int next;

		if (len == 0 || len > NAME_MAX)
			return ud_fail(err, "%s: %s", shown, len ? strerror(ENAMETOOLONG) : "is a directory");
		snprintf(comp, sizeof(comp), "%.*s", (int)len, p);
		if (fstatat(pl->dirfd, comp, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			if (errno != ENOENT || *left || p[len])
				return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
			memcpy(pl->name, comp, len + 1); /* a new file */
			return 0;
		}
		if (S_ISLNK(st.st_mode)) {
			if (follow_link(shown, pl, w, comp, left, &st, err) != 0)
				return -1;
			continue;
		}
		if (!*left) {
			if (p[len] && !S_ISDIR(st.st_mode)) /* "file/" */
				return ud_fail(err, "%s: cannot write: %s", shown, strerror(ENOTDIR));
			memcpy(pl->name, comp, len + 1);
			return 0;
		}
		if (!S_ISDIR(st.st_mode))
			return ud_fail(err, "%s: cannot write: %s", shown, strerror(ENOTDIR));
		if ((next = open_dir(pl->dirfd, comp)) < 0)
			return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
		close(pl->dirfd);
		pl->dirfd = next;
		memmove(w->rest, left, strlen(left) + 1);
	}
}

/* An existing regular file: replaced, keeping its permissions, if it could be written in place. */
static int place_regular(const char *shown, struct place *pl, const struct stat *st, struct ud_err *err)
{
	/* No write bit at all is someone's "keep this", even for root, whom access() lets write anything. */
	if (faccessat(pl->dirfd, pl->name, W_OK, 0) != 0 || !(st->st_mode & 0222))
		return ud_fail(err, "%s: read-only file: not replaced (only a file that could be written in place is)",
			       shown);
	/*
	 * The permission bits only: a set-user-ID bit on the old file is nothing
	 * the new one should carry.  Someone else's file gives no more than a new
	 * file of ours would get: a planted 0666 file does not make our output
	 * world-writable.
	 */
	pl->mode = st->st_mode & 0777;
	if (st->st_uid != geteuid())
		pl->mode &= new_file_mode();
	pl->kind = OUT_REPLACE;
	pl->exists = true;
	if (faccessat(pl->dirfd, ".", W_OK | X_OK, 0) != 0)
		return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
	return 0;
}

/*
 * The last component of a path that does not exist, reached through a
 * link: a dangling link is refused; a /proc magic link (/dev/fd/N of a pipe,
 * whose target "pipe:[N]" is no path) is the kernel's to follow.
 */
static int place_missing_link(const char *shown, struct place *pl, struct walk *w, struct ud_err *err)
{
	struct stat st;
	int fd = openat(w->link_dirfd, w->link_name, O_PATH | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0 || (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))) {
		if (fd >= 0)
			close(fd);
		return ud_fail(err, "%s: a symbolic link to a file that does not exist: not followed", shown);
	}
	close(fd);
	close(pl->dirfd);
	pl->dirfd = w->link_dirfd;
	w->link_dirfd = -1;
	snprintf(pl->name, sizeof(pl->name), "%s", w->link_name);
	pl->follow = true;
	pl->kind = OUT_IN_PLACE;
	return 0;
}

/* What pl's file is, and so how it is written. */
static int classify(const char *shown, struct place *pl, struct walk *w, struct ud_err *err)
{
	struct stat st;

	if (fstatat(pl->dirfd, pl->name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT)
			return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
		if (w->link_dirfd >= 0)
			return place_missing_link(shown, pl, w, err);
		pl->mode = new_file_mode();
		pl->kind = OUT_REPLACE;
		if (faccessat(pl->dirfd, ".", W_OK | X_OK, 0) != 0)
			return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return ud_fail(err, "%s: is a directory", shown);
	if ((S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) &&
	    check_owner(shown, pl->dirfd, &st, err) != 0)
		return -1;
	if (S_ISREG(st.st_mode))
		return place_regular(shown, pl, &st, err);
	if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
		return ud_fail(err, "%s: not a regular file, FIFO or character device", shown);
	if (faccessat(pl->dirfd, pl->name, W_OK, 0) != 0)
		return ud_fail(err, "%s: cannot write: %s", shown, strerror(errno));
	pl->kind = OUT_IN_PLACE;
	return 0;
}

static void place_close(struct place *pl)
{
	if (pl->dirfd >= 0)
		close(pl->dirfd);
	pl->dirfd = -1;
}

/* Where path leads; -1 with err (pl closed) when it cannot be written as outfile.h says. */
static int resolve(const char *path, bool fresh, struct place *pl, struct ud_err *err)
{
	struct walk w = { .link_dirfd = -1 };
	int ret;

	*pl = (struct place){ .kind = OUT_REPLACE, .dirfd = -1 };
	if (!*path)
		return ud_fail(err, "an empty file name");
	if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0)
		return pl->kind = OUT_STDOUT, 0;
	if (strcmp(path, "/dev/stderr") == 0)
		return pl->kind = OUT_STDERR, 0;
	ret = walk(path, path, pl, &w, err);
	if (ret == 0)
		ret = classify(path, pl, &w, err);
	if (ret == 0 && fresh && (pl->kind != OUT_REPLACE || pl->exists))
		ret = ud_fail(err, "%s: exists already: not replaced", path);
	if (w.link_dirfd >= 0)
		close(w.link_dirfd);
	if (ret != 0)
		place_close(pl);
	return ret;
}

int ud_outfile_check(const char *path, struct ud_err *err)
{
	struct place pl;
	int ret = resolve(path, false, &pl, err);

	place_close(&pl);
	return ret;
}

int ud_outfile_check_new(const char *path, struct ud_err *err)
{
	struct place pl;
	int ret = resolve(path, true, &pl, err);

	place_close(&pl);
	return ret;
}

/*
 * What a path names, to tell whether two paths are one file: an existing
 * file by its device and inode (links, hard links, "./", "//" and ".."
 * all lead to the same pair), a file not there yet by its folder's pair
 * and its name in it.  A stream or an in-place node (FIFO, device) is
 * never replaced, so only the standard streams and replaceable files have
 * an identity here.
 */
struct file_id {
	enum out_kind kind;
	bool known;  /* false: nothing to compare (a FIFO, a path that leads nowhere) */
	bool exists;
	dev_t dev;   /* the file's, or its folder's when it does not exist */
	ino_t ino;
	char name[NAME_MAX + 1];
};

/* How an output path resolves (as writing it would); -1 with err when it could not be written at all. */
static int output_id(const char *path, struct file_id *id, struct ud_err *err)
{
	struct place pl;
	struct stat st;

	*id = (struct file_id){ 0 };
	if (resolve(path, false, &pl, err) != 0)
		return -1;
	id->kind = pl.kind;
	id->known = pl.kind != OUT_IN_PLACE;
	if (pl.kind == OUT_REPLACE) {
		id->exists = fstatat(pl.dirfd, pl.name, &st, AT_SYMLINK_NOFOLLOW) == 0;
		if (!id->exists && fstat(pl.dirfd, &st) != 0)
			id->known = false;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		snprintf(id->name, sizeof(id->name), "%s", pl.name);
	}
	place_close(&pl);
	return 0;
}

/* How an input path resolves as a reader opens it (links followed; "-" is a file's name, not stdin). */
static void input_id(const char *path, struct file_id *id)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	char parent[PATH_MAX];
	struct stat st;

	*id = (struct file_id){ .kind = OUT_REPLACE };
	if (stat(path, &st) == 0) {
		id->known = id->exists = true;
	} else {
		if (!*name || strlen(name) > NAME_MAX || (slash && (size_t)(slash - path) >= sizeof(parent)))
			return;
		snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
		if (stat(parent, &st) != 0)
			return;
		id->known = true;
		memcpy(id->name, name, strlen(name) + 1);
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
}

static bool same_file(const struct file_id *a, const struct file_id *b)
{
	if (!a->known || !b->known || a->kind != b->kind)
		return false;
	if (a->kind != OUT_REPLACE)
		return true; /* both standard output, or both standard error */
	return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino &&
	       (a->exists || strcmp(a->name, b->name) == 0);
}

int ud_outfile_check_inputs(const char *opt, const char *path, const char *const *inputs, size_t ninputs,
			    struct ud_err *err)
{
	struct file_id out, in;

	if (output_id(path, &out, err) != 0)
		return -1;
	for (size_t i = 0; i < ninputs; i++) {
		input_id(inputs[i], &in);
		if (same_file(&out, &in))
			return ud_fail(err, "%s %s is the input %s: write elsewhere", opt, path, inputs[i]);
	}
	return 0;
}

int ud_outfile_check_apart(const char *opt, const char *path, const char *other_opt, const char *other,
			   struct ud_err *err)
{
	struct file_id a, b;

	if (output_id(path, &a, err) != 0 || output_id(other, &b, err) != 0)
		return -1;
	if (same_file(&a, &b))
		return ud_fail(err, "%s %s and %s %s name the same file: give each its own", opt, path, other_opt, other);
	return 0;
}

/* A FIFO opens only when a reader is there: never wait for one that may not come. */
static int open_in_place(struct ud_outfile *out, struct ud_err *err)
{
	int fd = openat(out->at.dirfd, out->at.name, O_WRONLY | O_NONBLOCK | O_CLOEXEC | (out->at.follow ? 0 : O_NOFOLLOW));

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

/* A new ".NAME.XXXXXX" beside the target, created exclusively (never through a link); its fd, name in tmp. */
static int make_temp(const struct place *pl, char *tmp, size_t len)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	struct timespec ts;
	unsigned long x;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = (unsigned long)ts.tv_nsec ^ ((unsigned long)ts.tv_sec << 20) ^ ((unsigned long)getpid() << 40);
	for (int tries = 0; tries < TEMP_TRIES; tries++) {
		char suffix[7];
		int fd;

		for (int i = 0; i < 6; i++, x /= 62)
			suffix[i] = chars[x % 62];
		suffix[6] = '\0';
		x = x * 6364136223846793005UL + 1442695040888963407UL + (unsigned long)tries;
		snprintf(tmp, len, ".%.*s.%s", TEMP_NAME_KEEP, pl->name, suffix);
		fd = openat(pl->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/* Into place: renamed over the target, or for a fresh file linked where nothing may be (EEXIST refuses). */
static int install(const struct ud_outfile *out, const char *tmp, struct ud_err *err)
{
	const struct place *pl = &out->at;

	if (!out->fresh) {
		if (renameat(pl->dirfd, tmp, pl->dirfd, pl->name) != 0)
			return ud_fail(err, "%s: cannot rename into place: %s", out->path, strerror(errno));
		return 0;
	}
	if (linkat(pl->dirfd, tmp, pl->dirfd, pl->name, 0) != 0)
		return ud_fail(err, "%s: %s", out->path,
			       errno == EEXIST ? "exists already: not replaced" : strerror(errno));
	unlinkat(pl->dirfd, tmp, 0);
	return 0;
}

/*
 * The whole output into a dot-file beside the target (same folder, so
 * rename is atomic), synced, renamed over it.  The temporary lives only
 * here, with the stop signals held: neither a signal nor a crash while the
 * output was being produced can leave it behind.  SIGXFSZ is ignored
 * meanwhile, so that a file-size limit (ulimit -f) fails the write with
 * EFBIG, said in the message, instead of killing the process with the
 * temporary left.
 */
static int replace(const struct ud_outfile *out, struct ud_err *err)
{
	char tmp[NAME_MAX + 1];
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_xfsz;
	sigset_t term, old;
	int fd, ret = -1;
	bool made;

	sigemptyset(&term);
	sigaddset(&term, SIGINT);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGHUP);
	sigaddset(&term, SIGQUIT);
	sigprocmask(SIG_BLOCK, &term, &old);
	sigaction(SIGXFSZ, &ign, &old_xfsz);
	fd = make_temp(&out->at, tmp, sizeof(tmp));
	made = fd >= 0;
	if (fd < 0) {
		ud_fail(err, "%s: cannot write: %s", out->path, strerror(errno));
	} else if (fchmod(fd, out->at.mode) != 0 || write_all(fd, out->buf, out->len) != 0 || fsync(fd) != 0) {
		ud_fail(err, "%s: write failed: %s", out->path, strerror(errno));
	} else {
		int closed = close(fd);

		fd = -1;
		if (closed != 0)
			ud_fail(err, "%s: write failed: %s", out->path, strerror(errno));
		else
			ret = install(out, tmp, err);
	}
	if (fd >= 0)
		close(fd);
	if (made && ret != 0)
		unlinkat(out->at.dirfd, tmp, 0);
	sigaction(SIGXFSZ, &old_xfsz, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/*
 * The file appended to, created when missing.  It may have appeared since
 * the path was checked (an interval's report is flushed long after): what
 * is there must still be a regular file may_use() allows, so that a FIFO or
 * file planted in /tmp meanwhile neither blocks nor receives the report.
 */
static int open_append(const struct ud_outfile *out, struct ud_err *err)
{
	int fd = openat(out->at.dirfd, out->at.name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			new_file_mode());
	struct stat st;
	int ret;

	if (fd < 0)
		return ud_fail(err, "%s: cannot append: %s", out->path, strerror(errno));
	if (fstat(fd, &st) != 0)
		ret = ud_fail(err, "%s: cannot append: %s", out->path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		ret = ud_fail(err, "%s: cannot append: no longer a regular file: pick another path", out->path);
	else
		ret = check_owner(out->path, out->at.dirfd, &st, err);
	if (ret == 0)
		return fd;
	close(fd);
	return -1;
}

/*
 * Adds what the memory stream holds to the end of the file, in one write
 * where the kernel takes it whole (O_APPEND places each write at the end
 * atomically, so concurrent appenders' reports do not interleave), and
 * empties the stream for what comes next.
 */
static int append_now(struct ud_outfile *out, struct ud_err *err)
{
	int fd, ret = 0;

	if (fflush(out->stream) != 0 || ferror(out->stream))
		ret = ud_fail(err, "%s: write failed: %s", out->path, strerror(errno ? errno : EIO));
	else if (out->len == 0)
		return 0;
	else if ((fd = open_append(out, err)) < 0)
		ret = -1;
	else {
		if (write_all(fd, out->buf, out->len) != 0)
			ret = ud_fail(err, "%s: write failed: %s", out->path, strerror(errno));
		if (close(fd) != 0 && ret == 0)
			ret = ud_fail(err, "%s: write failed: %s", out->path, strerror(errno));
	}
	/*
	 * Handed off or failed, it is not written again at the next flush (an
	 * interval twice): the stream starts over its buffer, and len is its
	 * position, 0, once flushed (glibc's memory stream).
	 */
	rewind(out->stream);
	fflush(out->stream);
	return ret;
}

static struct ud_outfile *outfile_open(const char *path, bool fresh, struct ud_err *err)
{
	struct ud_outfile *out;
	struct place pl;
	int ret;

	if (resolve(path, fresh, &pl, err) != 0)
		return NULL;
	out = calloc(1, sizeof(*out));
	if (!out || !(out->path = strdup(path))) {
		free(out);
		place_close(&pl);
		ud_fail(err, "%s: out of memory", path);
		return NULL;
	}
	out->at = pl;
	out->fresh = fresh;
	if (pl.kind == OUT_STDOUT || pl.kind == OUT_STDERR) {
		out->stream = pl.kind == OUT_STDOUT ? stdout : stderr;
		return out;
	}
	if (pl.kind == OUT_IN_PLACE) {
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

struct ud_outfile *ud_outfile_open(const char *path, struct ud_err *err)
{
	return outfile_open(path, false, err);
}

struct ud_outfile *ud_outfile_create(const char *path, struct ud_err *err)
{
	return outfile_open(path, true, err);
}

struct ud_outfile *ud_outfile_append(const char *path, struct ud_err *err)
{
	struct ud_outfile *out = outfile_open(path, false, err);

	if (out)
		out->append = out->at.kind == OUT_REPLACE;
	return out;
}

int ud_outfile_flush(struct ud_outfile *out, struct ud_err *err)
{
	if (out->append)
		return append_now(out, err);
	if (out->at.kind == OUT_REPLACE)
		return 0; /* kept in memory until commit: nothing to flush to */
	return fflush(out->stream) == 0 ? 0 : ud_fail(err, "%s: write failed: %s", out->path, strerror(errno));
}

FILE *ud_outfile_stream(struct ud_outfile *out)
{
	return out->stream;
}

static int is_standard(const struct ud_outfile *out)
{
	return out->at.kind == OUT_STDOUT || out->at.kind == OUT_STDERR;
}

int ud_outfile_commit(struct ud_outfile *out, struct ud_err *err)
{
	const char *name = out->at.kind == OUT_STDOUT ? "standard output"
			 : out->at.kind == OUT_STDERR ? "standard error"
						      : out->path;
	int failed;

	if (out->append) {
		failed = append_now(out, err);
		ud_outfile_abort(out);
		return failed ? -1 : 0;
	}
	failed = ferror(out->stream) | fflush(out->stream);

	if (!is_standard(out)) {
		failed |= fclose(out->stream);
		out->stream = NULL;
	}
	if (failed) {
		ud_fail(err, "%s: write failed: %s", name, strerror(errno ? errno : EIO));
		if (is_standard(out))
			clearerr(out->stream); /* reported through err: the end-of-command check (options.h) need not again */
	} else if (out->at.kind == OUT_REPLACE) {
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
	place_close(&out->at);
	free(out->buf);
	free(out->path);
	free(out);
}
