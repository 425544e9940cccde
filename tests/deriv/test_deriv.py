#!/usr/bin/python3
"""The derivative engine (generator/deriv/: expr_graph.c, deriv.c, jacobian.c;
generator/emit/: emit_jacobian.c, print_jacobian.c) against finite
differences, and its printed form.

- Every model of models/, tests/xpp/, tests/golden/kitchen_sink.ode,
  tests/deriv/functions.ode (functions that read states, temporaries, aux, t) and
  tests/deriv/builtins.ode (every built-in and piecewise construct): the
  generated model section is compiled with tests/deriv/fd_check.c (gcc,
  ASan/UBSan) and its Jacobian, df/dt, df/dp, event gradients and the
  Jacobians of the event blocks, `on start` and `on end` are compared with
  Richardson-extrapolated central differences at random points and on both
  sides of every switch of f (relative 1e-7; see fd_check.c).
- `odegen --print jacobian` against golden files (tests/deriv/golden/);
  `test_deriv.py --update` rewrites them (review the diff).
- Every derivative function compiles without warnings in double and float
  (tests/deriv/use_all.c), and with nvcc (registers, no spills) when nvcc is
  installed.
- A construct that cannot be differentiated is an error at its line when a
  derivative is asked for, and the generated code says the derivatives are
  absent (ODE_HAS_JACOBIAN 0) instead of holding wrong ones
  (tests/deriv/unit_deriv.c, and a model nested too deeply).
- The Jacobian costs fewer operations than n right-hand sides.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import odegen_test as ot  # noqa: E402

ROOT = ot.ROOT
HERE = os.path.join(ROOT, "tests", "deriv")
ODEGEN = os.path.join(ROOT, "build", "asan", "odegen")
WORK = os.path.join(ROOT, "build", "tests", "deriv")
SAN = ["-O1", "-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)
UPDATE = "--update" in sys.argv
if UPDATE:
    sys.argv.remove("--update")

MODELS = (sorted(glob.glob(os.path.join(ROOT, "models", "*.ode"))) +
          sorted(glob.glob(os.path.join(ROOT, "tests", "xpp", "*.ode"))) +
          [os.path.join(ROOT, "tests", "golden", "kitchen_sink.ode"), os.path.join(HERE, "builtins.ode"),
           os.path.join(HERE, "functions.ode")])
GOLDEN = ["models/duffing.ode", "models/valve.ode", "models/keller_miksis.ode", "tests/golden/kitchen_sink.ode",
          "tests/deriv/builtins.ode"]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def generate(ode, tag, precision="double"):
    """odegen on the file (run in its directory, so messages name it
    plainly); returns the generated directory and the model section as a C
    file of its own (the .cu up to the solver templates)."""
    name = os.path.splitext(os.path.basename(ode))[0]
    gen = os.path.join(WORK, tag, "gen")
    os.makedirs(gen, exist_ok=True)
    p = run([ODEGEN, os.path.basename(ode), "-o", gen, "--precision", precision], cwd=os.path.dirname(ode))
    ot.check(p.returncode == 0, "odegen failed on %s:\n%s" % (ode, p.stderr))
    cu = open(os.path.join(gen, name + ".cu")).read()
    cut = re.search(r"^/\* =+ templates/(solver|tableaux)\.h", cu, re.M)   # the first solver template
    ot.check(cut is not None, "no solver section in %s.cu" % name)
    section = os.path.join(WORK, tag, "model.c")
    with open(section, "w") as f:
        f.write(cu[:cut.start()])
    return gen, section


def compile_c(source, section, gen, exe, extra=()):
    p = run(["gcc", "-std=c11", "-x", "c", *SAN, *extra, "-DGEN_CU=\"%s\"" % section, "-I", gen, source, "-o", exe,
             "-lm"])
    ot.check(p.returncode == 0, "compiling %s failed:\n%s" % (os.path.basename(source), p.stderr[-3000:]))


def parse_checks(out):
    checks = {}
    for m in re.finditer(r"^(\S+)\s+max_rel_err (\S+)\s+entries (\d+)\s+columns (\d+)\s+skipped (\d+)\s+points (\d+)",
                         out, re.M):
        checks[m.group(1)] = dict(err=float(m.group(2)), entries=int(m.group(3)), columns=int(m.group(4)),
                                  skipped=int(m.group(5)), points=int(m.group(6)))
    return checks


def fd_test(ode, npoints, all_switches=False):
    def test():
        tag = os.path.splitext(os.path.basename(ode))[0] + "-fd"
        gen, section = generate(ode, tag)
        exe = os.path.join(WORK, tag, "fd_check")
        compile_c(os.path.join(HERE, "fd_check.c"), section, gen, exe)
        p = run([exe, "1", str(npoints), "1e-7"],
                env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0", UBSAN_OPTIONS="halt_on_error=1"))
        out = p.stdout + p.stderr
        ot.check(p.returncode == 0 and "RESULT ok" in p.stdout, "%s:\n%s" % (ode, out))
        checks = parse_checks(p.stdout)
        ot.check(checks.get("jacobian", {}).get("points", 0) >= npoints // 2,
                 "%s: too few points inside the model's domain:\n%s" % (ode, out))
        for name, c in checks.items():
            # a stencil is skipped where it crosses a switch: rarely at random points
            ot.check(c["skipped"] <= 0.2 * (c["columns"] + c["skipped"]) + 2,
                     "%s: %s skipped %d of %d columns:\n%s" % (ode, name, c["skipped"], c["columns"] + c["skipped"], out))
        if all_switches:
            m = re.search(r"(\d+) on the sides of (\d+) switches", p.stdout)
            ot.check(m and "no zero found" not in p.stdout and int(m.group(1)) >= 2 * int(m.group(2)),
                     "%s: not every switch was tested from both sides:\n%s" % (ode, out))
            for name in ("jacobian", "dfdt", "dfdp", "event_grad", "on_event_jac", "on_start_jac", "on_end_jac"):
                ot.check(checks[name]["entries"] > 0, "%s: %s never tested" % (ode, name))
    return test


def print_golden(rel):
    def test():
        ode = os.path.join(ROOT, rel)
        p = run([ODEGEN, "--print", "jacobian", os.path.basename(ode)], cwd=os.path.dirname(ode))
        ot.check(p.returncode == 0, "odegen --print jacobian %s: %s" % (rel, p.stderr))
        golden = os.path.join(HERE, "golden", os.path.splitext(os.path.basename(ode))[0] + ".jacobian")
        if UPDATE:
            with open(golden, "w") as f:
                f.write(p.stdout)
        want = open(golden).read()
        if p.stdout != want:
            import difflib
            diff = "".join(list(difflib.unified_diff(want.splitlines(True), p.stdout.splitlines(True), golden, "got"))[:60])
            raise ot.Failure("--print jacobian %s differs from %s:\n%s" % (rel, golden, diff))
        again = run([ODEGEN, "--print", "jacobian", os.path.basename(ode)], cwd=os.path.dirname(ode))
        ot.check(again.stdout == p.stdout, "--print jacobian is not deterministic")
    return test


def test_compiles_both_precisions():
    """use_all.c calls every derivative function: -Wall -Wextra -Werror,
    float without promotion to double, and it runs (ASan/UBSan)."""
    for rel in ("tests/deriv/builtins.ode", "models/valve.ode", "tests/golden/kitchen_sink.ode"):
        ode = os.path.join(ROOT, rel)
        for prec in ("double", "float"):
            tag = os.path.splitext(os.path.basename(ode))[0] + "-use-" + prec
            gen, section = generate(ode, tag, prec)
            exe = os.path.join(WORK, tag, "use_all")
            compile_c(os.path.join(HERE, "use_all.c"), section, gen, exe,
                      ["-Wall", "-Wextra", "-Werror", "-Wdouble-promotion"])
            p = run([exe])
            ot.check(p.returncode == 0 and "use_all" in p.stdout, "%s (%s): %s%s" % (rel, prec, p.stdout, p.stderr))


def ptxas_report(text, kernel):
    """Registers, stack frame and spilled bytes of a kernel in nvcc -Xptxas -v's report."""
    start = re.search(r"Compiling entry function '[^']*%s[^']*'" % kernel, text)
    ot.check(start is not None, "no ptxas report for %s:\n%s" % (kernel, text[-2000:]))
    part = text[start.end():]
    nxt = part.find("Compiling entry function")
    part = part if nxt < 0 else part[:nxt]
    frame = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", part)
    regs = re.search(r"Used (\d+) registers", part)
    ot.check(frame is not None and regs is not None, "unreadable ptxas report:\n%s" % part)
    return int(regs.group(1)), int(frame.group(1)), int(frame.group(2)) + int(frame.group(3))


