/* emit_tables.c — XPPAUT's tables in the generated code: their values as
 * constant data (__constant__ memory on the GPU while they fit, static const
 * arrays on the CPU) and the lookup and slope functions, which repeat
 * XPPAUT's lookup as check/tables.c describes and computes it.
 */
#include <stddef.h>

#include "check/tables.h"
#include "emit/emitter.h"
#include "emit/escape.h"

/* Values in __constant__ memory while they fit (64 KB for the whole program;
 * some is left for the rest), in global memory beyond. */
enum { CONSTANT_BYTES = 48 * 1024 };

static void emit_values(Emitter *E, const Table *t)
{
    for (int i = 0; i < t->n; i++)
        buf_printf(E->out, "%s%s", i % 6 ? ", " : i ? ",\n    " : "    ", c_literal(t->y[i], E->single));
    buf_puts(E->out, "\n};\n");
}

static const char *interp_text(TableInterp k)
{
    return k == TABLE_STEP ? "the value at the start of each step"
           : k == TABLE_CUBIC ? "cubic interpolation (linear in the end intervals)"
                              : "linear interpolation";
}

void emit_tables(Emitter *E)
{
    const Model *m = E->m;
    if (!m->ntable)
        return;
    Buf *o = E->out;
    buf_puts(o, "/* XPPAUT's table lookup (tabular.c): interpolation between the values,\n"
                " * the first and last intervals extended linearly beyond the ends. */\n");
    buf_puts(o, "/* The coefficients of the cubic through y[i-1] .. y[i+2] on segment i:\n"
                " * y(i + s) = y[i] + s (c + s (b + s a)), 0 <= s < 1. */\n"
                "ODE_HD static ODE_INLINE void ode_table_cubic(const ode_real *y, int i, ode_real *a, ode_real *b, ode_real *c)\n{\n"
                "    const ode_real ym = y[i - 1], y0 = y[i], y1 = y[i + 1], y2 = y[i + 2];\n"
                "    *b = ODE_R(0.5) * (y1 + ym - ODE_R(2.0) * y0);\n"
                "    *a = (ODE_R(3.0) * (y0 - y1) + y2 - ym) / ODE_R(6.0);\n"
                "    *c = (ODE_R(6.0) * y1 - y2 - ODE_R(3.0) * y0 - ODE_R(2.0) * ym) / ODE_R(6.0);\n}\n\n");
    buf_puts(o, "ODE_HD static ODE_INLINE ode_real ode_table_lookup(const ode_real *y, int n, ode_real xlo, ode_real dx,\n"
                "                                                   ode_real xhi, int interp, ode_real x)\n{\n"
                "    const ode_real u = (x - xlo) / dx;\n"
                "    if (!(u < (ode_real)(n - 1)))          /* beyond xhi (or NaN) */\n"
                "        return y[n - 1] + (y[n - 1] - y[n - 2]) * (x - xhi) / dx;\n"
                "    if (!(u > ODE_R(-1.0)))                /* below xlo by a whole interval */\n"
                "        return y[0] + (y[1] - y[0]) * (x - xlo) / dx;\n"
                "    const int i = (int)u;                  /* truncated toward 0, as XPPAUT */\n"
                "    if (interp == 1)\n"
                "        return y[i];\n"
                "    if (interp == 2 && i > 0 && i < n - 2) {\n"
                "        ode_real a, b, c;\n"
                "        ode_table_cubic(y, i, &a, &b, &c);\n"
                "        const ode_real s = u - (ode_real)i;\n"
                "        return y[i] + s * (c + s * (b + s * a));\n"
                "    }\n"
                "    return y[i] + (y[i + 1] - y[i]) * (x - (dx * (ode_real)i + xlo)) / dx;\n}\n\n");
    buf_puts(o, "/* The slope of the interpolant at x (the derivatives of the model use it): of the\n"
                " * segment x lies on, the end segments' beyond the ends, 0 on a step. */\n");
    buf_puts(o, "ODE_HD static ODE_INLINE ode_real ode_table_slope(const ode_real *y, int n, ode_real xlo, ode_real dx,\n"
                "                                                  int interp, ode_real x)\n{\n"
                "    const ode_real u = (x - xlo) / dx;\n"
                "    if (!(u < (ode_real)(n - 1)))\n"
                "        return (y[n - 1] - y[n - 2]) / dx;\n"
                "    if (!(u > ODE_R(-1.0)))\n"
                "        return (y[1] - y[0]) / dx;\n"
                "    const int i = (int)u;\n"
                "    if (interp == 1)\n"
                "        return ODE_R(0.0);\n"
                "    if (interp == 2 && i > 0 && i < n - 2) {\n"
                "        ode_real a, b, c;\n"
                "        ode_table_cubic(y, i, &a, &b, &c);\n"
                "        const ode_real s = u - (ode_real)i;\n"
                "        return (c + s * (ODE_R(2.0) * b + ODE_R(3.0) * s * a)) / dx;\n"
                "    }\n"
                "    return (y[i + 1] - y[i]) / dx;\n}\n\n");
    buf_puts(o, "/* Where the GPU keeps the tables that fit in constant memory: its cache serves a\n"
                " * warp at once when the threads look up one place, and one address at a time\n"
                " * when they look up different places (-DODE_TABLE_SPACE=__device__ puts them in\n"
                " * global memory, read through the L1 cache, to compare). */\n"
                "#ifndef ODE_TABLE_SPACE\n#define ODE_TABLE_SPACE __constant__\n#endif\n"
                "/* Table k's values where the code runs: the device's copy or the host's. */\n"
                "#ifdef __CUDA_ARCH__\n#define ODE_TABLE_VALUES(k) ode_table##k##_device\n"
                "#else\n#define ODE_TABLE_VALUES(k) ode_table##k##_host\n#endif\n\n");
    size_t constant = 0;
    for (int k = 0; k < m->ntable; k++) {
        const Table *t = &m->tables[k];
        size_t bytes = (size_t)t->n * (E->single ? 4 : 8);
        const char *space = constant + bytes <= CONSTANT_BYTES ? "ODE_TABLE_SPACE" : "__device__";
        if (constant + bytes <= CONSTANT_BYTES)
            constant += bytes;
        if (t->file)
            buf_printf(o, "/* table %s  (%s:%d): %d values from %s on [%s, %s], %s */\n", t->sym->name,
                       E->path_comment, t->line, t->n, c_comment(t->file), c_literal(t->xlo, false), c_literal(t->xhi, false), interp_text(t->interp));
        else
            buf_printf(o, "/* table %s  (%s:%d): %d values of its formula on [%s, %s], %s */\n", t->sym->name,
                       E->path_comment, t->line, t->n, c_literal(t->xlo, false), c_literal(t->xhi, false),
                       interp_text(t->interp));
        buf_printf(o, "#ifdef __CUDACC__\n%s const ode_real ode_table%d_device[%d] = {\n", space, k, t->n);
        emit_values(E, t);
        buf_printf(o, "#endif\nstatic const ode_real ode_table%d_host[%d] = {\n", k, t->n);
        emit_values(E, t);
        buf_printf(o, "ODE_HD static ODE_INLINE ode_real ode_table%d(ode_real x)\n{\n"
                      "    return ode_table_lookup(ODE_TABLE_VALUES(%d), %d, %s, %s, %s, %d, x);\n}\n\n",
                   k, k, t->n, c_literal(t->xlo, E->single), c_literal(t->dx, E->single),
                   c_literal(t->xhi, E->single), (int)t->interp);
        buf_printf(o, "ODE_HD static ODE_INLINE ode_real ode_table%d_slope(ode_real x)\n{\n"
                      "    return ode_table_slope(ODE_TABLE_VALUES(%d), %d, %s, %s, %d, x);\n}\n\n",
                   k, k, t->n, c_literal(t->xlo, E->single), c_literal(t->dx, E->single), (int)t->interp);
    }
}
