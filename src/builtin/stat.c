/*
 * uarchdiff stat [-e EVENTS] [-r N] [-x SEP | --json] [-o FILE] -- CMD [ARGS...]
 *
 * Counts a command from its exec, like perf stat, and reports in perf's
 * layouts.  As perf does, the report goes to stderr (the command owns
 * stdout) unless -o names a file.  The counting itself is measure.h's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "host.h"
#include "launch.h"
#include "measure.h"
#include "options.h"
#include "outfile.h"
#include "profile.h"
#include "sampler.h"
#include "stat_format.h"
#include "symbols.h"
#include "uarch.h"

struct stat_opts {
	char *events; /* comma-joined -e arguments; NULL: the defaults */
	long repeat;
	const char *sep, *output;
	bool json, exact, hotspots;
	struct ud_sampler_config sampler; /* with --hotspots, chosen before the counters are planned */
};

static struct stat_opts o;

static const struct ud_option options[] = {
	{ 'e', "event", UD_OPT_LIST, &o.events, "EVENTS",
	  "comma-separated events (repeatable): generic names\n"
	  "(cycles, instructions, branches, branch-misses,\n"
	  "L1-dcache-loads, L1-dcache-load-misses,\n"
	  "stalled-cycles-frontend, stalled-cycles-backend,\n"
	  "task-clock, context-switches, cpu-migrations,\n"
	  "page-faults, ...), raw codes rHEX, or vendor\n"
	  "events libpfm4 knows for this CPU", 0, 0, NULL },
	{ 'r', "repeat", UD_OPT_LONG, &o.repeat, "N", "run N times; print means and +- relative stderr", 1,
	  UD_REPEAT_MAX, NULL },
	{ 0, "exact", UD_OPT_FLAG, &o.exact, NULL,
	  "run the command once per counter group, so no\n"
	  "counter is multiplexed (N groups: N runs a repeat)", 0, 0, NULL },
	{ 'x', "field-separator", UD_OPT_STRING, &o.sep, "SEP", "CSV output like perf stat -x", 0, 0, NULL },
	{ 'j', "json", UD_OPT_FLAG, &o.json, NULL,
	  "one JSON document: a uarchdiff.profile/1 profile\n"
	  "with the command as its one workload", 0, 0, NULL },
	{ 'o', "output", UD_OPT_STRING, &o.output, "FILE",
	  "write the report (or, with --json, the profile)\n"
	  "to FILE, atomically; '-' is stdout", 0, 0, NULL },
	{ 0, "hotspots", UD_OPT_FLAG, &o.hotspots, NULL,
	  "sample the command too, at 1000 Hz: its top user\nand kernel symbols", 0, 0, NULL },
};

static const struct ud_command command = {
	.name = "stat",
	.synopsis = "uarchdiff stat [-e EVENTS] [-r N] [-x SEP | --json] [-o FILE] [--hotspots] -- CMD [ARGS...]",
	.description = "Runs CMD and counts its events from its exec, including every process it\n"
		       "forks.  The command's stdin, stdout and stderr are its own; its exit status\n"
		       "becomes uarchdiff's.  The report goes to stderr, or to FILE with -o.\n",
	.epilogue = "Generic names open as the detected microarchitecture's vendor events (see\n"
		    "'uarchdiff events'); hardware events are split into groups that fit the\n"
		    "core's counters, each carrying cycles and instructions.\n"
		    "\n"
		    "Exit status: the command's; 2 for bad usage or a command that cannot run;\n"
		    "1 when no counter at all could be opened or the report could not be written.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
};

/* Returns UD_OPT_GO_ON with *cmd the command to run, else the exit status. */
static int parse_args(int argc, char **argv, char ***cmd)
{
	int next, status;

	o = (struct stat_opts){ .repeat = 1 };
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	if (o.sep && o.json) {
		ud_cmd_error(&command, "-x and --json are different outputs: choose one");
		return UD_EXIT_USAGE;
	}
	if (next >= argc) {
		ud_cmd_error(&command, "no command given (uarchdiff stat [options] -- CMD [ARGS...])");
		return UD_EXIT_USAGE;
	}
	*cmd = argv + next;
	return UD_OPT_GO_ON;
}

static char *join_command(char **argv)
{
	size_t len = 1;
	char *s;

	for (char **a = argv; *a; a++)
		len += strlen(*a) + 1;
	s = calloc(len, 1);
	for (char **a = argv; s && *a; a++) {
		if (a != argv)
			strcat(s, " ");
		strcat(s, *a);
	}
	return s;
}

/* The plan for -e (or the defaults), every unknown name reported on its own line. */
static struct ud_event *plan_events(const struct ud_uarch *u, size_t *n)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_event *ev;

	if (o.hotspots && ud_sampler_choose(UD_SAMPLER_DEFAULT_HZ, &o.sampler, &err) != 0) {
		ud_cmd_error(&command, "--hotspots: %s: counting without hotspots", err.msg);
		o.hotspots = false;
	}
	ev = ud_measure_plan_reserving(u, o.events, o.hotspots ? ud_sampler_counters_held(&o.sampler) : 0, n, &err);
	if (!ev) {
		ud_cmd_error(&command, "%s", err.msg);
		return NULL;
	}
	for (size_t i = 0; i < *n; i++)
		if (ev[i].unknown)
			ud_cmd_error(&command, "unknown event '%s': counted as not_supported", ev[i].name);
	return ev;
}

