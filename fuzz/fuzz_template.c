/*
 * libFuzzer target over the report template renderer and its name check:
 * the first byte picks the escaping (text, Markdown, HTML), the rest is the
 * template, checked against and rendered from a made-up typed view with
 * every field kind the reports' views have (strings, a number, booleans, a
 * list of rows holding a list, a struct holding a struct, a NULL object, a
 * list of strings), under the names the seeds use.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

struct fz_cpu {
	const char *model;
};

struct fz_host {
	struct fz_cpu cpu;
};

struct fz_row {
	const char *k;
	const char **list;
	size_t nlist;
};

struct fz_view {
	const char *name, *empty;
	int n;
	bool yes, no;
	struct fz_row *rows;
	size_t nrows;
	struct fz_host host;
	struct fz_row *none;
	const char **items;
	size_t nitems;
};

static const struct ud_field cpu_rows[] = { UD_FIELD(struct fz_cpu, model, UD_FIELD_STRING) };
static const struct ud_fields cpu_fields = UD_FIELDS("a cpu", cpu_rows);
static const struct ud_field host_rows[] = { UD_FIELD_SUB(struct fz_host, cpu, UD_FIELD_STRUCT, &cpu_fields) };
static const struct ud_fields host_fields = UD_FIELDS("a host", host_rows);
static const struct ud_field row_rows[] = {
	UD_FIELD(struct fz_row, k, UD_FIELD_STRING),
	UD_FIELD_STRINGS_OF(struct fz_row, list, nlist),
};
static const struct ud_fields row_fields = UD_FIELDS("a row", row_rows);
static const struct ud_field view_rows[] = {
	UD_FIELD(struct fz_view, name, UD_FIELD_STRING),
	UD_FIELD(struct fz_view, empty, UD_FIELD_STRING),
	UD_FIELD(struct fz_view, n, UD_FIELD_INT),
	UD_FIELD(struct fz_view, yes, UD_FIELD_BOOL),
	UD_FIELD(struct fz_view, no, UD_FIELD_BOOL),
	UD_FIELD_LIST_OF(struct fz_view, rows, nrows, &row_fields),
	UD_FIELD_SUB(struct fz_view, host, UD_FIELD_STRUCT, &host_fields),
	UD_FIELD_SUB(struct fz_view, none, UD_FIELD_OBJECT, &row_fields),
	UD_FIELD_STRINGS_OF(struct fz_view, items, nitems),
};
static const struct ud_fields view_fields = UD_FIELDS("the view", view_rows);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const ud_escape_fn escapes[] = { ud_escape_text, ud_escape_markdown, ud_escape_html };
	static const char *list[] = { "1", "2" }, *items[] = { "p", "q" };
	static struct fz_row rows[] = { { "a", list, 2 }, { "b", NULL, 0 } };
	static const struct fz_view view = { .name = "<w & \"x\">", .empty = "", .n = 3, .yes = true, .rows = rows,
					     .nrows = 2, .host = { { "Genoa" } }, .items = items, .nitems = 2 };
	static FILE *sink;
	struct ud_err err;
	char *tmpl;

	if (size == 0)
		return 0;
	if (!sink)
		sink = fopen("/dev/null", "w");
	tmpl = malloc(size);
	if (!tmpl || !sink) {
		free(tmpl);
		return 0;
	}
	memcpy(tmpl, data + 1, size - 1);
	tmpl[size - 1] = '\0';
	ud_template_check(tmpl, "fuzz", &view_fields, &err);
	ud_template_render(tmpl, "fuzz", &view, &view_fields, escapes[data[0] % 3], sink, &err);
	free(tmpl);
	return 0;
}
