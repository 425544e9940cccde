/* scan_fill.c — the systems of a scan made from its definition, where they
 * run: on the device by a kernel (the product of the scan lines expanded
 * there, so that only the lines cross the bus, not one value per system), or
 * on the host by the same function in an OpenMP loop.
 *
 * System s of a scan is the point of the Cartesian product of its axes, the
 * last axis varying fastest: axis l's index is (s / stride_l) % n_l.  Its
 * value is, for list and log axes, a table entry computed on the host (so
 * that the GPU and the CPU scan exactly the same numbers: the device's pow is
 * not the host's), and for lin axes i * step + a, rounded as the host rounds
 * it (no fused multiply-add), with both ends exact.
 */
#ifndef ODEGEN_GENERATED
#include "example_model.h"
#endif

/* One axis of the scan, as the device (or the host) reads it. */
typedef struct OdeAxisView {
    int target_kind;        /* ODE_TARGET_PARAM or ODE_TARGET_STATE */
    int target;             /* its index */
    long long n;            /* values */
    long long stride;       /* systems per step of this axis: the product of the later axes' n */
    double a, b, step;      /* lin: value i = i * step + a (first a, last b) */
    const double *values;   /* list and log: the n values; NULL for lin */
} OdeAxisView;

/* What every system starts from, and the axes that vary it. */
typedef struct OdeFillPlan {
    double t0, t1;              /* the window */
    const double *base;         /* [ODE_NPARAM parameters, then ODE_NSTATE initial values] */
    const OdeAxisView *axes;    /* [naxis], first = slowest */
    int naxis;
    unsigned char init_expr[ODE_ALLOC(ODE_NSTATE)];   /* 1: the state's initial value is its `init`
                                                         expression of this system's parameters */
} OdeFillPlan;

/* x * y + z with both roundings (never contracted into one fma), the same on
 * the host and the device. */
ODE_HD static ODE_INLINE double ode_mul_add_rounded(double x, double y, double z)
{
#ifdef __CUDA_ARCH__
    return __dadd_rn(__dmul_rn(x, y), z);
#else
    volatile double product = x * y;
    return product + z;
#endif
}

ODE_HD static ODE_INLINE double ode_axis_value(const OdeAxisView *ax, long long i)
{
    if (ax->values) return ax->values[i];
    if (i == 0) return ax->a;
    if (i == ax->n - 1) return ax->b;
    return ode_mul_add_rounded((double)i, ax->step, ax->a);
}

/* Slot i of the arrays becomes system `system` of the scan, at its start:
 * window [t0, t1], t = t0, accessories 0, status READY (the `acc`
 * expressions run at the first integration), no steps yet. */
ODE_HD static ODE_INLINE void ode_fill_system(const OdeArrays *a, int i, long long system, const OdeFillPlan *p)
{
    const int n = a->n;
    for (int k = 0; k < ODE_NPARAM; k++) ODE_AT(a->p, k, i, n) = (ode_real)p->base[k];
    for (int k = 0; k < ODE_NSTATE; k++) ODE_AT(a->y, k, i, n) = (ode_real)p->base[ODE_NPARAM + k];
    for (int l = 0; l < p->naxis; l++) {
        const OdeAxisView *ax = &p->axes[l];
        const ode_real v = (ode_real)ode_axis_value(ax, (system / ax->stride) % ax->n);
        if (ax->target_kind == ODE_TARGET_PARAM) ODE_AT(a->p, ax->target, i, n) = v;
        else ODE_AT(a->y, ax->target, i, n) = v;
    }
#if ODE_NINIT_EXPR > 0
    {
        ODE_SYSTEM_LOCAL(s);
        for (int k = 0; k < ODE_NPARAM; k++) s.p[k] = ODE_AT(a->p, k, i, n);
        for (int k = 0; k < ODE_NSTATE; k++) s.y[k] = ODE_AT(a->y, k, i, n);
        ode_model_derived(&s);
        ode_model_initial(&s);
        for (int k = 0; k < ODE_NSTATE; k++)
            if (p->init_expr[k]) ODE_AT(a->y, k, i, n) = s.y[k];
    }
#endif
    for (int k = 0; k < ODE_NACC; k++) ODE_AT(a->acc, k, i, n) = ODE_R(0.0);
    a->t[i] = (ode_real)p->t0;
    a->t0[i] = (ode_real)p->t0;
    a->t1[i] = (ode_real)p->t1;
    a->status[i] = ODE_STATUS_READY;
    a->steps[i] = 0;
    a->evals[i] = 0;
#if ODE_NOISE
    a->rng_system[i] = (unsigned long long)system;   /* its random numbers: keyed by its index in the scan */
    a->rng_rep[i] = 0xFFFFFFFFu;                     /* no integration yet: the first is 0 */
    a->rng_step[i] = 0;
#endif
}

/* Slots 0 … a->n-1 become systems first, first + every, first + 2 every, … */
static void ode_fill_host(const OdeArrays *a, const OdeFillPlan *p, long long first, long long every)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < a->n; i++) ode_fill_system(a, i, first + (long long)i * every, p);
}

#ifdef __CUDACC__
__global__ static void ode_fill_kernel(const __grid_constant__ OdeArrays a, const __grid_constant__ OdeFillPlan p,
                                       long long first, long long every)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a.n) ode_fill_system(&a, i, first + (long long)i * every, &p);
}
#endif
