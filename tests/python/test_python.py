"""tests/python/test_python.py — the Python package (python/odegen, SPEC §5b).

  * scans against the runner built from the same generated source: bit for bit, on models
    with events and accessories (the valve), in float precision, grids and the file's scans;
  * runs, slices (chunk=), progress callbacks, run-time options;
  * the cache: no rebuild when nothing changed, a rebuild when the model, the options, the
    build flags or the translator's output change, two processes building at once;
  * errors: the translator's message with its caret, bad names, shapes, NaN, sizes refused
    before anything is allocated, a missing GPU, a missing numpy or matplotlib;
  * Ctrl-C (SIGINT) during a scan: KeyboardInterrupt, the model still usable;
  * the command line (odegen says what it wrote), and the Python examples at a small size.

  /usr/bin/python3 tests/python/test_python.py [NAME…]

Environment: ODEGEN_BACKEND=gpu builds with nvcc and runs on the GPU (scans and runner alike;
run it on a machine with one).  Models are built with the C compiler otherwise, into the cache
build/tests/python-cache (reused between runs: its keys are content hashes).
"""
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("ODEGEN_CACHE", os.path.join(ROOT, "build", "tests", "python-cache"))
os.environ.setdefault("OMP_NUM_THREADS", "2")
os.environ["ODEGEN_JOBS"] = "1"   # one test at a time: test_cache changes the environment

import numpy as np  # noqa: E402

import odegen  # noqa: E402
from odegen_test import Failure, Result as Csv, check, main  # noqa: E402

BACKEND = os.environ.get("ODEGEN_BACKEND", "cpu")
BUILD = "cuda" if BACKEND == "gpu" else "cpu"
WORK = os.path.join(ROOT, "build", "tests", "python")
MODELS = os.path.join(ROOT, "models")
PY = sys.executable


