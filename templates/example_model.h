/* example_model.h — a model section written by hand in exactly the shape that
 * odegen's emitter produces, so that the templates and the runtime compile and
 * can be tested on their own (lemon's habit: a template is a real C file).
 *
 * The model is the Duffing oscillator with a running maximum and an event at
 * each local maximum of y1:
 *
 *     par k=0.25, B=0.3
 *     y1'=y2
 *     y2'=y1-y1^3-k*y2+B*cos(t)
 *     acc ymax=y1
 *     on step { if (y1 > ymax) { ymax = y1 } }
 *     event peak: y2, dir=-1, tol=1e-6
 *     @ meth=rk4, dt=0.01, total=6.283185307179586
 *     scan k = lin(0.2, 0.3, 30720)
 *     repeat transient=1024, record=32
 *
 * In a generated file, ODEGEN_GENERATED is defined and this file is absent:
 * the emitter writes the two parts below around prelude.h and system.h.
 */
#ifndef ODE_EXAMPLE_MODEL_H
#define ODE_EXAMPLE_MODEL_H

/* ---------------------------------------------------------------- constants */
#define ODE_MODEL_NAME "example"
#define ODE_FLOAT 0
#define ODE_NSTATE 2
#define ODE_NPARAM 2
#define ODE_NDERIVED 0
#define ODE_NAUX 0
#define ODE_NACC 1
#define ODE_NEVENT 1
#define ODE_NFIELD 8                 /* y1 y2 ymax k B t t0 t1 */
#define ODE_NTRIG 1                  /* cos(t) in the right-hand side */
#define ODE_METHOD 3                 /* rk4 (tableaux.h: ODE_METH_RK4) */
#define ODE_OPT_DT ODE_R(0.01)
#define ODE_OPT_T0 0.0
#define ODE_OPT_TOTAL 6.283185307179586
#define ODE_OPT_DTMIN ODE_R(1e-12)
#define ODE_OPT_DTMAX ODE_R(1e6)
#define ODE_OPT_HGROW ODE_R(5.0)
#define ODE_OPT_HSHRINK ODE_R(0.1)
#define ODE_OPT_EVSTEPS 50
#define ODE_OPT_EVPOINTS 3
#define ODE_OPT_MAXSTEPS 100000000ULL
#define ODE_OPT_BOUND ODE_R(1e100)
#define ODE_HAS_ON_START 0
#define ODE_HAS_ON_STEP 1
#define ODE_HAS_ON_END 0
#define ODE_SAVE 0                   /* no `save` line */
#define ODE_SAVE_EVERY 0.0
#define ODE_NSAVE_SYSTEMS 0
#define ODE_SAVE_MAX 0
#define ODE_DEFAULT_TRANSIENT 1024
#define ODE_DEFAULT_RECORD 32
#define ODE_BLOCK_SIZE 128           /* default threads per block */

#include "prelude.h"
#include "system.h"

/* ---------------------------------------------------------------- functions */
ODE_HD static ODE_INLINE ode_real ode_rtol(int i) { (void)i; return ODE_R(0.001); }
ODE_HD static ODE_INLINE ode_real ode_atol(int i) { (void)i; return ODE_R(0.001); }
ODE_HD static ODE_INLINE int ode_event_dir(int e) { (void)e; return -1; }
ODE_HD static ODE_INLINE ode_real ode_event_tol(int e) { (void)e; return ODE_R(1e-6); }
ODE_HD static ODE_INLINE int ode_event_stop(int e) { (void)e; return 0; }

/* Derived parameters: none. */
ODE_HD static ODE_INLINE void ode_model_derived(OdeSystem *ode_s) { (void)ode_s; }

/* sin/cos of the right-hand side's arguments affine in t: here cos(t). */
ODE_HD static ODE_INLINE void ode_model_trig(const OdeSystem *ode_s, ode_real t, OdeTrig *ode_tr)
{
    (void)ode_s;
    ode_tr->c[0] = cos(t);   /* only what the right-hand side uses */
}

