/*
 * `perf report --stdio` output as the hotspots of a workload: the table
 *
 *   # Samples: 747  of event 'cpu-clock'
 *   # Overhead  Command    Shared Object      Symbol
 *   # ........  .........  .................  ......................
 *       37.35%  uarchdiff  [kernel.kallsyms]  [k] do_syscall_64
 *
 * (with callchains, "# Children  Self  Command ...": the Self column).
 * perf pads every column to its dotted rule, so the rule gives where each
 * column starts; the symbol runs to the end of the line.  Callchain lines
 * and anything else without a leading percentage are skipped.  Only the
 * first event's table is read.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_lines.h"
#include "import_parsers.h"

/* The columns read; Children only to know where it ends (its share counts callees too). */
enum column { COL_CHILDREN, COL_OVERHEAD, COL_SELF, COL_COMMAND, COL_DSO, COL_SYMBOL, COL_COUNT };

static const char *const column_names[COL_COUNT] = { "Children", "Overhead", "Self", "Command", "Shared Object",
						      "Symbol" };

struct report {
	const char *name;
	struct ud_err *err;
	struct ud_hotspots *h;
	int start[COL_COUNT];  /* where each column starts; -1 absent */
	int header_line;       /* the "# Overhead ..." line; 0 until seen */
	bool ruled;            /* the dotted rule under it was read */
	char command[256];     /* the Command with the largest share so far */
	double command_share;
	size_t rows;
};

/* "747", "10K", "1M": perf shortens large sample counts. */
static double sample_count(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s)
		return NAN;
	if (*end == 'K')
		v *= 1e3;
	else if (*end == 'M')
		v *= 1e6;
	return v;
}

/* "# Samples: 747  of event 'cpu-clock'": the count and the event; false for a second event's. */
static bool read_samples(struct report *r, const char *line)
{
	const char *ev = strstr(line, "of event '");
	const char *q = ev ? strchr(ev + 10, '\'') : NULL;

	if (r->h->sampling.event || r->header_line)
		return false;
	r->h->sampling.samples = sample_count(line + strlen("# Samples:"));
	if (q)
		r->h->sampling.event = strndup(ev + 10, (size_t)(q - ev - 10));
	return true;
}

/* The header names its columns; the rule under it says where each starts. */
static void read_header(struct report *r, const char *line, int lineno)
{
	for (int c = 0; c < COL_COUNT; c++)
		r->start[c] = strstr(line, column_names[c]) ? 0 : -1;
	r->header_line = lineno;
}

static void read_rule(struct report *r, const char *header, const char *line)
{
	int col = 0, present[COL_COUNT], n = 0;
	const char *p = line + 1;

	/* The columns in the header's order. */
	for (int c = 0; c < COL_COUNT; c++)
		if (r->start[c] == 0)
			present[n++] = c;
	for (int i = 0; i < n; i++) /* sort by position in the header */
		for (int k = i + 1; k < n; k++)
			if (strstr(header, column_names[present[k]]) < strstr(header, column_names[present[i]])) {
				int t = present[i];

				present[i] = present[k];
				present[k] = t;
			}
	while (*p && col < n) {
		while (*p == ' ')
			p++;
		if (*p != '.')
			break;
		r->start[present[col++]] = (int)(p - line);
		while (*p == '.')
			p++;
	}
	r->ruled = col == n;
}

/* The text of column c in line, trimmed, into buf. */
static void field(const struct report *r, const char *line, enum column c, char *buf, size_t len)
{
	size_t ll = strlen(line), from, to = ll;

	buf[0] = '\0';
	if (r->start[c] < 0 || (size_t)r->start[c] >= ll)
		return;
	from = (size_t)r->start[c];
	for (int k = 0; k < COL_COUNT; k++)
		if (r->start[k] > r->start[c] && (size_t)r->start[k] < to)
			to = (size_t)r->start[k];
	while (from < to && line[from] == ' ')
		from++;
	while (to > from && isspace((unsigned char)line[to - 1]))
		to--;
	snprintf(buf, len, "%.*s", (int)(to - from), line + from);
}

