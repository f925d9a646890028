/*
 * import.c - the importers' public face (import.h): format names, format
 * detection, and dispatch of a file or buffer to its parser.
 *
 * The top of the import modules: it calls the parsers (import_parsers.h),
 * which call the shared pieces below them (imp_rows, import_block,
 * import_number, import_event_name, import_lines); nothing calls back up.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "fileio.h"
#include "import.h"
#include "import_lines.h"
#include "import_number.h"
#include "import_parsers.h"
#include "import_warnings.h"
#include "uarch.h"

/* Each format's --format name, and what a file of it is, in a sentence about one. */
static const struct {
	const char *name, *noun;
} formats[] = {
	[UD_FMT_AUTO] = { "auto", "an input" },
	[UD_FMT_PERF_TEXT] = { "perf-text", "a perf stat paste (text)" },
	[UD_FMT_PERF_CSV] = { "perf-csv", "a perf stat paste (-x CSV)" },
	[UD_FMT_PERF_JSON] = { "perf-json", "a perf stat paste (-j JSON)" },
	[UD_FMT_UNIXBENCH] = { "unixbench", "a UnixBench log" },
	[UD_FMT_PERF_REPORT] = { "perf-report", "a perf report" },
	[UD_FMT_LKP] = { "lkp", "a kernel test robot table" },
	[UD_FMT_REDIS] = { "redis-benchmark", "a redis-benchmark report" },
	[UD_FMT_WRK] = { "wrk", "a wrk report" },
	[UD_FMT_PERFSPECT] = { "perfspect", "a PerfSpect metric summary" },
	[UD_FMT_TOPDOWN_TOOL] = { "topdown-tool", "a topdown-tool metrics CSV" },
	[UD_FMT_UPROF_PCM] = { "uprof-pcm", "an AMDuProfPcm CSV report" },
};

int ud_import_format_parse(const char *name, enum ud_import_format *out)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (strcmp(name, formats[i].name) == 0) {
			*out = (enum ud_import_format)i;
			return 0;
		}
	}
	return -1;
}

struct ud_import_seen *ud_import_seen_new(void)
{
	struct ud_import_seen *s = malloc(sizeof(*s));

	if (s && !(s->at = json_object())) {
		free(s);
		return NULL;
	}
	return s;
}

void ud_import_seen_free(struct ud_import_seen *s)
{
	if (s)
		json_decref(s->at);
	free(s);
}

int ud_import_side_parse(const char *name, enum ud_import_side *out)
{
	if (strcmp(name, "base") == 0)
		*out = UD_IMPORT_SIDE_BASE;
	else if (strcmp(name, "head") == 0)
		*out = UD_IMPORT_SIDE_HEAD;
	else
		return -1;
	return 0;
}

static int bad_scores(double *values, const char *arg, struct ud_err *err)
{
	free(values);
	return ud_fail(err, "--score needs a positive number or a list of them, V1,V2,...[:UNITS], not '%s'", arg);
}

int ud_import_scores_parse(const char *arg, struct ud_import_opts *o, struct ud_err *err)
{
	const char *colon = strchr(arg, ':'), *end = colon ? colon : arg + strlen(arg), *p = arg;
	size_t n = 1;
	double *values;

	for (const char *c = arg; c < end; c++)
		n += *c == ',';
	values = malloc(n * sizeof(*values));
	if (!values)
		return ud_fail(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		char *stop;

		errno = 0;
		values[i] = strtod(p, &stop);
		/* each item whole, positive and finite: a ratio of scores needs both sides above 0 */
		if (errno || stop == p || (stop != end && *stop != ',') || !(values[i] > 0) || !isfinite(values[i]) ||
		    (i + 1 < n) != (*stop == ','))
			return bad_scores(values, arg, err);
		p = stop + 1;
	}
	if (colon && !colon[1])
		return bad_scores(values, arg, err);
	o->scores = values;
	o->nscores = n;
	o->score_units = colon ? colon + 1 : NULL;
	return 0;
}

/* UTF-8's byte order mark, which Windows editors put first: not part of the first line. */
static const char utf8_bom[] = "\xef\xbb\xbf";

