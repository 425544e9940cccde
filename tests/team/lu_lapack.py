#!/usr/bin/python3
"""lu_lapack.py FILE — templates/team_lu.h's factors (written by test_lu FILE)
against LAPACK's own (scipy.linalg.lapack: dgetrf for the dense storage,
dgbtrf for the band): the same pivots, and the same factors to rounding.
team_lu.h keeps 1/u_kk on the diagonal, LAPACK u_kk."""
import sys

import numpy as np
from scipy.linalg import lapack

with open(sys.argv[1]) as f:
    kind, n, kl, ku, reals = (int(v) for v in f.readline().split())
    vals = [float(f.readline()) for _ in range(n * n + reals)]
    piv = np.array([int(f.readline()) for _ in range(n)])
A = np.array(vals[:n * n]).reshape(n, n)
mine = np.array(vals[n * n:])
if kind == 0:
    lu, ipiv, info = lapack.dgetrf(A)
    ours = mine.reshape(n, n).copy()
    d = np.arange(n)
    ours[d, d] = 1 / ours[d, d]
else:
    ldab = 2 * kl + ku + 1
    ab = np.zeros((ldab, n))
    for j in range(n):
        for i in range(max(0, j - ku), min(n, j + kl + 1)):
            ab[kl + ku + i - j, j] = A[i, j]
    lu, ipiv, info = lapack.dgbtrf(ab, kl, ku)
    ours = mine.reshape(n, ldab).T.copy()        # column j's ldab entries are consecutive
    ours[kl + ku, :] = 1 / ours[kl + ku, :]
    mask = np.zeros_like(lu, dtype=bool)         # LAPACK leaves the unused corner as it was
    for j in range(n):
        for r in range(ldab):
            i = r - kl - ku + j
            mask[r, j] = 0 <= i < n and (r >= kl or i < j)
    lu, ours = np.where(mask, lu, 0), np.where(mask, ours, 0)
err = np.max(np.abs(ours - lu)) / np.max(np.abs(lu))
same = np.array_equal(piv, ipiv)
print("   against LAPACK's %s: info %d, pivots %s, largest difference of the factors %.3g (relative to max |LU|)"
      % ("dgetrf" if kind == 0 else "dgbtrf", info, "the same" if same else "DIFFERENT", err))
ok = info == 0 and same and err <= 1e-13
print("LU %s, n = %d, against LAPACK: %s" % ("dense" if kind == 0 else "band", n, "passed" if ok else "FAILED"))
sys.exit(0 if ok else 1)
