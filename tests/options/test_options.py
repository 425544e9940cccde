"""tests/options/test_options.py — run-time options without a rebuild (SPEC §4: dt, t0, total,
toler, atoler, dtmin, dtmax, maxsteps, bound).

  * the runner with --set NAME=VALUE writes, byte for byte, the CSV of the model translated with
    the same `@` options: RK4 (double and float), Euler, Cash-Karp with events and accessories
    (the valve), float Cash-Karp, DOPRI5 with per-state tolerances (whose values scale with
    toler and atoler), and the `save` samples, whose capacity follows the total in force;
  * the HDF5 output's `options` attribute says the options in force;
  * a model's own name wins over an option's (--set @NAME reaches the option);
  * a build with -DODE_OPTIONS_CONSTANT=1 (the options as compile-time constants, for
    bench/options.sh) writes the same numbers and refuses other values;
  * Python: Model.scan/run(options=…) without a rebuild (the cache is not touched, the build
    function not called) equal the runner with --set, bit for bit; errors before anything runs.

  /usr/bin/python3 tests/options/test_options.py [NAME…]

The library's own checks (api.h: model_solver_set_option) are in tests/runtime/test_api.c, the
runner's messages in tests/runtime/run.sh.  ODEGEN_BACKEND=gpu runs the runners on the GPU.
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("ODEGEN_CACHE", os.path.join(ROOT, "build", "tests", "python-cache"))
os.environ.setdefault("OMP_NUM_THREADS", "2")

import numpy as np  # noqa: E402

from odegen_test import BACKEND, Failure, Result, build, check, main, run_raw  # noqa: E402

MODELS = os.path.join(ROOT, "models")
WORK = os.path.join(ROOT, "build", "tests", "options")


def model(name):
    with open(os.path.join(MODELS, name + ".ode")) as f:
        return f.read()


def runners(name, text, options, precision=None, flags=()):
    """The runner of the model as written, and of the model translated with `options` as
    `@` options (odegen --option)."""
    base = build(name, text, precision, flags=tuple(flags), sanitize=False)
    extra = [a for k, v in options.items() for a in ("--option", "%s=%s" % (k, v))]
    return base, build(name, text, precision, flags=tuple(flags) + tuple(extra), sanitize=False)


def output(runner, *args, expect_rc=0):
    p = run_raw(runner, "--backend", BACKEND, *args)
    if p.returncode != expect_rc:
        raise Failure("%s %s exited %d:\n%s" % (runner, " ".join(args), p.returncode, p.stderr))
    return p.stdout, p.stderr


def same_as_regenerated(name, text, options, args, precision=None, flags=(), want=()):
    """--set of every option on the model as written == the model translated with them."""
    base, regen = runners(name, text, options, precision, flags)
    sets = [a for k, v in options.items() for a in ("--set", "%s=%s" % (k, v))]
    got, err = output(base, "--quiet", *(sets + list(args)))
    expected, _ = output(regen, "--quiet", *args)
    check(got == expected, "%s (%s) with %s differs from the model translated with them:\n%s\nvs\n%s"
          % (name, precision or "double", " ".join(sets), got[:1500], expected[:1500]))
    statuses = set(Result(got, err).status)
    for s in want:
        check(s in statuses, "%s: expected some '%s' rows, got %s" % (name, s, sorted(statuses)))
    return got


# ------------------------------------------------------------------ runner --set == regenerated

def test_rk4():
    """RK4 in double and float: dt, t0, total and maxsteps (3.1 / 0.005 = 620 steps fit in
    700); then maxsteps and bound that stop systems."""
    opts = {"dt": 0.005, "t0": 0.5, "total": 3.1, "maxsteps": 700}
    args = ["--scan", "k=list(0.2,0.25,0.3)", "--scan", "y1=list(0,1.4)", "--transient", "1", "--recorded", "2",
            "--fields", "y1,y2,t,t0,t1"]
    for precision in (None, "float"):
        out = same_as_regenerated("duffing", model("duffing"), opts, args, precision, want=("finished",))
        end = repr(float(np.float32(3.6))) if precision == "float" else "3.6"   # t1 as the model's real
        check(",%s,finished" % end in out and ",0.5,%s," % end in out, "window [0.5, 3.6]: %s" % out[:300])
    same_as_regenerated("duffing", model("duffing"), {"maxsteps": 600, "bound": 1.3}, args,
                        want=("maxsteps", "bound"))


def test_euler_and_save():
    """Euler (a method chosen with --option meth=, on both sides), dt, total and bound, and
    the `save` samples: their number follows the total in force, and they are the same."""
    text = """\
        # Lorenz, sampled every 0.25
        par sigma=10, rho=28, beta=2.6666666666666665
        x'=sigma*(y-x)
        y'=x*(rho-z)-y
        z'=x*y-beta*z
        init x=1, y=1, z=1
        @ dt=0.01, total=2
        save every=0.25
        done
        """
    text = "\n".join(line[8:] for line in text.split("\n"))
    opts = {"dt": 0.002, "total": 4.5, "bound": 40}
    os.makedirs(WORK, exist_ok=True)
    outs = []
    base, regen = runners("lorenz_save", text, opts, flags=("--option", "meth=euler"))
    for runner, extra in ((base, [a for k, v in opts.items() for a in ("--set", "%s=%s" % (k, v))]), (regen, [])):
        csv = os.path.join(WORK, "save_%d.csv" % len(outs))
        _, err = output(runner, "--scan", "rho=list(10,28,99)", "--recorded", "2", "-o", csv, *extra)
        check("not kept" not in err, "save: samples cut by the capacity: %s" % err)
        with open(csv) as f, open(csv.replace(".csv", ".traj.csv")) as g:
            outs.append((f.read(), g.read()))
    check(outs[0] == outs[1], "euler + save: --set differs from the translated options")
    rows = outs[0][1].strip().split("\n")
    check(len([r for r in rows if r.startswith("0,1,")]) == 19, "4.5 / 0.25 + 1 = 19 samples per integration")
    check("bound" in outs[0][0], "rho=99 passes the bound 40: %s" % outs[0][0])


def test_rkck45_events():
    """The valve: Cash-Karp with events (impacts, stop at a maximum) and accessories;
    tolerances, step bounds, first step, maxsteps."""
    opts = {"toler": 1e-7, "atoler": 1e-8, "dt": 0.01, "dtmin": 1e-9, "dtmax": 0.2, "maxsteps": 20000}
    same_as_regenerated("valve", model("valve"), opts, ["--scan", "q=list(0.5,3,7.2,9)", "--transient", "3",
                                                        "--recorded", "2"], want=("event",))


def test_float_adaptive():
    """Cash-Karp in float: tolerances and step bounds converted to float as the file's are."""
    opts = {"toler": 1e-5, "atoler": 1e-6, "dtmax": 0.05}
    same_as_regenerated("duffing_rkck45", model("duffing_rkck45"), opts,
                        ["--scan", "k=list(0.2,0.27)", "--transient", "2", "--recorded", "2"], precision="float")