/* Lines looked at before deciding a file is perf's text form. */
#define DETECT_MAX_LINES 200

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
		/* --per-socket's "S0,1," after the timestamp, if any: the aggregation and its CPUs */
		if (csv_field(line, *sep, skip, f0, sizeof(f0)) && imp_is_aggregation_id(f0, strlen(f0)))
			skip += 2;
		if (!csv_field(line, *sep, skip, f0, sizeof(f0)) || !csv_field(line, *sep, skip + 2, f2, sizeof(f2)))
			continue;
		/* A VM's file may hold nothing but "<not supported>" hardware rows. */
		/* a negative count is CSV too, for the parser to refuse by name */
		if (((isdigit((unsigned char)f0[f0[0] == '-']) && !strchr(f0, ' ')) || strcmp(f0, "<not supported>") == 0 ||
		     strcmp(f0, "<not counted>") == 0) &&
		    isalpha((unsigned char)f2[0]))
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

	if (len >= 3 && memcmp(text, utf8_bom, 3) == 0) {
		text += 3;
		len -= 3;
	}
	/* another tool's summary: its header line, first */
	if (imp_perfspect_detect(text, len))
		return UD_FMT_PERFSPECT;
	if (imp_topdown_tool_detect(text, len))
		return UD_FMT_TOPDOWN_TOOL;
	if (imp_uprof_pcm_detect(text, len))
		return UD_FMT_UPROF_PCM;
	/* first, and in the whole file: a robot mail's table may start after more than DETECT_MAX_LINES lines of prose */
	if (imp_lkp_detect(text, len))
		return UD_FMT_LKP;
	/* a UnixBench log may follow pages of the host's description (its /proc/cpuinfo): its banner decides */
	if (memmem(text, len, "BYTE UNIX Benchmarks", 20) && memmem(text, len, "System Benchmarks Index", 23))
		return UD_FMT_UNIXBENCH;
	/*
	 * A server benchmark's report, unless perf stat counted it: `perf stat
	 * wrk ...` prints wrk's report above its block, and is a perf paste.
	 */
	if (!memmem(text, len, "Performance counter stats for", 29) && !memmem(text, len, "\"counter-value\"", 15)) {
		if (imp_wrk_detect(text, len))
			return UD_FMT_WRK;
		if (imp_redis_detect(text, len))
			return UD_FMT_REDIS;
	}
	imp_lines_init(&l, text, len);
	while ((line = imp_lines_next(&l)) != NULL && n < DETECT_MAX_LINES) {
		while (isspace((unsigned char)*line))
			line++;
		if (!*line || strncmp(line, "# started on", 12) == 0)
			continue;
		n++;
		if (strncmp(line, "# Samples:", 10) == 0 || strncmp(line, "# Overhead", 10) == 0 ||
		    strncmp(line, "# Children", 10) == 0) {
			f = UD_FMT_PERF_REPORT;
			break;
		}
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
	imp_lines_free(&l);
	return f;
}

static int line_of(const char *text, size_t at)
{
	int line = 1;

	for (size_t i = 0; i < at; i++)
		line += text[i] == '\n';
	return line;
}

/* The perf stat formats, which read line by line and can be streamed from a file of any size. */
static bool streams(enum ud_import_format f)
{
	return f == UD_FMT_PERF_TEXT || f == UD_FMT_PERF_CSV || f == UD_FMT_PERF_JSON;
}

static int dispatch_lines(struct ud_profile *p, enum ud_import_format f, struct lines *l, const char *name,
			  const struct ud_import_opts *o, struct ud_err *err)
{
	switch (f) {
	case UD_FMT_PERF_CSV: return imp_perf_csv(p, l, name, o, err);
	case UD_FMT_PERF_JSON: return imp_perf_json(p, l, name, o, err);
	default: return imp_perf_text(p, l, name, o, err);
	}
}

/* l: a streamed file's lines, for a format that streams(); NULL: the format reads text[0..len). */
static int dispatch(struct ud_profile *p, enum ud_import_format f, struct lines *l, const char *text, size_t len,
		    const char *name, const struct ud_import_opts *o, struct ud_import_warnings *warn,
		    struct ud_err *err)
{
	struct lines mine;
	int ret;

