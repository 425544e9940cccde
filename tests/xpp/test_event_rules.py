#!/usr/bin/python3
"""XPPAUT's rules for its `global`s, with XPPAUT as the reference (issue 20
items 1, 2 and 4): each model is run by `xppaut FILE -silent` and by odegen
(one integration per XPPAUT output step, as tests/xpp/test_xpp.py does; its
helpers are reused) and compared row by row.

  - two globals on one condition that jumps (a square wave, the issue's
    lines `global 1 v+25 {s=d}` and `global 1 v+25 {y=0}`): both fire, in
    file order — the second sees what the first wrote, in both orders;
  - a global whose statements carry another's condition across zero fires
    that one at the same instant (flags.c's second pass);
  - a global gated by a sigmoid that is exactly 0 until t = 25 runs to the
    end and counts the same crossings;
  - `global 0` (flags.c: |condition| < 5e-16 at a step's end, and the step
    begins before t = 1): the real files' use, a reset where the condition
    is zero at the start (`global 0 t {…}`, `global 0 t-t0 {…}`), and a
    condition zero on the step grid from t = 1 on (mod(t,2)), which fires in
    neither program.

How rows compare.  Up to the first event, to XPPAUT's printed digits (the
print tolerance of test_xpp.py).  XPPAUT places a crossing by linear
interpolation of the condition over the step: where the condition jumps
from -25 to +25 that is mid-step, where odegen locates the jump itself; so
after an event a column may differ by its rate times the placement
difference (at most one step) — columns reset by the event are compared
through their count of resets, row by row.

Run: /usr/bin/python3 tests/xpp/test_event_rules.py [name-filter…]
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

os.environ.setdefault("ODEGEN_SANITIZE", "0")
os.environ.setdefault("CFLAGS", "-O0")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from odegen_test import ODEGEN, build, check, main, run  # noqa: E402
from test_xpp import describe, run_odegen  # noqa: E402
from xppaut import XPPAUT, agree, run_xppaut, tolerance  # noqa: E402


def both(name, text):
    """(XPPAUT's rows, odegen's rows, odegen's statuses, column names) of the
    file `text`; row 0 of XPPAUT's is the initial state, odegen writes the
    ends of the windows."""
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, name + ".ode")
        with open(path, "w") as f:
            f.write(text)
        states, aux, dt, total = describe(path)
        xpp = run_xppaut(path)
        got, status = run_odegen(path, states, aux, dt, total, "rules_" + name)
    finally:
        shutil.rmtree(tmp)
    names = ["t"] + states + aux
    check(len(got) == len(xpp) - 1, "%s: odegen wrote %d rows, XPPAUT %d" % (name, len(got), len(xpp) - 1))
    check(all(s == "finished" for s in status), "%s: statuses %s" % (name, sorted(set(status))))
    return xpp, got, names, dt


def same_rows(label, names, got, ref, cols=None):
    """The columns (all but those named in cols=None) to XPPAUT's print tolerance."""
    keep = [j for j, n in enumerate(names) if cols is None or n in cols]
    return agree(label, [names[j] for j in keep], got[:, keep], ref[:, keep], tolerance(ref)[:, keep])


def resets(col, by):
    """Resets so far at every row: drops of the column by more than `by`."""
    return np.concatenate([[0], np.cumsum(col[1:] < col[:-1] - by)])


# ----------------------------------------------------------------------------- item 1: a condition that jumps

SQUARE = """# a square wave (issue 20 item 1): v jumps from -50 to 0 at t = 100 k
par TA=50, per=100, d=1
v=-50+50*heav(TA-mod(t,per))
s'=-s/10
y'=1
z'=0
{lines}
@ meth=rungekutta, dt=0.5, total=1200
done
"""


def test_two_globals_on_a_jump():
    """global 1 v+25 {s=d} and global 1 v+25 {y=0}, in both orders: y is
    reset at every jump in both programs (12 resets, y < 100 + dt; odegen
    kept only the first line's before: y = 1200 at t = 1200), z shows the
    file order (12 or 1), s and y agree to the placement difference of the
    jump (XPPAUT mid-step, odegen at the jump: dt/2 here)."""
    orders = {"s_first": ("global 1 v+25 {s=d; z=1}", "global 1 v+25 {y=0; z=z*10+2}", 12),
              "y_first": ("global 1 v+25 {y=0; z=z*10+2}", "global 1 v+25 {s=d; z=1}", 1)}
    for name, (a, b, z) in orders.items():
        xpp, got, names, dt = both("square_" + name, SQUARE.format(lines=a + "\n" + b))
        ref = xpp[1:]
        col = {n: j for j, n in enumerate(names)}
        first = int(np.argmax(ref[:, col["z"]] != 0))
        same_rows(name + " (before the first jump)", names, got[:first], ref[:first])
        for who, rows in (("XPPAUT", ref), ("odegen", got)):
            n = resets(rows[:, col["y"]], 1.0)
            check(n[-1] == 12, "%s, %s: %d resets of y, expected 12" % (name, who, n[-1]))
            check(np.all(rows[:, col["y"]] < 100 + dt), "%s, %s: y reached %g" % (name, who, rows[:, col["y"]].max()))
            check(np.all(rows[first:, col["z"]] == z), "%s, %s: z = %s after the jumps, expected %d (file order)"
                  % (name, who, sorted(set(rows[first:, col["z"]])), z))
        check(np.array_equal(resets(got[:, col["y"]], 1.0), resets(ref[:, col["y"]], 1.0)),
              "%s: the resets of y fall in other rows" % name)
        # after a jump: y differs by the placement difference, s by its rate times it
        shift = np.abs(got[first:, col["y"]] - ref[first:, col["y"]])
        check(np.all(shift <= dt / 2 + 1e-5 * (1 + ref[first:, col["y"]])), "%s: y differs by up to %g (dt/2 = %g)"
              % (name, shift.max(), dt / 2))
        ds = np.abs(got[first:, col["s"]] - ref[first:, col["s"]])
        rate = np.maximum(got[first:, col["s"]], ref[first:, col["s"]]) / 10    # |s'|
        check(np.all(ds <= rate * dt / 2 + 1e-6), "%s: s differs by up to %g" % (name, ds.max()))
        print("    %s: 12 resets of y in both, z = %d; y at t = 1200: XPPAUT %.8g, odegen %.8g; largest "
              "difference after a jump: y %.3g, s %.3g" % (name, z, ref[-1, col["y"]], got[-1, col["y"]],
                                                         shift.max(), ds.max()))


# ----------------------------------------------------------------------------- carried across zero

CASCADE = """# every third reset of v counted by a second global that the first sets off
# (the threshold 1.013: no crossing on the step grid)
v'=1
n'=0
m'=0
global 1 {v-1.013} {v=0; n=n+1}
global 1 {n-2.5} {m=m+1; n=0}
@ meth=rungekutta, dt=0.03, total=10.5
done
"""


def test_carried_across_zero():
    """The first global's n=n+1 carries n-2.5 across zero at every third
    reset: XPPAUT fires the second at the same instant, and so does odegen —
    m = 1, 2, 3 at t = 3.039, 6.078, 9.117, in the same rows (v' = 1: both
    place the crossings exactly; all rows agree to the print tolerance)."""
    xpp, got, names, dt = both("cascade", CASCADE)
    ref = xpp[1:]
    check(ref[-1, names.index("m")] == 3, "XPPAUT: m = %g, expected 3" % ref[-1, names.index("m")])
    r = same_rows("cascade", names, got, ref)
    print("    cascade: m = 3 in both; %d rows within %.2f of the print tolerance" % (len(ref), r))


# ----------------------------------------------------------------------------- item 2: zero for a while

GATED = """# a global gated by a sigmoid that underflows to 0 before t = 25
hv(x)=1/(1+exp(-x/.001))
x'=y
y'=-x
n'=0
init x=1
global 1 {hv(t-25)*x} {n=n+1}
@ meth=rungekutta, dt=0.05, total=100
done
"""


def test_zero_for_a_while():
    """The condition is exactly 0 for 25 time units: both programs integrate
    to t = 100 (odegen stopped at t = 2.5, `equilibrium`, before) and count
    the 12 crossings in the same rows (one row apart at most at each);
    before the first, every row agrees to the print tolerance.  Run as one
    integration, odegen ends where XPPAUT does (within 0.01: XPPAUT moves
    the state at each crossing by its linear interpolation, O(dt^2))."""
    xpp, got, names, dt = both("gated", GATED)
    ref = xpp[1:]
    j = names.index("n")
    check(ref[-1, j] == 12 and got[-1, j] == 12, "crossings: XPPAUT %g, odegen %g, expected 12"
          % (ref[-1, j], got[-1, j]))
    off = np.nonzero(ref[:, j] != got[:, j])[0]
    check(len(off) <= 12, "the counts differ in %d rows" % len(off))
    first = int(np.argmax(ref[:, j] > 0))
    same_rows("gated (before the first crossing)", names, got[:first], ref[:first])
    # the same file as one integration (the windows above are one step each:
    # evsteps never counted there)
    r = run(build("rules_gated_whole", GATED.replace("done", "record t, x, y, n\ndone")), "--quiet")
    check(list(r.status) == ["finished"] and r["t"][0] == 100 and r["n"][0] == 12,
          "one integration: status %s at t = %g, %g crossings" % (r.status, r["t"][0], r["n"][0]))
    for k in ("x", "y"):
        check(abs(r[k][0] - ref[-1, names.index(k)]) < 0.01, "one integration: %s = %.8g, XPPAUT %.8g"
              % (k, r[k][0], ref[-1, names.index(k)]))
    print("    gated: 12 crossings in both; at t = 100 x = %.8g (XPPAUT %.8g), y = %.8g (XPPAUT %.8g)"
          % (r["x"][0], ref[-1, names.index("x")], r["y"][0], ref[-1, names.index("y")]))


# ----------------------------------------------------------------------------- item 4: global 0

ZERO = """# global 0 as real files use it: resets where the condition is zero at t = 0
par t0s=0
x'=-x+1
c'=x
d'=1
w'=0
init x=0.5, c=3, d=7, w=4
global 0 t {c=0; d=0}
global 0 t-t0s {w=-1}
global 0 {mod(t,2)} {x=2}
@ meth=rungekutta, dt=0.25, total=8
done
"""


def test_global_zero():
    """global 0 t {c=0; d=0} and global 0 t-t0s {w=-1} reset at t = 0;
    global 0 {mod(t,2)} {x=2}, zero on the grid at t = 2, 4, 6, 8, fires in
    neither program (flags.c places the event at the fraction t_start of
    the step: past its end from t = 1 on).  Every row agrees to the print
    tolerance; odegen says what global 0 means in a note."""
    xpp, got, names, dt = both("zero", ZERO)
    ref = xpp[1:]
    check(xpp[0, names.index("c")] == 0 and xpp[0, names.index("w")] == -1, "XPPAUT did not reset at t = 0: %s"
          % xpp[0])
    r = same_rows("global 0", names, got, ref)
    print("    global 0: %d rows within %.2f of the print tolerance" % (len(ref), r))
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "zero.ode")
        with open(path, "w") as f:
            f.write(ZERO)
        p = subprocess.run([ODEGEN, path, "--check"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    finally:
        shutil.rmtree(tmp)
    check(p.returncode == 0 and "exactly zero" in p.stderr and "before t = 1" in p.stderr,
          "odegen --check: exit %d, %s" % (p.returncode, p.stderr))


if __name__ == "__main__":
    if not XPPAUT:
        print("xppaut not found (Debian package xppaut): the XPPAUT comparison is skipped")
        sys.exit(0)
    sys.exit(main([(n, f) for n, f in globals().items() if n.startswith("test_")]))
