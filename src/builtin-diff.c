/*
 * uarchdiff diff [-f text|json|md|html] [-o FILE] BASELINE CANDIDATE
 */
#include <getopt.h>
#include <stdio.h>

#include "builtins.h"
#include "diff.h"
#include "events.h"
#include "outfile.h"
#include "profile.h"
#include "report.h"
#include "uarch.h"

static const char usage_text[] =
	"usage: uarchdiff diff [-f text|json|md|html] [-o FILE] BASELINE CANDIDATE\n"
	"\n"
	"Explains why CANDIDATE scores differently from BASELINE, workload by\n"
	"workload: the speedup split into path length x IPC x frequency x\n"
	"utilization (x what the counters leave unexplained), the metrics behind\n"
	"IPC, a CPI stack from each core's penalties, the hosts' differing\n"
	"environment, and rule-based findings with their evidence.\n"
	"\n"
	"    -f, --format F      text (default), json (uarchdiff.diff/1), md, html\n"
	"                        (one self-contained file with inline SVG charts)\n"
	"    -o, --output FILE   write the report to FILE, atomically (default stdout)\n";

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum ud_report_format format = UD_REPORT_TEXT;
	const char *output = "-";
	struct ud_profile *a = NULL, *b = NULL;
	struct ud_outfile *out = NULL;
	struct ud_uarch_db db = { 0 };
	struct ud_diff_input in;
	struct ud_diff *model = NULL;
	struct ud_err err;
	json_t *doc = NULL;
	int c, status = UD_EXIT_USAGE;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (ud_report_format_parse(optarg, &format) != 0) {
				fprintf(stderr, "uarchdiff diff: unknown format '%s' (text, json, md, html)\n", optarg);
				return UD_EXIT_USAGE;
			}
			break;
		case 'o': output = optarg; break;
		case 'h': fputs(usage_text, stdout); return UD_EXIT_OK;
		default: fputs(usage_text, stderr); return UD_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "uarchdiff diff: give two profiles: BASELINE CANDIDATE\n");
		return UD_EXIT_USAGE;
	}
	if (!(a = ud_profile_load(argv[optind], &err)) || !(b = ud_profile_load(argv[optind + 1], &err)) ||
	    ud_uarch_db_load(NULL, &db, &err) != 0)
		goto fail;
	in = (struct ud_diff_input){ a, b, argv[optind], argv[optind + 1], &db };
	if (!(model = ud_diff_build(&in, &err)))
		goto fail;
	if (!(doc = ud_diff_to_json(model))) {
		ud_fail(&err, "out of memory");
		goto fail;
	}
	if (!(out = ud_outfile_open(output, &err)))
		goto fail;
	if (ud_report_write(doc, format, NULL, ud_outfile_stream(out), &err) != 0)
		goto fail;
	status = ud_outfile_commit(out, &err) == 0 ? UD_EXIT_OK : UD_EXIT_RUN_FAILED;
	out = NULL;
	if (status != UD_EXIT_OK)
		goto fail;
	goto done;
fail:
	fprintf(stderr, "uarchdiff diff: %s\n", err.msg);
	ud_outfile_abort(out);
done:
	json_decref(doc);
	ud_diff_free(model);
	ud_profile_free(a);
	ud_profile_free(b);
	ud_uarch_db_free(&db);
	return status;
}
