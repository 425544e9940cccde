/* noise.c — XPPAUT's noise: `wiener` (Wiener processes), `markov`
 * (discrete-state Markov chains), ran() and normal(), as XPPAUT reads them.
 *
 * Declarations come first (declare.c calls declare_wiener, declare_markov,
 * declare_markov_row in file order); once the whole model is checked,
 * check_noise resolves the markov rates, numbers every ran() and normal()
 * by where it is drawn (Node.site, Model.sites: SiteKind), refuses them
 * where a random number has no meaning, and refuses the methods that do
 * not integrate noise.  What the noise may do to each method (which noise
 * enters how) needs the derivatives: deriv/noise.c.
 *
 * XPPAUT's meanings (its src/markov.c, parserslow2.c, form_ode.c):
 *   wiener w        a number per step, normal(0,1)/sqrt(|dt|) (set_wieners),
 *                   so that Euler's x + dt·(… + s·w) is Euler–Maruyama's
 *                   x + dt·… + s·ΔW
 *   ran(a)          a·U, U uniform on (0, 1) (rndom)
 *   normal(m, s)    m + s·N, N standard normal (normal)
 *   markov z n      before every step, z jumps from state i to state j ≠ i
 *                   if one uniform coin U ≤ Σ_{k ≤ j, k ≠ i} rate[i][k]·dt,
 *                   the rates evaluated at the step's start (new_state)
 */
#include <math.h>
#include <string.h>

#include "base/arena.h"
#include "base/builtins.h"
#include "base/util.h"
#include "check/checker.h"
#include "check/method.h"
#include "front/diag.h"

/* ------------------------------------------------------------------ declarations */

void declare_wiener(Checker *c, Node *d)
{
    for (Node *it = d->items; it; it = it->next) declare_symbol(c, SYM_WIENER, it->name, it->name_loc, true);
}

/* The chain whose rows are being read (the last markov line, while it
 * misses rows), or NULL. */
static Markov *open_chain(Checker *c)
{
    Model *m = c->m;
    if (!m->nmarkov) return NULL;
    Markov *k = &m->markovs[m->nmarkov - 1];
    return k->rows < k->n ? k : NULL;
}

static void rows_missing(const Markov *k)
{
    error_at(k->var->loc, "markov %s has %d states: its line needs %d rows of %d rates {…} below it (found %d)",
             k->var->name, k->n, k->n, k->n, k->rows);
}

void declare_markov(Checker *c, Node *d)
{
    Model *m = c->m;
    const double n = d->rhs->num;
    if (!(n >= 2) || !is_integer(n) || n > 64) {
        error_at(d->rhs->loc, "markov %s needs a whole number of states from 2 to 64, not %s", d->name, d->rhs->text);
        return;
    }
    Symbol *s = declare_symbol(c, SYM_STATE, d->name, d->name_loc, true);
    if (!s) return;
    Markov k;
    memset(&k, 0, sizeof k);
    k.var = s;
    k.n = (int)n;
    k.rate = arena_alloc(sizeof(Node *) * (size_t)(k.n * k.n));
    k.line = d->loc.line;
    PUSH(m->markovs, m->nmarkov, k);
    s->markov = m->nmarkov;
    s->expr = ast_num(d->loc, "0");      /* its equation: z' = 0 between the jumps */
    s->expr_line = d->loc;
}

void declare_markov_row(Checker *c, Node *d)
{
    Markov *k = open_chain(c);
    if (!k) {
        error_at(d->loc, "a row of rates {…} belongs under a `markov NAME N` line (and a chain of N states "
                         "has N rows)");
        return;
    }
    int count = list_length(d->args);
    if (count != k->n) {
        error_at(d->loc, "row %d of markov %s has %d rate%s: a chain of %d states needs %d", k->rows + 1,
                 k->var->name, count, count == 1 ? "" : "s", k->n, k->n);
        k->rows++;
        return;
    }
    int j = 0;
    for (Node *r = d->args; r; r = r->next) k->rate[k->rows * k->n + j++] = r;
    k->rows++;
}

/* ------------------------------------------------------------------ random numbers */

bool is_random_call(const Node *n)
{
    return n && n->kind == N_CALL && !n->sym && random_function(n->name) >= 0;
}

bool has_random_call(const Node *n)
{
    if (!n) return false;
    if (is_random_call(n)) return true;
    if (has_random_call(n->lhs) || has_random_call(n->rhs) || has_random_call(n->cond)) return true;
    for (const Node *a = n->args; a; a = a->next)
        if (has_random_call(a)) return true;
    return false;
}

/* A table whose formula draws random numbers: its values, drawn with the
 * file's seed now that the options are read (XPPAUT draws them once, when
 * it loads the file). */
