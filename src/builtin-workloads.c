/*
 * uarchdiff workloads: the built-in workloads, their units, suites, and what
 * each teaches.
 */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "error.h"
#include "workload.h"

int cmd_workloads(int argc, char **argv)
{
	const struct ud_workload_def *const *all;
	size_t n;

	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			puts("usage: uarchdiff workloads\n\nLists the built-in workloads: units, the suites that "
			     "run them, and what each exercises.");
			return UD_EXIT_OK;
		}
		fprintf(stderr, "uarchdiff workloads: unexpected argument '%s'\n", argv[1]);
		return UD_EXIT_USAGE;
	}
	all = ud_workloads_all(&n);
	printf("%-16s %-8s %-20s %s\n", "workload", "units", "suites", "what it exercises");
	for (size_t i = 0; i < n; i++) {
		const struct ud_workload_def *d = all[i];
		char suites[32];

		snprintf(suites, sizeof(suites), "%s%s%s", d->suites & UD_SUITE_QUICK ? "quick " : "",
			 d->suites & UD_SUITE_DEFAULT ? "default " : "", d->suites & UD_SUITE_FULL ? "full" : "");
		printf("%-16s %-8s %-20s %s\n", d->name, d->units, suites, d->teaches);
	}
	return UD_EXIT_OK;
}
