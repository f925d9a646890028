/*
 * uarchdiff compare [-f text|json|md|html] [-o FILE] BASELINE CANDIDATE...
 */
#include <stdio.h>
#include <stdlib.h>

#include "builtins.h"
#include "compare.h"
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
	{ 'f', "format", UD_OPT_PARSE, &args.format, "F",
	  "text (default), json (uarchdiff.compare/1, with every pair's\n"
	  "uarchdiff.diff/1), md, html (one self-contained file)", 0, 0, ud_report_format_option },
	{ 'o', "output", UD_OPT_STRING, &args.output, "FILE", "write the report to FILE, atomically (default stdout)",
	  0, 0, NULL },
};

static const struct ud_command command = {
	.name = "compare",
	.synopsis = "uarchdiff compare [-f text|json|md|html] [-o FILE] BASELINE CANDIDATE...",
	.description = "Compares every CANDIDATE profile with BASELINE (the first): one table of\n"
		       "per-workload speedups against the baseline with each host's geometric\n"
		       "mean, then each pair's headline, differing environment and findings,\n"
		       "as `uarchdiff diff` explains them.  A candidate that does not load or\n"
		       "shares no workload with the baseline is left out, named on stderr and\n"
		       "in the report (\"skipped\" in JSON); the others are still compared.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
	.permute = true, /* `diff a.json b.json -f html`, as git and perf take it */
};

/*
 * Builds the comparison of the loaded profiles and writes it: the exit
 * status, with err filled unless 0 (2 for input that cannot be compared, 1
 * for an output that cannot be written).
 */
static int compare_write(struct ud_profile **ps, char **paths, size_t n, const struct ud_err *load_errors,
			 const struct ud_uarch_db *db, struct ud_err *err)
{
	struct ud_compare_input in = { (const struct ud_profile *const *)ps, (const char *const *)paths, n, db,
				       load_errors };
	struct ud_compare *c = ud_compare_build(&in, err);
	struct ud_outfile *out;
	int ret = UD_EXIT_USAGE;

	if (!c)
		return UD_EXIT_USAGE;
	for (size_t i = 0; i < c->nskipped; i++)
		ud_cmd_error(&command, "warning: %s left out: %s", c->skipped[i].path, c->skipped[i].reason.msg);
	if ((out = ud_outfile_open(args.output, err))) {
		if (ud_compare_write(c, args.format, NULL, ud_outfile_stream(out), err) == 0) {
			ret = ud_outfile_commit(out, err) == 0 ? UD_EXIT_OK : UD_EXIT_RUN_FAILED;
			out = NULL;
		}
		ud_outfile_abort(out);
	}
	ud_compare_free(c);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct ud_uarch_db db = { 0 };
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile **ps = NULL;
	struct ud_err *load_errors = NULL;
	size_t n;
	int next, status;

	args.format = UD_REPORT_TEXT;
	args.output = "-";
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	if (argc - next < 2) {
		ud_cmd_error(&command, "give at least two profiles: BASELINE CANDIDATE...");
		return UD_EXIT_USAGE;
	}
	n = (size_t)(argc - next);
	if (!(ps = calloc(n, sizeof(*ps))) || !(load_errors = calloc(n, sizeof(*load_errors)))) {
		ud_cmd_error(&command, "out of memory");
		free(ps);
		return UD_EXIT_RUN_FAILED;
	}
	status = UD_EXIT_USAGE;
	/* A candidate that does not load is left out by name (compare.h); the others are still compared. */
	ud_profile_load_each(argv + next, n, ps, load_errors);
	if (ud_uarch_db_load(NULL, &db, &err) == 0)
		status = compare_write(ps, argv + next, n, load_errors, &db, &err);
	if (status != UD_EXIT_OK)
		ud_cmd_error(&command, "%s", err.msg);
	for (size_t k = 0; k < n; k++)
		ud_profile_free(ps[k]);
	free(ps);
	free(load_errors);
	ud_uarch_db_free(&db);
	return status;
}
