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
#define ODE_RESTRICT __restrict__
#ifdef __CUDA_ARCH__
#define ODE_UNROLL _Pragma("unroll")
#else
#define ODE_UNROLL
#endif
/* Helpers a model does not use are fine: "declared but never referenced". */
#pragma nv_diag_suppress 177
#else
#define ODE_HD
#define ODE_INLINE inline __attribute__((always_inline))
#define ODE_RESTRICT restrict
#define ODE_UNROLL
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
#define ode_sqrt sqrtf
#define ode_pow powf
#define ode_floor floorf
#define ode_fmod fmodf
#define ode_fmax fmaxf
#define ode_fmin fminf
#define ode_sin sinf
#define ode_cos cosf
#define ode_exp expf
#define ode_log logf
#define ODE_EPS 1.1920929e-07f
#else
typedef double ode_real;
#define ODE_R(x) x
#define ode_fabs fabs
#define ode_sqrt sqrt
#define ode_pow pow
#define ode_floor floor
#define ode_fmod fmod
#define ode_fmax fmax
#define ode_fmin fmin
#define ode_sin sin
#define ode_cos cos
#define ode_exp exp
#define ode_log log
#define ODE_EPS 2.220446049250313e-16
#endif

/* A value that is neither NaN nor infinite (x - x is 0 only for finite x). */
ODE_HD static ODE_INLINE int ode_finite(ode_real x) { return (x - x) == ODE_R(0.0); }

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
