#!/usr/bin/env python3
"""workprecision.py — the work–precision comparison of the explicit methods
(issue 8): for the Duffing scan (1024 transient + 32 recorded forcing
periods) and the Lorenz scan, every adaptive method at tolerances 1e-6 …
1e-12 and RK4 at four step sizes; each point's achieved error against a
DOP853 run at tolerance 1e-13 and its kernel time; the fastest method for
each accuracy and its ratio to RKCK45 (MPGOS's method) at that accuracy.

  bench/workprecision.py [--backend gpu|cpu] [--quick] [--out DIR] [--jobs N]

Prints JSON lines (results.jsonl, for bench/report.py):
  {"wp": problem, "method", "tol" (or "dt"), "achieved", "achieved_median",
   "achieved_max", "seconds", "evals", "steps", "systems", "measured"}
  {"wp_best": problem, "accuracy", "method", "seconds", "rkck45_seconds", "ratio"}

The achieved error of a system is the largest difference of its recorded
values from the reference's (relative to their size, absolute below 1); a
point's achieved error is the 95th percentile over systems ("achieved";
median and maximum too).  Duffing systems whose reference is chaotic (not periodic
within 8 periods to 1e-6) are left out of the error: there every method's
error is O(1) after 1024 periods, whatever the tolerance.  Lorenz runs over
t in [0, 10] with rho in [0, 21], where transient chaos amplifies errors by
up to ~1e4 alike for all methods.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ADAPTIVE = ["rkck45", "dopri5", "tsit5", "dop853", "vern7"]
TOLS = [1e-6, 1e-8, 1e-10, 1e-12]
RK4_DT = [0.04, 0.02, 0.01, 0.005]
REF_TOL = 1e-13

PROBLEMS = {
    "duffing": dict(model="duffing_rkck45", scan="k=lin:0.2:0.3", n=131072, transient=1024, record=32,
                    quick=dict(n=64, transient=16, record=4), base="dt=0.01, total=6.283185307179586"),
    "lorenz": dict(model="lorenz", scan="rho=lin:0:21", n=131072, transient=0, record=1,
                   quick=dict(n=64, transient=0, record=1), base="dt=0.01, total=10"),
}


def variant_text(problem, method, tol=None, dt=None):
    """The problem's model with `@ meth=…` and its tolerances (or dt)."""
    p = PROBLEMS[problem]
    text = open(os.path.join(ROOT, "models", p["model"] + ".ode")).read()
    base = p["base"] if dt is None else re.sub(r"dt=[0-9.e-]+", "dt=%r" % dt, p["base"])
    opts = "@ meth=%s, %s" % (method, base)
    if tol is not None:
        opts += ", toler=%r, atoler=%r" % (tol, tol)
    return re.sub(r"^@ .*$", opts, text, count=1, flags=re.M)


def build(out, tag, text, backend):
    """odegen + the compiler: the driver wp_model.c linked with the model."""
    d = os.path.join(out, tag)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    ode = os.path.join(d, tag + ".ode")
    open(ode, "w").write(text)
    gen = os.path.join(d, "gen")
    subprocess.run([os.path.join(ROOT, "build", "odegen"), ode, "-o", gen], check=True, capture_output=True)
    if backend == "gpu":
        nvcc = os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        arch = os.environ.get("ARCH", "sm_90")
        subprocess.run([nvcc, "-O3", "-arch=" + arch, "-Xcompiler", "-fopenmp", "-c", os.path.join(gen, tag + ".cu"),
                        "-o", os.path.join(gen, tag + ".o")], check=True, capture_output=True)
        link = [nvcc, "-O3", "-arch=" + arch, "-Xcompiler", "-fopenmp"]
    else:
        cc = os.environ.get("CC", "cc")
        subprocess.run([cc, "-O2", "-std=c11", "-fopenmp", "-x", "c", "-c", os.path.join(gen, tag + ".cu"), "-o",
                        os.path.join(gen, tag + ".o")], check=True, capture_output=True)
        link = [cc, "-O2", "-fopenmp"]
    exe = os.path.join(d, "wp")
    subprocess.run(link + ["-I" + gen, "-DMODEL=" + tag, "-DUMODEL=" + tag.upper(),
                           os.path.join(ROOT, "bench", "wp_model.c"), os.path.join(gen, tag + ".o"), "-o", exe, "-lm"],
                   check=True, capture_output=True)
    return exe