	if (streams(f) && l)
		return dispatch_lines(p, f, l, name, o, err);
	if (streams(f)) {
		imp_lines_init(&mine, text, len);
		ret = dispatch_lines(p, f, &mine, name, o, err);
		imp_lines_free(&mine);
		return ret;
	}
	switch (f) {
	case UD_FMT_UNIXBENCH: return imp_unixbench(p, text, len, name, warn, err);
	case UD_FMT_PERF_REPORT: return imp_perf_report(p, text, len, name, o, err);
	case UD_FMT_LKP: return imp_lkp(p, text, len, name, o, warn, err);
	case UD_FMT_REDIS: return imp_redis(p, text, len, name, o, err);
	case UD_FMT_PERFSPECT: return imp_perfspect(p, text, len, name, o, err);
	case UD_FMT_TOPDOWN_TOOL: return imp_topdown_tool(p, text, len, name, o, err);
	case UD_FMT_UPROF_PCM: return imp_uprof_pcm(p, text, len, name, o, warn, err);
	default: return imp_wrk(p, text, len, name, o, err);
	}
}

/*
 * The names a file gave over their caps (profile.h), refused by the line
 * they came on where the name is there as it is (it may be a name the
 * parser put together, or --workload's), else by the field.
 */
static int check_names(const struct ud_profile *p, size_t from, const char *text, size_t len, const char *name,
		       struct ud_err *err)
{
	const char *long_name = NULL, *at;

	if (ud_profile_check_names(p, from, &long_name, err) == 0)
		return 0;
	at = long_name ? memmem(text, len, long_name, strlen(long_name)) : NULL;
	if (at)
		return ud_err_prefix(err, "%s:%d", name, line_of(text, (size_t)(at - text)));
	return ud_err_prefix(err, "%s", name);
}

/*
 * Whether text is a JSON document of uarchdiff's own with a schema starting
 * with prefix: its "schema" member within the first bytes, where the
 * writer puts it (json_emit's order: schema first).
 */
static bool is_document(const char *text, size_t len, const char *prefix)
{
	static const char key[] = "\"schema\": \"";
	size_t head = len < 256 ? len : 256, plen = strlen(prefix), lead = 0;

	/* within len: the buffer need not end with a NUL (found by fuzz_import on "# ") */
	while (lead < head && (text[lead] == ' ' || text[lead] == '\t' || text[lead] == '\r' || text[lead] == '\n'))
		lead++;
	if (lead == head || text[lead] != '{')
		return false;
	for (size_t i = 0; i + sizeof(key) - 1 + plen <= head; i++)
		if (memcmp(text + i, key, sizeof(key) - 1) == 0)
			return memcmp(text + i + sizeof(key) - 1, prefix, plen) == 0;
	return false;
}

/*
 * What every input is checked for before its format is looked at, on its
 * text (a streamed file's head): *text and *len past a byte order mark.
 */
static int check_text(const char **text, size_t *len, const char *name, struct ud_err *err)
{
	size_t bad;

	if (*len >= 3 && memcmp(*text, utf8_bom, 3) == 0) {
		*text += 3;
		*len -= 3;
	}
	if (*len == 0)
		return ud_fail(err, "%s: empty file", name);
	/* Windows' shell redirection writes UTF-16: every other byte NUL, and a fix the user can run. */
	if (*len >= 2 && (((unsigned char)(*text)[0] == 0xff && (unsigned char)(*text)[1] == 0xfe) ||
			  ((unsigned char)(*text)[0] == 0xfe && (unsigned char)(*text)[1] == 0xff)))
		return ud_fail(err, "%s:1: UTF-16 text: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)", name);
	bad = imp_control_byte(*text, *len);
	if (bad < *len)
		return ud_fail(err, "%s:%d: byte 0x%02x: binary data, not perf stat output or a UnixBench log", name,
			       line_of(*text, bad), (unsigned char)(*text)[bad]);
	if (is_document(*text, *len, "uarchdiff.profile/"))
		return ud_fail(err, "%s: already a uarchdiff profile: give it to 'uarchdiff diff' or 'compare' as it is",
			       name);
	if (is_document(*text, *len, "uarchdiff."))
		return ud_fail(err, "%s: a uarchdiff document (a diff, compare or teach report), not something to import",
			       name);
	return 0;
}

