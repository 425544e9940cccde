/* emit_specials.c — XPPAUT's network operators in the generated code
 * (check/special.c says what each computes): one function per special that
 * gives its value i from its roots, the weights read from the tables'
 * constant data (held once for all systems: __constant__ or global memory on
 * the GPU, emit_tables.c), each sum in XPPAUT's order from 0.0; and the
 * lookup f(x) of a value, 0 outside 0 … n-1 as in XPPAUT.
 */
#include <stdlib.h>

#include "base/arena.h"
#include "emit/emitter.h"

static void emit_kernel(Emitter *E, const Special *sp)
{
    /* fftcon periodic: XPPAUT's reordering of the weights before its FFT (simplenet.c, update_fft) */
    const long n = sp->n, n2 = n / 2;
    double *k = arena_alloc(sizeof(double) * (size_t)(n + 1));
    for (long i = 0; i <= n2 && i < n; i++) k[i] = sp->w->y[i + n2];
    for (long i = 0; i < n2 && n2 + i + 1 < n; i++) k[n2 + i + 1] = sp->w->y[i];
    const int id = sp->sym->special;
    buf_printf(E->out, "/* fftcon %s: the weights as XPPAUT reorders them for its FFT (w[m + n/2], then w[0 …]) */\n",
               sp->sym->name);
    for (int host = 0; host < 2; host++) {
        buf_printf(E->out, host ? "static const ode_real ode_special%d_kernel_host[%ld] = {" :
                                  "#ifdef __CUDACC__\n__device__ const ode_real ode_special%d_kernel_device[%ld] = {",
                   id, n);
        for (long i = 0; i < n; i++) buf_printf(E->out, "%s%s", i ? ", " : "", c_literal(k[i], E->single));
        buf_puts(E->out, host ? "};\n" : "};\n#endif\n");
    }
}

static const char *fn_call(const Special *sp, const char *a, const char *b)
{
    return arena_printf("%s(ode_s, %s, %s)", sp->fn->cname, a, b);
}

