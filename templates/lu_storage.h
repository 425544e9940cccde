/* lu_storage.h — where a stiff method's matrix W = I/(hγ) - J lives, entry
 * by entry, for a model whose Jacobian is written in loop form
 * (ode_model_jac_team, templates/example_team_model.h): ODE_JAC_SET(J, e,
 * row, col, v) puts entry e = (row, col) of J where the factorisation
 * (team_lu.h) finds it.  The generator (generator/emit/emit_lu.c) picks the
 * storage from the Jacobian's sparsity pattern and writes its constants
 * before the templates:
 *
 *   ODE_LU_DENSE   row-major, n × n: small models, or a pattern with no
 *                  structure to use;
 *   ODE_LU_BAND    LAPACK's band storage (dgbtrf): column j holds rows
 *                  j-ku-kl … j+kl, the kl extra super-diagonals taking the
 *                  fill-in of partial pivoting; ODE_LU_KL sub- and ODE_LU_KU
 *                  super-diagonals after the states are renumbered by
 *                  ode_lu_perm (reverse Cuthill–McKee, when ODE_LU_PERM);
 *   ODE_LU_SPARSE  the entries of the symbolic factorisation done at
 *                  translation time (fill-in included), entry e of J at
 *                  ode_lu_pos[e].
 *
 * Memory: dense n², band (2 kl + ku + 1) n, sparse the factors' entries;
 * work of a factorisation: n³/3, n kl (kl + ku), and the symbolic count.
 */
#ifndef ODE_LU_STORAGE_H
#define ODE_LU_STORAGE_H

#define ODE_LU_DENSE 0
#define ODE_LU_BAND 1
#define ODE_LU_SPARSE 2

#ifndef ODE_LU_KIND
#define ODE_LU_KIND ODE_LU_DENSE
#endif
#ifndef ODE_LU_PERM
#define ODE_LU_PERM 0
#endif

#if ODE_LU_PERM
#define ODE_LU_ROW(i) (ode_lu_perm[i])   /* the state's place in W */
#else
#define ODE_LU_ROW(i) (i)
#endif

#if ODE_LU_KIND == ODE_LU_DENSE
#define ODE_LU_REALS (ODE_NSTATE * ODE_NSTATE)
#define ODE_LU_INDEX(r, c) ((r) * ODE_NSTATE + (c))
#elif ODE_LU_KIND == ODE_LU_BAND
#define ODE_LU_LDAB (2 * ODE_LU_KL + ODE_LU_KU + 1)   /* rows of the band storage */
#define ODE_LU_REALS (ODE_LU_LDAB * ODE_NSTATE)
/* W(r, c), |r - c| within the band, column-major as LAPACK's AB(kl + ku + 1 + r - c, c). */
#define ODE_LU_INDEX(r, c) ((ODE_LU_KL + ODE_LU_KU + (r) - (c)) + (c) * ODE_LU_LDAB)
#else
#define ODE_LU_REALS ODE_LU_NNZ                       /* the factors' entries */
#endif

/* Entry e of J, (row, col) in the states' numbering: where it lives
 * (ODE_JAC_AT, an lvalue), and setting it to v (ODE_JAC_SET; a test may
 * define its own, to watch the entries). */
#if ODE_LU_KIND == ODE_LU_SPARSE
#define ODE_JAC_AT(J, e, row, col) ((J)[ode_lu_pos[e]])
#else
#define ODE_JAC_AT(J, e, row, col) ((J)[ODE_LU_INDEX(ODE_LU_ROW(row), ODE_LU_ROW(col))])
#endif
#ifndef ODE_JAC_SET
#define ODE_JAC_SET(J, e, row, col, v) (ODE_JAC_AT(J, e, row, col) = (v))
#endif

#endif /* ODE_LU_STORAGE_H */
