/*
 * uarchdiff run [-w NAME,...] [--suite quick|default|full] [-r N] [-o FILE]
 *               [--label TEXT] [--exact] [--json]
 *
 * Profiles this host: every workload calibrated and sampled under counter
 * groups, a summary table, and a profile written for `diff`.
 */
#include <errno.h>
#include <getopt.h>
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
#include "outfile.h"
#include "profile.h"
#include "runner.h"
#include "spec.h"
#include "uarch.h"

static const char usage_text[] =
	"usage: uarchdiff run [-w NAME,...] [--suite quick|default|full] [-r N] [-o FILE]\n"
	"                     [--label TEXT] [--exact] [--json]\n"
	"\n"
	"Profiles this host: runs workloads (see 'uarchdiff workloads') each in its own\n"
	"process under counter groups, N samples each, prints a summary and writes a\n"
	"profile for 'uarchdiff diff'.  Progress goes to stderr; Ctrl-C stops and saves\n"
	"what was measured, marked incomplete.\n"
	"\n"
	"    -w, --workloads LIST  these workloads, comma-separated\n"
	"        --suite S         quick (8 workloads, ~10 s), default (~1 min), full\n"
	"    -r, --repeat N        samples a workload (default 5)\n"
	"    -o, --output FILE     the profile (default HOSTNAME-YYYYMMDD-HHMMSS.json)\n"
	"        --label TEXT      the host's label in the profile (default: hostname)\n"
	"        --exact           one run a counter group: no multiplexing, more time\n"
	"        --json            print the profile on stdout instead of the summary\n"
	"\n"
	"Exit status: 0 when every workload ran; 1 when one crashed, hung, failed or\n"
	"the run was interrupted (the profile is still written); 2 for bad usage.\n";

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
	char *names;
	unsigned suite;
	long repeat;
	const char *output, *label;
	int exact, json;
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
	static const struct option opts[] = {
		{ "workloads", required_argument, NULL, 'w' },
		{ "suite", required_argument, NULL, 's' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, 'l' },
		{ "exact", no_argument, NULL, 'E' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	a->suite = UD_SUITE_DEFAULT;
	a->repeat = 5;
	optind = 1;
	while ((c = getopt_long(argc, argv, "w:r:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'w': a->names = optarg; break;
		case 's':
			if (ud_suite_parse(optarg, &a->suite) != 0) {
				fprintf(stderr, "uarchdiff run: unknown suite '%s' (quick, default, full)\n", optarg);
				return -1;
			}
			break;
		case 'r':
			errno = 0;
			a->repeat = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || a->repeat < 1 || a->repeat > 1000) {
				fprintf(stderr, "uarchdiff run: -r needs a positive number of samples, not '%s'\n", optarg);
				return -1;
			}
			break;
		case 'o': a->output = optarg; break;
		case 'l': a->label = optarg; break;
		case 'E': a->exact = 1; break;
		case 'j': a->json = 1; break;
		case 'h': fputs(usage_text, stdout); return 1;
		default: fputs(usage_text, stderr); return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "uarchdiff run: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

/* A workload by name: built-in first, then the external specs that can run here. */
static const struct ud_workload_def *find_def(const char *name, const struct ud_spec *specs, size_t nspecs,
					      int *unavailable)
{
	const struct ud_workload_def *d = ud_workload_find(name);
	char why[512];

	*unavailable = 0;
	for (size_t i = 0; !d && i < nspecs; i++) {
		if (strcmp(specs[i].name, name) != 0)
			continue;
		if (!ud_spec_available(&specs[i], why, sizeof(why), NULL, 0)) {
			fprintf(stderr, "uarchdiff run: %s\n", why);
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
	char *copy, *save = NULL, why[512];

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
			if (ud_spec_available(&specs[i], why, sizeof(why), NULL, 0))
				out[(*n)++] = &specs[i].def;
			else
				fprintf(stderr, "uarchdiff run: skipping %s\n", why);
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
				fprintf(stderr, "uarchdiff run: unknown workload '%s'; known: %s\n", t, names);
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
		fprintf(stderr, "uarchdiff run: -w names no workload\n");
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
	struct ud_err err;
	int found;

	if (d->data)
		found = ud_spec_available(d->data, NULL, 0, path, sizeof(path));
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

int cmd_run(int argc, char **argv)
{
	struct run_args a = { 0 };
	const struct ud_workload_def **defs = NULL;
	struct ud_uarch_db db = { 0 };
	struct ud_host_opts hopts = { 0 };
	struct ud_runner_opts ro = { 0 };
	struct ud_event *ev = NULL, *planned = NULL;
	struct ud_outfile *out = NULL;
	struct ud_profile *p = NULL;
	struct ud_spec *specs = NULL;
	size_t nspecs = 0;
	struct sigaction sa = { .sa_handler = on_sigint }, old;
	const struct ud_uarch *u;
	struct ud_err err;
	char *output = NULL;
	size_t n = 0, nev = 0;
	double suite_timeout = 20;
	int status = UD_EXIT_USAGE, tty = isatty(STDERR_FILENO), ret;

	ret = parse_args(argc, argv, &a);
	if (ret != 0)
		return ret > 0 ? UD_EXIT_OK : UD_EXIT_USAGE;
	if (ud_specs_load(NULL, &specs, &nspecs, &err) != 0) {
		fprintf(stderr, "uarchdiff run: %s\n", err.msg);
		return UD_EXIT_USAGE;
	}
	defs = select_workloads(&a, specs, nspecs, &n);
	if (!defs) {
		ud_specs_free(specs, nspecs);
		return UD_EXIT_USAGE;
	}
	if (ud_uarch_db_load(NULL, &db, &err) != 0 || !(u = ud_uarch_detect_file(&db, NULL, &err)))
		goto fail;
	hopts.db = &db;
	hopts.label = a.label;
	p = ud_profile_new(ud_host_collect(&hopts, &err));
	if (!p || !json_object_size(p->host))
		goto fail;
	output = a.output ? strdup(a.output) : default_output(p->host);
	/* An unwritable profile fails now, not after a minute of measuring. */
	if (!output || !(out = ud_outfile_open(a.json ? "-" : output, &err)))
		goto fail;
	ev = calloc(ud_default_events_count, sizeof(*ev));
	if (!ev)
		goto fail;
	for (size_t i = 0; i < ud_default_events_count; i++)
		ud_event_resolve_for(u, ud_default_events[i], &ev[i]);
	planned = ud_event_plan_groups(ev, ud_default_events_count, ud_uarch_usable_counters(u, ud_host_nmi_watchdog()), u->counters_fixed,
				       &nev);
	if (!planned)
		goto fail;

	for (size_t i = 0; i < sizeof(suite_timing) / sizeof(suite_timing[0]); i++) {
		if (suite_timing[i].suite == a.suite) {
			ro.target_s = suite_timing[i].target_s;
			suite_timeout = suite_timing[i].timeout_s;
		}
	}
	ro.samples = (int)a.repeat;
	ro.ev = planned;
	ro.nev = nev;
	ro.exact = a.exact;
	ro.l1d = cache_bytes(p->host, "l1d_kb");
	ro.l2 = cache_bytes(p->host, "l2_kb");
	ro.l3 = cache_bytes(p->host, "l3_kb");
	ro.stop = &stop_requested;
	stop_requested = 0;
	sigaction(SIGINT, &sa, &old);

	status = UD_EXIT_OK;
	for (size_t i = 0; i < n; i++) {
		struct ud_run_result res;
		struct ud_workload *w;

		if (stop_requested)
			break;
		progress(tty, i, n, defs[i]->name, NULL);
		ro.timeout_s = defs[i]->data ? ((const struct ud_spec *)defs[i]->data)->timeout_s : suite_timeout;
		if (ud_run_workload(defs[i], &ro, &res, &err) != 0) {
			sigaction(SIGINT, &old, NULL);
			goto fail;
		}
		w = ud_profile_add_workload(p, defs[i]->name);
		if (!w || ud_run_to_workload(defs[i], &res, planned, nev, w) != 0) {
			ud_run_result_free(&res);
			snprintf(err.msg, sizeof(err.msg), "out of memory");
			sigaction(SIGINT, &old, NULL);
			goto fail;
		}
		record_binary(defs[i], w);
		if (res.outcome != UD_OUT_OK)
			status = UD_EXIT_RUN_FAILED;
		ud_run_result_free(&res);
		progress(tty, i, n, defs[i]->name, w);
	}
	sigaction(SIGINT, &old, NULL);
	if (stop_requested) {
		p->incomplete = 1;
		status = UD_EXIT_RUN_FAILED;
		fprintf(stderr, "uarchdiff run: interrupted: saving the %zu workloads measured, marked incomplete\n",
			p->nworkloads);
	}
	if (ud_profile_dump(p, ud_outfile_stream(out)) != 0 || ud_outfile_commit(out, &err) != 0) {
		out = NULL;
		snprintf(err.msg, sizeof(err.msg), "%s: cannot write the profile", output);
		goto fail;
	}
	out = NULL;
	if (!a.json) {
		summary(p);
		printf("\nprofile: %s\n", output);
	}
	goto done;
fail:
	fprintf(stderr, "uarchdiff run: %s\n", err.msg);
	status = status == UD_EXIT_OK ? UD_EXIT_RUN_FAILED : status;
	ud_outfile_abort(out);
done:
	ud_profile_free(p);
	free(output);
	free(ev);
	free(planned);
	free(defs);
	ud_specs_free(specs, nspecs);
	ud_uarch_db_free(&db);
	ud_events_cleanup();
	return status;
}
