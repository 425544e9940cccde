/* example_team_model.h — a model section in LOOP FORM written by hand in
 * exactly the shape odegen's emitter produces for a model whose arrays stay
 * arrays (ODE_LOOP_FORM 1), so that the team integrator (team_*.h) compiles
 * and is tested on its own.  templates/example_model.h is the same for a
 * model written out (one system per thread, every array element a scalar).
 *
 * The model: a ring of 8 forced Duffing oscillators coupled to their
 * neighbours through a saturating function u, and to their mean field X;
 * a scalar state E relaxes to the mean kinetic energy; one event per unit
 * (its maxima), one event of the system, two accessories:
 *
 *     par B=0.3, w=1, c=0.1, g=0.05
 *     par k[1..8]=0.25                                    (a parameter per unit)
 *     u[j] = x[j]/(1+x[j]^2)                              (an array temporary)
 *     X = sum(1,8)of(x[i'])/8                             (a mean field)
 *     x[j]' = v[j]
 *     v[j]' = x[j]-x[j]^3-k[j]*v[j]+B*cos(w*t)+c*(u[j-1]-2*u[j]+u[j+1])+g*(X-x[j])   (a ring: j±1 mod 8)
 *     E' = sum(1,8)of(v[i']^2)/8 - E
 *     event peak[j]: v[j], dir=-1                          (8 events, one per unit)
 *     event hot: E-1, dir=1
 *     acc npeak=0, xmax=x[1]
 *     on step { if (x[1] > xmax) { xmax = x[1] } }
 *     on peak { npeak = npeak + 1 }
 *     x[1](0)=1  (the other states start at 0)
 *     @ meth=rkck45, toler=1e-8, atoler=1e-8, total=20
 *
 * THE SHAPE (what the emitter writes for a model in loop form):
 *  - constants as for a model written out, plus ODE_LOOP_FORM 1, ODE_NSCRATCH
 *    (reals of array temporaries), ODE_LAYOUT and ODE_TEAM_SIZE (the default
 *    layout, each under #ifndef so that -D overrides it), ODE_HAS_EVENT_JVP;
 *  - the templates prelude.h, options.h, system.h, team.h, lu_storage.h,
 *    team_system.h;
 *  - the functions that ONE lane runs, exactly as for a model written out,
 *    over OdeSystem (whose y, p, d, acc, count point into the team's
 *    memory): tolerances, event properties, derived parameters, sin/cos of
 *    time, accessories' initial values, hooks, event statements, fields
 *    (arrays in them are plain loops: one lane runs them);
 *  - the functions the TEAM runs, in loop form (team.h's rules):
 *      ode_model_rhs_team        the right-hand side
 *      ode_model_events_team     the event functions
 *      ode_model_events_jvp_team the event functions' derivatives along a
 *                                direction (for the bound that spares a step
 *                                the event scan; ODE_HAS_EVENT_JVP 0: none)
 *      ode_model_jac_team        the stiff methods' Jacobian, entry by entry
 *      ode_model_dfdt_team       df/dt (stiff methods, a model with t in f)
 *    Array equations are ODE_TEAM_FOR loops over the index; scalar
 *    equations are computed by one lane each, ODE_TEAM_MINE(k) with k the
 *    index of what they write (state k, event k), round robin — the
 *    events an array line wrote out, whose texts differ only in indices
 *    that move by a fixed step, as one ODE_TEAM_FOR loop over them
 *    (generator/emit/emit_runs.c; their derivatives likewise); scalar
 *    temporaries and values that loops read are computed by every lane (no
 *    barrier needed); array temporaries go to ode_scratch[offset + j],
 *    followed by ODE_TEAM_SYNC() before their first reader; sums are each
 *    lane's partial (from -0.0, increasing index) then ode_team_sum();
 *    periodic and shifted indices are computed in the loop.
 *  - the Jacobian: ODE_JAC_NNZ entries that can be non-zero, numbered in
 *    the order of the generator's list (deriv/jacobian.h, Jacobian.J[e]);
 *    each is written once as ODE_JAC_SET(ode_J, e, row, col, value): the
 *    LU's storage (team_lu.h: dense, banded, sparse; generator/emit/emit_lu.c)
 *    defines where entry e goes.  Entries not written are zero.
 *
 * The same model WRITTEN OUT (one system per thread, OdeSystem in registers:
 * templates/example_model.h's shape) is this file with ODE_LOOP_FORM 0 defined
 * before it, plus the written-out right-hand side, events and derivatives
 * (tests/team/example_team_written.h): the constants, the functions one lane
 * runs and the host metadata are then the same text in both forms, and only
 * the parts under `#if ODE_LOOP_FORM` are loop form's own.  (The emitter
 * writes one form, without these #if lines.)
 *
 * In a generated file, ODEGEN_GENERATED is defined and this file is absent.
 */
