#include <stdlib.h>
#include <string.h>

#include "selection.h"
#include "text.h"

/* A workload by name: built-in first, then the external specs that can run here; NULL with err. */
static const struct ud_workload_def *find_def(const char *name, const struct ud_spec *specs, size_t nspecs,
					      int *unavailable, struct ud_err *err)
{
	const struct ud_workload_def *d = ud_workload_find(name);
	struct ud_err why = UD_ERR_INIT;

	*unavailable = 0;
	if (d && d->available && d->available(&why) != 0) {
		*unavailable = 1;
		return ud_fail(err, "%s: %s", name, why.msg), NULL;
	}
	for (size_t i = 0; !d && i < nspecs; i++) {
		if (strcmp(specs[i].name, name) != 0)
			continue;
		if (!ud_spec_available(&specs[i], &why, NULL, 0)) {
			*unavailable = 1;
			return ud_fail(err, "%s", why.msg), NULL;
		}
		d = &specs[i].def;
	}
	return d;
}

/* "unknown workload 'sycall'; did you mean 'syscall'?": the nearest built-in or spec name, not all 32. */
static int unknown_workload(const char *name, const struct ud_spec *specs, size_t nspecs, struct ud_err *err)
{
	size_t total;
	const struct ud_workload_def *const *all = ud_workloads_all(&total);
	const char **names = malloc((total + nspecs + 1) * sizeof(*names)), *near = NULL;

	for (size_t i = 0; names && i < total; i++)
		names[i] = all[i]->name;
	for (size_t i = 0; names && i < nspecs; i++)
		names[total + i] = specs[i].name;
	if (names)
		near = ud_closest(name, names, total + nspecs);
	if (near)
		ud_fail(err, "unknown workload '%s'; did you mean '%s'? ('uarchdiff workloads' lists them)", name, near);
	else
		ud_fail(err, "unknown workload '%s'; 'uarchdiff workloads' lists them", name);
	free(names);
	return -1;
}

/* A suite's workloads, in registry order, those that cannot run here told to skipped. */
static size_t suite_workloads(unsigned suite, const struct ud_spec *specs, size_t nspecs,
			      const struct ud_workload_def **out, ud_skipped_fn skipped, void *arg)
{
	size_t total, n = 0;
	const struct ud_workload_def *const *all = ud_workloads_all(&total);
	struct ud_err why = UD_ERR_INIT;
	char line[sizeof(why.msg) + 64];

	for (size_t i = 0; i < total; i++) {
		if (!(all[i]->suites & suite))
			continue;
		if (!all[i]->available || all[i]->available(&why) == 0) {
			out[n++] = all[i];
		} else if (skipped) {
			snprintf(line, sizeof(line), "skipping %s: %s", all[i]->name, why.msg);
			skipped(arg, line);
		}
	}
	for (size_t i = 0; i < nspecs; i++) {
		if (!(specs[i].suites & suite))
			continue;
		if (ud_spec_available(&specs[i], &why, NULL, 0)) {
			out[n++] = &specs[i].def;
		} else if (skipped) {
			snprintf(line, sizeof(line), "skipping %s", why.msg);
			skipped(arg, line);
		}
	}
	return n;
}

/* The -w names in order; 0, or -1 with err. */
static int named_workloads(const char *names, const struct ud_spec *specs, size_t nspecs,
			   const struct ud_workload_def **out, size_t max, size_t *n, struct ud_err *err)
{
	char *copy = strdup(names), *save = NULL;
	int ret = copy ? 0 : ud_fail(err, "out of memory");

	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && ret == 0; t = strtok_r(NULL, ",", &save)) {
		int unavailable;
		const struct ud_workload_def *d = find_def(t, specs, nspecs, &unavailable, err);

		if (!d) {
			ret = unavailable ? -1 : unknown_workload(t, specs, nspecs, err);
			break;
		}
		for (size_t k = 0; k < *n && ret == 0; k++)
			if (out[k] == d)
				ret = ud_fail(err, "-w names '%s' twice", t);
		if (ret == 0 && *n < max)
			out[(*n)++] = d;
	}
	free(copy);
	if (ret == 0 && *n == 0)
		ret = ud_fail(err, "-w names no workload");
	return ret;
}

const struct ud_workload_def **ud_workloads_select(const char *names, unsigned suite, const struct ud_spec *specs,
						   size_t nspecs, size_t *n, ud_skipped_fn skipped, void *arg,
						   struct ud_err *err)
{
	size_t total;
	const struct ud_workload_def **out;

	ud_workloads_all(&total);
	*n = 0;
	out = calloc(total + nspecs + 1, sizeof(*out));
	if (!out)
		return ud_fail(err, "out of memory"), NULL;
	if (!names) {
		*n = suite_workloads(suite, specs, nspecs, out, skipped, arg);
		return out;
	}
	if (named_workloads(names, specs, nspecs, out, total + nspecs, n, err) != 0) {
		free(out);
		*n = 0;
		return NULL;
	}
	return out;
}
