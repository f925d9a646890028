/*
 * uarchdiff run [-w NAME,...] [--suite quick|default|full] [-r N] [-o FILE]
 *               [--label TEXT] [--exact] [--json]
 *
 * Profiles this host: every workload calibrated and sampled under counter
 * groups, a summary table, and a profile written for `diff`.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtins.h"
#include "derived.h"
#include "elfinfo.h"
#include "events.h"
#include "host.h"
#include "measure.h"
#include "options.h"
#include "outfile.h"
#include "profile.h"
#include "runner.h"
#include "sampler.h"
#include "spec.h"
#include "symbols.h"
#include "uarch.h"

/* Each suite's sample length and per-child time limit. */
static const struct {
	unsigned suite;
	double target_s, timeout_s;
} suite_timing[] = {
	{ UD_SUITE_QUICK, 0.15, 10 },
	{ UD_SUITE_DEFAULT, 0.25, 20 },
	{ UD_SUITE_FULL, 0.5, 60 },
};

static volatile sig_atomic_t stop_requested;

static void on_sigint(int sig)
{
	(void)sig;
	stop_requested = 1;
}

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

static const struct ud_option options[] = {
	{ 'w', "workloads", UD_OPT_STRING, &args.names, "LIST", "these workloads, comma-separated", 0, 0, NULL },
	{ 0, "suite", UD_OPT_PARSE, &args.suite, "S", "quick (8 workloads, ~10 s), default (~1 min), full", 0, 0,
	  parse_suite },
	{ 'e', "event", UD_OPT_LIST, &args.events, "EVENTS",
	  "the counters instead of the defaults, as stat -e takes\nthem (cycles:u, instructions:k, ... count one mode)", 0,
	  0, NULL },
	{ 'r', "repeat", UD_OPT_LONG, &args.repeat, "N", "samples a workload (default 5)", 1, UD_REPEAT_MAX, NULL },
	{ 'o', "output", UD_OPT_STRING, &args.output, "FILE", "the profile (default HOSTNAME-YYYYMMDD-HHMMSS.json)",
	  0, 0, NULL },
	{ 0, "label", UD_OPT_STRING, &args.label, "TEXT", "the host's label in the profile (default: hostname)", 0,
	  0, NULL },
	{ 0, "exact", UD_OPT_FLAG, &args.exact, NULL, "one run a counter group: no multiplexing, more time", 0, 0,
	  NULL },
	{ 0, "json", UD_OPT_FLAG, &args.json, NULL, "print the profile on stdout instead of the summary", 0, 0, NULL },
	{ 0, "hotspots", UD_OPT_FLAG, &args.hotspots, NULL,
	  "sample where each workload spends its time (user and\nkernel symbols), at 1000 Hz", 0, 0, NULL },
};

static const struct ud_command command = {
	.name = "run",
	.synopsis = "uarchdiff run [-w NAME,...] [--suite quick|default|full] [-e EVENTS] [-r N] [-o FILE]\n"
		    "                     [--label TEXT] [--exact] [--json] [--hotspots]",
	.description = "Profiles this host: runs workloads (see 'uarchdiff workloads') each in its own\n"
		       "process under counter groups, N samples each, prints a summary and writes a\n"
		       "profile for 'uarchdiff diff'.  Progress goes to stderr; Ctrl-C stops and saves\n"
		       "what was measured, marked incomplete.\n",
	.epilogue = "Exit status: 0 when every workload ran; 1 when one crashed, hung, failed or\n"
		    "the run was interrupted (the profile is still written); 2 for bad usage.\n",
	.options = UD_OPTIONS(options),
};

/* A workload by name: built-in first, then the external specs that can run here. */
static const struct ud_workload_def *find_def(const char *name, const struct ud_spec *specs, size_t nspecs,
					      int *unavailable)
{
	const struct ud_workload_def *d = ud_workload_find(name);
	struct ud_err why = UD_ERR_INIT;

	*unavailable = 0;
	for (size_t i = 0; !d && i < nspecs; i++) {
		if (strcmp(specs[i].name, name) != 0)
			continue;
		if (!ud_spec_available(&specs[i], &why, NULL, 0)) {
			ud_cmd_error(&command, "%s", why.msg);
			*unavailable = 1;
			return NULL;
		}
		d = &specs[i].def;
	}
	return d;
}

