/* example_team_written.h — templates/example_team_model.h's model WRITTEN
 * OUT, in the shape of templates/example_model.h (one system per thread,
 * OdeSystem in registers), with the same expressions in the same order, so
 * that the per-thread integrator (integrate.h) and the team integrator
 * (team_integrate.h) can be compared bit for bit where the order of the
 * sums is the same (a team of one), and to rounding otherwise.
 */
#ifndef ODE_EXAMPLE_TEAM_WRITTEN_H
#define ODE_EXAMPLE_TEAM_WRITTEN_H

#define ODE_LOOP_FORM 0
#include "example_team_model.h"   /* its constants, lane functions and metadata */

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

#endif /* ODE_EXAMPLE_TEAM_WRITTEN_H */
