/*
 * spec.c - spec files read: each key checked, the score pattern compiled
 * once its cost is known, every *.spec of a folder loaded (spec.h); running
 * a spec's program is spec_run.c's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "fileio.h"
#include "sort.h"
#include "text.h"
#include "spec.h"
#include "spec_priv.h"

/* A spec's timeout: under a second no program finishes a sample; over a day it is not a benchmark. */
#define TIMEOUT_MIN_S 1.0
#define TIMEOUT_MAX_S 86400.0

/* The spec's fixed-size text fields, by key: a value that does not fit is refused, never cut. */
#define TEXT_FIELD(key, member) { key, offsetof(struct ud_spec, member), sizeof(((struct ud_spec *)0)->member) }
static const struct {
	const char *key;
	size_t offset, size;
} text_fields[] = {
	TEXT_FIELD("name", name),	TEXT_FIELD("what", what),   TEXT_FIELD("command", command),
	TEXT_FIELD("score", pattern),	TEXT_FIELD("units", units), TEXT_FIELD("requires", requires),
	TEXT_FIELD("env", env),
};
#undef TEXT_FIELD

static int set_text(struct ud_spec *s, size_t i, const char *v, const char *path, int line, struct ud_err *err)
{
	size_t len = strlen(v);

	if (len >= text_fields[i].size)
		return ud_fail(err, "%s:%d: %s is longer than %zu characters", path, line, text_fields[i].key,
			       text_fields[i].size - 1);
	memcpy((char *)s + text_fields[i].offset, v, len + 1);
	return 0;
}

static int set_suites(struct ud_spec *s, const char *v, const char *path, int line, struct ud_err *err)
{
	char copy[128], *save = NULL;

	if (strlen(v) >= sizeof(copy))
		return ud_fail(err, "%s:%d: suites is longer than %zu characters", path, line, sizeof(copy) - 1);
	snprintf(copy, sizeof(copy), "%s", v);
	s->suites = 0;
	for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		unsigned one;

		if (ud_suite_parse(t, &one) != 0)
			return ud_fail(err, "%s:%d: unknown suite '%s'", path, line, t);
		s->suites |= one;
	}
	return 0;
}

static int set_field(struct ud_spec *s, const char *key, const char *v, const char *path, int line,
		     struct ud_err *err)
{
	char *end;

	for (size_t i = 0; i < sizeof(text_fields) / sizeof(text_fields[0]); i++)
		if (strcmp(key, text_fields[i].key) == 0)
			return set_text(s, i, v, path, line, err);
	if (strcmp(key, "units_group") == 0 || strcmp(key, "timebase_group") == 0) {
		int *group = key[0] == 'u' ? &s->units_group : &s->timebase_group;

		*group = (int)strtol(v, &end, 10);
		if (*end || end == v || *group < 1 || *group > 9)
			return ud_fail(err, "%s:%d: %s must be 1-9", path, line, key);
	} else if (strcmp(key, "higher_is_better") == 0) {
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return ud_fail(err, "%s:%d: higher_is_better must be yes or no", path, line);
		s->higher_is_better = strcmp(v, "yes") == 0;
	} else if (strcmp(key, "timeout") == 0) {
		s->timeout_s = strtod(v, &end);
		if (*end || end == v || !(s->timeout_s >= TIMEOUT_MIN_S && s->timeout_s <= TIMEOUT_MAX_S))
			return ud_fail(err, "%s:%d: timeout must be from %.0f to %.0f seconds, not '%s'", path, line,
				       TIMEOUT_MIN_S, TIMEOUT_MAX_S, v);
	} else if (strcmp(key, "suites") == 0) {
		return set_suites(s, v, path, line, err);
	} else {
		return ud_fail(err, "%s:%d: unknown key '%s'", path, line, key);
	}
	return 0;
}

/* The name becomes part of a directory's name: nothing that could leave TMPDIR or need quoting. */
static bool valid_name(const char *name)
{
	if (!*name)
		return false;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			return false;
	return true;
}

static size_t count_words(const char *s)
{
	size_t n = 0;

	for (s += strspn(s, " \t"); *s; s += strspn(s, " \t")) {
		n++;
		s += strcspn(s, " \t");
	}
	return n;
}