static void list_known(const struct ud_spec *specs, size_t nspecs, char *buf, size_t len)
{
	size_t total, used = 0;
	const struct ud_workload_def *const *all = ud_workloads_all(&total);

	buf[0] = '\0';
	for (size_t i = 0; i < total && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", all[i]->name);
	for (size_t i = 0; i < nspecs && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, ", %s", specs[i].name);
}

/* The workloads to run, in registry order for a suite, in the user's order for -w. */
static const struct ud_workload_def **select_workloads(const struct run_args *a, const struct ud_spec *specs,
						       size_t nspecs, size_t *n)
{
	size_t total;
	const struct ud_workload_def *const *all = ud_workloads_all(&total), **out;
	char *copy, *save = NULL;
	struct ud_err why = UD_ERR_INIT;

	*n = 0;
	out = calloc(total + nspecs + 1, sizeof(*out));
	if (!out)
		return NULL;
	if (!a->names) {
		for (size_t i = 0; i < total; i++)
			if (all[i]->suites & a->suite)
				out[(*n)++] = all[i];
		for (size_t i = 0; i < nspecs; i++) {
			if (!(specs[i].suites & a->suite))
				continue;
			if (ud_spec_available(&specs[i], &why, NULL, 0))
				out[(*n)++] = &specs[i].def;
			else
				ud_cmd_error(&command, "skipping %s", why.msg);
		}
		return out;
	}
	copy = strdup(a->names);
	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
		int unavailable;
		const struct ud_workload_def *d = find_def(t, specs, nspecs, &unavailable);
		char names[2048];

		if (!d) {
			if (!unavailable) {
				list_known(specs, nspecs, names, sizeof(names));
				ud_cmd_error(&command, "unknown workload '%s'; known: %s", t, names);
			}
			free(copy);
			free(out);
			return NULL;
		}
		if (*n < total + nspecs)
			out[(*n)++] = d;
	}
	free(copy);
	if (*n == 0) {
		ud_cmd_error(&command, "-w names no workload");
		free(out);
		return NULL;
	}
	return out;
}

/*
 * Which binary did the work, so a diff can tell whether both hosts ran the
 * same one: the program for an external workload, uarchdiff itself else.
 */
static void record_binary(const struct ud_workload_def *d, struct ud_workload *w)
{
	char path[4096], id[128];
	struct ud_err err = UD_ERR_INIT;
	int found;

	if (d->data)
		found = ud_spec_available(d->data, NULL, path, sizeof(path));
	else
		found = realpath("/proc/self/exe", path) != NULL;
	if (!found)
		return;
	w->binary_path = strdup(path);
	if (ud_elf_build_id(path, id, sizeof(id), &err) == 0)
		w->build_id = strdup(id);
}

static size_t cache_bytes(const json_t *host, const char *key)
{
	const json_t *v = json_object_get(json_object_get(json_object_get(host, "cpu"), "caches"), key);

	return json_is_integer(v) ? (size_t)json_integer_value(v) * 1024 : 0;
}

static char *default_output(const json_t *host)
{
	const char *h = json_string_value(json_object_get(host, "hostname"));
	char stamp[32], *path = malloc(512);
	time_t t = time(NULL);
	struct tm tm;

	if (!path)
		return NULL;
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(path, 512, "%s-%s.json", h ? h : "host", stamp);
	return path;
}

static void progress(int tty, size_t i, size_t n, const char *name, const struct ud_workload *w)
{
	if (!w) {
		if (tty)
			fprintf(stderr, "\r\033[K[%zu/%zu] %s ...", i + 1, n, name);
		return;
	}
	if (tty)
		fprintf(stderr, "\r\033[K");
	if (isfinite(w->score.median))
		fprintf(stderr, "[%zu/%zu] %-16s %.4g %s (+-%.1f%%, %d samples)%s%s\n", i + 1, n, name, w->score.median,
			w->units, 100 * (isfinite(w->score.ci95_rel) ? w->score.ci95_rel : 0), w->runs,
			strcmp(w->outcome, "ok") ? ": " : "", strcmp(w->outcome, "ok") ? w->outcome : "");
	else
		fprintf(stderr, "[%zu/%zu] %-16s %s\n", i + 1, n, name, w->outcome);
}

static void summary(const struct ud_profile *p)
{
	printf("%-16s %14s %-8s %7s %6s %9s %9s  %s\n", "workload", "score", "units", "+-95%", "IPC", "br-miss",
	       "L1d-miss", "outcome");
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct ud_workload *w = &p->workloads[i];
		double ipc = ud_metric(w, UD_M_IPC), br = ud_metric(w, UD_M_BRANCH_MISS_RATE);
		double l1 = ud_metric(w, UD_M_L1D_MISS_RATE);
		char s[32] = "-", ci[16] = "-", si[16] = "-", sb[16] = "-", sl[16] = "-";

		if (isfinite(w->score.median))
			snprintf(s, sizeof(s), "%.5g", w->score.median);
		if (isfinite(w->score.ci95_rel))
			snprintf(ci, sizeof(ci), "%.1f%%", 100 * w->score.ci95_rel);
		if (isfinite(ipc))
			snprintf(si, sizeof(si), "%.2f", ipc);
		if (isfinite(br))
			snprintf(sb, sizeof(sb), "%.2f%%", 100 * br);
		if (isfinite(l1))
			snprintf(sl, sizeof(sl), "%.2f%%", 100 * l1);
		printf("%-16s %14s %-8s %7s %6s %9s %9s  %s\n", w->name, s, w->units, ci, si, sb, sl, w->outcome);
	}
}

