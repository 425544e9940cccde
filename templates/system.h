/* system.h — one system's working set, the statuses, and the arrays that hold
 * many systems.
 *
 * A system lives in registers (OdeSystem, a local variable of the thread) for
 * its whole integration; memory holds systems as structure of arrays,
 * value[i * n + system], so that neighbouring threads touch neighbouring
 * addresses.  The model's sizes (ODE_NSTATE, …) come from the generated model
 * constants that precede this file (example_model.h shows their shape).
 */
#ifndef ODE_SYSTEM_H
#define ODE_SYSTEM_H

/* How a system's integration ended: X(NAME, name, sticky), in code order.
 * The one list of the statuses: the enum below, the names of the runner's
 * `status` column, of the HDF5 enum and of Python (the library's
 * model_status_name), and the C API's MODEL_STATUS_* (api.h, which
 * library.c checks against this list) all follow it.  A sticky status ends
 * the system's scan: its later integrations are skipped and their rows carry
 * the status (bound, nan, singular, unstable leave no state to go on from;
 * maxsteps would spend maxsteps steps again on every later integration;
 * zeno would go on through the event's surface undetected).  A
 * new status goes at the end. */
#define ODE_STATUSES(X)                                                                                \
    X(READY, "ready", 0)             /* loaded, not integrated yet: accessories start at `acc` */    \
    X(FINISHED, "finished", 0)       /* reached t1 */                                                 \
    X(EVENT, "event", 0)             /* an event's `stop` count was reached */                        \
    X(EQUILIBRIUM, "equilibrium", 0) /* `evsteps` accepted steps inside one event zone */             \
    X(MAXSTEPS, "maxsteps", 1)       /* `maxsteps` steps in one integration */                        \
    X(BOUND, "bound", 1)             /* a state beyond ±bound */                                      \
    X(NAN, "nan", 1)                 /* NaN or Inf that no smaller step avoids */                     \
    X(SINGULAR, "singular", 1)       /* a stiff method's W = I/(hγ) - J singular or not finite at the \
                                        smallest step (a Jacobian entry infinite or NaN) */           \
    X(ZENO, "zeno", 1)               /* events accumulate: a crossing hidden inside an event's zone  \
                                        right after a detection (events.h) */                        \
    X(EMPTY, "empty", 0)             /* the window had no length: t1 <= t0 when the integration      \
                                        began (after `on start`); nothing was integrated */          \
    X(UNSTABLE, "unstable", 1)       /* a fixed-step method left its stability region (integrate.h) */ \
    X(HISTORY, "history", 1)         /* a delay read a past the system does not hold (delay.h) */   \
    X(DAE_FAILED, "dae_failed", 1)   /* the algebraic constraints could not be solved (dae.h) */

#define ODE_STATUS_ENUM(N, name, sticky) ODE_STATUS_##N,
enum {
    ODE_STATUSES(ODE_STATUS_ENUM)
    ODE_NSTATUS,
    ODE_STATUS_RUNNING = ODE_NSTATUS   /* inside an integration (never seen outside) */
};
#undef ODE_STATUS_ENUM

/* Failures that end a system's scan (the list's sticky ones). */
#define ODE_STATUS_STICKY_BIT(N, name, sticky) | ((sticky) ? 1u << ODE_STATUS_##N : 0u)
#define ODE_STATUS_IS_STICKY(s) (((0u ODE_STATUSES(ODE_STATUS_STICKY_BIT)) >> (s)) & 1u)

/* Zero-length arrays are not C: every array has at least one element. */
#define ODE_ALLOC(n) ((n) > 0 ? (n) : 1)

/* `lyapunov N` and `period` (tangent.h, period.h); 0 when the model has none. */
#ifndef ODE_NLYAP
#define ODE_NLYAP 0
#endif
#ifndef ODE_PERIOD
#define ODE_PERIOD 0
#endif
#ifndef ODE_PERIOD_FIELD
#define ODE_PERIOD_FIELD ODE_PERIOD
#endif
/* `attractor` (attractor.h): each system's fingerprint; 0 when the model has none. */
#ifndef ODE_ATTRACTOR
#define ODE_ATTRACTOR 0
#endif

