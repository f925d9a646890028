/*
 * uarchdiff stat [-e EVENTS] [-r N] [-x SEP | --json] [-o FILE] -- CMD [ARGS...]
 *
 * Counts a command from its exec, like perf stat, and reports in perf's
 * layouts.  As perf does, the report goes to stderr (the command owns
 * stdout) unless -o names a file.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "events.h"
#include "host.h"
#include "launch.h"
#include "outfile.h"
#include "profile.h"
#include "stat_format.h"
#include "stats.h"
#include "uarch.h"

static const char usage_text[] =
	"usage: uarchdiff stat [-e EVENTS] [-r N] [-x SEP | --json] [-o FILE] -- CMD [ARGS...]\n"
	"\n"
	"Runs CMD and counts its events from its exec, including every process it\n"
	"forks.  The command's stdin, stdout and stderr are its own; its exit status\n"
	"becomes uarchdiff's.  The report goes to stderr, or to FILE with -o.\n"
	"\n"
	"    -e, --event EVENTS        comma-separated events (repeatable): generic names\n"
	"                              (cycles, instructions, branches, branch-misses,\n"
	"                              L1-dcache-loads, L1-dcache-load-misses,\n"
	"                              stalled-cycles-frontend, stalled-cycles-backend,\n"
	"                              task-clock, context-switches, cpu-migrations,\n"
	"                              page-faults, ...), raw codes rHEX, or vendor\n"
	"                              events libpfm4 knows for this CPU\n"
	"    -r, --repeat N            run N times; print means and +- relative stderr\n"
	"        --exact               run the command once per counter group, so no\n"
	"                              counter is multiplexed (N groups: N runs a repeat)\n"
	"    -x, --field-separator SEP CSV output like perf stat -x\n"
	"    -j, --json                one JSON document: a uarchdiff.profile/1 profile\n"
	"                              with the command as its one workload\n"
	"    -o, --output FILE         write the report (or, with --json, the profile)\n"
	"                              to FILE, atomically; '-' is stdout\n"
	"\n"
	"Generic names open as the detected microarchitecture's vendor events (see\n"
	"'uarchdiff events'); hardware events are split into groups that fit the\n"
	"core's counters, each carrying cycles and instructions.\n"
	"\n"
	"Exit status: the command's; 2 for bad usage or a command that cannot run;\n"
	"1 when no counter at all could be opened.\n";

struct stat_opts {
	char *events;      /* comma-joined -e arguments; NULL: the defaults */
	long repeat;
	const char *sep;
	int json;
	const char *output;
	int exact;
};

static int append_events(struct stat_opts *o, const char *arg)
{
	size_t len = o->events ? strlen(o->events) + 1 : 0;
	char *grown = realloc(o->events, len + strlen(arg) + 1);

	if (!grown)
		return -1;
	if (len)
		grown[len - 1] = ',';
	strcpy(grown + len, arg);
	o->events = grown;
	return 0;
}

static int parse_args(int argc, char **argv, struct stat_opts *o)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "exact", no_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	o->repeat = 1;
	optind = 1;
	/* '+': stop at the command, whose own options are not ours. */
	while ((c = getopt_long(argc, argv, "+e:r:x:jo:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (append_events(o, optarg) != 0)
				return -1;
			break;
		case 'r':
			errno = 0;
			o->repeat = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || o->repeat < 1 || o->repeat > 100000) {
				fprintf(stderr, "uarchdiff stat: -r needs a positive number of runs, not '%s'\n", optarg);
				return -1;
			}
			break;
		case 'x': o->sep = optarg; break;
		case 'j': o->json = 1; break;
		case 'o': o->output = optarg; break;
		case 'E': o->exact = 1; break;
		case 'h': fputs(usage_text, stdout); return 1;
		default: fputs(usage_text, stderr); return -1;
		}
	}
	if (o->sep && o->json) {
		fprintf(stderr, "uarchdiff stat: -x and --json are different outputs: choose one\n");
		return -1;
	}
	if (optind >= argc) {
		fprintf(stderr, "uarchdiff stat: no command given (uarchdiff stat [options] -- CMD [ARGS...])\n");
		return -1;
	}
	return 0;
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

static struct ud_event *resolve_events(const struct stat_opts *o, const struct ud_uarch *u, size_t *n)
{
	struct ud_event *ev, *planned;
	struct ud_err err;

