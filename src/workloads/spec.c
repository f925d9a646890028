#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "datadir.h"
#include "elfinfo.h"
#include "fileio.h"
#include "text.h"
#include "spec.h"
#include "unixbench_score.h"

#define MAX_ARGS 64
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
	if (count_words(s->command) > MAX_ARGS)
		return ud_fail(err, "%s: command has more than %d arguments", path, MAX_ARGS);
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

static int spec_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err);

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
		.teaches = s->what[0] ? s->what : s->command, .suites = s->suites, .run = spec_run,
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
	/* Definitions point into the array, which qsort moves: fix them after. */
	qsort(specs, *n, sizeof(*specs), cmp_spec);
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

/* ${NAME} expanded from the environment, ${TMPDIR} to the workload's directory. */
static int expand(const char *in, const char *tmpdir, char *out, size_t len, struct ud_err *err)
{
	size_t o = 0;

	while (*in && o + 1 < len) {
		if (in[0] == '$' && in[1] == '{') {
			const char *close = strchr(in, '}'), *v;
			char name[64];

			if (!close || close - in - 2 >= (long)sizeof(name))
				return ud_fail(err, "bad ${...} in '%s'", in);
			snprintf(name, sizeof(name), "%.*s", (int)(close - in - 2), in + 2);
			v = strcmp(name, "TMPDIR") == 0 && tmpdir ? tmpdir : getenv(name);
			if (!v)
				return ud_fail(err, "${%s} is not set", name);
			o += (size_t)snprintf(out + o, len - o, "%s", v);
			in = close + 1;
		} else {
			out[o++] = *in++;
		}
	}
	if (o >= len || *in) {
		out[len - 1] = '\0';
		return ud_fail(err, "the command is longer than %zu characters once expanded", len - 1);
	}
	out[o] = '\0';
	return 0;
}

/*
 * cmd split on blanks into words first, each then expanded on its own into
 * buf, argv[i] pointing there (NULL-terminated, MAX_ARGS at most): a value
 * holding a blank (a TMPDIR of "/tmp/my dir") stays one argument.
 */
static int expand_words(const char *cmd, const char *tmpdir, char *buf, size_t len, char **argv, struct ud_err *err)
{
	char copy[sizeof(((struct ud_spec *)0)->command)], *save = NULL;
	size_t used = 0;
	int argc = 0;

	snprintf(copy, sizeof(copy), "%s", cmd);
	for (char *t = strtok_r(copy, " \t", &save); t && argc < MAX_ARGS; t = strtok_r(NULL, " \t", &save)) {
		if (used >= len || expand(t, tmpdir, buf + used, len - used, err) != 0)
			return used >= len ? ud_fail(err, "the command is longer than %zu characters once expanded", len - 1)
					   : -1;
		argv[argc++] = buf + used;
		used += strlen(buf + used) + 1;
	}
	argv[argc] = NULL;
	return 0;
}

bool ud_spec_available(const struct ud_spec *s, struct ud_err *why, char *binary, size_t binlen)
{
	char cmd[2048], *argv[MAX_ARGS + 1];
	struct ud_err err = UD_ERR_INIT;

	if (s->requires[0] && !getenv(s->requires)) {
		ud_fail(why, "%s: needs %s to be set", s->name, s->requires);
		return false;
	}
	if (expand_words(s->command, "/tmp", cmd, sizeof(cmd), argv, why ? why : &err) != 0) {
		ud_err_prefix(why, "%s", s->name);
		return false;
	}
	if (ud_which(argv[0], binary ? binary : cmd, binary ? binlen : sizeof(cmd), why ? why : &err) != 0) {
		ud_err_prefix(why, "%s", s->name);
		return false;
	}
	return true;
}

/* Longest group read as a number: a score of more digits than a double holds is no score. */
#define NUMBER_CHARS 64

/*
 * A captured group as a number, the whole of it (blanks around it aside):
 * "1234,56" is not 1234.  NAN when the group did not take part or is not a
 * number, its text in text (for the message) when it took part.
 */
