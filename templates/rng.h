/* rng.h — counter-based random numbers: Philox-4x32-10, and the uniform and
 * normal variates made from its output.
 *
 * Philox-4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
 * as easy as 1, 2, 3", SC 2011; Random123's philox.h) is a keyed bijection
 * of 128-bit counters: 10 rounds of two 32x32→64-bit multiplications and
 * XORs, the 64-bit key bumped by a Weyl sequence between rounds.  Its output
 * is a pure function of (key, counter): there is no state to carry, split,
 * send to another GPU or write into a checkpoint, so a number depends only
 * on what it is keyed by — never on which thread, chunk, device, MPI rank
 * or run computes it.  tests/noise/rng_test.c checks the known-answer
 * vectors that come with Random123 (its kat_vectors file: counter 0 / key
 * 0, all ones, and the digits of pi).
 *
 * Uniforms have 52 random bits and are never 0 or 1.  Normal variates come
 * in pairs by Box–Muller's trigonometric form (exact for two independent
 * uniforms, and without the rejection loop of the polar form, so that the
 * threads of a warp do not wait for one another): R = sqrt(-2 ln u1),
 * (R cos 2πu2, R sin 2πu2).  ln, sin and cos are computed here from fused
 * multiply-adds (fma), exact scalings and a correctly rounded division and
 * square root, never from the math library: CUDA's log, sin and cos are not
 * glibc's in the last bits, and an explicit fma is rounded once on both
 * sides (a compiler never splits it, nor fuses it with anything), so that
 * the host and the device produce the same bits.  Relative accuracy about
 * 2e-16; |z| ≤ 8.6 (u1 ≥ 2^-53).  Always double, whatever the model's
 * precision (a float model rounds the double it is given), so that a float
 * run sees the numbers of a double run.
 *
 * This file stands on its own (plain C99 or CUDA): the translator includes
 * it too, to draw the values of random tables.
 */
#ifndef ODE_RNG_H
#define ODE_RNG_H

#include <math.h>
#include <stdint.h>

#ifndef ODE_HD
#ifdef __CUDACC__
#define ODE_HD __host__ __device__
#define ODE_INLINE __forceinline__
#else
#define ODE_HD
#define ODE_INLINE inline
#endif
#endif

/* ------------------------------------------------------------------ Philox-4x32-10 */

/* The four output words of one counter. */
typedef struct OdeRngWords {
    uint32_t w[4];
} OdeRngWords;

#define ODE_PHILOX_M0 0xD2511F53u   /* the round multipliers */
#define ODE_PHILOX_M1 0xCD9E8D57u
#define ODE_PHILOX_W0 0x9E3779B9u   /* the key's Weyl increments (golden ratio, sqrt(3) - 1) */
#define ODE_PHILOX_W1 0xBB67AE85u

/* hi:lo = a * b */
ODE_HD static ODE_INLINE uint32_t ode_mulhilo32(uint32_t a, uint32_t b, uint32_t *hi)
{
#ifdef __CUDA_ARCH__
    *hi = __umulhi(a, b);
    return a * b;
#else
    const uint64_t p = (uint64_t)a * (uint64_t)b;
    *hi = (uint32_t)(p >> 32);
    return (uint32_t)p;
#endif
}

/* Philox-4x32-10 of counter c under key k. */
ODE_HD static ODE_INLINE OdeRngWords ode_philox4x32_10(const uint32_t c[4], const uint32_t k[2])
{
    uint32_t x0 = c[0], x1 = c[1], x2 = c[2], x3 = c[3], k0 = k[0], k1 = k[1];
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k0 += ODE_PHILOX_W0;
            k1 += ODE_PHILOX_W1;
        }
        uint32_t hi0, hi1;
        const uint32_t lo0 = ode_mulhilo32(ODE_PHILOX_M0, x0, &hi0);
        const uint32_t lo1 = ode_mulhilo32(ODE_PHILOX_M1, x2, &hi1);
        x0 = hi1 ^ x1 ^ k0;
        x1 = lo1;
        x2 = hi0 ^ x3 ^ k1;
        x3 = lo0;
    }
    OdeRngWords out;
    out.w[0] = x0;
    out.w[1] = x1;
    out.w[2] = x2;
    out.w[3] = x3;
    return out;
}

/* ------------------------------------------------------------------ what a draw is keyed by */

/* Purposes: the numbers of one step are drawn for different uses, each
 * from counters of its own (noise.h says which). */
enum {
    ODE_RNG_BROWNIAN = 0,   /* Wiener increments, keyed by the (fine) step; index: pair of Wiener processes */
    ODE_RNG_BRIDGE = 1,     /* the Brownian bridge inside a step an event shortened; index: pair */
    ODE_RNG_STEP = 2,       /* ran()/normal() of the right-hand side, markov coins: held for one step; index: site */
    ODE_RNG_BLOCK = 3,      /* ran()/normal() in event blocks and hooks, drawn when they run; index: site */
    ODE_RNG_AUX = 4,        /* ran()/normal() in aux quantities, drawn when they are recorded; index: site */
    ODE_RNG_SIGNS = 5,      /* the weak-order-2 method's two-point variables; index: block of 128 */
    ODE_RNG_TABLE = 6,      /* random tables, drawn by the translator; rep: the table, step: its point */
    ODE_RNG_ACC = 7         /* ran()/normal() in accessories' initial values; index: site */
};

/* Limits of the fields (the translator and the runtime check them). */
#define ODE_RNG_MAX_SYSTEMS 17592186044416ULL   /* 2^44 systems in one scan */
#define ODE_RNG_MAX_INDEX 131072u               /* 2^17 sites, or pairs of Wiener processes */

