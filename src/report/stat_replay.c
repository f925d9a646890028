/*
 * stat_replay.c - `stat record`'s record from the report's views, and the
 * views again from the record (stat_replay.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "outfile.h"
#include "stat_replay.h"

/* perf.data's first bytes (tools/perf/util/header.c: PERF_MAGIC, "PERFILE2" as a little-endian u64), file or pipe. */
#define PERF_DATA_MAGIC "PERFILE2"
#define PERF_DATA_MAGIC_LEN 8
#define PERF_DATA_REFUSAL "perf.data from perf record/stat record: read it with perf stat report"
/* Read from a pipe: what `stat report -i -` reads a block at a time. */
#define PIPE_BLOCK 65536

static const enum ud_stat_rows rows_of[] = {
	[UD_STAT_WHOLE] = UD_ROWS_WHOLE, [UD_STAT_PER_CPU] = UD_ROWS_CPU, [UD_STAT_PER_CORE] = UD_ROWS_CORE,
	[UD_STAT_PER_SOCKET] = UD_ROWS_SOCKET, [UD_STAT_PER_THREAD] = UD_ROWS_THREAD, [UD_STAT_PER_DIE] = UD_ROWS_DIE,
	[UD_STAT_PER_NODE] = UD_ROWS_NODE,
};
static const enum ud_stat_aggr aggr_of[] = {
	[UD_ROWS_WHOLE] = UD_STAT_WHOLE, [UD_ROWS_CPU] = UD_STAT_PER_CPU, [UD_ROWS_CORE] = UD_STAT_PER_CORE,
	[UD_ROWS_SOCKET] = UD_STAT_PER_SOCKET, [UD_ROWS_THREAD] = UD_STAT_PER_THREAD, [UD_ROWS_DIE] = UD_STAT_PER_DIE,
	[UD_ROWS_NODE] = UD_STAT_PER_NODE,
};

static int keep_parts(struct ud_stat_part **parts, size_t *n, const struct ud_stat_view *v)
{
	for (size_t s = 0; v->aggr != UD_STAT_WHOLE && s < v->nslots; s++) {
		struct ud_stat_part *p = ud_stat_parts_add(parts, n, v->slots[s].label, v->slots[s].number);

		if (!p || ud_stat_copy_counts(&p->w, v->slots[s].w) != 0)
			return -1;
	}
	return 0;
}

int ud_stat_record_keep(struct ud_stat_record *r, const struct ud_stat_view *v, struct ud_err *err)
{
	struct ud_stat_interval *iv = ud_stat_record_add_interval(r, v->interval_s);

	if (!iv || ud_stat_copy_counts(&iv->w, v->whole) != 0 || keep_parts(&iv->parts, &iv->nparts, v) != 0)
		return ud_fail(err, "out of memory keeping an interval");
	return 0;
}

int ud_stat_record_close(struct ud_stat_record *r, const struct ud_stat_view *totals, bool printed,
			 const char *invocation, struct ud_err *err)
{
	r->rows = rows_of[totals->aggr];
	r->rusage = totals->rusage;
	r->rusage_cpus = totals->rusage_cpus;
	r->null_run = totals->null_run;
	r->totals = printed;
	r->summary = totals->summary;
	r->verbose = totals->verbose;
	r->invocation = invocation ? strdup(invocation) : NULL;
	r->target = totals->target ? strdup(totals->target) : NULL;
	if ((invocation && !r->invocation) || (totals->target && !r->target))
		return ud_fail(err, "out of memory");
	for (size_t i = 0; i < totals->whole->ncounters; i++)
		if (ud_stat_record_add_column(r, totals->units ? totals->units[i].unit : "",
					      totals->units ? totals->units[i].scale : 1,
					      totals->units && totals->units[i].extra) != 0)
			return ud_fail(err, "out of memory");
	if (keep_parts(&r->parts, &r->nparts, totals) != 0)
		return ud_fail(err, "out of memory");
	return 0;
}

