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
 *     set soft {k=0.22, y1=1}
 *
 * In a generated file, ODEGEN_GENERATED is defined and this file is absent:
 * the emitter writes the two parts below around prelude.h, options.h and system.h.
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
#define ODE_DEFAULT_DT 0.01         /* run-time options: the file's values (options.h) */
#define ODE_DEFAULT_T0 0.0
#define ODE_DEFAULT_TOTAL 6.283185307179586
#define ODE_DEFAULT_TOLER 0.001
#define ODE_DEFAULT_ATOLER 0.001
#define ODE_DEFAULT_DTMIN 1e-12
#define ODE_DEFAULT_DTMAX 1e6
#define ODE_DEFAULT_MAXSTEPS 100000000ULL
#define ODE_DEFAULT_BOUND 1e100
#define ODE_OPT_HGROW ODE_R(5.0)
#define ODE_OPT_HSHRINK ODE_R(0.1)
#define ODE_OPT_EVSTEPS 50
#define ODE_OPT_EVPOINTS 3
#define ODE_EVENTS_GLOBAL 0x0ULL      /* XPPAUT `global`s (firing.h): none */
#define ODE_EVENTS_EXACT 0x0ULL       /* `global 0`s: none */
#define ODE_HAS_ON_START 0
#define ODE_HAS_ON_STEP 1
#define ODE_HAS_ON_END 0
#define ODE_ON_START_WINDOW 0        /* on start assigns t0 or t1 */
#define ODE_SAVE 0                   /* no `save` line */
#define ODE_SAVE_EVERY 0.0
#define ODE_NSAVE_SYSTEMS 0
#define ODE_SAVE_MAX 0
#define ODE_DEFAULT_TRANSIENT 1024
#define ODE_DEFAULT_RECORD 32
#define ODE_BLOCK_SIZE 128           /* default threads per block */
#define ODEGEN_VERSION "0.2.0"       /* odegen's version (generator/base/version.h) */
#define ODE_SOURCE_PATH "example.ode"
#define ODE_GENERATED_HASH "0000000000000000"   /* (odegen writes a hash of NAME.cu's code here) */
#define ODE_OPTIONS_TEXT "meth=rk4, dt=0.01, t0=0, total=6.283185307179586, dtmin=1e-12, dtmax=1000000, " \
                         "hgrow=5, hshrink=0.1, evsteps=50, maxsteps=100000000, bound=1e+100, prec=double"

#include "prelude.h"
#include "options.h"
#include "system.h"

/* ---------------------------------------------------------------- functions */
ODE_HD static ODE_INLINE ode_real ode_rtol(const OdeOptions *ode_opt, int i) { (void)ode_opt; (void)i; return ODE_OPT_TOLER; }
ODE_HD static ODE_INLINE ode_real ode_atol(const OdeOptions *ode_opt, int i) { (void)ode_opt; (void)i; return ODE_OPT_ATOLER; }
ODE_HD static ODE_INLINE int ode_event_dir(int e) { (void)e; return -1; }
ODE_HD static ODE_INLINE ode_real ode_event_tol(int e) { (void)e; return ODE_R(1e-6); }
ODE_HD static ODE_INLINE int ode_event_stop(int e) { (void)e; return 0; }
ODE_HD static ODE_INLINE int ode_event_halt(int e) { (void)e; return -1; }   /* arret=EXPR's accessory, or -1 */

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

/* ---- derivatives (generator/emit/emit_jacobian.c writes these for every model) ---- */
#define ODE_HAS_JACOBIAN 1
#define ODE_JAC_NNZ 3                /* non-zero entries of df/dy, of 4 */
#define ODE_AUTONOMOUS 0             /* df/dt is 0 */
/* Whether J[i][j] can be non-zero: a compile-time constant once i and j are. */
ODE_HD static ODE_INLINE int ode_jac_nz(int ode_i, int ode_j)
{
    switch (ode_i * ODE_NSTATE + ode_j) {
    case 1: case 2: case 3: return 1;
    default: return 0;
    }
}

