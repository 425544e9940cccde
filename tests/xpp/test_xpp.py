#!/usr/bin/python3
"""XPPAUT compatibility: every plain XPPAUT file of tests/xpp/ is run by
XPPAUT (Debian's xppaut, batch mode) and by odegen, and the trajectories are
compared to what XPPAUT's printed digits allow.

Method.  Each file asks for `meth=rungekutta` (or XPPAUT's default, which is
the same method), so both programs take classical RK4 steps of the same dt
from the same initial state.  XPPAUT writes output.dat: one row per step,
t then the states then the aux quantities.  odegen's runner writes only the
state at the end of each integration, so the test turns the file into an
odegen model that integrates one window per XPPAUT output step, continuing
in time from window to window:

    @ total=DT                            # DT = the file's dt
    on end { t0 = t1; t1 = t1 + DT }      # the next window follows on
    repeat record=N                       # N = total/dt windows, all recorded
    record t, <states>, <aux>             # the columns of output.dat

(the lines are appended to a copy of the file; the file itself stays plain
XPPAUT).  Row k of the runner's CSV is then the state after step k, i.e.
row k of output.dat.  Both programs compute in double; XPPAUT stores and
prints each value in single precision with 8 significant digits, so a
printed value x carries an error of at most

    |x| * (2^-24 + 5e-8)                  (float rounding + %.8g rounding)

The tolerance of a column is that bound plus 64 double ulps of the
column's largest magnitude (the two programs evaluate the same formulas in
a different order; differences of a few ulps per step are expected, and
grow slowly on the chaotic examples).  The time column is compared too.

Events (`global`).  XPPAUT locates a crossing by linear interpolation of the
event function between two grid points and places the state at that time by
linear interpolation of the step (src/flags.c); odegen locates it by secant
iteration to |g| < 1e-6 and integrates to it.  Both then apply the reset and
finish the step.  Before the first event the trajectories must agree to the
print tolerance above, and the number of events up to every row must agree
(an event may land one row apart when the crossing is that close to a grid
point; such rows are left out).  After the first event XPPAUT's trajectory
is shifted in time: linear interpolation over a step of length dt misplaces
the crossing by O(dt^2) (dt^2 max|g''| / (8 |g'|)), so a column y differs by
about that shift times |y'|.  The tolerance there is

    print tolerance + K dt^2 (1 + |y'|)

(|y'| from XPPAUT's rows, by the one-sided difference that does not
straddle a reset)

with K given and explained per file in EVENT_FILES, and the test checks that
the difference really is the O(dt^2) interpolation error: the same file run
with dt/2 and dt/4 (by both programs) must shrink it at least 8-fold (16 for
an exact dt^2 law, 4 for an O(dt) one), unless it is already within 10 print
tolerances.  A `global … {arret=1}` stops XPPAUT at the last grid point
before the crossing, and odegen at the crossing itself: the rows before it
are compared as above, and odegen's stopping time must lie in the step that
follows XPPAUT's last row.

Operators.  test_operator_semantics evaluates some fifty constant
expressions with both programs (as aux quantities) and compares the values.
Those where odegen and XPPAUT disagree are listed in KNOWN_DIFFERENCES, with
both values and the reason; the main one is operator precedence: XPPAUT's
comparisons bind as tightly as ^ (tighter than + - * / and unary minus), its
& like * and its | like +, so `1+2<4` is 2 there and 1 in odegen (and C).
The corpus parenthesises its comparisons, so that it means the same in both.

The whole suite takes well under a minute: the runners are built without
sanitizers (the numerics suite covers the sanitized CPU path), without
optimisation (no -ffast-math either way: the same arithmetic), two at a
time.

Run: /usr/bin/python3 tests/xpp/test_xpp.py [name-filter…]
"""
import concurrent.futures
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

os.environ.setdefault("ODEGEN_SANITIZE", "0")
os.environ.setdefault("CFLAGS", "-O0")   # the generated Makefile's CFLAGS ?= -O2: these runs are short
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import ODEGEN, build, check, main, run  # noqa: E402
from xppaut import PRINT_REL, XPPAUT, agree, read_model, run_xppaut, tolerance, worst  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------------------- the files

def event_count_column(name):
    """Events so far, read from a state that the reset increments."""
    return lambda cols: np.round(cols[name])