def test_per_state_tolerances():
    """DOPRI5 with a `tolerance` line: a state without one takes toler and atoler as they
    are; the line's values scale with them (rtol_x * toler / @toler), which is the model
    translated with the new toler and atoler and the line's values so scaled."""
    text = """\
        par mu=2
        x'=y
        y'=mu*(1-x^2)*y-x
        init x=2, y=0
        tolerance x: rtol=1e-9, atol=1e-10
        @ meth=dopri5, toler=1e-4, atoler=1e-5, total=7
        done
        """
    text = "\n".join(line[8:] for line in text.split("\n"))
    rtol, atol = 1e-6, 1e-7
    scaled = text.replace("rtol=1e-9, atol=1e-10", "rtol=%r, atol=%r" % (1e-9 * (rtol / 1e-4), 1e-10 * (atol / 1e-5)))
    args = ["--scan", "mu=list(0.5,2,5)", "--recorded", "2", "--fields", "x,y,t"]
    base = build("vdp_tol", text, sanitize=False)
    regen = build("vdp_tol", scaled, flags=("--option", "toler=%r" % rtol, "--option", "atol=%r" % atol),
                  sanitize=False)
    got, _ = output(base, "--quiet", "--set", "toler=%r" % rtol, "--set", "atoler=%r" % atol, *args)
    expected, _ = output(regen, "--quiet", *args)
    check(got == expected, "per-state tolerances scaled:\n%s\nvs\n%s" % (got, expected))
    loose, _ = output(base, "--quiet", *args)
    check(loose != got, "toler and atoler change the numbers")
    # Replacing instead of scaling would be the model without the line: not what happens.
    plain = build("vdp_tol", text.replace("tolerance x: rtol=1e-9, atol=1e-10\n", ""),
                  flags=("--option", "toler=%r" % rtol, "--option", "atol=%r" % atol), sanitize=False)
    other, _ = output(plain, "--quiet", *args)
    check(other != got, "the tolerance line is scaled, not dropped")


