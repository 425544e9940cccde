/* symplectic.c — what XPPAUT's symplectic method (meth=ymp, its key 'y')
 * asks of a model.
 *
 * XPPAUT (odesol2.c, one_step_symp) reads the states two by two, a position
 * and its velocity, (x, v), and takes three stages of
 *     x += h b_s v;  v += h B_s f_v(t, x, v)
 * with b = (7/24, 3/4, -1/24) and B = (2/3, -2/3, 1), every f evaluated at
 * the step's start time t (templates/symplectic.h does the same).  It never
 * evaluates a position's own equation: x' = v is taken as written.  A model
 * whose positions' equations are not their velocities would be integrated
 * as another model, so it is refused, as is an odd number of states; and so
 * is what the method does not carry (noise, delays, algebraic constraints,
 * lyapunov's tangents, a model in loop form: a team layout's own stepper
 * knows the tableaux only). */
#include "base/util.h"
#include "check/checker.h"
#include "front/diag.h"

void check_symplectic(Checker *c)
{
    Model *m = c->m;
    if (m->method != METH_SYMPLECTIC) return;
    const Loc at = m->method_loc.line ? m->method_loc : c->last_loc;
    const char *what = model_has_noise(m) ? "noise" : m->ndelay ? "delays" : m->nalg ? "algebraic constraints"
                     : m->nlyap ? "lyapunov" : m->loop_form ? "a model in loop form (a team layout, or arrays kept as loops)" : NULL;
    if (what) {
        error_at(at, "meth=ymp (XPPAUT's symplectic method) is not available with %s", what);
        return;
    }
    if (m->nstate % 2) {
        error_at(at, "meth=ymp (XPPAUT's symplectic method) takes the states two by two, a position and its "
                     "velocity (x'=v, v'=…): this model has %d states", m->nstate);
        return;
    }
    for (int k = 0; k + 1 < m->nstate; k += 2) {
        const Symbol *x = m->states[k], *v = m->states[k + 1];
        const Node *e = x->expr;
        if (e && e->kind == N_NAME && e->sym == v) continue;
        error_at(x->expr_line.line ? x->expr_line : x->loc,
                 "meth=ymp (XPPAUT's symplectic method) takes the states two by two, each position's equation its "
                 "velocity: %s'=%s (the state declared after it); XPPAUT does not evaluate this equation and "
                 "integrates %s'=%s instead", x->name, v->name, x->name, v->name);
    }
}
