/* use_all.c — every derivative function of a generated model called once, the
 * way a tangent-vector integrator or a Rosenbrock stepper calls them: local
 * arrays with compile-time indices.
 *
 * Included after a generated model section (-DGEN_CU='"…"').  As C (double
 * or float, -Wall -Wextra -Werror -Wdouble-promotion) it type-checks the
 * functions and runs them once under ASan/UBSan; as CUDA (nvcc -Xptxas -v) its
 * two kernels show what the derivatives cost in registers next to the
 * right-hand side alone: no spills, no stack frame of their own.
 */
#include GEN_CU

ODE_HD static ODE_INLINE ode_real use_all(const OdeSystem *s, ode_real t, const ode_real *y)
{
    ode_real dy[ODE_NSTATE], v[ODE_NSTATE], acc = ODE_R(0.0);
    OdeTrig tr;
    ode_model_trig_full(s, t, &tr);
#if ODE_HAS_JACOBIAN
    ode_real J[ODE_NSTATE * ODE_NSTATE], Jv[ODE_NSTATE], ft[ODE_NSTATE], sw[ODE_ALLOC(ODE_NSWITCH)];
    ode_real fp[ODE_ALLOC(ODE_NSTATE * ODE_NPARAM)];
    ode_model_rhs_jac(s, t, y, dy, J, &tr);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) v[i] = dy[i];
    ode_model_jac_mul(J, v, Jv);
    ode_model_jac(s, t, y, J, &tr);
    ode_model_dfdt(s, t, y, ft, &tr);
    ode_model_dfdp(s, t, y, fp, &tr);
    ode_model_switches(s, t, y, sw);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) acc += Jv[i] + ft[i] + J[i * ODE_NSTATE + i] * ode_jac_nz(i, i);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE * ODE_NPARAM; i++) acc += fp[i];
    ODE_UNROLL for (int i = 0; i < ODE_NSWITCH; i++) acc += sw[i];
#else
    ode_model_rhs(s, t, y, dy, &tr);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) acc += dy[i];
    (void)v;
#endif
#if ODE_HAS_EVENT_GRAD
    ode_real gy[ODE_NSTATE], gt;
    ODE_UNROLL for (int e = 0; e < ODE_NEVENT; e++) {
        ode_model_event_grad(s, e, t, y, gy, &gt);
        acc += gt;
        ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) acc += gy[i];
    }
#endif
#if ODE_HAS_RESET_JAC
    ode_real R[ODE_NSTATE * ODE_NSTATE], Rt[ODE_NSTATE];
    ode_model_on_start_jac(s, R);
    acc += R[0];
    ode_model_on_end_jac(s, R);
    acc += R[ODE_NSTATE * ODE_NSTATE - 1];
    ODE_UNROLL for (int e = 0; e < ODE_NEVENT; e++) {
        if (!ode_event_resets(e)) continue;
        ode_model_on_event_jac(s, e, R, Rt);
        ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) acc += R[i * ODE_NSTATE + i] + Rt[i];
    }
    acc += (ode_real)(ODE_ON_START_RESETS + ODE_ON_END_RESETS);
#endif
    return acc;
}

/* The right-hand side alone: the baseline of the register report. */
ODE_HD static ODE_INLINE ode_real rhs_only(const OdeSystem *s, ode_real t, const ode_real *y)
{
    ode_real dy[ODE_NSTATE], acc = ODE_R(0.0);
    OdeTrig tr;
    ode_model_trig_full(s, t, &tr);
    ode_model_rhs(s, t, y, dy, &tr);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) acc += dy[i];
    return acc;
}

ODE_HD static ODE_INLINE void load(OdeSystem *s, ode_real *y, int i, int n, const ode_real *ys)
{
    for (int k = 0; k < ODE_NPARAM; k++) s->p[k] = ODE_R(0.5) + ODE_R(1e-3) * (ode_real)(i + k);
    for (int k = 0; k < ODE_NACC; k++) s->acc[k] = ODE_R(0.5);
    for (int k = 0; k < ODE_NEVENT; k++) s->count[k] = 1;
    s->t = ODE_R(1.5);
    s->t0 = ODE_R(0.0);
    s->t1 = ODE_R(10.0);
    ode_model_derived(s);
    ODE_UNROLL for (int k = 0; k < ODE_NSTATE; k++) y[k] = s->y[k] = ys[k * n + i];
}

#ifdef __CUDACC__
/* One kernel per function: its registers and stack frame in ptxas's report. */
#define KERNEL(name, fn)                                              \
    __global__ void name(const ode_real *ys, ode_real *out, int n)    \
    {                                                                 \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                \
        if (i >= n) return;                                           \
        OdeSystem s;                                                  \
        ode_real y[ODE_NSTATE];                                       \
        load(&s, y, i, n, ys);                                        \
        out[i] = fn(&s, s.t, y);                                      \
    }
KERNEL(use_all_kernel, use_all)
KERNEL(rhs_only_kernel, rhs_only)
#else
#include <stdio.h>

int main(void)
{
    ode_real ys[ODE_NSTATE], y[ODE_NSTATE];
    OdeSystem s;
    for (int k = 0; k < ODE_NSTATE; k++) ys[k] = (ode_real)ode_state_default[k] + ODE_R(0.25);
    load(&s, y, 0, 1, ys);
    printf("use_all %g rhs %g\n", (double)use_all(&s, s.t, y), (double)rhs_only(&s, s.t, y));
    return 0;
}
#endif