/* 1 where a block assigns a parameter (XPPAUT's `global … {vk=-50}`): the
 * parameters then change during an integration and go back to memory with
 * the state (driver.h ode_store). */
#ifndef ODE_PARAMS_ASSIGNED
#define ODE_PARAMS_ASSIGNED 0
#endif

/* delay(x, tau) (delay.h): the states whose past the right-hand side reads; 0
 * for a model without delays. */
#ifndef ODE_NDELAY
#define ODE_NDELAY 0
#endif
#if ODE_NDELAY == 0
#define ODE_HIST_BYTES(dt) 0.0   /* (the bytes of a system's ring: delay.h) */
#else
typedef struct OdeHist OdeHist;
struct OdeSystem;
/* x(t - tau) for delayed state k (delay.h), read at call site `site`; `now`
 * is x(t) (what tau <= 0 reads, as XPPAUT's delay). */
ODE_HD static ODE_INLINE ode_real ode_delay(const struct OdeSystem *s, int k, int site, ode_real t, ode_real tau,
                                            ode_real now);
/* Its slope x'(t - tau) (a stiff method's derivatives of delay(x, tau)). */
ODE_HD static ODE_INLINE ode_real ode_delay_slope(const struct OdeSystem *s, int k, int site, ode_real t, ode_real tau);
#endif

/* XPPAUT's algebraic constraints (dae.h): the last ODE_NALG states are the
 * unknowns, solved by Newton (ODE_DAE_NEWTON: an explicit method, at each
 * evaluation of the right-hand side) or integrated with a singular mass
 * matrix (a stiff method); 0 for an ODE. */
#ifndef ODE_NALG
#define ODE_NALG 0
#endif
#define ODE_NDIFF (ODE_NSTATE - ODE_NALG)   /* the differential states, first */
#ifndef ODE_DAE_NEWTON
#define ODE_DAE_NEWTON 0
#endif
/* The status of a trial that failed (NaN): dae_failed where Newton failed on
 * a finite state (OdeSystem.dae_fail), else the method's own. */
#if ODE_NALG > 0
#define ODE_DAE_FAILURE(s, status) ((s)->dae_fail ? ODE_STATUS_DAE_FAILED : (status))
#else
#define ODE_DAE_FAILURE(s, status) (status)
#endif

/* Noise (rng.h, noise.h, sde.h): the model's Wiener processes, the ran()
 * and normal() of its right-hand side (drawn once per step), its markov
 * chains; 0 for a deterministic model. */
#ifndef ODE_NOISE
#define ODE_NOISE 0
#endif
#ifndef ODE_NWIENER
#define ODE_NWIENER 0
#endif
#ifndef ODE_NSITE
#define ODE_NSITE 0
#endif
#ifndef ODE_NMARKOV
#define ODE_NMARKOV 0
#endif

/* A model in loop form (templates/example_team_model.h) is integrated by a
 * team of threads: its OdeSystem is a view of memory the team shares
 * (team_system.h), not registers. */
#ifndef ODE_LOOP_FORM
#define ODE_LOOP_FORM 0
#endif