static double group_number(const char *line, const regmatch_t *g, char *text, size_t len)
{
	char num[NUMBER_CHARS + 2], *end;
	size_t n;
	double v;

	text[0] = '\0';
	if (g->rm_so < 0)
		return NAN;
	n = (size_t)(g->rm_eo - g->rm_so);
	snprintf(text, len, "%.*s", (int)n, line + g->rm_so);
	if (n > NUMBER_CHARS)
		return NAN;
	snprintf(num, sizeof(num), "%.*s", (int)n, line + g->rm_so);
	v = strtod(num, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	return end != num && !*end && isfinite(v) ? v : NAN;
}

int ud_spec_score(const struct ud_spec *s, const char *output, double elapsed_s, double *score, char *units,
		  size_t ulen, struct ud_err *err)
{
	regmatch_t m[10];
	int found = -1;
	char text[128], base[128];
	bool refused = false;

	for (const char *p = output; regexec(&s->re, p, 10, m, p == output ? 0 : REG_NOTBOL) == 0;) {
		double timebase = s->timebase_group ? group_number(p, &m[s->timebase_group], base, sizeof(base)) : 0;
		double value = group_number(p, &m[1], text, sizeof(text));
		/* A line whose timebase is missing is no score: its total read as a rate would be wrong. */
		double rate = ud_unixbench_rate(value, timebase, elapsed_s);

		/* A score group that took part but is no whole number is refused, never read in part. */
		refused = isnan(value) && text[0];
		if (refused)
			ud_fail(err, "%s: its score '%s' is not a number", s->name, text);
		if (isfinite(rate)) {
			*score = rate;
			if (s->units_group && m[s->units_group].rm_so >= 0)
				snprintf(units, ulen, "%.*s", (int)(m[s->units_group].rm_eo - m[s->units_group].rm_so),
					 p + m[s->units_group].rm_so);
			else
				snprintf(units, ulen, "%s", s->units);
			found = 0;
		}
		p += m[0].rm_eo > 0 ? m[0].rm_eo : 1;
		if (!*p)
			break;
	}
	if (refused) /* the last matching line's, whatever came before it */
		return -1;
	if (found != 0)
		ud_fail(err, "%s: no line of its output matches the score pattern", s->name);
	return found;
}

/* In the forked child: stdin from /dev/null, the spec's environment, output to fd, its directory, the program. */
static void exec_program(const char *binary, char **argv, char **envs, int fd, const char *tmpdir)
{
	int devnull = open("/dev/null", O_RDONLY);

	/* Never uarchdiff's stdin: a program that reads it would wait on the user's terminal. */
	if (devnull < 0 || dup2(devnull, STDIN_FILENO) < 0)
		_exit(126);
	for (int i = 0; envs[i]; i++)
		if (strchr(envs[i], '=') && putenv(envs[i]) != 0)
			_exit(126);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO); /* UnixBench programs print their COUNT lines on stderr */
	if (chdir(tmpdir) != 0)
		_exit(126);
	/* The program as found before the chdir: a relative name or PATH entry would now point elsewhere. */
	execv(binary, argv);
	_exit(127);
}

/* Without a pidfd (kernels before 5.3), how often the reader looks whether the program has exited. */
#define EXIT_POLL_MS 100

struct output {
	char *buf;
	size_t len, cap;
	pid_t pid;
	int status;
	bool reaped;
};

/* More of the program's output; the bytes read, 0 at the end, -1 with errno (ENOMEM, EAGAIN). */
static ssize_t read_more(struct output *o, int fd)
{
	ssize_t k;

	if (o->cap - o->len < 4096) {
		size_t cap = o->cap ? 2 * o->cap : 65536;
		char *grown = realloc(o->buf, cap);

		if (!grown)
			return errno = ENOMEM, -1;
		o->buf = grown;
		o->cap = cap;
	}
	while ((k = read(fd, o->buf + o->len, o->cap - o->len - 1)) < 0 && errno == EINTR)
		;
	if (k > 0)
		o->len += (size_t)k;
	return k;
}

/* Whether the program has exited: its pidfd readable, or (no pidfd) reaped now. */
static bool has_exited(struct output *o, int pidfd, const struct pollfd *pf)
{
	if (pidfd >= 0)
		return pf[1].revents & POLLIN;
	if (waitpid(o->pid, &o->status, WNOHANG) == o->pid)
		o->reaped = true;
	return o->reaped;
}

/*
 * The program's output, read from fd while it runs and capped while it is
 * written (UD_CAP_PROGRAM_OUTPUT): past the cap it is killed, and nothing of
 * it ever lands in a file.  Reading ends at the end of the output, or once
 * the program has exited and what it wrote is read (a helper it left may
 * hold the pipe open).  0 with o->buf NUL-terminated, or -1 with err.
 */
static int collect_output(struct output *o, int fd, const char *name, struct ud_err *err)
{
	int pidfd = (int)syscall(SYS_pidfd_open, o->pid, 0), ret = 0;
	bool exited = false;

	for (;;) {
		struct pollfd pf[2] = { { .fd = fd, .events = POLLIN }, { .fd = pidfd, .events = POLLIN } };
		int r = poll(pf, pidfd >= 0 ? 2 : 1, exited ? 0 : pidfd >= 0 ? -1 : EXIT_POLL_MS);
		ssize_t k;

		if (r < 0 && errno == EINTR)
			continue;
		if (r > 0 && pf[0].revents) {
			if ((k = read_more(o, fd)) == 0)
				break;
			if (k < 0 && errno == ENOMEM) {
				ret = ud_fail(err, "%s: out of memory for its output", name);
				break;
			}
			if (o->len > UD_CAP_PROGRAM_OUTPUT) {
				ret = ud_fail(err, "%s: its output passed the %zu MiB limit: stopped", name,
					      UD_CAP_PROGRAM_OUTPUT >> 20);
				break;
			}
			continue;
		}
		if (exited)
			break;
		exited = has_exited(o, pidfd, pf);
	}
	if (ret != 0 && !o->reaped)
		kill(o->pid, SIGKILL);
	if (pidfd >= 0)
		close(pidfd);
	while (!o->reaped && waitpid(o->pid, &o->status, 0) < 0 && errno == EINTR)
		;
	o->reaped = true;
	if (o->buf) {
		/* A NUL is no text: read as a line break, so that the lines after it still count (regexec stops at one). */
		for (char *z = memchr(o->buf, '\0', o->len); z; z = memchr(z, '\0', o->len - (size_t)(z - o->buf)))
			*z = '\n';
		o->buf[o->len] = '\0';
	}
	return ret;
}

