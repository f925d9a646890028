/*
 * report_format.h - numbers formatted for a person, as every view shows
 * them (report_format.c): never "nan", "inf" or "(null)", a missing value
 * reads "n/a", shared by the report's views.
 * Text built for a typed view goes into its pool (view_pool.h's
 * ud_view_pool_printf: as long as it needs, made valid UTF-8, issue 36).
 */
#ifndef UD_REPORT_FORMAT_H
#define UD_REPORT_FORMAT_H

#include <stddef.h>

/* A count per unit into buf: "3,807" with thousands grouped, "91.1", "0.0436", "n/a". */
void ud_rv_count_text(double v, char *buf, size_t len);
/* v where it is finite, else NAN: what the report shows of a number the model could not compute. */
double ud_rv_known(double v);

#endif
