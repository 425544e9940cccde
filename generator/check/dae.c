/* dae.c — XPPAUT's algebraic constraints (an index-1 DAE): `solv NAME=GUESS`
 * (`solve`, any word that starts with `so`) declares an unknown with its
 * first guess (none: 0, as form_ode.c reads `solv y`), `0=EXPR` a constraint.
 * XPPAUT pairs nothing: it solves all constraints for all unknowns together
 * (dae_fun.c, solve_dae), and needs as many of each (compile_svars).
 *
 * In the model each unknown becomes a state after the differential ones
 * (Model.nalg: the last nalg states), whose expression is a constraint: the
 * k-th `0=` in file order goes with the k-th `solv`.  The generated code
 * reads that as the mass-matrix form M y' = F(t, y) with M = diag(I, 0): a
 * stiff method integrates it so (templates/rosenbrock.h), an explicit one
 * solves the constraints by Newton at each evaluation (templates/dae.h).
 * The guess is the unknown's initial value (an `init` line may set it too).
 *
 * What the two cannot go with is refused at the line, with the reason
 * (check_dae, after the model is complete).
 */
#include "check/checker.h"
#include "check/method.h"
#include "front/diag.h"

/* The unknowns up to which the Newton matrix and a stiff method's W are
 * factorised by one thread, written out (emit/emit_lu.c's LU_UNROLL_MAX). */
enum { DAE_MAX_SIZE = 32 };

void declare_dae(Checker *c, const Program *prog, Node **inits)
{
    Model *m = c->m;
    const Node *solv[2] = {NULL, NULL}, *zero[2] = {NULL, NULL};   /* the first of each, and the first unpaired */
    int nsolv = 0, nzero = 0;
    for (const Node *d = prog->decls; d; d = d->next) {
        if (d->kind == D_SOLVE) { if (!solv[0]) solv[0] = d; nsolv++; }
        if (d->kind == D_ALGEBRAIC) { if (!zero[0]) zero[0] = d; nzero++; }
    }
    if (!nsolv && !nzero) return;
    m->alg_loc = (solv[0] && (!zero[0] || solv[0]->loc.line < zero[0]->loc.line)) ? solv[0]->loc : zero[0]->loc;
    /* the k-th solv with the k-th 0= */
    const Node *s = prog->decls, *z = prog->decls;
    Node *guesses = NULL;
    for (;;) {
        while (s && s->kind != D_SOLVE) s = s->next;
        while (z && z->kind != D_ALGEBRAIC) z = z->next;
        if (!s || !z) break;
        Symbol *u = declare_symbol(c, SYM_STATE, s->name, s->name_loc, true);
        if (u) {
            u->expr = z->rhs;
            u->expr_line = z->loc;
            m->nalg++;
            Node *item = ast_assign(s->loc, s->name_loc, s->name, s->rhs ? s->rhs : ast_num(s->name_loc, "0"));
            item->num = 2;   /* a guess (values.c) */
            guesses = ast_append(guesses, item);
        }
        s = s->next;
        z = z->next;
    }
    for (const Node *rest = s; rest; rest = rest->next)   /* (not reported again where they are read) */
        if (rest->kind == D_SOLVE) PUSH(c->refused, c->nrefused, rest->name);
    if (s)
        error_at(s->loc, "solv '%s' has no constraint to go with it: a DAE needs as many 0=… lines as solv "
                         "unknowns (here %d solv, %d 0=), as XPPAUT does", s->name, nsolv, nzero);
    if (z)
        error_at(z->loc, "this constraint has no unknown to go with it: a DAE needs as many solv NAME=GUESS lines "
                         "as 0=… lines (here %d 0=, %d solv), as XPPAUT does", nzero, nsolv);
    /* the guesses first: an `init` line for an unknown comes after and wins */
    if (guesses) {
        Node *last = guesses;
        while (last->next) last = last->next;
        last->next = *inits;
        *inits = guesses;
    }
}

/* What a DAE cannot go with, said at the line that asks for it. */
void check_dae(Checker *c)
{
    Model *m = c->m;
    if (!m->nalg) return;
    const char *why = "the algebraic constraints (0=…, solv) are solved per evaluation of the right-hand side";
    if (m->map_loc.line || m->method == METH_DISCRETE)
        error_at(m->map_loc.line ? m->map_loc : m->method_loc, "a map with algebraic constraints (0=…, solv) is not "
                                                               "supported: XPPAUT's DAEs are ODEs; %s", why);
    if (m->ndelay)
        error_at(m->delay_loc, "delay(…) with algebraic constraints (0=…, solv) is not supported yet: the unknowns "
                               "would need a history of their own");
    if (model_has_noise(m))
        error_at(m->alg_loc, "noise (wiener, ran, normal, markov) with algebraic constraints (0=…, solv) is not "
                             "supported yet: the SDE methods step the states only");
    if (m->nlyap)
        error_at(m->lyap_loc, "lyapunov with algebraic constraints (0=…, solv) is not supported yet: the tangent "
                              "vectors would need the unknowns' derivative along the constraint (-g_z^-1 g_y)");
    if (m->arrays_kept || m->loop_form)
        error_at(m->layout_loc.line ? m->layout_loc : m->alg_loc,
                 "algebraic constraints (0=…, solv) are integrated by one thread per system (@ layout=thread), "
                 "with arrays written out: not in loop form (a team layout, @ arrays=loop)");
    if (m->nstate > DAE_MAX_SIZE)
        error_at(m->alg_loc, "algebraic constraints (0=…, solv) are supported up to %d states and unknowns "
                             "together (here %d): one thread factorises their Jacobian, written out",
                 DAE_MAX_SIZE, m->nstate);
}
