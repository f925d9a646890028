/*
 * import_perf_command.c - a pasted perf stat command line read for its
 * options (import_perf_command.h), as tools/perf/builtin-stat.c's option
 * table declares them.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_perf_command.h"
#include "text.h"

/*
 * Longest value kept: only -r's count is read from one, so a longer value
 * (an -e list) is cut, never misread; option words get four times that.
 */
#define OPTION_WORD_MAX 32

/*
 * perf stat's options that take their argument in the next word: short
 * ones (e, p, t, C, r, x, G, o, I, M, D, b), and long ones; every other
 * option is a flag or takes its value after '=' (--iostat=...).
 */
static const char short_with_arg[] = "eptCrxGoIMDb";
static const char *const long_with_arg[] = {
	"event", "filter", "pid", "tid", "cpu", "repeat", "field-separator", "cgroup", "output", "log-fd", "pre",
	"post", "interval-print", "interval-count", "timeout", "metrics", "delay", "for-each-cgroup", "td-level",
	"control", "bpf-prog", "bpf-attr-map", "cputype", "pfm-events",
};

static bool long_takes_arg(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(long_with_arg) / sizeof(long_with_arg[0]); i++)
		if (strlen(long_with_arg[i]) == n && strncmp(long_with_arg[i], name, n) == 0)
			return true;
	return false;
}

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The word at *s (up to a blank) into word, *s moved past it and the blanks after; false at the end. */
static bool next_word(const char **s, char *word, size_t len)
{
	size_t n = strcspn(*s, " \t");

	if (n == 0)
		return false;
	snprintf(word, len, "%.*s", (int)n, *s);
	*s = skip_blank(*s + n);
	return true;
}

/* -r's N, or 0 where it is not a whole number above 0 (perf refuses those). */
static int repeat_of(const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	return end != arg && !*end && n > 0 && n <= INT_MAX ? (int)n : 0;
}

/* "--name[=value]", its value in the word or, for an option that takes one, the next word. */
static void long_option(const char *word, const char **rest, struct ud_perf_command *out, int *repeat)
{
	const char *name = word + 2, *eq = strchr(name, '='), *arg = eq ? eq + 1 : NULL;
	size_t n = eq ? (size_t)(eq - name) : strlen(name);
	char value[OPTION_WORD_MAX];

	if (n == 8 && strncmp(name, "all-user", n) == 0)
		out->all_user = true;
	else if (n == 10 && strncmp(name, "all-kernel", n) == 0)
		out->all_kernel = true;
	else if (n == 8 && strncmp(name, "all-cpus", n) == 0)
		out->system_wide = true;
	if (!arg && long_takes_arg(name, n) && next_word(rest, value, sizeof(value)))
		arg = value;
	if (arg && n == 6 && strncmp(name, "repeat", n) == 0)
		*repeat = repeat_of(arg);
}

/* "-ad", "-r5", "-e cycles": bundled flags, the first that takes a value taking the rest of the word or the next. */
static void short_options(const char *word, const char **rest, struct ud_perf_command *out, int *repeat)
{
	char value[OPTION_WORD_MAX];

	for (const char *c = word + 1; *c; c++) {
		const char *arg;

		if (*c == 'a')
			out->system_wide = true;
		if (!strchr(short_with_arg, *c))
			continue;
		arg = c[1] ? c + 1 : next_word(rest, value, sizeof(value)) ? value : "";
		if (*c == 'r')
			*repeat = repeat_of(arg);
		return;
	}
}

/* The options after "stat", up to the counted command or "--". */
static void read_options(const char *s, struct ud_perf_command *out, int *repeat)
{
	char word[OPTION_WORD_MAX * 4];

	while (next_word(&s, word, sizeof(word))) {
		if (word[0] != '-' || !word[1] || strcmp(word, "--") == 0)
			return;
		if (word[1] == '-')
			long_option(word, &s, out, repeat);
		else
			short_options(word, &s, out, repeat);
	}
}

/* Whether the text before perf, s[0..n), is a shell prompt, sudo, or nothing. */
static bool prompt_before(const char *s, size_t n)
{
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= 4 && strncmp(s + n - 4, "sudo", 4) == 0 && (n == 4 || isspace((unsigned char)s[n - 5])))
		return prompt_before(s, n - 4);
	return n == 0 || strchr("$#%>", s[n - 1]) != NULL;
}

/*
 * Where the word "perf" (or a path ending in /perf) followed by "stat"
 * starts in line, *options set past "stat"; NULL none.
 */
/*
 * The next "perf" at or after s, or NULL: through strchr() to each 'p',
 * which a counter row mostly lacks or holds once ("page-faults"), a
 * fraction of what strstr() costs on every row of a long paste.
 */
static const char *next_perf(const char *s)
{
	while ((s = strchr(s, 'p')) != NULL && !(s[1] == 'e' && s[2] == 'r' && s[3] == 'f'))
		s++;
	return s;
}

static const char *perf_stat_at(const char *line, const char **options)
{
	for (const char *p = next_perf(line); p; p = next_perf(p + 1)) {
		const char *start = p, *after = skip_blank(p + 4);

		if (after == p + 4 || strncmp(after, "stat", 4) != 0 || (after[4] && !isspace((unsigned char)after[4])))
			continue;
		while (start > line && !isspace((unsigned char)start[-1]))
			start--;
		if ((start == p || p[-1] == '/') && prompt_before(line, (size_t)(start - line))) {
			*options = skip_blank(after + 4);
			return start;
		}
	}
	return NULL;
}

bool imp_has_perf_command(const char *line)
{
	const char *options;

	return perf_stat_at(line, &options) != NULL;
}

bool imp_perf_command_of(const char *line, struct ud_perf_command *out, int *repeat)
{
	const char *options, *start = perf_stat_at(line, &options);
	size_t n;

	if (!start)
		return false;
	*out = (struct ud_perf_command){ 0 };
	*repeat = 0;
	n = strlen(start);
	while (n && isspace((unsigned char)start[n - 1]))
		n--;
	out->line = strndup(start, n);
	if (out->line)
		ud_utf8_sanitize(out->line);
	read_options(options, out, repeat);
	return true;
}
