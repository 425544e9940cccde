/* statements.c — the run's statements: tolerance, scan, table, set,
 * repeat and save; each checked and written into the model. */
#include <math.h>
#include <string.h>

#include "base/arena.h"
#include "base/input_limits.h"
#include "base/util.h"
#include "check/checker.h"
#include "check/method.h"
#include "check/option_names.h"
#include "check/tables.h"
#include "front/diag.h"

void check_tolerance(Checker *c, Node *d)
{
    double rtol = -1, atol = -1, v;
    for (Node *it = d->items; it; it = it->next) {
        if (name_eq(it->name, "rtol") && const_value(c, it->rhs, "rtol", &v)) {
            if (!(v > 0)) error_at(it->rhs->loc, "rtol must be positive");
            else rtol = v;
        } else if (name_eq(it->name, "atol") && const_value(c, it->rhs, "atol", &v)) {
            if (!(v > 0)) error_at(it->rhs->loc, "atol must be positive");
            else atol = v;
        } else if (!name_eq(it->name, "rtol") && !name_eq(it->name, "atol")) {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_add(&sg, "rtol");
            suggest_add(&sg, "atol");
            error_at(it->name_loc, "unknown tolerance '%s'%s (write rtol=… and atol=…)", it->name,
                     suggest_text(&sg));
        }
    }
    for (Node *a = d->args; a; a = a->next) {
        Symbol *s = symtab_get(&c->tab, a->name);
        if (!s || s->kind != SYM_STATE) {
            Suggest sg;
            suggest_init(&sg, a->name);
            suggest_symbols(c, &sg, BIT(SYM_STATE));
            if (s) error_at(a->loc, "'%s' is %s; tolerances are given to states", a->name, kind_phrase(s->kind));
            else error_at(a->loc, "unknown state '%s'%s", a->name, suggest_text(&sg));
            continue;
        }
        if (rtol > 0) s->rtol = rtol;
        if (atol > 0) s->atol = atol;
    }
}

void check_scan(Checker *c, Node *d)
{
    Model *m = c->m;
    Symbol *s = symtab_get(&c->tab, d->name);
    if (!s) {
        Suggest sg;
        suggest_init(&sg, d->name);
        suggest_symbols(c, &sg, BIT(SYM_PARAM) | BIT(SYM_STATE));
        if (!sg.best) suggest_glued_keyword(c, &sg);
        error_at(d->name_loc, "unknown name '%s'%s", d->name, suggest_text(&sg));
        return;
    }
    if (s->kind != SYM_PARAM && s->kind != SYM_STATE) {
        error_at(d->name_loc, "'%s' is %s; a scan varies a parameter or a state's initial value", d->name,
                 kind_phrase(s->kind));
        return;
    }
    for (int i = 0; i < m->nscan; i++)
        if (m->scans[i].target == s) {
            error_at(d->name_loc, "'%s' is already scanned at line %d", d->name, m->scans[i].line);
            return;
        }
    Node *f = d->rhs;
    Scan sc;
    memset(&sc, 0, sizeof sc);
    sc.target = s;
    sc.line = d->loc.line;
    sc.loc = d->loc;
    if (!f || f->kind != N_CALL) {
        error_at(f ? f->loc : d->loc, "a scan is lin(first, last, n), log(first, last, n) or list(v1, v2, …)");
        return;
    }
    int nargs = list_length(f->args);
    if (name_eq(f->name, "list")) {
        if (nargs < 1) {
            error_at(f->loc, "list() needs at least one value");
            return;
        }
        sc.kind = SCAN_LIST;
        sc.n = nargs;
        sc.values = arena_alloc(sizeof(double) * (size_t)nargs);
        int k = 0;
        for (Node *a = f->args; a; a = a->next)
            if (!const_value(c, a, "a scan value", &sc.values[k++])) return;
    } else if (name_eq(f->name, "lin") || name_eq(f->name, "log")) {
        sc.kind = name_eq(f->name, "lin") ? SCAN_LIN : SCAN_LOG;
        if (nargs != 3) {
            error_at(f->loc, "%s() takes 3 arguments (first, last, n), not %d", f->name, nargs);
            return;
        }
        double n;
        if (!const_value(c, f->args, "a scan's first value", &sc.a) ||
            !const_value(c, f->args->next, "a scan's last value", &sc.b) ||
            !const_value(c, f->args->next->next, "a scan's count", &n))
            return;
        if (!(n >= 1) || !is_integer(n) || n > 4.0e18) {
            error_at(f->args->next->next->loc, "the number of values must be a whole number of at least 1");
            return;
        }
        sc.n = (long)n;
        if (sc.kind == SCAN_LOG && !(sc.a > 0 && sc.b > 0)) {
            error_at(f->loc, "a log scan needs two positive ends: [%g, %g] %s", sc.a, sc.b,
                     sc.a * sc.b <= 0 ? "contains 0" : "is negative");
            return;
        }
    } else {
        Suggest sg;
        suggest_init(&sg, f->name);
        suggest_add(&sg, "lin");
        suggest_add(&sg, "log");
        suggest_add(&sg, "list");
        error_at(f->name_loc, "unknown scan '%s'%s (scans are lin, log and list)", f->name, suggest_text(&sg));
        return;
    }
    PUSH(m->scans, m->nscan, sc);
}

