#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "event_names.h"
#include "fileio.h"
#include "sort.h"
#include "table_syntax.h"
#include "text.h"
#include "topdown_method.h"
#include "uarch.h"
#include "uarch_cores.h"

static int parse_double(struct ud_ts_parser *p, const char *key, const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	if (end == s || *end || !(*out > 0))
		return ud_ts_error(p, "not a positive number", key);
	return 0;
}

static int parse_ranges(struct ud_ts_parser *p, char *s, struct ud_uarch *u)
{
	for (char *save = NULL, *r = strtok_r(s, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(r, '-');
		long lo, hi;

		if (u->nmodels == sizeof(u->models) / sizeof(u->models[0]))
			return ud_ts_error(p, "too many model ranges", NULL);
		if (dash)
			*dash = '\0';
		if (ud_ts_number(p, "models", r, &lo) || ud_ts_number(p, "models", dash ? dash + 1 : r, &hi))
			return -1;
		if (hi < lo)
			return ud_ts_error(p, "model range ends before it starts", NULL);
		u->models[u->nmodels].lo = lo;
		u->models[u->nmodels++].hi = hi;
	}
	return 0;
}

static int parse_parts(struct ud_ts_parser *p, char *s, struct ud_uarch *u)
{
	for (char *save = NULL, *r = strtok_r(s, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		if (u->nparts == sizeof(u->parts) / sizeof(u->parts[0]))
			return ud_ts_error(p, "too many parts", NULL);
		if (ud_ts_number(p, "parts", r, &u->parts[u->nparts++]))
			return -1;
	}
	return 0;
}

/* snprintf's "%s" without its formatting engine: a sixth of a table's parse went to it (issue 35). */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int directive_detect(struct ud_ts_parser *p, struct ud_uarch *u, struct ud_ts_token *t, int n)
{
	if (n < 2)
		return ud_ts_error(p, "detect needs x86, arm or none", NULL);
	if (strcmp(t[1].key, "none") == 0) {
		u->detect = UD_DETECT_NONE;
		return 0;
	}
	if (strcmp(t[1].key, "x86") != 0 && strcmp(t[1].key, "arm") != 0)
		return ud_ts_error(p, "detect needs x86, arm or none", t[1].key);
	u->detect = strcmp(t[1].key, "x86") == 0 ? UD_DETECT_X86 : UD_DETECT_ARM;
	u->family = u->implementer = -1;
	for (int i = 2; i < n; i++) {
		const char *k = t[i].key;
		char *v = t[i].value;
		int ret = 0;

		if (!t[i].has_value)
			return ud_ts_error(p, "expected key=value", k);
		if (strcmp(k, "vendor") == 0)
			copy(u->vendor, sizeof(u->vendor), v);
		else if (strcmp(k, "family") == 0)
			ret = ud_ts_number(p, k, v, &u->family);
		else if (strcmp(k, "models") == 0)
			ret = parse_ranges(p, v, u);
		else if (strcmp(k, "implementer") == 0)
			ret = ud_ts_number(p, k, v, &u->implementer);
		else if (strcmp(k, "parts") == 0)
			ret = parse_parts(p, v, u);
		else
			ret = ud_ts_error(p, "unknown detect field", k);
		if (ret)
			return -1;
	}
	if (u->detect == UD_DETECT_X86 && (!u->vendor[0] || u->family < 0 || !u->nmodels))
		return ud_ts_error(p, "detect x86 needs vendor, family and models", NULL);
	if (u->detect == UD_DETECT_ARM && (u->implementer < 0 || !u->nparts))
		return ud_ts_error(p, "detect arm needs implementer and parts", NULL);
	return 0;
}

static int directive_event(struct ud_ts_parser *p, struct ud_uarch *u, struct ud_ts_token *t, int n)
{
	struct ud_uarch_event *grown, *e;
	bool has_code = false;

	if (n < 2 || t[1].has_value)
		return ud_ts_error(p, "event needs a generic name", NULL);
	/* The counting engine looks rows up by perf's canonical names: any other row would never be used. */
	if (!ud_generic_event_name(t[1].key) || strcmp(ud_generic_event_name(t[1].key), t[1].key) != 0)
		return ud_ts_error(p, "not one of perf's generic event names", t[1].key);
	grown = realloc(u->events, (u->nevents + 1) * sizeof(*grown));
	if (!grown)
		return ud_ts_error(p, "out of memory", NULL);
	u->events = grown;
	e = &u->events[u->nevents++];
	memset(e, 0, sizeof(*e));
	e->umask = -1;
	copy(e->generic, sizeof(e->generic), t[1].key);
	for (int i = 2; i < n; i++) {
		const char *k = t[i].key, *v = t[i].value;
		long num;

		if (strcmp(k, "unavailable") == 0 && !t[i].has_value) {
			e->unavailable = true;
			continue;
		}
		if (!t[i].has_value)
			return ud_ts_error(p, "expected key=value", k);
		if (strcmp(k, "vendor") == 0) {
			copy(e->vendor, sizeof(e->vendor), v);
		} else if (strcmp(k, "code") == 0) {
			if (ud_ts_number(p, k, v, &num))
				return -1;
			if (num > 0xfff)
				return ud_ts_error(p, "event code above 0xfff", v);
			e->code = (unsigned)num;
			has_code = true;
		} else if (strcmp(k, "umask") == 0) {
			if (ud_ts_number(p, k, v, &num))
				return -1;
			if (num > 0xff)
				return ud_ts_error(p, "unit mask above 0xff", v);
			e->umask = (int)num;
		} else if (strcmp(k, "semantics") == 0) {
			if (strcmp(v, "retired") && strcmp(v, "speculative") && strcmp(v, "cycles"))
				return ud_ts_error(p, "semantics must be retired, speculative or cycles", v);
			copy(e->semantics, sizeof(e->semantics), v);
		} else if (strcmp(k, "includes") == 0) {
			copy(e->includes, sizeof(e->includes), v);
		} else if (strcmp(k, "source") == 0) {
			copy(e->source, sizeof(e->source), v);
		} else if (strcmp(k, "reason") == 0) {
			copy(e->reason, sizeof(e->reason), v);
		} else if (strcmp(k, "pmu") == 0) {
			copy(e->pmu, sizeof(e->pmu), v);
		} else if (strcmp(k, "libpfm4") == 0) {
			if (strcmp(v, "yes") && strcmp(v, "no"))
				return ud_ts_error(p, "libpfm4 must be yes or no", v);
			e->libpfm4 = strcmp(v, "yes") == 0;
		} else {
			return ud_ts_error(p, "unknown event field", k);
		}
	}
	/* a hybrid part lists an event once per core type */
	for (size_t i = 0; i + 1 < u->nevents; i++)
		if (strcmp(u->events[i].generic, e->generic) == 0 && strcmp(u->events[i].pmu, e->pmu) == 0)
			return ud_ts_error(p, "event listed twice", e->generic);
	if (e->unavailable && !e->reason[0])
		return ud_ts_error(p, "an unavailable event needs a reason", e->generic);
	if (!e->unavailable && (!e->vendor[0] || !has_code || !e->semantics[0] || !e->source[0]))
		return ud_ts_error(p, "event needs vendor, code, semantics and source", e->generic);
	return 0;
}

static int directive_penalty(struct ud_ts_parser *p, struct ud_uarch *u, struct ud_ts_token *t, int n)
{
	double *value = NULL;
	char *source = NULL;

	if (n != 3 || !t[1].has_value || !t[2].has_value || strcmp(t[2].key, "source") != 0)
		return ud_ts_error(p, "penalty needs NAME=CYCLES source=\"...\"", NULL);
	if (strcmp(t[1].key, "branch_mispredict") == 0) {
		value = &u->penalty_branch;
		source = u->penalty_branch_source;
	} else if (strcmp(t[1].key, "l1d_miss") == 0) {
		value = &u->penalty_l1d;
		source = u->penalty_l1d_source;
	} else {
		return ud_ts_error(p, "unknown penalty", t[1].key);
	}
	if (parse_double(p, t[1].key, t[1].value, value))
		return -1;
	copy(source, UD_UARCH_TEXT, t[2].value);
	return 0;
}

static int directive_isa(struct ud_ts_parser *p, struct ud_uarch *u, struct ud_ts_token *t, int n)
{
	if (n != 2 || t[1].has_value || strlen(t[1].key) >= sizeof(u->isa))
		return ud_ts_error(p, "isa needs one name (x86_64, aarch64)", NULL);
	copy(u->isa, sizeof(u->isa), t[1].key);
	return 0;
}

/* The other names a person calls the table's parts by, with where they come from. */
static int directive_aliases(struct ud_ts_parser *p, struct ud_uarch *u, struct ud_ts_token *t, int n)
{
	if (u->aliases[0])
		return ud_ts_error(p, "a second aliases line", NULL);
	if (n != 3 || strcmp(t[1].key, "names") != 0 || strcmp(t[2].key, "source") != 0 || !t[1].has_value ||
	    !t[2].has_value)
		return ud_ts_error(p, "aliases needs names=\"A, B, ...\" source=\"...\"", NULL);
	copy(u->aliases, sizeof(u->aliases), t[1].value);
	copy(u->aliases_source, sizeof(u->aliases_source), t[2].value);
	return 0;
}

/* The method the topdown-event and topdown-metric lines after a topdown line belong to. */
static struct ud_td_method *current_method(struct ud_ts_parser *p, struct ud_uarch *u)
{
	if (!u->ntopdown) {
		ud_ts_error(p, "a topdown line must come first", NULL);
		return NULL;
	}
	return &u->topdown[u->ntopdown - 1];
}

static int topdown_field(struct ud_ts_parser *p, struct ud_td_method *m, const struct ud_ts_token *t)
{
	const char *k = t->key, *v = t->value;
	long num;

	if (strcmp(k, "method") == 0) {
		if (ud_topdown_method_parse(v, &m->method) != 0)
			return ud_ts_error(p, "method must be slots, cycle-accounting or none", v);
	} else if (strcmp(k, "level") == 0) {
		if (ud_ts_number(p, k, v, &num) || (num != 1 && num != 2))
			return ud_ts_error(p, "level must be 1 or 2", v);
		m->level = (int)num;
	} else if (strcmp(k, "slots") == 0) {
		m->slots_from_caps = strcmp(v, "caps") == 0;
		m->slots_counted = strcmp(v, "counted") == 0;
		if (!m->slots_from_caps && !m->slots_counted && parse_double(p, k, v, &m->slots))
			return -1;
	} else if (strcmp(k, "pmu") == 0) {
		copy(m->pmu, sizeof(m->pmu), v);
	} else if (strcmp(k, "reason") == 0) {
		copy(m->reason, sizeof(m->reason), v);
	} else if (strcmp(k, "source") == 0) {
		copy(m->source, sizeof(m->source), v);
	} else {
		return ud_ts_error(p, "unknown topdown field", k);
	}
	return 0;
}

static int directive_topdown(struct ud_ts_parser *p, struct ud_uarch *u, struct ud_ts_token *t, int n)
{
	struct ud_td_method *m;
	bool has_method = false;

	if (u->ntopdown == UD_TD_METHODS_MAX)
		return ud_ts_error(p, "more topdown lines than a hybrid part has core types", NULL);
	m = &u->topdown[u->ntopdown++];
	memset(m, 0, sizeof(*m));
	m->slots = NAN;
	m->level = 1;
	for (int i = 1; i < n; i++) {
		if (!t[i].has_value)
			return ud_ts_error(p, "expected key=value", t[i].key);
		has_method |= strcmp(t[i].key, "method") == 0;
		if (topdown_field(p, m, &t[i]))
			return -1;
	}
	if (!has_method)
		return ud_ts_error(p, "topdown needs method=", NULL);
	if (m->method != UD_TD_METHOD_NONE && !m->source[0])
		return ud_ts_error(p, "topdown needs a source", NULL);
	if (m->method == UD_TD_SLOTS && isnan(m->slots) && !m->slots_from_caps && !m->slots_counted)
		return ud_ts_error(p, "a slots method needs slots=N, slots=caps or slots=counted", NULL);
	return 0;
}

static int td_event_field(struct ud_ts_parser *p, struct ud_td_event *e, const struct ud_ts_token *t)
{
	const char *k = t->key, *v = t->value;
	long num;

	if (strcmp(k, "name") == 0) {
		copy(e->name, sizeof(e->name), v);
	} else if (strcmp(k, "source") == 0) {
		copy(e->source, sizeof(e->source), v);
	} else if (strcmp(k, "libpfm4") == 0) {
		copy(e->libpfm4, sizeof(e->libpfm4), v);
	} else if (strcmp(k, "inv") == 0 || strcmp(k, "edge") == 0) {
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return ud_ts_error(p, "inv and edge must be yes or no", v);
		*(strcmp(k, "inv") == 0 ? &e->inv : &e->edge) = strcmp(v, "yes") == 0;
	} else if (strcmp(k, "code") == 0 || strcmp(k, "umask") == 0 || strcmp(k, "cmask") == 0) {
		if (ud_ts_number(p, k, v, &num))
			return -1;
		if (num > (strcmp(k, "code") == 0 ? 0xffff : 0xff))
			return ud_ts_error(p, "too large for its field", k);
		if (strcmp(k, "code") == 0)
			e->code = (unsigned)num;
		else if (strcmp(k, "umask") == 0)
			e->umask = (int)num;
		else
			e->cmask = (int)num;
	} else {
		return ud_ts_error(p, "unknown topdown-event field", k);
	}
	return 0;
}

static int directive_td_event(struct ud_ts_parser *p, struct ud_uarch *u, struct ud_ts_token *t, int n)
{
	struct ud_td_method *m = current_method(p, u);
	struct ud_td_event *grown, *e;
	bool has_code = false;

	if (!m)
		return -1;
	grown = realloc(m->events, (m->nevents + 1) * sizeof(*grown));
	if (!grown)
		return ud_ts_error(p, "out of memory", NULL);
	m->events = grown;
	e = &m->events[m->nevents++];
	memset(e, 0, sizeof(*e));
	e->umask = -1;
	for (int i = 1; i < n; i++) {
		if (!t[i].has_value)
			return ud_ts_error(p, "expected key=value", t[i].key);
		has_code |= strcmp(t[i].key, "code") == 0;
		if (td_event_field(p, e, &t[i]))
			return -1;
	}
	if (!e->name[0] || !has_code || !e->source[0])
		return ud_ts_error(p, "topdown-event needs name, code and source", NULL);
	return 0;
}

static int directive_td_metric(struct ud_ts_parser *p, struct ud_uarch *u, struct ud_ts_token *t, int n)
{
	struct ud_td_method *m = current_method(p, u);
	struct ud_td_metric *grown, *x;
	long num;

	if (!m)
		return -1;
	grown = realloc(m->metrics, (m->nmetrics + 1) * sizeof(*grown));
	if (!grown)
		return ud_ts_error(p, "out of memory", NULL);
	m->metrics = grown;
	x = &m->metrics[m->nmetrics++];
	memset(x, 0, sizeof(*x));
	for (int i = 1; i < n; i++) {
		const char *k = t[i].key, *v = t[i].value;

		if (!t[i].has_value)
			return ud_ts_error(p, "expected key=value", k);
		if (strcmp(k, "name") == 0)
			copy(x->name, sizeof(x->name), v);
		else if (strcmp(k, "expr") == 0)
			copy(x->expr, sizeof(x->expr), v);
		else if (strcmp(k, "source") == 0)
			copy(x->source, sizeof(x->source), v);
		else if (strcmp(k, "level") == 0 && !ud_ts_number(p, k, v, &num) && num <= 2)
			x->level = (int)num;
		else
			return strcmp(k, "level") == 0 ? ud_ts_error(p, "level must be 0, 1 or 2", v)
							: ud_ts_error(p, "unknown topdown-metric field", k);
	}
	if (!x->name[0] || !x->expr[0] || !x->source[0])
		return ud_ts_error(p, "topdown-metric needs name, expr and source", NULL);
	return 0;
}

static int directive_counters(struct ud_ts_parser *p, struct ud_uarch *u, struct ud_ts_token *t, int n)
{
	long v;

	for (int i = 1; i < n; i++) {
		if (!t[i].has_value || ud_ts_number(p, t[i].key, t[i].value, &v))
			return t[i].has_value ? -1 : ud_ts_error(p, "expected key=value", t[i].key);
		if (strcmp(t[i].key, "programmable") == 0)
			u->counters_programmable = (int)v;
		else if (strcmp(t[i].key, "fixed") == 0)
			u->counters_fixed = (int)v;
		else
			return ud_ts_error(p, "unknown counters field", t[i].key);
	}
	if (u->counters_programmable < 1)
		return ud_ts_error(p, "counters needs programmable=N with N >= 1", NULL);
	return 0;
}

static int parse_line(struct ud_ts_parser *p, struct ud_uarch *u, char *line)
{
	struct ud_ts_token t[UD_TS_TOKENS];
	int n;

	while (isspace((unsigned char)*line))
		line++;
	if (strncmp(line, "title", 5) == 0 && isspace((unsigned char)line[5])) {
		char *q = strchr(line, '"'), *e = q ? strrchr(line, '"') : NULL;

		if (!q || e == q)
			return ud_ts_error(p, "title needs a quoted text", NULL);
		snprintf(u->title, sizeof(u->title), "%.*s", (int)(e - q - 1), q + 1);
		return 0;
	}
	if (ud_ts_tokenize(p, line, t, &n))
		return -1;
	if (n == 0)
		return 0;
	if (t[0].has_value)
		return ud_ts_error(p, "expected a directive", t[0].key);
	if (strcmp(t[0].key, "uarch") == 0 && n == 2 && !t[1].has_value) {
		copy(u->name, sizeof(u->name), t[1].key);
		return 0;
	}
	if (strcmp(t[0].key, "libpfm4") == 0 && n == 2 && !t[1].has_value) {
		copy(u->libpfm4_pmu, sizeof(u->libpfm4_pmu), t[1].key);
		return 0;
	}
	if (strcmp(t[0].key, "isa") == 0)
		return directive_isa(p, u, t, n);
	if (strcmp(t[0].key, "aliases") == 0)
		return directive_aliases(p, u, t, n);
	if (strcmp(t[0].key, "detect") == 0)
		return directive_detect(p, u, t, n);
	if (strcmp(t[0].key, "counters") == 0)
		return directive_counters(p, u, t, n);
	if (strcmp(t[0].key, "penalty") == 0)
		return directive_penalty(p, u, t, n);
	if (strcmp(t[0].key, "event") == 0)
		return directive_event(p, u, t, n);
	if (strcmp(t[0].key, "topdown") == 0)
		return directive_topdown(p, u, t, n);
	if (strcmp(t[0].key, "topdown-event") == 0)
		return directive_td_event(p, u, t, n);
	if (strcmp(t[0].key, "topdown-metric") == 0)
		return directive_td_metric(p, u, t, n);
	return ud_ts_error(p, "unknown directive", t[0].key);
}

/* The formulas once the whole table is read: they may name what later lines declare. */
static int check_topdown(struct ud_uarch *u, const char *path, struct ud_err *err)
{
	for (size_t i = 0; i < u->ntopdown; i++) {
		const struct ud_td_method *m = &u->topdown[i];

		if (u->ntopdown > 1 && !m->pmu[0]) {
			ud_uarch_free(u);
			return ud_fail(err, "%s: topdown: a table with two methods names each one's pmu=", path);
		}
		if (ud_topdown_method_check(m, err) != 0) {
			ud_err_prefix(err, "%s: topdown%s%s", path, m->pmu[0] ? " pmu=" : "", m->pmu);
			ud_uarch_free(u);
			return -1;
		}
	}
	return 0;
}

int ud_uarch_parse(FILE *f, const char *path, struct ud_uarch *u, struct ud_err *err)
{
	struct ud_ts_parser p = { path, 0, err };
	char *line = NULL;
	size_t cap = 0;
	bool has_detect = false;

	memset(u, 0, sizeof(*u));
	u->penalty_branch = u->penalty_l1d = NAN;
	copy(u->path, sizeof(u->path), path);
	while (getline(&line, &cap, f) > 0) {
		char *tl;

		p.line++;
		for (tl = line; isspace((unsigned char)*tl); tl++)
			;
		has_detect |= strncmp(tl, "detect", 6) == 0;
		if (parse_line(&p, u, line) != 0) {
			free(line);
			ud_uarch_free(u);
			return -1;
		}
	}
	free(line);
	p.line = 0;
	if (!u->name[0] || !has_detect || !u->counters_programmable) {
		ud_uarch_free(u);
		return ud_fail(err, "%s: a table needs uarch, detect and counters lines", path);
	}
	return check_topdown(u, path, err);
}

/* The table files this process has opened, for the tests and benchmarks of what a command reads. */
static size_t files_read;

size_t ud_uarch_files_read(void)
{
	return files_read;
}

int ud_uarch_parse_file(const char *path, struct ud_uarch *u, struct ud_err *err)
{
	char *buf;
	FILE *f = ud_open_input(path, UD_INPUT_EVENT_TABLE, &buf, err);
	int ret;

	files_read++;
	if (!f) {
		memset(u, 0, sizeof(*u));
		return -1;
	}
	ret = ud_uarch_parse(f, path, u, err);
	fclose(f);
	free(buf);
	return ret;
}

void ud_uarch_free(struct ud_uarch *u)
{
	free(u->events);
	u->events = NULL;
	u->nevents = 0;
	for (size_t i = 0; i < u->ntopdown; i++) {
		free(u->topdown[i].events);
		free(u->topdown[i].metrics);
	}
	u->ntopdown = 0;
}

static int cmp_uarch(const void *a, const void *b)
{
	return strcmp(((const struct ud_uarch *)a)->name, ((const struct ud_uarch *)b)->name);
}

/* The path of d's next table file into path; false after the last. */
static bool next_table(DIR *d, const char *dir, char *path, size_t len)
{
	struct dirent *de;

	while ((de = readdir(d)) != NULL) {
		/* Tables are the files without an extension (README.md is not one). */
		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue;
		snprintf(path, len, "%s/%s", dir, de->d_name);
		/* A FIFO or a folder among the tables is not one: skip it rather than block or fail on it. */
		if (ud_is_regular_file(path))
			return true;
	}
	return false;
}

int ud_uarch_db_load(const char *dir, struct ud_uarch_db *db, struct ud_err *err)
{
	char dirbuf[4096], path[1024];
	DIR *d;

	memset(db, 0, sizeof(*db));
	if (!dir)
		dir = ud_data_dir(UD_DATA_EVENTS, dirbuf, sizeof(dirbuf));
	d = opendir(dir);
	if (!d)
		return ud_fail(err, "%s: cannot read the event tables: %s", dir, strerror(errno));
	while (next_table(d, dir, path, sizeof(path))) {
		struct ud_uarch *grown;

		grown = realloc(db->tables, (db->n + 1) * sizeof(*grown));
		if (!grown) {
			closedir(d);
			ud_uarch_db_free(db);
			return ud_fail(err, "out of memory");
		}
		db->tables = grown;
		if (ud_uarch_parse_file(path, &db->tables[db->n], err) != 0) {
			closedir(d);
			ud_uarch_db_free(db);
			return -1;
		}
		db->n++;
	}
	closedir(d);
	ud_sort(db->tables, db->n, sizeof(*db->tables), cmp_uarch);
	if (!ud_uarch_find(db, "generic")) {
		ud_uarch_db_free(db);
		return ud_fail(err, "%s: no \"generic\" table", dir);
	}
	if (ud_cores_load(dir, db, err) != 0 || ud_uarch_names_check(db, dir, err) != 0) {
		ud_uarch_db_free(db);
		return -1;
	}
	return 0;
}

void ud_uarch_db_free(struct ud_uarch_db *db)
{
	for (size_t i = 0; i < db->n; i++)
		ud_uarch_free(&db->tables[i]);
	free(db->tables);
	db->tables = NULL;
	db->n = 0;
	free(db->cores);
	db->cores = NULL;
	db->ncores = 0;
}

const struct ud_uarch *ud_uarch_find(const struct ud_uarch_db *db, const char *name)
{
	for (size_t i = 0; i < db->n; i++)
		if (strcmp(db->tables[i].name, name) == 0)
			return &db->tables[i];
	return NULL;
}

static bool matches(const struct ud_uarch *u, const struct ud_cpu *cpu)
{
	if (u->detect == UD_DETECT_ARM) {
		if (!cpu->is_arm || cpu->midr_implementer != u->implementer)
			return false;
		for (size_t i = 0; i < u->nparts; i++)
			if (u->parts[i] == cpu->midr_part)
				return true;
		return false;
	}
	if (u->detect == UD_DETECT_X86) {
		if (cpu->is_arm || !cpu->vendor || strcmp(cpu->vendor, u->vendor) != 0 || cpu->family != u->family)
			return false;
		for (size_t i = 0; i < u->nmodels; i++)
			if (cpu->model >= u->models[i].lo && cpu->model <= u->models[i].hi)
				return true;
	}
	return false;
}

const struct ud_uarch *ud_uarch_detect(const struct ud_uarch_db *db, const struct ud_cpu *cpu)
{
	for (size_t i = 0; i < db->n; i++)
		if (matches(&db->tables[i], cpu))
			return &db->tables[i];
	return ud_uarch_find(db, "generic");
}

const struct ud_uarch_event *ud_uarch_event(const struct ud_uarch *u, const char *generic)
{
	for (size_t i = 0; i < u->nevents; i++)
		if (strcmp(u->events[i].generic, generic) == 0)
			return &u->events[i];
	return NULL;
}

const struct ud_uarch *ud_uarch_identify_file(const struct ud_uarch_db *db, const char *cpuinfo_path,
					      const struct ud_core **core, struct ud_err *err)
{
	const struct ud_uarch *u;
	struct ud_cpu cpu;

	if (ud_cpuinfo_load(cpuinfo_path ? cpuinfo_path : "/proc/cpuinfo", &cpu, err) != 0)
		return NULL;
	u = ud_uarch_detect(db, &cpu);
	*core = u->detect == UD_DETECT_NONE ? ud_core_detect(db, &cpu) : NULL;
	ud_cpu_free(&cpu);
	return u;
}

const struct ud_uarch *ud_uarch_detect_file(const struct ud_uarch_db *db, const char *cpuinfo_path,
					    struct ud_err *err)
{
	const struct ud_core *core;

	return ud_uarch_identify_file(db, cpuinfo_path, &core, err);
}

/*
 * The table at path into u (zeroed) up to its uarch and detect lines, the
 * rest unread: all detection needs of a table that is not the host's.
 * The lines read fail as a whole parse's would.
 */
static int parse_header(const char *path, struct ud_uarch *u, struct ud_err *err)
{
	struct ud_ts_parser p = { path, 0, err };
	char *buf, *line = NULL;
	size_t cap = 0;
	bool has_detect = false;
	FILE *f = ud_open_input(path, UD_INPUT_EVENT_TABLE, &buf, err);
	int ret = 0;

	memset(u, 0, sizeof(*u));
	files_read++;
	if (!f)
		return -1;
	while (ret == 0 && !(has_detect && u->name[0]) && getline(&line, &cap, f) > 0) {
		char *tl = line;

		p.line++;
		while (isspace((unsigned char)*tl))
			tl++;
		has_detect |= strncmp(tl, "detect", 6) == 0;
		ret = parse_line(&p, u, tl);
	}
	free(line);
	fclose(f);
	free(buf);
	if (ret == 0 && (!u->name[0] || !has_detect))
		ret = ud_fail(err, "%s: a table needs uarch, detect and counters lines", path);
	ud_uarch_free(u);
	return ret;
}

/* The table ud_uarch_detect() would pick from the headers in dir: into match the first by name that matches cpu. */
static int scan_headers(const char *dir, const struct ud_cpu *cpu, char *match, char *generic, size_t len,
			struct ud_err *err)
{
	char path[1024], name[sizeof(((struct ud_uarch *)0)->name)] = "";
	struct ud_uarch h;
	DIR *d = opendir(dir);

	if (!d)
		return ud_fail(err, "%s: cannot read the event tables: %s", dir, strerror(errno));
	while (next_table(d, dir, path, sizeof(path))) {
		if (parse_header(path, &h, err) != 0) {
			closedir(d);
			return -1;
		}
		if (strcmp(h.name, "generic") == 0)
			snprintf(generic, len, "%s", path);
		if (matches(&h, cpu) && (!name[0] || strcmp(h.name, name) < 0)) {
			snprintf(name, sizeof(name), "%s", h.name);
			snprintf(match, len, "%s", path);
		}
	}
	closedir(d);
	return generic[0] ? 0 : ud_fail(err, "%s: no \"generic\" table", dir);
}

int ud_uarch_load_detected(const char *dir, const char *cpuinfo_path, struct ud_uarch *u, struct ud_err *err)
{
	char dirbuf[4096], match[1024] = "", generic[1024] = "";
	struct ud_cpu cpu;
	int ret;

	memset(u, 0, sizeof(*u));
	if (!dir)
		dir = ud_data_dir(UD_DATA_EVENTS, dirbuf, sizeof(dirbuf));
	if (ud_cpuinfo_load(cpuinfo_path ? cpuinfo_path : "/proc/cpuinfo", &cpu, err) != 0)
		return -1;
	ret = scan_headers(dir, &cpu, match, generic, sizeof(match), err);
	ud_cpu_free(&cpu);
	return ret != 0 ? -1 : ud_uarch_parse_file(match[0] ? match : generic, u, err);
}

const char *ud_uarch_vendor(const struct ud_uarch *u)
{
	if (u->detect == UD_DETECT_X86)
		return u->vendor;
	return u->detect == UD_DETECT_ARM ? ud_arm_implementer_name(u->implementer) : NULL;
}

int ud_uarch_usable_counters(const struct ud_uarch *u, bool nmi_watchdog)
{
	int n = u->counters_programmable;

	/* On x86 the kernel's NMI watchdog holds one programmable counter. */
	return nmi_watchdog && u->detect == UD_DETECT_X86 && n > 1 ? n - 1 : n;
}