static int add_row(struct report *r, const char *line, int lineno)
{
	enum column share_col = r->start[COL_SELF] >= 0 ? COL_SELF : COL_OVERHEAD;
	char pct[32], cmd[256], dso[1024], sym[2048], name[3100];
	enum ud_mode mode = UD_MODE_USER;
	const char *s = sym;
	char *end;
	double share;

	field(r, line, share_col, pct, sizeof(pct));
	share = strtod(pct, &end) / 100;
	if (end == pct || *end != '%' || share == 0)
		return 0; /* a callchain line, a line cut short, or a caller with no samples of its own */
	if (!(share >= 0 && share <= 1))
		return ud_fail(r->err, "%s:%d: overhead %s is not a percentage", r->name, lineno, pct);
	field(r, line, COL_COMMAND, cmd, sizeof(cmd));
	field(r, line, COL_DSO, dso, sizeof(dso));
	field(r, line, COL_SYMBOL, sym, sizeof(sym));
	if (sym[0] == '[' && sym[1] && sym[2] == ']') { /* [k] kernel, [.] user, [g]/[u] guest */
		mode = sym[1] == 'k' || sym[1] == 'g' ? UD_MODE_KERNEL : UD_MODE_USER;
		s = sym + 3 + (sym[3] == ' ');
	}
	if (!*s)
		return ud_fail(r->err, "%s:%d: a row without a symbol", r->name, lineno);
	/* perf prints an address it could not name: the project's "[unknown] FILE+0xOFFSET". */
	if (strncmp(s, "0x", 2) == 0 && strspn(s + 2, "0123456789abcdef") == strlen(s + 2))
		snprintf(name, sizeof(name), UD_HOTSPOT_UNKNOWN " %s+0x%llx", dso, strtoull(s, NULL, 16));
	else
		snprintf(name, sizeof(name), "%s", s);
	if (*cmd && share > r->command_share) {
		snprintf(r->command, sizeof(r->command), "%s", cmd);
		r->command_share = share;
	}
	r->rows++;
	return ud_hotspots_add(r->h, name, *dso ? dso : NULL, mode, share, round(share * r->h->sampling.samples)) != 0
		       ? ud_fail(r->err, "out of memory")
		       : 0;
}

/* Reads the first event's table into r->h; -1 with err. */
static int read_table(struct report *r, const char *text, size_t len)
{
	struct lines l;
	char *line, header[1024] = "";
	int ret = 0;

	imp_lines_init(&l, text, len);
	while (ret == 0 && (line = imp_lines_next(&l)) != NULL) {
		if (strncmp(line, "# Samples:", 10) == 0) {
			if (!read_samples(r, line))
				break; /* the next event's table */
		} else if (!r->header_line && line[0] == '#' && strstr(line, "Symbol") &&
			   (strstr(line, "Overhead") || strstr(line, "Self"))) {
			read_header(r, line, l.lineno);
			snprintf(header, sizeof(header), "%s", line);
		} else if (r->header_line && !r->ruled && line[0] == '#' && strstr(line, "..")) {
			read_rule(r, header, line);
		} else if (r->ruled && line[0] != '#') {
			ret = add_row(r, line, l.lineno);
		}
	}
	imp_lines_free(&l);
	return ret;
}

int imp_perf_report(struct ud_profile *p, const char *text, size_t len, const char *name,
		       const struct ud_import_opts *o, struct ud_err *err)
{
	struct report r = { .name = name, .err = err, .h = ud_hotspots_new() };
	struct ud_workload *w = NULL;
	const char *wname;

	if (!r.h)
		return ud_fail(err, "out of memory");
	/* perf ends every line: an unterminated last one was cut short, and its symbol may be too. */
	while (len && text[len - 1] != '\n')
		len--;
	if (read_table(&r, text, len) != 0)
		goto fail;
	if (!r.header_line || !r.ruled) {
		ud_fail(err, "%s: no '# Overhead ... Symbol' table with its dotted rule: not 'perf report --stdio' output",
			name);
		goto fail;
	}
	if (!r.rows) {
		ud_fail(err, "%s:%d: the perf report table has no rows", name, r.header_line);
		goto fail;
	}
	if (ud_hotspots_finish(r.h) != 0) {
		ud_fail(err, "out of memory");
		goto fail;
	}
	wname = o->workload ? o->workload : r.command[0] ? r.command : name;
	/* The workload perf stat output in the same import named, else a new one. */
	for (size_t i = 0; i < p->nworkloads && !w; i++)
		if (strcmp(p->workloads[i].name, wname) == 0 && !p->workloads[i].hotspots)
			w = &p->workloads[i];
	if (!w && !(w = ud_profile_add_workload(p, wname))) {
		ud_fail(err, "out of memory");
		goto fail;
	}
	w->hotspots = r.h;
	return 0;
fail:
	ud_hotspots_free(r.h);
	return -1;
}
