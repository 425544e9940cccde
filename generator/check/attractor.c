/* attractor.c — `attractor [of=NAME, …] [, tol=T] [, max=P] [, dist=D] [, match=M]`
 * (README, "Attractors and basins"): the field `attractor` (each system's
 * label) and the constants of its fingerprint.  It shares period.h's ring
 * and period: with a `period` line too, that line's quantities, tol and max
 * are used, and giving them again here is an error (one ring, one meaning). */
#include <math.h>

#include "base/util.h"
#include "check/checker.h"
#include "front/diag.h"

void check_attractor(Checker *c, Node *d, const Node *period_line)
{
    Model *m = c->m;
    if (m->attractor_field) {
        error_at(d->loc, "'attractor' is given twice (first at line %d)", m->attractor_loc.line);
        return;
    }
    m->attractor_loc = d->loc;
    m->attractor_dist = 0.05;
    m->attractor_match = INFINITY;
    static const char *const names[] = {"of", "tol", "max", "dist", "match", NULL};
    static const char *const extra[] = {"dist", "match", NULL};
    Node *extra_items[2] = {NULL, NULL};
    PeriodSpec ps;
    check_period_items(c, d, &ps, "attractor", names, "write attractor of=NAME, …, tol=T, max=P, dist=D, match=M",
                       extra, extra_items);
    double v;
    if (extra_items[0] && const_value(c, extra_items[0]->rhs, "dist", &v)) {
        if (!(v > 0) || !(v < 1e300))
            error_at(extra_items[0]->rhs->loc, "dist must be positive and finite (relative above 1, absolute below)");
        else m->attractor_dist = v;
    }
    if (extra_items[1] && const_value(c, extra_items[1]->rhs, "match", &v)) {
        if (!(v > 0))
            error_at(extra_items[1]->rhs->loc, "match must be positive (the largest distance between attractors "
                                               "at neighbouring parameter values taken as one)");
        else m->attractor_match = v;
    }
    if (period_line) {
        const Loc given = ps.of_loc.line ? ps.of_loc : ps.tol_loc.line ? ps.tol_loc : ps.max_loc;
        if (given.line)
            error_at(given, "with a `period` line (line %d) attractor compares its quantities with its tol and max; "
                            "give of=, tol= and max= there only", period_line->loc.line);
    } else {
        use_period_spec(m, &ps);
    }
    m->attractor_field = output_field(c, SYM_ATTRACTOR, "attractor", 0, d->loc, "attractor");
}