#if !ODE_LOOP_FORM
typedef struct OdeSystem {
    ode_real t, t0, t1;                     /* time and this integration's window */
    ode_real y[ODE_ALLOC(ODE_NSTATE)];      /* states */
    ode_real p[ODE_ALLOC(ODE_NPARAM)];      /* parameters (blocks may assign them: ODE_PARAMS_ASSIGNED) */
    ode_real d[ODE_ALLOC(ODE_NDERIVED)];    /* derived parameters, computed once per launch */
    ode_real acc[ODE_ALLOC(ODE_NACC)];      /* accessories */
    int count[ODE_ALLOC(ODE_NEVENT)];       /* detections of each event in this integration */
    int status;
    unsigned long long steps;               /* accepted steps, all integrations */
    unsigned long long evals;               /* right-hand-side evaluations, all integrations */
#if ODE_NLYAP > 0
    /* Tangent vectors and what they measured, over one launch (tangent.h). */
    ode_real lv[ODE_NLYAP][ODE_ALLOC(ODE_NSTATE)];   /* the N tangent vectors, orthonormal after each QR */
    double lsum[ODE_NLYAP];                 /* Σ ln r_KK over the recorded integrations, and the */
    double ltime;                           /* time they spanned: double in float too (below) */
    ode_real lqr;                           /* the time of the last re-orthonormalisation */
    int lcount;                             /* 1: this integration is recorded (its stretching counts) */
    unsigned int llost;                     /* bit K: vector K+1 lost its independence (lyapK+1 is NaN) */
    ode_real lspread, lgrow;                /* since the last QR: bounds of ln cond and ln |v| (tangent.h) */
    double ltr;                             /* N = n: ∫ trace J dt and ln |det| of the resets, as lsum */
#endif
#if ODE_NDELAY > 0
    OdeHist *hist;                          /* its past (delay.h); NULL outside an integration's kernel */
#endif
#if ODE_NALG > 0
    int dae_fail;                           /* the last Newton solve of the constraints on a finite state
                                               failed (dae.h; the right-hand side writes it) */
    int dae_sign;                           /* the sign of det g_z at the consistent values (dae.h) */
#endif
#if ODE_PERIOD
    /* The period of the recorded sequence (period.h). */
    unsigned long long pmask;               /* bit p-1: p is still a period */
    int period;                             /* the smallest p of pmask that has been compared (0: none) */
#endif
#if ODE_NOISE
    /* What its random numbers are keyed by (rng.h, noise.h), and what the
     * right-hand side reads of this step's noise. */
    unsigned long long rng_seed;            /* the run's seed */
    unsigned long long rng_system;          /* its index in the scan (or the library's choice) */
    unsigned int rng_rep;                   /* its integration since it was loaded (0xFFFFFFFF: none yet) */
    unsigned int rng_step;                  /* the step of that integration being taken */
    ode_real w[ODE_ALLOC(ODE_NWIENER)];     /* the Wiener processes: ΔW/h over the trial being taken */
#if ODE_NEVENT > 0
    ode_real wstep[ODE_ALLOC(ODE_NWIENER)]; /* … over the whole step (an event's trials shorten it) */
#endif
    ode_real hw;                            /* the step h they were drawn for */
    ode_real xi[ODE_ALLOC(ODE_NSITE)];      /* this step's ran() (a uniform), normal() (a standard normal) */
#endif
} OdeSystem;

/* The recordable fields lyapK (K = 1 … N) and period: NaN where nothing
 * was measured (no recorded integration yet, or the vector was lost).  The
 * sums are kept in double in a float model too: a float sum of 10^6 terms
 * ln r (a map orthonormalised after every iterate) is biased by its
 * rounding (the Hénon map's lyap1 + lyap2 was off ln 0.3 by 3.5e-4). */
#if ODE_NLYAP > 0
ODE_HD static ODE_INLINE ode_real ode_lyap_value(const OdeSystem *s, int k)
{
    if ((s->llost >> k) & 1u || !(s->ltime > 0.0)) return (ode_real)NAN;
    return (ode_real)(s->lsum[k] / s->ltime);
}

/* With N = n (ODE_LYAP_FULL), the field lyap_trace_err: the sum of the
 * exponents less the time average of the trace of the Jacobian along the
 * orbit (with the resets' ln |det|), which it equals for the exact flow
 * (Liouville): the error of the tangent integration where it matters most,
 * the smallest exponents (tangent.h).  NaN where an exponent is. */
#define ODE_LYAP_FULL (ODE_NLYAP == ODE_NSTATE)
ODE_HD static ODE_INLINE ode_real ode_lyap_trace_err(const OdeSystem *s)
{
    if (s->llost || !(s->ltime > 0.0)) return (ode_real)NAN;
    double sum = -s->ltr;
    for (int k = 0; k < ODE_NLYAP; k++) sum += s->lsum[k];
    return (ode_real)(sum / s->ltime);
}

/* Whether that error is beyond 10^-3 of the spectrum's size, Σ |lyapK|, plus
 * 1/T (the resolution of exponents measured over the time T): the warning
 * of the runner and of Python (README.md, "lyapunov"). */
