/* ref_written.c — the written-out example model's functions (example_team_written.h)
 * under names of their own, so that a test can hold them beside the loop-form
 * model (a translation unit has one OdeSystem). */
#include "example_team_written.h"
#include "ref_written.h"

static OdeSystem ref_system(const double *y, const double *p)
{
    OdeSystem s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < ODE_NSTATE; i++) s.y[i] = y[i];
    for (int i = 0; i < ODE_NPARAM; i++) s.p[i] = p[i];
    return s;
}

void ref_rhs(const double *p, double t, const double *y, double *dy)
{
    OdeSystem s = ref_system(y, p);
    OdeTrig tr;
    ode_model_trig(&s, t, &tr);
    ode_model_rhs(&s, t, y, dy, &tr);
}

void ref_events(const double *p, double t, const double *y, double *g)
{
    OdeSystem s = ref_system(y, p);
    ode_model_events(&s, t, y, g);
}

void ref_jac(const double *p, double t, const double *y, double *J)
{
    OdeSystem s = ref_system(y, p);
    OdeTrig tr;
    ode_model_trig(&s, t, &tr);
    ode_model_jac(&s, t, y, J, &tr);
}

void ref_dfdt(const double *p, double t, const double *y, double *ft)
{
    OdeSystem s = ref_system(y, p);
    OdeTrig tr;
    ode_model_trig_full(&s, t, &tr);
    ode_model_dfdt(&s, t, y, ft, &tr);
}

void ref_events_jvp(const double *p, double t, const double *y, const double *v, double vt, double *gv)
{
    OdeSystem s = ref_system(y, p);
    for (int e = 0; e < ODE_NEVENT; e++) {
        double gy[ODE_NSTATE], gt;
        ode_model_event_grad(&s, e, t, y, gy, &gt);
        double acc = gt * vt;
        for (int j = 0; j < ODE_NSTATE; j++) acc += gy[j] * v[j];
        gv[e] = acc;
    }
}