def test_nvcc():
    """With nvcc: the derivative functions inlined into a kernel spill
    nothing and add no stack frame to the right-hand side's."""
    if not NVCC:
        print("        (nvcc not found: skipped)")
        return
    for rel in ("tests/deriv/builtins.ode", "models/valve.ode"):
        ode = os.path.join(ROOT, rel)
        tag = os.path.splitext(os.path.basename(ode))[0] + "-nvcc"
        gen, section = generate(ode, tag)
        p = run([NVCC, "-arch=sm_90", "-Xptxas", "-v", "-c", "-x", "cu", "-DGEN_CU=\"%s\"" % section, "-I", gen,
                 os.path.join(HERE, "use_all.c"), "-o", os.path.join(WORK, tag, "use_all.o")])
        ot.check(p.returncode == 0, "nvcc failed on %s:\n%s" % (rel, p.stderr[-3000:]))
        regs, frame, spills = ptxas_report(p.stderr, "use_all_kernel")
        _, rhs_frame, _ = ptxas_report(p.stderr, "rhs_only_kernel")
        ot.check(spills == 0 and frame <= rhs_frame,
                 "%s: the derivatives spill (%d bytes) or need a stack frame (%d bytes, the RHS alone %d)"
                 % (rel, spills, frame, rhs_frame))