def test_hdf5_options_attribute():
    """The HDF5 file's `options` attribute: the options in force, as the generator writes the
    file's (the same text as the model translated with them)."""
    try:
        import h5py
    except ImportError:
        print("        (h5py missing: skipped)")
        return
    base = build("duffing", model("duffing"), sanitize=False)
    os.makedirs(WORK, exist_ok=True)
    probe = run_raw(base, "--quiet", "--scan", "k=list(0.2)", "--transient", "0", "--recorded", "1",
                    "-o", os.path.join(WORK, "probe.h5"))
    if "without HDF5" in probe.stderr:
        print("        (runner without HDF5: skipped)")
        return
    _, regen = runners("duffing", model("duffing"), {"dt": 0.005, "bound": 50})
    attrs = []
    for runner, extra in ((base, ["--set", "dt=0.005", "--set", "bound=50"]), (regen, [])):
        path = os.path.join(WORK, "opt%d.h5" % len(attrs))
        output(runner, "--quiet", "--scan", "k=list(0.2)", "--transient", "0", "-o", path, *extra)
        with h5py.File(path) as f:
            text = f.attrs["options"]
            attrs.append(text.decode() if isinstance(text, bytes) else text)
    check(attrs[0] == attrs[1] and "dt=0.005," in attrs[0] and "bound=5e1," in attrs[0],
          "options attribute: %r vs %r" % tuple(attrs))
    check(attrs[0].startswith("meth=rk4, dt=0.005, t0=0.0, total=6.283185307179586"), attrs[0])


def test_names_win():
    """A parameter named like an option: --set NAME sets the parameter, --set @NAME the option."""
    text = "par dt=0.5, total=2\nx'=-dt*x\ninit x=1\n@ total=1\ndone\n"
    base, regen = runners("shadow", text, {"dt": 0.001, "total": 0.5})
    got, _ = output(base, "--quiet", "--fields", "x,dt,total,t", "--set", "@dt=0.001", "--set", "@total=0.5")
    expected, _ = output(regen, "--quiet", "--fields", "x,dt,total,t")
    check(got == expected and ",0.5,2,0.5,finished" in got, "--set @dt: %s vs %s" % (got, expected))
    got, _ = output(base, "--quiet", "--fields", "dt,total,t", "--set", "dt=0.7", "--set", "total=3")
    check(got.strip().split("\n")[1] == "0,0,0.7,3,1,finished", "--set dt: the parameter: %s" % got)


