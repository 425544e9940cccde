/* needs.c — what `lyapunov N` and a stiff method ask of the model's
 * derivatives, checked after the model is (before anything is written, and
 * by --check).  A stiff method (rodas5p, ros3p) needs the exact Jacobian of
 * the right-hand side.  `lyapunov N` needs:
 *   - the Jacobian of the right-hand side, and, where a block assigns states,
 *     the gradients of the event functions and the blocks' Jacobians (the
 *     saltation matrices): a construct that cannot be differentiated is an
 *     error at its line;
 *   - a jump of f in a state (heav, sign, flr, ceil, mod, a comparison, an
 *     if whose branches may differ at its switch) is a warning at its line:
 *     the tangent vectors follow the Jacobian on either side, but nothing
 *     describes how the jump itself separates nearby trajectories (the
 *     saltation of a switching surface), unless the switch is written as an
 *     event whose statements assign states.
 */
#include "deriv/needs.h"

#include "base/arena.h"
#include "check/method.h"
#include "deriv/jacobian.h"
#include "deriv/time_trig.h"
#include "front/diag.h"

/* Whether statements assign a state (inside ifs too). */
static bool assigns_state(const Node *stmts)
{
    for (const Node *s = stmts; s; s = s->next) {
        if (s->kind == S_ASSIGN && s->sym && s->sym->kind == SYM_STATE) return true;
        if (s->kind == S_IF && (assigns_state(s->body) || assigns_state(s->els))) return true;
    }
    return false;
}

/* The first assignment of a parameter in statements (inside ifs too), or NULL. */
static const Node *param_assignment(const Node *stmts)
{
    for (const Node *s = stmts; s; s = s->next) {
        if (s->kind == S_ASSIGN && s->sym && s->sym->kind == SYM_PARAM) return s;
        if (s->kind == S_IF) {
            const Node *a = param_assignment(s->body);
            if (!a) a = param_assignment(s->els);
            if (a) return a;
        }
    }
    return NULL;
}

static const char *piece_name(const XNode *n)
{
    if (n->op == X_SELECT) return "if";
    if (n->op >= X_LT && n->op <= X_NE) return arena_printf("the comparison '%s'", xop_info[n->op].name);
    if (n->op == X_AND || n->op == X_OR || n->op == X_NOT) return arena_printf("'%s'", xop_info[n->op].name);
    return arena_printf("%s()", xop_info[n->op].name);
}

static void warn_jumps(const Model *m, const Jacobian *J)
{
    for (int k = 0; k < J->npieces; k++) {
        const JacPiece *p = &J->pieces[k];
        if (!p->on_states || p->kind == 1) continue;   /* kinks (abs, max, min, tables) are continuous */
        const char *states = "";
        int count = 0;
        for (int i = 0; i < m->nstate; i++)
            if (p->states[i])
                states = arena_printf("%s%s'%s'", states, count++ ? ", " : "", m->states[i]->name);
        warning_at(p->node->loc,
                   "f %s where this %s switches (a function of %s): lyapunov's tangent vectors do not see that jump; "
                   "for exponents that count it, write the switch as an event whose statements assign a state "
                   "(a mode state m' = 0 set by the event)",
                   p->kind == 3 ? "may jump" : "jumps", piece_name(p->node), states);
    }
}

bool check_lyapunov_derivatives(const Model *m)
{
    if (!m->nlyap) return true;
    int errors = diag_error_count();
    if (method_is_rosenbrock(m->method)) {   /* (tangent.h steps the tangents with an explicit method's stages) */
        error_at(m->lyap_loc,
                 "lyapunov with the stiff method %s is not available yet: the tangent vectors follow an explicit "
                 "method's stages; use an explicit method (meth=rkck45, dopri5, dop853, ...)",
                 method_name(m->method));
        return false;
    }
    /* A parameter that a block sets moves f for the rest of the run from a point that depends on the
     * state: the tangent vectors would need that dependence (a saltation through the parameter). */
    const Node *set = param_assignment(m->on_start.body);
    if (!set) set = param_assignment(m->on_end.body);
    for (int e = 0; e < m->nevent && !set; e++) {
        set = param_assignment(m->events[e].body);
        if (!set) set = param_assignment(m->events[e].on_body);
    }
    if (set) {
        error_at(set->name_loc,
                 "lyapunov with a block that assigns the parameter '%s' is not available: the tangent vectors "
                 "would need how its new value moves with the state; make it a state that the block sets "
                 "(%s' = 0)", set->name, set->name);
        return false;
    }
    const Jacobian *J = jacobian_build(m, NULL);
    bool ok = jacobian_require(J, JAC_RHS, "lyapunov");
    bool event_resets = false;
    for (int e = 0; e < m->nevent; e++)
        event_resets |= assigns_state(m->events[e].body) || assigns_state(m->events[e].on_body);
    if (ok && event_resets) ok = jacobian_require(J, JAC_EVENTS, "lyapunov (the saltation matrix of an event)");
    if (ok && (event_resets || assigns_state(m->on_start.body) || assigns_state(m->on_end.body)))
        ok = jacobian_require(J, JAC_RESETS, "lyapunov (the Jacobian of a block that assigns states)");
    if (ok) warn_jumps(m, J);
    return diag_error_count() == errors;
}

bool method_check_derivatives(const Model *m)
{
    if (!method_is_rosenbrock(m->method) && !m->nalg) return true;
    TimeTrig trig = {0};
    find_time_trig(m, &trig);
    return jacobian_require(jacobian_build(m, &trig), JAC_RHS,
                            method_is_rosenbrock(m->method)
                                ? arena_printf("meth=%s (a stiff method, on the exact Jacobian)", method_name(m->method))
                                : "the algebraic constraints (0=…: Newton on their exact Jacobian)");
}
