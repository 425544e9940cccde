/* map.c — a model that is a map (XPPAUT's discrete method): what a map
 * means, and what it does not take.
 *
 * XPPAUT (form_ode.c, main.c, numerics.c do_meth, odesol2.c discrete):
 *   - a line x(t+1)=f makes the whole file a map: the method is discrete
 *     whatever `meth` says, and every right-hand side, x' = g included, is
 *     the state's next value;
 *   - `meth=discrete` on a file of x' = g lines iterates them the same way;
 *   - t starts at t0 and steps by 1 (do_meth sets dt to 1), the right-hand
 *     side reads t before the step; `total` is the number of iterates (its
 *     whole part: integrate.c, nit = total).
 * odegen iterates the same (templates/map.h).  Events and globals, located
 * on a continuous extension, have no meaning between two iterates (XPPAUT's
 * globals on a map interpolate linearly and then iterate the map a second
 * time within one step, flags.c one_flag_step_discrete): refused, as is
 * `save` (a map has no trajectory between iterates; `repeat record=N` with
 * total=1 writes one row per iterate).  `lyapunov` orthonormalises after
 * every iterate unless every= is given.
 */
#include "check/checker.h"
#include "check/method.h"
#include "front/diag.h"

void check_map(Checker *c, const Program *prog)
{
    Model *m = c->m;
    const bool has_map = m->map_loc.line > 0;
    if (has_map && m->method != METH_DISCRETE) {
        if (m->method_loc.line)
            note_at(m->method_loc,
                    "the file is a map (x(t+1)=… at line %d): XPPAUT iterates it with its discrete method whatever "
                    "meth says, and so does odegen",
                    m->map_loc.line);
        m->method = METH_DISCRETE;
    }
    if (m->method != METH_DISCRETE) return;
    for (const Node *d = prog->decls; d; d = d->next) {
        if (d->kind == D_ODE && has_map)
            note_at(d->loc, "in a map, %s' = … is the next value of %s, as XPPAUT reads it: %s(t+1) = …", d->name,
                    d->name, d->name);
        if (d->kind == D_EVENT || d->kind == D_GLOBAL)
            error_at(d->loc, "%s on a map is not supported: a map has no time between two iterates to locate "
                             "a crossing in; test the condition in `on step { if (…) { … } }`, which runs after "
                             "every iterate",
                     d->kind == D_EVENT ? "an event" : "a global");
    }
    if (m->save_every > 0)
        error_at(m->save_loc, "save on a map is not supported: a map has no trajectory between iterates; "
                              "`repeat record=N` with @ total=1 records one row per iterate");
    if (m->dt_loc.line && m->dt != 1)
        note_at(m->dt_loc, "a map steps t by 1 (XPPAUT's discrete sets dt to 1): dt=%g is not used", m->dt);
    m->dt = 1;
    /* The tangent vectors are orthonormalised after every iterate unless
     * every= says otherwise: a window of many iterates would otherwise
     * leave them parallel, or overflow (README, Maps). */
    if (m->nlyap && m->lyap_every == 0) m->lyap_every = 1;
}
