/* rng_test.c — templates/rng.h on its own: Philox-4x32-10's known-answer
 * vectors, the accuracy of the ln and sin/cos the normal variates are made
 * with, and the moments of the variates.
 *
 * The known answers are Random123's (its kat_vectors file, lines
 * "philox4x32 10 CTR[4] KEY[2] EXPECTED[4]"), the reference values of
 * Salmon et al., SC 2011.
 *
 *   cc -O2 -I templates tests/noise/rng_test.c -lm && ./a.out
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rng.h"

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) failures++;
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
}

int main(void)
{
    /* 1. Known answers. */
    static const uint32_t kat[3][10] = {
        {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
         0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
         0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
         0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
    };
    for (int v = 0; v < 3; v++) {
        OdeRngWords r = ode_philox4x32_10(kat[v], kat[v] + 4);
        int same = 1;
        for (int k = 0; k < 4; k++) same &= r.w[k] == kat[v][6 + k];
        char what[400];
        snprintf(what, sizeof what, "Philox-4x32-10 known answer %d: %08x %08x %08x %08x", v + 1, r.w[0], r.w[1],
                 r.w[2], r.w[3]);
        check(same, what);
    }

    /* 2. ln, sin and cos against the C library, over the whole range of their arguments. */
    double worst_ln = 0, worst_trig = 0;
    for (long i = 1; i < 2000000; i++) {
        const double u = (double)i / 2000000.0 * (i % 7 == 0 ? 1e-12 : 1.0);
        const double e = fabs(ode_rng_ln(u) - log(u)) / fabs(log(u));
        if (e > worst_ln) worst_ln = e;
        const double x = (double)i / 2000000.0;
        double s, c;
        ode_rng_sincos_octant(x, &s, &c);
        const double a = 0.78539816339744831 * x;
        const double es = fabs(s - sin(a)), ec = fabs(c - cos(a));
        if (es > worst_trig) worst_trig = es;
        if (ec > worst_trig) worst_trig = ec;
    }
    char what[400];
    snprintf(what, sizeof what, "ln against libm: largest relative difference %.2e (< 1e-15)", worst_ln);
    check(worst_ln < 1e-15, what);
    snprintf(what, sizeof what, "sin, cos of (pi/4)x against libm: largest difference %.2e (< 5e-16)", worst_trig);
    check(worst_trig < 5e-16, what);

    /* 3. Moments of 2^23 normals and uniforms (keys that differ in every field). */
    const long n = 1L << 22;
    double m1 = 0, m2 = 0, m3 = 0, m4 = 0, u1 = 0, u2 = 0, umin = 1, umax = 0, zmax = 0, cross = 0;
    for (long i = 0; i < n; i++) {
        OdeRngWords r = ode_rng_draw(12345678ULL, (unsigned long long)i * 977ULL, (uint32_t)(i % 5), (uint32_t)(i / 3),
                                     ODE_RNG_BROWNIAN, (uint32_t)(i % 11));
        double z0, z1;
        ode_rng_normal2(r, &z0, &z1);
        const double z[2] = {z0, z1};
        for (int k = 0; k < 2; k++) {
            m1 += z[k];
            m2 += z[k] * z[k];
            m3 += z[k] * z[k] * z[k];
            m4 += z[k] * z[k] * z[k] * z[k];
            if (fabs(z[k]) > zmax) zmax = fabs(z[k]);
        }
        cross += z0 * z1;
        const double u = ode_rng_uniform(r.w[2], r.w[3]);
        u1 += u;
        u2 += u * u;
        if (u < umin) umin = u;
        if (u > umax) umax = u;
    }
    const double N = 2.0 * (double)n;
    m1 /= N, m2 /= N, m3 /= N, m4 /= N, cross /= (double)n;
    /* standard errors: mean 1/sqrt(N), variance sqrt(2/N), third moment sqrt(15/N), fourth sqrt(96/N) */
    snprintf(what, sizeof what, "normal moments over %.0f: mean %.2e, variance %.6f, skew %.2e, kurtosis %.4f, "
             "E[z0 z1] %.2e (each within 5 standard errors of 0, 1, 0, 3, 0)", N, m1, m2, m3, m4, cross);
    check(fabs(m1) < 5 / sqrt(N) && fabs(m2 - 1) < 5 * sqrt(2 / N) && fabs(m3) < 5 * sqrt(15 / N) &&
              fabs(m4 - 3) < 5 * sqrt(96 / N) && fabs(cross) < 5 / sqrt((double)n),
          what);
    snprintf(what, sizeof what, "largest |z| %.3f (at most sqrt(-2 ln 2^-53) = 8.57)", zmax);
    check(zmax > 4.5 && zmax <= 8.58, what);
    u1 /= (double)n, u2 /= (double)n;
    snprintf(what, sizeof what, "uniforms: mean %.6f, variance %.6f, in [%.3g, 1 - %.3g] (0 and 1 never)", u1,
             u2 - u1 * u1, umin, 1 - umax);
    check(fabs(u1 - 0.5) < 5 * sqrt(1.0 / 12 / n) && fabs(u2 - u1 * u1 - 1.0 / 12) < 5 * sqrt(1.0 / 180 / n) &&
              umin > 0 && umax < 1,
          what);
    printf("%s\n", failures ? "rng: FAIL" : "rng: PASS");
    return failures != 0;
}
