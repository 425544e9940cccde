#!/usr/bin/python3
"""Arrays kept as arrays (issue 23 items 1 and 5; front/expand.c, check/arrays.c,
emit/emit_loops.c): a model whose arrays stay arrays is written in loop form and
must give the same numbers as the same model written out.

- Every model here is generated twice, `@ arrays=loop` and `@ arrays=written`,
  built (CPU, ASan/UBSan) and run: the two CSVs are the same bytes (the loop
  form adds in the order of the equations written out: a team of one).
  Models: a Duffing chain with free ends declared apart, an array temporary
  and a mean field; a Duffing ring (a periodic index through shift and mod)
  with an aux array, events and an adaptive method; a %-block of two arrays
  interleaved, with a range that counts down; a mean-field Kuramoto model;
  a Hodgkin-Huxley cable of 100 compartments.
- Physics: the Kuramoto order parameter against Kuramoto's r = sqrt(1 - K_c/K)
  with K_c = 2*gamma (Lorentzian frequencies of width gamma); in the cable a
  spike started at one end reaches the other, later at the far end.
- auto: 64 elements or more stay arrays, fewer are written out unless the
  array lines declare 64 states together and the rule then gives a team; a model that
  needs derivatives (a stiff method, lyapunov) or has more than 64 events is
  written out with a note.
- The translation and the C compiler's time of the Duffing chain at 16 …
  4096 states (and the translation at 10^5 states) are printed, not asserted.
"""
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import odegen_test as ot  # noqa: E402

ROOT = ot.ROOT
HERE = os.path.join(ROOT, "tests", "arrays")
WORK = os.path.join(ROOT, "build", "tests", "arrays")
ODEGEN_PLAIN = os.path.join(ROOT, "build", "odegen")
NVCC = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"


def csv_text(runner, *args, backend=None):
    p = ot.run_raw(runner, "--backend", backend or ot.BACKEND, *args)
    ot.check(p.returncode == 0, "%s exited %d:\n%s" % (runner, p.returncode, p.stderr))
    return p.stdout


def with_mode(text, mode):
    ot.check("\ndone" in text, "a test model ends with done")
    return text.replace("\ndone", "\n@ arrays=%s\ndone" % mode, 1)


def rows(text):
    return ot.Result(text, "")


def written_out(src):
    """Whether the generated source has the model written out: its last state's equation by
    itself (a model written out may still be integrated by a team, whose code loops over the
    team's lanes and an event array's events: check/layout.c's rule by the scan's size)."""
    n = int(re.search(r"#define ODE_NSTATE (\d+)", src).group(1))
    return ("ode_dy[%d] = " % (n - 1)) in src


def same_both_ways(name, text, sanitize=None):
    """The model in loop form and written out: the same CSV bytes; returns
    the CSV text and the loop form's generated source.  On the GPU the loop
    form runs on the GPU and the model written out on the CPU path: nvcc of a
    model of a few hundred states written out takes minutes (the 256-state
    chain 205 s, loaded), and the written-out GPU kernel is tests/large's."""
    out, src = {}, {}
    for mode in ("loop", "written"):
        # (the loop form under ASan/UBSan where the suite has them: its indices are new code)
        backend = "cpu" if mode == "written" else ot.BACKEND
        runner = ot.build(name + "_" + mode, with_mode(text, mode), sanitize=sanitize if mode == "loop" else False,
                          backend=backend)
        out[mode] = csv_text(runner, backend=backend)
        src[mode] = open(runner + ".cu").read()
    ot.check(not written_out(src["loop"]), "%s: @ arrays=loop wrote the model out" % name)
    ot.check(written_out(src["written"]), "%s: @ arrays=written wrote a loop" % name)
    if ot.BACKEND == "cpu":   # cc contracts nothing: the same operations in the same order, the same bits
        ot.check(out["loop"] == out["written"],
                 "%s: loop form and written out differ:\n%s\n---\n%s" % (name, out["loop"][:2000], out["written"][:2000]))
    else:   # the GPU's loop form against the CPU's written out: fma where nvcc fuses, CUDA's libm
        a, b = rows(out["loop"]), rows(out["written"])
        ot.check(a.header == b.header and list(a.status) == list(b.status), "%s: rows or statuses differ" % name)
        for col in a.header[:-1]:
            ot.check(np.allclose(a[col], b[col], rtol=1e-7, atol=1e-9),
                     "%s: %s differs between loop form and written out: %s vs %s" % (name, col, a[col][:4], b[col][:4]))
    return out["loop"], src["loop"]