/* J = df/dy at (t, ode_y), row-major: ode_J[i * ODE_NSTATE + j], every entry written. */
ODE_HD static ODE_INLINE void ode_model_jac(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                            ode_real *ode_J, const OdeTrig *ode_tr)
{
    (void)t;
    (void)ode_tr;
    ODE_UNROLL for (int ode_i = 0; ode_i < ODE_NSTATE * ODE_NSTATE; ode_i++) ode_J[ode_i] = 0.0;
    const ode_real k = ode_s->p[0];
    const ode_real y1 = ode_y[0];
    ode_J[1] = 1.0;                         /* d(y1')/d(y2) */
    ode_J[2] = 1.0 - 3.0 * (y1 * y1);       /* d(y2')/d(y1) */
    ode_J[3] = -k;                          /* d(y2')/d(y2) */
}

/* f and J together, sharing their subexpressions. */
ODE_HD static ODE_INLINE void ode_model_rhs_jac(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                ode_real *ode_dy, ode_real *ode_J, const OdeTrig *ode_tr)
{
    ode_model_rhs(ode_s, t, ode_y, ode_dy, ode_tr);
    ode_model_jac(ode_s, t, ode_y, ode_J, ode_tr);
}

/* ode_Jv = J ode_v over the non-zero entries of J. */
ODE_HD static ODE_INLINE void ode_model_jac_mul(const ode_real *ode_J, const ode_real *ode_v, ode_real *ode_Jv)
{
    ode_Jv[0] = ode_J[1] * ode_v[1];
    ode_Jv[1] = ode_J[2] * ode_v[0] + ode_J[3] * ode_v[1];
}

/* df/dt at (t, ode_y).  ode_tr filled by ode_model_trig_full (sin and cos). */
ODE_HD static ODE_INLINE void ode_model_dfdt(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                             ode_real *ode_ft, const OdeTrig *ode_tr)
{
    (void)t;
    (void)ode_y;
    const ode_real B = ode_s->p[1];
    ode_ft[0] = 0.0;
    ode_ft[1] = -(B * ode_tr->s[0]);        /* d(y2')/dt */
}

#define ODE_DFDP_NNZ 2               /* non-zero entries of df/dp, of 4 */
/* df/dp at (t, ode_y), row-major: ode_fp[i * ODE_NPARAM + k].  ode_tr as for ode_model_dfdt. */
ODE_HD static ODE_INLINE void ode_model_dfdp(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                             ode_real *ode_fp, const OdeTrig *ode_tr)
{
    (void)ode_s;
    (void)t;
    ODE_UNROLL for (int ode_i = 0; ode_i < ODE_NSTATE * ODE_NPARAM; ode_i++) ode_fp[ode_i] = 0.0;
    const ode_real y2 = ode_y[1];
    ode_fp[2] = -y2;                        /* d(y2')/d(k) */
    ode_fp[3] = ode_tr->c[0];               /* d(y2')/d(B) */
}

#define ODE_NSWITCH 0                /* switching functions of f's piecewise constructs */
ODE_HD static ODE_INLINE void ode_model_switches(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                 ode_real *ode_sw)
{
    (void)ode_s;
    (void)t;
    (void)ode_y;
    (void)ode_sw;
}

#define ODE_HAS_EVENT_GRAD 1
/* Gradient of event ode_e's function at (t, ode_y): ode_gy[j] = dg/dy_j, *ode_gt = dg/dt. */
ODE_HD static ODE_INLINE void ode_model_event_grad(const OdeSystem *ode_s, int ode_e, ode_real t,
                                                   const ode_real *ode_y, ode_real *ode_gy, ode_real *ode_gt)
{
    (void)ode_s;
    (void)t;
    (void)ode_y;
    ODE_UNROLL for (int ode_i = 0; ode_i < ODE_NSTATE; ode_i++) ode_gy[ode_i] = 0.0;
    *ode_gt = 0.0;
    switch (ode_e) {
    case 0: ode_gy[1] = 1.0; break;         /* event peak: d(g)/d(y2) */
    default: break;
    }
}

