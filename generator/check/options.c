/* options.c — the `@` lines: each option's name matched as XPPAUT matches
 * it (option_names.c), its value checked and written into the model (meth:
 * method.c). */
#include <math.h>

#include "base/util.h"
#include "check/checker.h"
#include "check/method.h"
#include "check/option_names.h"
#include "front/diag.h"

static bool option_number(const Node *it, double *v)
{
    if (it->rhs && it->rhs->kind == N_NUM) {
        *v = it->rhs->num;
        return true;
    }
    if (it->rhs && it->rhs->kind == N_NAME && is_inf_name(it->rhs->name)) {
        *v = INFINITY;
        return true;
    }
    error_at(it->rhs ? it->rhs->loc : it->loc, "option '%s' needs a number", it->name);
    return false;
}

/* Whether the option's value was taken. */
static bool set_positive(const Node *it, double *dst)
{
    double v;
    if (!option_number(it, &v)) return false;
    if (!isfinite(v)) error_at(it->rhs->loc, "%s must be finite", it->name);
    else if (!(v > 0)) error_at(it->rhs->loc, "%s must be positive", it->name);
    else {
        *dst = v;
        return true;
    }
    return false;
}

/* Whether an `@` option is one to act on; notes about the others (XPPAUT's
 * display options, unknown ones, options without a value: XPPAUT ignores
 * them all, and so does odegen, saying so). */
static const char *option_to_use(Node *it)
{
    OptionName on = option_name(it->name);
    if (!it->rhs) {
        note_at(it->name_loc, "option '%s' has no value: ignored, as XPPAUT ignores it", it->name);
        return NULL;
    }
    if (on.ignored && !strcmp(on.xppaut, "jac_eps")) {
        note_at(it->name_loc, "XPPAUT option '%s' (its Newton's finite-difference step) is ignored: odegen's Newton "
                              "on the constraints 0=… uses their exact Jacobian", it->name);
        return NULL;
    }
    if (on.ignored) {
        if (name_eq(on.xppaut, it->name))
            note_at(it->name_loc, "XPPAUT option '%s' is ignored (it concerns XPPAUT's display or tools)", it->name);
        else
            note_at(it->name_loc, "XPPAUT option '%s' (XPPAUT reads it as '%s') is ignored (it concerns XPPAUT's "
                                  "display or tools)", it->name, on.xppaut);
        return NULL;
    }
    const bool strict = option_from_command_line(it);
    if (!on.name || (strict && !on.ignored && !option_spelled_whole(it->name))) {
        Suggest sg;
        suggest_init(&sg, it->name);
        for (const char *const *o = option_suggestions; *o; o++)
            if (!strict || option_name(*o).name) suggest_add(&sg, *o);
        if (strict)   /* not XPPAUT text: nothing to be lenient about */
            error_at(it->name_loc, "unknown option '%s'; odegen's options are %s%s", it->name, option_list_text,
                     suggest_text(&sg));
        else
            note_at(it->name_loc, "unknown option '%s' is ignored, as XPPAUT ignores it (with a warning)%s", it->name,
                    suggest_text(&sg));
        return NULL;
    }
    if (it->spaced)
        note_at(it->loc, "blanks around '=': XPPAUT 6.11 ignores this option (it reads '%s' without a value); "
                         "odegen reads %s=%s", it->name, it->name, it->rhs->kind == N_NUM ? it->rhs->text : it->rhs->name);
    if (on.xppaut && !option_spelled_whole(it->name))
        note_at(it->name_loc, "XPPAUT reads option '%s' as '%s', and so does odegen", it->name, on.xppaut);
    return on.name;
}

