#!/usr/bin/python3
"""Values chosen when a system is loaded (issues 9 and 12): initial values that
are expressions of parameters, parameter sets, and table files.

Initial values of parameters.  `init y1=a0, y2=w2-a0` (w2 a derived
parameter) and `y3(0)=2*a0+1` are computed for each system from its own
parameters: with the runner's defaults, a --set of a0, a scan of a0; a value
given to the state itself wins (--set y1=…, a scan of y1, a set that names
it).  The model y1' = 0, y2' = 0, y3' = 0 keeps its initial values, so each
row shows them exactly.

Sets.  `set NAME {…}` is listed by odegen --check and chosen by --set-name;
--set and --set-name apply in the order given; an unknown set is a usage
error naming the sets there are.

Table files.  A file table is read relative to the .ode file (odegen run
from elsewhere); each malformed file gets a message that names the file
and the line.

Run: /usr/bin/python3 tests/xpp/test_values.py
"""
import os
import shutil
import subprocess
import sys
import tempfile

os.environ.setdefault("ODEGEN_SANITIZE", "0")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import ODEGEN, build, check, main, run, run_raw  # noqa: E402

MODEL = """par a0=2, w=3
!w2=w*w
init y1=a0, y2=w2-a0
y1'=0
y2'=0
y3'=0
y3(0)=2*a0+1
set fast {a0=5, y2=7}
set slow {w=0.5}
@ total=1
record a0, w, y1, y2, y3
done
"""


def rows(*args):
    r = run(RUNNER[0], "--quiet", *args)
    return [(r["a0"][i], r["w"][i], r["y1"][i], r["y2"][i], r["y3"][i]) for i in range(len(r))]


RUNNER = []


def runner():
    if not RUNNER:
        RUNNER.append(build("values_init", MODEL))
    return RUNNER[0]


def expect(args, want):
    runner()
    got = rows(*args)
    check(got == want, "%s: got %s, expected %s" % (" ".join(args) or "(defaults)", got, want))


def test_initial_values_follow_parameters():
    """init y1=a0 follows a0: defaults, --set a0, a scan of a0, a derived parameter."""
    expect([], [(2, 3, 2, 7, 5)])
    expect(["--set", "a0=4"], [(4, 3, 4, 5, 9)])
    expect(["--scan", "a0=list(1,3)"], [(1, 3, 1, 8, 3), (3, 3, 3, 6, 7)])
    expect(["--set", "w=1"], [(2, 1, 2, -1, 5)])


def test_state_values_win():
    """A value given to the state itself wins over its expression."""
    expect(["--set", "y1=9", "--scan", "a0=list(1,2)"], [(1, 3, 9, 8, 3), (2, 3, 9, 7, 5)])
    expect(["--scan", "y1=list(-1,-2)", "--set", "a0=4"], [(4, 3, -1, 5, 9), (4, 3, -2, 5, 9)])


def test_sets():
    """--set-name applies a set; with --set, the later one wins; sets that name a state keep it."""
    expect(["--set-name", "fast"], [(5, 3, 5, 7, 11)])
    expect(["--set-name", "slow"], [(2, 0.5, 2, -1.75, 5)])
    expect(["--set-name", "fast", "--set", "a0=1"], [(1, 3, 1, 7, 3)])
    expect(["--set", "a0=1", "--set-name", "fast"], [(5, 3, 5, 7, 11)])
    p = run_raw(runner(), "--set-name", "quick")
    check(p.returncode == 2 and "unknown set 'quick' in --set-name; the model's sets are fast, slow" in p.stderr,
          "unknown set: exit %d, %s" % (p.returncode, p.stderr))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "m.ode"), "w") as f:
            f.write(MODEL)
        p = subprocess.run([ODEGEN, "--check", "m.ode"], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        want = ("set fast (line 8): a0=5, y2=7   (runner: --set-name fast)\n"
                "set slow (line 9): w=0.5   (runner: --set-name slow)\n")
        check(p.returncode == 0 and p.stdout == want, "odegen --check printed %r" % p.stdout)


TABLE_MODEL = "table f data/f.tab\nx'=f(t)\ndone\n"

BAD_TABLES = {
    # file contents → the message
    "": "f.tab:1: the first line of a table file is its number of values",
    "1\n0\n1\n5\n": "f.tab:1: the first line of a table file is its number of values",
    "3\n0\n": "f.tab:3: the third line of a table file is its last x (xhi)",
    "3\n1\n1\n0\n0\n0\n": "the table's xlo (1) must be below its xhi (1)",
    "3\n0\n1\n0\n2\n": "the table has 3 values, the file 2",
    "3\n0\n1\n0\nabc\n2\n": "f.tab:5: a table value is one finite number a line",
    "q3\n0\n1\n0\n1\n2\n": "f.tab:1: the first line of a table file is its number of values",
    "1000000000\n0\n1\n0\n": "f.tab:1: a table has at most 10^7 values (odegen's limit), not 1e+09",
}


def test_table_files():
    """Table files are read relative to the .ode file; bad ones are named with their line."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "model", "data"))
        with open(os.path.join(tmp, "model", "m.ode"), "w") as f:
            f.write(TABLE_MODEL)
        with open(os.path.join(tmp, "model", "data", "f.tab"), "w") as f:
            f.write("s4\n0\n3\n0\n1\n4\n9\n")
        p = subprocess.run([ODEGEN, "--check", "model/m.ode"], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, "a table next to the model, odegen run from above: %s" % p.stderr)
        os.mkfifo(os.path.join(tmp, "model", "data", "g.tab"))   # a pipe is no table file (never opened)
        with open(os.path.join(tmp, "model", "g.ode"), "w") as f:
            f.write(TABLE_MODEL.replace("f.tab", "g.tab"))
        p = subprocess.run([ODEGEN, "--check", "model/g.ode"], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        check(p.returncode == 1 and "the table file 'model/data/g.tab' is not a file" in p.stderr,
              "a pipe as a table file: %s" % p.stderr)
        for text, message in BAD_TABLES.items():
            with open(os.path.join(tmp, "model", "data", "f.tab"), "w") as f:
                f.write(text)
            p = subprocess.run([ODEGEN, "--check", "model/m.ode"], cwd=tmp, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
            check(p.returncode == 1 and message in p.stderr and "model/m.ode:1:1: error:" in p.stderr,
                  "table file %r: exit %d, %s" % (text, p.returncode, p.stderr))
        shutil.rmtree(os.path.join(tmp, "model", "data"))
        p = subprocess.run([ODEGEN, "--check", "model/m.ode"], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 1 and "cannot read the table file 'model/data/f.tab' (file names are relative to "
              "the .ode file): No such file or directory" in p.stderr, "missing table file: %s" % p.stderr)


if __name__ == "__main__":
    sys.exit(main([(n, f) for n, f in globals().items() if n.startswith("test_")]))