/* What can be checked before a spec runs: so that a bad one is refused at load, not mid-run. */
static int validate(const struct ud_spec *s, const char *path, struct ud_err *err)
{
	if (!valid_name(s->name))
		return ud_fail(err, "%s: name '%s' may hold only letters, digits, '.', '_' and '-'", path, s->name);
	if (ud_workload_find(s->name))
		return ud_fail(err, "%s: name '%s' is a built-in workload's", path, s->name);
	if (count_words(s->command) > UD_SPEC_MAX_ARGS)
		return ud_fail(err, "%s: command has more than %d arguments", path, UD_SPEC_MAX_ARGS);
	if (s->re.re_nsub < 1)
		return ud_fail(err, "%s: score pattern has no group: group 1 must capture the score", path);
	if ((size_t)s->units_group > s->re.re_nsub)
		return ud_fail(err, "%s: units_group %d names no group of the score pattern (it has %zu)", path,
			       s->units_group, s->re.re_nsub);
	if ((size_t)s->timebase_group > s->re.re_nsub)
		return ud_fail(err, "%s: timebase_group %d names no group of the score pattern (it has %zu)", path,
			       s->timebase_group, s->re.re_nsub);
	return 0;
}

/*
 * glibc's regcomp copies a repeated part once per repetition, and a repeat
 * of a repeat multiplies: "C++++...+" (60 of them) or "((a{99}){99}){99}"
 * takes gigabytes (found by fuzz/fuzz_spec.c).  A score pattern may hold
 * this many copies of its parts: real ones hold under 20.
 */
#define PATTERN_COPIES_MAX 10000.0
#define PATTERN_NEST_MAX 32

/* The copies of a repeat: '*', '+', '?' and {m,n} as regcomp expands them; *i is left on its last byte. */
static double repeat_factor(const char *p, size_t *i)
{
	char *end;
	double m, n;

	if (p[*i] != '{')
		return 2;
	m = strtod(p + *i + 1, &end);
	n = *end == ',' ? (isdigit((unsigned char)end[1]) ? strtod(end + 1, &end) : m + 1) : m;
	while (*end && *end != '}')
		end++;
	*i = (size_t)(end - p) - (*end == '\0');
	return n > 1 ? n : 2;
}

/* The size regcomp will make of pattern, in copies of its parts; -1 when it passes PATTERN_COPIES_MAX. */
static double pattern_copies(const char *p)
{
	double total[PATTERN_NEST_MAX + 1] = { 0 }, last[PATTERN_NEST_MAX + 1] = { 0 };
	int d = 0;

	for (size_t i = 0; p[i]; i++) {
		if (strchr("*+?{", p[i]) && i > 0) {
			double f = repeat_factor(p, &i);

			total[d] += last[d] * (f - 1);
			last[d] *= f;
		} else if (p[i] == '(') {
			if (d == PATTERN_NEST_MAX) /* deeper groups cannot be counted: refused, never undercounted */
				return -1;
			d++;
			total[d] = last[d] = 0;
		} else if (p[i] == ')' && d > 0) {
			d--;
			last[d] = total[d + 1] > 1 ? total[d + 1] : 1;
			total[d] += last[d];
		} else {
			if (p[i] == '\\' && p[i + 1])
				i++;
			else if (p[i] == '[') /* a bracket expression is one part; "[]...]" holds a ']' */
				for (i += 1 + (p[i + 1] == '^'), i += p[i] == ']'; p[i] && p[i] != ']'; i++)
					;
			last[d] = 1;
			total[d] += 1;
			if (!p[i])
				break;
		}
		if (total[d] > PATTERN_COPIES_MAX || last[d] > PATTERN_COPIES_MAX)
			return -1;
	}
	return total[0];
}

