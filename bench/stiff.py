#!/usr/bin/env python3
"""stiff.py — the stiff methods' benchmarks (issue 13).

  bench/stiff.py [--backend gpu|cpu] [--quick] [--out DIR] [--md FILE]

1. Ensembles on the GPU (or --backend cpu): ROBER with its rate constant k1
   scanned (bench/stiff/rober_scan.ode, N = 2^16 … 2^20) and the FitzHugh–Nagumo
   neuron with a fast voltage (ε = 1e-4, a relaxation oscillator; the drive
   I scanned: bench/stiff/fhn_stiff.ode), rodas5p and ros3p: kernel time, steps,
   systems per second.
2. The CPU path against SUNDIALS CVODE (BDF, dense Newton on the exact
   Jacobian, tests/stiff/cvode_peer.c with OpenMP over the systems) on the
   same ROBER scan, tolerances and cores: systems per second of each, and
   their agreement (Σ y3 over the systems).
3. Work–precision on Van der Pol with μ = 100 (mildly stiff), one system's
   error at t = 100 against scipy's Radau at 1e-13: rodas5p, ros3p and
   rkck45 at tolerances 1e-4 … 1e-10: steps, and the CPU path's time for
   2^12 copies (2^8 with --quick) on all cores.

Prints JSON lines (for results.jsonl) and writes a Markdown section to --md
(default OUT/stiff.md), which bench/run.sh appends to BENCHMARKS.md; run
alone, --append bench/BENCHMARKS.md replaces that file's stiff section.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ODEGEN = os.path.join(ROOT, "build", "odegen")
STIFF = ["rodas5p", "ros3p"]
ROBER_TOL = (1e-6, 1e-10)       # rtol, atol (y2 ~ 1e-5: atol well below it)
ROBER_TEND = 1e4
WP_TOLS = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10]
WP_METHODS = ["rodas5p", "ros3p", "rkck45"]


def model(name, method, extra=""):
    """bench/stiff/NAME.ode with its @ line's method replaced (and extra
    options, which replace the file's toler and atoler)."""
    text = open(os.path.join(ROOT, "bench", "stiff", name + ".ode")).read()
    if extra:
        text = re.sub(r",\s*a?toler=[^,\s]+", "", text)
    return re.sub(r"meth=\w+", "meth=%s%s" % (method, extra), text, count=1)


BACKEND = "gpu"


