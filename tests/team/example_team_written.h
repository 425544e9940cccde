/* example_team_written.h — templates/example_team_model.h's model WRITTEN
 * OUT, in the shape of templates/example_model.h (one system per thread,
 * OdeSystem in registers), with the same expressions in the same order, so
 * that the per-thread integrator (integrate.h) and the team integrator
 * (team_integrate.h) can be compared bit for bit where the order of the
 * sums is the same (a team of one), and to rounding otherwise.
 */
#ifndef ODE_EXAMPLE_TEAM_WRITTEN_H
#define ODE_EXAMPLE_TEAM_WRITTEN_H

#define ODE_MODEL_NAME "example_team"
#define ODE_FLOAT 0
#define ODE_NSTATE 17
#define ODE_NPARAM 12
#define ODE_NDERIVED 0
#define ODE_NAUX 0
#define ODE_NACC 2
#define ODE_NEVENT 9
#define ODE_EVENTS_GLOBAL 0x0ULL      /* XPPAUT `global`s (firing.h): none */
#define ODE_EVENTS_EXACT 0x0ULL       /* `global 0`s: none */
#define ODE_NFIELD 34
#define ODE_NTRIG 1
#ifndef ODE_METHOD
#define ODE_METHOD 4
#endif
#define ODE_DEFAULT_DT 0.01
#define ODE_DEFAULT_T0 0.0
#define ODE_DEFAULT_TOTAL 20.0
#define ODE_DEFAULT_TOLER 1e-08
#define ODE_DEFAULT_ATOLER 1e-08
#define ODE_DEFAULT_DTMIN 1e-12
#define ODE_DEFAULT_DTMAX 1e6
#define ODE_DEFAULT_MAXSTEPS 100000000ULL
#define ODE_DEFAULT_BOUND 1e100
#define ODE_OPT_HGROW ODE_R(5.0)
#define ODE_OPT_HSHRINK ODE_R(0.1)
#define ODE_OPT_EVSTEPS 50
#define ODE_OPT_EVPOINTS 3
#define ODE_HAS_ON_START 0
#define ODE_HAS_ON_STEP 1
#define ODE_HAS_ON_END 0
#define ODE_SAVE 0
#define ODE_SAVE_EVERY 0.0
#define ODE_NSAVE_SYSTEMS 0
#define ODE_SAVE_MAX 0
#define ODE_DEFAULT_TRANSIENT 0
#define ODE_DEFAULT_RECORD 1
#define ODE_BLOCK_SIZE 128
#define ODEGEN_VERSION "0.2.0"
#define ODE_SOURCE_PATH "example_team.ode"
#define ODE_GENERATED_HASH "0000000000000000"
#define ODE_OPTIONS_TEXT "meth=rkck45, dt=0.01, t0=0, total=20, toler=1e-08, atoler=1e-08"

#include "prelude.h"
#include "options.h"
#include "system.h"

ODE_HD static ODE_INLINE ode_real ode_rtol(const OdeOptions *ode_opt, int i) { (void)ode_opt; (void)i; return ODE_OPT_TOLER; }
ODE_HD static ODE_INLINE ode_real ode_atol(const OdeOptions *ode_opt, int i) { (void)ode_opt; (void)i; return ODE_OPT_ATOLER; }
ODE_HD static ODE_INLINE int ode_event_dir(int e) { return e < 8 ? -1 : 1; }
ODE_HD static ODE_INLINE ode_real ode_event_tol(int e) { (void)e; return ODE_R(1e-6); }
ODE_HD static ODE_INLINE int ode_event_stop(int e) { (void)e; return 0; }
ODE_HD static ODE_INLINE int ode_event_smooth(int e) { (void)e; return 1; }
ODE_HD static ODE_INLINE void ode_model_derived(OdeSystem *ode_s) { (void)ode_s; }

ODE_HD static ODE_INLINE void ode_model_trig(const OdeSystem *ode_s, ode_real t, OdeTrig *ode_tr)
{
    const ode_real w = ode_s->p[1];
    ode_tr->c[0] = cos(w * t);
}

ODE_HD static ODE_INLINE void ode_model_trig_full(const OdeSystem *ode_s, ode_real t, OdeTrig *ode_tr)
{
    const ode_real w = ode_s->p[1];
    ode_sincos(w * t, &ode_tr->s[0], &ode_tr->c[0]);
}

ODE_HD static ODE_INLINE ode_real ode_model_trig_rate(const OdeSystem *ode_s, int ode_k)
{
    (void)ode_k;
    return ode_s->p[1];
}

ODE_HD static ODE_INLINE void ode_model_rhs(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                            ode_real *ode_dy, const OdeTrig *ode_tr)
{
    (void)t;
    const ode_real B = ode_s->p[0], c = ode_s->p[2], g = ode_s->p[3];
    const ode_real *const k = ode_s->p + 4;
    const ode_real *const x = ode_y + 0, *const v = ode_y + 8;
    const ode_real E = ode_y[16];
    ode_real u[8];
    ODE_UNROLL for (int j = 0; j < 8; j++) u[j] = x[j] / (1.0 + x[j] * x[j]);
    ode_real X = -0.0, S = -0.0;   /* x1 + x2 + … written out, left to right */
    ODE_UNROLL for (int j = 0; j < 8; j++) X += x[j];
    X = X / 8.0;
    ODE_UNROLL for (int j = 0; j < 8; j++) S += v[j] * v[j];
    ODE_UNROLL for (int j = 0; j < 8; j++) ode_dy[j] = v[j];
    ODE_UNROLL for (int j = 0; j < 8; j++) {
        const int jm = j == 0 ? 7 : j - 1, jp = j == 7 ? 0 : j + 1;
        ode_dy[8 + j] = x[j] - x[j] * x[j] * x[j] - k[j] * v[j] + B * ode_tr->c[0] + c * (u[jm] - 2.0 * u[j] + u[jp])
                      + g * (X - x[j]);
    }
    ode_dy[16] = S / 8.0 - E;
}