def rises(name):
    """Events so far, counted as sign changes - to + of a column (a bounce)."""
    def count(cols):
        v = cols[name]
        return np.concatenate([[0], np.cumsum((v[:-1] < 0) & (v[1:] > 0))])
    return count


def drops(name, by):
    """Events so far, counted as drops of a column by more than `by` (a reset)."""
    def count(cols):
        v = cols[name]
        return np.concatenate([[0], np.cumsum(v[1:] < v[:-1] - by)])
    return count


# File → how to count its events, and K: after the first event a column y
# must agree within K dt^2 (1 + |y'|) beyond the print tolerance (see the
# module's docstring).  Measured: the largest difference is 0.04 to 0.4 of
# that bound, and halving dt twice shrinks it 14- to 100-fold.
EVENT_FILES = {
    # v' = (I - v)/tau is nearly linear at the threshold: |g''|/(8|g'|) is
    # 0.015/(8*0.05) < 0.04, so the crossing time is off by < 0.04 dt^2.
    "iaf.ode": dict(count=event_count_column("nspk"), K=0.1),
    # y'' = -g: the bounce time is off by g dt^2 / (8 |vy|), up to 0.3 dt^2 at
    # the slowest bounce, and the shifts add up over five bounces; energy's
    # error is e^2 |vy| g times the shift.  K = 30.
    "bouncing_ball.ode": dict(count=rises("vy"), K=30.0),
    # The upstroke is steep but v'' / v' is about 2 at v = 30: the shift is
    # about dt^2 / 4 per spike, and it is carried to u through the reset.  K = 5.
    "izhikevich.ode": dict(count=drops("v", 40.0), K=5.0),
    # arret: compared up to XPPAUT's last row (see the docstring).
    "projectile.ode": dict(count=None, K=0.0, arret=True),
}


def describe(path):
    """States, aux names, dt and total of a plain XPPAUT file."""
    states, aux, opts = read_model(path)
    dt = float(opts.get("dt", 0.05))
    total = float(opts.get("total", 20))
    check(opts.get("meth", "rungekutta").lower() in ("rungekutta", "runge", "rk4"),
          "%s: the comparison needs meth=rungekutta" % path)
    return states, aux, dt, total


def odegen_text(path, states, aux, dt, total):
    """The file with the windows appended (see the module's docstring)."""
    text = open(path).read()
    text = re.sub(r"(?im)^done\s*$", "", text)
    n = int(round(total / dt))
    return text + (
        "\n# appended by tests/xpp/test_xpp.py: one integration per XPPAUT output step\n"
        "@ total=%r\n"
        "on end { t0 = t1; t1 = t1 + %r }\n"
        "repeat record=%d\n"
        "record t, %s\n"
        "done\n") % (dt, dt, n, ", ".join(states + aux))


def run_odegen(path, states, aux, dt, total, name):
    runner = build("xpp_" + name, odegen_text(path, states, aux, dt, total))
    r = run(runner, "--quiet")
    cols = [r.header[2 + j] for j in range(1 + len(states) + len(aux))]
    return np.column_stack([r[c] for c in cols]), r.status


# ----------------------------------------------------------------------------- comparison

SUMMARY = {}


