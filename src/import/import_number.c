/*
 * import_number.c - numbers as perf prints them in any locale
 * (import_number.h).  Scanned as decimals and scaled once, so 34,021.81 msec
 * becomes exactly 34021810000 ns; neither strtod nor the process's
 * LC_NUMERIC is involved, so the result does not depend on the locale
 * uarchdiff runs under, only on the one perf printed in.
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "import_number.h"

/* Bytes of a thousands separator at s (0 if none): ',', '.', '\'', ' ', U+00A0, U+202F. */
static int sep_len(const char *s, char *kind)
{
	if (*s == ',' || *s == '.' || *s == '\'' || *s == ' ') {
		*kind = *s;
		return 1;
	}
	if ((unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xa0) {
		*kind = ' ';
		return 2;
	}
	if ((unsigned char)s[0] == 0xe2 && (unsigned char)s[1] == 0x80 && (unsigned char)s[2] == 0xaf) {
		*kind = ' ';
		return 3;
	}
	return 0;
}

/* An ASCII digit, whatever the locale: isdigit()'s table lookup costs a call a byte, and numbers are most of a paste. */
static bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static size_t digit_run(const char *s)
{
	size_t n = 0;

	while (is_digit(s[n]))
		n++;
	return n;
}

size_t imp_timestamp_len(const char *s)
{
	size_t n = digit_run(s);

	if (!n || s[n] != '.')
		return 0;
	for (size_t k = 1; k <= 9; k++)
		if (!is_digit(s[n + k]))
			return 0;
	return n + 10;
}

int imp_scan_decimal(const char *s, const char **end, struct decimal *d, struct ud_err *err)
{
	return imp_scan_decimal_as(s, end, d, 0, err);
}

/* The largest exponent read: 10^30 is past any 64-bit count; more is a misreading, left unread. */
#define EXPONENT_MAX 30

/*
 * "e+09" after a number's digits, as perf's robot tables and some pastes
 * print large counts (1.314e+09): folded into d's decimal places; p where
 * none follows (the "e" of "events" is no exponent: it needs digits).
 */
static const char *exponent(const char *p, struct decimal *d)
{
	const char *q = p + 1;
	int sign = 1, e = 0;

	if (*p != 'e' && *p != 'E')
		return p;
	if (*q == '+' || *q == '-')
		sign = *q++ == '-' ? -1 : 1;
	if (!isdigit((unsigned char)*q))
		return p;
	for (; isdigit((unsigned char)*q); q++) {
		e = e * 10 + (*q - '0');
		if (e > EXPONENT_MAX)
			return p;
	}
	if (isalnum((unsigned char)*q) || *q == '_')
		return p;
	d->frac -= sign * e;
	return q;
}

/* Digits a uint64_t always holds (10^19 - 1 < 2^64): a number of no more needs no overflow test a digit. */
#define SAFE_DIGITS 19

/*
 * The common spellings, read in one pass: plain digits ("1112648"), one
 * mark with digits after it ("1001.12", "85,01"), and digits grouped by
 * one repeated mark in threes ("1,112,648").  True with d and *end set
 * exactly as imp_scan_decimal_as()'s general reading would; false where
 * that reading is needed (other separators, an exponent, a mix of marks,
 * a malformed grouping, too many digits), nothing set.  Most rows of a
 * long paste hold only these, and the general reading costs several times
 * as much a number.  lone_decimal: a lone mark is the decimal one (lone_mark()).
 */
static bool scan_common(const char *s, const char **end, struct decimal *d, char decimal_mark, bool lone_decimal)
{
	const char *p = s;
	uint64_t mant = 0;
	size_t digits = 0, groups = 0, last = 0;
	char mark = 0, kind;
	bool threes = true; /* every group after a mark three digits */
	int sl;

	for (; is_digit(*p); p++, digits++)
		mant = mant * 10 + (uint64_t)(*p - '0');
	size_t first = digits;

	while ((*p == ',' || *p == '.') && is_digit(p[1]) && (!mark || *p == mark)) {
		mark = *p++;
		for (last = 0; is_digit(*p); p++, last++, digits++)
			mant = mant * 10 + (uint64_t)(*p - '0');
		groups++;
		threes = threes && last == 3;
	}
	sl = sep_len(p, &kind);
	if (digits > SAFE_DIGITS || *p == 'e' || *p == 'E' || (sl && is_digit(p[sl])) || (*p == mark && mark))
		return false;
	d->frac = 0;
	if (groups == 1 && (last != 3 || mark == decimal_mark || lone_decimal))
		d->frac = (int)last; /* the one mark is the decimal one */
	else if (groups && (!threes || first > 3))
		return false; /* a grouping the general reading refuses */
	d->mant = mant;
	*end = p;
	return true;
}

int imp_scan_decimal_as(const char *s, const char **end, struct decimal *d, char decimal_mark, struct ud_err *err)
{
	struct {
		char kind;
		size_t digits;
		const char *at;
	} seps[64];
	size_t nseps = 0, first, commas = 0, dots = 0;
	const char *p, *decimal = NULL;

	if (!is_digit(*s))
		return 0;
	if (scan_common(s, end, d, decimal_mark, false))
		return 1;
	first = digit_run(s);
	p = s + first;
	for (;;) {
		char kind;
		int sl = sep_len(p, &kind);
		size_t n = sl ? digit_run(p + sl) : 0;

		if (!sl || !n)
			break;
		/* A space is a separator only before a group of exactly three digits. */
		if (kind == ' ' && (n != 3 || first > 3))
			break;
		if (nseps == sizeof(seps) / sizeof(seps[0]))
			return ud_fail(err, "number too long");
		seps[nseps].kind = kind;
		seps[nseps].digits = n;
		seps[nseps++].at = p;
		commas += kind == ',';
		dots += kind == '.';
		p += (size_t)sl + n;
	}
	/* The decimal separator, if any, is the last one, where groups allow it. */
	if (nseps) {
		char k = seps[nseps - 1].kind;
		size_t same = k == ',' ? commas : k == '.' ? dots : 0, other = k == ',' ? dots : commas;

		struct decimal probe = { 0, 0 };
		/* 1.314e+09: a mantissa's one mark is its decimal point, whatever the block's */
		bool scientific = nseps == 1 && exponent(p, &probe) != p;

		if ((k == ',' || k == '.') && same == 1 &&
		    (other || seps[nseps - 1].digits != 3 || (nseps == 1 && k == decimal_mark) || scientific))
			decimal = seps[nseps - 1].at; /* 1.234,56 1,234.56 0,72 45.112821074, 12.866 in an English block */
		for (size_t i = 0; i < nseps; i++)
			if (seps[i].at != decimal && (seps[i].digits != 3 || first > 3))
				return ud_fail(err, "malformed number '%.*s'", (int)(p - s), s);
	}
	d->mant = 0;
	d->frac = 0;
	for (const char *q = s; q < p; q++) {
		uint64_t digit = (uint64_t)(*q - '0');

		if (!is_digit(*q))
			continue;
		/* mant * 10 + digit past UINT64_MAX, told without a division a digit */
		if (d->mant >= UINT64_MAX / 10 && (d->mant > UINT64_MAX / 10 || digit > UINT64_MAX % 10))
			return ud_fail(err, "number '%.*s' is too large for a 64-bit counter", (int)(p - s), s);
		d->mant = d->mant * 10 + digit;
		d->frac += decimal && q > decimal;
	}
	*end = exponent(p, d);
	return 1;
}

/* 10^0 .. 10^22, each exact in a double (5^22 < 2^53): what pow(10, k) returns for them, without its cost a row. */
static const double exact_pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
				      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

double imp_decimal_value(struct decimal d, int pow10)
{
	int k = pow10 - d.frac;
	uint64_t r = d.mant;

	if (k >= 0) {
		for (int i = 0; i < k; i++) {
			if (r > UINT64_MAX / 10)
				return (double)d.mant * pow(10, k);
			r *= 10;
		}
		return (double)r;
	}
	/* Both operands exact, so IEEE division rounds to the nearest double, as strtod would. */
	if (d.mant < (uint64_t)IMPORT_EXACT_MAX && -k <= 22)
		return (double)d.mant / exact_pow10[-k];
	return (double)d.mant * pow(10, k);
}

int imp_parse_number_str(const char *s, int pow10, double *value, struct ud_err *err)
{
	struct decimal d;
	const char *end;
	int r;

	while (isspace((unsigned char)*s))
		s++;
	r = imp_scan_decimal(s, &end, &d, err);
	if (r < 0)
		return -1;
	while (r > 0 && isspace((unsigned char)*end))
		end++;
	if (r == 0 || *end)
		return ud_fail(err, "'%s' is not a number", s);
	*value = imp_decimal_value(d, pow10);
	return 0;
}

/*
 * perf -x and -j print no grouping marks (they turn big_num off), so a
 * field's one mark is its decimal one: "1.234,msec" is 1.234 ms, not 1234.
 * 0 where there are several (a hand-grouped "1.234.567") or none.
 */
static char lone_mark(const char *field)
{
	const char *mark = strpbrk(field, ".,");

	return mark && !strpbrk(mark + 1, ".,") ? *mark : 0;
}

int imp_parse_field_number(const char *field, int pow10, double *value, struct ud_err *err)
{
	struct decimal d;
	const char *end;

	while (isspace((unsigned char)*field))
		field++;
	if (imp_scan_decimal_as(field, &end, &d, lone_mark(field), err) <= 0 || *end)
		return ud_fail(err, "'%s' is not a number", field);
	*value = imp_decimal_value(d, pow10);
	return 0;
}

int imp_parse_counter_value(const char *field, const char *unit, enum ud_count_status *status, double *value,
			struct ud_err *err)
{
	struct decimal d;
	const char *end;
	int r;

	*value = 0;
	/* a field that is one number throughout, the common case, needs no look for its lone mark first */
	if (is_digit(*field) && scan_common(field, &end, &d, 0, true) && !*end) {
		*status = UD_COUNTED;
		*value = imp_decimal_value(d, unit && strcmp(unit, "msec") == 0 ? 6 : 0);
		return 1;
	}
	if (*field == '<' && (strcmp(field, "<not supported>") == 0 || strcmp(field, "<not counted>") == 0)) {
		*status = field[5] == 's' ? UD_NOT_SUPPORTED : UD_NOT_COUNTED;
		return 1;
	}
	/* perf never prints a negative count: one is a corrupted or edited file, not program output */
	if (field[0] == '-' && isdigit((unsigned char)field[1]))
		return ud_fail(err, "'%s': a count cannot be negative", field);
	r = imp_scan_decimal_as(field, &end, &d, lone_mark(field), err);
	if (r <= 0 || *end)
		return r < 0 ? -1 : 0;
	*status = UD_COUNTED;
	*value = imp_decimal_value(d, unit && strcmp(unit, "msec") == 0 ? 6 : 0);
	return 1;
}

/* A run of digits and marks at s that starts a number (not the 1 of L1-dcache or r5300c0). */
static bool number_start(const char *line, const char *s)
{
	return isdigit((unsigned char)*s) &&
	       (s == line || !(isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '.' || s[-1] == ','));
}

/* The mark this number's own spelling makes the decimal one; 0 when it does not say. */
static char decided_mark(const char *s, const char **end)
{
	size_t first = digit_run(s), groups = 0, last_digits = 0, dots = 0, commas = 0;
	bool all_three = true, leading_zero = first == 1 && *s == '0';
	char last = 0;

	s += first;
	while ((*s == '.' || *s == ',') && isdigit((unsigned char)s[1])) {
		last = *s;
		dots += *s == '.';
		commas += *s == ',';
		last_digits = digit_run(s + 1);
		all_three = all_three && last_digits == 3;
		groups++;
		s += 1 + last_digits;
	}
	*end = s;
	if (groups == 0)
		return 0;
	if (dots && commas)
		return (last == '.' ? dots : commas) == 1 ? last : 0; /* 1,234.56  1.234,56 */
	if (groups > 1)
		return all_three && first <= 3 ? (last == '.' ? ',' : '.') : 0; /* 1.234.567: '.' groups */
	if (last_digits != 3 || first > 3 || leading_zero)
		return last; /* 0.998  85.70  1834.220  0,311 */
	return 0;        /* 12.866: either */
}

void imp_decimal_votes_add(struct decimal_votes *v, const char *line)
{
	for (const char *s = line; *s;) {
		const char *end;
		char m;

		if (!number_start(line, s)) {
			s++;
			continue;
		}
		m = decided_mark(s, &end);
		v->dot += m == '.';
		v->comma += m == ',';
		s = end;
	}
}

char imp_decimal_votes_mark(const struct decimal_votes *v)
{
	if (v->dot == v->comma)
		return 0;
	return v->dot > v->comma ? '.' : ',';
}

/* A letter-prefixed number ("S0", "D12", "ID3") at s, within end: past it, or NULL. */
static const char *tagged_number(const char *s, const char *end, const char *tag)
{
	size_t k = strlen(tag), d;

	if ((size_t)(end - s) <= k || strncmp(s, tag, k) != 0)
		return NULL;
	d = strspn(s + k, "0123456789");
	return d && s + k + d <= end ? s + k + d : NULL;
}

bool imp_is_aggregation_id(const char *s, size_t n)
{
	static const char *const parts[] = { "-D", "-C", "-L", "-ID", "-T" };
	const char *end = s + n, *p;

	/* most fields it is asked of are counts: no tag, no scan */
	if (n == 0 || (*s != 'S' && *s != 'N'))
		return false;
	p = tagged_number(s, end, "S");
	if (!p)
		return (p = tagged_number(s, end, "N")) != NULL && p == end;
	for (size_t i = 0; p && p < end && i < sizeof(parts) / sizeof(parts[0]); i++) {
		const char *q = tagged_number(p, end, parts[i]);

		p = q ? q : p;
	}
	return p == end;
}

int imp_plain_number(const char *s, const char **end, double *value, struct ud_err *err)
{
	struct decimal d = { 0, 0 };
	size_t whole = 0, frac = 0;

	while (isdigit((unsigned char)s[whole]))
		whole++;
	if (whole == 0)
		return 0;
	if (whole > IMPORT_PLAIN_DIGITS)
		return ud_fail(err, "number '%.*s' is too large (more than %d digits)", (int)(whole < 40 ? whole : 40), s,
			       IMPORT_PLAIN_DIGITS);
	if (s[whole] == '.')
		while (isdigit((unsigned char)s[whole + 1 + frac]))
			frac++;
	/* "12." is a number cut short, not 12 */
	if (s[whole] == '.' && frac == 0)
		return ud_fail(err, "malformed number '%.*s'", (int)whole + 1, s);
	/* by hand, not strtod(): the process's locale may want a ',' */
	for (size_t i = 0; i < whole; i++)
		d.mant = d.mant * 10 + (uint64_t)(s[i] - '0');
	/* digits past the 19th of a uint64_t are below any precision these tools print */
	for (size_t i = 0; i < frac && whole + i < 19; i++, d.frac++)
		d.mant = d.mant * 10 + (uint64_t)(s[whole + 1 + i] - '0');
	*value = imp_decimal_value(d, 0);
	*end = s + whole + (frac ? 1 + frac : 0);
	return 1;
}
