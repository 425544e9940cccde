/* outputs.c — what a run computes and records: `lyapunov N` and `period`
 * (their fields lyap1 … lyapN and period), and `record` (the fields written,
 * and the events that trigger a record). */
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/util.h"
#include "check/checker.h"
#include "front/diag.h"

/* A field that a statement adds (lyap1 … lyapN, period) under a name no
 * declaration may hold. */
Symbol *output_field(Checker *c, SymKind kind, const char *name, int index, Loc loc, const char *statement)
{
    Symbol *old = symtab_get(&c->tab, name);
    if (old)
        error_at(old->loc, "'%s' is declared here as %s, but `%s` records its result under that name; rename it",
                 name, kind_phrase(old->kind), statement);
    Symbol *s = new_symbol(kind, name, loc);
    s->index = index;
    return s;
}

void check_option_names(const Node *it, const char *statement, const char *const *names, const char *usage)
{
    Suggest sg;
    suggest_init(&sg, it->name);
    for (const char *const *n = names; *n; n++) suggest_add(&sg, *n);
    error_at(it->name_loc, "unknown %s option '%s'%s (%s)", statement, it->name, suggest_text(&sg), usage);
}

/* `lyapunov N [, every=T]` (SPEC §2): 1 ≤ N ≤ the number of states, T > 0. */
void check_lyapunov(Checker *c, Node *d)
{
    Model *m = c->m;
    if (m->lyap_loc.line) {
        error_at(d->loc, "'lyapunov' is given twice (first at line %d)", m->lyap_loc.line);
        return;
    }
    m->lyap_loc = d->loc;
    static const char *const names[] = {"every", NULL};
    for (Node *it = d->items; it; it = it->next) {
        if (!name_eq(it->name, "every")) {
            check_option_names(it, "lyapunov", names, "write lyapunov N, every=T");
            continue;
        }
        double every;
        if (!const_value(c, it->rhs, "every", &every)) continue;
        if (!(every > 0)) error_at(it->rhs->loc, "every must be positive (the time between re-orthonormalisations)");
        else m->lyap_every = every;
    }
    double v;
    if (!d->rhs) {
        error_at(d->loc, "lyapunov needs the number of exponents: lyapunov N [, every=T], 1 <= N <= %d (the states)",
                 m->nstate);
        return;
    }
    if (!const_value(c, d->rhs, "the number of Lyapunov exponents", &v)) return;
    if (!is_integer(v) || v < 1 || v > m->nstate) {
        error_at(d->rhs->loc, "the number of Lyapunov exponents is a whole number from 1 to %d (the model's states)",
                 m->nstate);
        return;
    }
    m->nlyap = (int)v;
    m->lyap_fields = arena_alloc(sizeof(Symbol *) * (size_t)m->nlyap);
    for (int k = 0; k < m->nlyap; k++)
        m->lyap_fields[k] = output_field(c, SYM_LYAP, arena_printf("lyap%d", k + 1), k, d->loc, "lyapunov");
    /* With the whole spectrum, the error of its sum against the mean trace of
     * the Jacobian (templates/tangent.h). */
    if (m->nlyap == m->nstate)
        m->lyap_trace_field = output_field(c, SYM_LYAP, "lyap_trace_err", m->nlyap, d->loc, "lyapunov");
}

/* The quantity a name of `record` or `period` stands for.  An aux may carry
 * the name of an earlier declaration (`aux V=v`, `aux Ica=…` beside a function
 * ica, the same aux twice: declare_shadowing_aux), and XPPAUT writes a column
 * for each: the name is the first declaration where that is a quantity of
 * `kinds`, and each further mention of the name is the next aux of that name,
 * in the order of XPPAUT's columns (`record v, V` writes the state, then the
 * aux).  `taken`: the quantities already listed. */
static Symbol *output_symbol(Checker *c, const char *name, unsigned kinds, Symbol *const *taken, int ntaken)
{
    Model *m = c->m;
    Symbol *first = lookup(c, name, &(Ctx){0});
    Symbol *cand = first && (kinds & BIT(first->kind)) ? first : NULL;
    for (int i = -1; i < m->naux; i++) {
        Symbol *s = i < 0 ? cand : m->aux[i];
        if (!s || (i >= 0 && !(s->shadowed && name_eq(s->name, name)))) continue;
        bool listed = false;
        for (int k = 0; k < ntaken; k++) listed |= taken[k] == s;
        if (!listed) return s;
    }
    return first;
}