def compare_file(fname, xpp, ode, ode_finer=()):
    """ode_finer: (factor, (xpp, ode)) of the same file run with dt/factor."""
    path = os.path.join(HERE, fname)
    states, aux, dt, total = describe(path)
    names = ["t"] + states + aux
    ref = xpp[1:]                  # row 0 is the initial state: odegen writes ends of windows
    got, status = ode
    spec = EVENT_FILES.get(fname)
    check(ref.shape[1] == len(names), "%s: output.dat has %d columns, expected %d (%s)"
          % (fname, ref.shape[1], len(names), " ".join(names)))

    if spec and spec.get("arret"):
        # XPPAUT stops at the last grid point before the crossing.
        n = len(ref)
        check(len(got) > n and status[n] == "event" and all(s == "finished" for s in status[:n]),
              "%s: odegen should stop (status event) in window %d, statuses %s"
              % (fname, n + 1, sorted(set(status))))
        r = agree(fname, names, got[:n], ref)
        t_stop = got[n, 0]
        check(ref[-1, 0] < t_stop <= ref[-1, 0] + dt * (1 + 1e-6),
              "%s: odegen stopped at t=%.17g, XPPAUT's last row is t=%.8g" % (fname, t_stop, ref[-1, 0]))
        SUMMARY[fname] = "%d rows before the stop within %.2f of the print tolerance; stop at t=%.6f" % (n, r, t_stop)
        return

    check(len(got) == len(ref), "%s: odegen wrote %d rows, XPPAUT %d" % (fname, len(got), len(ref)))
    check(all(s == "finished" for s in status), "%s: statuses %s" % (fname, sorted(set(status))))
    tol = tolerance(ref)
    if not spec:
        r = agree(fname, names, got, ref, tol)
        SUMMARY[fname] = "%d rows x %d columns, largest error %.2f of the print tolerance" % (
            len(ref), len(names), r)
        return

    # events: the counts, before the first one, after it, and the dt^2 law
    ev = event_errors(fname, names, xpp, got, spec, dt)
    r1 = agree(fname + " (before the first event)", names, got[:ev["first"]], ref[:ev["first"]], tol[:ev["first"]])
    check(ev["ratio"] <= 1, ev["msg"])
    finer = [event_errors(fname, names, x, g[0], spec, dt / fac)["shift"] for fac, (x, g) in ode_finer]
    shrink = ev["shift"] / max(finer[-1], 1e-300)
    check(ev["excess"] <= 10 or shrink >= 8,
          "%s: the difference after the first event shrinks only %.3g-fold from dt to dt/%d "
          "(%.3g, %s): not the O(dt^2) of XPPAUT's interpolated events"
          % (fname, shrink, ode_finer[-1][0], ev["shift"], ", ".join("%.3g" % f for f in finer)))
    SUMMARY[fname] = ("%d events; %d rows before the first within %.2f of the print tolerance; after it "
                      "within %.2f of K dt^2 (1+|y'|), K=%g; the difference shrinks %.0f-fold from dt to dt/4") % (
        ev["count"], ev["first"], r1, ev["ratio"], spec["K"], shrink)


def event_errors(fname, names, xpp, got, spec, dt):
    """After the first event: the largest time shift |Δy| / (1 + |y'|), and
    the check against K dt^2 (1 + |y'|)."""
    ref = xpp[1:]
    cols_x = {n: np.concatenate([xpp[:1, j], ref[:, j]]) for j, n in enumerate(names)}
    cols_o = {n: np.concatenate([xpp[:1, j], got[:, j]]) for j, n in enumerate(names)}
    cx, co = spec["count"](cols_x)[1:], spec["count"](cols_o)[1:]
    check(cx[-1] == co[-1] and cx[-1] > 0,
          "%s (dt=%g): %d events in XPPAUT, %d in odegen" % (fname, dt, cx[-1], co[-1]))
    off = np.nonzero(cx != co)[0]
    check(len(off) <= cx[-1], "%s (dt=%g): event counts differ at rows %s" % (fname, dt, off[:10] + 1))
    first = int(np.nonzero(cx > 0)[0][0])
    after = np.ones(len(ref), bool)
    after[:first] = False
    after[off] = False           # rows where an event falls one row apart
    # |y'| from the one-sided difference that does not straddle a reset
    d = np.abs(np.diff(ref, axis=0)) / dt
    speed = 1 + np.minimum(np.vstack([d[:1], d]), np.vstack([d, d[-1:]]))
    diff = np.abs(got - ref)
    tol = tolerance(ref)
    bound = tol + spec["K"] * dt * dt * speed
    r, msg = worst(fname + " (after the first event)", names, got[after], ref[after], bound[after])
    return dict(count=int(cx[-1]), first=first, ratio=r, msg=msg,
                shift=float(np.max((diff / speed)[after][:, 1:])),
                excess=float(np.max((diff / tol)[after][:, 1:])))


# ----------------------------------------------------------------------------- operator semantics

