/* prelude.h — precision, portability and the math helpers of the .ode language.
 *
 * The generated model is one source that compiles as CUDA C++ (nvcc) and as C99
 * with OpenMP (cc -x c).  Everything here works in both.  Internal names start
 * with ode_/ODE_ so that they never meet a user's name.
 */
#ifndef ODE_PRELUDE_H
#define ODE_PRELUDE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define ODE_HD __host__ __device__
#define ODE_INLINE __forceinline__
#if defined(ODE_UNROLL)
/* (the generated model chose: a model in loop form unrolls its loops partly) */
#elif defined(__CUDA_ARCH__)
#define ODE_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
/* The CPU path compiled by nvcc: its host pass (cudafe++) passes GCC's
 * pragma on to the host compiler, which then unrolls as a C build does
 * (without it the OpenMP path ran 1.7x slower: Duffing RK4, bench/cpu_path.sh). */
#define ODE_UNROLL _Pragma("GCC unroll 64")
#else
#define ODE_UNROLL
#endif
/* Helpers a model does not use are fine: "declared but never referenced";
 * cudafe++ does not know GCC's pragmas, which it passes on unchanged. */
#pragma nv_diag_suppress 177
#pragma nv_diag_suppress 1675
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDA_ARCH__)
/* The host compiler sees the loops that fill the stage vectors without
 * unrolling them and then doubts they were filled (a false alarm). */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#else
#define ODE_HD
#define ODE_INLINE inline __attribute__((always_inline))
/* Loops over states, stages and events are unrolled, as on the GPU: the
 * tableau's coefficients become constants and the stages registers. */
#ifndef ODE_UNROLL
#define ODE_UNROLL _Pragma("GCC unroll 64")
#endif
#endif

/* Precision of the integration: the generated model defines ODE_FLOAT to 1 for
 * single precision (`--precision float` or `@ prec=float`).  Host-side API
 * values are always double. */
#ifndef ODE_FLOAT
#define ODE_FLOAT 0
#endif

#if ODE_FLOAT
typedef float ode_real;
#define ODE_R(x) x##f
#define ode_fabs fabsf
#define ode_fmod fmodf
#define ode_fmax fmaxf
#define ode_fmin fminf
#define ode_sin sinf
#define ode_cos cosf
#define ode_frexp frexpf
#define ode_ldexp ldexpf
#define ode_sqrt sqrtf
#define ODE_EPS 1.1920929e-07f
#else
typedef double ode_real;
#define ODE_R(x) x
#define ode_fabs fabs
#define ode_fmod fmod
#define ode_fmax fmax
#define ode_fmin fmin
#define ode_sin sin
#define ode_cos cos
#define ode_frexp frexp
#define ode_ldexp ldexp
#define ode_sqrt sqrt
#define ODE_EPS 2.220446049250313e-16
#endif

/* A value that is neither NaN nor infinite (x - x is 0 only for finite x). */
ODE_HD static ODE_INLINE int ode_finite(ode_real x) { return (x - x) == ODE_R(0.0); }

/* XPPAUT's (int) of a value known only as the model runs (a shift's offset,
 * a sum's bound of parameters), defined for every value: beyond ±2^30, or
 * NaN, ODE_NO_INDEX, which no span of names and no sum's bound holds. */
#define ODE_NO_INDEX (-1073741824)
ODE_HD static ODE_INLINE int ode_index(ode_real x)
{
    return x > ODE_R(-1073741824.0) && x < ODE_R(1073741824.0) ? (int)x : ODE_NO_INDEX;
}

/* XPPAUT's heav(x): 1 for x >= 0, else 0 (heav(0) is 1, as XPPAUT computes). */
ODE_HD static ODE_INLINE ode_real ode_heav(ode_real x) { return x >= ODE_R(0.0) ? ODE_R(1.0) : ODE_R(0.0); }

/* XPPAUT's sign(x): -1, 0 or 1. */
ODE_HD static ODE_INLINE ode_real ode_sign(ode_real x)
{
    return x > ODE_R(0.0) ? ODE_R(1.0) : (x < ODE_R(0.0) ? ODE_R(-1.0) : ODE_R(0.0));
}

/* XPPAUT's mod(a, b): fmod, moved up by b when negative (mod(-7,3) is 2,
 * mod(-7,-3) is -4, as XPPAUT 6.11 prints). */
ODE_HD static ODE_INLINE ode_real ode_mod(ode_real a, ode_real b)
{
    ode_real r = ode_fmod(a, b);
    return r < ODE_R(0.0) ? r + b : r;
}

/* ode_mod of whole numbers in int (b not 0): the same value, as emit_expr.c's
 * offsets of a shift use it (a ring's mod([j]+1, n)). */
