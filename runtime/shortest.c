/* shortest.c — doubles as the shortest decimal text that reads back to the
 * same bits, for the runner's CSV (host code only).
 *
 * Why not printf("%.17g"): it is slow (a general multi-precision conversion
 * per number, several hundred nanoseconds) and longer than needed (0.2 is
 * written 0.20000000000000001).  Here, as in Ryu (Adams, PLDI 2018), the
 * rounding interval of a double, the half-way points to its two neighbours,
 * is scaled by a power of ten with one 64 x 128-bit product per bound
 * (shortest_tables.h holds the powers of five to 125 bits, enough for the
 * products to be exact after the shift), then decimal digits are dropped
 * while both bounds still differ: what is left is the fewest digits inside
 * the interval; among those, the nearest to the double (half-way: the even
 * one).  strtod reads the text back to the same double, bit for bit.
 *
 * The layout is that of %.17g: plain digits when the decimal exponent X
 * satisfies -4 <= X < 17, else d.ddde±XX (at least two exponent digits);
 * "-0" for negative zero; "nan", "inf", "-inf".  So 0.2 → "0.2", 1e-05 →
 * "1e-05", 2^60 → "1.152921504606847e+18", 1e16 → "10000000000000000".
 */
#ifndef ODEGEN_GENERATED
#include "shortest_tables.h"
#endif

#include <stdint.h>
#include <string.h>

/* Room for the longest text: "-2.2250738585072014e-308" and a NUL. */
#define ODE_SHORTEST_MAX 25

#if defined(__SIZEOF_INT128__) && !defined(ODE_NO_INT128)
/* floor(m * mul / 2^shift) for m < 2^55, mul < 2^126, shift >= 64. */
static uint64_t ode_dec_mul_shift(uint64_t m, const unsigned long long *mul, int shift)
{
    const unsigned __int128 low = (unsigned __int128)m * mul[0];
    const unsigned __int128 high = (unsigned __int128)m * mul[1];
    return (uint64_t)(((low >> 64) + high) >> (shift - 64));
}
#else
/* The same with 64-bit pieces: the 128-bit products by halves. */
static void ode_dec_mul_64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    const uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static uint64_t ode_dec_mul_shift(uint64_t m, const unsigned long long *mul, int shift)
{
    uint64_t low_hi, low_lo, high_hi, high_lo;
    ode_dec_mul_64(m, mul[0], &low_hi, &low_lo);
    ode_dec_mul_64(m, mul[1], &high_hi, &high_lo);
    const uint64_t sum = low_hi + high_lo;
    const uint64_t top = high_hi + (sum < low_hi);
    const int s = shift - 64;   /* 54 to 64 for doubles */
    return s >= 64 ? top >> (s - 64) : (top << (64 - s)) | (sum >> s);
}
#endif

/* floor(e log10 2), floor(e log10 5), bits(5^e): exact over the ranges used. */
static int ode_dec_log10_pow2(int e) { return (int)(((uint32_t)e * 78913u) >> 18); }
static int ode_dec_log10_pow5(int e) { return (int)(((uint32_t)e * 732923u) >> 20); }
static int ode_dec_pow5_bits(int e) { return (int)(((uint32_t)e * 1217359u) >> 19) + 1; }

static int ode_dec_multiple_of_pow5(uint64_t v, int p)
{
    int count = 0;
    while (v > 0 && v % 5 == 0) {
        v /= 5;
        count++;
    }
    return count >= p;
}

static int ode_dec_multiple_of_pow2(uint64_t v, int p) { return p < 64 && (v & ((1ull << p) - 1)) == 0; }

/* Drops the last decimal digit of vr, vp and vm; vr_exact stays true while
 * every digit dropped from vr before this one was 0, last is this one. */
static void ode_dec_drop_digit(uint64_t *vr, uint64_t *vp, uint64_t *vm, int *vr_exact, int *last)
{
    *vr_exact &= *last == 0;
    *last = (int)(*vr % 10);
    *vr /= 10;
    *vp /= 10;
    *vm /= 10;
}

/* The shortest decimal of a finite, non-zero, positive double's bits: v =
 * *digits * 10^*exp10 (the digits without trailing zeros). */
