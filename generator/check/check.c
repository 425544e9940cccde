/* check.c — the checks: from the syntax tree to a checked model (model.h).
 *
 * Every problem is reported (front/diag.h) and counted; checking goes on
 * after an error so that one run shows them all.  This file runs the
 * passes in order; each is a file of check/ (checker.h declares them):
 *   options     XPPAUT's options files (option FILE): a note, XPPAUT takes none of their values
 *   precedence  each statement compared with XPPAUT's reading of it (front/precedence.c)
 *   expand      XPPAUT's arrays written out as scalar statements (front/expand.c)
 *   poincare    XPPAUT's Poincaré map (@ poimap) as an event, on end, repeat, record (poincare.c)
 *   tables      a table whose formula reads a parameter: each call its lookup (param_tables.c)
 *   declare     every declaration becomes a symbol (declare.c: duplicates, reserved names)
 *   values      numbers evaluated (values.c); tables computed or read (statements.c)
 *   resolve     every name of every expression and block looked up in the context it
 *               appears in: what may be read, what may be assigned (resolve.c)
 *   values      parameter values (values.c)
 *   order       functions, derived parameters and temporaries sorted by dependency
 *               (order.c: cycles are errors)
 *   values      derived parameters at the defaults, initial values (values.c); the
 *               nesting depth (order.c)
 *   outputs     lyapunov and period (outputs.c: before record, which may name their fields),
 *               then attractor (attractor.c: after period, whose quantities it shares)
 *   statements  in the file's order: global and event (events.c), scan, repeat, save,
 *               set (statements.c), record (outputs.c), @ options (options.c)
 *   hooks       `on …` blocks (events.c), after the options (@ evtol)
 *   tolerance   per-state tolerances (statements.c), after the options (toler, atoler)
 *   layout      who integrates one system: a thread, a warp's team or a block (layout.c)
 *   noise       markov rates, where each ran()/normal() is drawn, random tables (with
 *               @ seed), methods and statements that refuse noise (noise.c)
 *   last        what needs the whole model: dtmin ≤ dtmax, counts, the default record,
 *               what delays need (delay.c), single precision's notes (single.c)
 * What lyapunov and a stiff method need of the derivatives is checked next,
 * by the caller (deriv/needs.c).
 */
#include <ctype.h>
#include <string.h>

#include "base/arena.h"
#include "check/checker.h"
#include "check/method.h"
#include "check/single.h"
#include "front/diag.h"
#include "front/expand.h"
#include "front/precedence.h"

static void set_defaults(Model *m)
{
    m->method = METH_RK4;
    m->evpoints = 3;
    m->layout = -1;
    m->dt = 0.05;
    m->t0 = 0;
    m->total = 20;
    m->toler = 1e-3;
    m->atoler = 1e-3;
    m->dtmin = 1e-12;
    m->dtmax = 1e6;
    m->hgrow = 5;
    m->hshrink = 0.1;
    m->evsteps = 50;
    m->maxsteps = 100000000LL;
    m->bound = 1e100;
    m->newt_tol = 1e-3;          /* XPPAUT's defaults (load_eqn.c: EVEC_ERR, EVEC_ITER) */
    m->newt_iter = 100;
    m->evtol = 1e-6;
    m->seed = 12345678;          /* XPPAUT's default seed (parserslow2.c RandSeed) */
    m->noisesub = 1;
    m->transient = 0;
    m->record = 1;
}

/* XPPAUT's statements must mean what they mean in XPPAUT (precedence.c). */
static void check_xpp_statements(const Program *prog)
{
    for (const Node *d = prog->decls; d; d = d->next) {
        switch (d->kind) {
        case D_PAR: case D_NUMBER: case D_INIT:
            for (const Node *it = d->items; it; it = it->next) check_xpp_precedence(it->rhs);
            break;
        case D_DERIVED: case D_ODE: case D_TEMP: case D_AUX: case D_CALLDEF: case D_TABLE: case D_SOLVE:
        case D_ALGEBRAIC:
            check_xpp_precedence(d->rhs);
            break;
        case D_SET:
            for (const Node *it = d->items; it; it = it->next) check_xpp_precedence(it->rhs);
            break;
        case D_GLOBAL:
            check_xpp_precedence(d->cond);
            for (const Node *st = d->body; st; st = st->next) {
                check_xpp_precedence(st->rhs);
                check_xpp_precedence(st->cond);
            }
            break;
        default:
            break;
        }
    }
}

/* The line that asks for the derivatives of the right-hand side (lyapunov,
 * a `wiener`: its noise is classified on them, a constraint 0=…, a stiff method), a first look
 * before the checks (front/expand.h), or NULL. */
