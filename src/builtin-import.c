/*
 * uarchdiff import [--format F] [--label L] [--workload NAME] [--score VALUE[:UNITS]]
 *                  [--cpuinfo FILE] -o PROFILE FILE...
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "host.h"
#include "import.h"
#include "outfile.h"
#include "uarch.h"

static const char usage_text[] =
	"usage: uarchdiff import [--format auto|perf-text|perf-csv|perf-json|unixbench] [--label L]\n"
	"                        [--workload NAME] [--score VALUE[:UNITS]] [--cpuinfo FILE] [--uarch NAME]\n"
	"                        -o PROFILE FILE...\n"
	"\n"
	"Turns perf stat output (text as printed or pasted, -x CSV, -j JSON) and\n"
	"UnixBench logs into a profile, so measurements from hosts you no longer have\n"
	"can be diffed.  Several files make several workloads of one profile.  The\n"
	"numbers are the ones the source printed; what it did not give stays null.\n"
	"\n"
	"    --format F          the input format (default: auto-detected per file)\n"
	"    --label L           the host's label (default: the first file's name)\n"
	"    --workload NAME     the workload's name (one file; default: the command\n"
	"                        perf names, else the file's name)\n"
	"    --score V[:UNITS]   the workload's score, overriding UnixBench COUNT lines\n"
	"                        (one file); time units (s, ms, ...) are lower-is-better\n"
	"    --cpuinfo FILE      that host's /proc/cpuinfo: its CPU and microarchitecture\n"
	"    --uarch NAME        that host's microarchitecture, where no cpuinfo is at hand\n"
	"                        (zen4, neoverse-n1, ...: 'uarchdiff events --uarch x' lists them)\n"
	"    -o, --output FILE   the profile to write (atomically; '-' is stdout)\n";

struct import_args {
	struct ud_import_opts o;
	const char *label, *cpuinfo, *uarch, *output;
};

static int parse_score(const char *arg, struct ud_import_opts *o)
{
	char *end;
	const char *colon = strchr(arg, ':');

	errno = 0;
	o->score = strtod(arg, &end);
	if (errno || end == arg || (*end && end != colon) || !(o->score > 0)) {
		fprintf(stderr, "uarchdiff import: --score needs a positive number[:units], not '%s'\n", arg);
		return -1;
	}
	o->has_score = 1;
	o->score_units = colon && colon[1] ? colon + 1 : NULL;
	return 0;
}

static int parse_args(int argc, char **argv, struct import_args *a)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "label", required_argument, NULL, 'l' },
		{ "workload", required_argument, NULL, 'w' },
		{ "score", required_argument, NULL, 's' },
		{ "cpuinfo", required_argument, NULL, 'c' },
		{ "uarch", required_argument, NULL, 'u' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (ud_import_format_parse(optarg, &a->o.format) != 0) {
				fprintf(stderr, "uarchdiff import: unknown format '%s' (auto, perf-text, perf-csv, "
						"perf-json, unixbench)\n", optarg);
				return -1;
			}
			break;
		case 'l': a->label = optarg; break;
		case 'w': a->o.workload = optarg; break;
		case 's':
			if (parse_score(optarg, &a->o) != 0)
				return -1;
			break;
		case 'c': a->cpuinfo = optarg; break;
		case 'u': a->uarch = optarg; break;
		case 'o': a->output = optarg; break;
		case 'h': fputs(usage_text, stdout); return 1;
		default: fputs(usage_text, stderr); return -1;
		}
	}
	if (!a->output) {
		fprintf(stderr, "uarchdiff import: no output profile: give -o PROFILE\n");
		return -1;
	}
	if (optind >= argc) {
		fprintf(stderr, "uarchdiff import: no input file given\n");
		return -1;
	}
	if ((a->o.workload || a->o.has_score) && argc - optind > 1) {
		fprintf(stderr, "uarchdiff import: --workload and --score name one workload: give one file\n");
		return -1;
	}
	return 0;
}

static json_t *imported_host(const struct import_args *a, const char *first, struct ud_err *err)
{
	const char *base = strrchr(first, '/');
	const char *label = a->label ? a->label : base ? base + 1 : first;
	const struct ud_uarch *u = NULL;
	struct ud_uarch_db db;
	struct ud_cpu cpu;
	json_t *host = NULL;
	int has_cpu = 0;

	if (!a->cpuinfo && !a->uarch)
		return ud_host_imported(label, NULL, NULL);
	if (ud_uarch_db_load(NULL, &db, err) != 0)
		return NULL;
	if (a->cpuinfo) {
		if (ud_cpuinfo_load(a->cpuinfo, &cpu, err) != 0)
			goto out;
		has_cpu = 1;
		u = ud_uarch_detect(&db, &cpu);
	}
	if (a->uarch && !(u = ud_uarch_find(&db, a->uarch))) {
		char names[512];

		ud_uarch_names(&db, names, sizeof(names));
		ud_fail(err, "unknown microarchitecture '%s'; known: %s", a->uarch, names);
		goto out;
	}
	host = ud_host_imported(label, has_cpu ? &cpu : NULL, u);
out:
	if (has_cpu)
		ud_cpu_free(&cpu);
	ud_uarch_db_free(&db);
	return host;
}

int cmd_import(int argc, char **argv)
{
	struct import_args a = { 0 };
	struct ud_outfile *out = NULL;
	struct ud_profile *p = NULL;
	struct ud_err err;
	json_t *host;
	int ret = parse_args(argc, argv, &a);

	if (ret != 0)
		return ret > 0 ? UD_EXIT_OK : UD_EXIT_USAGE;
	host = imported_host(&a, argv[optind], &err);
	p = host ? ud_profile_new(host) : NULL;
	if (!p)
		goto fail;
	out = ud_outfile_open(a.output, &err);
	if (!out)
		goto fail;
	for (int i = optind; i < argc; i++) {
		size_t before = p->nworkloads;

		if (ud_import_file(p, argv[i], &a.o, &err) != 0)
			goto fail;
		if (a.o.has_score && p->nworkloads - before != 1) {
			snprintf(err.msg, sizeof(err.msg), "%s: --score names one workload, and the file holds %zu",
				 argv[i], p->nworkloads - before);
			goto fail;
		}
	}
	if (ud_profile_dump(p, ud_outfile_stream(out)) != 0) {
		snprintf(err.msg, sizeof(err.msg), "%s: cannot write the profile", a.output);
		goto fail;
	}
	ret = ud_outfile_commit(out, &err);
	out = NULL;
	if (ret != 0)
		goto fail;
	ud_profile_free(p);
	return UD_EXIT_OK;
fail:
	fprintf(stderr, "uarchdiff import: %s\n", err.msg);
	ud_outfile_abort(out);
	ud_profile_free(p);
	return UD_EXIT_USAGE;
}