void emit_specials(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    if (!m->nspecial) return;
    buf_puts(o, "/* XPPAUT's specials (network operators): f(x) reads value (int)x, 0 outside 0 … n-1. */\n"
                "ODE_HD static ODE_INLINE ode_real ode_special_read(const ode_real *ode_v, int ode_n, ode_real ode_x)\n{\n"
                "    const int ode_i = (int)ode_x;\n"
                "    return ode_i >= 0 && ode_i < ode_n ? ode_v[ode_i] : ODE_R(0.0);\n}\n\n");
    buf_puts(o, "#ifdef __CUDA_ARCH__\n#define ODE_SPECIAL_KERNEL(k) ode_special##k##_kernel_device\n"
                "#else\n#define ODE_SPECIAL_KERNEL(k) ode_special##k##_kernel_host\n#endif\n\n");
    for (int s = 0; s < m->nspecial; s++) {
        const Special *sp = &m->specials[s];
        const long n = sp->n, ncon = sp->ncon;
        if (sp->kind == SPECIAL_FFTCON && sp->boundary == BOUNDARY_PERIODIC) emit_kernel(E, sp);
        static const char *const kinds[] = {"conv", "sparse", "mmult", "fconv", "fsparse", "fmmult", "fftcon"};
        static const char *const bounds[] = {"even", "zero", "periodic"};
        buf_printf(o, "/* special %s = %s%s%s  (%s:%d): value ode_i of %ld, from the array at %s%s */\n", sp->sym->name,
                   kinds[sp->kind],
                   sp->kind == SPECIAL_CONV || sp->kind == SPECIAL_FCONV || sp->kind == SPECIAL_FFTCON ? ", " : "",
                   sp->kind == SPECIAL_CONV || sp->kind == SPECIAL_FCONV || sp->kind == SPECIAL_FFTCON
                       ? bounds[sp->boundary] : "",
                   E->path_comment, sp->line, n, sp->root->name, sp->root2 ? arena_printf(" and at %s", sp->root2->name) : "");
        buf_printf(o, "ODE_HD static ODE_INLINE ode_real ode_special%d(const OdeSystem *ode_s, const ode_real *ode_r1,\n"
                      "                                             const ode_real *ode_r2, int ode_i)\n{\n"
                      "    (void)ode_s;\n    (void)ode_r2;\n", s);
        buf_printf(o, "    const ode_real *const ode_w = ODE_TABLE_VALUES(%d);   /* table %s */\n", sp->w->sym->table,
                   sp->w->sym->name);
        if (sp->index)
            buf_printf(o, "    const ode_real *const ode_ix = ODE_TABLE_VALUES(%d);   /* table %s */\n",
                       sp->index->sym->table, sp->index->sym->name);
        buf_printf(o, "    ode_real ode_sum = %s;\n", c_literal(0.0, E->single));
        switch (sp->kind) {
        case SPECIAL_CONV:
        case SPECIAL_FCONV: {
            const char *term = sp->kind == SPECIAL_CONV ? "ode_r1[ode_k]" : fn_call(sp, "ode_r2[ode_k]", "ode_r1[ode_i]");
            buf_printf(o, "    for (int ode_j = -%ld; ode_j <= %ld; ode_j++) {\n", ncon, ncon);
            if (sp->boundary == BOUNDARY_EVEN)
                buf_printf(o, "        int ode_k = ode_i + ode_j;\n        if (ode_k < 0) ode_k = -ode_k;\n"
                              "        if (ode_k >= %ld) continue;\n"
                              "        if (ode_k >= %ld) ode_k = %ld - ode_k < 0 ? ode_k - %ld : %ld - ode_k;\n",
                           2 * n, n, 2 * n - 2, 2 * n - 2, 2 * n - 2);
            else if (sp->boundary == BOUNDARY_ZERO)
                buf_printf(o, "        const int ode_k = ode_i + ode_j;\n        if (ode_k < 0 || ode_k >= %ld) continue;\n", n);
            else
                buf_printf(o, "        const int ode_k = (%ld + ode_i + ode_j) %% %ld;\n", 2 * n, n);
            buf_printf(o, "        ode_sum += ode_w[ode_j + %ld] * %s;\n    }\n", ncon, term);
            break;
        }
        case SPECIAL_SPARSE:
        case SPECIAL_FSPARSE: {
            const char *term = sp->kind == SPECIAL_SPARSE ? "ode_r1[ode_k]" : fn_call(sp, "ode_r2[ode_k]", "ode_r1[ode_i]");
            buf_printf(o, "    for (int ode_j = 0; ode_j < %ld; ode_j++) {\n"
                          "        const int ode_ij = ode_i * %ld + ode_j, ode_k = (int)ode_ix[ode_ij];\n"
                          "        if (ode_k >= 0) ode_sum += ode_w[ode_ij] * %s;\n    }\n",
                       ncon, ncon, term);
            break;
        }
        case SPECIAL_MMULT:
        case SPECIAL_FMMULT: {
            const char *term = sp->kind == SPECIAL_MMULT ? "ode_r1[ode_j]" : fn_call(sp, "ode_r2[ode_j]", "ode_r1[ode_i]");
            buf_printf(o, "    for (int ode_j = 0; ode_j < %ld; ode_j++) ode_sum += ode_w[ode_i * %ld + ode_j] * %s;\n",
                       ncon, ncon, term);
            break;
        }
        case SPECIAL_FFTCON:
            if (sp->boundary == BOUNDARY_PERIODIC)
                buf_printf(o, "    const ode_real *const ode_kernel = ODE_SPECIAL_KERNEL(%d);\n"
                              "    for (int ode_m = 0; ode_m < %ld; ode_m++) {\n"
                              "        const int ode_k = ode_i - ode_m < 0 ? ode_i - ode_m + %ld : ode_i - ode_m;\n"
                              "        ode_sum += ode_kernel[ode_m] * ode_r1[ode_k];\n    }\n",
                           s, n, n);
            else
                buf_printf(o, "    for (int ode_k = 0; ode_k < %ld; ode_k++) ode_sum += ode_w[%ld + ode_i - ode_k] * ode_r1[ode_k];\n",
                           n, n);
            break;
        }
        buf_puts(o, "    return ode_sum;\n}\n\n");
        /* where no scratch holds its values (aux, hooks): value (int)x computed from the states */
        buf_printf(o, "ODE_HD static ODE_INLINE ode_real ode_special%d_at(const OdeSystem *ode_s, const ode_real *ode_y, ode_real ode_x)\n{\n"
                      "    const int ode_i = (int)ode_x;\n"
                      "    return ode_i >= 0 && ode_i < %ld ? ode_special%d(ode_s, ode_y + %ld, ode_y + %ld, ode_i) : ODE_R(0.0);\n}\n\n",
                   s, n, s, sp->root_base, sp->root2 ? sp->root2_base : 0);
    }
}