int ud_spec_parse(FILE *f, const char *path, struct ud_spec *s, struct ud_err *err)
{
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, rc;

	memset(s, 0, sizeof(*s));
	s->higher_is_better = true;
	s->timeout_s = 60;
	s->suites = UD_SUITE_FULL;
	snprintf(s->path, sizeof(s->path), "%s", path);
	while (getline(&line, &cap, f) > 0) {
		char *eq, *key;

		lineno++;
		key = ud_trim(line);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			free(line);
			return ud_fail(err, "%s:%d: expected key = value", path, lineno);
		}
		*eq = '\0';
		if (set_field(s, ud_trim(key), ud_trim(eq + 1), path, lineno, err) != 0) {
			free(line);
			return -1;
		}
	}
	free(line);
	if (!s->name[0] || !s->command[0] || !s->pattern[0] || (!s->units[0] && !s->units_group))
		return ud_fail(err, "%s: a spec needs name, command, score and units (or units_group)", path);
	if (pattern_copies(s->pattern) < 0)
		return ud_fail(err, "%s: score pattern too costly to compile (over %.0f copies, or groups over %d deep)",
			       path, PATTERN_COPIES_MAX, PATTERN_NEST_MAX);
	rc = regcomp(&s->re, s->pattern, REG_EXTENDED | REG_NEWLINE);
	if (rc != 0) {
		char msg[128];

		regerror(rc, &s->re, msg, sizeof(msg));
		return ud_fail(err, "%s: score pattern: %s", path, msg);
	}
	if (validate(s, path, err) != 0) {
		regfree(&s->re);
		return -1;
	}
	s->def = (struct ud_workload_def){
		.name = s->name, .units = s->units[0] ? s->units : "", .higher_is_better = s->higher_is_better,
		.teaches = s->what[0] ? s->what : s->command, .suites = s->suites, .run = ud_spec_run,
		.data = s, .once = true, .not_single_cpu = true, /* an external program's shape is its own */
	};
	return 0;
}

int ud_spec_parse_file(const char *path, struct ud_spec *s, struct ud_err *err)
{
	char *buf;
	FILE *f = ud_open_input(path, UD_INPUT_SPEC, &buf, err);
	int ret;

	if (!f) {
		memset(s, 0, sizeof(*s));
		return -1;
	}
	ret = ud_spec_parse(f, path, s, err);
	fclose(f);
	free(buf);
	return ret;
}

static int cmp_spec(const void *a, const void *b)
{
	return strcmp(((const struct ud_spec *)a)->name, ((const struct ud_spec *)b)->name);
}

int ud_specs_load(const char *dir, struct ud_spec **out, size_t *n, struct ud_err *err)
{
	char dirbuf[4096];
	struct dirent **names;
	struct ud_spec *specs;
	int count;

	*out = NULL;
	*n = 0;
	if (!dir)
		dir = ud_data_dir(UD_DATA_WORKLOADS, dirbuf, sizeof(dirbuf));
	count = scandir(dir, &names, NULL, alphasort);
	if (count < 0)
		return ud_fail(err, "%s: %s", dir, strerror(errno));
	specs = calloc((size_t)count + 1, sizeof(*specs));
	for (int i = 0; i < count; i++) {
		const char *d = names[i]->d_name;
		size_t len = strlen(d);
		char path[1024];

		snprintf(path, sizeof(path), "%s/%s", dir, d);
		/* A FIFO or a folder named *.spec is not a spec: skip it rather than block or fail on it. */
		if (specs && len > 5 && strcmp(d + len - 5, ".spec") == 0 && ud_is_regular_file(path)) {
			if (ud_spec_parse_file(path, &specs[*n], err) != 0) {
				for (int j = i; j < count; j++)
					free(names[j]);
				free(names);
				ud_specs_free(specs, *n);
				*n = 0;
				return -1;
			}
			(*n)++;
		}
		free(names[i]);
	}
	free(names);
	if (!specs)
		return ud_fail(err, "out of memory");
	/* Definitions point into the array, which the sort moves: fix them after. */
	ud_sort(specs, *n, sizeof(*specs), cmp_spec);
	for (size_t i = 1; i < *n; i++) {
		if (strcmp(specs[i - 1].name, specs[i].name) == 0) {
			ud_fail(err, "%s and %s both name the workload '%s'", specs[i - 1].path, specs[i].path,
				specs[i].name);
			ud_specs_free(specs, *n);
			*n = 0;
			return -1;
		}
	}
	for (size_t i = 0; i < *n; i++) {
		specs[i].def.name = specs[i].name;
		specs[i].def.units = specs[i].units;
		specs[i].def.teaches = specs[i].what[0] ? specs[i].what : specs[i].command;
		specs[i].def.data = &specs[i];
	}
	*out = specs;
	return 0;
}

void ud_specs_free(struct ud_spec *specs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		regfree(&specs[i].re);
	free(specs);
}