/* o's format, else the one text looks like; -1 with err for a --side asked of a format without sides. */
static int choose_format(const char *text, size_t len, const char *name, const struct ud_import_opts *o,
			 enum ud_import_format *format, struct ud_err *err)
{
	*format = o->format == UD_FMT_AUTO ? ud_import_detect(text, len) : o->format;
	/* a side is a robot table's column: asked of another format it would be silently ignored */
	if (o->side != UD_IMPORT_SIDE_NONE && *format != UD_FMT_LKP)
		return ud_fail(err, "%s: --side takes a side of a kernel test robot table, and this is %s", name,
			       formats[*format].name);
	return 0;
}

/* The parse, with what a failed one leaves behind undone: its workloads, its marks on the host, its warnings. */
static int import_as(struct ud_profile *p, enum ud_import_format format, struct lines *l, const char *text,
		     size_t len, const char *name, const struct ud_import_opts *o, struct ud_import_warnings *warn,
		     struct ud_err *err)
{
	struct ud_import_warnings mine = { 0 };
	size_t before = p->nworkloads;
	int was_incomplete = p->incomplete;
	/* Parsers may mark the host (hybrid, kernel): a failed file must not leave that behind. */
	struct ud_host *host = ud_host_copy(p->host);
	int ret;

	if (!host)
		return ud_fail(err, "out of memory");
	ret = dispatch(p, format, l, text, len, name, o, &mine, err);
	/* a streamed file's names past its head are refused by their field alone */
	if (ret == 0)
		ret = check_names(p, before, text, len, name, err);
	if (ret != 0) {
		while (p->nworkloads > before)
			ud_profile_drop_last_workload(p);
		ud_host_free(p->host);
		p->host = host;
		p->incomplete = was_incomplete;
		ud_import_warnings_free(&mine);
		return ret;
	}
	ud_host_free(host);
	for (size_t i = 0; i < mine.n && warn; i++)
		if (imp_warn(warn, "%s", mine.lines[i]) != 0)
			ret = ud_fail(err, "out of memory");
	ud_import_warnings_free(&mine);
	return ret;
}

int ud_import_buffer_warn(struct ud_profile *p, const char *text, size_t len, const char *name,
			  const struct ud_import_opts *o, struct ud_import_warnings *warn, struct ud_err *err)
{
	enum ud_import_format format;

	if (check_text(&text, &len, name, err) != 0 || choose_format(text, len, name, o, &format, err) != 0)
		return -1;
	return import_as(p, format, NULL, text, len, name, o, warn, err);
}

int ud_import_buffer(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err)
{
	return ud_import_buffer_warn(p, text, len, name, o, NULL, err);
}

/* The file read whole (ud_read_file(), under UD_CAP_IMPORT) and imported as a buffer. */
static int import_whole(struct ud_profile *p, const char *path, const struct ud_import_opts *o,
			struct ud_import_warnings *warn, struct ud_err *err)
{
	size_t len;
	char *text = ud_read_file(path, UD_INPUT_IMPORT, &len, err);
	int ret;

	if (!text)
		return -1;
	ret = ud_import_buffer_warn(p, text, len, path, o, warn, err);
	free(text);
	return ret;
}

/*
 * A file over IMP_LINES_WINDOW, told by its head: a perf stat paste is
 * streamed through a fixed buffer, each row folded into its block's sums as
 * it is read, so memory stays the same for 100 MB as for 1 GB; the other
 * formats (logs and reports, never that large) are read whole.  fd is
 * open on path; the caller closes it.
 */
static int import_streamed(struct ud_profile *p, const char *path, int fd, const struct ud_import_opts *o,
			   struct ud_import_warnings *warn, struct ud_err *err)
{
	char bom[3];
	bool has_bom = pread(fd, bom, 3, 0) == 3 && memcmp(bom, utf8_bom, 3) == 0;
	enum ud_import_format format;
	struct lines l;
	const char *head;
	size_t len;
	int ret;

