/*
 * uarchdiff workloads: the built-in workloads, their units, suites, and what
 * each teaches.
 */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "error.h"
#include "spec.h"
#include "workload.h"

int cmd_workloads(int argc, char **argv)
{
	const struct ud_workload_def *const *all;
	struct ud_spec *specs;
	size_t n, nspecs;
	struct ud_err err;

	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			puts("usage: uarchdiff workloads\n\nLists the built-in workloads: units, the suites that "
			     "run them, and what each exercises.");
			return UD_EXIT_OK;
		}
		fprintf(stderr, "uarchdiff workloads: unexpected argument '%s'\n", argv[1]);
		return UD_EXIT_USAGE;
	}
	if (ud_specs_load(NULL, &specs, &nspecs, &err) != 0) {
		fprintf(stderr, "uarchdiff workloads: %s\n", err.msg);
		return UD_EXIT_USAGE;
	}
	all = ud_workloads_all(&n);
	printf("%-20s %-8s %-20s %s\n", "workload", "units", "suites", "what it exercises");
	for (size_t i = 0; i < n + nspecs; i++) {
		const struct ud_workload_def *d = i < n ? all[i] : &specs[i - n].def;
		char suites[32], why[512] = "";

		snprintf(suites, sizeof(suites), "%s%s%s", d->suites & UD_SUITE_QUICK ? "quick " : "",
			 d->suites & UD_SUITE_DEFAULT ? "default " : "", d->suites & UD_SUITE_FULL ? "full" : "");
		if (i >= n && !ud_spec_available(&specs[i - n], why, sizeof(why), NULL, 0))
			printf("%-20s %-8s %-20s %s [unavailable: %s]\n", d->name, d->units[0] ? d->units : "-", suites,
			       d->teaches, strchr(why, ':') ? strchr(why, ':') + 2 : why);
		else
			printf("%-20s %-8s %-20s %s\n", d->name, d->units[0] ? d->units : "-", suites, d->teaches);
	}
	ud_specs_free(specs, nspecs);
	return UD_EXIT_OK;
}