void check_option(Checker *c, Node *it, Loc *dtmin_loc, Loc *dtmax_loc, int precision)
{
    Model *m = c->m;
    const char *k = option_to_use(it);
    if (!k) return;
    const char *word = it->rhs && it->rhs->kind == N_NAME ? it->rhs->name : NULL;
    double v;
    if (name_eq(k, "meth") || name_eq(k, "method")) {
        check_method_option(m, it);
        m->method_loc = it->rhs ? it->rhs->loc : it->loc;
    } else if (name_eq(k, "dt")) {
        m->dt_loc = it->loc;
        set_positive(it, &m->dt);
    } else if (name_eq(k, "t0")) {
        if (option_number(it, &v)) {
            if (!isfinite(v)) error_at(it->rhs->loc, "t0 must be finite");
            else m->t0 = v;
        }
    } else if (name_eq(k, "total")) {
        set_positive(it, &m->total);
    } else if (name_eq(k, "toler")) {
        set_positive(it, &m->toler);
    } else if (name_eq(k, "atoler")) {
        set_positive(it, &m->atoler);
    } else if (name_eq(k, "dtmin")) {
        set_positive(it, &m->dtmin);
        *dtmin_loc = it->loc;
    } else if (name_eq(k, "dtmax")) {
        set_positive(it, &m->dtmax);
        *dtmax_loc = it->loc;
    } else if (name_eq(k, "hgrow")) {
        if (option_number(it, &v)) {
            if (!isfinite(v)) error_at(it->rhs->loc, "hgrow must be finite");
            else if (!(v > 1)) error_at(it->rhs->loc, "hgrow must be larger than 1");
            else m->hgrow = v;
        }
    } else if (name_eq(k, "hshrink")) {
        if (option_number(it, &v)) {
            if (!(v > 0 && v < 1)) error_at(it->rhs->loc, "hshrink must lie between 0 and 1");
            else m->hshrink = v;
        }
    } else if (name_eq(k, "evpoints")) {
        if (option_number(it, &v)) {
            if (!(v >= 0 && v <= 64) || !is_integer(v))
                error_at(it->rhs->loc, "evpoints must be a whole number from 0 to 64");
            else
                m->evpoints = (int)v;
        }
    } else if (name_eq(k, "evsteps") || name_eq(k, "maxsteps")) {
        if (option_number(it, &v)) {
            if (!(v >= 1) || !is_integer(v))   /* (is_integer: below 9e18, what a count of steps can hold) */
                error_at(it->rhs->loc, "%s must be a whole number from 1 to 9e18", k);
            else if (name_eq(k, "evsteps")) m->evsteps = v > 2e9 ? 2000000000L : (long)v;
            else m->maxsteps = (long long)v;
        }
    } else if (name_eq(k, "bound") || name_eq(k, "bounds")) {
        set_positive(it, &m->bound);
    } else if (name_eq(k, "newt_tol") || name_eq(k, "newt_iter")) {
        /* the algebraic constraints' Newton (check/dae.c, templates/dae.h) */
        bool taken = false;
        if (name_eq(k, "newt_tol")) {
            taken = set_positive(it, &m->newt_tol);
        } else if (option_number(it, &v)) {
            if (!(v >= 1 && v <= 1e6) || !is_integer(v)) error_at(it->rhs->loc, "newt_iter must be a whole number from 1 to 1000000");
            else {
                m->newt_iter = (long)v;
                taken = true;
            }
        }
        /* XPPAUT 6.11's set_option clears another flag than the one set_all_vals reads, which then
         * puts back the default (load_eqn.c: NEWT_TOL against EVEC_ERR, NEWT_ITER against EVEC_ITER) */
        if (taken && !option_from_command_line(it) && m->nalg)
            note_at(it->name_loc, "XPPAUT 6.11 drops %s given on an @ line and keeps its default (%s; a set {%s=…} "
                                  "keeps it): odegen uses the file's value", k,
                    name_eq(k, "newt_tol") ? "1e-3" : "100", k);
    } else if (name_eq(k, "evtol")) {
        set_positive(it, &m->evtol);
    } else if (name_eq(k, "arrays")) {   /* read by front/expand.c, which writes arrays out or keeps them */
        if (!(word && (name_eq(word, "loop") || name_eq(word, "written") || name_eq(word, "auto"))))
            error_at(it->rhs ? it->rhs->loc : it->loc, "arrays must be loop, written or auto");
    } else if (name_eq(k, "delay")) {   /* the longest delay (check/delay.c) */
        set_positive(it, &m->delay_max);
    } else if (name_eq(k, "layout")) {
        if (word && name_eq(word, "thread")) m->layout = LAYOUT_THREAD;
        else if (word && name_eq(word, "warp")) m->layout = LAYOUT_WARP;
        else if (word && name_eq(word, "block")) m->layout = LAYOUT_BLOCK;
        else if (word && name_eq(word, "auto")) m->layout = -1;
        else error_at(it->rhs ? it->rhs->loc : it->loc, "layout must be thread, warp, block or auto");
        m->layout_loc = it->loc;
    } else if (name_eq(k, "team")) {
        if (option_number(it, &v)) {
            if (!(v >= 1 && v <= 1024) || !is_integer(v)) error_at(it->rhs->loc, "team must be a whole number from 1 to 1024");
            else m->team = (int)v;
        }
        m->team_loc = it->loc;
    } else if (name_eq(k, "seed")) {   /* XPPAUT's: the random numbers' seed (templates/rng.h) */
        if (option_number(it, &v)) {
            if (!(v >= 0 && v < 9007199254740992.0) || !is_integer(v))
                error_at(it->rhs->loc, "seed must be a whole number from 0 to 2^53 - 1");
            else
                m->seed = v;
        }
    } else if (name_eq(k, "noisesub")) {
        if (option_number(it, &v)) {
            if (!(v >= 1 && v <= 65536) || !is_integer(v))
                error_at(it->rhs->loc, "noisesub must be a whole number from 1 to 65536");
            else
                m->noisesub = v;
        }
    } else if (name_eq(k, "prec")) {
        if (word && name_eq(word, "double")) { if (precision < 0) m->single = false; }
        else if (word && name_eq(word, "float")) { if (precision < 0) m->single = true; }
        else error_at(it->rhs ? it->rhs->loc : it->loc, "prec must be double or float");
    }
}