ODE_HD static ODE_INLINE int ode_lyap_trace_off(const OdeSystem *s)
{
    const ode_real err = ode_lyap_trace_err(s);
    if (!(err == err)) return 0;
    double size = 1.0 / s->ltime;
    for (int k = 0; k < ODE_NLYAP; k++) size += fabs(s->lsum[k] / s->ltime);
    return fabs((double)err) > 1e-3 * size;
}
#endif
#if ODE_PERIOD
ODE_HD static ODE_INLINE ode_real ode_period_value(const OdeSystem *s) { return (ode_real)s->period; }
#endif
#else   /* ODE_LOOP_FORM: the system as the team sees it (team_system.h) */
/* The same member names, so that the functions one lane runs (hooks,
 * accessories, fields) read ode_s->y[k], ode_s->p[k] as written out; the
 * arrays are pointers into the team's workspace (shared or global memory).
 * One per team, written by its leader only. */
#if ODE_NLYAP > 0 || ODE_PERIOD
#error "system.h: lyapunov and period are not computed by a team (a model in loop form)"
#endif
typedef struct OdeSystem {
    ode_real t, t0, t1;                     /* time and this integration's window */
    ode_real *y;                            /* [ODE_NSTATE] states */
    ode_real *p;                            /* [ODE_NPARAM] parameters (per system; a parameter array
                                               per unit is a run of them; read-only in hooks) */
    ode_real *d;                            /* [ODE_NDERIVED] derived parameters, once per launch */
    ode_real *acc;                          /* [ODE_NACC] accessories */
    int *count;                             /* [ODE_NEVENT] detections of each event in this integration */
    int status;
    unsigned long long steps;               /* accepted steps, all integrations */
    unsigned long long evals;               /* right-hand-side evaluations, all integrations */
} OdeSystem;
#endif /* !ODE_LOOP_FORM */

/* sin and cos of the right-hand side's arguments affine in t, at one stage
 * time (see stepper.h: fixed-step methods reach their stages by angle
 * addition). */
#ifndef ODE_NTRIG
#define ODE_NTRIG 0
#endif
typedef struct OdeTrig {
    ode_real s[ODE_ALLOC(ODE_NTRIG)], c[ODE_ALLOC(ODE_NTRIG)];
} OdeTrig;

/* n systems as structure of arrays (on the device or on the host). */
typedef struct OdeArrays {
    int n;                       /* systems held: the stride of every array */
    ode_real *t, *t0, *t1;       /* [n] */
    ode_real *y;                 /* [ODE_NSTATE * n] */
    ode_real *p;                 /* [ODE_NPARAM * n] */
    ode_real *acc;               /* [ODE_NACC * n] */
    int *status;                 /* [n] */
    unsigned long long *steps;   /* [n] */
    unsigned long long *evals;   /* [n] */

    /* Recorded integrations (rec == NULL: nothing recorded).  After recorded
     * integration r, field f of system i is rec[(r * nfield + f) * n + i] and
     * its status rec_status[r * n + i]. */
    ode_real *rec;
    int *rec_status;
    int nfield;
    int fields[ODE_ALLOC(ODE_NFIELD)];   /* field codes, see ode_model_field */

    /* `save` samples (save.h; traj == NULL: none taken).  System i is saved
     * when save_slot[i] >= 0; of saved slot q after recorded integration r,
     * sample j has its time at traj_t[(r * save_cap + j) * nsave + q] and
     * field f at traj[((r * save_cap + j) * nfield + f) * nsave + q];
     * traj_count[r * nsave + q] samples were due (beyond save_cap: dropped). */
    ode_real *traj, *traj_t;
    unsigned int *traj_count;
    int *save_slot;
    int nsave, save_cap;
    ode_real save_every;

    OdeOptions opt;              /* the run-time options (options.h), the same for every system */
    /* `period`'s ring of the last recorded values (period.h; NULL: none):
     * slot k of quantity q of system i at ring[(k * ODE_PERIOD_NQ + q) * n + i]. */
    ode_real *ring;
    int ring_slots;
    /* `attractor`'s fingerprints (attractor.h; NULL: none): row k of system i at fp[k * n + i]. */
    ode_real *fp;

    /* delay(x, tau)'s ring of stored steps (delay.h; NULL without delays):
     * value w of slot k of system i at hist[((size_t)k * ODE_HIST_W + w) * n + i],
     * hist_slots slots, then the system's header. */
    ode_real *hist;
    int hist_slots;
#if ODE_NOISE
    /* The random numbers' key of each system (noise.h): its index, and the
     * integration and step it is at (so that the host computes the aux
     * quantities' draws as the device did). */
    unsigned long long *rng_system;   /* [n] */
    unsigned int *rng_rep;            /* [n] */
    unsigned int *rng_step;           /* [n] */
#endif

    unsigned int *progress;      /* systems completed (host-visible), or NULL */
    unsigned int *queue;         /* next system to take (load balancing), or NULL */
    unsigned long long *lyap_off;   /* systems whose lyap_trace_err is off (ode_lyap_trace_off) at the
                                       launch's end, counted when not NULL */
    void *work;                  /* a team's workspace in device memory, work_teams of them
                                    (team_driver.h), or NULL */
    long work_teams;
} OdeArrays;

