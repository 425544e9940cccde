/* single.c — notes for a model integrated in single precision (`--precision
 * float`, `@ prec=float`): what float cannot hold or reach.
 *
 *  - A literal beyond float's range (`peak = -1e300`, a "minus infinity"
 *    start value) becomes ±infinity in the generated code (emit_expr.c's
 *    c_literal), which is what it means there; a non-zero literal below
 *    float's smallest number becomes 0.  Each gets a note at its place.
 *  - A relative tolerance below what float's rounding lets an error estimate
 *    resolve (about ten units in the last place) cannot be met: results are
 *    not that accurate, and the step control may shrink steps for nothing.
 *    It gets a note too.
 */
#include <float.h>
#include <math.h>

#include "front/diag.h"
#include "check/single.h"
#include "base/util.h"

/* Relative tolerances below this are out of float's reach. */
#define SINGLE_RTOL_FLOOR (10.0 * FLT_EPSILON)

static void literals(const Node *n)
{
    for (; n; n = n->next) {
        if (n->kind == N_NUM && isfinite(n->num)) {
            const double v = fabs(n->num);
            if (v >= 0x1.ffffffp+127)
                note_at(n->loc, "%s is beyond single precision's range (%.3g): it becomes infinity there", n->text,
                        (double)FLT_MAX);
            else if (v > 0 && v < 0x1p-150)
                note_at(n->loc, "%s is below single precision's smallest number: it becomes 0 there", n->text);
        }
        literals(n->lhs);
        literals(n->rhs);
        literals(n->cond);
        literals(n->args);
        literals(n->body);
        literals(n->els);
    }
}

static void tolerance(const Node *it)
{
    const Node *v = it->rhs;
    if (v && v->kind == N_NUM && v->num > 0 && v->num < SINGLE_RTOL_FLOOR)
        note_at(v->loc,
                "a relative tolerance of %s is below what single precision resolves (its rounding is %.2g): "
                "results cannot be that accurate, and the step control may shrink steps for nothing; use "
                "prec=double, or a tolerance of 1e-6 or more",
                v->text, (double)FLT_EPSILON);
}

void check_single_precision(const Program *prog)
{
    for (const Node *d = prog->decls; d; d = d->next) {
        if (d->kind == D_OPTIONS) {
            for (const Node *it = d->items; it; it = it->next)
                if (it->name && name_eq(it->name, "toler")) tolerance(it);
            continue;
        }
        if (d->kind == D_TOLERANCE) {
            for (const Node *it = d->items; it; it = it->next)
                if (it->name && name_eq(it->name, "rtol")) tolerance(it);
            continue;
        }
        if (d->kind == D_SCAN || d->kind == D_REPEAT || d->kind == D_SAVE || d->kind == D_LYAPUNOV ||
            d->kind == D_PERIOD || d->kind == D_ATTRACTOR)
            continue;   /* host-side values (and statement options) */
        literals(d->rhs);
        literals(d->cond);
        literals(d->items);
        literals(d->body);
    }
}