/* A quantity `period` (or `attractor`) compares: a state, aux or accessory. */
static void period_quantity(Checker *c, PeriodSpec *ps, Node *it, Node *name, const char *statement)
{
    Loc at = name == it ? it->name_loc : name->loc;
    const char *word = name == it ? it->name : name->name;
    if (name->kind != N_NAME && name != it) {
        error_at(name->loc, "of= takes names of states, aux quantities or accessories");
        return;
    }
    Symbol *s = output_symbol(c, word, BIT(SYM_STATE) | BIT(SYM_AUX) | BIT(SYM_ACC), ps->of, ps->nof);
    if (!s || s->kind == SYM_COUNT) {
        Suggest sg;
        suggest_init(&sg, word);
        suggest_symbols(c, &sg, BIT(SYM_STATE) | BIT(SYM_AUX) | BIT(SYM_ACC));
        error_at(at, "unknown name '%s'%s", word, suggest_text(&sg));
        return;
    }
    if (s->kind != SYM_STATE && s->kind != SYM_AUX && s->kind != SYM_ACC) {
        error_at(at, "'%s' is %s; %s compares quantities that change from one integration to the next "
                     "(states, aux quantities, accessories)", word, kind_phrase(s->kind), statement);
        return;
    }
    for (int i = 0; i < ps->nof; i++)
        if (ps->of[i] == s) {
            error_at(at, "'%s' is listed twice", word);
            return;
        }
    PUSH(ps->of, ps->nof, s);
}

/* The items of a `period` or `attractor` line: of=NAME, …, tol=T, max=P
 * into *ps; an item named in `extra` is left in extra_items[k] (its rhs
 * checked by the caller); any other name is an error listing `names`. */
void check_period_items(Checker *c, Node *d, PeriodSpec *ps, const char *statement, const char *const *names,
                        const char *usage, const char *const *extra, Node **extra_items)
{
    memset(ps, 0, sizeof *ps);
    ps->tol = 1e-6;
    ps->max = 64;
    bool in_of = false;
    for (Node *it = d->items; it; it = it->next) {
        double v;
        if (!it->rhs) {   /* a name after of=… */
            if (in_of) period_quantity(c, ps, it, it, statement);
            else error_at(it->loc, "'%s' without a value: the quantities are listed after of= (%s)", it->name, usage);
            continue;
        }
        in_of = name_eq(it->name, "of");
        int k = 0;
        while (extra && extra[k] && !name_eq(it->name, extra[k])) k++;
        if (in_of) {
            ps->of_loc = it->name_loc;
            period_quantity(c, ps, it, it->rhs, statement);
        } else if (name_eq(it->name, "tol")) {
            ps->tol_loc = it->name_loc;
            if (!const_value(c, it->rhs, "tol", &v)) continue;
            if (!(v > 0)) error_at(it->rhs->loc, "tol must be positive (relative above 1, absolute below)");
            else ps->tol = v;
        } else if (name_eq(it->name, "max")) {
            ps->max_loc = it->name_loc;
            if (!const_value(c, it->rhs, "max", &v)) continue;
            if (!is_integer(v) || v < 1 || v > 64)
                error_at(it->rhs->loc, "max (the longest period looked for) is a whole number from 1 to 64");
            else ps->max = (int)v;
        } else if (extra && extra[k]) {
            extra_items[k] = it;
        } else {
            check_option_names(it, statement, names, usage);
        }
    }
    if (!ps->nof)
        for (int i = 0; i < c->m->nstate; i++) PUSH(ps->of, ps->nof, c->m->states[i]);
}

/* What the ring of period.h compares: `period`'s quantities, or `attractor`'s. */
void use_period_spec(Model *m, const PeriodSpec *ps)
{
    m->period_on = true;
    m->period_of = ps->of;
    m->nperiod_of = ps->nof;
    m->period_tol = ps->tol;
    m->period_max = ps->max;
}

/* `period [of=NAME, …] [, tol=1e-6] [, max=64]` (SPEC §2). */
void check_period(Checker *c, Node *d)
{
    Model *m = c->m;
    if (m->period_field) {
        error_at(d->loc, "'period' is given twice (first at line %d)", m->period_loc.line);
        return;
    }
    m->period_loc = d->loc;
    static const char *const names[] = {"of", "tol", "max", NULL};
    PeriodSpec ps;
    check_period_items(c, d, &ps, "period", names, "write period of=NAME, …, tol=T, max=P", NULL, NULL);
    use_period_spec(m, &ps);
    m->period_field = output_field(c, SYM_PERIOD, "period", 0, d->loc, "period");
}