/* The slots of parts[0..n), in slots (n of them). */
static void slots_of(struct ud_stat_slot *slots, const struct ud_stat_part *parts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		slots[i] = (struct ud_stat_slot){ &parts[i].w, parts[i].label ? parts[i].label : "", parts[i].number };
}

static void print_view(FILE *f, const struct ud_stat_view *v, const struct ud_stat_replay *o)
{
	if (o->json)
		ud_stat_print_json(f, v);
	else if (o->sep)
		ud_stat_print_csv(f, v, o->sep);
	else
		ud_stat_print_text(f, v);
}

/* The intervals, then the totals where they were printed; slots has room for the most parts. */
static void print_all(FILE *f, const struct ud_workload *w, struct ud_stat_view *v, struct ud_stat_slot *slots,
		      const struct ud_stat_replay *o)
{
	const struct ud_stat_record *r = w->stat_record;

	for (size_t i = 0; i < r->nintervals; i++) {
		slots_of(slots, r->intervals[i].parts, r->intervals[i].nparts);
		v->whole = &r->intervals[i].w;
		v->nslots = r->intervals[i].nparts;
		v->interval_s = r->intervals[i].at_s;
		v->interval_index = (int)i;
		print_view(f, v, o);
	}
	if (r->totals) {
		slots_of(slots, r->parts, r->nparts);
		v->whole = w;
		v->nslots = r->nparts;
		v->interval_s = NAN;
		print_view(f, v, o);
	}
	if (!o->json && !o->sep)
		ud_stat_print_hotspots(f, w->hotspots);
}

/* "'CMD'": the recording command line as perf quotes its own in the header; NULL out of memory. */
static char *quoted(const char *s)
{
	size_t len = strlen(s) + 3;
	char *q = malloc(len);

	if (q)
		snprintf(q, len, "'%s'", s);
	return q;
}

/* Whether the count was perf stat -G's or --for-each-cgroup's: some counter names its cgroup. */
static bool any_cgroup(const struct ud_workload *w)
{
	for (size_t i = 0; i < w->ncounters; i++)
		if (w->counters[i].cgroup)
			return true;
	return false;
}

int ud_stat_replay_print(FILE *f, const struct ud_workload *w, const struct ud_stat_replay *o, struct ud_err *err)
{
	const struct ud_stat_record *r = w->stat_record;
	size_t most = r->nparts;
	struct ud_stat_unit *units = calloc(r->ncolumns + 1, sizeof(*units));
	struct ud_stat_slot *slots;
	char *header = o->header ? NULL : quoted(r->invocation ? r->invocation : w->command ? w->command : w->name);
	struct ud_stat_view v = {
		.units = units, .aggr = aggr_of[r->rows], .target = o->header ? o->header : header, .rusage = r->rusage,
		.rusage_cpus = r->rusage_cpus, .null_run = r->null_run, .summary = r->summary,
		.verbose = r->verbose && !o->sep && !o->json,
		/* threads per thread over the system wide are -a --per-thread's: every thread, its zero rows left out */
		.all_threads = r->rows == UD_ROWS_THREAD && r->target && strcmp(r->target, "'system wide'") == 0,
		.cgroups = any_cgroup(w),
	};

	for (size_t i = 0; i < r->nintervals; i++)
		most = r->intervals[i].nparts > most ? r->intervals[i].nparts : most;
	slots = calloc(most + 1, sizeof(*slots));
	if (!units || !slots || (!o->header && !header)) {
		free(units);
		free(slots);
		free(header);
		return ud_fail(err, "out of memory");
	}
	for (size_t i = 0; i < r->ncolumns; i++)
		units[i] = (struct ud_stat_unit){ r->columns[i].unit, r->columns[i].scale, r->columns[i].extra };
	v.slots = slots;
	print_all(f, w, &v, slots, o);
	free(units);
	free(slots);
	free(header);
	return 0;
}