static void draw_table(Checker *c, Table *t)
{
    note_at(t->random->loc, "table %s: its values are drawn when odegen translates the file, with the file's seed "
                            "(@ seed=%.0f), as XPPAUT draws them when it loads it: every system and every run sees "
                            "the same table, whatever the runner's --seed", t->sym->name, c->m->seed);
    c->eval_t = true;
    c->eval_random = true;
    c->random_table = t->sym->table;
    for (int i = 0; i < t->n; i++) {
        c->t_value = t->dx * i + t->xlo;
        c->random_point = i;
        if (!eval_const(c, t->random, &t->y[i]) || !isfinite(t->y[i])) {
            error_at(t->random->loc, "the table's formula is not a finite number at t = %.17g", c->t_value);
            break;
        }
    }
    c->eval_t = false;
    c->eval_random = false;
}

/* Numbers the random calls of an expression or statement list as drawn in
 * `kind`; or, where `refused` is not NULL, refuses them with that reason. */
static void sites_in(Checker *c, Node *n, SiteKind kind, const char *refused)
{
    for (; n; n = n->next) {
        if (is_random_call(n)) {
            if (refused) {
                error_at(n->name_loc, "%s() cannot be used in %s", n->name, refused);
            } else if (!n->site) {
                Model *m = c->m;
                RandomSite r = {n, name_eq(n->name, "normal")};
                PUSH(m->sites[kind], m->nsite[kind], r);
                n->site = m->nsite[kind];
                n->site_kind = (int)kind;
            }
        }
        sites_in(c, n->lhs, kind, refused);
        sites_in(c, n->rhs, kind, refused);
        sites_in(c, n->cond, kind, refused);
        sites_in(c, n->args, kind, refused);
        sites_in(c, n->body, kind, refused);
        sites_in(c, n->els, kind, refused);
    }
}

/* One expression (not the list it may be the head of). */
static void sites_expr(Checker *c, Node *n, SiteKind kind, const char *refused)
{
    if (!n) return;
    Node *next = n->next;
    n->next = NULL;
    sites_in(c, n, kind, refused);
    n->next = next;
}

/* Whether an expression reads noise that changes from one step to the next:
 * a Wiener process, a ran()/normal() of the right-hand side (when `calls`),
 * or a temporary that does (noisy[i]: temporary i does). */
static const Node *noise_in(const Node *n, const bool *noisy, bool calls)
{
    for (; n; n = n->next) {
        if (calls && is_random_call(n)) return n;
        if (n->kind == N_NAME && n->sym &&
            (n->sym->kind == SYM_WIENER || (n->sym->kind == SYM_TEMP && noisy[n->sym->index])))
            return n;
        if (n->kind == N_CALL && n->sym && n->sym->kind == SYM_FUNC)
            for (int k = 0; k < n->sym->nimplicit; k++)
                if (n->sym->implicit[k]->kind == SYM_TEMP && noisy[n->sym->implicit[k]->index]) return n;
        const Node *f = noise_in(n->lhs, noisy, calls);
        if (!f) f = noise_in(n->rhs, noisy, calls);
        if (!f) f = noise_in(n->cond, noisy, calls);
        if (!f) f = noise_in(n->args, noisy, calls);
        if (f) return f;
    }
    return NULL;
}

static const Node *noise_in_expr(const Node *n, const bool *noisy, bool calls)
{
    if (!n) return NULL;
    Node one = *n;
    one.next = NULL;
    return noise_in(&one, noisy, calls);
}

/* An event function must be continuous inside a step (its crossing is
 * located on the step's extension): no noise in it, not even through a
 * temporary. */
static void refuse_noisy_events(Checker *c)
{
    Model *m = c->m;
    bool *noisy = arena_alloc(sizeof(bool) * (size_t)(m->ntemp + 1));
    for (int i = 0; i < m->ntemp; i++)   /* temporaries are in evaluation order */
        noisy[i] = noise_in_expr(m->temps[i]->expr, noisy, true) != NULL;
    for (int e = 0; e < m->nevent; e++) {   /* (a call in the condition itself: refused as such) */
        const Node *f = noise_in_expr(m->events[e].expr, noisy, false);
        if (!f) continue;
        const char *what = f->kind == N_CALL ? arena_printf("'%s', a function that reads a temporary with noise,", f->name)
                           : f->sym->kind == SYM_WIENER ? arena_printf("the Wiener process '%s'", f->name)
                                                         : arena_printf("'%s', a temporary with noise,", f->name);
        error_at(f->loc, "%s cannot be in an event's condition: an event is located on a step's continuous "
                         "extension, along which the noise is no function of time; test a state (an "
                         "integrate-and-fire threshold v-vth) instead", what);
    }
}

/* ------------------------------------------------------------------ markov rates */

static void resolve_markov(Checker *c)
{
    Model *m = c->m;
    for (int k = 0; k < m->nmarkov; k++) {
        Markov *ch = &m->markovs[k];
        if (ch->rows < ch->n) {
            rows_missing(ch);
            continue;
        }
        Ctx x = ctx_make(READ_RHS, "a markov rate", "; a rate may use states, parameters, temporaries and t");
        for (int i = 0; i < ch->n * ch->n; i++) resolve_expr(c, ch->rate[i], &x);
    }
}

/* ------------------------------------------------------------------ the methods */

