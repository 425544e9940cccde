/* fd_check.c — a generated model's derivatives against central finite
 * differences with Richardson extrapolation.
 *
 * Included after the generated NAME.cu (built by tests/deriv/test_deriv.py
 * with -DGEN_CU='"…/NAME.cu"', gcc, ASan and UBSan):
 *
 *   fd_check SEED NPOINTS [TOL]
 *
 * At NPOINTS random points (states, parameters, accessories, t; seeded), and
 * at points on each side of every switch of f (found along each state and t
 * by bisection on the generated switching functions, ode_model_switches),
 * checks
 *   J = df/dy (ode_model_jac, ode_model_rhs_jac, its sparsity, jac_mul),
 *   df/dt, df/dp (through derived parameters), every event's gradient,
 *   the Jacobian (and d/dt) of every event's statements, of on start, on end
 * against differences of ode_model_rhs, ode_model_events, ode_model_on_event,
 * ode_model_on_start, ode_model_on_end: D(h) = (F(x+h) - F(x-h)) / 2h,
 * with h, h/2, h/4, h/8 through two rounds of Richardson extrapolation (sixth
 * order).
 * An entry passes when |analytic - estimate| <= TOL * max(|estimate|, floor),
 * floor = 1e-6 of the largest entry of its row plus 1e-8 of the function's
 * value (below that, differences are rounding noise).  A stencil that
 * crosses a switch of f, or over which the two Richardson estimates disagree
 * (a jump of an event's or a block's if-statement inside it), is skipped and
 * counted.  Prints one line per check and "RESULT ok" or "RESULT FAIL".
 */
#include GEN_CU
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if ODE_FLOAT
#error "fd_check needs a double-precision model"
#endif

enum { N = ODE_NSTATE, NP = ODE_NPARAM, NE = ODE_NEVENT };
enum { F_RHS, F_EVENTS, F_ON_EVENT, F_ON_START, F_ON_END };
enum { IN_Y, IN_T, IN_P };

static double tol = 1e-7;
enum { LEVELS = 4 };   /* steps h, h/2, h/4, h/8 */
static int failed;

#include "random_point.h"

/* ------------------------------------------------------------------ evaluations */

static void rhs_at(const OdeSystem *s, double t, const double *y, double *out)
{
    OdeTrig tr;
    ode_model_trig_full(s, t, &tr);
    ode_model_rhs(s, t, y, out, &tr);
}

static int nout(int family)
{
    return family == F_EVENTS ? NE : N;
}

/* One family's outputs at the base point with one input moved by delta. */
static void evaluate(int family, int which, const OdeSystem *base, int in, int idx, double delta, double *out)
{
    OdeSystem s = *base;
    if (in == IN_Y) s.y[idx] += delta;
    if (in == IN_T) s.t += delta;
    if (in == IN_P) {
        s.p[idx] += delta;
        ode_model_derived(&s);
    }
    switch (family) {
    case F_RHS: rhs_at(&s, s.t, s.y, out); break;
#if ODE_NEVENT > 0
    case F_EVENTS: ode_model_events(&s, s.t, s.y, out); break;
    case F_ON_EVENT: ode_model_on_event(&s, which); memcpy(out, s.y, sizeof(double) * N); break;
#endif
    case F_ON_START: ode_model_on_start(&s); memcpy(out, s.y, sizeof(double) * N); break;
    case F_ON_END: ode_model_on_end(&s); memcpy(out, s.y, sizeof(double) * N); break;
    default: (void)which; break;
    }
}

static double input_value(const OdeSystem *s, int in, int idx)
{
    return in == IN_Y ? s->y[idx] : in == IN_T ? s->t : s->p[idx];
}

static double step_for(double x) { return 1e-3 * (1.0 + fabs(x)); }

