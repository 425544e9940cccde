"""odegen_test.py — build generated models and run their runners, for the tests.

Every test model is generated with build/odegen (or build/asan/odegen), built
with its generated Makefile, and run through its runner; the runner's CSV is
read back into numpy arrays.  Builds go to build/tests/<name>-<backend> and are
reused when nothing changed (make decides).

Environment:
  ODEGEN_BACKEND=cpu|gpu   which backend the suite exercises (default cpu);
                           gpu builds with nvcc and runs with --backend gpu.
  ODEGEN_SANITIZE=0        build CPU runners without ASan/UBSan.
"""
import csv
import io
import os
import re
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.path.join(ROOT, "build", "tests")
BACKEND = os.environ.get("ODEGEN_BACKEND", "cpu")
SANITIZE = os.environ.get("ODEGEN_SANITIZE", "1") != "0" and BACKEND == "cpu"
SANFLAGS = "-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
ODEGEN = os.path.join(ROOT, "build", "asan" if SANITIZE else "", "odegen")


class Failure(AssertionError):
    pass


def check(cond, message):
    if not cond:
        raise Failure(message)


def _run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    return p


def build(name, text, precision=None, backend=None, flags=(), nvccflags=None, sanitize=None, defines=()):
    """Writes `text` as NAME.ode, generates and builds it (odegen `flags` too);
    returns the runner's path.  sanitize=False builds a CPU runner without
    ASan/UBSan (tests of the numbers, not of host code: faster to build).
    defines: -D options for the compiler (either backend)."""
    backend = backend or BACKEND
    sanitize = SANITIZE if sanitize is None else (sanitize and SANITIZE)
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)   # the model's name is the file's
    tag = name + "-" + backend + ("-" + precision if precision else "") + "".join(f.strip("-") for f in flags)
    if SANITIZE and not sanitize:
        tag += "-plain"
    if nvccflags:
        tag += "-" + re.sub(r"[^A-Za-z0-9]", "", nvccflags)
    if defines:
        tag += "-" + re.sub(r"[^A-Za-z0-9]", "", "".join(defines))
    work = os.path.join(BUILD, tag)
    os.makedirs(work, exist_ok=True)
    ode = os.path.join(work, name + ".ode")
    old = open(ode).read() if os.path.exists(ode) else None
    if old != text:
        with open(ode, "w") as f:
            f.write(text)
    cmd = [ODEGEN, name + ".ode", "-o", "gen"]
    if precision:
        cmd += ["--precision", precision]
    cmd += list(flags)
    p = _run(cmd, cwd=work)
    if p.returncode != 0:
        raise Failure("odegen failed on %s:\n%s" % (name, p.stderr))
    make = ["make", "-s", "-C", os.path.join(work, "gen")]
    if backend == "gpu":
        if nvccflags or defines:
            make += ["NVCCFLAGS=" + " ".join([nvccflags or "-O3"] + list(defines))]
        make += ["BACKEND=cuda"]
    else:
        make += ["BACKEND=cpu"]
        if sanitize:
            make += ["CFLAGS=" + " ".join([SANFLAGS] + list(defines)), "LDFLAGS=-fsanitize=address,undefined"]
        elif defines:
            make += ["CFLAGS=" + " ".join(["-O2"] + list(defines))]
    p = _run(make)
    if p.returncode != 0:
        raise Failure("building %s failed:\n%s%s" % (name, p.stdout, p.stderr[-4000:]))
    return os.path.join(work, "gen", name)


class Result:
    """A runner's CSV: columns by name (floats), statuses, and the summary line."""

    def __init__(self, text, stderr):
        rows = list(csv.reader(io.StringIO(text)))
        self.header = rows[0]
        body = rows[1:]
        self.stderr = stderr
        self.status = np.array([r[-1] for r in body])
        self.columns = {}
        # by position too: two columns may share a name (XPPAUT's aux named like another quantity)
        self.matrix = np.array([[float(v) for v in r[:-1]] for r in body]).reshape(len(body), len(self.header) - 1)
        for j, name in enumerate(self.header[:-1]):
            self.columns.setdefault(name, self.matrix[:, j])
        m = re.search(r"([0-9]+) (?:accepted )?steps", stderr)
        self.steps = int(m.group(1)) if m else None

    def __getitem__(self, name):
        return self.columns[name]

    def __len__(self):
        return len(self.status)