/* With --hotspots: where each workload spent most of its time. */
static void top_symbols(const struct ud_profile *p)
{
	bool header = false;

	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct ud_hotspot *t = ud_hotspots_top(p->workloads[i].hotspots);

		if (!t)
			continue;
		if (!header)
			printf("\n%-16s %7s  %s\n", "workload", "samples", "top symbol");
		header = true;
		printf("%-16s %6.1f%%  %s (%s, %s)\n", p->workloads[i].name, 100 * t->share, t->symbol,
		       t->dso ? t->dso : "-", ud_mode_name(t->mode));
	}
}

/* Everything one `run` holds between measuring and writing. */
struct run {
	struct ud_uarch_db db;
	struct ud_spec *specs;
	size_t nspecs;
	const struct ud_workload_def **defs;
	size_t ndefs;
	struct ud_profile *p;
	char *output;
	struct ud_outfile *out;
	struct ud_event *ev;
	struct ud_runner_opts ro;
	struct ud_sampler_config sampling;
	/*
	 * --hotspots: each workload's record stream, by workload index, named
	 * only once every workload has run: loading symbols grows this process,
	 * and every workload child (a fork of it) would pay for that at each of
	 * its own forks.
	 */
	struct ud_records {
		uint8_t *bytes;
		size_t len;
	} *records;
	double suite_timeout;
};

static void set_timing(struct run *r)
{
	for (size_t i = 0; i < sizeof(suite_timing) / sizeof(suite_timing[0]); i++) {
		if (suite_timing[i].suite == args.suite) {
			r->ro.target_s = suite_timing[i].target_s;
			r->suite_timeout = suite_timing[i].timeout_s;
		}
	}
	r->ro.samples = (int)args.repeat;
	r->ro.exact = args.exact;
	r->ro.l1d = cache_bytes(r->p->host, "l1d_kb");
	r->ro.l2 = cache_bytes(r->p->host, "l2_kb");
	r->ro.l3 = cache_bytes(r->p->host, "l3_kb");
	r->ro.stop = &stop_requested;
}

/* The host, the output file and the counter plan: what every workload needs. */
static int prepare(struct run *r, struct ud_err *err)
{
	struct ud_host_opts hopts = { .db = &r->db, .label = args.label };
	struct ud_err why = UD_ERR_INIT;
	const struct ud_uarch *u;

	if (ud_uarch_db_load(NULL, &r->db, err) != 0 || !(u = ud_uarch_detect_file(&r->db, NULL, err)))
		return -1;
	r->p = ud_profile_new(ud_host_collect(&hopts, err));
	if (!r->p || !json_object_size(r->p->host))
		return -1;
	r->output = args.output ? strdup(args.output) : default_output(r->p->host);
	if (!r->output)
		return ud_fail(err, "out of memory");
	/* An unwritable profile fails now, not after a minute of measuring. */
	r->out = ud_outfile_open(args.json ? "-" : r->output, err);
	if (!r->out)
		return -1;
	r->ro.sampling = args.hotspots ? &r->sampling : NULL;
	if (args.hotspots && ud_sampler_choose(UD_SAMPLING_DEFAULT_HZ, &r->sampling, &why) != 0) {
		ud_cmd_error(&command, "--hotspots: %s: measuring without hotspots", why.msg);
		r->ro.sampling = NULL;
	}
	if (r->ro.sampling && !(r->records = calloc(r->ndefs + 1, sizeof(*r->records))))
		return ud_fail(err, "out of memory");
	r->ev = ud_measure_plan_reserving(u, args.events, ud_sampler_counters_held(r->ro.sampling), &r->ro.nev, err);
	if (!r->ev)
		return -1;
	for (size_t i = 0; i < r->ro.nev; i++)
		if (r->ev[i].unknown)
			ud_cmd_error(&command, "unknown event '%s': counted as not_supported", r->ev[i].name);
	r->ro.ev = r->ev;
	set_timing(r);
	return 0;
}

