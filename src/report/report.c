/*
 * report.c - writing a diff in the format asked for: the document itself as
 * JSON, streamed from the model, or the model's typed view (report_view.h)
 * through the format's template.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "diff.h"
#include "fileio.h"
#include "report.h"
#include "report_view.h"
#include "template.h"
#include "text.h"

int ud_report_format_parse(const char *name, enum ud_report_format *out)
{
	static const char *const names[] = { "text", "json", "md", "html" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i]) == 0) {
			*out = (enum ud_report_format)i;
			return 0;
		}
	}
	return -1;
}

int ud_report_format_option(const char *arg, void *dest, struct ud_err *err)
{
	static const char *const names[] = { "text", "json", "md", "html", "txt", "markdown" };
	const char *near;

	if (ud_report_format_parse(arg, dest) == 0)
		return 0;
	/* "txt" and "markdown" are what people type for two of them: suggest, never guess silently */
	near = ud_closest(arg, names, sizeof(names) / sizeof(names[0]));
	if (near)
		return ud_fail(err, "unknown format '%s'; did you mean '%s'? (text, json, md, html)", arg,
			       strcmp(near, "txt") == 0 ? "text" : strcmp(near, "markdown") == 0 ? "md" : near);
	return ud_fail(err, "unknown format '%s' (text, json, md, html)", arg);
}

/* What a page reads: a typed view and its field table. */
struct page_view {
	const void *data;
	const struct ud_fields *fields;
};

static int render_view(const char *tmpl, const char *path, const struct page_view *v, ud_escape_fn esc, FILE *out,
		       struct ud_err *err)
{
	return ud_template_render(tmpl, path, v->data, v->fields, esc, out, err);
}

/* Text rendered whole, then fitted to the width: the templates lay lines out, the fitting wraps them. */
static int render_fitted(const char *tmpl, const char *path, const struct page_view *view, FILE *out,
			 struct ud_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem)
		return ud_fail(err, "out of memory");
	ret = render_view(tmpl, path, view, ud_escape_text, mem, err);
	if (fclose(mem) != 0 && ret == 0)
		ret = ud_fail(err, "out of memory");
	if (ret == 0)
		ud_text_fit(buf, ud_report_width(), out);
	free(buf);
	return ret;
}

static int render_page(const struct page_view *view, const char *stem, enum ud_report_format f, const char *dir,
		       FILE *out, struct ud_err *err)
{
	static const struct {
		const char *ext;
		ud_escape_fn esc;
	} kinds[] = {
		[UD_REPORT_TEXT] = { "txt", ud_escape_text },
		[UD_REPORT_MD] = { "md", ud_escape_markdown },
		[UD_REPORT_HTML] = { "html", ud_escape_html },
	};
	char path[4096], dirbuf[4096], *tmpl;
	int ret;

	if (f != UD_REPORT_TEXT && f != UD_REPORT_MD && f != UD_REPORT_HTML)
		return ud_fail(err, "no template for this format");
	snprintf(path, sizeof(path), "%s/%s.%s", dir ? dir : ud_data_dir(UD_DATA_TEMPLATES, dirbuf, sizeof(dirbuf)),
		 stem, kinds[f].ext);
	tmpl = ud_read_file(path, UD_INPUT_TEMPLATE, NULL, err);
	if (!tmpl)
		return -1;
	ret = f == UD_REPORT_TEXT ? render_fitted(tmpl, path, view, out, err)
				  : render_view(tmpl, path, view, kinds[f].esc, out, err);
	free(tmpl);
	return ret;
}

int ud_report_render_typed(const void *view, const struct ud_fields *fields, const char *stem, enum ud_report_format f,
			   const char *dir, FILE *out, struct ud_err *err)
{
	return render_page(&(struct page_view){ .data = view, .fields = fields }, stem, f, dir, out, err);
}

int ud_report_write(const struct ud_diff *diff, enum ud_report_format f, const char *dir, FILE *out,
		    struct ud_err *err)
{
	struct ud_view_pool pool = { 0 };
	struct rv_report view;
	int ret;

	if (f == UD_REPORT_JSON)
		return ud_diff_write_json(diff, out) == 0 ? 0 : ud_fail(err, "cannot write the JSON report");
	ret = ud_report_view(&pool, diff, &view) == 0
		      ? ud_report_render_typed(&view, ud_report_fields(), "report", f, dir, out, err)
		      : ud_fail(err, "out of memory");
	ud_view_pool_free(&pool);
	return ret;
}