ODE_HD static ODE_INLINE void ode_model_trig_full(const OdeSystem *ode_s, ode_real t, OdeTrig *ode_tr)
{
    (void)ode_s;
    ode_sincos(t, &ode_tr->s[0], &ode_tr->c[0]);
}

/* d/dt of each argument. */
ODE_HD static ODE_INLINE ode_real ode_model_trig_rate(const OdeSystem *ode_s, int k)
{
    (void)ode_s;
    (void)k;
    return 1.0;
}

/* The right-hand side at (t, ode_y); sin/cos of time from ode_tr. */
ODE_HD static ODE_INLINE void ode_model_rhs(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                            ode_real *ode_dy, const OdeTrig *ode_tr)
{
    (void)t;
    const ode_real k = ode_s->p[0];
    const ode_real B = ode_s->p[1];
    const ode_real y1 = ode_y[0];
    const ode_real y2 = ode_y[1];
    ode_dy[0] = y2;
    ode_dy[1] = y1 - y1 * y1 * y1 - k * y2 + B * ode_tr->c[0];   /* cos(t) */
}

/* Event functions at (t, ode_y). */
ODE_HD static ODE_INLINE void ode_model_events(const OdeSystem *ode_s, ode_real t,
                                               const ode_real *ode_y, ode_real *ode_g)
{
    (void)ode_s;
    (void)t;
    const ode_real y2 = ode_y[1];
    ode_g[0] = y2;
}

/* `acc` initial values, once per run (status READY). */
ODE_HD static ODE_INLINE void ode_model_acc_init(OdeSystem *ode_s)
{
    const ode_real y1 = ode_s->y[0];
    ode_s->acc[0] = y1;
}

ODE_HD static ODE_INLINE void ode_model_on_start(OdeSystem *ode_s) { (void)ode_s; }

ODE_HD static ODE_INLINE void ode_model_on_step(OdeSystem *ode_s)
{
    const ode_real y1 = ode_s->y[0];
    if (y1 > ode_s->acc[0]) {
        ode_s->acc[0] = y1;
    }
}

/* After detection of event ode_e: its statements, then `on NAME`. */
ODE_HD static ODE_INLINE void ode_model_on_event(OdeSystem *ode_s, int ode_e) { (void)ode_s; (void)ode_e; }

ODE_HD static ODE_INLINE void ode_model_on_end(OdeSystem *ode_s) { (void)ode_s; }

/* A recordable quantity by its code (the order of ode_field_names). */
ODE_HD static ODE_INLINE ode_real ode_model_field(const OdeSystem *ode_s, int ode_code)
{
    switch (ode_code) {
    case 0: return ode_s->y[0];
    case 1: return ode_s->y[1];
    case 2: return ode_s->acc[0];
    case 3: return ode_s->p[0];
    case 4: return ode_s->p[1];
    case 5: return ode_s->t;
    case 6: return ode_s->t0;
    default: return ode_s->t1;
    }
}

/* ---------------------------------------------------------------- host metadata */
static const char *const ode_state_names[] = {"y1", "y2"};
static const double ode_state_default[] = {0.0, 0.0};
static const char *const ode_param_names[] = {"k", "B"};
static const double ode_param_default[] = {0.25, 0.3};
static const char *const ode_derived_names[ODE_ALLOC(ODE_NDERIVED)] = {0};
static const char *const ode_aux_names[ODE_ALLOC(ODE_NAUX)] = {0};
static const char *const ode_acc_names[] = {"ymax"};
static const char *const ode_event_names[] = {"peak"};
static const char *const ode_field_names[ODE_NFIELD] = {"y1", "y2", "ymax", "k", "B", "t", "t0", "t1"};
static const int ode_default_fields[] = {0, 1};
#define ODE_NDEFAULT_FIELDS 2
static const OdeScanSpec ode_default_scans[] = {
    {ODE_TARGET_PARAM, 0, ODE_SCAN_LIN, 0.2, 0.3, 30720, 0},
};
#define ODE_NSCAN 1
static const long ode_save_systems[1] = {0};

#endif /* ODE_EXAMPLE_MODEL_H */