def run_point(exe, backend, size, scan, out):
    data = os.path.join(os.path.dirname(exe), "values.bin")
    p = subprocess.run([exe, backend, str(size["n"]), str(size["transient"]), str(size["record"]), data, scan],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (exe, p.stderr.strip()[-300:]))
    info = json.loads(p.stdout)
    values = np.fromfile(data, dtype=np.float64).reshape(size["record"], info["nfield"], size["n"])
    return info, values


def regular(ref):
    """Systems whose recorded sequence is periodic with period ≤ 8 (to 1e-6)."""
    r = ref.shape[0]
    ok = np.zeros(ref.shape[2], dtype=bool)
    for p in range(1, min(8, r - 1) + 1):
        d = np.max(np.abs(ref[p:] - ref[:-p]), axis=(0, 1))
        ok |= d < 1e-6
    return ok


def errors(values, ref, mask):
    d = np.abs(values - ref) / np.maximum(1.0, np.abs(ref))
    per = np.max(d, axis=(0, 1))[mask]
    per = np.where(np.isfinite(per), per, np.inf)
    return float(np.percentile(per, 95)), float(np.median(per)), float(np.max(per))


def best_per_accuracy(points):
    """At each accuracy 1e-4 … 1e-10 that some method reaches: the fastest
    method (time interpolated in log-log between its points) and RKCK45's
    time there."""
    curves = {}
    for m in set(p["method"] for p in points):
        pts = sorted((p["achieved"], p["seconds"]) for p in points if p["method"] == m and p["achieved"] > 0
                     and math.isfinite(p["achieved"]))
        if len(pts) >= 2:
            curves[m] = pts

    def time_at(m, acc):
        pts = curves[m]
        for (e0, t0), (e1, t1) in zip(pts, pts[1:]):
            if e0 <= acc <= e1 and e1 > e0:
                f = (math.log(acc) - math.log(e0)) / (math.log(e1) - math.log(e0))
                return math.exp(math.log(t0) + f * (math.log(t1) - math.log(t0)))
        return None

    out = []
    for k in range(4, 11):
        acc = 10.0 ** -k
        times = {m: time_at(m, acc) for m in curves}
        times = {m: t for m, t in times.items() if t}
        if not times:
            continue
        m = min(times, key=times.get)
        ck = times.get("rkck45")
        out.append(dict(accuracy=acc, method=m, seconds=times[m], rkck45_seconds=ck,
                        ratio=times[m] / ck if ck else None, times=times))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="gpu")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "wp"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--problems", default="duffing,lorenz")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    problems = args.problems.split(",")
    variants = []   # (problem, method, tol, dt, tag)
    for prob in problems:
        variants.append((prob, "dop853", REF_TOL, None, "%s_ref" % prob))
        for m in ADAPTIVE:
            for i, tol in enumerate(TOLS):
                variants.append((prob, m, tol, None, "%s_%s_%d" % (prob, m, i)))
        for i, dt in enumerate(RK4_DT):
            variants.append((prob, "rk4", None, dt, "%s_rk4_%d" % (prob, i)))
    t0 = time.time()
    exes = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(build, args.out, tag, variant_text(prob, m, tol, dt), args.backend): tag
                   for prob, m, tol, dt, tag in variants}
        for f in concurrent.futures.as_completed(futures):
            exes[futures[f]] = f.result()
    print("workprecision: %d variants built in %.0f s" % (len(variants), time.time() - t0), file=sys.stderr)
    for prob in problems:
        P = PROBLEMS[prob]
        size = dict(n=P["n"], transient=P["transient"], record=P["record"])
        if args.quick:
            size.update(P["quick"])
        _, ref = run_point(exes["%s_ref" % prob], args.backend, size, P["scan"], args.out)
        mask = regular(ref) if prob == "duffing" else np.ones(ref.shape[2], dtype=bool)
        if not mask.any():      # (--quick: too few periods to tell) every system
            mask[:] = True
        points = []
        for p, m, tol, dt, tag in variants:
            if p != prob or tag.endswith("_ref"):
                continue
            info, values = run_point(exes[tag], args.backend, size, P["scan"], args.out)
            e95, emed, emax = errors(values, ref, mask)
            point = dict(wp=prob, method=m, tol=tol, dt=dt, achieved=e95, achieved_median=emed, achieved_max=emax,
                         seconds=info["seconds"], wall_seconds=info["wall_seconds"], evals=info["evals"],
                         steps=info["steps"], systems=size["n"], measured=int(mask.sum()),
                         transient=size["transient"], record=size["record"], backend=args.backend)
            points.append(point)
            print(json.dumps(point), flush=True)
        for b in best_per_accuracy(points):
            b["wp_best"] = prob
            print(json.dumps(b), flush=True)
    print("workprecision: done in %.0f s" % (time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