#ifndef ODE_EXAMPLE_TEAM_MODEL_H
#define ODE_EXAMPLE_TEAM_MODEL_H

/* ---------------------------------------------------------------- constants */
#define ODE_MODEL_NAME "example_team"
#define ODE_FLOAT 0
#define ODE_NSTATE 17                /* x[1..8] v[1..8] E */
#define ODE_NPARAM 12                /* B w c g k[1..8] */
#define ODE_NDERIVED 0
#define ODE_NAUX 0
#define ODE_NACC 2
#define ODE_NEVENT 9                 /* peak[1..8] hot */
#define ODE_EVENTS_GLOBAL 0x0ULL      /* XPPAUT `global`s (firing.h): none */
#define ODE_EVENTS_EXACT 0x0ULL       /* `global 0`s: none */
#define ODE_NFIELD 34                /* states, accessories, parameters, t, t0, t1 */
#define ODE_NTRIG 1                  /* cos(w*t) in the right-hand side */
#ifndef ODE_METHOD
#define ODE_METHOD 4                 /* rkck45 (tableaux.h: ODE_METH_RKCK45) */
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
#define ODE_OPTIONS_TEXT "meth=rkck45, dt=0.01, t0=0, total=20, toler=1e-08, atoler=1e-08, dtmin=1e-12, " \
                         "dtmax=1000000, hgrow=5, hshrink=0.1, evsteps=50, maxsteps=100000000, bound=1e+100, prec=double"
/* loop form */
#ifndef ODE_LOOP_FORM
#define ODE_LOOP_FORM 1              /* the arrays stay arrays: a team integrates a system */
#endif
#if ODE_LOOP_FORM
#define ODE_NSCRATCH 8               /* array temporaries: u[1..8] at 0 */
#ifndef ODE_LAYOUT
#define ODE_LAYOUT 1                 /* warp (team.h: ODE_LAYOUT_WARP), the rule's choice for 17 states */
#endif
#ifndef ODE_TEAM_SIZE
#define ODE_TEAM_SIZE 8              /* lanes per team */
#endif
#define ODE_HAS_EVENT_JVP 1
#endif

#include "prelude.h"
#include "options.h"
#include "system.h"
#if ODE_LOOP_FORM
#include "team.h"
#include "lu_storage.h"
#include "team_system.h"
#endif

/* ---------------------------------------------------------------- functions one lane runs */
ODE_HD static ODE_INLINE ode_real ode_rtol(const OdeOptions *ode_opt, int i) { (void)ode_opt; (void)i; return ODE_OPT_TOLER; }
ODE_HD static ODE_INLINE ode_real ode_atol(const OdeOptions *ode_opt, int i) { (void)ode_opt; (void)i; return ODE_OPT_ATOLER; }
/* Event properties: peak[1..8] are events 0 … 7, hot is 8. */
ODE_HD static ODE_INLINE int ode_event_dir(int e) { return e < 8 ? -1 : 1; }
ODE_HD static ODE_INLINE ode_real ode_event_tol(int e) { (void)e; return ODE_R(1e-6); }
ODE_HD static ODE_INLINE int ode_event_stop(int e) { (void)e; return 0; }
ODE_HD static ODE_INLINE int ode_event_halt(int e) { (void)e; return -1; }   /* arret=EXPR's accessory, or -1 */
ODE_HD static ODE_INLINE int ode_event_smooth(int e) { (void)e; return 1; }

ODE_HD static ODE_INLINE void ode_model_derived(OdeSystem *ode_s) { (void)ode_s; }

/* sin/cos of time: cos(w*t). */
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

ODE_HD static ODE_INLINE void ode_model_acc_init(OdeSystem *ode_s)
{
    const ode_real x1 = ode_s->y[0];
    ode_s->acc[0] = 0.0;   /* npeak */
    ode_s->acc[1] = x1;    /* xmax */
}

ODE_HD static ODE_INLINE void ode_model_on_start(OdeSystem *ode_s) { (void)ode_s; }

ODE_HD static ODE_INLINE void ode_model_on_step(OdeSystem *ode_s)
{
    const ode_real x1 = ode_s->y[0];
    ode_real xmax = ode_s->acc[1];
    if (x1 > xmax) {
        xmax = x1;
    }
    ode_s->acc[1] = xmax;
}

/* After a detection of event ode_e: its statements, then its `on` blocks. */
ODE_HD static ODE_INLINE void ode_model_on_event(OdeSystem *ode_s, int ode_e)
{
    if (ode_e < 8) {   /* peak[1..8] */
        ode_real npeak = ode_s->acc[0];
        npeak = npeak + 1.0;
        ode_s->acc[0] = npeak;
    }
}