/* The counter of a draw and its key:
 *   key      the seed (64 bits; the runtime takes seeds below 2^53)
 *   c[0]     step: the step of the integration (or of its fine grid)
 *   c[1]     rep: the system's integration (its count since it was loaded)
 *   c[2]     the system's index, low 32 bits
 *   c[3]     bits 0-11 the system's index, bits 32-43; 12-14 the purpose;
 *            15-31 the index within the purpose
 * Every field has a place of its own, so that two draws share a counter
 * only when they share every field. */
ODE_HD static ODE_INLINE OdeRngWords ode_rng_draw(unsigned long long seed, unsigned long long system, uint32_t rep,
                                                  uint32_t step, unsigned purpose, uint32_t index)
{
    uint32_t c[4], k[2];
    c[0] = step;
    c[1] = rep;
    c[2] = (uint32_t)system;
    c[3] = ((uint32_t)(system >> 32) & 0xFFFu) | ((uint32_t)(purpose & 7u) << 12) | (index << 15);
    k[0] = (uint32_t)seed;
    k[1] = (uint32_t)(seed >> 32);
    return ode_philox4x32_10(c, k);
}

/* ------------------------------------------------------------------ variates */

/* A uniform in (0, 1) from two words: 52 bits b, (b + 1/2) 2^-52, exact. */
ODE_HD static ODE_INLINE double ode_rng_uniform(uint32_t hi, uint32_t lo)
{
    const uint64_t b = ((uint64_t)hi << 20) | (uint64_t)(lo >> 12);
    return ((double)b + 0.5) * 2.220446049250313e-16;
}

/* ln u for 0 < u < 1: u = m 2^e with m in [1/sqrt2, sqrt2), ln m = 2 atanh s,
 * s = (m - 1)/(m + 1), |s| < 0.1716, by its series to s^23. */
ODE_HD static ODE_INLINE double ode_rng_ln(double u)
{
    int e;
    double m = frexp(u, &e);
    if (m < 0.70710678118654752) {
        m = 2.0 * m;
        e -= 1;
    }
    const double s = (m - 1.0) / (m + 1.0), z = s * s;
    double p = 1.0 / 23;
    p = fma(p, z, 1.0 / 21);
    p = fma(p, z, 1.0 / 19);
    p = fma(p, z, 1.0 / 17);
    p = fma(p, z, 1.0 / 15);
    p = fma(p, z, 1.0 / 13);
    p = fma(p, z, 1.0 / 11);
    p = fma(p, z, 1.0 / 9);
    p = fma(p, z, 1.0 / 7);
    p = fma(p, z, 1.0 / 5);
    p = fma(p, z, 1.0 / 3);
    p = fma(p, z, 1.0);
    return fma((double)e, 0.69314718055994531, 2.0 * (s * p));
}

/* sin and cos of (π/4) x for x in [0, 1]: their Taylor series to x^17 and
 * x^16 (the next terms are below 2e-18). */
ODE_HD static ODE_INLINE void ode_rng_sincos_octant(double x, double *s, double *c)
{
    const double t = x * x;
    double p = 4.628704628834683e-17;
    p = fma(p, t, -2.0410263396641442e-14);
    p = fma(p, t, 6.948453273886629e-12);
    p = fma(p, t, -1.757247673443401e-09);
    p = fma(p, t, 3.1336168903781217e-07);
    p = fma(p, t, -3.657620418217725e-05);
    p = fma(p, t, 0.0024903945701927202);
    p = fma(p, t, -0.08074551218828079);
    p = fma(p, t, 0.7853981633974483);
    *s = x * p;
    double q = 1.001886461636272e-15;
    q = fma(q, t, -3.8980731712596753e-13);
    q = fma(q, t, 1.1501159127974052e-10);
    q = fma(q, t, -2.4611369504942e-08);
    q = fma(q, t, 3.59086044859151e-06);
    q = fma(q, t, -0.00032599188692739);
    q = fma(q, t, 0.015854344243815502);
    q = fma(q, t, -0.30842513753404244);
    *c = fma(q, t, 1.0);
}

/* Two independent standard normal variates from the four words of one
 * draw (Box–Muller): u1 from words 0-1, the angle 2π(o + x)/8 from words
 * 2-3 (o: the octant, 3 bits; x: 50 bits), reduced to a quarter turn by
 * exact reflections. */
ODE_HD static ODE_INLINE void ode_rng_normal2(OdeRngWords r, double *z0, double *z1)
{
    const double rad = sqrt(-2.0 * ode_rng_ln(ode_rng_uniform(r.w[0], r.w[1])));
    const unsigned octant = r.w[2] >> 29;
    const uint64_t f = ((uint64_t)(r.w[2] & 0x1FFFFFFFu) << 21) | (uint64_t)(r.w[3] >> 11);
    const double x = (double)f * 8.8817841970012523e-16;   /* f 2^-50, in [0, 1) */
    double s, c;
    /* within the quarter turn: (π/4) x, or π/2 - (π/4)(1 - x) for an odd octant */
    ode_rng_sincos_octant((octant & 1u) ? 1.0 - x : x, &s, &c);
    const double sq = (octant & 1u) ? c : s, cq = (octant & 1u) ? s : c;
    /* the quarter turns: (sin, cos) of q π/2 + φ */
    const unsigned q = octant >> 1;
    const double sa = q == 0 ? sq : q == 1 ? cq : q == 2 ? -sq : -cq;
    const double ca = q == 0 ? cq : q == 1 ? -sq : q == 2 ? -cq : sq;
    *z0 = rad * ca;
    *z1 = rad * sa;
}

#endif /* ODE_RNG_H */