/* Whether f's switches keep their signs over [x - h, x + h] of this input. */
static int smooth_stencil(const OdeSystem *base, int in, int idx, double h)
{
#if ODE_HAS_JACOBIAN && ODE_NSWITCH > 0
    double sw0[ODE_NSWITCH], sw[ODE_NSWITCH];
    ode_model_switches(base, base->t, base->y, sw0);
    for (int side = -1; side <= 1; side += 2) {
        OdeSystem s = *base;
        if (in == IN_Y) s.y[idx] += side * h;
        if (in == IN_T) s.t += side * h;
        if (in == IN_P) {
            s.p[idx] += side * h;
            ode_model_derived(&s);
        }
        ode_model_switches(&s, s.t, s.y, sw);
        for (int k = 0; k < ODE_NSWITCH; k++)
            if ((sw[k] > 0) != (sw0[k] > 0) || (sw[k] < 0) != (sw0[k] < 0)) return 0;
    }
#else
    (void)base, (void)in, (void)idx, (void)h;
#endif
    return 1;
}

typedef struct Check {
    const char *name;
    double max_err;
    int tested, columns, skipped, points;   /* entries, inputs compared, inputs skipped */
    char where[160];
} Check;

static void check_report(const Check *c)
{
    printf("%-16s max_rel_err %.3g  entries %d  columns %d  skipped %d  points %d%s%s\n", c->name, c->max_err,
           c->tested, c->columns, c->skipped, c->points, c->max_err > tol ? "  WORST AT " : "", c->max_err > tol ? c->where : "");
    if (c->max_err > tol) failed = 1;
}

/* The analytic derivatives of one family by one input: A[i] for the outputs i.
 * Compared against the estimate; rowscale[i] is the largest estimate of row i. */
static void compare(Check *c, const double *analytic, const double *est, const double *value, const double *rowscale,
                    int n, const char *what, int pt)
{
    c->columns++;
    for (int i = 0; i < n; i++) {
        double floor_ = 1e-6 * rowscale[i] + 1e-8 * fabs(value[i]) + 1e-300;
        double den = fmax(fmax(fabs(est[i]), fabs(analytic[i])), floor_);
        double err = fabs(analytic[i] - est[i]) / den;
        if (isnan(err)) err = INFINITY;
        if (err > c->max_err) {
            c->max_err = err;
            snprintf(c->where, sizeof c->where, "point %d, output %d by %s: analytic %.17g, finite differences %.17g",
                     pt, i, what, analytic[i], est[i]);
        }
        c->tested++;
    }
}

/* Richardson-extrapolated central differences of a family by every input in
 * the list; est[j][i], ok[j] = the stencil was smooth. */
typedef struct Input {
    int in, idx;
    const char *name;
} Input;

static void differences(int family, int which, const OdeSystem *base, const Input *ins, int nin, double *est, int *ok,
                        int check_switches)
{
    int n = nout(family);
    double hi[N + NE + 1], lo[N + NE + 1], d[LEVELS][N + NE + 1];
    for (int j = 0; j < nin; j++) {
        double h = step_for(input_value(base, ins[j].in, ins[j].idx));
        ok[j] = !check_switches || smooth_stencil(base, ins[j].in, ins[j].idx, h);
        for (int r = 0; r < LEVELS; r++) {
            double hr = h / (double)(1 << r);
            evaluate(family, which, base, ins[j].in, ins[j].idx, hr, hi);
            evaluate(family, which, base, ins[j].in, ins[j].idx, -hr, lo);
            for (int i = 0; i < n; i++) d[r][i] = (hi[i] - lo[i]) / (2 * hr);
        }
        for (int i = 0; i < n; i++) {
            /* Richardson's table: errors h^2 → h^4 → h^6 */
            double r1[LEVELS - 1], r2[LEVELS - 2];
            for (int r = 0; r + 1 < LEVELS; r++) r1[r] = (4 * d[r + 1][i] - d[r][i]) / 3;
            for (int r = 0; r + 2 < LEVELS; r++) r2[r] = (16 * r1[r + 1] - r1[r]) / 15;
            double best = r2[LEVELS - 3], spread = fabs(r2[LEVELS - 3] - r2[LEVELS - 4]);
            est[j * n + i] = best;
            if (!isfinite(best) || spread > 1e-6 * (fabs(best) + 1e-8 * (1 + fabs(hi[i])))) ok[j] = 0;
        }
    }
}

/* Row scales of an estimate matrix est[j * n + i]. */
static void row_scales(const double *est, const int *ok, int nin, int n, double *scale)
{
    for (int i = 0; i < n; i++) {
        scale[i] = 0;
        for (int j = 0; j < nin; j++)
            if (ok[j] && isfinite(est[j * n + i])) scale[i] = fmax(scale[i], fabs(est[j * n + i]));
    }
}

