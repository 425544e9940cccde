/* test_shortest.c — the shortest round-trip formatter (runtime/shortest.c)
 * against strtod and against printf.
 *
 *   test_shortest [RANDOM_COUNT [SEED]]     (default 300000 random patterns)
 *
 * For every double tried: (1) strtod reads the text back to the same bits
 * (the sign of zero included); (2) no printf precision gives fewer digits
 * that also read back: the reference is the smallest n for which
 * printf("%.{n-1}e") round-trips, found by trying n = 1 … 17, and when it has
 * as many digits as ours, both are the same decimal; (3) the text has the
 * %.17g layout (fixed for -4 <= exponent < 17, else d.ddde±XX).  Cases:
 * zeros, subnormals (the smallest, the largest, every power of two among
 * them), the smallest and largest normals, every power of two and its
 * neighbours, every power of ten that strtod gives and its neighbours,
 * integers, numbers of few digits at every exponent, and random bit
 * patterns.  Then NaN and infinities, and the speed against %.17g (printed,
 * not asserted).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shortest_tables.h"
#include "shortest.c"

static long checked, failures, shorter_than_printf;

static uint64_t bits_of(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static double of_bits(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* Digits (no leading or trailing zeros) and exponent of a %e text. */
static void decimal_of(const char *text, char *digits, int *exp10)
{
    int n = 0, point = -1;
    const char *p = text;
    if (*p == '-') p++;
    for (; *p && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.') {
            point = n;
            continue;
        }
        digits[n++] = *p;
    }
    if (point < 0) point = n;
    int e = *p ? atoi(p + 1) : 0;
    digits[n] = 0;
    int lead = 0;
    while (lead < n - 1 && digits[lead] == '0') lead++;
    memmove(digits, digits + lead, (size_t)(n - lead + 1));
    n -= lead;
    point -= lead;
    while (n > 1 && digits[n - 1] == '0') digits[--n] = 0;
    *exp10 = e + point - n;   /* value = digits × 10^exp10 */
}

static void fail(double v, const char *text, const char *why)
{
    if (failures++ < 20) fprintf(stderr, "FAIL %.17g (bits %016llx): '%s': %s\n", v, (unsigned long long)bits_of(v), text, why);
}

static void check(double v)
{
    char text[ODE_SHORTEST_MAX + 8];
    const int len = ode_format_double(text, v);
    text[len] = 0;
    checked++;
    if (len <= 0 || len >= ODE_SHORTEST_MAX) return fail(v, text, "length out of range");
    char *end;
    const double back = strtod(text, &end);
    if (*end) return fail(v, text, "strtod does not read all of it");
    if (bits_of(back) != bits_of(v)) return fail(v, text, "does not read back to the same bits");
    if (v == 0) return;

    /* The reference: the fewest digits printf gives that read back. */
    char ref[40];
    int n;
    for (n = 1; n <= 17; n++) {
        snprintf(ref, sizeof ref, "%.*e", n - 1, v);
        if (strtod(ref, NULL) == v) break;
    }
    char mine_d[32], ref_d[32];
    int mine_e, ref_e;
    decimal_of(text, mine_d, &mine_e);
    decimal_of(ref, ref_d, &ref_e);
    const int mine_n = (int)strlen(mine_d), ref_n = (int)strlen(ref_d);
    if (mine_n > ref_n) return fail(v, text, "more digits than printf needs");
    if (mine_n == ref_n && (strcmp(mine_d, ref_d) != 0 || mine_e != ref_e))
        return fail(v, text, "as many digits as printf's, but another decimal");
    if (mine_n < ref_n) shorter_than_printf++;

    /* The layout of %.17g. */
    const int x = mine_e + mine_n - 1;
    const int scientific = strchr(text, 'e') != NULL;
    if (scientific != (x < -4 || x >= 17)) return fail(v, text, "not the %.17g layout");
    if (scientific) {
        const char *e = strchr(text, 'e');
        if (!(e[1] == '+' || e[1] == '-') || strlen(e + 2) < 2) return fail(v, text, "exponent not as printf writes it");
    }
}

static void check_with_neighbours(double v)
{
    check(v);
    check(-v);
    check(nextafter(v, INFINITY));
    check(nextafter(v, 0));
}

static uint64_t rng_state;
static uint64_t rng(void)   /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int same_text(double v, const char *want)
{
    char text[ODE_SHORTEST_MAX + 8];
    text[ode_format_double(text, v)] = 0;
    if (strcmp(text, want) == 0) return 1;
    fprintf(stderr, "FAIL: %.17g written '%s', expected '%s'\n", v, text, want);
    failures++;
    return 0;
}

