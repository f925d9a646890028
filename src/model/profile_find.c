/*
 * profile_find.c - the profile files a fleet's operands name (profile_find.h).
 */
#include "profile_find.h"
#include "sort.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * How much of a file is read to tell a profile: uarchdiff writes "schema"
 * as a profile's first key, so the head holds it unless the file is padded
 * with blanks no writer of profiles adds.
 */
#define SNIFF_BYTES 256

/* What the playbook names a profile it set aside (doc/fleet.md): a profile, but not one to compare. */
#define REJECTED_SUFFIX ".rejected.json"

static const char *skip_blanks(const char *s)
{
	return s + strspn(s, " \t\r\n");
}

/* Whether the file at path begins as a uarchdiff profile ("schema" first); false when it cannot be read. */
static bool ud_profile_file_sniff(const char *path)
{
	char head[SNIFF_BYTES + 1];
	const char *s;
	size_t len = 0;
	ssize_t got = 1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while (len < SNIFF_BYTES && got > 0) {
		got = read(fd, head + len, SNIFF_BYTES - len);
		if (got > 0)
			len += (size_t)got;
		else if (got < 0 && errno == EINTR)
			got = 1;
	}
	close(fd);
	head[len] = '\0';
	s = skip_blanks(head);
	if (*s++ != '{')
		return false;
	s = skip_blanks(s);
	if (strncmp(s, "\"schema\"", 8) != 0)
		return false;
	s = skip_blanks(s + 8);
	if (*s++ != ':')
		return false;
	return strncmp(skip_blanks(s), "\"uarchdiff.profile/", 19) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Takes path (owned) into the list; -1 with err when out of memory (path freed). */
static int push(struct ud_profile_paths *l, char *path, struct ud_err *err)
{
	if (path && l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		char **p = realloc(l->paths, cap * sizeof(*p));

		if (!p) {
			free(path);
			path = NULL;
		} else {
			l->paths = p;
			l->cap = cap;
		}
	}
	if (!path)
		return ud_fail(err, "out of memory listing profiles");
	l->paths[l->n++] = path;
	return 0;
}

/* Returns a new string, dir/name (caller frees); NULL when out of memory. */
static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *s = malloc(n + strlen(name) + 2);

	if (s)
		sprintf(s, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	return s;
}

struct entry {
	char *name;         /* owned */
	unsigned char type; /* readdir's d_type: DT_UNKNOWN where the file system does not say */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void free_entries(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].name);
	free(e);
}

/* The entries of folder path but . and .., sorted by name (*out: caller frees); their count, or -1 with err. */
static long list_folder(const char *path, struct entry **out, struct ud_err *err)
{
	DIR *d = opendir(path);
	struct entry *e = NULL, *grown;
	size_t n = 0, cap = 0;
	struct dirent *de;

	if (!d)
		return ud_fail(err, "%s: cannot read this folder: %s: make it readable, or name what to compare without it",
			       path, strerror(errno));
	for (errno = 0; (de = readdir(d)); errno = 0) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap) {
			size_t c = cap ? 2 * cap : 16;

			if (!(grown = realloc(e, c * sizeof(*e))))
				break;
			e = grown;
			cap = c;
		}
		if (!(e[n].name = strdup(de->d_name)))
			break;
		e[n++].type = de->d_type;
	}
	if (de || errno) {
		int saved = de ? ENOMEM : errno;

		closedir(d);
		free_entries(e, n);
		return ud_fail(err, "%s: cannot list this folder: %s", path, strerror(saved));
	}
	closedir(d);
	ud_sort(e, n, sizeof(*e), by_name);
	*out = e;
	return (long)n;
}

/*
 * What entry e (its path: child) is, a folder to search or a file to look
 * at; 0, or -1 when it cannot be looked at.  A symbolic link's target is
 * looked at as a file, never searched as a folder: a link to a folder
 * above would loop.
 */