/* "killed by signal 11 (SIGSEGV)", "exited with status 2": what became of the program. */
static void describe_status(int status, char *buf, size_t len)
{
	const char *abbrev = WIFSIGNALED(status) ? sigabbrev_np(WTERMSIG(status)) : NULL;

	if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s%s)", WTERMSIG(status), abbrev ? "SIG" : "",
			 abbrev ? abbrev : "real-time");
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

/*
 * The most a failed program's own last line adds to its outcome: enough for
 * "license server unreachable" or a path and errno, short of the error
 * message's room, so the exit status before it is never what gets cut.
 */
#define LAST_LINE_MAX 200

/*
 * ": license server unreachable": the last line of the program's output
 * that is not blank, which is where a failing program says why; "" when
 * it said nothing.  A longer line keeps its end, marked "...".
 */
static void last_line(const char *out, size_t len, char *buf, size_t blen)
{
	size_t end = len, start;

	while (end > 0 && isspace((unsigned char)out[end - 1]))
		end--;
	start = end;
	while (start > 0 && out[start - 1] != '\n')
		start--;
	while (start < end && isspace((unsigned char)out[start]))
		start++;
	buf[0] = '\0';
	if (start == end)
		return;
	if (end - start > LAST_LINE_MAX)
		snprintf(buf, blen, ": ...%.*s", LAST_LINE_MAX, out + end - LAST_LINE_MAX);
	else
		snprintf(buf, blen, ": %.*s", (int)(end - start), out + start);
}

/* Forks the program with its output on a pipe, returns its output (o->buf) and wait status; 0, or -1 with err. */
static int run_program(const struct ud_spec *s, const char *binary, char **argv, char **envs, const char *tmpdir,
		       struct output *o, struct ud_err *err)
{
	int p[2], ret;

	if (pipe2(p, O_CLOEXEC) != 0)
		return ud_fail(err, "%s: pipe: %s", s->name, strerror(errno));
	o->pid = fork();
	if (o->pid < 0) {
		close(p[0]);
		close(p[1]);
		return ud_fail(err, "fork: %s", strerror(errno));
	}
	if (o->pid == 0) {
		close(p[0]);
		exec_program(binary, argv, envs, p[1], tmpdir);
	}
	close(p[1]);
	ret = collect_output(o, p[0], s->name, err);
	close(p[0]);
	return ret;
}

/*
 * Runs the program once; the runner's counters, inherited, count it from its
 * exec.  Its wall time, from fork to reaping, is the elapsed time UnixBench's
 * Run divides a COUNT total by.
 */
static int spec_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	const struct ud_spec *s = ctx->data;
	char cmd[2048], envbuf[2048], binary[4096], how[64], said[LAST_LINE_MAX + 8];
	char *argv[MAX_ARGS + 1], *envs[MAX_ARGS + 1];
	struct output o = { 0 };
	uint64_t t0, elapsed;
	int ret;

	(void)iters;
	if (expand_words(s->command, ctx->tmpdir, cmd, sizeof(cmd), argv, err) != 0 ||
	    expand_words(s->env, ctx->tmpdir, envbuf, sizeof(envbuf), envs, err) != 0)
		return -1;
	if (ud_which(argv[0], binary, sizeof(binary), err) != 0)
		return ud_err_prefix(err, "%s", s->name);
	t0 = ud_now_ns();
	ret = run_program(s, binary, argv, envs, ctx->tmpdir, &o, err);
	elapsed = ud_now_ns() - t0;
	if (ret == 0 && (!WIFEXITED(o.status) || WEXITSTATUS(o.status) != 0)) {
		describe_status(o.status, how, sizeof(how));
		last_line(o.buf ? o.buf : "", o.len, said, sizeof(said));
		ret = ud_fail(err, "%s %s%s", argv[0], how, said);
	}
	if (ret == 0)
		ret = ud_spec_score(s, o.buf ? o.buf : "", (double)elapsed / 1e9, &ctx->score, ctx->score_units,
				    sizeof(ctx->score_units), err);
	free(o.buf);
	if (ret != 0)
		return -1;
	/* A ratio of scores needs both positive: 0 or -5 is a broken benchmark, not a result. */
	if (!(ctx->score > 0))
		return ud_fail(err, "%s: its output gives the score %g: a score must be positive", s->name, ctx->score);
	return 0;
}