static bool has_noise(const Model *m)
{
    int sites = 0;
    for (int k = 0; k < SITE_NKINDS; k++) sites += m->nsite[k];
    return m->nwiener || m->nmarkov || sites;
}

bool model_has_noise(const Model *m)
{
    return m->nwiener || m->nmarkov || m->nsite[SITE_STEP] || m->nsite[SITE_AUX] || m->nsite[SITE_BLOCK] ||
           m->nsite[SITE_ACC];
}

/* Noise that changes along the integration (not only in tables and
 * initial values). */
static bool steps_with_noise(const Model *m)
{
    return m->nwiener || m->nmarkov || m->nsite[SITE_STEP];
}

static void check_methods(Checker *c)
{
    Model *m = c->m;
    Loc at = m->method_loc.line ? m->method_loc : c->last_loc;
    const bool sde_method = m->method == METH_MILSTEIN || m->method == METH_WEAK2;
    if (sde_method && !m->nwiener)
        error_at(at, "meth=%s integrates stochastic differential equations: the model has no `wiener` (use euler, "
                     "rk4, … for an ODE)", method_name(m->method));
    if (!has_noise(m) || !steps_with_noise(m)) return;
    if (method_is_adaptive(m->method) && !sde_method) {
        const char *what = m->nwiener ? "Wiener processes" : m->nmarkov ? "markov chains" : "ran() and normal()";
        error_at(at, "meth=%s with noise (%s): an adaptive method's step size follows an error estimate that noise "
                     "has not got (XPPAUT draws the noise once per output step, scaled by its step guess, which "
                     "integrates no SDE); use a fixed step: meth=euler (Euler-Maruyama, as XPPAUT), milstein or "
                     "weak2, with dt", method_name(m->method), what);
    }
    if (m->nlyap)
        error_at(m->lyap_loc, "lyapunov with noise: Lyapunov exponents of a random dynamical system need the "
                              "same noise along every tangent direction and averaging over noise paths, which "
                              "odegen does not do; remove the noise (set its amplitude to 0 in a copy) or the "
                              "lyapunov line");
}

/* ------------------------------------------------------------------ the pass */

void check_noise(Checker *c)
{
    Model *m = c->m;
    resolve_markov(c);
    /* where each random number is drawn */
    for (int i = 0; i < m->ntemp; i++) sites_expr(c, m->temps[i]->expr, SITE_STEP, NULL);
    for (int i = 0; i < m->nstate; i++) sites_expr(c, m->states[i]->expr, SITE_STEP, NULL);
    for (int k = 0; k < m->nmarkov; k++)
        for (int i = 0; m->markovs[k].rows == m->markovs[k].n && i < m->markovs[k].n * m->markovs[k].n; i++)
            sites_expr(c, m->markovs[k].rate[i], SITE_STEP, NULL);
    for (int i = 0; i < m->naux; i++) sites_expr(c, m->aux[i]->expr, SITE_AUX, NULL);
    for (int e = 0; e < m->nevent; e++) {
        sites_in(c, m->events[e].body, SITE_BLOCK, NULL);
        sites_in(c, m->events[e].on_body, SITE_BLOCK, NULL);
    }
    sites_in(c, m->on_start.body, SITE_BLOCK, NULL);
    sites_in(c, m->on_step.body, SITE_BLOCK, NULL);
    sites_in(c, m->on_end.body, SITE_BLOCK, NULL);
    for (int i = 0; i < m->nacc; i++) sites_expr(c, m->accs[i]->expr, SITE_ACC, NULL);
    for (int i = 0; i < m->ntable; i++) sites_expr(c, (Node *)m->tables[i].random, SITE_TABLE, NULL);
    /* where a random number has no meaning */
    for (int i = 0; i < m->nfunc; i++)
        sites_expr(c, m->funcs[i]->expr, SITE_STEP,
                   "a function's body: a function is written once and may be called from several places, "
                   "which would all see one number; draw it in a temporary (r = ran(1)) and pass that");
    for (int i = 0; i < m->nderived; i++)
        sites_expr(c, m->derived[i]->expr, SITE_STEP,
                   "a derived parameter (computed once per system from parameters): draw it in a temporary "
                   "(anew at every step) or in an accessory's initial value (acc r = ran(1): once per system)");
    for (int e = 0; e < m->nevent; e++)
        sites_expr(c, m->events[e].expr, SITE_STEP,
                   "an event's condition: an event is located on a step's continuous extension, along which a "
                   "random number is no function of time");
    for (int k = 0; k < SITE_NKINDS; k++)
        if (m->nsite[k] > 131072) error_at(m->sites[k][131072].call->loc, "more than 131072 ran()/normal() calls of one kind");
    if (m->nwiener > 262144) error_at(m->wieners[262144]->loc, "more than 262144 Wiener processes");
    refuse_noisy_events(c);
    for (int i = 0; i < m->ntable; i++)
        if (m->tables[i].random && !diag_error_count()) draw_table(c, &m->tables[i]);
    check_methods(c);
}