static int kind_of(const struct entry *e, const char *child, bool *folder, bool *file)
{
	struct stat st;

	if (e->type != DT_UNKNOWN && e->type != DT_LNK) {
		*folder = e->type == DT_DIR;
		*file = e->type == DT_REG;
		return 0;
	}
	if (lstat(child, &st) != 0)
		return -1;
	*folder = S_ISDIR(st.st_mode);
	if (S_ISLNK(st.st_mode) && stat(child, &st) != 0)
		return -1;
	*file = S_ISREG(st.st_mode);
	return 0;
}

/* Folder path's profiles, and those of the folders under it, depth first, each level by name. */
static int walk(struct ud_profile_paths *l, const char *path, struct ud_err *err)
{
	struct entry *e = NULL;
	long n = list_folder(path, &e, err);
	int ret = 0;

	if (n < 0)
		return -1;
	l->nfolders++;
	for (long i = 0; i < n && ret == 0; i++) {
		char *child = join(path, e[i].name);
		bool folder = false, file = false;

		if (!child) {
			ret = ud_fail(err, "out of memory listing profiles");
		} else if (kind_of(&e[i], child, &folder, &file) != 0) {
			l->nother++; /* a link to nothing, or gone since it was listed: not a profile */
			free(child);
		} else if (folder) {
			ret = walk(l, child, err);
			free(child);
		} else if (file && ends_with(child, ".json") && !ends_with(child, REJECTED_SUFFIX) &&
			   ud_profile_file_sniff(child)) {
			ret = push(l, child, err);
			l->nfound += ret == 0;
		} else {
			l->nother++;
			free(child);
		}
	}
	free_entries(e, (size_t)n);
	return ret;
}

int ud_profile_paths_add(struct ud_profile_paths *l, const char *operand, struct ud_err *err)
{
	struct stat st;

	if (stat(operand, &st) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return ud_fail(err, "%s: no such file or folder: check the path (a profile, a folder of "
					    "them, or - for a list of paths on standard input)", operand);
		return ud_fail(err, "%s: cannot reach: %s", operand, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return push(l, strdup(operand), err);
	l->nnamed_folders++;
	return walk(l, operand, err);
}

int ud_profile_paths_read(struct ud_profile_paths *l, FILE *in, const char *name, struct ud_err *err)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int ret = 0;

	while (ret == 0 && (len = getline(&line, &cap, in)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > 0 && ud_profile_paths_add(l, line, err) != 0)
			ret = ud_err_prefix(err, "%s, line %zu", name, lineno);
	}
	if (ret == 0 && ferror(in))
		ret = ud_fail(err, "%s: cannot read: %s", name, strerror(errno));
	free(line);
	return ret;
}

/* A named file's identity, and where it came in the list. */
struct file_key {
	dev_t dev;
	ino_t ino;
	size_t index;
};

static int by_identity(const void *x, const void *y)
{
	const struct file_key *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

int ud_profile_paths_check_distinct(const struct ud_profile_paths *l, struct ud_err *err)
{
	struct file_key *keys = malloc((l->n ? l->n : 1) * sizeof(*keys));
	size_t n = 0, first = SIZE_MAX, again = SIZE_MAX;
	struct stat st;

	if (!keys)
		return ud_fail(err, "out of memory");
	for (size_t i = 0; i < l->n; i++)
		if (stat(l->paths[i], &st) == 0)
			keys[n++] = (struct file_key){ st.st_dev, st.st_ino, i };
	/* sorted by identity, then position: a run of one file starts at its first naming, then its first repeat */
	ud_sort(keys, n, sizeof(*keys), by_identity);
	for (size_t i = 1; i < n; i++)
		if (keys[i].dev == keys[i - 1].dev && keys[i].ino == keys[i - 1].ino &&
		    (i < 2 || keys[i - 2].dev != keys[i].dev || keys[i - 2].ino != keys[i].ino) && keys[i].index < again) {
			first = keys[i - 1].index;
			again = keys[i].index;
		}
	free(keys);
	if (again == SIZE_MAX)
		return 0;
	return ud_fail(err, "%s and %s are the same file, named twice: name each profile once (a host counted "
		       "twice would weigh twice in its group)", l->paths[first], l->paths[again]);
}

void ud_profile_paths_free(struct ud_profile_paths *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	*l = (struct ud_profile_paths){ 0 };
}
