/*
 * report_format.c - numbers as the report shows them, shared by the view and
 * the charts: a missing value reads "n/a", never "nan", "inf" or "(null)".
 */
#include <math.h>
#include <stdio.h>

#include "report_priv.h"

json_t *ud_rv_fmt(const char *format, double v)
{
	char buf[64];

	if (!isfinite(v))
		return json_string("n/a");
	snprintf(buf, sizeof(buf), format, v);
	return json_string(buf);
}

json_t *ud_rv_coord(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.1f", v);
	return json_string(buf);
}

double ud_rv_get(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

json_t *ud_rv_metric(double v, enum ud_metric m)
{
	return ud_metric_is_percent(m) ? ud_rv_fmt("%.2f%%", 100 * v) : ud_rv_fmt("%.3g", v);
}
