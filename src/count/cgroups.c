#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroups.h"
#include "event_names.h"

/* perf's has_pattern_string(): a --for-each-cgroup name with one of these is a regular expression. */
#define PATTERN_CHARS "{}[]()|*+?^$"

int ud_cgroup_mountpoint(const char *mounts, char *buf, size_t len, struct ud_err *err)
{
	FILE *f = fopen(mounts ? mounts : "/proc/mounts", "r");
	char line[4096], dir[PATH_MAX], type[64], opts[2048], v2[PATH_MAX] = "";

	if (!f)
		return ud_fail(err, "%s: %s", mounts ? mounts : "/proc/mounts", strerror(errno));
	/* a v1 mount with the perf_event controller first; the cgroup2 mount otherwise */
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL;

		if (sscanf(line, "%*s %4095s %63s %2047s", dir, type, opts) != 3)
			continue;
		if (strcmp(type, "cgroup2") == 0)
			snprintf(v2, sizeof(v2), "%s", dir);
		if (strcmp(type, "cgroup") != 0)
			continue;
		for (char *o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save))
			if (strcmp(o, "perf_event") == 0) {
				fclose(f);
				snprintf(buf, len, "%s", dir);
				return 0;
			}
	}
	fclose(f);
	if (!v2[0])
		return ud_fail(err, "no cgroup hierarchy with the perf_event controller is mounted (cgroup2, or "
				    "cgroup v1's perf_event)");
	snprintf(buf, len, "%s", v2);
	return 0;
}

