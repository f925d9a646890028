/*
 * import_rows.c - the reading loop of the formats that print one counter a
 * line (import_rows.h): perf stat -x CSV and -j JSON lines.
 */
#include <string.h>

#include "import_block.h"
#include "import_lines.h"
#include "import_rows.h"

int imp_rows(struct ud_profile *p, struct lines *l, const char *name, const struct ud_import_opts *o,
	     import_row_fn row, void *ctx, const char *what, struct ud_err *err)
{
	const char *base = strrchr(name, '/');
	struct acc a;
	char *line;
	int ret = 0, rows = 0;

	imp_acc_init(&a);
	while (ret == 0 && (line = imp_lines_next(l)) != NULL) {
		int r;

		while (*line == ' ' || *line == '\t')
			line++;
		/* "$ perf stat -x, -r 5 ./x" or a root prompt's "# perf stat -a -j ..." above the rows */
		r = imp_acc_take_perf_command(&a, line, err);
		if (r < 0)
			ret = ud_err_prefix(err, "%s:%d", name, l->lineno);
		if (r != 0 || !*line || *line == '#')
			continue;
		r = imp_acc_take_count_line(&a, line, err);
		if (r < 0)
			ret = ud_err_prefix(err, "%s:%d", name, l->lineno);
		if (r != 0)
			continue;
		r = row(&a, line, ctx, name, l->lineno, err);
		ret = r < 0 ? -1 : 0;
		rows += r > 0;
	}
	if (ret == 0 && l->failed)
		ret = -1; /* err says why */
	if (ret == 0 && !rows)
		ret = ud_fail(err, "%s: no %s found", name, what);
	if (ret == 0) {
		json_t *taken = imp_names_taken(p);

		ret = taken ? imp_acc_to_workload(&a, p, o, base ? base + 1 : name, taken, err)
			    : ud_fail(err, "out of memory");
		json_decref(taken);
	}
	imp_acc_free(&a);
	return ret;
}