/* lyap1 … lyapN, lyap_trace_err, period and attractor, where the statements make them. */
static Symbol *statement_field(const Model *m, const char *name)
{
    for (int k = 0; k < m->nlyap; k++)
        if (name_eq(m->lyap_fields[k]->name, name)) return m->lyap_fields[k];
    if (m->lyap_trace_field && name_eq(name, "lyap_trace_err")) return m->lyap_trace_field;
    if (m->period_field && name_eq(name, "period")) return m->period_field;
    if (m->attractor_field && name_eq(name, "attractor")) return m->attractor_field;
    return NULL;
}

/* XPPAUT's `only x,y` (form_ode.c, break_up_list; browse.c writes the rows):
 * XPPAUT -silent writes only these columns, in this order, t among them only
 * where listed; a name that is not t, a state or an aux is skipped.  Without
 * a `record` line it is odegen's record; with one, the record wins.  The
 * names are the rest of the line, split at blanks and commas as XPPAUT
 * splits them (the parser skips the line). */
void check_only(Checker *c, const Node *d, bool has_record)
{
    if (has_record) {
        note_at(d->loc, "XPPAUT's 'only' is ignored: the file's `record` line says what odegen writes");
        return;
    }
    Loc rest = {d->loc.line, d->loc.end_col + 1, d->loc.line, 1 << 30};
    const char *text = diag_source_text(rest);
    Node *names = NULL;
    char *line = arena_strndup(text, strcspn(text, "#"));
    const char *kept = "";
    for (char *w = strtok(line, " \t\r,"); w; w = strtok(NULL, " \t\r,")) {
        Symbol *s = name_eq(w, "t") ? NULL : symtab_get(&c->tab, w);
        if (!name_eq(w, "t") && (!s || (s->kind != SYM_STATE && s->kind != SYM_AUX))) {
            note_at(d->loc, "XPPAUT's 'only' skips '%s': it writes t, states and aux only", w);
            continue;
        }
        names = ast_append(names, ast_name(d->loc, w));
        kept = arena_printf("%s%s%s", kept, *kept ? ", " : "", w);
    }
    if (!names) return;
    note_at(d->loc, "XPPAUT's 'only' writes the columns %s: odegen records them (as `record %s`)", kept, kept);
    Node *rec = ast_new(D_RECORD, d->loc);
    rec->args = names;
    check_record(c, rec);
}

void check_record(Checker *c, Node *d)
{
    Model *m = c->m;
    for (Node *a = d->args; a; a = a->next) {
        Symbol *s = output_symbol(c, a->name, BIT(SYM_STATE) | BIT(SYM_AUX) | BIT(SYM_ACC) | BIT(SYM_PARAM) |
                                                  BIT(SYM_DERIVED), m->fields, m->nfield);
        if (!s) s = statement_field(m, a->name);
        if (!s && m->lyap_loc.line && !strncasecmp(a->name, "lyap", 4)) {
            if (m->nlyap && name_eq(a->name, "lyap_trace_err"))
                error_at(a->loc, "'lyap_trace_err' is not computed: it needs the whole spectrum, lyapunov %d (the "
                                 "states), and the lyapunov line (line %d) asks for %d", m->nstate, m->lyap_loc.line,
                         m->nlyap);
            else if (m->nlyap)   /* (else lyapunov's own error said enough) */
                error_at(a->loc, "'%s' is not computed: the lyapunov line (line %d) gives lyap1 … lyap%d", a->name,
                         m->lyap_loc.line, m->nlyap);
            continue;
        }
        if (!s || s->kind == SYM_COUNT) {
            Suggest sg;
            suggest_init(&sg, a->name);
            suggest_symbols(c, &sg, BIT(SYM_STATE) | BIT(SYM_AUX) | BIT(SYM_ACC) | BIT(SYM_PARAM) |
                                        BIT(SYM_DERIVED));
            if (!sg.best) suggest_glued_keyword(c, &sg);
            error_at(a->loc, "unknown name '%s'%s", a->name, suggest_text(&sg));
            continue;
        }
        if (s->kind == SYM_TEMP) {
            error_at(a->loc, "'%s' is a temporary and cannot be recorded; declare it with aux", a->name);
            continue;
        }
        if (s->kind == SYM_NUMBER || s->kind == SYM_FUNC || s->kind == SYM_EVENT || s->kind == SYM_TABLE) {
            error_at(a->loc, "'%s' is %s and cannot be recorded", a->name, kind_phrase(s->kind));
            continue;
        }
        bool dup = false;
        for (int i = 0; i < m->nfield; i++) dup |= m->fields[i] == s;
        if (dup) {
            error_at(a->loc, "'%s' is recorded twice", a->name);
            continue;
        }
        PUSH(m->fields, m->nfield, s);
    }
}
