/*
 * import_perf_json.c - `perf stat -j`: JSON lines, one object per counter
 * ("counter-value" a string that may be "<not supported>"), possibly after a
 * "# started on" line and among the program's own output; perf 6.x's
 * metric-only and "metricgroup" lines; the trailing comma some versions
 * print before "}".
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "import_event_name.h"
#include "import_number.h"
#include "import_parsers.h"
#include "import_rows.h"

/* "metric-value" as perf writes it: a number, a string holding one, or empty where it computed none. */
static double metric_value(const json_t *v)
{
	double d;

	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v) && imp_parse_field_number(json_string_value(v), 0, &d, NULL) == 0)
		return d;
	return NAN;
}

/*
 * perf's own metric on this line ("metric-unit": "%  tma_backend_bound"),
 * beside event's counter or, event NULL, alone, where any text names it; a
 * "metricgroup" line's label sets the core type of the metrics after it.
 */
static int take_metric(struct acc *a, const json_t *o, const char *event, const char *name, int lineno,
		       struct ud_err *err)
{
	const char *unit = json_string_value(json_object_get(o, "metric-unit"));
	const char *group = json_string_value(json_object_get(o, "metricgroup"));
	double value = metric_value(json_object_get(o, "metric-value"));
	char *metric;
	int r;

	if (group && !event)
		imp_acc_metric_group(a, group);
	if (!unit || (r = imp_metric_name_new(unit, strlen(unit), event == NULL, &metric)) == 0)
		return 0;
	if (r > 0)
		r = event ? imp_acc_set_counter_metric(a, event, metric, value) : imp_acc_set_metric(a, metric, value);
	free(metric);
	if (r != 0)
		return ud_fail(err, "%s:%d: out of memory", name, lineno);
	return 1;
}

/*
 * perf's "variance" : 0.78 (print_noise_pct_json(), "%.2f" of the relative
 * standard error in percent) as a fraction, exactly as text and CSV read
 * "0.78%": from the decimal perf printed, which 15 significant digits give
 * back, not 0.78 / 100 in binary (0.0078000000000000005).
 */
static double variance_fraction(double pct)
{
	char printed[32];
	double v;

	snprintf(printed, sizeof(printed), "%.15g", pct);
	return imp_parse_field_number(printed, -2, &v, NULL) == 0 ? v : NAN;
}

static int take_object(struct acc *a, const json_t *o, const char *name, int lineno, struct ud_err *err)
{
	const char *value = json_string_value(json_object_get(o, "counter-value"));
	const char *event = json_string_value(json_object_get(o, "event"));
	const char *unit = json_string_value(json_object_get(o, "unit"));
	const json_t *pct = json_object_get(o, "pcnt-running"), *var = json_object_get(o, "variance");
	const json_t *interval = json_object_get(o, "interval");
	enum ud_count_status status = UD_COUNTED;
	double v = 0, p = NAN, spread = NAN;
	int r;

	/* metric-only lines and metric group headers ("metricgroup") have no event */
	if (!event)
		return take_metric(a, o, NULL, name, lineno, err);
	if (!value)
		return ud_fail(err, "%s:%d: \"counter-value\" missing or not a string", name, lineno);
	if (json_is_number(interval) && json_number_value(interval) >= 0)
		imp_acc_interval(a, json_number_value(interval));
	/* old perf: task-clock in milliseconds without a unit */
	if ((!unit || !*unit) && imp_is_clock_event(event))
		unit = "msec";
	r = imp_parse_counter_value(value, unit, &status, &v, err);
	if (r < 0)
		return ud_err_prefix(err, "%s:%d: counter-value", name, lineno);
	if (r == 0)
		return ud_fail(err, "%s:%d: counter-value: not a number", name, lineno);
	if (json_is_number(pct) && status == UD_COUNTED)
		p = json_number_value(pct);
	if (json_is_number(var))
		spread = variance_fraction(json_number_value(var));
	else if (json_is_string(var) && imp_parse_number_str(json_string_value(var), -2, &spread, NULL) != 0)
		spread = NAN;
	if (status != UD_COUNTED)
		spread = NAN; /* perf's "variance" : 0.00 beside "<not supported>": no spread was measured */
	if (imp_check_running_pct(p, err) != 0)
		return ud_err_prefix(err, "%s:%d: pcnt-running", name, lineno);
	/* -A's rows name their CPU ("cpu"), -I's their interval: parts of a count, which add up */
	if (imp_acc_add_in(a, event, json_string_value(json_object_get(o, "cgroup")), status, v, p, spread,
			   json_object_get(o, "cpu") || json_is_number(interval)) != 0)
		return ud_fail(err, "%s:%d: out of memory", name, lineno);
	return take_metric(a, o, event, name, lineno, err) < 0 ? -1 : 1;
}

/* Some perf versions end a line's object with ", }", which JSON forbids: drop that comma (and one after "}"). */
static void drop_trailing_comma(char *line)
{
	size_t n = strlen(line);

	while (n && (isspace((unsigned char)line[n - 1]) || line[n - 1] == ','))
		line[--n] = '\0';
	if (n && line[n - 1] == '}') {
		size_t k = n - 1;

		while (k && isspace((unsigned char)line[k - 1]))
			k--;
		if (k && line[k - 1] == ',') {
			line[k - 1] = '}';
			line[k] = '\0';
		}
	}
}

/* One JSON object a line; other lines are the program's output. */
static int take_line(struct acc *a, char *line, void *ctx, const char *name, int lineno, struct ud_err *err)
{
	json_error_t jerr;
	json_t *obj;
	int r;

	(void)ctx;
	if (*line != '{')
		return 0;
	drop_trailing_comma(line);
	obj = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
	if (!obj)
		return ud_fail(err, "%s:%d:%d: %s", name, lineno, jerr.column, jerr.text);
	r = json_is_object(obj) ? take_object(a, obj, name, lineno, err) : 0;
	json_decref(obj);
	return r;
}

int imp_perf_json(struct ud_profile *p, struct lines *l, const char *name, const struct ud_import_opts *o,
		struct ud_err *err)
{
	return imp_rows(p, l, name, o, take_line, NULL, "perf stat -j counter objects", err);
}