CHAIN = """# A Duffing chain, free ends declared apart (x0, x101), a mean field X and an array temporary u
par k=0.25, B=0.3, c=0.1, g=0.02
x[1..100]'=v[j]
v[1..100]'=x[j]-x[j]^3-k*v[j]+B*cos(t)+c*(x[j-1]-2*x[j]+x[j+1])+0.01*u[j]+g*(X-x[j])
u[1..100]=x[j]*[j]/100
x0=0
x101=0
X=sum(1,100)of(shift(x1,i'-1))/100
aux mean=X
x[1..100](0)=0.1*sin([j])
@ meth=rk4, dt=0.01, total=5
scan k=lin(0.2,0.3,4)
record x1, x50, v100, mean
done
"""

RING = """# A ring of 64 Duffing units: neighbours through a periodic index (shift and mod),
# an aux array, an event on a unit and an adaptive method
par k=0.2, B=0.3, c=0.15
x[0..63]'=v[j]
v[0..63]'=x[j]-x[j]^3-k*v[j]+B*cos(t)+c*(shift(x0,mod([j]+63,64))-2*x[j]+shift(x0,mod([j]+1,64)))
aux e[0..63]=v[j]^2/2+x[j]^4/4-x[j]^2/2
x[0..63](0)=0.5*cos(2*pi*[j]/64)
acc n=0
event up: v10, dir=1
on up { n = n + 1 }
@ meth=rkck45, toler=1e-9, atoler=1e-9, total=12
scan c=list(0.05, 0.15, 0.4)
record x0, x10, x63, e5, e63, n
done
"""

BLOCK = """# A %-block of two interleaved arrays (x1 v1 x2 v2 ...), its range counting down
par a=0.3
%[80..1]
x[j]'=v[j]
v[j]'=-x[j]+a*(x[j]-x[j]^3)*[j]/80
%
x[1..80](0)=[j]/80
@ meth=dopri5, toler=1e-8, total=3
record x1, v1, x80, v80
done
"""


def test_chain():
    text, src = same_both_ways("chain", CHAIN)
    r = rows(text)
    ot.check(len(r) == 4 and all(s == "finished" for s in r.status), "chain: 4 finished systems")
    ot.check("ode_team_sum" in src or "ode_sum" in src, "chain: the mean field is a loop")


def test_ring():
    text, _ = same_both_ways("ring", RING)
    r = rows(text)
    ot.check(len(r) == 3 and all(s == "finished" for s in r.status), "ring: 3 finished systems")
    ot.check(np.all(r["n"] >= 1), "ring: the event counted crossings")


def test_block():
    text, src = same_both_ways("block", BLOCK)
    ot.check(len(rows(text)) == 1, "block: one system")


KURAMOTO_N = 256


def kuramoto_text(n):
    return open(os.path.join(HERE, "kuramoto.ode")).read().replace("256", str(n))


def test_kuramoto_both_ways():
    text = kuramoto_text(KURAMOTO_N)
    text = text.replace("repeat transient=20, record=40", "repeat transient=0, record=2")
    text = text.replace("total=10", "total=3")
    same_both_ways("kuramoto_short", text)


