/* duffing_ring_values.h — the ring's defaults and the functions that one
 * lane (or one thread) runs, the same text in both forms (included after
 * the model's OdeSystem). */
static double ode_state_default[ODE_NSTATE];
static double ode_param_default[ODE_NPARAM];
static int ring_defaults_made;
static void ring_defaults(void)
{
    if (ring_defaults_made) return;
    ring_defaults_made = 1;
    for (int u = 0; u < RING_U; u++) ode_state_default[u] = ode_state_default[RING_U + u] = -5.0;
    ode_param_default[0] = 13.633;
    ode_param_default[1] = 0.5;
    ode_param_default[2] = 0.004;
    ode_param_default[3] = 0.002;
    for (int u = 0; u < RING_U; u++) ode_param_default[4 + u] = 0.24;
}

ODE_HD static ODE_INLINE ode_real ode_rtol(const OdeOptions *ode_opt, int i) { (void)ode_opt; (void)i; return ODE_OPT_TOLER; }
ODE_HD static ODE_INLINE ode_real ode_atol(const OdeOptions *ode_opt, int i) { (void)ode_opt; (void)i; return ODE_OPT_ATOLER; }
ODE_HD static ODE_INLINE int ode_event_dir(int e) { (void)e; return -1; }
ODE_HD static ODE_INLINE ode_real ode_event_tol(int e) { (void)e; return ODE_R(1e-6); }
ODE_HD static ODE_INLINE int ode_event_stop(int e) { (void)e; return 0; }
ODE_HD static ODE_INLINE int ode_event_halt(int e) { (void)e; return -1; }
ODE_HD static ODE_INLINE int ode_event_smooth(int e) { (void)e; return 1; }
ODE_HD static ODE_INLINE void ode_model_derived(OdeSystem *ode_s) { (void)ode_s; }
ODE_HD static ODE_INLINE void ode_model_trig(const OdeSystem *ode_s, ode_real t, OdeTrig *ode_tr)
{
    ode_tr->c[0] = cos(ode_s->p[1] * t);
}
ODE_HD static ODE_INLINE void ode_model_trig_full(const OdeSystem *ode_s, ode_real t, OdeTrig *ode_tr)
{
    ode_sincos(ode_s->p[1] * t, &ode_tr->s[0], &ode_tr->c[0]);
}
ODE_HD static ODE_INLINE ode_real ode_model_trig_rate(const OdeSystem *ode_s, int ode_k)
{
    (void)ode_k;
    return ode_s->p[1];
}
ODE_HD static ODE_INLINE void ode_model_acc_init(OdeSystem *ode_s)
{
    for (int u = 0; u < RING_U; u++) {
        ode_s->acc[u] = 0.0;
        ode_s->acc[RING_U + u] = ode_s->y[u];
    }
}
ODE_HD static ODE_INLINE void ode_model_on_start(OdeSystem *ode_s) { (void)ode_s; }
ODE_HD static ODE_INLINE void ode_model_on_step(OdeSystem *ode_s) { (void)ode_s; }
ODE_HD static ODE_INLINE void ode_model_on_end(OdeSystem *ode_s) { (void)ode_s; }
/* on peak[u] { n_u = n_u + 1; if (n_u == 2) { xs_u = x_u } } */
ODE_HD static ODE_INLINE void ode_model_on_event(OdeSystem *ode_s, int ode_e)
{
    const ode_real n = ode_s->acc[ode_e] + 1.0;
    ode_s->acc[ode_e] = n;
    if (n == 2.0) ode_s->acc[RING_U + ode_e] = ode_s->y[ode_e];
}
ODE_HD static ODE_INLINE ode_real ode_model_field(const OdeSystem *ode_s, int ode_code)
{
    if (ode_code < ODE_NSTATE) return ode_s->y[ode_code];
    ode_code -= ODE_NSTATE;
    if (ode_code < ODE_NACC) return ode_s->acc[ode_code];
    ode_code -= ODE_NACC;
    if (ode_code < ODE_NPARAM) return ode_s->p[ode_code];
    ode_code -= ODE_NPARAM;
    return ode_code == 0 ? ode_s->t : ode_code == 1 ? ode_s->t0 : ode_s->t1;
}
/* The right-hand side of unit u: the same expressions in both forms. */
#define RING_RHS_X(x, v, u, um, up) ((v)[u] - G * (x)[u] + C * ((x)[um] + (x)[up]))
#define RING_RHS_V(x, v, u, um, up, cw) \
    (-k[u] * (v)[u] + (x)[u] - (x)[u] * (x)[u] * (x)[u] + B * (cw) - G * (v)[u] + C * ((v)[um] + (v)[up]))