# Constant expressions that XPPAUT accepts, evaluated by both programs (as aux
# quantities at t=0).  Each must give the same value, except those listed in
# KNOWN_DIFFERENCES.
PROBES = [
    "2^3^2", "-2^2", "2**3**2", "2^0.5", "2*3^2", "-3^2+1",
    "mod(-7,3)", "mod(-7,-3)", "mod(7.5,-2)", "mod(7,3)", "mod(-1e-20,3)",
    "sign(0)", "sign(-0.0)", "sign(-2.5)", "heav(0)", "heav(-0.0)", "heav(-1e-300)",
    "flr(-1.5)", "flr(2)", "abs(-3)+max(1,2)+min(1,2)", "atan2(1,-1)",
    "not(0)", "not(2)", "(1<2)&(3<4)", "(1>2)|(3<4)", "1<2&3<4", "1>2|3<4",
    "if(0.5)then(2)else(3)", "if(0)then(2)else(3)", "if(1<2)then(2)else(3)",
    "exp(1)", "ln(2)", "log(2)", "log10(100)", "sqrt(2)", "tanh(0.5)", "pi",
    "2/4/2", "1-2-3", "8/2*4",
    # where XPPAUT's operator precedence differs from odegen's (C's)
    "1+2<4", "3<4+1", "2*3<4", "1+1&1", "1|0+5", "-1<0", "3==1+2", "5-2>=3",
    "1>0&1<0+5",
    "1/0",
]

# expression → (XPPAUT's value, odegen's value, why)
KNOWN_DIFFERENCES = {
    "1+2<4": (2, 1, "XPPAUT's comparisons bind tighter than + - * / (as tight as ^): 1+(2<4)"),
    "3<4+1": (2, 1, "(3<4)+1"),
    "2*3<4": (2, 0, "2*(3<4)"),
    "1+1&1": (2, 1, "XPPAUT's & binds like *: 1+(1&1)"),
    "1|0+5": (6, 1, "XPPAUT's | binds like +: (1|0)+5"),
    "-1<0": (0, 1, "XPPAUT's unary minus binds looser than <: -(1<0)"),
    "3==1+2": (2, 1, "(3==1)+2"),
    "5-2>=3": (5, 1, "5-(2>=3)"),
    "1>0&1<0+5": (5, 1, "((1>0)&(1<0))+5: a time window written t>a&t<a+d is always true in XPPAUT"),
    "1/0": (4.4843049e14, math.inf, "XPPAUT divides by 2.23e-15 instead of 0"),
}
# Where XPPAUT's precedence groups an expression differently from the
# conventional reading, odegen refuses it in an XPPAUT statement and asks for
# parentheses (generator/front/precedence.c): never a silently different value.
REFUSED = {e for e, v in KNOWN_DIFFERENCES.items() if e != "1/0"}


