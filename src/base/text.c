#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

char *ud_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Characters (UTF-8 sequences' lead bytes) in s[0..n). */
static size_t columns_of(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The byte offset in s[0..n) where its column col begins (n when the line is shorter). */
static size_t offset_of_column(const char *s, size_t n, size_t col)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == col)
			return i;
	}
	return n;
}

/* Where a fitted line's continuations start: under its last column (a table row), else its indent plus two. */
static size_t continuation(const char *line, size_t n, size_t width)
{
	size_t indent = strspn(line, " "), last = 0;

	for (size_t i = indent; i + 1 < n; i++)
		if (line[i] == ' ' && line[i + 1] == ' ' && i + 2 < n && line[i + 2] != ' ')
			last = i + 2;
	if (last && columns_of(line, last) <= 2 * width / 3)
		return columns_of(line, last);
	/* a paragraph at the margin goes on at the margin; an indented line hangs under its first word */
	return indent && indent + 2 < width / 2 ? indent + 2 : indent;
}

/* lead spaces, then line[0..n): what "%*s%.*s" printed, without a printf per line of a long report. */
static void put_led(FILE *out, size_t lead, const char *line, size_t n)
{
	static const char spaces[] = "                                ";

	for (size_t k; lead; lead -= k) {
		k = lead < sizeof(spaces) - 1 ? lead : sizeof(spaces) - 1;
		fwrite(spaces, 1, k, out);
	}
	fwrite(line, 1, n, out);
}

/* One line (no newline in line[0..n)) fitted to width, continuations at cont. */
static void fit_line(const char *line, size_t n, size_t width, FILE *out)
{
	size_t cont = continuation(line, n, width), lead = 0;

	while (columns_of(line, n) + lead > width) {
		size_t limit = offset_of_column(line, n, width - lead), cut = limit;

		while (cut > 0 && line[cut] != ' ')
			cut--;
		while (cut > 0 && line[cut - 1] == ' ')
			cut--;
		if (cut <= strspn(line, " ")) { /* one word wider than the line: it stays whole */
			cut = limit;
			while (cut < n && line[cut] != ' ')
				cut++;
		}
		if (cut >= n)
			break;
		put_led(out, lead, line, cut);
		fputc('\n', out);
		line += cut;
		n -= cut;
		while (n && *line == ' ')
			line++, n--;
		lead = cont;
	}
	put_led(out, lead, line, n);
}

void ud_text_fit(const char *text, size_t width, FILE *out)
{
	while (*text) {
		size_t n = strcspn(text, "\n");

		fit_line(text, n, width, out);
		text += n;
		if (*text == '\n')
			fputc(*text++, out);
	}
}

/* v whole, its thousands grouped: "48,746,027". */
static void grouped(double v, char *buf, size_t len)
{
	char digits[32];
	size_t n = (size_t)snprintf(digits, sizeof(digits), "%.0f", fabs(v)), out = 0;

	if (v < 0 && out + 1 < len)
		buf[out++] = '-';
	for (size_t i = 0; i < n && out + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = digits[i];
	}
	buf[out] = '\0';
}

/* SI's prefixes from tera (10^12) to quetta (10^30): past them a number a person reads takes an exponent. */
#define SI_FIRST 1e12
#define SI_PAST_LAST 999.5e30
/* Below this, plain decimals would be more zeros than a person counts: an exponent instead. */
#define PLAIN_SMALLEST 1e-18

const char *ud_format_human(double v, char *buf, size_t len)
{
	static const char *const si[] = { "T", "P", "E", "Z", "Y", "R", "Q" };
	double a = fabs(v);

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
	} else if (a == 0) {
		snprintf(buf, len, "0"); /* -0 too: no sign on nothing */
	} else if (a >= SI_PAST_LAST || a < PLAIN_SMALLEST) {
		snprintf(buf, len, "%.3g", v); /* 1e+40, 1.8e+308, 4.94e-324 */
	} else if (a >= SI_FIRST) {
		int k = 0;

		/* 999.5T rounds to "1e+03T" in %.3g: it reads 1P */
		for (a /= SI_FIRST; a >= 999.5 && k < 6; k++)
			a /= 1000;
		snprintf(buf, len, "%s%.3g%s", v < 0 ? "-" : "", a, si[k]);
	} else if (a >= 999.5) {
		grouped(round(v), buf, len);
	} else if (a == 0 || a >= 1e-4) {
		snprintf(buf, len, "%.3g", v); /* %.3g writes no exponent from 1e-4 to 999 */
	} else {
		/* three significant digits after the zeros, trailing zeros dropped: 3.26e-05 reads 0.0000326 */
		int decimals = 2 - (int)floor(log10(a));
		size_t n;

		snprintf(buf, len, "%.*f", decimals > 20 ? 20 : decimals, v);
		n = strlen(buf);
		while (n > 1 && buf[n - 1] == '0')
			buf[--n] = '\0';
	}
	return buf;
}

