/*
 * uarchdiff diff [-f text|json|md|html] [-o FILE] BASELINE CANDIDATE
 */
#include <stdio.h>

#include "builtins.h"
#include "diff.h"
#include "events.h"
#include "import.h"
#include "options.h"
#include "outfile.h"
#include "profile.h"
#include "report.h"
#include "uarch.h"

static struct {
	enum ud_report_format format;
	const char *output;
} args;

static const struct ud_option options[] = {
	UD_REPORT_FORMAT_OPTION(&args.format, UD_DIFF_SCHEMA),
	UD_STRING_OPTION('o', "output", &args.output, "FILE", "write the report to FILE, atomically (default stdout)"),
};

static const struct ud_command command = {
	.name = "diff",
	.synopsis = "uarchdiff diff " UD_REPORT_FORMAT_SYNOPSIS " [-o FILE] BASELINE CANDIDATE",
	.description = "Explains why CANDIDATE scores differently from BASELINE, workload by\n"
		       "workload: the speedup split into path length x IPC x frequency x\n"
		       "utilization (x what the counters leave unexplained), the metrics behind\n"
		       "IPC, a CPI stack from each core's penalties, the hosts' differing\n"
		       "environment, and rule-based findings with their evidence.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
	.permute = true, /* `diff a.json b.json -f html`, as git and perf take it */
};

int cmd_diff(int argc, char **argv)
{
	struct ud_profile *p[2] = { NULL, NULL };
	struct ud_outfile *out = NULL;
	struct ud_uarch_db db = { 0 };
	struct ud_diff_input in;
	struct ud_diff *model = NULL;
	struct ud_err err = UD_ERR_INIT;
	int next, status;

	args.format = UD_REPORT_TEXT;
	args.output = "-";
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	if (argc - next != 2) {
		ud_cmd_error(&command, "give two profiles: BASELINE CANDIDATE");
		return UD_EXIT_USAGE;
	}
	status = UD_EXIT_USAGE;
	/* -o naming a profile read would replace it: refused before anything is read. */
	if (ud_outfile_check_inputs("-o", args.output, (const char *const *)(argv + next), 2, &err) != 0)
		goto fail;
	if (ud_import_load_profiles(argv + next, 2, p, &err) != 0 || ud_uarch_db_load(NULL, &db, &err) != 0)
		goto fail;
	in = (struct ud_diff_input){ p[0], p[1], argv[next], argv[next + 1], &db };
	if (!(model = ud_diff_build(&in, &err)))
		goto fail;
	if (!(out = ud_outfile_open(args.output, &err)))
		goto fail;
	ud_report_set_width(ud_cli_width());
	if (ud_report_write(model, args.format, NULL, ud_outfile_stream(out), &err) != 0)
		goto fail;
	status = ud_outfile_commit(out, &err) == 0 ? UD_EXIT_OK : UD_EXIT_RUN_FAILED;
	out = NULL;
	if (status != UD_EXIT_OK)
		goto fail;
	goto done;
fail:
	ud_cmd_error(&command, "%s", err.msg);
	ud_outfile_abort(out);
done:
	ud_diff_free(model);
	ud_profile_free(p[0]);
	ud_profile_free(p[1]);
	ud_uarch_db_free(&db);
	return status;
}
