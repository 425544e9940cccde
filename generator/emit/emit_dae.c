/* emit_dae.c — what templates/dae.h needs of a model with algebraic
 * constraints (`solv`, `0=`: check/dae.c): its constants.  The constraints
 * themselves are the unknowns' rows of the right-hand side (emit.c) and of
 * its Jacobian (emit_jacobian.c); the Newton matrix is factorised by the
 * model's LU (emit_lu.c).
 */
#include "check/method.h"
#include "emit/emitter.h"

bool dae_by_newton(const Model *m)
{
    return m->nalg > 0 && !method_is_rosenbrock(m->method);
}

bool needs_lu(const Model *m)
{
    return method_is_rosenbrock(m->method) || m->nalg > 0;
}

void emit_dae_constants(Emitter *E)
{
    const Model *m = E->m;
    if (!m->nalg) return;
    buf_printf(E->out, "#define ODE_NALG %d                 /* unknowns of the constraints 0=…: the last states (dae.h) */\n",
               m->nalg);
    buf_printf(E->out, "#define ODE_DAE_NEWTON %d           /* %s */\n", dae_by_newton(m),
               dae_by_newton(m) ? "solved by Newton at each right-hand side (an explicit method)"
                                : "integrated with the mass matrix diag(I, 0) (a stiff method)");
    buf_printf(E->out, "#define ODE_NEWT_TOL %s          /* @ newt_tol: Newton stops at sum |g| below it */\n",
               c_literal(m->newt_tol, false));
    buf_printf(E->out, "#define ODE_NEWT_ITER %ld            /* @ newt_iter: Newton's updates, at most */\n", m->newt_iter);
}