#define NS_PER_US 1e3
#define NS_PER_MS 1e6
#define NS_PER_S 1e9

void ud_format_ns(double ns, char *buf, size_t len)
{
	if (!isfinite(ns))
		snprintf(buf, len, "n/a");
	else if (fabs(ns) < NS_PER_US)
		snprintf(buf, len, "%.3g ns", ns);
	else if (fabs(ns) < NS_PER_MS)
		snprintf(buf, len, "%.3g µs", ns / NS_PER_US);
	else if (fabs(ns) < NS_PER_S)
		snprintf(buf, len, "%.3g ms", ns / NS_PER_MS);
	else
		snprintf(buf, len, "%.3g s", ns / NS_PER_S);
}

/*
 * The format characters (Unicode's general category Cf, as
 * DerivedGeneralCategory.txt of Unicode 15.1 lists them) and the line and
 * paragraph separators (Zl, Zp).  A terminal or an editor shows none of
 * them but obeys some: the bidirectional controls reorder the text around
 * them ("Trojan Source", CVE-2021-42574), the others are invisible, so
 * that "int\u200b" looks exactly like the workload "int".
 */
static const struct { unsigned lo, hi; } invisible[] = {
	{ 0x00ad, 0x00ad },   { 0x0600, 0x0605 },   { 0x061c, 0x061c },   { 0x06dd, 0x06dd },
	{ 0x070f, 0x070f },   { 0x0890, 0x0891 },   { 0x08e2, 0x08e2 },   { 0x180e, 0x180e },
	{ 0x200b, 0x200f },   { 0x2028, 0x202e },   { 0x2060, 0x2064 },   { 0x2066, 0x206f },
	{ 0xfeff, 0xfeff },   { 0xfff9, 0xfffb },   { 0x110bd, 0x110bd }, { 0x110cd, 0x110cd },
	{ 0x13430, 0x1343f }, { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a }, { 0xe0001, 0xe0001 },
	{ 0xe0020, 0xe007f },
};

/* The bytes of the invisible character at s (the table above), 0 for any other. */
static size_t format_control_at(const unsigned char *s)
{
	size_t n = s[0] >= 0xc2 ? ud_utf8_len((const char *)s, 4) : 0;
	unsigned cp = n == 2 ? s[0] & 0x1fu : n == 3 ? s[0] & 0x0fu : s[0] & 0x07u;

	if (n < 2)
		return 0;
	for (size_t i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3fu);
	for (size_t i = 0; i < sizeof(invisible) / sizeof(invisible[0]) && cp >= invisible[i].lo; i++)
		if (cp <= invisible[i].hi)
			return n;
	return 0;
}

/* How many bytes at s form one control character (0: none): C0 but tab, DEL, C1 as UTF-8, a format control. */
static size_t control_at(const unsigned char *s, int keep_newline)
{
	if ((*s < 0x20 && *s && *s != '\t' && !(keep_newline && *s == '\n')) || *s == 0x7f)
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	return format_control_at(s);
}

size_t ud_control_len(const char *s)
{
	return control_at((const unsigned char *)s, 0);
}

const char *ud_visible(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	while (*p && !control_at(p, 0))
		p++;
	if (!*p)
		return s;
	for (p = (const unsigned char *)s; *p;) {
		size_t n = control_at(p, 0), need = n ? 4 * n : 1;

		if (o + need >= len)
			break;
		for (size_t i = 0; n && i < n; i++)
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", p[i]);
		if (!n)
			buf[o++] = (char)*p;
		p += n ? n : 1;
	}
	buf[o] = '\0';
	return buf;
}

/* Bytes an escaped byte takes: "\\xHH". */
#define VISIBLE_BYTES_PER_BYTE 4

char *ud_visible_new(const char *s)
{
	size_t len = VISIBLE_BYTES_PER_BYTE * strlen(s) + 1;
	char *buf = malloc(len);
	const char *v = buf ? ud_visible(s, buf, len) : NULL;

	if (v == s)
		snprintf(buf, len, "%s", s);
	return buf;
}

static void put_visible(FILE *f, const char *s, int keep_newline)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = control_at(p, keep_newline);
		const unsigned char *start = p;

		for (size_t i = 0; i < n; i++)
			fprintf(f, "\\x%02x", p[i]);
		if (n) {
			p += n;
			continue;
		}
		while (*p && !control_at(p, keep_newline))
			p++;
		fwrite(start, 1, (size_t)(p - start), f);
	}
}

void ud_fputs_visible(FILE *f, const char *s)
{
	put_visible(f, s, 0);
}

void ud_fputs_visible_lines(FILE *f, const char *text)
{
	put_visible(f, text, 1);
}

#define KB_PER_MB 1024.0
#define KB_PER_GB (1024.0 * 1024.0)

