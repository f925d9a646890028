/*
 * uarchdiff teach [LAB...] [-f text|html|json] [-o FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "host.h"
#include "measure.h"
#include "noise.h"
#include "options.h"
#include "outfile.h"
#include "report.h"
#include "teach.h"
#include "teach_labs.h"
#include "uarch.h"

static struct {
	enum ud_report_format format;
	const char *output;
} args;

static int parse_format(const char *arg, void *dest, struct ud_err *err)
{
	if (ud_report_format_parse(arg, dest) != 0 || *(enum ud_report_format *)dest == UD_REPORT_MD)
		return ud_fail(err, "unknown format '%s' (text, html, json)", arg);
	return 0;
}

static const struct ud_option options[] = {
	UD_PARSE_OPTION('f', "format", &args.format, "F",
	  "text (default), html (one self-contained page, a chart a lab),\n"
	  "json (uarchdiff.teach/1)", parse_format),
	UD_STRING_OPTION('o', "output", &args.output, "FILE", "write to FILE, atomically (default stdout)"),
};

static const struct ud_command command = {
	.name = "teach",
	.synopsis = "uarchdiff teach [LAB...] [-f text|html|json] [-o FILE]",
	.description = "Runs teaching labs that show a microarchitecture effect on this host, each\n"
		       "with what it demonstrates, the experiment, the expected effect, the effect\n"
		       "measured here and a verdict (shown or not, and why).  Labs: branch (branch\n"
		       "prediction: sorted vs random data, and a sweep of unpredictable branches),\n"
		       "cache (load latency by pointer chase from 4 KB to 4x the L3, knees beside\n"
		       "the sysfs cache sizes), ilp (1 to 8 independent dependency chains).  All\n"
		       "by default, about 10-20 s.  Hardware counters (mispredicts, L1d misses,\n"
		       "IPC) are shown where the host has a PMU, never estimated.\n",
	.epilogue = "UARCHDIFF_TEACH_QUICK=1 makes every lab tiny (a smoke test: it shows nothing).\n"
		    "A lab that fails (out of memory) is reported as failed beside the labs that\n"
		    "finished, and the command exits 1; UARCHDIFF_TEACH_FAIL=LAB[,LAB] makes those\n"
		    "labs fail so, for tests only.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
	.permute = true, /* `diff a.json b.json -f html`, as git and perf take it */
};

static void progress(void *arg, enum ud_lab lab, size_t step, size_t steps)
{
	if (*(int *)arg)
		fprintf(stderr, "\r\033[K[teach] %s: %zu/%zu", ud_lab_name(lab), step + 1, steps);
	else if (step == 0)
		fprintf(stderr, "teach: %s lab, %zu steps\n", ud_lab_name(lab), steps);
}

/* Adds the lab named name unless already there; -1 for a name that is no lab's. */
static int add_lab(const char *name, enum ud_lab *labs, size_t *n)
{
	enum ud_lab lab;

	if (ud_lab_parse(name, &lab) != 0) {
		ud_cmd_error(&command, "unknown lab '%s' (branch, cache, ilp)", name);
		return -1;
	}
	for (size_t i = 0; i < *n; i++)
		if (labs[i] == lab)
			return 0;
	labs[(*n)++] = lab;
	return 0;
}

/*
 * Options may come before, between or after the labs (`teach cache -f
 * html`): each run of options is parsed from the slot before it, which
 * stands in for argv[0].  Returns UD_OPT_GO_ON with the labs (all when none
 * is named), else the exit status.
 */
static int parse_args(int argc, char **argv, enum ud_lab *labs, size_t *n)
{
	int base = 0, next, status;

	*n = 0;
	for (;;) {
		status = ud_options_cli(&command, argc - base, argv + base, &next);
		if (status != UD_OPT_GO_ON)
			return status;
		for (next += base; next < argc && !(argv[next][0] == '-' && argv[next][1]); next++)
			if (add_lab(argv[next], labs, n) != 0)
				return UD_EXIT_USAGE;
		if (next >= argc)
			break;
		base = next - 1;
	}
	if (*n == 0)
		for (int i = 0; i < UD_LAB_COUNT; i++)
			labs[(*n)++] = (enum ud_lab)i;
	return UD_OPT_GO_ON;
}

/* UARCHDIFF_TEACH_FAIL=LAB[,LAB]: labs made to fail as out of memory would, for tests only. */
static int fail_labs(struct ud_teach_opts *o, struct ud_err *err)
{
	const char *list = getenv("UARCHDIFF_TEACH_FAIL");
	char name[16];
	enum ud_lab lab;

	for (const char *p = list; p && *p; p += strspn(p, ",")) {
		size_t len = strcspn(p, ",");

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (len >= sizeof(name) || ud_lab_parse(name, &lab) != 0)
			return ud_fail(err, "UARCHDIFF_TEACH_FAIL names no lab: '%.*s' (branch, cache, ilp)", (int)len, p);
		o->fail_labs |= 1u << lab;
		p += len;
	}
	return 0;
}