int main(int argc, char **argv)
{
    const long random_count = argc > 1 ? atol(argv[1]) : 300000;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 20240611u;

    /* Texts worth seeing as they are. */
    same_text(0.0, "0");
    same_text(-0.0, "-0");
    same_text(NAN, "nan");
    same_text(-NAN, "nan");
    same_text(INFINITY, "inf");
    same_text(-INFINITY, "-inf");
    same_text(0.2, "0.2");
    same_text(-1.5, "-1.5");
    same_text(1e-5, "1e-05");
    same_text(1e-4, "0.0001");
    same_text(123456.0, "123456");
    same_text(1e16, "10000000000000000");
    same_text(1e17, "1e+17");
    same_text(1e100, "1e+100");
    same_text(6.283185307179586, "6.283185307179586");
    same_text(5e-324, "5e-324");
    same_text(4.9406564584124654e-324, "5e-324");
    same_text(1.7976931348623157e308, "1.7976931348623157e+308");
    same_text(2.2250738585072014e-308, "2.2250738585072014e-308");
    same_text(9007199254740993.0, "9007199254740992");
    same_text(0.1 + 0.2, "0.30000000000000004");
    same_text(1.0 / 3.0, "0.3333333333333333");

    /* Zeros, subnormals, normals at the ends. */
    check(0.0);
    check(-0.0);
    for (uint64_t b = 1; b < 5000; b++) check(of_bits(b));                             /* the smallest subnormals */
    for (uint64_t b = 0x000fffffffffffffull - 5000; b <= 0x0010000000005000ull; b += 1) /* around the smallest normal */
        if (b < 0x000fffffffffffffull - 4000 || b > 0x0010000000000000ull - 1000) check(of_bits(b));
    for (uint64_t b = 0x7fefffffffffffffull - 5000; b <= 0x7fefffffffffffffull; b++) check(of_bits(b));   /* the largest */
    /* Every power of two (the asymmetric intervals) and its neighbours. */
    for (int e = -1074; e <= 1023; e++) check_with_neighbours(ldexp(1.0, e));
    /* Every power of ten strtod gives, from 1e-323 to 1e308, and neighbours. */
    for (int e = -323; e <= 308; e++) {
        char s[16];
        snprintf(s, sizeof s, "1e%d", e);
        check_with_neighbours(strtod(s, NULL));
    }
    /* Integers; and numbers of 1 to 17 digits at every exponent. */
    for (int i = 1; i <= 100000; i++) check((double)i);
    for (int e = -340; e <= 310; e++) {
        for (int digits = 1; digits <= 17; digits++) {
            uint64_t d = 1 + rng() % 9;
            for (int k = 1; k < digits; k++) d = d * 10 + rng() % 10;
            char s[48];
            snprintf(s, sizeof s, "%llue%d", (unsigned long long)d, e);
            const double v = strtod(s, NULL);
            if (v != 0 && !isinf(v)) check(v);
        }
    }
    for (double v = 2.0; v < 1e300; v *= 3.7) check_with_neighbours(v - 1.0);
    const long boundary = checked;

    /* Random bit patterns (finite ones). */
    for (long k = 0; k < random_count; k++) {
        const uint64_t b = rng();
        if (((b >> 52) & 0x7ff) == 0x7ff) continue;
        check(of_bits(b));
    }

    /* Speed, against %.17g (printed, not asserted). */
    enum { SPEED = 2000000 };
    double *values = (double *)malloc(SPEED * sizeof(double));
    char buf[64];
    size_t sink = 0;
    for (long k = 0; k < SPEED; k++) {
        uint64_t b;
        do b = rng(); while (((b >> 52) & 0x7ff) == 0x7ff);
        values[k] = of_bits(b);
    }
    double t0 = now();
    for (long k = 0; k < SPEED; k++) sink += (size_t)ode_format_double(buf, values[k]);
    const double ours = now() - t0;
    t0 = now();
    for (long k = 0; k < SPEED; k++) sink += (size_t)snprintf(buf, sizeof buf, "%.17g", values[k]);
    const double printf_s = now() - t0;
    free(values);

    printf("shortest: %ld doubles checked (%ld boundary cases, %ld random patterns), %ld failures; "
           "%ld shorter than printf's shortest; %.0f ns per double (%%.17g: %.0f ns)%s\n",
           checked, boundary, checked - boundary, failures, shorter_than_printf, 1e9 * ours / SPEED,
           1e9 * printf_s / SPEED, sink ? "" : " ");
    return failures ? 1 : 0;
}