ODE_HD static ODE_INLINE int ode_imod(int a, int b)
{
    const int r = a % b;
    return r < 0 ? r + b : r;
}

/* x^(-1/5) for x > 0, the step-size controller's exponent, from + - * and
 * exact scalings only: CUDA's pow and glibc's differ in the last bit, and a
 * different bit in a step size moves every later step, so with this the CPU
 * and the GPU take the same steps.  x = m 2^(5q + r), m in [0.5, 1):
 * x^(-1/5) = 2^-q (m 2^r)^(-1/5); Newton's y <- y (6 - z y^5) / 5 on
 * z = m 2^r from a guess within 2 % converges in four steps. */
ODE_HD static ODE_INLINE ode_real ode_pow_m1_5(ode_real x)
{
    int e;
    const ode_real m = ode_frexp(x, &e);
    int q = e / 5, r = e - 5 * q;
    if (r < 0) { r += 5; q -= 1; }
    const ode_real z = ode_ldexp(m, r);
    /* 2^(-r/5) and m^(-1/5) ≈ 1.1487 - 0.2974 (m - 0.5) on [0.5, 1) */
    const ode_real c = r == 0 ? ODE_R(1.0) : r == 1 ? ODE_R(0.8705505632961241) : r == 2 ? ODE_R(0.7578582832551990)
                     : r == 3 ? ODE_R(0.6597539553864471) : ODE_R(0.5743491774985174);
    ode_real y = c * (ODE_R(1.1486983549970351) - ODE_R(0.2973967099940700) * (m - ODE_R(0.5)));
    for (int k = 0; k < 4; k++) {
        const ode_real y2 = y * y;
        y = y * (ODE_R(1.2) - ODE_R(0.2) * z * (y2 * y2 * y));
    }
    return ode_ldexp(y, -q);
}

/* ln x for finite x > 0 and e^y, from + - * / and exact scalings only (the
 * PI step-size controllers' powers err^β: as for ode_pow_m1_5, the CPU and
 * the GPU then take the same steps).  Relative error below 1e-15 (double).
 * ln: x = m 2^e with m in [1/sqrt2, sqrt2), ln m = 2 atanh(s), s = (m-1)/(m+1),
 * |s| < 0.172, by its series to s^21.  exp: y = n ln2 + r, |r| <= ln2/2,
 * e^r by its Taylor series to r^14, then scaled by 2^n. */
ODE_HD static ODE_INLINE ode_real ode_ln_det(ode_real x)
{
    int e;
    ode_real m = ode_frexp(x, &e);
    if (m < ODE_R(0.70710678118654752)) {
        m = ODE_R(2.0) * m;
        e -= 1;
    }
    const ode_real s = (m - ODE_R(1.0)) / (m + ODE_R(1.0)), z = s * s;
    ode_real p = ODE_R(1.0) / ODE_R(21.0);
    ODE_UNROLL for (int k = 19; k >= 3; k -= 2) p = p * z + ODE_R(1.0) / (ode_real)k;
    p = p * z + ODE_R(1.0);
    return ODE_R(2.0) * s * p + (ode_real)e * ODE_R(0.69314718055994531);
}

ODE_HD static ODE_INLINE ode_real ode_exp_det(ode_real y)
{
    if (y > ODE_R(80.0)) y = ODE_R(80.0);             /* the step factors that need it are clamped anyway */
    if (y < ODE_R(-80.0)) y = ODE_R(-80.0);
    const ode_real q = y * ODE_R(1.4426950408889634);
    const int n = (int)(q < ODE_R(0.0) ? q - ODE_R(0.5) : q + ODE_R(0.5));
    const ode_real r = y - (ode_real)n * ODE_R(0.69314718055994531);
    ode_real p = ODE_R(1.0);
    ODE_UNROLL for (int k = 14; k >= 1; k--) p = ODE_R(1.0) + p * (r * (ODE_R(1.0) / (ode_real)k));
    return ode_ldexp(p, n);
}

/* Truth values of comparisons and logic are 1 and 0, as in XPPAUT. */
#define ODE_BOOL(c) ((c) ? ODE_R(1.0) : ODE_R(0.0))

/* sin and cos of one angle together (one range reduction). */
ODE_HD static ODE_INLINE void ode_sincos(ode_real x, ode_real *s, ode_real *c)
{
#if defined(__CUDA_ARCH__)
#if ODE_FLOAT
    sincosf(x, s, c);
#else
    sincos(x, s, c);
#endif
#else
    *s = ode_sin(x);
    *c = ode_cos(x);
#endif
}

#endif /* ODE_PRELUDE_H */