	if (!o->events) {
		ev = calloc(ud_default_events_count, sizeof(*ev));
		if (!ev)
			return NULL;
		for (size_t i = 0; i < ud_default_events_count; i++)
			ud_event_resolve_for(u, ud_default_events[i], &ev[i]);
		*n = ud_default_events_count;
	} else {
		*n = ud_event_parse_list(o->events, u, &ev, &err);
		if (!*n) {
			fprintf(stderr, "uarchdiff stat: %s\n", err.msg);
			return NULL;
		}
	}
	for (size_t i = 0; i < *n; i++)
		if (!ev[i].resolved && strncmp(ev[i].reason, "unknown event", 13) == 0)
			fprintf(stderr, "uarchdiff stat: unknown event '%s': counted as not_supported\n", ev[i].name);
	planned = ud_event_plan_groups(ev, *n, ud_uarch_usable_counters(u, ud_host_nmi_watchdog()), u->counters_fixed, n);
	free(ev);
	return planned;
}

/*
 * --exact: one run per counter group, each group alone on the PMU; software
 * counters ride with the first group's run, whose times stand for the run.
 */
static int launch_exact(char **cmd, const struct ud_event *ev, size_t n, struct ud_count *counts,
			struct ud_launch_result *res, struct ud_err *err)
{
	int groups = ud_event_group_count(ev, n);
	struct ud_event *sub = calloc(n, sizeof(*sub));
	struct ud_count *part = calloc(n, sizeof(*part));
	size_t *index = calloc(n, sizeof(*index));
	struct ud_launch_result r;
	int ret = UD_LAUNCH_OK;

	if (!sub || !part || !index) {
		free(sub);
		free(part);
		free(index);
		return ud_fail(err, "out of memory"), UD_LAUNCH_SYSTEM;
	}
	for (int g = 0; g < (groups ? groups : 1) && ret == UD_LAUNCH_OK; g++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++) {
			if (ev[i].group == g || (g == 0 && ev[i].group < 0)) {
				sub[k] = ev[i];
				index[k++] = i;
			}
		}
		ret = ud_launch_counted(cmd, sub, k, part, &r, err);
		for (size_t j = 0; j < k && ret == UD_LAUNCH_OK; j++)
			counts[index[j]] = part[j];
		if (g == 0)
			*res = r;
	}
	free(sub);
	free(part);
	free(index);
	return ret;
}

/*
 * Folds run r's counts into the workload: values are means over runs, as
 * perf -r prints them; a counter missed in any run keeps that run's status.
 */
static void fold_counts(struct ud_workload *w, const struct ud_event *ev, const struct ud_count *counts,
			double *per_run, long run, long runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ud_counter *c = &w->counters[i];
		const struct ud_count *k = &counts[i];

		per_run[i * (size_t)runs + (size_t)run] = k->value;
		if (run == 0) {
			c->status = k->status;
			c->opened_as = ev[i].opened_as && k->status != UD_NOT_SUPPORTED ? strdup(ev[i].opened_as) : NULL;
			c->vendor_event = ev[i].vendor_event[0] ? strdup(ev[i].vendor_event) : NULL;
			c->semantics = ev[i].semantics[0] ? strdup(ev[i].semantics) : NULL;
			c->group = ev[i].group;
			c->raw_value = c->enabled_ns = c->running_ns = 0;
		}
		if (k->status != UD_COUNTED && (c->status == UD_COUNTED || run == 0)) {
			c->status = k->status;
			free(c->reason);
			c->reason = strdup(k->reason);
		}
		c->raw_value += (double)k->raw / (double)runs;
		c->enabled_ns += (double)k->enabled_ns / (double)runs;
		c->running_ns += (double)k->running_ns / (double)runs;
	}
}

static void finish_counters(struct ud_workload *w, const double *per_run, long runs)
{
	for (size_t i = 0; i < w->ncounters; i++) {
		struct ud_counter *c = &w->counters[i];
		const double *x = &per_run[i * (size_t)runs];

		if (c->status != UD_COUNTED) {
			c->value = NAN;
			if (c->status == UD_NOT_SUPPORTED)
				c->raw_value = c->enabled_ns = c->running_ns = NAN;
			continue;
		}
		c->value = ud_mean(x, (size_t)runs);
		c->rel_stddev = ud_rel_stderr(x, (size_t)runs);
	}
}