/* ------------------------------------------------------------------ parameters of tables */

/* A parameter that a table's formula reads (directly, or in the body of a
 * function it calls) becomes a number: odegen computes a table once, when it
 * translates, so the parameter cannot change from system to system without
 * the table going stale.  XPPAUT recomputes its tables when a parameter
 * changes; with its values as declared the tables are the same (a real
 * network file: XPPAUT's wcnet.ode, its kernels' widths).  Scanning or
 * setting the parameter is then refused as for any number. */
static void table_params(Checker *c, const Node *n, const Node *table, const Symbol *func, int depth)
{
    if (!n || depth > 64) return;
    if (n->kind == N_NAME || n->kind == N_CALL) {
        bool arg = false;
        for (int k = 0; func && k < func->nargs; k++) arg |= name_eq(func->args[k]->name, n->name);
        Symbol *s = arg ? NULL : symtab_get(&c->tab, n->name);
        if (s && s->kind == SYM_PARAM && n->kind == N_NAME) {
            Model *m = c->m;
            note_at(s->loc, "parameter '%s' is read by table '%s' (line %d), which odegen computes when it "
                            "translates the file: '%s' is a constant here, as a number (XPPAUT recomputes the table "
                            "when the parameter changes: change it in the file)",
                    s->name, table->name, table->loc.line, s->name);
            for (int i = s->index + 1; i < m->nparam; i++) {   /* out of the parameters, into the numbers */
                m->params[i - 1] = m->params[i];
                m->params[i - 1]->index = i - 1;
            }
            m->nparam--;
            s->kind = SYM_NUMBER;
            s->index = m->nnumber;
            PUSH(m->numbers, m->nnumber, s);
        }
        if (s && s->kind == SYM_FUNC && n->kind == N_CALL) table_params(c, s->expr, table, s, depth + 1);
    }
    table_params(c, n->lhs, table, func, depth + 1);
    table_params(c, n->rhs, table, func, depth + 1);
    table_params(c, n->cond, table, func, depth + 1);
    for (const Node *a = n->args; a; a = a->next) table_params(c, a, table, func, depth + 1);
}

void fix_table_parameters(Checker *c, const Program *prog)
{
    for (const Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_TABLE && !d->text && d->rhs) table_params(c, d->rhs, d, NULL, 0);
}

/* table f % NPTS XLO XHI FORMULA: the formula at t = XLO + i (XHI - XLO) / (NPTS - 1);
 * table f FILE: the file's values. */