def build(out, tag, text, cpu=False):
    """Generates and builds one runner in OUT/TAG (with the C compiler alone
    for --backend cpu, or cpu=True); returns its path.  A runner built from
    the same text is reused."""
    cpu = cpu or BACKEND == "cpu"
    d = os.path.join(out, tag + ("-cpu" if cpu else ""))
    name = re.sub(r"\W", "_", tag)
    exe = os.path.join(d, "gen", name)
    ode = os.path.join(d, name + ".ode")
    if os.path.exists(exe) and os.path.exists(ode) and open(ode).read() == text:
        return exe
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(ode, "w") as f:
        f.write(text)
    for cmd in ([ODEGEN, name + ".ode", "-o", "gen"], ["make", "-s", "-C", "gen"] + (["BACKEND=cpu"] if cpu else [])):
        p = subprocess.run(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode:
            raise RuntimeError("%s: %s failed:\n%s" % (tag, " ".join(cmd), p.stdout[-3000:]))
    return exe


def run(runner, backend, *args):
    """One run: (rows of the CSV as a dict of arrays, steps, kernel seconds, threads, statuses)."""
    out = runner + ".csv"
    p = subprocess.run([runner, "--backend", backend, "-o", out] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    if p.returncode:
        raise RuntimeError("%s: %s" % (runner, p.stderr[-2000:]))
    summary = p.stderr.strip().splitlines()[-1]
    steps = int(re.search(r"([0-9]+) steps", summary).group(1))
    seconds = float(re.search(r"integration ([0-9.e+-]+) s", summary).group(1))
    m = re.search(r"([0-9]+) threads", summary)
    data = np.genfromtxt(out, delimiter=",", names=True, dtype=None, encoding=None)
    os.remove(out)
    return data, steps, seconds, int(m.group(1)) if m else None, summary


def emit(rows, **kv):
    rows.append(kv)
    print(json.dumps(kv), flush=True)


def prebuild(jobs):
    """Builds runners side by side (nvcc takes most of a minute for each)."""
    with concurrent.futures.ThreadPoolExecutor(max(1, min(8, (os.cpu_count() or 2) // 2))) as pool:
        for f in [pool.submit(build, *j[:3], **j[3]) for j in jobs]:
            f.result()


def ensembles(out, backend, sizes, rows):
    prebuild([(out, k + "_" + m, model(k + ("_scan" if k == "rober" else "_stiff"), m), {})
              for m in STIFF for k in ("rober", "fhn")])
    # name, model, the scan (of n systems), the field kept
    cases = [("rober", "rober_scan", "k1=lin(0.02,0.06,%d)", "y3"), ("fhn", "fhn_stiff", "I=lin(0.3,1.2,%d)", "v")]
    for method in STIFF:
        for name, text, scan, field in cases:
            runner = build(out, name + "_" + method, model(text, method))
            for n in sizes:
                data, steps, sec, _, _ = run(runner, backend, "--scan", scan % n, "--fields", field)
                bad = int(np.sum(data["status"] != "finished"))
                emit(rows, stiff="ensemble", model=name, method=method, backend=backend, systems=n, steps=steps,
                     seconds=sec, systems_per_s=n / sec, failed=bad)


def cvode_peer(out):
    exe = os.path.join(out, "cvode_peer")
    src = os.path.join(ROOT, "tests", "stiff", "cvode_peer.c")
    subprocess.run(["cc", "-O3", "-fopenmp", src, "-o", exe, "-lsundials_cvode", "-lsundials_nvecserial", "-lm"],
                   check=True)
    return exe


def cpu_vs_cvode(out, n, rows):
    """odegen's CPU path and CVODE on the same ROBER scan, cores and tolerances."""
    exe = cvode_peer(out)
    rtol, atol = ROBER_TOL
    for method in STIFF:
        runner = build(out, "rober_" + method, model("rober_scan", method), cpu=True)
        data, steps, sec, threads, _ = run(runner, "cpu", "--scan", "k1=lin(0.02,0.06,%d)" % n, "--fields", "y3")
        env = dict(os.environ, OMP_NUM_THREADS=str(threads or os.cpu_count()))
        p = subprocess.run([exe, "rober_scan", repr(rtol), repr(atol), str(n), repr(ROBER_TEND)], env=env,
                           stdout=subprocess.PIPE, text=True, check=True)
        c = {k: float(v) for k, v in (line.split() for line in p.stdout.splitlines())}
        ours = float(np.sum(data["y3"]))
        emit(rows, stiff="cpu_vs_cvode", method=method, systems=n, threads=threads, steps=steps, seconds=sec,
             systems_per_s=n / sec, cvode_steps=int(c["steps"]), cvode_seconds=c["seconds"],
             cvode_systems_per_s=c["systems_per_s"], speedup=c["seconds"] / sec,
             sum_y3_rel_diff=abs(ours - c["sum_y3"]) / abs(c["sum_y3"]))


def vdp_reference():
    from scipy.integrate import solve_ivp
    mu = 100.0
    sol = solve_ivp(lambda t, y: [y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]], (0, 100), [2, 0], method="Radau",
                    rtol=1e-13, atol=1e-13,
                    jac=lambda t, y: [[0, 1], [-2 * mu * y[0] * y[1] - 1, mu * (1 - y[0] ** 2)]])
    return sol.y[:, -1]


def work_precision(out, n, rows):
    """On the CPU (C compiler builds: one per method and tolerance, which
    nvcc would take minutes for)."""
    backend = "cpu"
    ref = vdp_reference()
    prebuild([(out, "vdp_%s_%g" % (m, tol), model("vdp100", m, ", toler=%r, atoler=%r" % (tol, tol)), dict(cpu=True))
              for m in WP_METHODS for tol in WP_TOLS])
    for method in WP_METHODS:
        for tol in WP_TOLS:
            runner = build(out, "vdp_%s_%g" % (method, tol), model("vdp100", method, ", toler=%r, atoler=%r"
                                                                         % (tol, tol)), cpu=True)
            data, steps, sec, _, _ = run(runner, backend, "--scan", "x=lin(2,2,%d)" % n, "--fields", "x,y")
            got = np.array([data["x"][0], data["y"][0]])
            err = float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), 1)))
            ok = bool(np.all(data["status"] == "finished"))
            emit(rows, stiff="wp", method=method, tol=tol, backend=backend, systems=n, error=err,
                 steps_per_system=steps // n, seconds=sec, finished=ok)


def markdown(rows):
    out = ["## Stiff methods (bench/stiff.py)", ""]
    ens = [r for r in rows if r["stiff"] == "ensemble"]
    if ens:
        out += ["Ensembles (ROBER, k1 = lin(0.02, 0.06, N), t ≤ %g, rtol %g, atol %g; FitzHugh–Nagumo, ε = 1e-4, "
                "I = lin(0.3, 1.2, N)):" % (ROBER_TEND, *ROBER_TOL), "",
                "| model | method | backend | N | steps per system | kernel s | systems/s | failed |",
                "|---|---|---|---:|---:|---:|---:|---:|"]
        out += ["| %s | %s | %s | %d | %.0f | %.3g | %.3g | %d |" % (r["model"], r["method"], r["backend"],
                r["systems"], r["steps"] / r["systems"], r["seconds"], r["systems_per_s"], r["failed"]) for r in ens]
        out.append("")
    cv = [r for r in rows if r["stiff"] == "cpu_vs_cvode"]
    if cv:
        out += ["odegen's CPU path against SUNDIALS CVODE (BDF, OpenMP over the systems), same ROBER scan, "
                "tolerances and threads:", "",
                "| method | N | threads | odegen steps | odegen s | CVODE steps | CVODE s | odegen / CVODE speed | "
                "Σ y3 relative difference |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        out += ["| %s | %d | %s | %d | %.3g | %d | %.3g | %.2f | %.1e |" % (
            r["method"], r["systems"], r["threads"], r["steps"], r["seconds"], r["cvode_steps"], r["cvode_seconds"],
            r["speedup"], r["sum_y3_rel_diff"]) for r in cv]
        out.append("")
    wp = [r for r in rows if r["stiff"] == "wp"]
    if wp:
        out += ["Work–precision, Van der Pol μ = 100 to t = 100 (error against scipy's Radau at 1e-13; "
                "time of the CPU path, N copies):", "",
                "| method | tol | error | steps | CPU s (N) |", "|---|---:|---:|---:|---:|"]
        out += ["| %s | %g | %.2e | %d | %.3g (%d)%s |" % (r["method"], r["tol"], r["error"], r["steps_per_system"],
                r["seconds"], r["systems"], "" if r["finished"] else " not finished") for r in wp]
        out.append("")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="gpu", choices=["gpu", "cpu"])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "stiff"))
    ap.add_argument("--md")
    ap.add_argument("--append", help="a BENCHMARKS.md whose stiff section this run replaces")
    a = ap.parse_args()
    global BACKEND
    BACKEND = a.backend
    os.makedirs(a.out, exist_ok=True)
    sizes = [2 ** 10] if a.quick else [2 ** 16, 2 ** 18, 2 ** 20]
    rows = []
    ensembles(a.out, a.backend, sizes, rows)
    cpu_vs_cvode(a.out, 2 ** 9 if a.quick else 2 ** 14, rows)
    work_precision(a.out, 2 ** 8 if a.quick else 2 ** 12, rows)
    with open(a.md or os.path.join(a.out, "stiff.md"), "w") as f:
        f.write(markdown(rows))
    if a.append:      # replaces the file's stiff section, or adds one at its end
        text = open(a.append).read() if os.path.exists(a.append) else ""
        head = "## Stiff methods (bench/stiff.py)"
        if head in text:
            start = text.index(head)
            end = text.find("\n## ", start + len(head))
            text = text[:start] + (text[end + 1:] if end >= 0 else "")
        with open(a.append, "w") as f:
            f.write(text.rstrip("\n") + "\n\n" + markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