def test_kuramoto_transition():
    """r against r = sqrt(1 - K_c/K), K_c = 2*gamma (Kuramoto 1984; Strogatz
    2000), for Lorentzian frequencies at their quantiles; below K_c the
    incoherent state's r is of order 1/sqrt(N)."""
    runner = ot.build("kuramoto", kuramoto_text(KURAMOTO_N), sanitize=False)
    r = rows(csv_text(runner))
    gam = 0.5
    kc = 2 * gam
    for K in sorted(set(r["K"])):
        sel = r["K"] == K
        mean = float(np.mean(r["r"][sel]))
        theory = np.sqrt(1 - kc / K) if K > kc else 0.0
        print("        K = %.2f: r = %.4f over %d samples, theory (N = infinity) %.4f" % (K, mean, sel.sum(), theory))
        if K >= 1.5 * kc:
            ot.check(abs(mean - theory) < 0.02, "Kuramoto K=%g: r=%.4f, theory %.4f" % (K, mean, theory))
        elif K < kc:
            ot.check(mean < 4 / np.sqrt(KURAMOTO_N), "Kuramoto K=%g below K_c: r=%.4f" % (K, mean))


def test_cable():
    text = open(os.path.join(HERE, "hh_cable.ode")).read()
    out, _ = same_both_ways("cable", text)
    r = rows(out)
    ot.check(r["vmax50"][0] > 0 and r["vmax100"][0] > 0, "cable: the spike reaches compartments 50 and 100")
    ot.check(0 < r["t50"][0] < r["t100"][0], "cable: it reaches 100 after 50 (t50=%g, t100=%g)" %
             (r["t50"][0], r["t100"][0]))


def odegen(path, *flags, odegen_bin=None):
    return subprocess.run([odegen_bin or ot.ODEGEN, os.path.basename(path)] + list(flags), cwd=os.path.dirname(path),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def write(name, text):
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, name + ".ode")
    with open(path, "w") as f:
        f.write(text)
    return path


def chain_text(n, extra=""):
    return ("par k=0.25, B=0.3, c=0.1\nx[1..%d]'=v[j]\n"
            "v[1..%d]'=x[j]-x[j]^3-k*v[j]+B*cos(t)+c*(x[j-1]-2*x[j]+x[j+1])\n"
            "x0=0\nx%d=0\n%s@ meth=rk4, dt=0.01, total=6.283185307179586\ndone\n" % (n, n, n + 1, extra))


