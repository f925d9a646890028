/*
 * Grisu2 (Loitsch, PLDI 2010, as in RapidJSON's dtoa.h by Milo Yip):
 * integer-only digit generation between the neighbours' midpoints, so the
 * digits always read back as the same double; they are the shortest such
 * digits for about 99.9% of doubles, and at most 17 for the rest.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "json_number.h"

/* A significand and a binary exponent: f x 2^e. */
struct diyfp {
	uint64_t f;
	int e;
};

#define SIGNIFICAND_BITS 52
#define HIDDEN_BIT ((uint64_t)1 << SIGNIFICAND_BITS)
#define EXPONENT_BIAS (1023 + SIGNIFICAND_BITS)
#define DENORMAL_EXPONENT (1 - EXPONENT_BIAS)

/* 10^k for k = -348, -340, ..., 340; regenerate and check with scripts/gen-pow10-table.py. */
static const struct diyfp cached_powers[] = {
#include "json_pow10.h"
};

static const uint64_t pow10_u64[20] = {
	1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u, 10000000000u,
	100000000000u, 1000000000000u, 10000000000000u, 100000000000000u, 1000000000000000u,
	10000000000000000u, 100000000000000000u, 1000000000000000000u, 10000000000000000000u,
};

static struct diyfp normalize(struct diyfp x)
{
	int s = __builtin_clzll(x.f);

	return (struct diyfp){ x.f << s, x.e - s };
}

/* The top 64 bits of the 128-bit product, rounded: 32-bit halves, no compiler extension. */
static struct diyfp multiply(struct diyfp x, struct diyfp y)
{
	const uint64_t m32 = 0xffffffffu;
	uint64_t a = x.f >> 32, b = x.f & m32, c = y.f >> 32, d = y.f & m32;
	uint64_t ac = a * c, bc = b * c, ad = a * d, bd = b * d;
	uint64_t mid = (bd >> 32) + (ad & m32) + (bc & m32) + ((uint64_t)1 << 31);

	return (struct diyfp){ ac + (ad >> 32) + (bc >> 32) + (mid >> 32), x.e + y.e + 64 };
}

static struct diyfp from_double(double v)
{
	uint64_t bits, frac;
	int biased;

	memcpy(&bits, &v, sizeof(bits));
	frac = bits & (HIDDEN_BIT - 1);
	biased = (int)((bits >> SIGNIFICAND_BITS) & 0x7ff);
	if (biased)
		return (struct diyfp){ frac | HIDDEN_BIT, biased - EXPONENT_BIAS };
	return (struct diyfp){ frac, DENORMAL_EXPONENT };
}

/* The midpoints to the neighbouring doubles, normalized to plus's exponent. */
static void boundaries(struct diyfp v, struct diyfp *minus, struct diyfp *plus)
{
	struct diyfp pl = normalize((struct diyfp){ (v.f << 1) + 1, v.e - 1 });
	struct diyfp mi = v.f == HIDDEN_BIT ? (struct diyfp){ (v.f << 2) - 1, v.e - 2 }
					    : (struct diyfp){ (v.f << 1) - 1, v.e - 1 };

	mi.f <<= mi.e - pl.e;
	mi.e = pl.e;
	*minus = mi;
	*plus = pl;
}

/* The cached power c with -60 <= e + c.e <= -32 (digit generation's window); *k its decimal exponent. */
static struct diyfp cached_power(int e, int *k)
{
	double dk = (-61 - e) * 0.30102999566398114 + 347; /* log10(2) */
	int ik = (int)dk;
	unsigned index;

	if (dk - ik > 0.0)
		ik++;
	index = (unsigned)((ik >> 3) + 1);
	*k = -(-348 + (int)index * 8);
	return cached_powers[index];
}

static int digits32(uint32_t n)
{
	int d = 1;

	while (d < 10 && n >= pow10_u64[d])
		d++;
	return d;
}

/* Moves the last digit down while that brings the number closer to w and stays inside the bounds. */
static void round_weed(char *buf, int len, uint64_t delta, uint64_t rest, uint64_t ten_kappa, uint64_t wp_w)
{
	while (rest < wp_w && delta - rest >= ten_kappa &&
	       (rest + ten_kappa < wp_w || wp_w - rest > rest + ten_kappa - wp_w)) {
		buf[len - 1]--;
		rest += ten_kappa;
	}
}