/* ------------------------------------------------------------------ the checks at one point */

static Check c_jac = {"jacobian"}, c_rhsjac = {"rhs_jac"}, c_sparse = {"sparsity"}, c_mul = {"jac_mul"},
             c_dfdt = {"dfdt"}, c_dfdp = {"dfdp"}, c_egrad = {"event_grad"}, c_reset = {"on_event_jac"},
             c_start = {"on_start_jac"}, c_end = {"on_end_jac"};

static void check_rhs(const OdeSystem *s, int pt)
{
#if ODE_HAS_JACOBIAN
    Input ins[N + 1 + NP];
    int nin = 0;
    for (int j = 0; j < N; j++) ins[nin++] = (Input){IN_Y, j, ode_state_names[j]};
    ins[nin++] = (Input){IN_T, 0, "t"};
    for (int k = 0; k < NP; k++) ins[nin++] = (Input){IN_P, k, ode_param_names[k]};
    double est[(N + 1 + NP) * N], f[N], scale[N];
    int ok[N + 1 + NP];
    differences(F_RHS, 0, s, ins, nin, est, ok, 1);
    rhs_at(s, s->t, s->y, f);

    OdeTrig tr;
    ode_model_trig_full(s, s->t, &tr);
    double J[N * N], J2[N * N], dy2[N], ft[N], fp[N * (NP > 0 ? NP : 1)];
    ode_model_jac(s, s->t, s->y, J, &tr);
    ode_model_rhs_jac(s, s->t, s->y, dy2, J2, &tr);
    ode_model_dfdt(s, s->t, s->y, ft, &tr);
    ode_model_dfdp(s, s->t, s->y, fp, &tr);

    /* rhs_jac: the same f and J */
    c_rhsjac.points++;
    for (int i = 0; i < N; i++) {
        double e = fabs(dy2[i] - f[i]) / fmax(fabs(f[i]), 1e-300);
        if (e > 1e-13 && e > c_rhsjac.max_err) {
            c_rhsjac.max_err = e;
            snprintf(c_rhsjac.where, sizeof c_rhsjac.where, "point %d: f%d %.17g != %.17g", pt, i, dy2[i], f[i]);
        }
        c_rhsjac.tested++;
    }
    for (int i = 0; i < N * N; i++)
        if (J[i] != J2[i] && !(isnan(J[i]) && isnan(J2[i]))) {
            c_rhsjac.max_err = INFINITY;
            snprintf(c_rhsjac.where, sizeof c_rhsjac.where, "point %d: J[%d] %.17g != %.17g", pt, i, J2[i], J[i]);
        }

    row_scales(est, ok, nin, N, scale);
    double col[N];
    c_jac.points++, c_dfdt.points++, c_dfdp.points++, c_sparse.points++, c_mul.points++;
    for (int j = 0; j < nin; j++) {
        Check *c = ins[j].in == IN_Y ? &c_jac : ins[j].in == IN_T ? &c_dfdt : &c_dfdp;
        if (!ok[j]) {
            c->skipped++;
            continue;
        }
        for (int i = 0; i < N; i++)
            col[i] = ins[j].in == IN_Y ? J[i * N + j] : ins[j].in == IN_T ? ft[i] : fp[i * NP + ins[j].idx];
        compare(c, col, est + j * N, f, scale, N, ins[j].name, pt);
    }
    /* a structural zero is zero, and the finite differences agree */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            if (ode_jac_nz(i, j)) continue;
            c_sparse.tested++;
            if (J[i * N + j] != 0 || (ok[j] && fabs(est[j * N + i]) > 1e-9 * (scale[i] + fabs(f[i]) + 1e-300))) {
                c_sparse.max_err = INFINITY;
                snprintf(c_sparse.where, sizeof c_sparse.where, "point %d: J[%d][%d] = %.17g, differences %.17g",
                         pt, i, j, J[i * N + j], est[j * N + i]);
            }
        }
    /* jac_mul: J v over the non-zeros = the dense product */
    double v[N], Jv[N];
    for (int j = 0; j < N; j++) v[j] = uniform();
    ode_model_jac_mul(J, v, Jv);
    for (int i = 0; i < N; i++) {
        double dense = 0, mag = 0;
        for (int j = 0; j < N; j++) dense += J[i * N + j] * v[j], mag += fabs(J[i * N + j] * v[j]);
        double e = fabs(Jv[i] - dense) / fmax(mag, 1e-300);
        if (e > 1e-14 && e > c_mul.max_err) {
            c_mul.max_err = e;
            snprintf(c_mul.where, sizeof c_mul.where, "point %d: row %d %.17g != %.17g", pt, i, Jv[i], dense);
        }
        c_mul.tested++;
    }