def test_unsupported_is_an_error():
    """A construct the differentiator does not know is an explicit error, never a 0."""
    lib = os.path.join(ROOT, "build", "asan", "translator.a")   # the translator without main.c (make)
    p = run(["make", "-s", "-C", ROOT, "build/asan/translator.a"])
    ot.check(p.returncode == 0, "make build/asan/translator.a failed:\n%s" % p.stderr[-3000:])
    exe = os.path.join(WORK, "unit_deriv")
    os.makedirs(WORK, exist_ok=True)
    p = run(["gcc", "-std=c11", *SAN, "-I", os.path.join(ROOT, "generator"),
             os.path.join(HERE, "unit_deriv.c"), lib, "-o", exe, "-lm"])
    ot.check(p.returncode == 0, "building unit_deriv failed:\n%s" % p.stderr[-3000:])
    p = run([exe])
    ot.check(p.returncode == 0, "unit_deriv:\n%s%s" % (p.stdout, p.stderr))


def test_nested_too_deeply():
    """A model the differentiator cannot take (functions nested 7000 deep):
    --print jacobian says so at the line, generation still works and says
    the derivatives are absent."""
    lines = ["f%d(u)=f%d(u)*1.0001+u" % (i, i + 1) for i in range(7000)] + ["f7000(u)=u", "par a=1", "x'=f0(a)*x"]
    work = os.path.join(WORK, "deep")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "deep.ode"), "w") as f:
        f.write("\n".join(lines) + "\n")
    p = run([ODEGEN, "--print", "jacobian", "deep.ode"], cwd=work)
    ot.check(p.returncode == 1 and re.search(r"^deep\.ode:\d+:\d+: error: --print jacobian needs the derivative of "
                                             r"the right-hand side: this expression is nested too deeply", p.stderr, re.M),
             "status %d:\n%s" % (p.returncode, p.stderr[:2000]))
    p = run([ODEGEN, "deep.ode", "-o", "gen"], cwd=work)
    ot.check(p.returncode == 0, p.stderr)
    cu = open(os.path.join(work, "gen", "deep.cu")).read()
    ot.check(re.search(r"#define ODE_HAS_JACOBIAN 0 +/\* deep\.ode:\d+: this expression is nested too deeply", cu)
             and "void ode_model_jac(" not in cu, "the generated code does not say the Jacobian is absent")


def test_cost():
    """The Jacobian costs fewer operations than n right-hand sides, for every
    model with two states or more (the figure --print jacobian reports)."""
    rows = []
    for ode in MODELS:
        p = run([ODEGEN, "--print", "jacobian", os.path.basename(ode)], cwd=os.path.dirname(ode))
        m = re.search(r"f (\d+)\+(\d+); J (\d+)\+(\d+); f and J together (\d+)\+(\d+);\n# (\d+) right-hand sides"
                      r"[^\n]* (\d+)\+(\d+)", p.stdout)
        ot.check(m is not None, "no cost line for %s" % ode)
        f_a, f_c, j_a, j_c, fj_a, fj_c, n, nf_a, nf_c = map(int, m.groups())
        rows.append((os.path.basename(ode), n, f_a, f_c, j_a, j_c, fj_a, fj_c))
        if n >= 2:
            ot.check(j_a + 20 * j_c <= nf_a + 20 * nf_c,
                     "%s: J costs %d+%d, more than %d right-hand sides (%d+%d)" % (ode, j_a, j_c, n, nf_a, nf_c))
            ot.check(fj_a + 20 * fj_c < (n + 1) * (f_a + 20 * f_c),
                     "%s: f and J cost %d+%d, not less than n+1 right-hand sides" % (ode, fj_a, fj_c))


TESTS = ([("fd " + os.path.relpath(m, ROOT), fd_test(m, 40 if m.endswith("builtins.ode") else 12,
                                                      all_switches=m.endswith("builtins.ode"))) for m in MODELS] +
         [("print " + g, print_golden(g)) for g in GOLDEN] +
         [("compiles in double and float", test_compiles_both_precisions),
          ("nvcc: no spills, no stack frame", test_nvcc),
          ("unsupported constructs are errors", test_unsupported_is_an_error),
          ("nested too deeply: an error at its line", test_nested_too_deeply),
          ("cost: J below n right-hand sides", test_cost)])

if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    sys.exit(ot.main(TESTS))
