/*
 * uarchdiff run [-w NAME,...] [--suite quick|default|full] [-e EVENTS] [-r N]
 *               [-o FILE] [--label TEXT] [--exact] [--json] [--hotspots]
 *
 * Profiles this host: every workload calibrated and sampled under counter
 * groups (the library's suite.h), a summary table, a profile for `diff`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "host_facts.h"
#include "options.h"
#include "outfile.h"
#include "run_summary.h"
#include "run_plan.h"
#include "stop.h"
#include "suite.h"
#include "text.h"

struct run_args {
	const char *names, *output, *label;
	char *events; /* comma-joined -e arguments (options.c allocates); NULL: the defaults */
	unsigned suite;
	long repeat;
	bool exact, json, hotspots;
};

static struct run_args args;

static int parse_suite(const char *arg, void *dest, struct ud_err *err)
{
	if (ud_suite_parse(arg, dest) != 0)
		return ud_fail(err, "unknown suite '%s' (quick, default, full)", arg);
	return 0;
}

/* --label as given, refused over UD_LABEL_MAX before any work (host_facts.h). */
static int parse_label(const char *arg, void *dest, struct ud_err *err)
{
	*(const char **)dest = arg;
	return ud_host_check_label("--label", arg, err);
}

static const struct ud_option options[] = {
	UD_STRING_OPTION('w', "workloads", &args.names, "LIST", "these workloads, comma-separated"),
	UD_PARSE_OPTION(0, "suite", &args.suite, "S",
	  "quick (8 workloads, under 15 s), default (20, under\na minute), full (every one that runs here)", parse_suite),
	UD_LIST_OPTION('e', "event", &args.events, "EVENTS",
	  "the counters instead of the defaults and the top-down\ngroups, as stat -e takes them (cycles:u,\n"
	  "instructions:k, ... count one mode)"),
	UD_LONG_OPTION('r', "repeat", &args.repeat, "N",
	  "exactly N samples a workload (default: adaptive, 6 or\nmore until the median's 95% interval is within 2% or\nthe suite's time budget is spent)",
	  1, UD_REPEAT_MAX),
	UD_STRING_OPTION('o', "output", &args.output, "FILE", "the profile (default HOSTNAME-YYYYMMDD-HHMMSS.json)"),
	UD_PARSE_OPTION(0, "label", &args.label, "TEXT", "the host's label in the profile (default: hostname)",
			parse_label),
	UD_FLAG_OPTION(0, "exact", &args.exact, "one run a counter group: no multiplexing, more time"),
	UD_FLAG_OPTION(0, "json", &args.json,
	  "print the profile instead of the summary: on stdout,\nor in FILE with -o"),
	UD_FLAG_OPTION(0, "hotspots", &args.hotspots,
	  "sample where each workload spends its time (user and\nkernel symbols), at 1000 Hz"),
};

static const struct ud_command command = {
	.name = "run",
	.synopsis = "uarchdiff run [-w NAME,...] [--suite quick|default|full] [-e EVENTS] [-r N] [-o FILE]\n"
		    "                     [--label TEXT] [--exact] [--json] [--hotspots]",
	.description = "Profiles this host: runs workloads (see 'uarchdiff workloads') each in its own\n"
		       "process under counter groups (the host's top-down ones among them), N samples\n"
		       "each, prints a summary and writes a profile for 'uarchdiff diff'.  Progress goes\n"
		       "to stderr; Ctrl-C (SIGTERM, SIGHUP, a closed pipe, any signal that would end it\n"
		       "but a crash's) stops and saves what was measured, marked incomplete; nothing\n"
		       "measured replaces no file.  A profile that cannot be written goes to a named\n"
		       "file in TMPDIR; the default name never replaces a file.\n",
	.epilogue = "Exit status: 0 when every workload ran; 1 when one crashed, hung, failed or\n"
		    "the run was interrupted (the profile is still written), or the profile or the\n"
		    "summary could not be written; 2 for bad usage.\n",
	.options = UD_OPTIONS(options),
};

/*
 * What the library goes on without, said as every message is: a suite's
 * workload that cannot run here, no sampling event, kernel counts, an
 * unknown event, a workload's hotspots.
 */
static void say(void *ctx, const char *msg)
{
	(void)ctx;
	ud_cmd_error(&command, "%s", msg);
}

/* The live line on a terminal, and a line a workload once it is done (suite.h's words). */
static void progress(void *ctx, const struct ud_suite_item *it, bool done, const struct ud_rounds_status *st)
{
	char line[UD_SUITE_PROGRESS_MAX];

	ud_suite_progress_text(it, done, st, *(const int *)ctx, line, sizeof(line));
	fputs(line, stderr);
}