ODE_HD static ODE_INLINE void ode_model_events(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y, ode_real *ode_g)
{
    (void)ode_s;
    (void)t;
    ODE_UNROLL for (int j = 0; j < 8; j++) ode_g[j] = ode_y[8 + j];
    ode_g[8] = ode_y[16] - 1.0;
}

ODE_HD static ODE_INLINE void ode_model_acc_init(OdeSystem *ode_s)
{
    ode_s->acc[0] = 0.0;
    ode_s->acc[1] = ode_s->y[0];
}

ODE_HD static ODE_INLINE void ode_model_on_start(OdeSystem *ode_s) { (void)ode_s; }

ODE_HD static ODE_INLINE void ode_model_on_step(OdeSystem *ode_s)
{
    const ode_real x1 = ode_s->y[0];
    ode_real xmax = ode_s->acc[1];
    if (x1 > xmax) xmax = x1;
    ode_s->acc[1] = xmax;
}

ODE_HD static ODE_INLINE void ode_model_on_event(OdeSystem *ode_s, int ode_e)
{
    if (ode_e < 8) ode_s->acc[0] = ode_s->acc[0] + 1.0;
}

ODE_HD static ODE_INLINE void ode_model_on_end(OdeSystem *ode_s) { (void)ode_s; }

#define ODE_HAS_JACOBIAN 1
#define ODE_JAC_NNZ 89
#define ODE_AUTONOMOUS 0
ODE_HD static ODE_INLINE int ode_jac_nz(int i, int j)
{
    if (i < 8) return j == 8 + i;
    if (i < 16) return j < 8 || j == i;
    return j >= 8;
}

ODE_HD static ODE_INLINE void ode_model_jac(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y, ode_real *ode_J,
                                            const OdeTrig *ode_tr)
{
    (void)t;
    (void)ode_tr;
    const ode_real c = ode_s->p[2], g = ode_s->p[3];
    const ode_real *const k = ode_s->p + 4;
    const ode_real *const x = ode_y + 0, *const v = ode_y + 8;
    for (int i = 0; i < ODE_NSTATE * ODE_NSTATE; i++) ode_J[i] = 0.0;
    for (int j = 0; j < 8; j++) ode_J[j * ODE_NSTATE + 8 + j] = 1.0;
    for (int j = 0; j < 8; j++)
        for (int m = 0; m < 8; m++) {
            const int jm = j == 0 ? 7 : j - 1, jp = j == 7 ? 0 : j + 1;
            const ode_real r = 1.0 + x[m] * x[m];
            const ode_real du = (1.0 - x[m] * x[m]) / (r * r);
            ode_real d = g / 8.0;
            if (m == j) d += 1.0 - 3.0 * (x[m] * x[m]) - 2.0 * c * du - g;
            if (m == jm) d += c * du;
            if (m == jp) d += c * du;
            ode_J[(8 + j) * ODE_NSTATE + m] = d;
        }
    for (int j = 0; j < 8; j++) ode_J[(8 + j) * ODE_NSTATE + 8 + j] = -k[j];
    for (int m = 0; m < 8; m++) ode_J[16 * ODE_NSTATE + 8 + m] = 2.0 * v[m] / 8.0;
    ode_J[16 * ODE_NSTATE + 16] = -1.0;
}

ODE_HD static ODE_INLINE void ode_model_rhs_jac(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                ode_real *ode_dy, ode_real *ode_J, const OdeTrig *ode_tr)
{
    ode_model_rhs(ode_s, t, ode_y, ode_dy, ode_tr);
    ode_model_jac(ode_s, t, ode_y, ode_J, ode_tr);
}

ODE_HD static ODE_INLINE void ode_model_dfdt(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y, ode_real *ode_ft,
                                             const OdeTrig *ode_tr)
{
    (void)t;
    (void)ode_y;
    const ode_real B = ode_s->p[0], w = ode_s->p[1];
    for (int j = 0; j < 8; j++) ode_ft[j] = 0.0;
    for (int j = 0; j < 8; j++) ode_ft[8 + j] = -(B * (w * ode_tr->s[0]));
    ode_ft[16] = 0.0;
}

#define ODE_HAS_EVENT_GRAD 1
ODE_HD static ODE_INLINE void ode_model_event_grad(const OdeSystem *ode_s, int ode_e, ode_real t, const ode_real *ode_y,
                                                   ode_real *ode_gy, ode_real *ode_gt)
{
    (void)ode_s;
    (void)t;
    (void)ode_y;
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) ode_gy[i] = 0.0;
    *ode_gt = 0.0;
    if (ode_e < 8) ode_gy[8 + ode_e] = 1.0;
    else ode_gy[16] = 1.0;
}

ODE_HD static ODE_INLINE ode_real ode_model_field(const OdeSystem *ode_s, int ode_code)
{
    if (ode_code < 17) return ode_s->y[ode_code];
    if (ode_code < 19) return ode_s->acc[ode_code - 17];
    if (ode_code < 31) return ode_s->p[ode_code - 19];
    switch (ode_code) {
    case 31: return ode_s->t;
    case 32: return ode_s->t0;
    default: return ode_s->t1;
    }
}

static const double ode_state_default[] = {1.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static const double ode_param_default[] = {0.3, 1.0, 0.1, 0.05, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25};

#endif /* ODE_EXAMPLE_TEAM_WRITTEN_H */
