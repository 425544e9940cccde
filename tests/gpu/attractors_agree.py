#!/usr/bin/env python3
"""`attractor` on the GPU against the CPU (the same nvcc-built runner):

- the magnetic pendulum (models/magnetic_pendulum.ode) on a 513 x 513 grid
  on the GPU and on its 65 x 65 subgrid (every 8th value: the same doubles)
  on the CPU: the same three fixed points (to 1e-6), and the labels of the
  subgrid's systems the same on both sides, through the attractors they name,
  for at least 98% of them (the rest: systems on the fractal boundary, where a
  last-bit difference picks the magnet); the GPU's fractions 1/3 each within
  0.02 (the grid is not symmetric under the magnets' rotation); the systems
  on the grid's column x = 0 that end on the saddle between the lower magnets
  (its stable manifold) are one row of kind `unstable` on both sides, at the
  same point, not an attractor;
- the double well (models/double_well_basins.ode) on 401 x 401 on the GPU:
  fractions exactly 1/2 and every system's mirror image labelled the other way;
  the centre (the saddle itself) kind `unstable`;
  --chunk 10007 gives the same labels and table as one launch.

Run on a GPU machine: python3 tests/gpu/attractors_agree.py
"""
import csv
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import ROOT, build, check, main, _run  # noqa: E402


def run(runner, backend, name, *args):
    out = os.path.join(os.path.dirname(runner), name + ".csv")
    p = _run([runner, "--backend", backend, "--last", "-o", out] + list(args))
    check(p.returncode == 0, "%s --backend %s: exit %d\n%s" % (runner, backend, p.returncode, p.stderr))
    with open(out) as f:   # the label's column by its name: a model may record states before it
        column = f.readline().strip().split(",").index("attractor")
    labels = np.loadtxt(out, delimiter=",", skiprows=1, usecols=(column,), dtype=np.int64)
    with open(out[:-4] + ".attractors.csv") as f:   # (kind unstable: a saddle, not an attractor)
        table = [r for r in csv.DictReader(f) if int(r["label"]) > 0 and int(r["systems"]) > 0]
    return labels, table, open(out[:-4] + ".attractors.csv").read()


def attractors(table):
    return [r for r in table if r["kind"] != "unstable"]


def point(r):
    return np.array([float(r["point_x"]), float(r["point_y"])])


def test_pendulum_gpu_cpu():
    """The magnetic pendulum on the GPU (513^2) and the CPU (65^2, every 8th point): three
    attractors each, the same fixed points, labels agreeing on >= 98 % of the subgrid, and
    on both the saddle on the axis x = 0 (both grids have a column there) as one `unstable`
    row.  Built with -fmad=false: the starts on the axis stay there only because the
    magnets' terms of u' cancel exactly at x = u = 0 (x2 = -x3, so f2 = f3; summed left to
    right, -a + a = 0), which a fused multiply-add (nvcc's default for a*b + c) breaks by
    adding one exact product to the other's rounded one: on the H100 they left the axis."""
    text = open(os.path.join(ROOT, "models", "magnetic_pendulum.ode")).read()
    runner = build("magnetic_pendulum", text, backend="gpu", nvccflags="-O3 -fmad=false")
    lg, tg_all, _ = run(runner, "gpu", "gpu", "--scan", "x=lin(-2,2,513)", "--scan", "y=lin(-2,2,513)")
    lc, tc_all, _ = run(runner, "cpu", "cpu", "--scan", "x=lin(-2,2,65)", "--scan", "y=lin(-2,2,65)")
    tg, tc = attractors(tg_all), attractors(tc_all)
    check(len(tg) == 3 and len(tc) == 3, "three attractors each: %s\n%s" % (tg, tc))
    to_gpu = {}
    saddles = [[r for r in t if r["kind"] == "unstable"] for t in (tg_all, tc_all)]
    for side, rows in zip(("GPU", "CPU"), saddles):
        check(len(rows) == 1 and abs(point(rows[0])[0]) < 1e-9 and abs(point(rows[0])[1] + 0.11926) < 1e-4,
              "the %s's saddle on the axis x = 0 (kind unstable): %s" % (side, rows))
    to_gpu[int(saddles[1][0]["label"])] = int(saddles[0][0]["label"])
    for r in tc:
        d = [np.linalg.norm(point(r) - point(q)) for q in tg]
        check(min(d) < 1e-6, "the CPU's fixed point %s is not the GPU's: %s" % (point(r), d))
        to_gpu[int(r["label"])] = int(tg[int(np.argmin(d))]["label"])
    sub = lg.reshape(513, 513)[::8, ::8].ravel()
    mapped = np.array([to_gpu.get(int(v), int(v)) for v in lc])
    agree = np.mean(mapped == sub)
    check(agree >= 0.98, "labels agree on %.4f of the subgrid" % agree)
    for r in tg:
        check(abs(float(r["fraction"]) - 1 / 3) < 0.02, "a third each on the GPU: %s" % r)
    print("        pendulum: the saddle (kind unstable): %s systems on the GPU, %s on the CPU"
          % (saddles[0][0]["systems"], saddles[1][0]["systems"]))
    print("        pendulum: GPU and CPU labels agree on %.2f%% of the 65 x 65 subgrid" % (100 * agree))


def test_double_well_gpu():
    text = open(os.path.join(ROOT, "models", "double_well_basins.ode")).read()
    runner = build("double_well_basins", text, backend="gpu")
    n = 401
    lab, t, text_a = run(runner, "gpu", "dw", "--scan", "x=lin(-2,2,%d)" % n, "--scan", "y=lin(-2,2,%d)" % n)
    check(len(t) == 3 and [r for r in t if r["kind"] == "unstable"] == [r for r in t if int(r["systems"]) == 1],
          "two attractors and the saddle at the grid's centre (kind unstable, 1 system): %s" % t)
    grid = lab.reshape(n, n)
    centre = grid[n // 2, n // 2]
    wells = [int(r["label"]) for r in t if abs(float(r["point_x"])) > 0.5]
    check(len(wells) == 2, "the two wells: %s" % t)
    a, b = wells
    mirror = grid[::-1, ::-1]
    ok = ((grid == a) & (mirror == b)) | ((grid == b) & (mirror == a))
    ok[n // 2, n // 2] = True   # the saddle itself, at the centre, is its own mirror image
    check(ok.all(), "%d systems not labelled opposite to their mirror image (centre: %d)" % ((~ok).sum(), centre))
    lab2, _, text_b = run(runner, "gpu", "dw_chunked", "--chunk", "10007", "--scan", "x=lin(-2,2,%d)" % n,
                          "--scan", "y=lin(-2,2,%d)" % n)
    check(np.array_equal(lab, lab2) and text_a == text_b, "--chunk 10007 changes the labels or the table")


if __name__ == "__main__":
    sys.exit(main([(n, f) for n, f in list(globals().items()) if n.startswith("test_")]))