/* Standard input whole, at most cap bytes; NULL with err. */
static char *read_stdin(size_t cap, size_t *len, struct ud_err *err)
{
	char *buf = NULL, *grown;
	size_t n = 0, got;

	do {
		if (n > cap) {
			free(buf);
			return ud_fail(err, "standard input: over %zu bytes: not a record", cap), NULL;
		}
		if (!(grown = realloc(buf, n + PIPE_BLOCK + 1))) {
			free(buf);
			return ud_fail(err, "standard input: out of memory"), NULL;
		}
		buf = grown;
		got = fread(buf + n, 1, PIPE_BLOCK, stdin);
		n += got;
	} while (got > 0);
	if (ferror(stdin)) {
		free(buf);
		return ud_fail(err, "standard input: %s", strerror(errno ? errno : EIO)), NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Whether path is a regular file that starts as perf.data does; never blocks (a FIFO is not read). */
static bool perf_data_file(const char *path)
{
	char magic[PERF_DATA_MAGIC_LEN];
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	bool is = false;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		is = read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
		     memcmp(magic, PERF_DATA_MAGIC, PERF_DATA_MAGIC_LEN) == 0;
	close(fd);
	return is;
}

static struct ud_profile *record_of(const char *text, size_t len, const char *name, struct ud_err *err)
{
	struct ud_profile *p;

	if (len >= PERF_DATA_MAGIC_LEN && memcmp(text, PERF_DATA_MAGIC, PERF_DATA_MAGIC_LEN) == 0)
		return ud_fail(err, "%s: " PERF_DATA_REFUSAL, name), NULL;
	p = ud_profile_parse(text, len, name, err);
	if (p && (p->nworkloads == 0 || !p->workloads[0].stat_record)) {
		ud_fail(err, "%s: a profile without a stat record: records come from 'uarchdiff stat record'", name);
		ud_profile_free(p);
		return NULL;
	}
	return p;
}

struct ud_profile *ud_stat_record_load(const char *path, struct ud_err *err)
{
	bool is_stdin = strcmp(path, "-") == 0;
	size_t len = 0;
	char *text;
	struct ud_profile *p;

	if (!is_stdin && perf_data_file(path))
		return ud_fail(err, "%s: " PERF_DATA_REFUSAL, path), NULL;
	text = is_stdin ? read_stdin(ud_input_cap(UD_INPUT_PROFILE), &len, err)
			: ud_read_file(path, UD_INPUT_PROFILE, &len, err);
	if (!text)
		return NULL;
	p = record_of(text, len, is_stdin ? "standard input" : path, err);
	free(text);
	return p;
}

/* perf's check_backup() (tools/perf/util/data.c): a non-empty regular file at path becomes path.old. */
static int keep_old(const char *path, struct ud_err *err)
{
	struct stat st;
	size_t len = strlen(path) + sizeof(".old");
	char *old;
	int ret = 0;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	if (!(old = malloc(len)))
		return ud_fail(err, "out of memory");
	snprintf(old, len, "%s.old", path);
	if (rename(path, old) != 0)
		ret = ud_fail(err, "%s: cannot keep the old record as %s: %s", path, old, strerror(errno));
	free(old);
	return ret;
}

int ud_stat_record_save(const struct ud_profile *p, const char *path, struct ud_err *err)
{
	struct ud_outfile *out = ud_outfile_open(path, err);
	bool is_stdout = strcmp(path, "-") == 0;

	if (!out)
		return -1;
	errno = 0;
	if (ud_profile_dump(p, ud_outfile_stream(out)) != 0) {
		ud_fail(err, "%s: write failed: %s", is_stdout ? "standard output" : path, strerror(errno ? errno : EIO));
		ud_outfile_abort(out);
		return -1;
	}
	if (!is_stdout && keep_old(path, err) != 0) {
		ud_outfile_abort(out);
		return -1;
	}
	return ud_outfile_commit(out, err);
}