def difference(a, b, skip=()):
    """The largest relative difference between two runs' columns (Results with the
    same rows: CPU and GPU, two layouts) other than those in skip, relative to the
    larger value or the column's RMS, and where it lies."""
    worst, where = 0.0, ""
    for col in a.header[2:-1]:
        if col in skip:
            continue
        x, y = a[col], b[col]
        scale = max(np.sqrt(np.mean(x * x)), 1e-300)
        d = np.abs(x - y) / np.maximum(np.maximum(np.abs(x), np.abs(y)), scale)
        i = int(np.argmax(d))
        if d[i] > worst:
            worst, where = float(d[i]), "%s row %d: %.17g vs %.17g" % (col, i, x[i], y[i])
    return worst, where


def run(runner, *args, expect_rc=0, env=None):
    """Runs a runner with --backend of the suite; returns its Result."""
    cmd = [runner, "--backend", BACKEND] + list(args)
    e = dict(os.environ)
    if env:
        e.update(env)
    p = _run(cmd, env=e)
    if p.returncode != expect_rc:
        raise Failure("%s exited %d (expected %d):\n%s" % (" ".join(cmd), p.returncode, expect_rc, p.stderr))
    return Result(p.stdout, p.stderr)


def run_cpu_gpu(runner, *args):
    """[cpu Result, gpu Result]: the same runner and arguments on both backends
    (--quiet), each required to exit 0."""
    out = []
    for backend in ("cpu", "gpu"):
        p = run_raw(runner, "--backend", backend, "--quiet", *args)
        check(p.returncode == 0, "%s --backend %s: %s" % (runner, backend, p.stderr))
        out.append(Result(p.stdout, p.stderr))
    return out


def agree_cpu_gpu(label, cpu, gpu, rel):
    """The CPU's and the GPU's Results of one scan (run_cpu_gpu): the same statuses
    row for row and NaNs at the same places, the finite values within rel of their
    column's largest; prints the statuses' counts and the largest difference, and
    returns the counts."""
    check(list(cpu.status) == list(gpu.status), "%s: statuses differ at rows %s" % (
        label, np.nonzero(cpu.status != gpu.status)[0][:10]))
    a, b = cpu.matrix, gpu.matrix
    check(np.array_equal(np.isnan(a), np.isnan(b)), "%s: NaNs at different places" % label)
    fin = np.isfinite(a) & np.isfinite(b)
    scale = np.max(np.where(fin, np.abs(a), 0), axis=0) + 1e-300
    worst = float(np.max(np.where(fin, np.abs(a - b), 0) / scale))
    counts = {s: int(np.sum(cpu.status == s)) for s in sorted(set(cpu.status))}
    print("    %-28s %s; %d NaN values; largest difference %.1e" % (label, counts, int(np.sum(np.isnan(a))), worst))
    check(worst <= rel, "%s: GPU and CPU differ by %.2e (allowed %g)" % (label, worst, rel))
    return counts


def with_lines(path, extra):
    """The text of the .ode file at path with lines added before its done line."""
    return re.sub(r"(?m)^done\s*$", lambda m: extra + "\ndone", open(path).read(), count=1)


def run_raw(runner, *args, env=None):
    e = dict(os.environ)
    if env:
        e.update(env)
    return _run([runner] + list(args), env=e)


def _one(fn):
    t0 = time.time()
    try:
        fn()
        return "ok", "", time.time() - t0
    except Failure as e:
        return "FAILED", str(e), time.time() - t0
    except Exception as e:  # a crash of the test itself is a failure too
        return "ERROR", repr(e), time.time() - t0


def main(tests):
    """Runs the test functions given (name → function); prints one line each.
    ODEGEN_JOBS=N runs N tests at a time (their builds dominate: nvcc)."""
    only = sys.argv[1:]
    chosen = [(n, f) for n, f in tests if not only or any(o in n for o in only)]
    jobs = int(os.environ.get("ODEGEN_JOBS", "1"))
    failed = 0
    if jobs > 1:   # each line as its test ends (a run cut off by a time limit still shows what ended)
        from concurrent.futures import ThreadPoolExecutor, as_completed
        with ThreadPoolExecutor(jobs) as pool:
            running = {pool.submit(_one, fn): name for name, fn in chosen}
            for done in as_completed(running):
                _report(running[done], done.result())
                failed += done.result()[0] != "ok"
    else:
        for name, fn in chosen:
            res = _one(fn)
            _report(name, res)
            failed += res[0] != "ok"
    print("%d failed" % failed if failed else "all passed")
    return 1 if failed else 0


def _report(name, res):
    kind, message, seconds = res
    if kind == "ok":
        print("ok      %-40s %5.1fs" % (name, seconds), flush=True)
    else:
        print("%-7s %s\n        %s" % (kind, name, message.replace("\n", "\n        ")), flush=True)
