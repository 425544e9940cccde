/* history.c — d/dt of each initial function x(0)=EXPR of t (see history.h). */
#include "deriv/history.h"

#include "base/arena.h"
#include "deriv/deriv.h"
#include "deriv/expr_build.h"

enum { HISTORY_MAX_NODES = 100000 };
#define HISTORY_MAX_VISITS 3000000LL

HistorySlopes *history_slopes(const Model *m)
{
    HistorySlopes *h = arena_alloc(sizeof *h);
    h->g = xg_new(m->single, HISTORY_MAX_NODES);
    h->slope = arena_alloc(sizeof(XNode *) * (size_t)(m->ndelay + 1));
    h->fail = arena_alloc(sizeof(const char *) * (size_t)(m->ndelay + 1));
    XBuilder b;
    xb_init(&b, h->g, m, NULL);
    XDeriv d;
    xd_init(&d, h->g, HISTORY_MAX_VISITS);
    xd_wrt(&d, xg_var(h->g, XV_TIME, 0, NULL)->var, "t");
    for (int k = 0; k < m->ndelay; k++) {
        const Node *e = m->delayed[k]->hist_expr;
        if (!e) continue;
        XNode *v = xb_expr(&b, e);
        XNode *s = b.failed ? NULL : xd(&d, v);
        if (b.failed || d.failed || h->g->overflow) {
            h->fail[k] = b.failed ? b.fail_msg : d.failed ? d.fail_msg : "the expression is too large";
            b.failed = d.failed = false;
            continue;
        }
        h->slope[k] = s;
    }
    return h;
}