def test_auto_threshold():
    """auto: arrays of 64 elements or more stay arrays; shorter ones too where
    they declare 64 states or more together and the rule then gives the model a
    team (check.c: a trial with the arrays as loops), else they are written out;
    a stiff method or lyapunov writes them out, with a note at its line; more
    than 64 events keep them (the rule's team)."""
    # the rule's layout (check/layout.c): one thread written out; in loop form a team of about
    # 8 states per lane, a warp of 32 at least (bench/team.sh, part A).  The chain of n units
    # has two arrays of n: 31 units (62 states) written out, 32 (64 states) kept
    for n, loop, layout in ((31, False, ("0", None)), (32, True, ("1", "32")), (63, True, ("1", "32")),
                            (64, True, ("1", "32")), (512, True, ("2", "128")), (2048, True, ("2", "512"))):
        path = write("auto%d" % n, chain_text(n))
        p = odegen(path, "-o", "auto%d" % n)
        ot.check(p.returncode == 0, p.stderr)
        src = open(os.path.join(WORK, "auto%d" % n, "auto%d.cu" % n)).read()
        ot.check((not written_out(src)) == loop, "auto at %d elements: loop form %s" % (n, not loop))
        got = (re.search(r"#define ODE_LAYOUT (\d) ", src).group(1),
               (re.search(r"#define ODE_TEAM_SIZE (\d+) ", src) or [None, None])[1])
        ot.check(got == layout, "auto at %d elements: layout and team %s expected, got %s" % (
                     n, layout, got))
    # the trial with the arrays as loops, not taken: a layout named, or what keeps one thread
    # (period) — written out; a note of the file's is written once whether the trial is taken or not
    for name, extra, loop in (("auto32_named", "@ layout=thread, nplot=2\n", False), ("auto32_period", "period\n@ nplot=2\n", False),
                              ("auto32_note", "@ nplot=2\n", True)):
        path = write(name, chain_text(32, extra))
        p = odegen(path, "-o", name)
        ot.check(p.returncode == 0, name + ": " + p.stderr)
        src = open(os.path.join(WORK, name, name + ".cu")).read()
        ot.check((not written_out(src)) == loop and (re.search("#define ODE_LAYOUT 0 ", src) is None) == loop,
                 "%s: %s expected" % (name, "a team over the loops" if loop else "one thread written out"))
        ot.check(p.stderr.count("note: XPPAUT option 'nplot' is ignored") == 1, name + ": the note once: " + p.stderr)
    # in loop form but one thread: what a team does not integrate (a map, a delay), and a
    # model of fewer than 64 states (a special over a few units)
    for name, text in (("auto_map", "x[0..63]' = 3.8*x[j]*(1-x[j]) + 0.01*(x0-x[j])\nx[0..63](0)=0.1\n@ meth=discrete\ndone\n"),
                       ("auto_delay", "par c=0.1\nx[0..63]' = -delay(x[j], 1) + c*x0\nx[0..63](0)=1\n@ delay=2\ndone\n"),
                       ("auto_small_special", "par c=0.1\nspecial k=mmult(4,4,w,x0)\ntable w % 16 0 15 t/16\n"
                                              "x[0..3]' = -x[j] + c*k([j])\ndone\n")):
        path = write(name, text)
        p = odegen(path, "-o", name)
        ot.check(p.returncode == 0, name + ": " + p.stderr)
        src = open(os.path.join(WORK, name, name + ".cu")).read()
        ot.check(not written_out(src) and re.search("#define ODE_LAYOUT 0 ", src),
                 name + ": one thread over the loop form expected, got " + str(re.findall("#define ODE_LAYOUT .*", src)))
    diffusion = ("par c=0.1\nx[1..64]'=-x[j]+c*(x[j-1]-2*x[j]+x[j+1])\nx0=0\nx65=0\n"
                 "X=sum(1,100)of(i'*x1)\naux xm=X\n%s\ndone\n")
    path = write("auto_stiff", diffusion % "@ meth=rodas5p")
    p = odegen(path, "-o", "auto_stiff")
    ot.check(p.returncode == 0 and "auto_stiff.ode:7:3: note: the arrays (64 elements) are written out" in p.stderr,
             "stiff: " + p.stderr)
    src = open(os.path.join(WORK, "auto_stiff", "auto_stiff.cu")).read()
    # (each equation written out; the LU of more than 32 states is in loop form, templates/team_lu.h)
    ot.check("ode_dy[63] = " in src and "ode_sum" not in src, "a stiff method's arrays and sums are written out")
    path = write("auto_lyap", diffusion % "lyapunov 1")
    p = odegen(path, "-o", "auto_lyap")
    ot.check(p.returncode == 0 and "auto_lyap.ode:7:1: note: the arrays" in p.stderr, "lyapunov: " + p.stderr)
    # more than 64 events (an event per unit): the arrays stay loops, and the rule gives a team (a thread holds 64)
    ring = ("x[0..79]'=-x[j]+0.1*shift(x0,mod([j]+1,80))\nx[0..79](0)=1\n"
            "acc n[0..79]\nevent e[0..79]: x[j]-0.5, dir=-1 { n[j] = n[j] + 1 }\ndone\n")
    path = write("auto_events", ring)
    p = odegen(path, "-o", "auto_events")
    ot.check(p.returncode == 0 and "written out" not in p.stderr, "80 events: " + p.stderr)
    src = open(os.path.join(WORK, "auto_events", "auto_events.cu")).read()
    ot.check("#define ODE_LAYOUT 1 " in src and "#define ODE_TEAM_SIZE 32 " in src and "ODE_TEAM_FOR(ode_p, 80)" in src,
             "80 events, 80 states: the rule's warp of 32 over the arrays' loops expected")
    path = write("loop_stiff", diffusion % "@ arrays=loop, meth=stiff")
    p = odegen(path, "--check")
    ot.check(p.returncode == 1 and "loop_stiff.ode:7:16: error: this needs the derivatives" in p.stderr,
             "@ arrays=loop with a stiff method: " + p.stderr)