static void ode_shortest_digits(uint64_t bits, uint64_t *digits, int *exp10)
{
    const uint64_t fraction = bits & ((1ull << 52) - 1);
    const int biased = (int)(bits >> 52) & 0x7ff;
    /* v = m2 * 2^e2; the interval's bounds are (4 m2 - 1 - shift_low) and
     * (4 m2 + 2) times 2^(e2-2): the lower neighbour is half as far at a power
     * of two (a normal with no fraction bits, except the smallest normal). */
    const uint64_t m2 = biased ? fraction | (1ull << 52) : fraction;
    const int e2 = (biased ? biased : 1) - 1075 - 2;
    const int inclusive = (m2 & 1) == 0;   /* round-half-even: even m2 keeps its half-way points */
    const int shift_low = fraction != 0 || biased <= 1;
    const uint64_t mv = 4 * m2, mp = mv + 2, mm = mv - 1 - (uint64_t)shift_low;

    uint64_t vr, vp, vm;
    int e10;
    int vm_exact = 0, vr_exact = 0;   /* the dropped digits of vm / vr are all zero */
    if (e2 >= 0) {
        /* Divide by 10^q: times 2^e2 / 10^q = 2^(e2-q) / 5^q. */
        const int q = ode_dec_log10_pow2(e2) - (e2 > 3);
        const int k = ODE_DEC_POW5_BITS + ode_dec_pow5_bits(q) - 1;
        const int i = -e2 + q + k;
        e10 = q;
        vr = ode_dec_mul_shift(mv, ode_dec_pow5_inv[q], i);
        vp = ode_dec_mul_shift(mp, ode_dec_pow5_inv[q], i);
        vm = ode_dec_mul_shift(mm, ode_dec_pow5_inv[q], i);
        if (q <= 21) {
            /* Exact quotients: at most one of mm, mv, mp is a multiple of 5. */
            if (mv % 5 == 0) vr_exact = ode_dec_multiple_of_pow5(mv, q);
            else if (inclusive) vm_exact = ode_dec_multiple_of_pow5(mm, q);
            else vp -= (uint64_t)ode_dec_multiple_of_pow5(mp, q);   /* an excluded upper bound */
        }
    } else {
        /* Multiply by 10^-e10 = 5^i * 2^(-e2-q), i = -e2 - q. */
        const int q = ode_dec_log10_pow5(-e2) - (-e2 > 1);
        const int i = -e2 - q;
        const int k = ode_dec_pow5_bits(i) - ODE_DEC_POW5_BITS;
        const int j = q - k;
        e10 = q + e2;
        vr = ode_dec_mul_shift(mv, ode_dec_pow5[i], j);
        vp = ode_dec_mul_shift(mp, ode_dec_pow5[i], j);
        vm = ode_dec_mul_shift(mm, ode_dec_pow5[i], j);
        if (q <= 1) {
            /* mv = 4 m2 has two factors 2; mm and mp one (or none). */
            vr_exact = 1;
            if (inclusive) vm_exact = shift_low;
            else vp--;
        } else if (q < 63) {
            vr_exact = ode_dec_multiple_of_pow2(mv, q);
        }
    }

    /* Drop digits while the bounds differ in what is left. */
    int removed = 0;
    int last = 0;   /* the last digit dropped from vr */
    uint64_t out;
    if (vm_exact || vr_exact) {
        /* The rare exact cases: keep track of the zeros. */
        while (vp / 10 > vm / 10) {
            vm_exact &= vm % 10 == 0;
            ode_dec_drop_digit(&vr, &vp, &vm, &vr_exact, &last);
            removed++;
        }
        while (vm_exact && vm % 10 == 0) {   /* the lower bound itself is a candidate: shorter still */
            ode_dec_drop_digit(&vr, &vp, &vm, &vr_exact, &last);
            removed++;
        }
        if (vr_exact && last == 5 && vr % 2 == 0) last = 4;   /* exactly half-way: to even */
        out = vr + ((vr == vm && (!inclusive || !vm_exact)) || last >= 5);
    } else {
        /* The common case: two digits at a time first. */
        int round_up = 0;
        if (vp / 100 > vm / 100) {
            round_up = vr % 100 >= 50;
            vr /= 100;
            vp /= 100;
            vm /= 100;
            removed += 2;
        }
        while (vp / 10 > vm / 10) {
            round_up = vr % 10 >= 5;
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        out = vr + (vr == vm || round_up);
    }
    e10 += removed;
    while (out % 10 == 0) {   /* e.g. rounding up to a power of ten */
        out /= 10;
        e10++;
    }
    *digits = out;
    *exp10 = e10;
}

static const char ode_dec_digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The decimal digits of v (no sign, no leading zeros) right-aligned before
 * `end`; returns their count. */
static int ode_dec_utoa_back(uint64_t v, char *end)
{
    char *p = end;
    while (v >= 100) {
        const unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, ode_dec_digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, ode_dec_digit_pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    return (int)(end - p);
}

/* An unsigned integer as text at out (no NUL); returns its length. */
static int ode_format_u64(char *out, uint64_t v)
{
    char tmp[20];
    const int n = ode_dec_utoa_back(v, tmp + sizeof tmp);
    memcpy(out, tmp + sizeof tmp - n, (size_t)n);
    return n;
}

/* v as its shortest round-trip text at out (no NUL; at most
 * ODE_SHORTEST_MAX - 1 characters); returns the length. */
static int ode_format_double(char *out, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    char *p = out;
    const int negative = (int)(bits >> 63);
    const uint64_t magnitude = bits & ~(1ull << 63);
    if (magnitude > 0x7ff0000000000000ull) {
        memcpy(p, "nan", 3);
        return 3;
    }
    if (negative) *p++ = '-';
    if (magnitude == 0x7ff0000000000000ull) {
        memcpy(p, "inf", 3);
        return (int)(p - out) + 3;
    }
    if (magnitude == 0) {
        *p = '0';
        return (int)(p - out) + 1;
    }
    uint64_t digits;
    int e10;
    ode_shortest_digits(magnitude, &digits, &e10);
    char d[20];
    const int n = ode_dec_utoa_back(digits, d + sizeof d);
    const char *first = d + sizeof d - n;
    const int x = e10 + n - 1;   /* v = d.ddd × 10^x */
    if (x < -4 || x >= 17) {
        *p++ = first[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, first + 1, (size_t)(n - 1));
            p += n - 1;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        const int ax = x < 0 ? -x : x;
        if (ax < 10) *p++ = '0';
        p += ode_format_u64(p, (uint64_t)ax);
    } else if (x < 0) {
        *p++ = '0';
        *p++ = '.';
        for (int z = 0; z < -x - 1; z++) *p++ = '0';
        memcpy(p, first, (size_t)n);
        p += n;
    } else if (n <= x + 1) {
        memcpy(p, first, (size_t)n);   /* an integer: digits, then zeros */
        p += n;
        for (int z = 0; z < x + 1 - n; z++) *p++ = '0';
    } else {
        memcpy(p, first, (size_t)(x + 1));
        p += x + 1;
        *p++ = '.';
        memcpy(p, first + x + 1, (size_t)(n - x - 1));
        p += n - x - 1;
    }
    return (int)(p - out);
}