void check_table(Checker *c, Node *d)
{
    Symbol *s = symtab_get(&c->tab, d->name);
    if (!s || s->kind != SYM_TABLE || s->loc.line != d->name_loc.line || s->loc.col != d->name_loc.col)
        return;   /* its declaration failed and was reported */
    Table *t = &c->m->tables[s->table];
    if (d->text && d->text[0] == '@') {
        error_at(d->loc, "XPPAUT's two-dimensional tables (table %s @ …) are not supported: write the function as "
                         "an expression, or as one-dimensional tables", d->name);
        return;
    }
    if (d->text) {
        table_read_file(t, c->m->path, d->text, d->loc);
        return;
    }
    const Node *np = d->items, *lo = np->next, *hi = lo->next;
    if (np->num > TABLE_MAX_POINTS && isfinite(np->num)) {
        error_at(np->loc, "a table has at most " TABLE_MAX_POINTS_TEXT " values (odegen's limit), not %.6g", np->num);
        return;
    }
    if (!(np->num >= 2 && np->num <= TABLE_MAX_POINTS && np->num == floor(np->num))) {
        error_at(np->loc, "a table's number of values is a whole number from 2 to " TABLE_MAX_POINTS_TEXT
                          " (table f %% NPTS XLO XHI FORMULA)");
        return;
    }
    if (!(lo->num < hi->num) || !isfinite(lo->num) || !isfinite(hi->num)) {
        error_at(lo->loc, "the table's range [%g, %g] must be finite and go upwards", lo->num, hi->num);
        return;
    }
    Ctx x = ctx_make(READ_CONST | BIT(SYM_TIME) | BIT(SYM_FUNC), "a table's formula",
                     "; a table's formula is a function of t (its x), numbers, parameters (which become numbers) "
                     "and functions of these: odegen computes it once, when it translates the file");
    int before = diag_error_count();
    resolve_expr(c, d->rhs, &x);
    if (diag_error_count() != before) return;   /* (a function that reads a state or t is refused there) */
    t->n = (int)np->num;
    t->xlo = lo->num;
    t->xhi = hi->num;
    t->dx = (hi->num - lo->num) / (np->num - 1);
    t->y = arena_alloc(sizeof(double) * (size_t)t->n);
    if (has_random_call(d->rhs)) {   /* drawn with the file's seed, once the options are read (noise.c) */
        t->random = d->rhs;
        return;
    }
    c->eval_t = true;
    c->eval_defaults = true;   /* (functions are evaluated at their arguments) */
    for (int i = 0; i < t->n; i++) {
        c->t_value = t->dx * i + t->xlo;
        if (!eval_const(c, d->rhs, &t->y[i]) || !isfinite(t->y[i])) {
            error_at(d->rhs->loc, "the table's formula is not a finite number at t = %.17g", c->t_value);
            break;
        }
    }
    c->eval_t = false;
    c->eval_defaults = false;
}

/* set NAME {a=1, x=0.5}: values of parameters and initial values, chosen
 * together with the runner's --set-name NAME. */
/* An XPPAUT option inside a set (`set vvst {total=100, xlo=0, iapp=.1}`):
 * XPPAUT gives a set's name to a state, else a parameter, else takes it for
 * an option (load_eqn.c, do_intern_set).  The run-time options become items
 * of the set (the runner applies them as --set does), the display's are
 * ignored with a note; true when the item was an option (said or kept). */