def test_scan_rule():
    """The rule by the scan the file declares (check/layout.c: team_by_rule): at
    most 4096 systems give a model of 24 states or more a team — a warp of 32
    where its size alone gives one thread, about 2 states per lane (32 lanes at
    least, 256 at most) for at most 128 systems, its arrays tried as loops (check.c); 16
    states, bigger scans, a stiff method, constraints, noise and a layout named
    keep what the size's rule gives."""
    def ring(units, extra):   # MPGOS's ring of Duffing units, an event per unit (bench/team.sh: mpgos_ode)
        m = units - 1
        return ("par B=13.633, w=0.5, G=0.004, C=0.002, k=0.24\n"
                "x[0..%d]' = v[j] - G*x[j] + C*(shift(x0, mod([j]+%d,%d)) + shift(x0, mod([j]+1,%d)))\n"
                "v[0..%d]' = -k*v[j] + x[j] - x[j]^3 + B*cos(w*t) - G*v[j]\n"
                "x[0..%d](0) = -5\nacc n[0..%d]\nevent peak[0..%d]: v[j], dir=-1, stop=2 { n[j] = n[j] + 1 }\n"
                "%s@ meth=rkck45, toler=1e-8, atoler=1e-8, total=10\ndone\n" % (m, m, units, units, m, m, m, m, extra))
    scan = "scan k=lin(0.2, 0.3, %d)\n"
    cases = [  # name, text, (layout, team), loop form
        ("scan_ring14_25", ring(14, "scan x11=list(-8,-4,0,4,8)\nscan v11=list(-20,-5,10,25,40)\n"), ("1", "32"), True),
        ("scan_ring14_4096", ring(14, scan % 4096), ("1", "32"), True),
        ("scan_ring14_4097", ring(14, scan % 4097), ("0", None), False),
        ("scan_ring14_none", ring(14, ""), ("0", None), False),
        ("scan_ring14_named", ring(14, scan % 25 + "@ layout=thread\n"), ("0", None), False),
        ("scan_noise", "par k=1\nx[1..16]' = v[j]\nv[1..16]' = -k*x[j] + 0.1*nz\nnz=normal(0,1)\n" + scan % 25 +
         "@ meth=euler, dt=0.01, total=1\ndone\n", ("0", None), False),
        ("scan_chain8_25", chain_text(8, scan % 25), ("0", None), False),
        ("scan_chain12_25", chain_text(12, scan % 25), ("1", "32"), True),
        ("scan_chain128_128", chain_text(128, scan % 128), ("2", "128"), True),
        ("scan_chain128_129", chain_text(128, scan % 129), ("1", "32"), True),
        ("scan_chain128_8192", chain_text(128, scan % 8192), ("1", "32"), True),
        ("scan_chain512_3", chain_text(512, scan % 3), ("2", "256"), True),
        ("scan_chain2048_3", chain_text(2048, scan % 3), ("2", "512"), True),
        ("scan_dae", "par k=1\nx[1..30]' = -k*x[j] + y\n0 = y + y^3 - x1\nsolv y = 0\n" + scan % 10 + "done\n", ("0", None), False),
        ("scan_stiff", chain_text(16, scan % 10).replace("meth=rk4", "meth=rodas5p"), ("0", None), False),
    ]
    for name, text, layout, loop in cases:
        p = odegen(write(name, text), "-o", name)
        ot.check(p.returncode == 0, name + ": " + p.stderr)
        src = open(os.path.join(WORK, name, name + ".cu")).read()
        got = (re.search(r"#define ODE_LAYOUT (\d) ", src).group(1),
               (re.search(r"#define ODE_TEAM_SIZE (\d+) ", src) or [None, None])[1])
        ot.check(got == layout, "%s: layout and team %s expected, got %s" % (name, layout, got))
        ot.check((not written_out(src)) == loop, "%s: loop form %s expected" % (name, loop))
        # a note at the scan's line says when the layout is the scan's, not the model's size's, once
        by_scan = {"scan_ring14_25": "@ layout=thread", "scan_ring14_4096": "@ layout=thread",
                   "scan_chain12_25": "@ layout=thread", "scan_chain128_128": "@ layout=warp, team=32",
                   "scan_chain512_3": "@ layout=block, team=128"}.get(name)
        notes = p.stderr.count("integrates each system: the layout for this file's scan")
        ot.check(notes == (1 if by_scan else 0) and (not by_scan or "model's size, %s (docs" % by_scan in p.stderr),
                 "%s: the scan's note %s expected: %s" % (name, by_scan, p.stderr))
    # the rule's team for the tutorial's 25 systems, run (on the GPU in make test-gpu): the bytes of
    # the model written out on the CPU path
    text, src = same_both_ways("scan_ring14_run", cases[0][1])
    r = rows(text)
    ot.check(re.search(r"#define ODE_LAYOUT 1 ", src) and len(r) == 25 and
             all(s in ("finished", "event") for s in r.status) and np.all(np.isfinite(r["x0"])),
             "the ring's 25 systems in a warp of 32: %s" % sorted(set(r.status)))


