/*
 * report_format.h - numbers formatted for a person, as every view shows
 * them (report_format.c): never "nan", "inf" or "(null)", a missing value
 * reads "n/a".  The report's own files and teach's views share these.
 */
#ifndef UD_REPORT_FORMAT_H
#define UD_REPORT_FORMAT_H

#include <jansson.h>
#include <stddef.h>

/* printf of v, or "n/a" when v is not finite (new reference). */
json_t *ud_rv_fmt(const char *format, double v);
/* A ratio with its "x", as text.h's ud_format_ratio writes it ("0.979x", "1,222x"), "n/a" when not finite: a new reference. */
json_t *ud_rv_ratio(double v);
/* A count per unit into buf: "3,807" with thousands grouped, "91.1", "0.0436", "n/a". */
void ud_rv_count_text(double v, char *buf, size_t len);
/*
 * printf's text as a JSON string of the length it needs, made valid UTF-8
 * (ud_utf8_sanitize): the views' sentences and table rows hold workload,
 * event and host names as long as their users made them, so none is built
 * in a fixed-size array (issue 36).  A new reference; NULL when out of memory.
 */
json_t *ud_rv_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An SVG coordinate, one decimal (new reference). */
json_t *ud_rv_coord(double v);
/* v where it is finite, else NAN: what the report shows of a number the model could not compute. */
double ud_rv_known(double v);

#endif
