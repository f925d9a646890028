#!/usr/bin/env python3
"""Prints the cached powers of ten that src/json_number.c's Grisu2 uses.

Entry i is 10^k for k = -348 + 8i (i = 0..86), as a 64-bit significand f
with its top bit set and a binary exponent e, f x 2^e rounded to nearest:
the table of Loitsch's "Printing Floating-Point Numbers Quickly and
Accurately with Integers" (PLDI 2010), recomputed here with exact integers
so that every entry can be checked rather than trusted.
"""


def entry(k):
    if k >= 0:
        num, den = 10 ** k, 1
    else:
        num, den = 1, 10 ** -k
    e = num.bit_length() - den.bit_length() - 64
    while True:  # find e with 2^63 <= num / (den * 2^e) < 2^64
        f_num, f_den = (num, den << e) if e >= 0 else (num << -e, den)
        q = f_num // f_den
        if q < 1 << 63:
            e -= 1
        elif q >= 1 << 64:
            e += 1
        else:
            break
    r = f_num - q * f_den
    if 2 * r >= f_den:  # round half up
        q += 1
    if q == 1 << 64:
        q >>= 1
        e += 1
    return q, e


def main():
    for i in range(87):
        f, e = entry(-348 + 8 * i)
        print(f"\t{{ 0x{f:016x}u, {e} }}, /* 1e{-348 + 8 * i} */")


if __name__ == "__main__":
    main()