/* Every workload in turn; returns the exit status so far, or -1 with err. */
static int measure_all(struct run *r, struct ud_err *err)
{
	int tty = isatty(STDERR_FILENO), status = UD_EXIT_OK;

	for (size_t i = 0; i < r->ndefs && !stop_requested; i++) {
		const struct ud_workload_def *d = r->defs[i];
		struct ud_run_result res;
		struct ud_workload *w;

		progress(tty, i, r->ndefs, d->name, NULL);
		r->ro.timeout_s = d->data ? ((const struct ud_spec *)d->data)->timeout_s : r->suite_timeout;
		if (ud_run_workload(d, &r->ro, &res, err) != 0)
			return -1;
		w = ud_profile_add_workload(r->p, d->name);
		if (!w || ud_run_to_workload(d, &res, r->ev, r->ro.nev, w) != 0) {
			ud_run_result_free(&res);
			return ud_fail(err, "out of memory");
		}
		record_binary(d, w);
		if (r->records) { /* kept for resolve_hotspots() */
			r->records[r->p->nworkloads - 1] = (struct ud_records){ res.records, res.nrecords };
			res.records = NULL;
		}
		if (res.outcome != UD_OUT_OK)
			status = UD_EXIT_RUN_FAILED;
		ud_run_result_free(&res);
		progress(tty, i, r->ndefs, d->name, w);
	}
	return status;
}

/* Names the sampled symbols of every workload measured; -1 with err when out of memory. */
static int resolve_hotspots(struct run *r, struct ud_err *err)
{
	for (size_t i = 0; r->records && i < r->p->nworkloads; i++) {
		struct ud_workload *w = &r->p->workloads[i];

		w->hotspots = ud_symbols_from_records(r->records[i].bytes, r->records[i].len, r->sampling.event,
						      r->sampling.frequency_hz, r->sampling.kernel_reason, err);
		if (!w->hotspots)
			return -1;
	}
	return 0;
}

/* Measures with Ctrl-C caught: it stops the run, and what was measured is kept. */
static int measure_interruptible(struct run *r, struct ud_err *err)
{
	struct sigaction sa = { .sa_handler = on_sigint }, old;
	int status;

	stop_requested = 0;
	sigaction(SIGINT, &sa, &old);
	status = measure_all(r, err);
	sigaction(SIGINT, &old, NULL);
	if (status >= 0 && resolve_hotspots(r, err) != 0)
		status = -1;
	if (status >= 0 && stop_requested) {
		r->p->incomplete = 1;
		status = UD_EXIT_RUN_FAILED;
		ud_cmd_error(&command, "interrupted: saving the %zu workloads measured, marked incomplete",
			     r->p->nworkloads);
	}
	return status;
}

static int save(struct run *r, struct ud_err *err)
{
	struct ud_outfile *out = r->out;

	r->out = NULL; /* committed or not, it is gone */
	if (ud_profile_dump(r->p, ud_outfile_stream(out)) != 0) {
		ud_outfile_abort(out);
		return ud_fail(err, "%s: cannot write the profile", r->output);
	}
	if (ud_outfile_commit(out, err) != 0)
		return -1;
	if (!args.json) {
		summary(r->p);
		top_symbols(r->p);
		printf("\nprofile: %s\n", r->output);
	}
	return 0;
}

static void run_free(struct run *r)
{
	ud_outfile_abort(r->out);
	for (size_t i = 0; r->records && i < r->ndefs; i++)
		free(r->records[i].bytes);
	free(r->records);
	ud_profile_free(r->p);
	free(r->output);
	free(r->ev);
	free(r->defs);
	ud_specs_free(r->specs, r->nspecs);
	ud_uarch_db_free(&r->db);
	ud_events_cleanup();
}

int cmd_run(int argc, char **argv)
{
	struct run r = { .suite_timeout = 20 };
	struct ud_err err = UD_ERR_INIT;
	int next, status;

	args = (struct run_args){ .suite = UD_SUITE_DEFAULT, .repeat = 5 };
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	if (ud_specs_load(NULL, &r.specs, &r.nspecs, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		free(args.events);
		return UD_EXIT_USAGE;
	}
	r.defs = select_workloads(&args, r.specs, r.nspecs, &r.ndefs);
	if (!r.defs) {
		run_free(&r);
		free(args.events);
		return UD_EXIT_USAGE;
	}
	/* Before measuring, a failure is bad usage or input (an unwritable -o); after, a failed run. */
	if (prepare(&r, &err) != 0) {
		status = UD_EXIT_USAGE;
	} else {
		status = measure_interruptible(&r, &err);
		if (status >= 0 && save(&r, &err) != 0)
			status = -1;
	}
	if (status < 0 || status == UD_EXIT_USAGE) {
		ud_cmd_error(&command, "%s", err.msg);
		status = status < 0 ? UD_EXIT_RUN_FAILED : status;
	}
	run_free(&r);
	free(args.events);
	return status;
}