static int generate(struct diyfp w, struct diyfp mp, uint64_t delta, char *buf, int *k)
{
	const struct diyfp one = { (uint64_t)1 << -mp.e, mp.e };
	const uint64_t wp_w = mp.f - w.f;
	uint32_t p1 = (uint32_t)(mp.f >> -one.e);
	uint64_t p2 = mp.f & (one.f - 1);
	int kappa = digits32(p1), len = 0;

	while (kappa > 0) {
		uint32_t d = (uint32_t)(p1 / pow10_u64[kappa - 1]);
		uint64_t rest;

		p1 = (uint32_t)(p1 % pow10_u64[kappa - 1]);
		if (d || len)
			buf[len++] = (char)('0' + d);
		kappa--;
		rest = ((uint64_t)p1 << -one.e) + p2;
		if (rest <= delta) {
			*k += kappa;
			round_weed(buf, len, delta, rest, pow10_u64[kappa] << -one.e, wp_w);
			return len;
		}
	}
	for (;;) {
		char d;

		p2 *= 10;
		delta *= 10;
		d = (char)(p2 >> -one.e);
		if (d || len)
			buf[len++] = (char)('0' + d);
		p2 &= one.f - 1;
		kappa--;
		if (p2 < delta) {
			*k += kappa;
			round_weed(buf, len, delta, p2, one.f, -kappa < 20 ? wp_w * pow10_u64[-kappa] : 0);
			return len;
		}
	}
}

/* Digits of positive finite v, value = digits x 10^*k; returns their count (at most 17). */
static int grisu2(double v, char *digits, int *k)
{
	struct diyfp w = from_double(v), minus, plus, c, wn, wp, wm;

	boundaries(w, &minus, &plus);
	c = cached_power(plus.e, k);
	wn = multiply(normalize(w), c);
	wp = multiply(plus, c);
	wm = multiply(minus, c);
	wm.f++;
	wp.f--;
	return generate(wn, wp, wp.f - wm.f, digits, k);
}

static size_t put_exponent(char *p, int x)
{
	size_t n = 0;

	p[n++] = 'e';
	p[n++] = x < 0 ? '-' : '+';
	x = x < 0 ? -x : x;
	if (x >= 100)
		p[n++] = (char)('0' + x / 100);
	p[n++] = (char)('0' + x / 10 % 10);
	p[n++] = (char)('0' + x % 10);
	return n;
}

/* Thresholds of printf's %g at 17 digits, the notation jansson's output had. */
#define PLAIN_MIN_EXP10 (-5)
#define PLAIN_MAX_EXP10 17

static size_t layout(const char *d, int len, int k, char *p)
{
	int x = len + k - 1; /* the first digit's power of ten */
	size_t n = 0;

	if (x < PLAIN_MIN_EXP10 || x >= PLAIN_MAX_EXP10) {
		p[n++] = d[0];
		if (len > 1) {
			p[n++] = '.';
			memcpy(p + n, d + 1, (size_t)len - 1);
			n += (size_t)len - 1;
		}
		return n + put_exponent(p + n, x);
	}
	if (x < 0) {
		memcpy(p, "0.", 2);
		n = 2;
		memset(p + n, '0', (size_t)(-x - 1));
		n += (size_t)(-x - 1);
		memcpy(p + n, d, (size_t)len);
		return n + (size_t)len;
	}
	if (x + 1 >= len) {
		memcpy(p, d, (size_t)len);
		memset(p + len, '0', (size_t)(x + 1 - len));
		n = (size_t)x + 1;
		memcpy(p + n, ".0", 2);
		return n + 2;
	}
	memcpy(p, d, (size_t)x + 1);
	p[x + 1] = '.';
	memcpy(p + x + 2, d + x + 1, (size_t)(len - x - 1));
	return (size_t)len + 1;
}

size_t ud_json_format_double(double v, char buf[UD_JSON_DOUBLE_MAX])
{
	char digits[20];
	size_t n = 0;
	int len, k;

	if (!isfinite(v)) {
		memcpy(buf, "null", 5);
		return 4;
	}
	if (signbit(v)) {
		buf[n++] = '-';
		v = -v;
	}
	if (v == 0) {
		memcpy(buf + n, "0.0", 4);
		return n + 3;
	}
	len = grisu2(v, digits, &k);
	n += layout(digits, len, k, buf + n);
	buf[n] = '\0';
	return n;
}