	if (imp_lines_open(&l, fd, has_bom ? 3 : 0, path, err) != 0)
		return -1;
	head = imp_lines_ahead(&l, &len);
	len = len < IMP_LINES_WINDOW ? len : IMP_LINES_WINDOW; /* what the format is told from, as documented */
	ret = l.failed ? -1 : check_text(&head, &len, path, err);
	if (ret == 0)
		ret = choose_format(head, len, path, o, &format, err);
	if (ret == 0 && streams(format))
		ret = import_as(p, format, &l, NULL, 0, path, o, warn, err);
	imp_lines_free(&l);
	if (ret == 0 && !streams(format))
		ret = import_whole(p, path, o, warn, err);
	return ret;
}

int ud_import_file_warn(struct ud_profile *p, const char *path, const struct ud_import_opts *o,
			struct ud_import_warnings *warn, struct ud_err *err)
{
	struct stat st;
	int fd, ret;

	/* a file past the cap goes to ud_read_file() too, which refuses it before reading a byte */
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size <= IMP_LINES_WINDOW ||
	    (size_t)st.st_size > ud_input_cap(UD_INPUT_IMPORT))
		return import_whole(p, path, o, warn, err);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return ud_fail(err, "%s: %s", path, strerror(errno));
	ret = import_streamed(p, path, fd, o, warn, err);
	close(fd);
	return ret;
}

int ud_import_file(struct ud_profile *p, const char *path, const struct ud_import_opts *o, struct ud_err *err)
{
	return ud_import_file_warn(p, path, o, NULL, err);
}

int ud_import_explain_not_profile(const char *path, struct ud_err *err)
{
	struct ud_import_opts o = { .format = UD_FMT_AUTO };
	struct ud_err ignored = UD_ERR_INIT;
	struct ud_profile *p = ud_profile_new(NULL);
	size_t len, n;
	char *text = p ? ud_read_file(path, UD_INPUT_IMPORT, &len, &ignored) : NULL;
	enum ud_import_format format;

	if (!text || ud_import_buffer(p, text, len, path, &o, &ignored) != 0 || p->nworkloads == 0) {
		free(text);
		ud_profile_free(p);
		return 0;
	}
	format = ud_import_detect(text, len);
	n = p->nworkloads;
	free(text);
	ud_profile_free(p);
	ud_fail(err, "%s: %s with %zu workload%s, not a profile: make one first with 'uarchdiff import -o PROFILE.json %s'",
		path, formats[format].noun, n, n == 1 ? "" : "s", path);
	return 1;
}

int ud_import_load_profiles(char *const *paths, size_t n, struct ud_profile **out, struct ud_err *err)
{
	struct ud_err *errs = calloc(n ? n : 1, sizeof(*errs));
	size_t failed = n;

	if (!errs)
		return ud_fail(err, "out of memory");
	ud_profile_load_each(paths, n, out, errs);
	for (size_t i = 0; i < n && failed == n; i++)
		failed = out[i] ? n : i;
	if (failed < n) {
		ud_import_explain_not_profile(paths[failed], &errs[failed]);
		*err = errs[failed];
		for (size_t i = 0; i < n; i++) {
			ud_profile_free(out[i]);
			out[i] = NULL;
		}
	}
	free(errs);
	return failed < n ? -1 : 0;
}

int ud_import_classify_by_table(struct ud_profile *p)
{
	struct ud_uarch_db db = { 0 };
	struct ud_err ignored = UD_ERR_INIT;
	const struct ud_uarch *u;
	size_t n = 0;

	if (!p->host || !p->host->cpu.uarch)
		return 0;
	/* the tables are an addition here: an install without them imports what the names say */
	if (ud_uarch_db_load(NULL, &db, &ignored) != 0)
		return 0;
	u = ud_uarch_find(&db, p->host->cpu.uarch);
	for (size_t i = 0; u && i < p->nworkloads; i++)
		n += ud_uarch_classify_counters(u, &p->workloads[i]);
	ud_uarch_db_free(&db);
	return (int)n;
}