/* The sampled symbols under perf's text report, as perf report would list them. */
static void print_hotspots(FILE *f, const struct ud_hotspots *h)
{
	if (!h)
		return;
	fprintf(f, " Hotspots (%s at %.0f Hz, %.0f samples%s%s):\n\n", h->sampling.event, h->sampling.frequency_hz,
		h->sampling.samples, h->sampling.kernel_symbols ? "; kernel symbols: " : "",
		h->sampling.kernel_symbols ? h->sampling.kernel_symbols : "");
	for (size_t i = 0; i < h->nrows; i++)
		fprintf(f, " %6.2f%%  %-6s  %-40s %s\n", 100 * h->rows[i].share,
			h->rows[i].mode == UD_MODE_COUNT ? "" : ud_mode_name(h->rows[i].mode), h->rows[i].symbol,
			h->rows[i].dso ? h->rows[i].dso : "");
	fprintf(f, "\n");
}

static int write_report(const struct ud_workload *w, const struct ud_profile *p)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_outfile *out = o.output ? ud_outfile_open(o.output, &err) : NULL;
	FILE *f = out ? ud_outfile_stream(out) : stderr;

	if (o.output && !out) {
		ud_cmd_error(&command, "%s", err.msg);
		return -1;
	}
	if (o.json) {
		ud_profile_dump(p, f);
	} else if (o.sep) {
		ud_stat_print_csv(f, w, o.sep);
	} else {
		ud_stat_print_text(f, w);
		print_hotspots(f, w->hotspots);
	}
	if (out && ud_outfile_commit(out, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return -1;
	}
	return 0;
}

/* Fails early on an unusable -o, before the command runs; opens nothing (a FIFO's reader would see EOF). */
static int check_output(void)
{
	struct ud_err err = UD_ERR_INIT;

	if (o.output && ud_outfile_check(o.output, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return -1;
	}
	return 0;
}

/* The profile whose one workload is the command; host facts only for --json. */
static struct ud_profile *new_profile(const struct ud_uarch_db *db, char **cmd)
{
	struct ud_host_opts hopts = { .db = db };
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *p = ud_profile_new(o.json ? ud_host_collect(&hopts, &err) : NULL);
	struct ud_workload *w = p ? ud_profile_add_workload(p, cmd[0]) : NULL;

	if (!w) {
		ud_profile_free(p);
		return NULL;
	}
	w->command = join_command(cmd);
	w->units = strdup("s");
	w->higher_is_better = 0;
	w->work_units = 1;
	return p;
}

/* ud_measure_command(), with --hotspots sampling the command and naming its symbols in w. */
static int measure_sampled(char **cmd, const struct ud_event *ev, size_t n, struct ud_workload *w, int *wait_status,
			   struct ud_err *err)
{
	const struct ud_sampler_config *cfg = &o.sampler;
	struct ud_launch_sampling s = { .config = cfg, .records_fd = -1 };
	uint8_t *records = NULL;
	size_t len = 0;
	int ret;

	if (!o.hotspots)
		return ud_measure_command(cmd, ev, n, o.exact, (size_t)o.repeat, NULL, w, wait_status, err);
	if ((s.records_fd = ud_records_fd_new(err)) < 0)
		return UD_LAUNCH_SYSTEM;
	ret = ud_measure_command(cmd, ev, n, o.exact, (size_t)o.repeat, &s, w, wait_status, err);
	if (ret == UD_LAUNCH_OK && ud_records_fd_read(s.records_fd, &records, &len, err) != 0)
		ret = UD_LAUNCH_SYSTEM;
	if (ret == UD_LAUNCH_OK &&
	    !(w->hotspots = ud_symbols_from_records(records, len, cfg->event, cfg->frequency_hz, cfg->kernel_reason, err)))
		ret = UD_LAUNCH_SYSTEM;
	free(records);
	close(s.records_fd);
	return ret;
}

/* Counts the command and reports; returns the exit status. */
static int measure(char **cmd, const struct ud_event *ev, size_t n, struct ud_profile *p)
{
	struct ud_workload *w = &p->workloads[0];
	struct ud_err err = UD_ERR_INIT;
	int wait_status = 0, ret;
	size_t opened = 0;

	ret = measure_sampled(cmd, ev, n, w, &wait_status, &err);
	if (ret != UD_LAUNCH_OK) {
		ud_cmd_error(&command, "%s", err.msg);
		return ret == UD_LAUNCH_EXEC_FAILED ? UD_EXIT_USAGE : UD_EXIT_RUN_FAILED;
	}
	if (write_report(w, p) != 0)
		return UD_EXIT_RUN_FAILED;
	for (size_t i = 0; i < w->ncounters; i++)
		opened += w->counters[i].status != UD_NOT_SUPPORTED;
	if (!opened) {
		ud_cmd_error(&command, "no counter could be opened");
		return UD_EXIT_RUN_FAILED;
	}
	return ud_exit_status(wait_status);
}

int cmd_stat(int argc, char **argv)
{
	struct ud_uarch_db db = { 0 };
	struct ud_err err = UD_ERR_INIT;
	struct ud_event *ev = NULL;
	struct ud_profile *p = NULL;
	const struct ud_uarch *u;
	char **cmd = NULL;
	size_t n = 0;
	int status = parse_args(argc, argv, &cmd);

	if (status != UD_OPT_GO_ON)
		goto out;
	status = UD_EXIT_USAGE;
	if (ud_uarch_db_load(NULL, &db, &err) != 0 || !(u = ud_uarch_detect_file(&db, NULL, &err))) {
		ud_cmd_error(&command, "%s", err.msg);
		goto out;
	}
	ev = plan_events(u, &n);
	if (!ev || check_output() != 0)
		goto out;
	p = new_profile(&db, cmd);
	if (!p) {
		ud_cmd_error(&command, "out of memory");
		status = UD_EXIT_RUN_FAILED;
		goto out;
	}
	status = measure(cmd, ev, n, p);
out:
	ud_profile_free(p);
	free(ev);
	free(o.events);
	ud_uarch_db_free(&db);
	ud_events_cleanup();
	return status;
}