ODE_HD static ODE_INLINE void ode_model_on_end(OdeSystem *ode_s) { (void)ode_s; }

/* A recordable value by its code: states 0-16, accessories 17-18, parameters 19-30, t, t0, t1. */
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

/* ---------------------------------------------------------------- functions the team runs (loop form) */
#if ODE_LOOP_FORM

/* The right-hand side at (t, ode_y): every lane of ode_team computes its share. */
ODE_HD static ODE_INLINE void ode_model_rhs_team(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                 ode_real *ode_dy, const OdeTrig *ode_tr, ode_real *ode_scratch,
                                                 OdeTeam ode_team)
{
    (void)t;
    const ode_real B = ode_s->p[0];
    const ode_real c = ode_s->p[2];
    const ode_real g = ode_s->p[3];
    const ode_real *const k = ode_s->p + 4;        /* k[1..8] */
    const ode_real *const x = ode_y + 0;           /* x[1..8] */
    const ode_real *const v = ode_y + 8;           /* v[1..8] */
    const ode_real E = ode_y[16];
    ode_real *const u = ode_scratch + 0;           /* u[1..8] */
    /* u[j] = x[j]/(1+x[j]^2)  (example_team.ode:3) */
    ODE_TEAM_FOR(j, 8) u[j] = x[j] / (1.0 + x[j] * x[j]);
    /* X = sum(1,8)of(x[i'])/8  (example_team.ode:4): a reduction is a barrier, so u is complete after it */
    ode_real ode_sum0 = -0.0;
    ODE_TEAM_FOR(j, 8) ode_sum0 += x[j];
    const ode_real X = ode_team_sum(ode_team, ode_sum0) / 8.0;
    /* E' = sum(1,8)of(v[i']^2)/8 - E  (example_team.ode:7) */
    ode_real ode_sum1 = -0.0;
    ODE_TEAM_FOR(j, 8) ode_sum1 += v[j] * v[j];
    const ode_real ode_sum1_total = ode_team_sum(ode_team, ode_sum1);
    /* x[j]' = v[j]  (example_team.ode:5) */
    ODE_TEAM_FOR(j, 8) ode_dy[0 + j] = v[j];
    /* v[j]' = …  (example_team.ode:6), a ring */
    ODE_TEAM_FOR(j, 8) {
        const int jm = j == 0 ? 7 : j - 1, jp = j == 7 ? 0 : j + 1;
        ode_dy[8 + j] = x[j] - x[j] * x[j] * x[j] - k[j] * v[j] + B * ode_tr->c[0] + c * (u[jm] - 2.0 * u[j] + u[jp])
                      + g * (X - x[j]);
    }
    if (ODE_TEAM_MINE(16)) ode_dy[16] = ode_sum1_total / 8.0 - E;
}

/* Event functions at (t, ode_y): peak[j] is event j, hot is event 8. */
ODE_HD static ODE_INLINE void ode_model_events_team(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                    ode_real *ode_g, ode_real *ode_scratch, OdeTeam ode_team)
{
    (void)ode_s;
    (void)t;
    (void)ode_scratch;
    const ode_real *const v = ode_y + 8;
    ODE_TEAM_FOR(j, 8) ode_g[0 + j] = v[j];
    if (ODE_TEAM_MINE(8)) ode_g[8] = ode_y[16] - 1.0;
}

/* Along a direction (ode_v in the states, ode_vt in t): ode_gv[e] = ∇g_e · ode_v + ∂g_e/∂t · ode_vt. */
ODE_HD static ODE_INLINE void ode_model_events_jvp_team(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                        const ode_real *ode_v, ode_real ode_vt, ode_real *ode_gv,
                                                        ode_real *ode_scratch, OdeTeam ode_team)
{
    (void)ode_s;
    (void)t;
    (void)ode_y;
    (void)ode_vt;
    (void)ode_scratch;
    ODE_TEAM_FOR(j, 8) ode_gv[0 + j] = ode_v[8 + j];
    if (ODE_TEAM_MINE(8)) ode_gv[8] = ode_v[16];
}

#endif /* ODE_LOOP_FORM */

/* ---- derivatives ---- */
#define ODE_HAS_JACOBIAN 1
#define ODE_AUTONOMOUS 0
/* Entries of df/dy that can be non-zero (the mean field makes the v rows full):
 *   e = j            x[j]' by v[j]             (8)
 *   e = 8 + 8 j + m  v[j]' by x[m]             (64)
 *   e = 72 + j       v[j]' by v[j]             (8)
 *   e = 80 + m       E' by v[m]                (8)
 *   e = 88           E' by E                   (1) */