def probe_results():
    """XPPAUT's value of every probe, odegen's of those it accepts, and
    odegen's messages for those it refuses."""
    lines = ["x'=0", "init x=0"] + ["aux p%d=%s" % (i, e) for i, e in enumerate(PROBES)]
    text = "\n".join(lines + ["@ meth=rungekutta, dt=0.05, total=0.05", "done", ""])
    accepted = [e for e in PROBES if e not in REFUSED]
    mine = ["x'=0", "init x=0"] + ["aux p%d=%s" % (i, e) for i, e in enumerate(PROBES) if e not in REFUSED]
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "probes.ode")
        with open(path, "w") as f:
            f.write(text)
        xpp = run_xppaut(path)
        mine_path = os.path.join(tmp, "mine.ode")
        with open(mine_path, "w") as f:
            f.write("\n".join(mine + ["@ meth=rungekutta, dt=0.05, total=0.05", "done", ""]))
        aux = ["p%d" % i for i, e in enumerate(PROBES) if e not in REFUSED]
        runner = build("xpp_probes", odegen_text(mine_path, ["x"], aux, 0.05, 0.05))
        messages = {}
        for e in sorted(REFUSED):
            bad = os.path.join(tmp, "refused.ode")
            with open(bad, "w") as f:
                f.write("x'=0\naux p=%s\ndone\n" % e)
            p = subprocess.run([ODEGEN, bad, "--check"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            messages[e] = (p.returncode, p.stderr)
    finally:
        shutil.rmtree(tmp)
    r = run(runner, "--quiet")
    # aux values of constants: XPPAUT's first row (t=0) and odegen's (t=dt) agree
    values = {e: (xpp[0, 2 + i], r["p%d" % i][0] if e not in REFUSED else None) for i, e in enumerate(PROBES)}
    return values, messages


def same_value(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(b):
        return a == b
    return abs(a - b) <= abs(b) * PRINT_REL + 1e-300


def test_operator_semantics():
    """Constant expressions: odegen agrees with XPPAUT, except the known
    differences: 1/0, and the expressions XPPAUT's precedence groups
    differently, which XPPAUT must still evaluate as listed and odegen must
    refuse with its message (update the lists when one is resolved)."""
    got, messages = FUTURES["probes"].result()
    bad = []
    for e, (x, o) in got.items():
        known = KNOWN_DIFFERENCES.get(e)
        if e in REFUSED:
            if not same_value(x, known[0]):
                bad.append("%s: XPPAUT %.8g, KNOWN_DIFFERENCES says %r" % (e, x, known[0]))
            rc, err = messages[e]
            if rc != 1 or "group differently in XPPAUT" not in err:
                bad.append("%s: odegen should refuse it (exit %d): %s" % (e, rc, err.strip()[:200]))
        elif known:
            if not (same_value(x, known[0]) and same_value(o, known[1])):
                bad.append("%s: XPPAUT %.8g, odegen %.17g; KNOWN_DIFFERENCES says %r, %r"
                           % (e, x, o, known[0], known[1]))
        elif not same_value(x, o):
            bad.append("%s: XPPAUT %.8g, odegen %.17g" % (e, x, o))
    check(not bad, "\n".join(bad))
    SUMMARY["operators (probes)"] = "%d expressions agree, %d refused (XPPAUT groups them differently), %d known difference" % (
        len(got) - len(KNOWN_DIFFERENCES), len(REFUSED), len(KNOWN_DIFFERENCES) - len(REFUSED))


# ----------------------------------------------------------------------------- driver

FILES = sorted(f for f in os.listdir(HERE) if f.endswith(".ode"))
FUTURES = {}


def with_dt(text, fac):
    """The file's text with the dt of its @ line divided by fac."""
    if fac == 1:
        return text
    return re.sub(r"(?im)^(@.*?\bdt\s*=\s*)([0-9.eE+-]+)",
                  lambda m: m.group(1) + repr(float(m.group(2)) / fac), text, count=1)


def prepare(fname, fac=1):
    """XPPAUT's output and odegen's rows for the file (dt divided by fac)."""
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, fname)
        with open(path, "w") as f:
            f.write(with_dt(open(os.path.join(HERE, fname)).read(), fac))
        states, aux, dt, total = describe(path)
        xpp = run_xppaut(path)
        name = os.path.splitext(fname)[0] + ("_dt%d" % fac if fac > 1 else "")
        return xpp, run_odegen(path, states, aux, dt, total, name)
    finally:
        shutil.rmtree(tmp)


def start_all(only):
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    for f in FILES:
        if not only or any(o in "file_" + f for o in only):
            FUTURES[f] = pool.submit(prepare, f)
            spec = EVENT_FILES.get(f)
            if spec and not spec.get("arret"):
                FUTURES[f, 2] = pool.submit(prepare, f, 2)
                FUTURES[f, 4] = pool.submit(prepare, f, 4)
    if not only or any(o in "test_operator_semantics" for o in only):
        FUTURES["probes"] = pool.submit(probe_results)
    pool.shutdown(wait=False)


def file_test(fname):
    def test():
        xpp, ode = FUTURES[fname].result()
        finer = [(k[1], FUTURES[k].result()) for k in sorted(FUTURES, key=str) if k[0] == fname and k != fname]
        compare_file(fname, xpp, ode, finer)
    test.__doc__ = "%s: odegen's trajectory against XPPAUT's" % fname
    return test


def test_corpus_size():
    """At least 15 classical models."""
    check(len(FILES) >= 15, "only %d files in tests/xpp" % len(FILES))


if __name__ == "__main__":
    if not XPPAUT:
        print("xppaut not found (Debian package xppaut): the XPPAUT comparison is skipped")
        sys.exit(0)
    start_all(sys.argv[1:])
    tests = [("test_corpus_size", test_corpus_size)]
    tests += [("file_" + f, file_test(f)) for f in FILES]
    tests += [("test_operator_semantics", test_operator_semantics)]
    rc = main(tests)
    for k in sorted(SUMMARY):
        print("  %-22s %s" % (k, SUMMARY[k]))
    sys.exit(rc)