static const Node *derivatives_asked(const Program *prog)
{
    const Node *lyapunov = NULL, *meth = NULL, *wiener = NULL, *algebraic = NULL;   /* (the last meth wins, as in check_option) */
    for (const Node *d = prog->decls; d; d = d->next) {
        if (d->kind == D_LYAPUNOV && !lyapunov) lyapunov = d;
        if (d->kind == D_ALGEBRAIC && !algebraic) algebraic = d;   /* the constraints' Jacobian (Newton: templates/dae.h) */
        if (d->kind == D_WIENER && !wiener) wiener = d;   /* the noise's class: deriv/noise.c */
        for (const Node *it = d->kind == D_OPTIONS ? d->items : NULL; it; it = it->next)
            if (it->name && (name_eq(it->name, "meth") || name_eq(it->name, "method")) && it->rhs) meth = it;
    }
    if (lyapunov) return lyapunov;
    if (wiener) return wiener;
    if (algebraic) return algebraic;
    const char *w = !meth ? NULL : meth->rhs->kind == N_NAME ? meth->rhs->name
                                 : meth->rhs->kind == N_NUM ? meth->rhs->text : NULL;
    return method_word_is_rosenbrock(w) ? meth : NULL;
}

static Model *check_pass(const Program *prog, int precision, bool prefer_loops)
{
    Checker ck, *c = &ck;
    memset(c, 0, sizeof ck);
    Model *m = arena_alloc(sizeof *m);
    c->m = m;
    m->path = prog->path;
    m->name = model_name_from_path(prog->path, &m->name_why);
    set_defaults(m);
    m->single = precision == 1;
    Loc nowhere = {0, 0, 0, 0};
    c->sym_pi = new_symbol(SYM_NUMBER, "pi", nowhere);
    c->sym_pi->value = 3.14159265358979323846;
    c->sym_pi->visiting = 2;
    c->sym_t = new_symbol(SYM_TIME, "t", nowhere);
    c->sym_t0 = new_symbol(SYM_WINDOW, "t0", nowhere);
    c->sym_t1 = new_symbol(SYM_WINDOW, "t1", nowhere);
    c->sym_t1->index = 1;
    c->sym_count = new_symbol(SYM_COUNT, "count", nowhere);

    Node *inits = NULL;
    note_options_files(prog);   /* option FILE: not read, as XPPAUT takes none of its values */
    check_xpp_statements(prog);     /* before the arrays are written out: one message a line */
    const Node *asked = derivatives_asked(prog);
    prog = expand_arrays(prog, asked, prefer_loops, &m->arrays_kept);
    prog = poincare_map(prog);      /* @ poimap=…: an event, a hook, repeat and record */
    prog = parameter_tables(prog);  /* a table of a parameter: its lookup written out per system */
    c->sums_written = asked && !m->arrays_kept;
    declare_all(c, prog, &inits);
    declare_dae(c, prog, &inits);
    fix_table_parameters(c, prog);
    evaluate_numbers(c);
    resolve_functions(c);
    for (Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_TABLE) check_table(c, d);
    check_specials(c);
    resolve_definitions(c);
    evaluate_values(c, prog);
    topo_sort(c, m->funcs, m->nfunc, SYM_FUNC);
    m->derived_order = arena_alloc(sizeof(Symbol *) * (size_t)(m->nderived + 1));
    if (m->nderived) memcpy(m->derived_order, m->derived, sizeof(Symbol *) * (size_t)m->nderived);
    topo_sort(c, m->derived_order, m->nderived, SYM_DERIVED);
    topo_sort(c, m->temps, m->ntemp, SYM_TEMP);
    for (int i = 0; i < m->ntemp; i++) m->temps[i]->index = i;   /* the emitters take index as the place */
    if (!diag_error_count()) note_forward_temps(c);
    evaluate_derived_defaults(c);
    evaluate_initial_values(c, inits);
    if (!diag_error_count()) check_nesting(c);

    Loc dtmin_loc = nowhere, dtmax_loc = nowhere;
    bool repeat_seen = false, save_seen = false;
    const Node *period_line = NULL;
    for (Node *d = prog->decls; d; d = d->next) {   /* before `record`, which may name their fields */
        if (d->kind == D_LYAPUNOV) check_lyapunov(c, d);
        if (d->kind == D_PERIOD) check_period(c, d);
        if (d->kind == D_PERIOD && !period_line) period_line = d;
    }
    for (Node *d = prog->decls; d; d = d->next)   /* after period, whose quantities it shares */
        if (d->kind == D_ATTRACTOR) check_attractor(c, d, period_line);
    for (Node *d = prog->decls; d; d = d->next) {
        switch (d->kind) {
        case D_EVENT: check_event(c, d); break;
        case D_GLOBAL: check_global(c, d); break;
        case D_TOLERANCE: break;   /* after the options: per-state values win over toler/atoler */
        case D_SCAN: check_scan(c, d); break;
        case D_REPEAT: check_repeat(c, d, &repeat_seen); break;
        case D_RECORD: check_record(c, d); break;
        case D_SAVE: check_save(c, d, &save_seen); break;
        case D_OPTIONS:
            for (Node *it = d->items; it; it = it->next) check_option(c, it, &dtmin_loc, &dtmax_loc, precision);
            break;
        case D_SET: check_set(c, d); break;
        default: break;
        }
    }
    for (int i = 0; i < m->nevent; i++)   /* events without tol=, and globals: @ evtol */
        if (m->events[i].tol == 0) m->events[i].tol = m->evtol;
    check_set_methods(c);   /* after every option: the file's method is known */
    bool has_record = false;
    for (Node *d = prog->decls; d; d = d->next) has_record |= d->kind == D_RECORD;
    for (Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_IGNORED && !strcmp(d->name, "only")) check_only(c, d, has_record);
    for (Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_ON) check_on(c, d);
    check_map(c, prog);
    for (int i = 0; i < m->nstate; i++) {
        m->states[i]->rtol = m->toler;
        m->states[i]->atol = m->atoler;
    }
    for (Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_TOLERANCE) check_tolerance(c, d);
    check_noise(c);

    if (m->dtmin > m->dtmax)
        error_at(dtmax_loc.line > dtmin_loc.line ? dtmax_loc : dtmin_loc,
                 "dtmin (%g) is larger than dtmax (%g)", m->dtmin, m->dtmax);
    choose_layout(c);
    if (m->nevent > 64 && !m->loop_form) {
        const char *why = team_cannot(m);
        error_at(m->events[64].sym->loc, "too many events for one thread: at most 64 with @ layout=thread "
                                         "(a team layout, warp or block, has no such limit%s%s)",
                 why ? ", but " : "", why ? why : "");
    }
    const double product = m->nscan ? scan_systems(m) : 1;   /* (no scan line: one system) */
    if (product > 4.0e18)
        error_at(c->last_loc, "the scans describe %.3g systems, more than odegen can count", product);
    if (m->nsave_systems && (double)m->save_systems[m->nsave_systems - 1] >= product)
        error_at(m->save_loc, "save: system %ld is beyond the scan's %.0f system%s (0 to %.0f)",
                 m->save_systems[m->nsave_systems - 1], product, product == 1 ? "" : "s", product - 1);
    if (m->nstate == 0 && diag_error_count() == 0)
        error_file("the model has no equations: write at least one x'=… (or dx/dt=…) line");
    if (!m->nfield) {   /* the default record: the states, and what lyapunov and period compute */
        for (int i = 0; i < m->nstate; i++) PUSH(m->fields, m->nfield, m->states[i]);
        for (int k = 0; k < m->nlyap; k++) PUSH(m->fields, m->nfield, m->lyap_fields[k]);
        if (m->lyap_trace_field) PUSH(m->fields, m->nfield, m->lyap_trace_field);
        if (m->period_field) PUSH(m->fields, m->nfield, m->period_field);
        if (m->attractor_field) PUSH(m->fields, m->nfield, m->attractor_field);
    }
    check_delays(c);
    check_dae(c);
    check_symplectic(c);
    check_recursion(c);
    if (m->single && !diag_error_count()) check_single_precision(prog);
    return diag_error_count() ? NULL : m;
}

static bool declares_scan(const Program *prog)
{
    for (const Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_SCAN) return true;
    return false;
}

/* A model whose array lines are each shorter than ARRAY_LOOP_MIN but declare
 * ARRAY_STATES_MIN states or more together (front/expand.h), or
 * LAYOUT_SMALL_SCAN_STATES or more in a file that declares a scan (the rule
 * may give it a team for a scan of a few systems), is first checked with its
 * arrays kept as loops, its messages held back, and taken so where it checks
 * and the layout's rule then gives it a team (the file names no layout, and
 * nothing keeps it one thread: check/layout.c); otherwise it is checked
 * again with its arrays written out, as any other. */
Model *check_program(const Program *prog, int precision)
{
    const long states = array_mode(prog) == ARRAYS_AUTO && !arrays_stay(prog) ? array_states(prog) : 0;
    if ((states >= ARRAY_STATES_MIN || (states >= LAYOUT_SMALL_SCAN_STATES && declares_scan(prog))) &&
        !derivatives_asked(prog) && diag_hold()) {
        Model *m = check_pass(prog, precision, true);
        const bool take = m && m->arrays_kept && m->layout_from_rule && m->loop_form;
        diag_release(take);
        if (take) return m;
    }
    return check_pass(prog, precision, false);
}
