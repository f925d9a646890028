/*
 * import.c - the importers' public face (import.h): format names, format
 * detection, and dispatch of a file or buffer to its parser.
 *
 * The top of the import modules: it calls the parsers (import_parsers.h),
 * which call the shared pieces below them (import_rows, import_block,
 * import_number, import_event_name, import_lines); nothing calls back up.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "import.h"
#include "import_lines.h"
#include "import_parsers.h"

static const char *const format_names[] = {
	[UD_FMT_AUTO] = "auto",
	[UD_FMT_PERF_TEXT] = "perf-text",
	[UD_FMT_PERF_CSV] = "perf-csv",
	[UD_FMT_PERF_JSON] = "perf-json",
	[UD_FMT_UNIXBENCH] = "unixbench",
};

int ud_import_format_parse(const char *name, enum ud_import_format *out)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (strcmp(name, format_names[i]) == 0) {
			*out = (enum ud_import_format)i;
			return 0;
		}
	}
	return -1;
}

const char *ud_import_format_name(enum ud_import_format f)
{
	return format_names[f];
}

/* The n-th field of line split at sep, into buf. */
static const char *csv_field(const char *line, char sep, int n, char *buf, size_t len)
{
	for (; n > 0 && line; n--) {
		line = strchr(line, sep);
		line = line ? line + 1 : NULL;
	}
	if (!line)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(line, (char[]){ sep, '\0' }), line);
	return buf;
}

/* value,unit,event,...: a number (or <not ...>) first, an event name third, after an optional time or CPU. */
static bool looks_csv(const char *line)
{
	for (const char *sep = ",;"; *sep; sep++) {
		char f0[64], f2[64];
		int skip = 0;

		if (!csv_field(line, *sep, 0, f0, sizeof(f0)))
			continue;
		if (strncmp(f0, "CPU", 3) == 0 || (strchr(f0, '.') && strlen(strchr(f0, '.') + 1) == 9))
			skip = 1;
		if (!csv_field(line, *sep, skip, f0, sizeof(f0)) || !csv_field(line, *sep, skip + 2, f2, sizeof(f2)))
			continue;
		if ((isdigit((unsigned char)f0[0]) || strncmp(f0, "<not ", 5) == 0) && isalpha((unsigned char)f2[0]) &&
		    !strchr(f0, ' '))
			return true;
	}
	return false;
}

enum ud_import_format ud_import_detect(const char *text, size_t len)
{
	struct lines l;
	enum ud_import_format f = UD_FMT_PERF_TEXT;
	char *line;
	int n = 0;

	lines_init(&l, text, len);
	while ((line = lines_next(&l)) != NULL && n < 200) {
		while (isspace((unsigned char)*line))
			line++;
		if (!*line || strncmp(line, "# started on", 12) == 0)
			continue;
		n++;
		if (strstr(line, "System Benchmarks Index") || strstr(line, "BYTE UNIX Benchmarks")) {
			f = UD_FMT_UNIXBENCH;
			break;
		}
		if (line[0] == '{' && (strstr(line, "\"counter-value\"") || strstr(line, "\"event\""))) {
			f = UD_FMT_PERF_JSON;
			break;
		}
		if (looks_csv(line)) {
			f = UD_FMT_PERF_CSV;
			break;
		}
		if (strstr(line, "Performance counter stats for"))
			break;
	}
	lines_free(&l);
	return f;
}

static bool binary(const char *text, size_t len)
{
	return memchr(text, '\0', len) != NULL;
}

int ud_import_buffer(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err)
{
	enum ud_import_format f = o->format == UD_FMT_AUTO ? ud_import_detect(text, len) : o->format;
	size_t before = p->nworkloads;
	int ret;

	if (len == 0)
		return ud_fail(err, "%s: empty file", name);
	if (binary(text, len))
		return ud_fail(err, "%s: a binary file, not perf stat output or a UnixBench log", name);
	switch (f) {
	case UD_FMT_PERF_CSV: ret = import_perf_csv(p, text, len, name, o, err); break;
	case UD_FMT_PERF_JSON: ret = import_perf_json(p, text, len, name, o, err); break;
	case UD_FMT_UNIXBENCH: ret = import_unixbench(p, text, len, name, o, err); break;
	default: ret = import_perf_text(p, text, len, name, o, err); break;
	}
	if (ret != 0) {
		/* Leave the profile as it was: drop what this file added. */
		while (p->nworkloads > before)
			ud_profile_drop_last_workload(p);
	}
	return ret;
}

int ud_import_file(struct ud_profile *p, const char *path, const struct ud_import_opts *o, struct ud_err *err)
{
	size_t len;
	char *text = ud_read_file(path, &len, err);
	int ret;

	if (!text)
		return -1;
	ret = ud_import_buffer(p, text, len, path, o, err);
	free(text);
	return ret;
}