static bool set_option(Checker *c, ParamSet *ps, Node *it)
{
    static const char *const runtime[] = {"dt", "t0", "total", "toler", "atoler", "dtmin", "dtmax", "bound", NULL};
    OptionName on = option_name(it->name);
    if (on.ignored) {
        note_at(it->name_loc, "XPPAUT option '%s' in a set is ignored (it concerns XPPAUT's display or tools)",
                it->name);
        return true;
    }
    if (!on.name) return false;
    bool runs = false;
    for (const char *const *r = runtime; *r; r++) runs |= name_eq(*r, on.name);
    if (name_eq(on.name, "meth")) {   /* checked against the file's method once all is read */
        PUSH(c->set_meths, c->nset_meth, it);
        return true;
    }
    if (!runs) {
        error_at(it->name_loc, "XPPAUT option '%s' in a set: odegen fixes %s when it translates the file; a set "
                               "gives parameters, initial values and the run-time options dt, t0, total, toler, "
                               "atoler, dtmin, dtmax and bound", it->name, on.name);
        return true;
    }
    for (int k = 0; k < ps->n; k++)
        if (!ps->targets[k] && name_eq(ps->options[k], on.name)) {
            error_at(it->name_loc, "'%s' is given twice in the set '%s'", on.name, ps->name);
            return true;
        }
    double v;
    if (!const_value(c, it->rhs, "a set's value", &v)) return true;
    if (!isfinite(v) || (!name_eq(on.name, "t0") && !(v > 0))) {
        error_at(it->rhs->loc, "%s must be %s", on.name, name_eq(on.name, "t0") ? "finite" : "positive and finite");
        return true;
    }
    ps->targets[ps->n] = NULL;
    ps->options[ps->n] = on.name;
    ps->values[ps->n++] = v;
    return true;
}

/* A set's meth (`set period {…, meth=8}`, XPPAUT's r3b.ode): XPPAUT
 * integrates the set with that method.  odegen fixes the method when it
 * translates the file: a set's meth that names the same method is that
 * method; another is an error that says how to translate the file for it. */
void check_set_methods(Checker *c)
{
    for (int i = 0; i < c->nset_meth; i++) {
        const Node *it = c->set_meths[i];
        Model asked = *c->m;
        int before = diag_error_count();
        check_method_option(&asked, it);
        if (diag_error_count() != before || asked.method == c->m->method) continue;
        const char *word = it->rhs->kind == N_NAME ? it->rhs->name : it->rhs->kind == N_NUM ? it->rhs->text : "";
        error_at(it->rhs->loc, "the set asks for the method %s (meth=%s), and the file is translated with %s: odegen "
                               "fixes the method when it translates the file; to run this set as XPPAUT does, "
                               "translate with --option meth=%s",
                 method_name(asked.method), word, method_name(c->m->method), method_name(asked.method));
    }
}

void check_set(Checker *c, Node *d)
{
    Model *m = c->m;
    for (int i = 0; i < m->nset; i++)
        if (name_eq(m->sets[i].name, d->name)) {
            error_at(d->name_loc, "the set '%s' is already defined at line %d", d->name, m->sets[i].line);
            return;
        }
    ParamSet ps;
    memset(&ps, 0, sizeof ps);
    ps.name = d->name;
    ps.line = d->loc.line;
    int n = list_length(d->items);
    ps.targets = arena_alloc(sizeof(Symbol *) * (size_t)(n + 1));
    ps.options = arena_alloc(sizeof(char *) * (size_t)(n + 1));
    ps.values = arena_alloc(sizeof(double) * (size_t)(n + 1));
    for (Node *it = d->items; it; it = it->next) {
        Symbol *s = symtab_get(&c->tab, it->name);
        if (!s && set_option(c, &ps, it)) continue;
        if (!s) {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_symbols(c, &sg, BIT(SYM_PARAM) | BIT(SYM_STATE));
            error_at(it->name_loc, "unknown name '%s'%s", it->name, suggest_text(&sg));
            continue;
        }
        if (s->kind != SYM_PARAM && s->kind != SYM_STATE) {
            error_at(it->name_loc, "'%s' is %s; a set gives values to parameters and initial values of states",
                     it->name, kind_phrase(s->kind));
            continue;
        }
        bool dup = false;
        for (int k = 0; k < ps.n; k++) dup |= ps.targets[k] == s;
        if (dup) {
            error_at(it->name_loc, "'%s' is given twice in the set '%s'", it->name, d->name);
            continue;
        }
        double v;
        if (!const_value(c, it->rhs, "a set's value", &v)) continue;
        ps.targets[ps.n] = s;
        ps.values[ps.n++] = v;
    }
    PUSH(m->sets, m->nset, ps);
}

