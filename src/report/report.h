/*
 * report.h - the diff as a report a person reads: text, Markdown or HTML,
 * rendered from the templates in report-templates/ (template.h), or the
 * diff document itself as JSON.
 *
 * Templates cannot format numbers, so the report first builds a typed view of
 * the diff (report_view.h): every number already formatted, table rows aligned
 * for text, and the HTML charts' geometry (report_chart.c: an overview of
 * every workload's speedup, waterfalls of the factors on one shared log
 * axis, A-vs-B bars for IPC and miss rates, a stacked CPI bar per host)
 * computed.  The view reads the typed model (diff.h) as compare's view reads
 * its own, with the labels of the factor and metric tables (diff.h,
 * derived.h), so no label lives here.  Strings from the profiles reach the
 * output only through the format's escaping.
 */
#ifndef UD_REPORT_H
#define UD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

enum ud_report_format { UD_REPORT_TEXT, UD_REPORT_JSON, UD_REPORT_MD, UD_REPORT_HTML };

int ud_report_format_parse(const char *name, enum ud_report_format *out);

/*
 * The width text reports fit (ud_text_fit, text.h), in characters: the
 * terminal's or COLUMNS, as the command finds it; UD_REPORT_WIDTH until a
 * command sets it, as when piped.  Markdown and HTML are not wrapped.
 */
#define UD_REPORT_WIDTH 80
/* The narrowest width honoured: below it the tables' fixed columns could not shrink to fit. */
#define UD_REPORT_WIDTH_MIN 60
void ud_report_set_width(size_t columns);
size_t ud_report_width(void);
/* The same as an option parser (options.h's UD_OPT_PARSE): dest is an enum ud_report_format. */
int ud_report_format_option(const char *arg, void *dest, struct ud_err *err);
/*
 * The -f/--format row of every command writing a report (diff, compare), for
 * options.h's tables, so that the formats and their help are written once:
 * dest an enum ud_report_format * (checked), schema the JSON document's name
 * as a string literal (UD_DIFF_SCHEMA).  UD_REPORT_FORMAT_SYNOPSIS is the
 * same list for the commands' synopses.
 */
#define UD_REPORT_FORMAT_OPTION(dest, schema)                                              \
	UD_PARSE_OPTION('f', "format", UD_OPTION_DEST(dest, enum ud_report_format *), "F", \
			"text (default), json (" schema "), md, html\n"                    \
			"(one self-contained file with inline SVG charts)", ud_report_format_option)
#define UD_REPORT_FORMAT_SYNOPSIS "[-f text|json|md|html]"

struct ud_diff;

/*
 * Writes diff to out in format f, with templates from dir (NULL:
 * ud_data_dir(UD_DATA_TEMPLATES)); JSON goes out as the model writes it,
 * without a tree.
 */
int ud_report_write(const struct ud_diff *diff, enum ud_report_format f, const char *dir, FILE *out,
		    struct ud_err *err);

/*
 * Renders the typed view (borrowed), read through its field table
 * (template.h), with the template STEM.txt, STEM.md or STEM.html (by f;
 * JSON has no template) from dir (NULL: ud_data_dir(UD_DATA_TEMPLATES)),
 * escaped for the format.
 */
struct ud_fields;
int ud_report_render_typed(const void *view, const struct ud_fields *fields, const char *stem, enum ud_report_format f,
			   const char *dir, FILE *out, struct ud_err *err);

struct ud_fleet;
struct ud_fleet_gaps;

/* What a fleet report holds beside its groups and outliers. */
struct ud_fleet_report {
	enum ud_report_format format;
	bool all_hosts; /* the per-host table (JSON always has it) */
	bool pairs;     /* every host's diff against the baseline */
	/*
	 * With pairs, where the pairs left out are recorded (fleet.h; the
	 * caller frees it with ud_fleet_gaps_free()), to warn of them; NULL:
	 * only the report names them.
	 */
	struct ud_fleet_gaps *gaps;
};


/* The names the fleet templates may use: its typed view's field table (static, borrowed), for ud_template_check(). */
const struct ud_fields *ud_fleet_fields(void);

/* Writes the fleet to out as r says (json: the uarchdiff.compare/2 document), templates from dir. */
int ud_fleet_write(const struct ud_fleet *f, const struct ud_fleet_report *r, const char *dir, FILE *out,
		   struct ud_err *err);

#endif