static int write_report(const struct stat_opts *o, const struct ud_workload *w, struct ud_profile *p)
{
	struct ud_outfile *out;
	struct ud_err err;
	FILE *f = stderr;

	out = o->output ? ud_outfile_open(o->output, &err) : NULL;
	if (o->output && !out) {
		fprintf(stderr, "uarchdiff stat: %s\n", err.msg);
		return -1;
	}
	if (out)
		f = ud_outfile_stream(out);
	if (o->json)
		ud_profile_dump(p, f);
	else if (o->sep)
		ud_stat_print_csv(f, w, o->sep);
	else
		ud_stat_print_text(f, w);
	if (out && ud_outfile_commit(out, &err) != 0) {
		fprintf(stderr, "uarchdiff stat: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* Fails early on an unwritable -o, before the command runs. */
static int check_output(const char *path)
{
	struct ud_outfile *probe;
	struct ud_err err;

	if (!path)
		return 0;
	probe = ud_outfile_open(path, &err);
	if (!probe) {
		fprintf(stderr, "uarchdiff stat: %s\n", err.msg);
		return -1;
	}
	ud_outfile_abort(probe);
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct ud_event *ev = NULL;
	struct ud_count *counts = NULL;
	struct ud_profile *p = NULL;
	struct ud_workload *w;
	struct ud_launch_result res;
	struct ud_host_opts hopts = { 0 };
	struct ud_uarch_db db = { 0 };
	const struct ud_uarch *u;
	struct ud_err err;
	double *per_run = NULL, *elapsed = NULL, user = 0, sys = 0;
	char **cmd;
	size_t n = 0, opened = 0;
	int status = UD_EXIT_USAGE, ret;

	ret = parse_args(argc, argv, &o);
	if (ret != 0) {
		free(o.events);
		return ret > 0 ? UD_EXIT_OK : UD_EXIT_USAGE;
	}
	cmd = argv + optind;
	if (ud_uarch_db_load(NULL, &db, &err) != 0 || !(u = ud_uarch_detect_file(&db, NULL, &err))) {
		fprintf(stderr, "uarchdiff stat: %s\n", err.msg);
		goto out;
	}
	ev = resolve_events(&o, u, &n);
	if (!ev || check_output(o.output) != 0)
		goto out;

	hopts.db = &db;
	p = ud_profile_new(o.json ? ud_host_collect(&hopts, &err) : NULL);
	w = p ? ud_profile_add_workload(p, cmd[0]) : NULL;
	counts = calloc(n, sizeof(*counts));
	per_run = calloc(n * (size_t)o.repeat, sizeof(*per_run));
	elapsed = calloc((size_t)o.repeat, sizeof(*elapsed));
	if (!w || !counts || !per_run || !elapsed) {
		fprintf(stderr, "uarchdiff stat: out of memory\n");
		status = UD_EXIT_RUN_FAILED;
		goto out;
	}
	w->command = join_command(cmd);
	w->units = strdup("s");
	w->higher_is_better = 0;
	w->work_units = 1;
	w->runs = (int)o.repeat;
	for (size_t i = 0; i < n; i++)
		ud_workload_add_counter(w, ev[i].name);

	for (long r = 0; r < o.repeat; r++) {
		ret = o.exact ? launch_exact(cmd, ev, n, counts, &res, &err)
			      : ud_launch_counted(cmd, ev, n, counts, &res, &err);
		if (ret != UD_LAUNCH_OK) {
			fprintf(stderr, "uarchdiff stat: %s\n", err.msg);
			status = ret == UD_LAUNCH_EXEC_FAILED ? UD_EXIT_USAGE : UD_EXIT_RUN_FAILED;
			goto out;
		}
		fold_counts(w, ev, counts, per_run, r, o.repeat, n);
		elapsed[r] = (double)res.elapsed_ns / 1e9;
		user += (double)res.user_ns / (double)o.repeat;
		sys += (double)res.sys_ns / (double)o.repeat;
		status = ud_exit_status(res.wait_status);
	}
	finish_counters(w, per_run, o.repeat);
	ud_score_set_samples(&w->score, elapsed, (size_t)o.repeat);
	w->elapsed_ns = ud_mean(elapsed, (size_t)o.repeat) * 1e9;
	w->user_ns = user;
	w->sys_ns = sys;
	for (size_t i = 0; i < n; i++)
		opened += w->counters[i].status != UD_NOT_SUPPORTED;

	if (write_report(&o, w, p) != 0) {
		status = UD_EXIT_USAGE;
		goto out;
	}
	if (!opened) {
		fprintf(stderr, "uarchdiff stat: no counter could be opened\n");
		status = UD_EXIT_RUN_FAILED;
	}
out:
	ud_profile_free(p);
	free(per_run);
	free(elapsed);
	free(counts);
	free(ev);
	free(o.events);
	ud_uarch_db_free(&db);
	ud_events_cleanup();
	return status;
}