void check_repeat(Checker *c, Node *d, bool *seen)
{
    if (*seen) {
        error_at(d->loc, "'repeat' is given twice");
        return;
    }
    *seen = true;
    for (Node *it = d->items; it; it = it->next) {
        double v;
        bool tr = name_eq(it->name, "transient"), rec = name_eq(it->name, "record");
        if (!tr && !rec) {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_add(&sg, "transient");
            suggest_add(&sg, "record");
            error_at(it->name_loc, "unknown repeat option '%s'%s (write transient=N, record=M)", it->name,
                     suggest_text(&sg));
            continue;
        }
        if (!const_value(c, it->rhs, tr ? "transient" : "record", &v)) continue;
        if (!(v >= 0) || !is_integer(v) || v > 1e9) {
            error_at(it->rhs->loc, "%s must be a whole number from 0 to 10^9", it->name);
            continue;
        }
        if (tr) c->m->transient = (long)v;
        else c->m->record = (long)v;
    }
}

/* `save every=DT [, systems=list(i, j, …)] [, max=N]` (SPEC §2): a positive
 * interval, the scan indices of the systems whose samples are kept (default
 * all) and the samples kept per integration (default: from the window). */
void check_save(Checker *c, Node *d, bool *seen)
{
    Model *m = c->m;
    if (*seen) {
        error_at(d->loc, "'save' is given twice");
        return;
    }
    *seen = true;
    m->save_loc = d->loc;
    bool every_seen = false;
    for (Node *it = d->items; it; it = it->next) {
        double v;
        if (name_eq(it->name, "every")) {
            every_seen = true;
            if (!const_value(c, it->rhs, "every", &v)) continue;
            if (!(v > 0)) error_at(it->rhs->loc, "every must be positive (the time between samples)");
            else m->save_every = v;
        } else if (name_eq(it->name, "max")) {
            if (!const_value(c, it->rhs, "max", &v)) continue;
            if (!(v >= 1 && v <= 1e9) || !is_integer(v))
                error_at(it->rhs->loc, "max (samples kept per integration) must be a whole number from 1 to 10^9");
            else m->save_max = (long)v;
        } else if (name_eq(it->name, "systems")) {
            Node *list = it->rhs;
            if (list) m->save_loc = list->loc;
            Node *one = list && list->kind == N_CALL && name_eq(list->name, "list") ? list->args : list;
            if (list && list->kind == N_CALL && !name_eq(list->name, "list")) {
                error_at(list->loc, "systems takes list(i, j, …) of system numbers");
                continue;
            }
            for (Node *a = one; a; a = a == list ? NULL : a->next) {
                if (!const_value(c, a, "a system number", &v)) continue;
                if (!(v >= 0) || !is_integer(v)) {
                    error_at(a->loc, "a system number is a whole number from 0 (its index in the scan)");
                    continue;
                }
                long k = (long)v, at = m->nsave_systems;
                while (at > 0 && m->save_systems[at - 1] > k) at--;
                if (at > 0 && m->save_systems[at - 1] == k) {
                    error_at(a->loc, "system %ld is listed twice", k);
                    continue;
                }
                PUSH(m->save_systems, m->nsave_systems, k);
                memmove(m->save_systems + at + 1, m->save_systems + at,
                        sizeof(long) * (size_t)(m->nsave_systems - 1 - at));
                m->save_systems[at] = k;
            }
        } else {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_add(&sg, "every");
            suggest_add(&sg, "systems");
            suggest_add(&sg, "max");
            error_at(it->name_loc, "unknown save option '%s'%s (write every=DT and, optionally, systems=list(i, j, …) "
                     "and max=N)",
                     it->name, suggest_text(&sg));
        }
    }
    if (!every_seen) error_at(d->loc, "save needs every=DT, the time between samples");
}
