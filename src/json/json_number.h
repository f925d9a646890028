/*
 * json_number.h - doubles as the shortest text that reads back as the same
 * double.  jansson prints every real with "%.17g", which costs a
 * multiprecision printf per number (a fifth of a 1,000-workload diff) and
 * writes 0.92434903390305778 where 0.9243490339030578 is the same double.
 */
#ifndef UD_JSON_NUMBER_H
#define UD_JSON_NUMBER_H

#include <stddef.h>

/* "-1.2345678901234567e-308" and a NUL. */
#define UD_JSON_DOUBLE_MAX 32

/*
 * Writes finite v into buf as a JSON number that strtod() reads back as v
 * exactly, always with a '.' or an exponent (so it reads back as a real):
 * plain notation for 1e-5 <= |v| < 1e17 ("0.1", "3.0", "-0.0"), else
 * "1.5e-07" or "1e+20".  Returns the length; an infinity or NaN (JSON has
 * neither) writes "null".
 */
size_t ud_json_format_double(double v, char buf[UD_JSON_DOUBLE_MAX]);

#endif