#define ODE_JAC_NNZ 89
#if ODE_LOOP_FORM
ODE_HD static ODE_INLINE void ode_model_jac_team(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                 ode_real *ode_J, const OdeTrig *ode_tr, ode_real *ode_scratch,
                                                 OdeTeam ode_team)
{
    (void)t;
    (void)ode_tr;
    (void)ode_scratch;
    const ode_real c = ode_s->p[2];
    const ode_real g = ode_s->p[3];
    const ode_real *const k = ode_s->p + 4;
    const ode_real *const x = ode_y + 0;
    const ode_real *const v = ode_y + 8;
    ODE_TEAM_FOR(j, 8) ODE_JAC_SET(ode_J, j, j, 8 + j, 1.0);
    ODE_TEAM_FOR(q, 64) {
        const int j = q / 8, m = q % 8;
        const int jm = j == 0 ? 7 : j - 1, jp = j == 7 ? 0 : j + 1;
        const ode_real r = 1.0 + x[m] * x[m];
        const ode_real du = (1.0 - x[m] * x[m]) / (r * r);    /* u'(x[m]) */
        ode_real d = g / 8.0;
        if (m == j) d += 1.0 - 3.0 * (x[m] * x[m]) - 2.0 * c * du - g;
        if (m == jm) d += c * du;
        if (m == jp) d += c * du;
        ODE_JAC_SET(ode_J, 8 + q, 8 + j, m, d);
    }
    ODE_TEAM_FOR(j, 8) ODE_JAC_SET(ode_J, 72 + j, 8 + j, 8 + j, -k[j]);
    ODE_TEAM_FOR(m, 8) ODE_JAC_SET(ode_J, 80 + m, 16, 8 + m, 2.0 * v[m] / 8.0);
    if (ODE_TEAM_MINE(16)) ODE_JAC_SET(ode_J, 88, 16, 16, -1.0);
}

/* df/dt at (t, ode_y); ode_tr holds sin and cos (ode_model_trig_full). */
ODE_HD static ODE_INLINE void ode_model_dfdt_team(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                  ode_real *ode_ft, const OdeTrig *ode_tr, ode_real *ode_scratch,
                                                  OdeTeam ode_team)
{
    (void)t;
    (void)ode_y;
    (void)ode_scratch;
    const ode_real B = ode_s->p[0];
    const ode_real w = ode_s->p[1];
    ODE_TEAM_FOR(j, 8) ode_ft[0 + j] = 0.0;
    ODE_TEAM_FOR(j, 8) ode_ft[8 + j] = -(B * (w * ode_tr->s[0]));
    if (ODE_TEAM_MINE(16)) ode_ft[16] = 0.0;
}
#endif /* ODE_LOOP_FORM */

/* ---------------------------------------------------------------- host metadata */
static const char *const ode_state_names[] = {"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "v1",
                                              "v2", "v3", "v4", "v5", "v6", "v7", "v8", "e"};
static const double ode_state_default[] = {1.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static const char *const ode_param_names[] = {"b", "w", "c", "g", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"};
static const double ode_param_default[] = {0.3, 1.0, 0.1, 0.05, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25};
static const char *const ode_derived_names[ODE_ALLOC(ODE_NDERIVED)] = {0};
static const char *const ode_aux_names[ODE_ALLOC(ODE_NAUX)] = {0};
static const char *const ode_acc_names[] = {"npeak", "xmax"};
static const char *const ode_event_names[] = {"peak1", "peak2", "peak3", "peak4", "peak5",
                                              "peak6", "peak7", "peak8", "hot"};
static const char *const ode_field_names[ODE_NFIELD] = {
    "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "e",
    "npeak", "xmax", "b", "w", "c", "g", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "t", "t0", "t1"};
static const int ode_default_fields[] = {0, 17, 18};
#define ODE_NDEFAULT_FIELDS 3
static const OdeScanSpec ode_default_scans[] = {
    {ODE_TARGET_PARAM, 2, ODE_SCAN_LIN, 0.0, 0.2, 64, 0},
};
#define ODE_NSCAN 1
static const long ode_save_systems[1] = {0};
static const char ode_model_source[] = "(example_team.ode: see the comment at the top of example_team_model.h)\n";
#define ODE_NINIT_EXPR 0
static const unsigned char ode_state_init_expr[ODE_NSTATE] = {0};
ODE_HD static ODE_INLINE void ode_model_initial(OdeSystem *ode_s) { (void)ode_s; }
typedef struct OdeSetItem {
    int target_kind;
    int target;
    double value;
} OdeSetItem;
typedef struct OdeParamSet {
    const char *name;
    int n;
    const OdeSetItem *items;
} OdeParamSet;
static const OdeParamSet ode_sets[1] = {{0, 0, 0}};
#define ODE_NSET 0

#endif /* ODE_EXAMPLE_TEAM_MODEL_H */