/* The cgroup named name in cg->set, opened and added where it is not yet; its index, or -1 with err. */
static int find_or_open(struct ud_cgroups *cg, const char *name, struct ud_err *err)
{
	char mnt[PATH_MAX], path[2 * PATH_MAX];
	struct ud_cgroup *grown;
	int fd;

	for (size_t i = 0; i < cg->n; i++)
		if (strcmp(cg->set[i].name, name) == 0)
			return (int)i;
	if (ud_cgroup_mountpoint(cg->mounts, mnt, sizeof(mnt), err) != 0)
		return -1;
	/* perf's open_cgroup(): "%s/%s", so "/" is the root */
	snprintf(path, sizeof(path), "%s/%s", mnt, name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return ud_fail(err, "no access to cgroup %s: %s", path, strerror(errno));
	grown = realloc(cg->set, (cg->n + 1) * sizeof(*grown));
	if (grown)
		cg->set = grown;
	if (!grown || !(cg->set[cg->n].name = strdup(name))) {
		close(fd);
		return ud_fail(err, "out of memory");
	}
	cg->set[cg->n].fd = fd;
	return (int)cg->n++;
}

/* One -G name (len bytes of it; 0: empty, paired with nothing) for the next event of nevents. */
static int pair_one(struct ud_cgroups *cg, const char *name, size_t len, size_t nevents, struct ud_err *err)
{
	char buf[PATH_MAX];
	int k = -1;

	if (cg->given >= nevents)
		return ud_fail(err, "-G: more cgroups than events: the %zu%s cgroup has no event (perf pairs the N-th "
				    "cgroup with the N-th event given before it)",
			       cg->given + 1, cg->given == 0 ? "st" : cg->given == 1 ? "nd" : cg->given == 2 ? "rd" : "th");
	if (len >= sizeof(buf))
		return ud_fail(err, "-G: cgroup name '%.40s...' is too long", name);
	if (len > 0) {
		memcpy(buf, name, len);
		buf[len] = '\0';
		if ((k = find_or_open(cg, buf, err)) < 0)
			return -1;
	}
	cg->of[cg->given++] = k;
	return 0;
}

int ud_cgroups_pair(struct ud_cgroups *cg, const char *names, const char *events, struct ud_err *err)
{
	size_t nevents = events ? ud_event_list_length(events, err) : 0;
	int *grown;

	if (nevents == 0)
		return ud_fail(err, "must define events before cgroups (-e before -G)");
	if (!(grown = realloc(cg->of, nevents * sizeof(*grown))))
		return ud_fail(err, "out of memory");
	cg->of = grown;
	for (size_t i = cg->nof; i < nevents; i++)
		cg->of[i] = -1;
	cg->nof = nevents;
	for (const char *p = names;; p++) {
		size_t len = strcspn(p, ",");

		if (pair_one(cg, p, len, nevents, err) != 0)
			return -1;
		p += len;
		if (!*p)
			break;
	}
	/* perf: one cgroup in all goes with every event given so far */
	for (size_t i = 1; cg->given == 1 && i < nevents; i++)
		cg->of[i] = cg->of[0];
	return 0;
}

/* Appends a copy of s to paths[0..*n); -1 when out of memory. */
static int push_path(char ***paths, size_t *n, const char *s)
{
	char **grown = realloc(*paths, (*n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	*paths = grown;
	if (!(grown[*n] = strdup(s)))
		return -1;
	(*n)++;
	return 0;
}

/* path (under the hierarchy, "" its root) and every cgroup below it, parents first, as perf's nftw() lists them. */
static int walk(const char *mnt, const char *path, char ***paths, size_t *n)
{
	char full[2 * PATH_MAX], sub[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = push_path(paths, n, path);

	snprintf(full, sizeof(full), "%s/%s", mnt, path);
	if (ret != 0 || !(d = opendir(full)))
		return ret;
	while (ret == 0 && (de = readdir(d))) {
		if (de->d_type != DT_DIR || strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "/" : "", de->d_name) < (int)sizeof(sub))
			ret = walk(mnt, sub, paths, n);
	}
	closedir(d);
	return ret;
}

/* Marks used[i] for each of paths[0..n) that one of names' patterns matches; an empty name, the root (paths[0]). */
static int mark_matching(const char *names, char **paths, size_t n, bool *used, struct ud_err *err)
{
	for (const char *p = names;; p++) {
		size_t len = strcspn(p, ",");
		char *pattern = strndup(p, len);
		regex_t re;

		if (!pattern)
			return ud_fail(err, "out of memory");
		if (len > 0 && regcomp(&re, pattern, REG_NOSUB) != 0) {
			ud_fail(err, "--for-each-cgroup: '%s' is not a regular expression", pattern);
			free(pattern);
			return -1;
		}
		for (size_t i = 0; len > 0 && i < n; i++)
			used[i] = used[i] || regexec(&re, paths[i], 0, NULL, 0) == 0;
		if (len > 0)
			regfree(&re);
		used[0] = used[0] || len == 0;
		free(pattern);
		p += len;
		if (!*p)
			return 0;
	}
}

/* perf's match_cgroups(): every cgroup of the hierarchy whose path one of names' patterns matches, in its order. */
static int each_matching(struct ud_cgroups *cg, const char *names, struct ud_err *err)
{
	char mnt[PATH_MAX], **paths = NULL;
	size_t n = 0;
	bool *used = NULL;
	int ret = ud_cgroup_mountpoint(cg->mounts, mnt, sizeof(mnt), err);

	if (ret == 0 && (walk(mnt, "", &paths, &n) != 0 || !(used = calloc(n, sizeof(*used)))))
		ret = ud_fail(err, "out of memory");
	if (ret == 0)
		ret = mark_matching(names, paths, n, used, err);
	for (size_t i = 0; ret == 0 && i < n; i++)
		if (used[i] && find_or_open(cg, paths[i], err) < 0)
			ret = -1;
	if (ret == 0 && cg->n == 0)
		ret = ud_fail(err, "no cgroup matched: %s", names);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(used);
	return ret;
}

int ud_cgroups_each(struct ud_cgroups *cg, const char *names, struct ud_err *err)
{
	cg->each = true;
	if (strpbrk(names, PATTERN_CHARS))
		return each_matching(cg, names, err);
	/* perf's list_cgroups(): each name as given, once; an empty one the root */
	for (const char *p = names;; p++) {
		size_t len = strcspn(p, ",");
		char *name = len ? strndup(p, len) : strdup("/");
		int k = name ? find_or_open(cg, name, err) : ud_fail(err, "out of memory");

		free(name);
		if (k < 0)
			return -1;
		p += len;
		if (!*p)
			return 0;
	}
}

bool ud_cgroups_used(const struct ud_cgroups *cg)
{
	return cg->given > 0 || cg->each;
}

static void mark(struct ud_event *e, const struct ud_cgroup *c)
{
	e->cgroup = c->name;
	e->cgroup_fd = c->fd;
}

/* out[i]'s name numbered as a repeat of the events before it ("cpu-clock#2"), as the event list numbers them. */
static void number_repeat(struct ud_event *out, size_t i)
{
	size_t base = ud_event_repeat_base_len(out[i].name), k = 1;

	for (size_t j = 0; j < i; j++)
		k += ud_event_repeat_base_len(out[j].name) == base && strncmp(out[j].name, out[i].name, base) == 0;
	if (k > 1)
		snprintf(out[i].name + base, sizeof(out[i].name) - base, "#%zu", k);
	else
		out[i].name[base] = '\0';
}

/* perf's evlist__expand_cgroup(): the plan once per cgroup, each copy's groups its own. */
static int expand(const struct ud_cgroups *cg, struct ud_event **ev, size_t *n, struct ud_err *err)
{
	size_t m = *n;
	int groups = ud_event_group_count(*ev, m);
	struct ud_event *out = calloc(m * cg->n + 1, sizeof(*out));

	if (!out) {
		free(*ev);
		*ev = NULL;
		return ud_fail(err, "out of memory");
	}
	for (size_t k = 0; k < cg->n; k++) {
		for (size_t i = 0; i < m; i++) {
			struct ud_event *e = &out[k * m + i];

			*e = (*ev)[i];
			if (e->group >= 0)
				e->group += (int)k * groups;
			mark(e, &cg->set[k]);
			number_repeat(out, k * m + i);
		}
	}
	free(*ev);
	*ev = out;
	*n = m * cg->n;
	return 0;
}

static bool same_cgroup(const struct ud_event *a, const struct ud_event *b)
{
	return a->cgroup == b->cgroup || (a->cgroup && b->cgroup && strcmp(a->cgroup, b->cgroup) == 0);
}

/*
 * The kernel opens a group in one cgroup only (perf_cgroup_connect()): a
 * group the planner made, not one asked for with {}, whose events -G put in
 * different cgroups has its events count apart, as perf counts events it
 * was not asked to group.  A requested group stays whole, its refusal
 * perf's too.
 */
static void ungroup_mixed(struct ud_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int g = ev[i].group;
		bool mixed = false;

		if (g < 0 || ev[i].request_group >= 0)
			continue;
		for (size_t j = 0; j < n && !mixed; j++)
			mixed = ev[j].group == g && !same_cgroup(&ev[i], &ev[j]);
		for (size_t j = 0; mixed && j < n; j++)
			if (ev[j].group == g)
				ev[j].group = -1;
	}
}

int ud_cgroups_apply(const struct ud_cgroups *cg, struct ud_event **ev, size_t *n, struct ud_err *err)
{
	if (cg->each)
		return expand(cg, ev, n, err);
	for (size_t i = 0; i < cg->nof && i < *n; i++)
		if (cg->of[i] >= 0)
			mark(&(*ev)[i], &cg->set[cg->of[i]]);
	ungroup_mixed(*ev, *n);
	return 0;
}

void ud_cgroups_free(struct ud_cgroups *cg)
{
	for (size_t i = 0; i < cg->n; i++) {
		close(cg->set[i].fd);
		free(cg->set[i].name);
	}
	free(cg->set);
	free(cg->of);
	*cg = (struct ud_cgroups){ .mounts = cg->mounts };
}