#else
    (void)s, (void)pt;
#endif
}

static void check_events(const OdeSystem *s, int pt)
{
#if ODE_NEVENT > 0 && ODE_HAS_EVENT_GRAD
    Input ins[N + 1];
    int nin = 0;
    for (int j = 0; j < N; j++) ins[nin++] = (Input){IN_Y, j, ode_state_names[j]};
    ins[nin++] = (Input){IN_T, 0, "t"};
    double est[(N + 1) * NE], g[NE], scale[NE];
    int ok[N + 1];
    differences(F_EVENTS, 0, s, ins, nin, est, ok, 0);
    ode_model_events(s, s->t, s->y, g);
    row_scales(est, ok, nin, NE, scale);
    c_egrad.points++;
    for (int e = 0; e < NE; e++) {
        double gy[N], gt;
        ode_model_event_grad(s, e, s->t, s->y, gy, &gt);
        for (int j = 0; j < nin; j++) {
            if (!ok[j]) {
                c_egrad.skipped++;
                continue;
            }
            double a = j < N ? gy[j] : gt;
            compare(&c_egrad, &a, est + j * NE + e, g + e, scale + e, 1, ins[j].name, pt);
        }
#if defined(ODE_HAS_EVENT_JVP_ONE) && ODE_HAS_EVENT_JVP_ONE
        /* the derivative along a direction (the bound's, events.h): the gradient's terms in its
         * order, the zeros skipped — the same number as the gradient's dot product */
        double v[N], vt = 0.75 + 0.125 * e, dot = gt * vt;
        for (int j = 0; j < N; j++) v[j] = (j % 3 - 1) * (1.0 + 0.25 * j) + 0.5 * pt;
        for (int j = 0; j < N; j++) dot += gy[j] * v[j];
        double jvp = ode_model_event_jvp(s, e, s->t, s->y, v, vt);
        if (!(jvp == dot || (isnan(jvp) && isnan(dot)))) {
            printf("FAIL event_jvp: event %d at point %d: %.17g, the gradient's dot product %.17g\n", e, pt, jvp, dot);
            failed = 1;
        }
#endif
    }
#else
    (void)s, (void)pt;
#endif
}

/* A block's map y -> y+ against its Jacobian (and d/dt for events). */
static void check_reset(Check *c, int family, int which, const OdeSystem *s, const double *R, const double *Rt, int pt)
{
    Input ins[N + 1];
    int nin = 0;
    for (int j = 0; j < N; j++) ins[nin++] = (Input){IN_Y, j, ode_state_names[j]};
    if (Rt) ins[nin++] = (Input){IN_T, 0, "t"};
    double est[(N + 1) * N], post[N], scale[N], col[N];
    int ok[N + 1];
    differences(family, which, s, ins, nin, est, ok, 0);
    evaluate(family, which, s, IN_Y, 0, 0.0, post);
    row_scales(est, ok, nin, N, scale);
    c->points++;
    for (int j = 0; j < nin; j++) {
        if (!ok[j]) {
            c->skipped++;
            continue;
        }
        for (int i = 0; i < N; i++) col[i] = j < N ? R[i * N + j] : Rt[i];
        compare(c, col, est + j * N, post, scale, N, ins[j].name, pt);
    }
}

static void check_resets(const OdeSystem *s, int pt)
{
#if ODE_HAS_RESET_JAC
    double R[N * N], Rt[N];
    ode_model_on_start_jac(s, R);
    check_reset(&c_start, F_ON_START, 0, s, R, NULL, pt);
    ode_model_on_end_jac(s, R);
    check_reset(&c_end, F_ON_END, 0, s, R, NULL, pt);
    for (int e = 0; e < NE; e++) {
        ode_model_on_event_jac(s, e, R, Rt);
        check_reset(&c_reset, F_ON_EVENT, e, s, R, Rt, pt);
    }
#else
    (void)s, (void)pt;
#endif
}