def work(name):
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def write(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    return path


def load(path, **kw):
    kw.setdefault("build", BUILD)
    kw.setdefault("quiet", True)
    return odegen.load(path, **kw)


def runner_of(model):
    """The runner built from the very source of `model`'s library (a copy of its cache folder)."""
    d = os.path.join(WORK, "runners", os.path.basename(model._built.folder))
    exe = os.path.join(d, model.name)
    if not os.path.exists(exe):
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(model._built.folder, d)
        p = subprocess.run(["make", "-s", "-C", d, "BACKEND=" + BUILD, model.name], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        check(p.returncode == 0, "building the runner failed:\n" + p.stdout[-3000:])
    return exe


def run_runner(model, *args):
    p = subprocess.run([runner_of(model), "--backend", BACKEND, "--quiet"] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "runner %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr))
    return Csv(p.stdout, p.stderr)


def optional(module, package):
    """The module, or None after saying that the test needing it is skipped without Debian's package."""
    try:
        return __import__(module)
    except ImportError:
        print("    (%s missing: skipped; Debian: %s)" % (module, package))
        return None


def listed(values):
    return "list(%s)" % ",".join(repr(float(v)) for v in values)


def same_as_runner(r, csv, fields, what):
    """Every recorded value and status of Result r equals the runner's CSV, bit for bit."""
    n, reps = r.systems, r.reps
    check(len(csv) == n * reps, "%s: the runner wrote %d rows, the scan has %d x %d" % (what, len(csv), n, reps))
    check(np.array_equal(csv["system"], np.repeat(np.arange(n), reps)), "%s: row order" % what)
    for f in fields:
        a, b = r[f].reshape(-1), csv[f]
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        if not same.all():
            i = int(np.flatnonzero(~same)[0])
            raise Failure("%s: %s of system %d rep %d: %.17g from Python, %.17g from the runner"
                          % (what, f, i // reps, i % reps, a[i], b[i]))
    check(np.array_equal(r.status.reshape(-1), csv.status), "%s: statuses differ" % what)


# ------------------------------------------------------------------ against the runner

def test_duffing_against_runner():
    """RK4 Duffing: a scan of k with B set, five fields, equal to the runner's CSV bit for bit."""
    m = load(os.path.join(MODELS, "duffing.ode"))
    k = np.linspace(0.2, 0.3, 37)
    fields = ["k", "B", "y1", "y2", "t"]
    r = m.scan({"k": k, "B": 0.35}, transient=5, record=3, fields=fields, backend=BACKEND)
    check(r["y1"].shape == (37, 3) and r.status.shape == (37, 3), "shapes %s %s" % (r["y1"].shape, r.status.shape))
    check(np.array_equal(r.inputs["k"], k) and np.all(r.inputs["B"] == 0.35), "inputs")
    check(np.array_equal(r["k"][:, 0], k), "the recorded k is the given k")
    csv = run_runner(m, "--scan", "k=" + listed(k), "--set", "B=0.35", "--transient", "5", "--recorded", "3",
                     "--fields", ",".join(fields))
    same_as_runner(r, csv, fields, "duffing")
    check(r.counts == {"finished": 37} and r.steps > 0, "counts %s steps %s" % (r.counts, r.steps))


def test_valve_against_runner():
    """The valve (RKCK45, an event that stops, an impact event, accessories): values and
    statuses (event, equilibrium) equal to the runner's."""
    m = load(os.path.join(MODELS, "valve.ode"))
    q = np.concatenate([np.linspace(0.2, 8, 20), np.linspace(8.6, 10, 4)])
    fields = ["q", "ymax", "ymin", "y1", "t"]
    r = m.scan({"q": q}, transient=200, record=4, fields=fields, backend=BACKEND)
    csv = run_runner(m, "--scan", "q=" + listed(q), "--transient", "200", "--recorded", "4",
                     "--fields", ",".join(fields))
    same_as_runner(r, csv, fields, "valve")
    check(set(np.unique(r.status)) == {"event", "equilibrium"}, "statuses %s" % np.unique(r.status))
    check(np.all(r["ymin"] <= r["ymax"]), "ymin <= ymax")


def test_float_against_runner():
    """duffing_maxima (accessories updated at every step and at an event) in float precision:
    the library's values are floats, and the runner's are the same ones."""
    d = work("float")
    text = open(os.path.join(MODELS, "duffing_maxima.ode")).read()
    path = write(d, "maxima.ode", text.replace("peak = -1e300", "peak = -1e30"))   # a float's range
    m = load(path, precision="float")
    k = np.linspace(0.2, 0.3, 16)
    fields = ["ymax", "peak", "y1", "k"]
    r = m.scan({"k": k}, transient=6, record=3, fields=fields, backend=BACKEND)
    csv = run_runner(m, "--scan", "k=" + listed(k), "--transient", "6", "--recorded", "3",
                     "--fields", ",".join(fields))
    same_as_runner(r, csv, fields, "float duffing_maxima")
    check(np.array_equal(r["y1"], r["y1"].astype(np.float32)), "float values are floats")
    check(not np.array_equal(r["k"][:, 0], k), "k rounded to float inside")


def test_file_scan_and_grids():
    """Without values, the file's scan lines (lin, log, list, a state's initial value) in the
    runner's order; odegen.grid gives the same product as --scan lines; gridded shapes."""
    d = work("grids")
    path = write(d, "grid3.ode", """\
        par k=0.25, B=0.3
        y1'=y2
        y2'=y1-y1^3-k*y2+B*cos(t)
        @ meth=rk4, dt=0.05, total=6.283185307179586
        scan k = lin(0.2, 0.3, 5)
        scan B = log(0.1, 1, 3)
        scan y1 = list(0, 0.5)
        repeat transient=2, record=3
        record k, B, y1, y2
        done
        """)
    m = load(path)
    g = m.default_scan()
    check(isinstance(g, odegen.Grid) and g.shape == (5, 3, 2), "default scan %r" % (g,))
    r = m.scan(backend=BACKEND)
    check(r.systems == 30 and r.reps == 3 and r.fields == ("k", "B", "y1", "y2"), "default scan result %r" % r)
    csv = run_runner(m)
    same_as_runner(r, csv, r.fields, "the file's scan")
    check(r.gridded("y2").shape == (5, 3, 2, 3), "gridded shape")
    check(np.array_equal(r.gridded("B")[2, :, 1, 0], r.axes["B"]), "grid order: B along axis 1")
    h5py = optional("h5py", "python3-h5py")
    if h5py:
        r.save(os.path.join(d, "grid3.h5"))
        h5, csv_path = runner_h5(m, "grid3")
        if h5:
            same_h5(h5, os.path.join(d, "grid3.h5"), "the file's scan (lin, log, an initial value)")
        check_h5(os.path.join(d, "grid3.h5"), csv_path)
        with h5py.File(os.path.join(d, "grid3.h5"), "r") as f:
            check(f["y2"].shape == (5, 3, 2, 3) and f["y1_0"].attrs["definition"] == "the model's scan line (2 values)",
                  "the file's scan saved: %s %r" % (f["y2"].shape, dict(f["y1_0"].attrs)))

    k, y1 = np.array([0.21, 0.27]), np.array([-0.3, 0.1, 0.4])
    r2 = m.scan(odegen.grid(y1=y1, k=k), transient=1, record=2, backend=BACKEND)
    csv2 = run_runner(m, "--scan", "y1=" + listed(y1), "--scan", "k=" + listed(k), "--transient", "1",
                      "--recorded", "2")
    same_as_runner(r2, csv2, r2.fields, "grid(y1=…, k=…)")
    check(np.array_equal(r2.inputs["k"], np.tile(k, 3)), "the last name varies fastest")


def test_slices_runs_and_options():
    """chunk= gives the same numbers; run() chained equals a scan's recorded integrations;
    options= runs the variant built with them, equal to odegen.load(options=) and to the
    runner of a model translated with --option."""
    m = load(os.path.join(MODELS, "duffing.ode"))
    k = np.linspace(0.2, 0.3, 35)
    whole = m.scan({"k": k}, transient=2, record=2, backend=BACKEND)
    sliced = m.scan({"k": k}, transient=2, record=2, backend=BACKEND, chunk=8)
    for f in whole:
        check(np.array_equal(whole[f], sliced[f]), "chunk=8: %s differs" % f)

    first = m.run({"k": k}, backend=BACKEND)
    second = m.run({"k": k, "y1": first["y1"], "y2": first["y2"]}, backend=BACKEND, chunk=16)
    both = m.scan({"k": k}, transient=0, record=2, fields=["y1", "y2"], backend=BACKEND)
    check(np.array_equal(first["y1"], both["y1"][:, 0]) and np.array_equal(second["y2"], both["y2"][:, 1]),
          "run, run again from its end == a scan of two integrations")
    check(np.all(first["t"] == first["t1"]) and first.status.shape == (35,) and first.counts == {"finished": 35},
          "run: t, status")
    win = m.run({"k": 0.25, "t0": 1.0, "t1": 2.5}, backend=BACKEND)
    check(win.systems == 1 and win["t0"][0] == 1.0 and win["t"][0] == 2.5, "run over a given window")

    fine = m.scan({"k": k}, transient=2, record=2, backend=BACKEND, options={"dt": 0.005})
    variant = load(os.path.join(MODELS, "duffing.ode"), options={"dt": 0.005})
    direct = variant.scan({"k": k}, transient=2, record=2, backend=BACKEND)
    check(np.array_equal(fine["y1"], direct["y1"]), "options={'dt': ...} == load(options=...)")
    check(not np.array_equal(fine["y1"], whole["y1"]), "dt=0.005 changes the numbers")
    check(np.allclose(fine["y1"], whole["y1"], atol=1e-6), "dt=0.005 and dt=0.01 agree to RK4's accuracy")
    csv = run_runner(variant, "--scan", "k=" + listed(k), "--transient", "2", "--recorded", "2")
    same_as_runner(fine, csv, ["y1", "y2"], "dt=0.005")
    rk = load(os.path.join(MODELS, "duffing.ode"), method="rkck45", options={"toler": 1e-9, "atoler": 1e-9})
    check(np.allclose(rk.scan({"k": k}, transient=2, record=2, backend=BACKEND)["y1"], whole["y1"], atol=1e-6),
          "method='rkck45' agrees with RK4")


def test_progress():
    """A progress callable sees a monotonic count to the total over all slices; one that
    raises stops the scan, its exception comes out, and the model still works."""
    m = load(os.path.join(MODELS, "duffing.ode"))
    seen = []
    m.scan({"k": np.linspace(0.2, 0.3, 40)}, transient=2, record=1, chunk=10, backend=BACKEND,
           progress=lambda done, total: seen.append((done, total)))
    check(seen and seen[-1] == (40, 40) and all(t == 40 for _, t in seen), "progress calls %s" % seen)
    check(all(a[0] <= b[0] for a, b in zip(seen, seen[1:])), "progress is monotonic: %s" % seen)

    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop("from the callback")

    try:
        m.scan({"k": np.linspace(0.2, 0.3, 40)}, transient=2, record=1, backend=BACKEND, progress=stop)
        raise Failure("a raising progress callback did not stop the scan")
    except Stop:
        pass
    r = m.scan({"k": [0.25]}, transient=1, record=1, backend=BACKEND, progress=False)
    check(r.counts == {"finished": 1}, "usable after a stopped scan")


# ------------------------------------------------------------------ errors

def expect(kind, pattern, fn):
    try:
        fn()
    except kind as e:
        check(re.search(pattern, str(e)), "message %r does not match %r" % (str(e), pattern))
        return e
    raise Failure("no %s (%s)" % (kind.__name__, pattern))


def test_statuses_and_lyapunov_warning():
    """The statuses that say a number is not a result (issue 19) reach Python as they reach the
    runner's CSV: `unstable` (RK4 outside its stability region), `empty` (a window that `on
    end` emptied), with their counts; and the runner's warning about the Lyapunov spectrum is
    a RuntimeWarning (Rössler with DOPRI5 at 1e-3: lyap_trace_err about 3), with
    result.lyap_trace_off; none at a tight tolerance."""
    import warnings
    d = work("statuses")
    stiff = load(write(d, "stiff.ode", """\
        par lam=1000
        x'=-lam*(x-cos(t))
        acc ends
        on end { ends = ends + 1; t0 = t }
        @ meth=rk4, dt=0.01, total=1
        repeat transient=0, record=3
        done
        """))
    r = stiff.scan({"lam": [1000.0, 1.0]}, fields=["x", "ends"], backend=BACKEND)
    check(r.status.tolist() == [["unstable"] * 3, ["finished", "empty", "empty"]], "statuses %s" % r.status.tolist())
    check(r.counts == {"unstable": 1, "empty": 1} and r["ends"][1].tolist() == [1, 1, 1],
          "counts %s, on end ran %s times" % (r.counts, r["ends"][1]))
    # The codes are the C library's (_lib.py checks the names against it when it loads);
    # later statuses (history, ...) come after these two.
    check(odegen.STATUS_NAMES[9:11] == ("empty", "unstable"), "STATUS_NAMES %s" % (odegen.STATUS_NAMES,))
    rossler = load(os.path.join(ROOT, "tests", "lyapunov", "rossler.ode"))   # DOPRI5 at 1e-3, every=1
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        r = rossler.scan(record=20, backend=BACKEND)
    said = [str(w.message) for w in seen if issubclass(w.category, RuntimeWarning)]
    check(r.lyap_trace_off == 1 and len(said) == 1 and "in 1 of 1 systems the sum of the Lyapunov exponents" in said[0],
          "loose tolerance: lyap_trace_off %s, warnings %s" % (r.lyap_trace_off, said))
    check(abs(r["lyap_trace_err"][0, -1]) > 1, "lyap_trace_err %r" % r["lyap_trace_err"][0, -1])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        r = rossler.scan(record=20, backend=BACKEND, options={"toler": 1e-10, "atoler": 1e-10})
    check(r.lyap_trace_off == 0 and not [w for w in seen if issubclass(w.category, RuntimeWarning)],
          "tight tolerance: %s %s" % (r.lyap_trace_off, [str(w.message) for w in seen]))


def test_model_errors():
    """A bad .ode file raises ModelError with the translator's text: file:line:col, the line,
    the caret; every error of the file; nothing is cached for it."""
    d = work("errors")
    path = write(d, "bad.ode", """\
        par kappa=1
        x'=-kapa*x
        y'=x+
        """)
    e = expect(odegen.ModelError, r"bad\.ode:2:5: error: unknown name 'kapa'; did you mean 'kappa'", lambda: load(path))
    check("\n    2 | x'=-kapa*x\n      |     ^~~~\n" in e.text, "caret line in %r" % e.text)
    check("bad.ode:3:" in e.text and "2 errors" in e.text, "every error in one message: %r" % e.text)
    check(not any(n.startswith("bad-") for n in os.listdir(odegen.cache_dir())), "nothing cached for a bad model")
    expect(FileNotFoundError, "no such .ode file", lambda: load(os.path.join(d, "missing.ode")))
    expect(odegen.ModelError, "dt must be positive", lambda: load(os.path.join(MODELS, "duffing.ode"),
                                                                  options={"dt": -1}))
    # ('euler2' is XPPAUT's euler since XPPAUT's first-letter reading of methods)
    expect(odegen.ModelError, "method 'volterra': XPPAUT reads it as volterra, which integrates Volterra",
           lambda: load(os.path.join(MODELS, "duffing.ode"), method="volterra"))
    expect(ValueError, "precision must be 'double' or 'float'", lambda: load(path, precision="half"))


def test_notes_and_strict_options():
    """The translator's warnings and notes are Python warnings (ModelWarning, ModelNote) at the
    caller's line, each once with Python's default filters when a model is loaded again;
    method= and options= of load are read strictly (an unknown method or option is a
    ModelError, not XPPAUT's first-letter reading); scan's options= tells an unknown option
    from one that needs a rebuild; the three lists (with NOISE_OPTIONS) are the translator's options."""
    d = work("notes")
    path = write(d, "jumpy.ode", """\
        par a=1
        x'=-a*x+sign(x)
        y'=-y
        lyapunov 1
        @ xp=x
        done
        """)
    script = textwrap.dedent("""\
        import sys
        sys.path.insert(0, %r)
        import odegen
        for i in range(2):
            m = odegen.load(%r, build="cpu", quiet=True)
        print(len(m.notes.splitlines()))
        """) % (os.path.join(ROOT, "python"), path)
    p = subprocess.run([PY, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "loading a model with notes: %r" % p.stderr)
    check(p.stderr.count("<string>:5: ModelNote: %s:5:3: note: XPPAUT option 'xp' is ignored" % path) == 1 and
          p.stderr.count("<string>:5: ModelWarning: %s:2:9: warning: f jumps where this sign() switches" % path) == 1
          and "    2 | x'=-a*x+sign(x)\n" in p.stderr, "the note and the warning, once each, at the caller's line: %r"
          % p.stderr)
    check(int(p.stdout) == 6, "m.notes keeps the translator's text: %r" % p.stdout)

    duffing = os.path.join(MODELS, "duffing.ode")
    expect(odegen.ModelError, r"unknown method 'bogus': the methods are euler, .* rodas5p",
           lambda: load(duffing, method="bogus"))
    expect(odegen.ModelError, r"unknown option 'zz'; odegen's options are meth, dt",
           lambda: load(duffing, options={"zz": 1}))
    m = load(duffing)
    k = [0.25]
    expect(ValueError, r"^unknown option 'zz'; the run-time options are dt, .* \(and odegen.load\(path, options=…\) "
           r"takes meth, prec", lambda: m.scan({"k": k}, options={"zz": 1}))
    expect(ValueError, r"^unknown option 'dtt'; .*; did you mean 'dt'\?$", lambda: m.scan({"k": k}, options={"dtt": 1}))
    expect(ValueError, r"option 'hgrow' cannot change from one scan to the next.*odegen.load",
           lambda: m.scan({"k": k}, options={"hgrow": 2}))
    p = subprocess.run([os.path.join(ROOT, "build", "odegen"), duffing, "--check", "--option", "zz=1"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    listed = re.search(r"odegen's options are ([a-z0-9_, ]+)", p.stderr)
    check(listed and sorted(listed.group(1).split(", ")) == sorted(odegen.RUNTIME_OPTIONS + odegen.NOISE_OPTIONS
                                                                            + odegen.CODE_OPTIONS),
          "odegen.RUNTIME_OPTIONS + NOISE_OPTIONS + CODE_OPTIONS are the translator's options: %r" % p.stderr)


def test_build_for_this_machine():
    """Without a GPU, load() builds with the C compiler even where nvcc is installed (an nvcc
    build takes minutes), and backend="gpu" says "no GPU" at once instead of building; with
    build="cuda" nvcc is used.  (An nvcc that only leaves a mark stands in for the real one.)"""
    present, why = odegen.gpu_present()
    if BACKEND == "gpu":
        check(present, "on the GPU suite's machine odegen.gpu_present() says: %s" % why)
    if present:
        check(odegen._build._build_vars("auto")["BACKEND"] == ("cuda" if odegen._build.nvcc() else "cpu"),
              "with a GPU, build='auto' uses nvcc where there is one")
        print("    (a GPU is present: build='auto' uses nvcc)")
        return
    d = work("machine")
    fake = os.path.join(d, "bin")
    os.makedirs(fake)
    mark = os.path.join(d, "nvcc-ran")
    write(fake, "nvcc", "#!/bin/sh\necho \"$@\" >> %s\nexit 1\n" % mark)
    os.chmod(os.path.join(fake, "nvcc"), 0o755)
    path = write(d, "machine.ode", open(os.path.join(MODELS, "duffing.ode")).read())
    saved = dict(os.environ)
    os.environ["PATH"] = fake + os.pathsep + os.environ["PATH"]
    os.environ["ODEGEN_CACHE"] = os.path.join(d, "cache")
    try:
        check(odegen._build.nvcc() == os.path.join(fake, "nvcc"), "the stand-in nvcc is the one found")
        m = odegen.load(path, quiet=True)
        check(m._built.backend == "cpu" and not os.path.exists(mark), "build='auto' without a GPU used nvcc")
        r = m.scan({"k": [0.25]}, transient=1, record=1)
        check(r.counts == {"finished": 1} and r.device.startswith("CPU"), "scan on the CPU: %r" % r)
        expect(odegen.OdegenError, r"^no GPU \(%s\)" % re.escape(why), lambda: m.scan({"k": [0.25]}, backend="gpu"))
        check(not os.path.exists(mark), "backend='gpu' without a GPU built with nvcc")
        expect(odegen.BuildError, r"building machine failed", lambda: odegen.load(path, build="cuda", quiet=True))
        check(os.path.exists(mark), "build='cuda' did not use nvcc")
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_input_errors():
    """Bad names (with suggestions), kinds that cannot be given, shapes, NaN, types, fields,
    counts, backends, options: a clear exception before anything runs."""
    m = load(os.path.join(MODELS, "duffing_maxima.ode"))
    k = np.linspace(0.2, 0.3, 4)
    cases = [
        (ValueError, r"unknown name 'kk'; did you mean 'k'\? \(parameters: k, B; states: y1, y2\)",
         lambda: m.scan({"kk": k})),
        (ValueError, r"cannot give 'ymax': it is an accessory", lambda: m.scan({"ymax": k})),
        (ValueError, r"cannot give 'top': it is an event", lambda: m.run({"top": 1})),
        (ValueError, r"'k' must be a number or a 1-D array, not an array of shape \(2, 2\)",
         lambda: m.scan({"k": k.reshape(2, 2)})),
        (ValueError, r"different lengths \(k: 4, B: 3\).*odegen.grid", lambda: m.scan({"k": k, "B": [1, 2, 3]})),
        (ValueError, r"'B' has no values", lambda: m.scan({"k": k, "B": []})),
        (ValueError, r"k\[2\] is nan: values must be finite", lambda: m.scan({"k": [0.2, 0.3, np.nan]})),
        (ValueError, r"y1 is inf", lambda: m.run({"y1": np.inf})),
        (TypeError, r"'k': numbers are needed", lambda: m.scan({"k": ["a", "b"]})),
        (ValueError, r"'k' is given twice", lambda: m.scan({"k": k, "K": k})),
        (TypeError, r"dict of values per name", lambda: m.scan([0.2, 0.3])),
        (ValueError, r"unknown field 'ymx'; did you mean 'ymax'\?", lambda: m.scan({"k": k}, fields=["ymx"])),
        (ValueError, r"field 'y1' is listed twice", lambda: m.scan({"k": k}, fields=["y1", "Y1"])),
        (ValueError, r"transient must be a whole number from 0", lambda: m.scan({"k": k}, transient=-1)),
        (ValueError, r"record must be a whole number", lambda: m.scan({"k": k}, record=True)),
        (ValueError, r"record must be a whole number", lambda: m.scan({"k": k}, record=2.5)),
        (ValueError, r"backend must be 'auto', 'cpu' or 'gpu'", lambda: m.scan({"k": k}, backend="tpu")),
        (ValueError, r"devices= goes with the GPU backend", lambda: m.scan({"k": k}, backend="cpu", devices=[0])),
        (ValueError, r"chunk: a whole number of systems", lambda: m.scan({"k": k}, chunk=0)),
        (ValueError, r"option 'meth' cannot change from one scan to the next.*odegen.load",
         lambda: m.scan({"k": k}, options={"meth": "rk4"})),
        (TypeError, r"progress must be None, True, False or a callable", lambda: m.scan({"k": k}, progress=3)),
        (ValueError, r"'k' is given twice", lambda: odegen.grid({"k": k}, k=k)),
        (ValueError, r"needs at least one", lambda: odegen.grid()),
        # windows with nothing to integrate (issue 19): per system, and the options' own
        (ValueError, r"empty window \(t1 <= t0, or not a number\) in 2 of 4 systems: 1, 3; e.g. system 1 has "
                     r"t0 = 0.0, t1 = -1.0", lambda: m.scan({"k": k, "t1": [1, -1, 2, 0]})),
        (ValueError, r"empty window .* in 1 of 1 systems: 0; e.g. system 0 has t0 = 5.0, t1 = 5.0",
         lambda: m.run({"t0": 5, "t1": 5})),
        (odegen.OdegenError, r"empty window .*t0 \+ total is t0 in double precision",
         lambda: m.run(options={"t0": 1e17, "total": 6.0})),
    ]
    for kind, pattern, fn in cases:
        expect(kind, pattern, fn)
    r = m.scan({"k": k}, transient=0, record=1, fields=["y1"], backend=BACKEND)
    expect(KeyError, r"no field 'k' here .*'k' was scanned: its value per system is result.inputs\['k'\]",
           lambda: r["k"])
    check(r["Y1"] is r["y1"], "field names are case-insensitive")
    if BACKEND == "cpu" and not odegen.gpu_present()[0]:
        # A GPU asked of a library that cannot use one: where there is none, said at once.
        expect(odegen.OdegenError, r"no GPU \(", lambda: m.scan({"k": k}, backend="gpu"))


def test_huge_sizes_refused():
    """Scans whose results cannot fit are refused at once with the sizes and the way out
    (the runner's HDF5 output), before anything large is allocated."""
    m = load(os.path.join(MODELS, "duffing.ode"))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.time()
    expect(MemoryError, r"results of 1000000000000 systems x 32 recorded integrations of 2 fields need .* GiB.*HDF5",
           lambda: m.scan(odegen.grid(k=np.linspace(0.2, 0.3, 10 ** 6), B=np.linspace(0, 1, 10 ** 6)), record=32))
    expect(MemoryError, r"results of 10 systems x 2000000000 recorded", lambda: m.scan({"k": np.ones(10)},
                                                                                         record=2 * 10 ** 9))
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    check(time.time() - t0 < 5 and grown < 200 * 1024, "refused after %.1f s, %d kB more memory"
          % (time.time() - t0, grown))


def test_missing_packages():
    """Without numpy, `import odegen` says how to get it, without a traceback; an example
    without matplotlib likewise; with Debian's Python, `import odegen` works from the root."""
    p = subprocess.run([PY, "-c", "import sys; sys.modules['numpy'] = None; import odegen"], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 1 and "Traceback" not in p.stderr and "has no module 'numpy'" in p.stderr and
          ("apt-get install python3-numpy" in p.stderr or "Debian's Python has it" in p.stderr),
          "import odegen without numpy: %d %r" % (p.returncode, p.stderr))
    code = ("import sys, runpy; sys.modules['matplotlib'] = None; "
            "sys.argv = ['x', '--size', 'small', '-o', '/dev/null']; "
            "runpy.run_path('examples/python/duffing_bifurcation.py', run_name='__main__')")
    p = subprocess.run([PY, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 1 and "Traceback" not in p.stderr and "python3-matplotlib" in p.stderr,
          "example without matplotlib: %d %r" % (p.returncode, p.stderr))
    p = subprocess.run([PY, "-c", "import odegen; print(odegen.__file__)"], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0 and p.stdout.strip() == os.path.join(ROOT, "python", "odegen", "__init__.py"),
          "import odegen from the root: %r %r" % (p.stdout, p.stderr))


# ------------------------------------------------------------------ interruption

def test_interrupt():
    """SIGINT during a long scan: KeyboardInterrupt within a second or so (on the GPU: at the
    end of the launch in flight, in slices of 20000 systems here), and the model works
    afterwards."""
    n, transient, chunk, limit = (20000, 1000, None, 5) if BACKEND == "cpu" else (400000, 2000, 20000, 60)
    script = textwrap.dedent("""\
        import os, sys, time
        sys.path.insert(0, %r)
        import numpy as np, odegen
        m = odegen.load(%r, build=%r, quiet=True)
        told = []
        def progress(done, total):
            if not told:
                told.append(1)
                print("running", flush=True)
        t0 = time.time()
        try:
            m.scan({"k": np.linspace(0.2, 0.3, %d)}, transient=%d, record=1, backend=%r, chunk=%r,
                   progress=progress)
            print("not interrupted")
        except KeyboardInterrupt:
            print("KeyboardInterrupt after %%.2f s" %% (time.time() - t0), flush=True)
            r = m.scan({"k": [0.25]}, transient=1, record=1, backend=%r)
            print("then", r.counts)
        """) % (os.path.join(ROOT, "python"), os.path.join(MODELS, "duffing.ode"), BUILD, n, transient, BACKEND, chunk,
                BACKEND)
    # SIGINT back to its default in the child: a test run in the background by a shell without job
    # control (as CI may) inherits it ignored, and Python then leaves it ignored (no KeyboardInterrupt)
    p = subprocess.Popen([PY, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    line = p.stdout.readline()
    check(line.strip() == "running", "the scan did not start: %r %r" % (line, p.stderr.read() if not line else ""))
    time.sleep(0.3)
    sent = time.time()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    waited = time.time() - sent
    check(p.returncode == 0 and "KeyboardInterrupt after" in out and "then {'finished': 1}" in out,
          "after SIGINT: %d %r %r" % (p.returncode, out, err))
    check(waited < limit, "the scan took %.1f s to stop" % waited)


# ------------------------------------------------------------------ the cache

def test_cache():
    """Built once; loaded as it is when nothing changed; rebuilt when the model, the options,
    the build flags or the translator's output change."""
    d = work("cache")
    env_cache = os.environ["ODEGEN_CACHE"]
    os.environ["ODEGEN_CACHE"] = os.path.join(d, "cache")
    try:
        text = open(os.path.join(MODELS, "duffing.ode")).read()
        path = write(d, "osc.ode", text)
        a = load(path)
        b = load(path)
        check(a.built and not b.built and a._built.folder == b._built.folder, "second load is cached")
        write(d, "osc.ode", text.replace("par k=0.25", "par k=0.26"))
        c = load(path)
        check(c.built and c._built.folder != a._built.folder and c.defaults["k"] == 0.26, "a changed model rebuilds")
        e = load(path, options={"dt": 0.02})
        f = load(path, options={"dt": 0.02})
        check(e.built and not f.built and e._built.folder != c._built.folder, "options: built once")
        g = load(path, precision="float")
        check(g.built, "precision rebuilds")
        os.environ["CFLAGS"] = "-O1"
        try:
            h = load(path)
        finally:
            del os.environ["CFLAGS"]
        check(h.built and h._built.folder != c._built.folder, "CFLAGS rebuild")
        wrapper = write(d, "translator.sh", """\
            #!/bin/sh
            # the real translator, then a change as a new template would make
            "%s" "$@" || exit $?
            while [ "$1" != -o ]; do shift; done
            echo "/* a newer template */" >> "$2/osc.cu"
            """ % os.path.join(ROOT, "build", "odegen"))
        os.chmod(wrapper, 0o755)
        p = subprocess.run([PY, "-c", "import odegen; m = odegen.load(%r, build=%r, quiet=True); print(m.built)"
                            % (path, BUILD)], cwd=ROOT, env=dict(os.environ, ODEGEN_TRANSLATOR=wrapper),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(p.stdout.strip() == "True", "another translator output rebuilds: %r %r" % (p.stdout, p.stderr))
        check(not load(path).built, "the first build is still there")
        check(not os.listdir(os.path.join(d, "cache", ".tmp")), "no temporary folder left")
    finally:
        os.environ["ODEGEN_CACHE"] = env_cache


def test_cache_concurrent():
    """Two processes loading a new model at the same moment: one builds, the other waits for
    it and loads the same library; both scan correctly."""
    d = work("concurrent")
    path = write(d, "twice.ode", open(os.path.join(MODELS, "duffing.ode")).read())
    code = ("import odegen, numpy as np; m = odegen.load(%r, build=%r); "
            "r = m.scan({'k': [0.25]}, transient=2, record=1, backend=%r); "
            "print(m.built, m._built.folder, repr(r['y1'][0, 0]))" % (path, BUILD, BACKEND))
    env = dict(os.environ, ODEGEN_CACHE=os.path.join(d, "cache"))
    procs = [subprocess.Popen([PY, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    check(all(p.returncode == 0 for p in procs), "both succeed: %r" % outs)
    lines = [o.split() for o, _ in outs]
    check(sorted(l[0] for l in lines) == ["False", "True"], "exactly one built: %r" % outs)
    check(lines[0][1:] == lines[1][1:], "the same library and result: %r" % lines)
    check(sum(e.count("odegen: building twice") for _, e in outs) == 1, "one build message: %r" % outs)
    check(len([n for n in os.listdir(os.path.join(d, "cache")) if n.startswith("twice-")]) == 1, "one entry")


# ------------------------------------------------------------------ HDF5 and xarray

PROVENANCE = {"command_line", "device", "scan", "call", "definition"}   # how the run was asked for


def h5_contents(path):
    """{name: (kind, shape, dtype, enum, dimension scales, attributes, values)} of an HDF5
    file, read with h5py alone; the attributes that say how the run was asked for apart."""
    import h5py
    out, asked = {}, {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            attrs = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in obj.attrs.items()
                     if k not in ("DIMENSION_LIST", "REFERENCE_LIST")}
            asked.update({(name, k): attrs.pop(k) for k in list(attrs) if k in PROVENANCE})
            if isinstance(obj, h5py.Datatype):
                out[name] = ("type", h5py.check_enum_dtype(obj.dtype))
            elif isinstance(obj, h5py.Dataset):
                scales = [[dim[j].name for j in range(len(dim))] for dim in obj.dims]
                out[name] = ("dataset", obj.shape, obj.dtype.str, h5py.check_enum_dtype(obj.dtype), scales, attrs,
                             obj[...])
        f.visititems(visit)
        out["/"] = {k: v for k, v in f.attrs.items() if k not in PROVENANCE}
        asked.update({("/", k): v for k, v in f.attrs.items() if k in PROVENANCE})
    return out, asked


def same_h5(a, b, what):
    """Two HDF5 files hold the same layout and numbers, bit for bit (provenance of the call apart)."""
    (ca, _), (cb, _) = h5_contents(a), h5_contents(b)
    check(sorted(ca) == sorted(cb), "%s: objects %s against %s" % (what, sorted(ca), sorted(cb)))
    for name in ca:
        x, y = ca[name], cb[name]
        if name == "/" or x[0] == "type":
            check(x == y if name != "/" else sorted(x) == sorted(y) and all(
                np.array_equal(x[k], y[k]) for k in x), "%s: %s: %r against %r" % (what, name, x, y))
            continue
        check(x[:5] == y[:5], "%s: %s: %r against %r" % (what, name, x[:5], y[:5]))
        check(sorted(x[5]) == sorted(y[5]) and all(np.array_equal(x[5][k], y[5][k]) for k in x[5]),
              "%s: %s's attributes %r against %r" % (what, name, x[5], y[5]))
        check(np.array_equal(x[6], y[6], equal_nan=x[6].dtype.kind == "f"), "%s: %s's values differ" % (what, name))


def runner_h5(m, name, *args):
    """The runner of model m with args, as HDF5 (build/tests/python/h5/NAME.h5; None, said,
    where the runner was built without HDF5) and CSV."""
    d = os.path.join(WORK, "h5")
    os.makedirs(d, exist_ok=True)
    h5, csv = os.path.join(d, name + ".h5"), os.path.join(d, name + ".csv")
    for out in (h5, csv):
        p = subprocess.run([runner_of(m), "--backend", BACKEND, "--quiet"] + list(args) + ["-o", out],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if out == h5 and p.returncode == 1 and "built without HDF5" in p.stderr:
            print("    (the runner was built without HDF5 here: the Python file is read against its CSV only)")
            h5 = None
            continue
        check(p.returncode == 0, "runner %s -o %s: %s" % (" ".join(args), out, p.stderr))
    return h5, csv


def check_h5(path, csv):
    p = subprocess.run([PY, os.path.join(ROOT, "tests", "runtime", "check_h5.py"), path, csv], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "check_h5.py %s: %s%s" % (path, p.stdout, p.stderr))
    return p.stdout.strip()


def test_save_as_runner():
    """Result.save writes the runner's HDF5 file: for a product scan of two parameters that are
    also recorded (their coordinates), a Lyapunov exponent and a period (units "1"); and in
    float precision for a scan of a parameter and of a state's initial value (the dimension
    y1_0), with accessories: every dataset, dimension scale, type and attribute the same, the
    numbers bit for bit (check_h5.py also reads each against the runner's CSV); the
    provenance says where the numbers come from (the model's source, the options in force,
    the Python call)."""
    h5py = optional("h5py", "python3-h5py")
    if not h5py:
        return
    d = work("save")
    m = load(os.path.join(MODELS, "duffing_map.ode"))
    k, B = np.linspace(0.2, 0.3, 5), np.array([0.3, 0.4, 0.45])
    r = m.scan(odegen.grid(k=k, B=B), transient=6, record=4, backend=BACKEND, options={"dt": 0.02})
    r.save(os.path.join(d, "map.h5"))
    h5, csv = runner_h5(m, "map", "--scan", "k=" + listed(k), "--scan", "B=" + listed(B), "--transient", "6",
                        "--recorded", "4", "--set", "dt=0.02")
    if h5:
        same_h5(h5, os.path.join(d, "map.h5"), "duffing_map")
    print("    " + check_h5(os.path.join(d, "map.h5"), csv))
    with h5py.File(os.path.join(d, "map.h5"), "r") as f:
        check(sorted(f) == ["B", "enum_status", "k", "lyap1", "period", "rep", "status", "system"], "datasets %s" % list(f))
        check(f["period"].attrs["units"] == "1" and f["lyap1"].attrs["odegen_kind"] == "lyapunov" and
              "per unit time" in f["lyap1"].attrs["long_name"], "what the fields are: %r" % dict(f["lyap1"].attrs))
        check(f.attrs["source"] == open(os.path.join(MODELS, "duffing_map.ode")).read() and
              f.attrs["options"].startswith("meth=rkck45, dt=0.02, ") and f.attrs["precision"] == "double" and
              f.attrs["odegen_version"] and "odegen.grid(k=<5 values from 0.2 to 0.3>, B=[0.3, 0.4, 0.45])" in
              f.attrs["call"] and "options={'dt': 0.02}" in f.attrs["call"], "provenance %r" % dict(f.attrs))
        check(np.array_equal(f["lyap1"][...], r.gridded("lyap1")), "fields on (k, B, rep)")

    text = open(os.path.join(MODELS, "duffing_maxima.ode")).read()
    path = write(d, "maxima.ode", text.replace("peak = -1e300", "peak = -1e30"))   # a float's range
    mf = load(path, precision="float")
    k, y1 = np.array([0.21, 0.26]), np.array([-0.5, 0.0, 0.5])
    fields = ["ymax", "peak", "y1", "k", "t", "t0"]
    rf = mf.scan(odegen.grid(k=k, y1=y1), transient=2, record=3, fields=fields, backend=BACKEND)
    rf.save(os.path.join(d, "maxima.h5"))
    h5, csv = runner_h5(mf, "maxima", "--scan", "k=" + listed(k), "--scan", "y1=" + listed(y1), "--transient", "2",
                        "--recorded", "3", "--fields", ",".join(fields))
    if h5:
        same_h5(h5, os.path.join(d, "maxima.h5"), "float duffing_maxima")
    print("    " + check_h5(os.path.join(d, "maxima.h5"), csv))
    with h5py.File(os.path.join(d, "maxima.h5"), "r") as f:
        check(f["y1"].shape == (2, 3, 3) and f["y1"].dtype == np.float32 and "k" not in f["y1"].attrs["coordinates"]
              and list(f["y1_0"][...]) == list(y1) and f["y1_0"].attrs["target"] == "initial value",
              "float, initial values: %s %s" % (f["y1"].shape, f["y1"].dtype))


def test_xarray():
    """Result.to_xarray() is what xarray reads from the saved file and from the runner's
    (h5netcdf and netCDF4 engines, where installed): the same dimensions, coordinates,
    variables and attributes; .sel by a scanned value; several arrays of one value per
    system share the dimension `system` with the arrays as coordinates along it."""
    xr = optional("xarray", "python3-xarray python3-h5netcdf")
    if not xr:
        return
    d = work("xarray")
    m = load(os.path.join(MODELS, "duffing_map.ode"))
    k, B = np.linspace(0.2, 0.3, 4), np.array([0.3, 0.4])
    r = m.scan(odegen.grid(k=k, B=B), transient=3, record=2, backend=BACKEND)
    ds = r.to_xarray()
    check(ds["lyap1"].dims == ("k", "B", "rep") and list(ds.coords) == ["k", "B", "system", "rep"],
          "dimensions %s, coordinates %s" % (ds["lyap1"].dims, list(ds.coords)))
    check(np.array_equal(ds["lyap1"].sel(k=k[2], B=0.4).values, r.gridded("lyap1")[2, 1]), ".sel(k=…, B=…)")
    r.save(os.path.join(d, "r.h5"))
    h5, _ = runner_h5(m, "xr", "--scan", "k=" + listed(k), "--scan", "B=" + listed(B), "--transient", "3",
                      "--recorded", "2")
    files = [os.path.join(d, "r.h5")] + ([h5] if h5 else [])
    engines = []
    for engine in ("h5netcdf", "netcdf4"):
        for path in files:
            try:
                got = xr.open_dataset(path, engine=engine).load()
            except (ImportError, ValueError) as e:
                if "engine" in str(e) or isinstance(e, ImportError):
                    break
                raise
            want = ds
            if path != files[0]:   # the runner's: how the run was asked for differs
                got.attrs = {a: v for a, v in got.attrs.items() if a not in PROVENANCE}
                want = ds.copy()
                want.attrs = {a: v for a, v in ds.attrs.items() if a not in PROVENANCE}
                for c in ("k", "B"):
                    got[c].attrs.pop("definition")
                    want[c].attrs = {a: v for a, v in ds[c].attrs.items() if a != "definition"}
            xr.testing.assert_identical(got, want)
        else:
            engines.append(engine)
    installed = [e for e, mod in (("h5netcdf", "h5netcdf"), ("netcdf4", "netCDF4")) if optional(mod, "python3-" + e)]
    if installed:   # make test installs python3-h5netcdf (tools/packages); a GPU machine may lack both
        check(engines, "no xarray engine could read the files (installed: %s)" % ", ".join(installed))
        print("    to_xarray() == xarray's reading of the saved file%s (%s)" % (
            " and of the runner's" if len(files) > 1 else "", ", ".join(engines)))
    else:
        print("    (no xarray engine for HDF5 here: the files not read back by xarray)")

    one = m.scan({"k": k, "B": 0.35}, transient=1, record=2, backend=BACKEND).to_xarray()
    check(one["lyap1"].dims == ("k", "rep") and np.array_equal(one["k"].values, k) and "B" not in one.coords,
          "one array and a number: %s" % one)

    z = m.scan({"k": [0.2, 0.25, 0.3], "B": [0.3, 0.35, 0.4], "y1": 0.1}, transient=1, record=2, backend=BACKEND)
    dz = z.to_xarray()
    check(dz["lyap1"].dims == ("system", "rep") and dz["k"].dims == ("system",) and
          list(dz["B"].values) == [0.3, 0.35, 0.4] and "y1" not in dz.coords and "'y1': 0.1" in dz.attrs["call"],
          "values per system: %s" % dz)
    z.save(os.path.join(d, "z.h5"))
    if engines:
        xr.testing.assert_identical(xr.open_dataset(os.path.join(d, "z.h5"), engine=engines[0]).load(), dz)


# ------------------------------------------------------------------ command line and examples

def test_command_line():
    """odegen says what it wrote where and how to build it (and why 3body.ode became
    m_3body); -q says nothing; --option is checked."""
    d = work("cli")
    shutil.copy(os.path.join(MODELS, "duffing.ode"), os.path.join(d, "3body.ode"))
    odegen_bin = os.path.join(ROOT, "build", "odegen")
    p = subprocess.run([odegen_bin, "3body.ode"], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    want = ("odegen: wrote m_3body/: m_3body.cu, m_3body.h, m_3body_main.c, Makefile\n"
            "odegen: build with: make -C m_3body   (the runner m_3body/m_3body and the library m_3body/libm_3body.a)\n"
            "odegen: note: the model's name is 'm_3body', from '3body.ode' (a C name does not start with a "
            "digit)\n")
    check(p.returncode == 0 and p.stderr == want and p.stdout == "", "odegen 3body.ode: %r" % p.stderr)
    p = subprocess.run([odegen_bin, "3body.ode", "-q", "-o", "x", "--option", "dt=0.02"], cwd=d,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0 and p.stderr == "" and "#define ODE_DEFAULT_DT 0.02" in open(os.path.join(d, "x", "m_3body.cu")).read(),
          "-q and --option: %r" % p.stderr)
    p = subprocess.run([odegen_bin, "3body.ode", "--option", "dt"], cwd=d, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(p.returncode == 2 and p.stderr.startswith("odegen: error: --option needs NAME=VALUE, not 'dt'\n"),
          "--option dt: %r" % p.stderr)
    p = subprocess.run([odegen_bin, "3body.ode", "-o", "y", "--option", "dt=-1"], cwd=d, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(p.returncode == 1 and "error: dt must be positive" in p.stderr and
          "(with the options of the command line: --option dt=-1)" in p.stderr and not os.path.exists(
              os.path.join(d, "y")), "--option dt=-1: %r" % p.stderr)


def test_examples():
    """The Python examples at their small size write their PNGs."""
    d = work("examples")
    for name in ("duffing_bifurcation", "valve_maxmin", "duffing_lyapunov_map"):
        png = os.path.join(d, name + ".png")
        p = subprocess.run([PY, os.path.join(ROOT, "examples", "python", name + ".py"), "--size", "small",
                            "--backend", BACKEND, "-o", png], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=300)
        check(p.returncode == 0, "%s failed:\n%s%s" % (name, p.stdout, p.stderr))
        with open(png, "rb") as f:
            head = f.read(8)
        check(head == b"\x89PNG\r\n\x1a\n" and os.path.getsize(png) > 10000, "%s: no PNG" % name)
        check("figure" in p.stdout, "%s says where the figure is: %r" % (name, p.stdout))


TESTS = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_") and callable(f)]

if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    sys.exit(main(TESTS))