SPECIAL_RING = open(os.path.join(ROOT, "tests", "team", "special_ring.ode")).read()   # (tests/team/run.sh too)


def test_team_emulation():
    """The loop form's functions (ode_model_rhs_team, ode_model_events_team) by
    teams of 1 … 64 lanes emulated on the host (tests/team/emulate.c), in both
    orders: the bits of the per-thread functions for a team of one, the same
    bits in both orders (no missing barrier), rounding only otherwise."""
    sums = open(os.path.join(ROOT, "tests", "xpp", "sums", "sum_bounds_loop.ode")).read()   # (sums of parameters' bounds)
    for name, text in (("emu_chain", CHAIN), ("emu_ring", RING), ("emu_special", SPECIAL_RING), ("emu_sums", sums)):
        # (one thread's layout over the loop form: the file holds both the team's functions and the
        # per-thread ones they are compared with; the rule would give the larger models a team)
        path = write(name, with_mode(text, "loop").replace("\ndone", "\n@ layout=thread\ndone", 1))
        p = odegen(path, "-o", name)
        ot.check(p.returncode == 0, p.stderr)
        exe = os.path.join(WORK, name + "_emulate")
        # (fortified on every machine, as Ubuntu's cc is by default: emulate.c's lanes must survive it)
        q = subprocess.run(["cc", "-std=c11", "-O1", "-g", "-D_GNU_SOURCE", "-U_FORTIFY_SOURCE", "-D_FORTIFY_SOURCE=2",
                            "-fopenmp", "-Wall", "-Werror",
                            "-Wno-unused-function", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-maybe-uninitialized",
                            '-DMODEL_CU="%s"' % os.path.join(WORK, name, name + ".cu"),
                            "-I" + os.path.join(ROOT, "tests", "team"), "-I" + os.path.join(ROOT, "templates"),
                            os.path.join(HERE, "team_emulate.c"), "-lm", "-o", exe],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ot.check(q.returncode == 0, "%s: team_emulate.c does not compile:\n%s" % (name, q.stderr[-3000:]))
        r = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        print("        %s: %s" % (name, r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-500:]))
        ot.check(r.returncode == 0, "%s: %s%s" % (name, r.stdout[-3000:], r.stderr[-2000:]))