/* Event ode_e's function holds no piecewise construct (abs, max, heav, if, a table, ...):
 * the slopes at a step's ends bound it over the step (events.h). */
ODE_HD static ODE_INLINE int ode_event_smooth(int ode_e)
{
    switch (ode_e) {
    case 0: return 1;   /* peak */
    default: return 0;
    }
}

#define ODE_HAS_RESET_JAC 1
#define ODE_ON_START_RESETS 0        /* on start assigns states */
#define ODE_ON_END_RESETS 0          /* on end assigns states */
/* Whether event e's statements assign states (else its saltation matrix is the identity). */
ODE_HD static ODE_INLINE int ode_event_resets(int ode_e) { (void)ode_e; return 0; }

/* on start / on end: ode_R = d(y+)/d(y) of what the block does to the states (none: the identity). */
ODE_HD static ODE_INLINE void ode_model_on_start_jac(const OdeSystem *ode_s, ode_real *ode_R)
{
    (void)ode_s;
    ODE_UNROLL for (int ode_i = 0; ode_i < ODE_NSTATE * ODE_NSTATE; ode_i++) ode_R[ode_i] = 0.0;
    ode_R[0] = 1.0;
    ode_R[3] = 1.0;
}

ODE_HD static ODE_INLINE void ode_model_on_end_jac(const OdeSystem *ode_s, ode_real *ode_R)
{
    ode_model_on_start_jac(ode_s, ode_R);
}

/* Event ode_e's statements: ode_R = d(y+)/d(y), ode_Rt = d(y+)/dt, before ode_model_on_event. */
ODE_HD static ODE_INLINE void ode_model_on_event_jac(const OdeSystem *ode_s, int ode_e, ode_real *ode_R,
                                                     ode_real *ode_Rt)
{
    (void)ode_e;
    ode_model_on_start_jac(ode_s, ode_R);
    ODE_UNROLL for (int ode_i = 0; ode_i < ODE_NSTATE; ode_i++) ode_Rt[ode_i] = 0.0;
}

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

/* The .ode text, for the runner's HDF5 attributes. */
static const char ode_model_source[] =
    "par k=0.25, B=0.3\n"
    "y1'=y2\n"
    "y2'=y1-y1^3-k*y2+B*cos(t)\n"
    "acc ymax=y1\n"
    "on step { if (y1 > ymax) { ymax = y1 } }\n"
    "event peak: y2, dir=-1, tol=1e-6\n"
    "@ meth=rk4, dt=0.01, total=6.283185307179586\n"
    "scan k = lin(0.2, 0.3, 30720)\n"
    "repeat transient=1024, record=32\n";
/* Initial values that are expressions of parameters (`init y1=k`): none here. */
#define ODE_NINIT_EXPR 0
static const unsigned char ode_state_init_expr[] = {0, 0};
ODE_HD static ODE_INLINE void ode_model_initial(OdeSystem *ode_s) { (void)ode_s; }

/* Parameter sets (`set NAME {…}`), for the runner's --set-name. */
typedef struct OdeSetItem {
    int target_kind;        /* ODE_TARGET_PARAM, _STATE or _OPTION */
    int target;             /* its index */
    double value;
} OdeSetItem;
typedef struct OdeParamSet {
    const char *name;
    int n;
    const OdeSetItem *items;
} OdeParamSet;
static const OdeSetItem ode_set_items_0[] = {{ODE_TARGET_PARAM, 0, 0.22}, {ODE_TARGET_STATE, 0, 1.0}};
static const OdeParamSet ode_sets[] = {{"soft", 2, ode_set_items_0}};
#define ODE_NSET 1

#endif /* ODE_EXAMPLE_MODEL_H */
