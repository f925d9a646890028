/*
 * uarchdiff workloads: the built-in workloads, their units, suites, and what
 * each teaches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "error.h"
#include "options.h"
#include "spec.h"
#include "text.h"
#include "workload.h"

static const struct ud_command command = {
	.name = "workloads",
	.synopsis = "uarchdiff workloads",
	.description = "Lists the built-in workloads: units, the suites that run them, and what each\n"
		       "exercises.\n",
};

static void print_def(FILE *f, const struct ud_workload_def *d, const struct ud_spec *spec)
{
	struct ud_err why = UD_ERR_INIT;
	char suites[32], name[256], units[128], teaches[1024], reason[sizeof(why.msg) * 4];

	snprintf(suites, sizeof(suites), "%s%s%s", d->suites & UD_SUITE_QUICK ? "quick " : "",
		 d->suites & UD_SUITE_DEFAULT ? "default " : "", d->suites & UD_SUITE_FULL ? "full" : "");
	/* Specs are files anyone may have written: their text is shown, never obeyed by the terminal. */
	fprintf(f, "%-20s %-10s %-20s %s", ud_visible(d->name, name, sizeof(name)),
	       d->units[0] ? ud_visible(d->units, units, sizeof(units)) : "-", suites,
	       ud_visible(d->teaches, teaches, sizeof(teaches)));
	/* The reason without the name it starts with: the row already names it. */
	if (spec && !ud_spec_available(spec, &why, NULL, 0))
		fprintf(f, " [unavailable: %s]", ud_visible(why.msg + strlen(spec->name) + 2, reason, sizeof(reason)));
	else if (d->available && d->available(&why) != 0)
		fprintf(f, " [unavailable: %s]", ud_visible(why.msg, reason, sizeof(reason)));
	fputc('\n', f);
}

/* The table, its descriptions wrapped under their column at the terminal's width. */
static void print_table(FILE *f, const struct ud_workload_def *const *all, size_t n, const struct ud_spec *specs,
			size_t nspecs)
{
	fprintf(f, "%-20s %-10s %-20s %s\n", "workload", "units", "suites", "what it exercises");
	for (size_t i = 0; i < n; i++)
		print_def(f, all[i], NULL);
	for (size_t i = 0; i < nspecs; i++)
		print_def(f, &specs[i].def, &specs[i]);
}

int cmd_workloads(int argc, char **argv)
{
	const struct ud_workload_def *const *all;
	struct ud_spec *specs;
	struct ud_err err = UD_ERR_INIT;
	size_t n, nspecs, len = 0;
	char *text = NULL;
	FILE *f;
	int next, status = ud_options_cli(&command, argc, argv, &next);

	if (status != UD_OPT_GO_ON)
		return status;
	if (ud_specs_load(NULL, &specs, &nspecs, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	all = ud_workloads_all(&n);
	f = open_memstream(&text, &len);
	print_table(f ? f : stdout, all, n, specs, nspecs);
	if (f && fclose(f) == 0 && text)
		ud_cli_print_fitted(text);
	free(text);
	ud_specs_free(specs, nspecs);
	return ud_stdout_status(&command);
}