def test_sizes():
    """Translation (build/odegen) and compile time (cc -O2 of the generated source, nvcc -O3 on the
    GPU suite, four at once there: the 256-state chain written out alone takes nvcc minutes) of the
    Duffing chain, printed."""
    if not os.access(ODEGEN_PLAIN, os.X_OK):
        raise ot.Failure("build/odegen is missing (make)")
    sizes = [(8, "written"), (32, "written"), (128, "loop"), (512, "loop"), (2048, "loop"), (100000, "loop")]
    sizes += [(n, "loop") for n in (8, 32)] + [(64, "written"), (128, "written")]
    at_once = 1 if ot.BACKEND == "cpu" else 4

    def one(size):
        half, mode = size
        name = "size%d_%s" % (2 * half, mode)
        path = write(name, chain_text(half, "@ arrays=%s\n" % mode))
        t0 = time.time()
        p = odegen(path, "-o", name, odegen_bin=ODEGEN_PLAIN)
        t_translate = time.time() - t0
        ot.check(p.returncode == 0, p.stderr)
        cu = os.path.join(WORK, name, name + ".cu")
        src = open(cu).read()
        lines = src.count("\n")
        layout = re.search(r"#define ODE_LAYOUT (\d)", src).group(1)
        t_cc = None   # (2·10^5 states: translated only; its loop form is the same text as 4096's)
        if half <= 2048:
            t0 = time.time()
            compile_cmd = (["cc", "-O2", "-fopenmp", "-x", "c"] if ot.BACKEND == "cpu" else
                           [NVCC, "-O3", "-arch=" + os.environ.get("ARCH", "sm_90"), "-Xcompiler", "-fopenmp"])
            q = subprocess.run(compile_cmd + ["-c", cu, "-o", os.path.join(WORK, name + ".o")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            t_cc = time.time() - t0
            ot.check(q.returncode == 0, q.stderr[-3000:])
        return half, mode, t_translate, t_cc, lines, layout

    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(at_once) as pool:
        results = list(pool.map(one, sorted(sizes)))
    print("        %7s %-8s %10s %10s %8s" % ("states", "form", "translate", "cc -O2" if ot.BACKEND == "cpu" else
                                               "nvcc -O3%s" % (" (%d at once)" % at_once if at_once > 1 else ""), "lines"))
    loop_lines = {}   # by layout: the rule's team (64 states or more) adds the team's templates
    for half, mode, t_translate, t_cc, lines, layout in results:
        print("        %7d %-8s %9.2fs %10s %8d  %s" % (2 * half, mode, t_translate,
                                                     "%.2fs" % t_cc if t_cc is not None else "-", lines,
                                                     {"0": "thread", "1": "warp", "2": "block"}[layout]), flush=True)
        if mode == "loop":   # (the generated source holds the templates: about 12000 lines for any model)
            loop_lines.setdefault(layout, []).append(lines)
    for layout, counts in loop_lines.items():
        ot.check(max(counts) - min(counts) < 100,
                 "the loop form's source grows with n: %d … %d lines" % (min(counts), max(counts)))
    ot.check(len(loop_lines["2"]) >= 2, "the rule's block at 1024 states and more: %s" % loop_lines)


TESTS = [
    ("loop == written: Duffing chain", test_chain),
    ("loop == written: Duffing ring, events", test_ring),
    ("loop == written: %-block counting down", test_block),
    ("loop == written: Kuramoto", test_kuramoto_both_ways),
    ("Kuramoto: order parameter vs K_c", test_kuramoto_transition),
    ("loop == written: HH cable of 100", test_cable),
    ("auto: threshold, derivatives", test_auto_threshold),
    ("the rule by the declared scan's size", test_scan_rule),
    ("loop form by emulated teams of 1 … 64", test_team_emulation),
    ("translation and build time by size", test_sizes),
]

if __name__ == "__main__":
    sys.exit(ot.main(TESTS))