/* One `scan` line: a parameter or an initial value over a range or a list.
 * Several lines form their Cartesian product, the last varying fastest. */
enum { ODE_TARGET_PARAM = 0, ODE_TARGET_STATE = 1 };
/* A set's item that is a run-time option (XPPAUT's `set S {total=100}`): its
 * target is the option's place in runtime/options.c's ode_option_words. */
enum { ODE_TARGET_OPTION = 2 };
enum { ODE_SCAN_LIN = 0, ODE_SCAN_LOG = 1, ODE_SCAN_LIST = 2 };
typedef struct OdeScanSpec {
    int target_kind;        /* ODE_TARGET_PARAM or ODE_TARGET_STATE */
    int target;             /* its index */
    int kind;               /* ODE_SCAN_LIN, ODE_SCAN_LOG or ODE_SCAN_LIST */
    double a, b;            /* first and last value (lin, log) */
    long n;                 /* number of values */
    const double *values;   /* ODE_SCAN_LIST: the n values */
} OdeScanSpec;

#define ODE_AT(arr, k, i, n) ((arr)[(size_t)(k) * (size_t)(n) + (size_t)(i)])

/* A system in a function's own storage (on the host, or in one thread):
 * for a model in loop form the arrays OdeSystem points to come with it. */
#if ODE_LOOP_FORM
#define ODE_SYSTEM_LOCAL(s)                                                                         \
    OdeSystem s;                                                                                    \
    ode_real s##_y[ODE_ALLOC(ODE_NSTATE)], s##_p[ODE_ALLOC(ODE_NPARAM)], s##_d[ODE_ALLOC(ODE_NDERIVED)]; \
    ode_real s##_acc[ODE_ALLOC(ODE_NACC)];                                                          \
    int s##_count[ODE_ALLOC(ODE_NEVENT)];                                                           \
    s.y = s##_y;                                                                                    \
    s.p = s##_p;                                                                                    \
    s.d = s##_d;                                                                                    \
    s.acc = s##_acc;                                                                                \
    s.count = s##_count
#else
#define ODE_SYSTEM_LOCAL(s) OdeSystem s
#endif

/* System i of the arrays into s: time, window, states, parameters,
 * accessories, status and counters; no detections yet. */
ODE_HD static ODE_INLINE void ode_system_read(OdeSystem *s, const OdeArrays *a, int i)
{
    const int n = a->n;
    s->t = a->t[i];
    s->t0 = a->t0[i];
    s->t1 = a->t1[i];
    ODE_UNROLL for (int k = 0; k < ODE_NSTATE; k++) s->y[k] = ODE_AT(a->y, k, i, n);
    ODE_UNROLL for (int k = 0; k < ODE_NPARAM; k++) s->p[k] = ODE_AT(a->p, k, i, n);
    ODE_UNROLL for (int k = 0; k < ODE_NACC; k++) s->acc[k] = ODE_AT(a->acc, k, i, n);
    ODE_UNROLL for (int e = 0; e < ODE_NEVENT; e++) s->count[e] = 0;
    s->status = a->status[i];
    s->steps = a->steps[i];
    s->evals = a->evals[i];
}

#endif /* ODE_SYSTEM_H */