/* This host's facts, caches and counter plan: what every lab needs. */
static struct ud_host *prepare(struct ud_uarch_db *db, struct ud_teach_opts *o, struct ud_event **ev,
			       struct ud_err *err)
{
	struct ud_host_opts hopts = { .db = db };
	const struct ud_uarch *u;
	struct ud_host *host;
	const char *quick = getenv("UARCHDIFF_TEACH_QUICK");

	if (ud_uarch_db_load(NULL, db, err) != 0 || !(u = ud_uarch_detect_file(db, NULL, err)))
		return NULL;
	if (!(host = ud_host_collect(&hopts, err)))
		return NULL;
	if (!(*ev = ud_measure_plan(u, UD_TEACH_EVENTS, &o->nev, err)))
		return ud_host_free(host), NULL;
	o->ev = *ev;
	o->caches = ud_teach_caches(host);
	o->mem_avail_kb = ud_teach_mem_available_kb();
	o->quick = quick && *quick && strcmp(quick, "0") != 0;
	if (fail_labs(o, err) != 0)
		return ud_host_free(host), NULL;
	return host;
}

/*
 * Every lab, one failing (out of memory) or not: a failed lab is said on
 * stderr and reported as failed beside the others, whose results stand.
 * Returns how many failed.
 */
static size_t run_labs(const enum ud_lab *labs, size_t n, struct ud_teach_opts *o, struct ud_lab_result *res)
{
	int tty = isatty(STDERR_FILENO);
	char tags[128];
	size_t failed = 0;

	for (size_t i = 0; i < n; i++) {
		struct ud_err err = UD_ERR_INIT;

		if (ud_teach_run(labs[i], o, &res[i], &err) != 0) {
			if (tty)
				fputs("\r\033[K", stderr);
			ud_cmd_error(&command, "the %s lab failed: %s", ud_lab_name(labs[i]), err.msg);
			failed++;
			continue;
		}
		ud_noise_tags(&res[i].noise, true, tags, sizeof(tags));
		fprintf(stderr, "%s%s: %s (%.1f s)%s%s\n", tty ? "\r\033[K" : "", ud_lab_name(labs[i]),
			res[i].shown ? "shown" : "not shown", res[i].seconds, strcmp(tags, "-") ? ", host busy: " : "",
			strcmp(tags, "-") ? tags : "");
	}
	return failed;
}

/* The document streamed for -f json; else the page, from the results themselves. */
static int write_document(const struct ud_host *host, const struct ud_lab_result *res, size_t n, FILE *f,
			  struct ud_err *err)
{
	if (args.format == UD_REPORT_JSON)
		return ud_teach_write_json(host, res, n, f) == 0 ? 0 : ud_fail(err, "cannot write the JSON document");
	ud_report_set_width(ud_cli_width());
	return ud_teach_render(host, res, n, args.format, NULL, f, err);
}

int cmd_teach(int argc, char **argv)
{
	enum ud_lab labs[UD_LAB_COUNT];
	struct ud_lab_result res[UD_LAB_COUNT];
	struct ud_teach_opts o = { 0 };
	struct ud_uarch_db db = { 0 };
	struct ud_event *ev = NULL;
	struct ud_outfile *out = NULL;
	struct ud_err err = UD_ERR_INIT;
	struct ud_host *host = NULL;
	size_t n = 0, failed;
	int status, tty;

	args.format = UD_REPORT_TEXT;
	args.output = "-";
	status = parse_args(argc, argv, labs, &n);
	if (status != UD_OPT_GO_ON)
		return status;
	memset(res, 0, sizeof(res));
	status = UD_EXIT_USAGE;
	/* An unwritable output fails now, not after the labs have run. */
	if (!(out = ud_outfile_open(args.output, &err)))
		goto fail;
	status = UD_EXIT_RUN_FAILED;
	tty = isatty(STDERR_FILENO);
	o.progress = progress;
	o.progress_arg = &tty;
	if (!(host = prepare(&db, &o, &ev, &err)))
		goto fail;
	failed = run_labs(labs, n, &o, res);
	if (write_document(host, res, n, ud_outfile_stream(out), &err) != 0)
		goto fail;
	status = ud_outfile_commit(out, &err) == 0 ? UD_EXIT_OK : UD_EXIT_RUN_FAILED;
	out = NULL;
	if (status == UD_EXIT_OK) {
		/* the labs that finished are written; the exit says one did not */
		status = failed ? UD_EXIT_RUN_FAILED : UD_EXIT_OK;
		goto done;
	}
fail:
	ud_cmd_error(&command, "%s", err.msg[0] ? err.msg : "out of memory");
	ud_outfile_abort(out);
done:
	for (size_t i = 0; i < n; i++)
		ud_lab_result_free(&res[i]);
	ud_host_free(host);
	free(ev);
	ud_uarch_db_free(&db);
	return status;
}