void ud_format_kb(double kb, char *buf, size_t len)
{
	if (!isfinite(kb))
		snprintf(buf, len, "n/a");
	else if (fabs(kb) < KB_PER_MB)
		snprintf(buf, len, "%.3g KB", kb);
	else if (fabs(kb) < KB_PER_GB)
		snprintf(buf, len, "%.3g MB", kb / KB_PER_MB);
	else
		snprintf(buf, len, "%.3g GB", kb / KB_PER_GB);
}
const char *ud_format_ratio(double v, char *buf, size_t len)
{
	if (isfinite(v) && fabs(v) < 999.5 && fabs(v) >= 1e-4)
		snprintf(buf, len, "%.3g", v);
	else
		ud_format_human(v, buf, len);
	return buf;
}

char *ud_vprintf_new(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

char *ud_printf_new(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = ud_vprintf_new(fmt, ap);
	va_end(ap);
	return s;
}

bool ud_append(char **s, const char *fmt, ...)
{
	va_list ap;
	char *tail, *joined;

	va_start(ap, fmt);
	tail = ud_vprintf_new(fmt, ap);
	va_end(ap);
	joined = tail ? ud_printf_new("%s%s", *s ? *s : "", tail) : NULL;
	free(tail);
	if (!joined)
		return false;
	free(*s);
	*s = joined;
	return true;
}

bool ud_replace(char **s, const char *fmt, ...)
{
	va_list ap;

	free(*s);
	va_start(ap, fmt);
	*s = ud_vprintf_new(fmt, ap);
	va_end(ap);
	return *s != NULL;
}

const char *ud_format_ratio_x(double v, char *buf, size_t len)
{
	char num[UD_NUMBER_MAX];

	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%sx", ud_format_ratio(v, num, sizeof(num)));
	return buf;
}

const char *ud_format_num(const char *fmt, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

size_t ud_utf8_sequence(const unsigned char *s)
{
	size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
	       : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	unsigned long cp = n == 1 ? s[0] : n == 2 ? s[0] & 0x1fu : n == 3 ? s[0] & 0x0fu : s[0] & 0x07u;

	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3fu);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

void ud_utf8_sanitize(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		size_t n = ud_utf8_sequence(p);

		if (n) {
			p += n;
			continue;
		}
		/* a sequence cut at the end of the string (a fixed-size copy): cut before it */
		if (*p >= 0xc2 && *p <= 0xf4) {
			size_t k = 1;

			while (p[k] && (p[k] & 0xc0) == 0x80 && k < 4)
				k++;
			if (!p[k]) {
				*p = '\0';
				return;
			}
		}
		*p++ = '?';
	}
}

/* Optimal string alignment distance (Levenshtein with adjacent transpositions), case ignored; capped at 64 bytes. */
static size_t edit_distance(const char *a, const char *b)
{
	enum { MAX = 64 };
	size_t la = strnlen(a, MAX), lb = strnlen(b, MAX), d[MAX + 1][MAX + 1];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]), best;

			best = d[i - 1][j] + 1;
			best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
			best = d[i - 1][j - 1] + cost < best ? d[i - 1][j - 1] + cost : best;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/* One edit in three letters of the word typed: close enough to be a slip, not another word. */
#define CLOSEST_LETTERS_PER_EDIT 3

const char *ud_closest(const char *word, const char *const *candidates, size_t n)
{
	size_t limit = strlen(word) / CLOSEST_LETTERS_PER_EDIT, best = limit + 1;
	const char *found = NULL;
	bool tie = false;

	for (size_t i = 0; i < n; i++) {
		size_t d = candidates[i] ? edit_distance(word, candidates[i]) : limit + 1;

		if (d < best) {
			best = d;
			found = candidates[i];
			tie = false;
		} else if (d == best && found && strcmp(found, candidates[i]) != 0) {
			tie = true;
		}
	}
	return tie ? NULL : found;
}

size_t ud_utf8_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k;
	unsigned cp;

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	/* the lead byte says the length; C0, C1 and F5-FF never lead a character */
	k = u[0] >= 0xc2 && u[0] <= 0xdf ? 2 : u[0] >= 0xe0 && u[0] <= 0xef ? 3 : u[0] >= 0xf0 && u[0] <= 0xf4 ? 4 : 0;
	if (k == 0 || n < k)
		return 0;
	cp = u[0] & (0xff >> (k + 1));
	for (size_t i = 1; i < k; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3fu);
	}
	/* overlong forms, UTF-16 surrogates and code points past Unicode's last are not characters */
	if ((k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return k;
}

bool ud_utf8_valid(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0, k; i < n; i += k)
		if ((k = ud_utf8_len(s + i, n - i)) == 0)
			return false;
	return true;
}

char *ud_utf8_valid_copy(const char *s)
{
	size_t n = strlen(s), at = 0;
	/* every byte may become the three of U+FFFD */
	char *out = malloc(3 * n + 1);

	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k = ud_utf8_len(s + i, n - i);

		if (k) {
			memcpy(out + at, s + i, k);
			at += k;
			i += k;
		} else {
			memcpy(out + at, UD_UTF8_REPLACEMENT, 3);
			at += 3;
			i++;
		}
	}
	out[at] = '\0';
	return out;
}