def test_constant_build():
    """-DODE_OPTIONS_CONSTANT=1 (bench/options.sh): the file's values compiled in; the same
    numbers as the run-time build, t0 and total still settable, others refused."""
    run_time = build("duffing", model("duffing"), sanitize=False)
    gen = os.path.dirname(run_time)
    const = gen + "-constant"
    shutil.rmtree(const, ignore_errors=True)
    shutil.copytree(gen, const, ignore=shutil.ignore_patterns("*.o", "*.a", "*.so", "duffing"))
    cflags = "-O2 -DODE_OPTIONS_CONSTANT=1"
    make = ["make", "-s", "-C", const, "duffing"]
    make += ["BACKEND=cuda", "NVCCFLAGS=-O3 -DODE_OPTIONS_CONSTANT=1"] if BACKEND == "gpu" else \
        ["BACKEND=cpu", "CFLAGS=" + cflags]
    p = subprocess.run(make, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(p.returncode == 0, "constant build failed:\n" + p.stdout[-3000:])
    constant = os.path.join(const, "duffing")
    args = ["--quiet", "--scan", "k=list(0.2,0.3)", "--transient", "3", "--recorded", "2"]
    check(output(constant, *args)[0] == output(run_time, *args)[0], "constant build == run-time build")
    check(output(constant, *args, "--set", "total=2")[0] == output(run_time, *args, "--set", "total=2")[0],
          "total is settable in the constant build")
    _, err = output(constant, *args, "--set", "dt=0.005", expect_rc=2)
    check(err == "duffing: error: bad value in --set dt=0.005: dt is a compile-time constant in this build "
                 "(-DODE_OPTIONS_CONSTANT=1): it stays 0.01\n", err)
    output(constant, *args, "--set", "dt=0.01")   # its own value is fine


# ------------------------------------------------------------------ Python

def _snapshot(folder):
    out = {}
    for root, dirs, files in os.walk(folder):
        for f in dirs + files:
            path = os.path.join(root, f)
            out[path] = os.stat(path).st_mtime_ns
    return out


def test_python():
    """Model.scan/run(options=…): no rebuild (the cache folder untouched, the build function
    never called), the runner's numbers with --set, bit for bit; the file's values; errors
    with the library's reason before anything runs."""
    import odegen
    from odegen import _build, _model
    kw = {"build": "cuda" if BACKEND == "gpu" else "cpu", "quiet": True}
    m = odegen.load(os.path.join(MODELS, "duffing.ode"), **kw)
    rk = odegen.load(os.path.join(MODELS, "valve.ode"), **kw)
    check(m.option_defaults() == {"dt": 0.01, "t0": 0.0, "total": 6.283185307179586, "toler": 0.001,
                                  "atoler": 0.001, "dtmin": 1e-12, "dtmax": 1e6, "maxsteps": 1e8, "bound": 1e100},
          "option_defaults: %s" % m.option_defaults())
    before = _snapshot(odegen.cache_dir())
    real_build = _build.build

    def no_build(*a, **k):
        raise Failure("a scan with options= called the build")
    _build.build = _model._build.build = no_build
    try:
        k = np.array([0.2, 0.25, 0.3])
        opts = {"dt": 0.005, "t0": 0.5, "total": 3.1, "maxsteps": 600}   # 620 steps needed
        r = m.scan({"k": k}, transient=1, record=2, fields=["y1", "y2", "t1"], backend=BACKEND, options=opts)
        q = np.array([0.5, 7.2])
        vopts = {"tol": 1e-7, "atoler": 1e-8, "dtmax": 0.2}
        v = rk.scan({"q": q}, transient=2, record=2, backend=BACKEND, options=vopts)
        end = m.run({"k": k}, backend=BACKEND, options={"total": 1.5, "t0": 2})
        both = m.scan({"k": k}, transient=0, record=1, backend=BACKEND, options={"dtmin": 1e7, "dtmax": 1e8})
        errors = []
        for bad in ({"dt": -1}, {"dtmin": 2, "dtmax": 1}, {"maxsteps": 2.5}, {"bound": "big"}, {"meth": "rk4"},
                    {"dt": 0.1, "DT": 0.2}):
            try:
                m.scan({"k": k}, transient=1, record=1, backend=BACKEND, options=bad)
                errors.append(None)
            except (ValueError, TypeError) as e:
                errors.append(str(e))
    finally:
        _build.build = _model._build.build = real_build
    check(_snapshot(odegen.cache_dir()) == before, "options= touched the cache")

    def runner_csv(model_, *args):
        d = os.path.join(WORK, "runner-" + os.path.basename(model_._built.folder))
        exe = os.path.join(d, model_.name)
        if not os.path.exists(exe):
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(model_._built.folder, d)
            p = subprocess.run(["make", "-s", "-C", d, "BACKEND=" + kw["build"], model_.name],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            check(p.returncode == 0, "building the runner failed:\n" + p.stdout[-3000:])
        out, err = output(exe, "--quiet", *args)
        return Result(out, err)

    def listed(a):
        return "list(%s)" % ",".join(repr(float(x)) for x in a)

    csv = runner_csv(m, "--scan", "k=" + listed(k), "--transient", "1", "--recorded", "2", "--fields", "y1,y2,t1",
                     *[a for o, x in opts.items() for a in ("--set", "%s=%r" % (o, x))])
    for f in ("y1", "y2", "t1"):
        check(np.array_equal(r[f].reshape(-1), csv[f]), "options=: %s differs from the runner's --set" % f)
    check(list(r.status.reshape(-1)) == list(csv.status) and "maxsteps" in csv.status, "statuses: %s" % csv.status)
    csv = runner_csv(rk, "--scan", "q=" + listed(q), "--transient", "2", "--recorded", "2",
                     "--set", "toler=1e-7", "--set", "atoler=1e-8", "--set", "dtmax=0.2")
    for f in v:
        check(np.array_equal(v[f].reshape(-1), csv[f]), "valve options=: %s differs from the runner's --set" % f)
    check(np.all(end["t0"] == 2) and np.all(end["t"] == 3.5), "run(options={total, t0}): the window [2, 3.5]")
    check(both.counts == {"finished": 3}, "dtmin above the file's dtmax: dtmax is set first")
    want = [r"dt must be positive", r"dtmin \(2\) is larger than dtmax \(1\)",
            r"maxsteps must be a whole number of at least 1", r"option bound: a number, not 'big'",
            r"option 'meth' cannot change from one scan to the next; run-time options are dt, t0, total, toler, "
            r"atoler, dtmin, dtmax, maxsteps, bound\. Give it to odegen.load",
            r"option 'dt' is given twice"]
    for got, pattern in zip(errors, want):
        check(got is not None and re.search(pattern, got), "error %r does not match %r" % (got, pattern))


if __name__ == "__main__":
    sys.exit(main([(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]))