/* The CPUs check of a noise line: the built-in workloads that keep one CPU busy, as when it was recorded. */
static bool keeps_one_cpu(const char *workload)
{
	const struct ud_workload_def *d = ud_workload_find(workload);

	return d && !d->not_single_cpu;
}

/* After a stop signal: what was measured is saved marked incomplete; nothing measured replaces nothing. */
static bool say_stopped(const struct ud_run_plan *r, int sig)
{
	char name[32];

	ud_signal_name(sig, name, sizeof(name));
	if (r->p->nworkloads > 0) {
		ud_cmd_error(&command, "interrupted (%s): saving the %zu workloads measured, marked incomplete", name,
			     r->p->nworkloads);
		return true;
	}
	if (r->output_default || strcmp(r->output, "-") == 0)
		ud_cmd_error(&command, "interrupted (%s) before any workload was measured: no profile written", name);
	else
		ud_cmd_error(&command, "interrupted (%s) before any workload was measured: no profile written (%s is left "
				       "as it was)", name, r->output);
	return false;
}

/*
 * Where the profile went, and the summary, which is printed whatever
 * became of the profile: on a failed write the profile went to a file in
 * TMPDIR, or the message says it is lost.  Returns the exit status.
 */
static int say_saved(const struct ud_run_plan *r, const struct ud_suite_result *res, int status)
{
	const struct ud_profile_saved *s = &res->saved;
	char shown[4300];

	if (res->save_status != 0) {
		status = UD_EXIT_RUN_FAILED;
		if (s->path)
			ud_cmd_error(&command, "%s; the profile was saved in %s instead", s->err.msg, s->path);
		else
			ud_cmd_error(&command, "%s; nor could it go to TMPDIR (%s): the profile of %zu workload%s is lost, "
					       "the summary is all that is left", s->err.msg, s->why.msg, r->p->nworkloads,
				     r->p->nworkloads == 1 ? "" : "s");
	}
	if (!args.json) {
		ud_run_summary_print(stdout, r->p, ud_cli_width(), keeps_one_cpu);
		ud_run_top_symbols_print(stdout, r->p);
		/* the default name holds the hostname: shown, never obeyed by the terminal */
		printf("\nprofile: %s\n", s->path ? ud_visible(s->path, shown, sizeof(shown)) : "none (see the message above)");
	}
	return status;
}

/* Measures and saves (suite.h: a stop signal stops it, what was measured is kept); the exit status, or -1 with err. */
static int measure_and_save(struct ud_run_plan *r, struct ud_err *err)
{
	int tty = isatty(STDERR_FILENO);
	struct ud_suite_run s = {
		.m = &r->m, .defs = r->defs, .ndefs = r->ndefs, .suite = args.suite, .repeat = (int)args.repeat,
		.exact = args.exact, .output = r->output, .output_new = r->output_default, .progress = progress,
		.progress_ctx = &tty, .notice = say,
	};
	struct ud_suite_result res;
	const struct ud_counter *c;

	if (ud_suite_measure(&s, r->p, &res, err) != 0)
		return -1;
	/* SPEC §1: a run that could open no counter at all failed; the profile is still written */
	if ((c = res.uncounted))
		ud_cmd_error(&command, "no counter could be opened (%s: %s): the scores are kept, every count is missing",
			     c->name, c->reason ? c->reason : "not counted");
	if (res.stop_signal && !say_stopped(r, res.stop_signal))
		return UD_EXIT_RUN_FAILED;
	return say_saved(r, &res, res.failed || c || res.stop_signal ? UD_EXIT_RUN_FAILED : UD_EXIT_OK);
}

int cmd_run(int argc, char **argv)
{
	struct ud_run_plan r = { 0 };
	struct ud_run_request rq;
	struct ud_err err = UD_ERR_INIT;
	int next, status;

	args = (struct run_args){ .suite = UD_SUITE_DEFAULT, .repeat = 0 };
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	/* Before measuring, a failure is bad usage or input (an unknown workload, an unwritable -o); after, a failed run. */
	rq = (struct ud_run_request){ .names = args.names, .suite = args.suite, .events = args.events,
				      .output = args.output, .label = args.label, .json = args.json,
				      .hotspots = args.hotspots, .notice = say };
	if (ud_run_plan_make(&r, &rq, &err) != 0)
		status = UD_EXIT_USAGE;
	else
		status = measure_and_save(&r, &err);
	if (status < 0 || status == UD_EXIT_USAGE) {
		ud_cmd_error(&command, "%s", err.msg);
		status = status < 0 ? UD_EXIT_RUN_FAILED : status;
	}
	ud_run_plan_free(&r);
	free(args.events);
	return status;
}