static void check_all(const OdeSystem *s, int pt)
{
    double f[N];
    rhs_at(s, s->t, s->y, f);
    for (int i = 0; i < N; i++)
        if (!isfinite(f[i])) return;   /* outside the model's domain */
    check_rhs(s, pt);
    check_events(s, pt);
    check_resets(s, pt);
}

/* ------------------------------------------------------------------ points */

#if ODE_HAS_JACOBIAN && ODE_NSWITCH > 0
static double switch_at(const OdeSystem *base, int k, int in, int idx, double x)
{
    OdeSystem s = *base;
    double sw[ODE_NSWITCH];
    if (in == IN_Y) s.y[idx] = x;
    else s.t = x;
    ode_model_switches(&s, s.t, s.y, sw);
    return sw[k];
}

/* A zero of switch k along one input from the base point (by bisection of a
 * sign change found stepping outwards); 0 when none is near. */
static int find_switch(const OdeSystem *base, int k, int in, int idx, double *root)
{
    double x0 = input_value(base, in, idx), step = 0.05 * (1 + fabs(x0));
    double g0 = switch_at(base, k, in, idx, x0);
    if (!isfinite(g0)) return 0;
    for (int n = 1; n <= 60; n++)
        for (int side = -1; side <= 1; side += 2) {
            double a = x0 + side * (n - 1) * step, b = x0 + side * n * step;
            double ga = switch_at(base, k, in, idx, a), gb = switch_at(base, k, in, idx, b);
            if (!isfinite(ga) || !isfinite(gb) || (ga > 0) == (gb > 0)) continue;
            for (int it = 0; it < 200 && b != a; it++) {
                double m = 0.5 * (a + b), gm = switch_at(base, k, in, idx, m);
                if ((gm > 0) == (ga > 0)) a = m, ga = gm;
                else b = m, gb = gm;
                if (fabs(b - a) <= 1e-14 * (1 + fabs(a))) break;
            }
            /* a sign change of a continuous switch, not a jump of it (flr's half-integers) */
            if (fabs(ga) + fabs(gb) > 1e-6 * (1 + fabs(switch_at(base, k, in, idx, x0)))) continue;
            *root = 0.5 * (a + b);
            return 1;
        }
    return 0;
}
#endif

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fd_check SEED NPOINTS [TOL]\n");
        return 2;
    }
    rng_state = 0x9E3779B97F4A7C15ULL ^ strtoull(argv[1], NULL, 10);
    int npoints = atoi(argv[2]);
    if (argc > 3) tol = atof(argv[3]);
    int pt = 0;
    OdeSystem s;
    for (int i = 0; i < npoints; i++, pt++) {
        random_point(&s);
        check_all(&s, pt);
    }
    int nswitch = 0, sides = 0;
#if ODE_HAS_JACOBIAN && ODE_NSWITCH > 0
    nswitch = ODE_NSWITCH;
    int found[ODE_NSWITCH];
    for (int k = 0; k < ODE_NSWITCH; k++) {
        found[k] = 0;
        for (int in = 0; in <= N; in++) {
            int kind = in < N ? IN_Y : IN_T;
            for (int attempt = 0; attempt < 6; attempt++) {
                double root;
                random_point(&s);
                if (!find_switch(&s, k, kind, in, &root)) continue;
                double d = 8 * step_for(root);
                for (int side = -1; side <= 1; side += 2) {
                    if (kind == IN_Y) s.y[in] = root + side * d;
                    else s.t = root + side * d;
                    check_all(&s, pt++);
                    sides++;
                }
                found[k] = 1;
                break;
            }
        }
        if (!found[k]) printf("switch %d: no zero found near the random points\n", k);
    }
#endif
    printf("points %d random, %d on the sides of %d switches\n", npoints, sides, nswitch);
    Check *all[] = {&c_jac, &c_rhsjac, &c_sparse, &c_mul, &c_dfdt, &c_dfdp, &c_egrad, &c_reset, &c_start, &c_end};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) check_report(all[i]);
    printf("RESULT %s\n", failed ? "FAIL" : "ok");
    return failed;
}
