#!/usr/bin/python3
"""The XPPAUT corpus: plain XPPAUT files in the styles real authors write them
(tests/xpp/corpus/), each run by XPPAUT (`xppaut FILE -silent`) and by odegen
and compared row by row, XPPAUT's defaults included (issue 9).

What each file is for is said in its first comment line.  A file may carry
directives for this test in comment lines (`# corpus: …`), which both
programs ignore:
    events=column(n) K=k | events=rises(v) K=k | events=drops(v,by) K=k
        the file has `global` events: count them by that column, and after
        the first one allow K dt^2 (1+|y'|) beyond the print tolerance (XPPAUT
        places a crossing by linear interpolation, O(dt^2) off: see
        test_xpp.py)
    arret
        a global stops the run: XPPAUT stops at the last grid point before
        the crossing, odegen at the crossing (within the next step)
    ulps=N
        the rounding allowed, in units of the last place of a column's
        largest value (default 64): rounding differences of two correct
        fixed-step runs grow along a long run, and show where a column
        crosses 0 (the line says by how much, and why)
    refused=TEXT
        odegen must refuse the file, with a message that contains TEXT (an
        XPPAUT feature that odegen does not have: noise, delays, maps, …)
    reference=H
        XPPAUT's own method is off (an adaptive one at loose tolerances, or
        its O(dt) delays): compare with XPPAUT's RK4 at step H instead, on
        the same output grid (a third, independent integration)
    xpp="OPTIONS"
        XPPAUT options (`newt_tol=1e-12 tol=1e-10 …`) for XPPAUT's copy
        only, as a set of its own, not an @ line: XPPAUT 6.11 drops
        newt_tol, newt_iter, jac_eps and poistop on @ lines (load_eqn.c:
        set_option clears another flag than the one set_all_vals reads)
    odegen="OPTIONS"
        @ options for odegen's copy only (`newt_tol=1e-10 tol=1e-10 …`).
        Either directive leaves the comparison's bounds those of the file's
        own options
    ordered
        XPPAUT's copy gets its temporaries in dependency order: XPPAUT
        computes them in the file's order, and one that reads a temporary
        declared below it reads that one's value from the previous
        evaluation, a stage behind (odegen notes it, and computes the current
        value); each such temporary is moved up before its reader
    laststage=COL,COL
        aux that read a DAE's unknowns: XPPAUT prints them as its last
        Runge-Kutta stage left them (its aux are computed without solving
        the constraints, my_rhs.c: extra), O(dt^3) from the row's state;
        those columns are not compared, the states are

How a file is compared.  XPPAUT's options are read from the file as XPPAUT
reads them (load_eqn.c: the first key the name starts with, in XPPAUT's
order; values with atof), with XPPAUT's defaults: meth=rungekutta, dt=0.05,
total=20, bound=100 (checked on every output column, aux included),
maxstor=5000 stored rows, nout=1.  The odegen variant of the file integrates
one window per XPPAUT output row (as test_xpp.py does), for as many rows as
XPPAUT stores.  Where XPPAUT stopped early (a column beyond bound, or
storage full), the rows it wrote are compared, and the reason is checked on
odegen's next row.  Fixed-step methods (rungekutta, euler, modeuler, ymp) are
compared to XPPAUT's printed digits; adaptive and stiff ones to a tolerance
made of the file's tol and atol, plus XPPAUT's own error estimated by its run
with half the dt (its backward Euler is first order).  A file with `set NAME {…}` blocks is
compared set by set: XPPAUT -silent writes NAME.dat for each, odegen runs
with --set-name NAME.

Where XPPAUT 6.11 reads a line differently from what its author meant,
odegen reads the meaning and says so in a note: blanks around '=' in par,
number, init and @ lines (XPPAUT 6.11 stops at such a par line and ignores
such an option).  XPPAUT is given those lines without the blanks.

Every method a file asks for runs: XPPAUT's stiff ones (stiff, gear, cvode,
2rb, backeul) as rodas5p, compared like the adaptive ones.  The counts
printed at the end: files, accepted, agreeing with XPPAUT, refused as
stated.

Run: /usr/bin/python3 tests/xpp/test_corpus.py [name-filter…]
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
os.environ.setdefault("CFLAGS", "-O0")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import BACKEND, BUILD, ODEGEN, Failure, build, check, run  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
XPPAUT = shutil.which("xppaut")
PRINT_REL = 2.0 ** -24 + 5e-8
FLT_MIN = 1.1754943508222875e-38    # XPPAUT stores its rows as floats: below this, 0 or a subnormal
ULP = 2.0 ** -52

# ----------------------------------------------------------------------------- XPPAUT's reading

# XPPAUT's option keys in its order (load_eqn.c, set_option); the ones this test needs
XPP_KEYS = ["quiet", "logfile", "bell", "but", "bigfont", "big", "smallfont", "small", "forecolor", "backcolor",
            "mwcolor", "dwcolor", "grads", "plotfmt", "backimage", "width", "height", "ync", "xnc", "smc", "umc",
            "lt", "seed", "back", "colormap", "nplot", "dll_lib", "dll_fun", "simplot", "multiwin"]
for _j in range(2, 9):
    XPP_KEYS += ["xp%d" % _j, "yp%d" % _j, "zp%d" % _j, "xhi%d" % _j, "xlo%d" % _j, "yhi%d" % _j, "ylo%d" % _j]
XPP_KEYS += ["xp", "yp", "zp", "axes", "njmp", "nout", "nmesh", "meth", "vmaxpts", "maxstor", "tor_per", "jac_eps",
             "newt_tol", "newt_iter", "fold", "total", "dtmin", "dtmax", "dt", "t0", "trans", "bound", "atol",
             "tol", "delay"]
METHOD_LETTERS = "demragvbqsc582y"     # XPPAUT's method index by the first letter of its name
FIXED_STEP = {"e": "euler", "m": "modeuler", "r": "rungekutta", "y": "ymp"}


def xpp_key(name):
    name = name.lower()
    for k in XPP_KEYS:
        if name.startswith(k):
            return k
    return None


def atof(s):
    m = re.match(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|\s*[-+]?inf", s, re.I)
    return float(m.group(0)) if m else 0.0


def normalized(text):
    """The file as its author meant it, in a form XPPAUT 6.11 reads: no
    blanks around '=' in @, par, number and init lines, and in x(0) = v."""
    out = []
    for line in text.split("\n"):
        if re.match(r"\s*(@|[pPnNiI]\w*\s|\w+\(0\)\s*=)", line) and not line.lstrip().startswith("#"):
            line = re.sub(r"\s*=\s*", "=", line)
        out.append(line)
    return "\n".join(out)


def xpp_options(text):
    """XPPAUT's options for the file (its @ lines, in order, later ones winning)."""
    opt = {"meth": "r", "dt": 0.05, "total": 20.0, "bound": 100.0, "maxstor": 5000, "nout": 1, "tol": 1e-3,
           "atol": 1e-3, "t0": 0.0, "trans": 0.0}
    for line in re.sub(r"\\[ \t]*\n", " ", text).split("\n"):
        if not line.startswith("@"):
            continue
        for tok in re.split(r"[ ,\r]+", line[1:]):
            if "=" not in tok:
                continue
            name, value = tok.split("=", 1)
            key = xpp_key(name)
            if not name or not value or not key:
                continue
            if key == "meth":
                opt["meth"] = value[0].lower()
            elif key in ("njmp", "nout"):
                opt["nout"] = max(1, int(atof(value)))
            elif key == "trans":
                opt["trans"] = atof(value)
            elif key == "maxstor":
                opt["maxstor"] = int(atof(value))
            elif key in opt:
                opt[key] = atof(value)
    return opt


def directives(text):
    d = {}
    for m in re.finditer(r"^#\s*corpus:\s*(.*)$", text, re.M):
        line = m.group(1).strip()
        if line.startswith("refused="):         # the rest of the line
            d["refused"] = line[len("refused="):]
            continue
        for item in line.split():
            k, _, v = item.partition("=")
            d[k] = v if v else True
    return d


def sidecars(path):
    """The files a corpus file reads (table NAME FILE, option FILE), as paths next to it."""
    text = open(path, errors="replace").read()
    names = [m.group(1) for m in re.finditer(r"(?im)^\s*ta\w*\s+\w+\s+([^\s%@#]+)", text)]
    names += [m.group(1) for m in re.finditer(r"(?im)^\s*o(?!n)\w*\s+([^\s#/]+)\s*$", text)]
    return [os.path.join(os.path.dirname(path), n) for n in names
            if os.path.isfile(os.path.join(os.path.dirname(path), n))]


def new_format(path, text):
    """The file in XPPAUT's new format: a file in the old one (its first line
    the number of equations) as `odegen --convert` rewrites it, line for line,
    so that the test's hooks can be appended."""
    if not re.match(r"\s*[-+]?0*[1-9]", text):
        return text
    p = subprocess.run([ODEGEN, "--convert", os.path.basename(path)], cwd=os.path.dirname(path),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "odegen --convert failed on %s:\n%s" % (path, p.stderr))
    return p.stdout


def run_xppaut(path, text, timeout=120):
    """{output name: rows} of `xppaut FILE -silent`: output.dat, or one
    SET.dat per `set` block (a run stopped after `timeout` seconds: the
    directive xpp_timeout=S for files whose XPPAUT runs are long)."""
    fname = os.path.basename(path)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, fname), "w") as f:
            f.write(text)
        for s in sidecars(path):
            shutil.copy(s, tmp)
        p = subprocess.run([XPPAUT, fname, "-silent"], cwd=tmp, timeout=timeout, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
        outs = {}
        for f in os.listdir(tmp):
            if f.endswith(".dat") and os.path.getsize(os.path.join(tmp, f)) > 0:
                outs[f[:-4]] = np.loadtxt(os.path.join(tmp, f), ndmin=2)
        # the set of an xpp=… directive (with_options): the output of a file without sets
        if XPP_SET in outs:
            mine = outs.pop(XPP_SET)
            if not outs:
                outs["output"] = mine
        # xppaut exits 0 even when it could not read the file: the output is the proof
        if not outs:
            raise Failure("xppaut wrote no output for %s:\n%s" % (fname, p.stdout[-2000:]))
        return outs, p.stdout


# ----------------------------------------------------------------------------- odegen

def odegen_check(path):
    """odegen --check on the file as it is: (status, messages, set names)."""
    p = subprocess.run([ODEGEN, "--check", os.path.basename(path)], cwd=os.path.dirname(path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    sets = re.findall(r"^set (\S+) \(line", p.stdout, re.M)
    return p.returncode, p.stderr, sets


def set_options(path):
    """{set name: {option: value}}: the run-time options each set gives
    (XPPAUT's `set S {total=100}`), as `odegen --check` lists them."""
    p = subprocess.run([ODEGEN, "--check", os.path.basename(path)], cwd=os.path.dirname(path), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    out = {}
    for m in re.finditer(r"^set (\S+) \(line \d+\):(.*?)\(runner:", p.stdout, re.M):
        items = dict(kv.strip().split("=", 1) for kv in m.group(2).split(",") if "=" in kv)
        out[m.group(1)] = {RUNTIME_KEYS[k]: float(v) for k, v in items.items() if k in RUNTIME_KEYS}
    return out


# odegen's run-time options in a set, as this test's (XPPAUT's) option keys
RUNTIME_KEYS = {"dt": "dt", "t0": "t0", "total": "total", "toler": "tol", "atoler": "atol", "bound": "bound"}


def model_names(path, defaults=None):
    """States and aux of the model, in odegen's order (its generated tables);
    not the unknowns of `solv` (odegen's last states, ODE_NALG of them), which
    XPPAUT's output.dat does not hold.  `defaults`: a list that receives the
    names of the fields the model records by default (its `record`)."""
    fname = os.path.basename(path)
    with tempfile.TemporaryDirectory() as tmp:
        for s in sidecars(path):
            shutil.copy(s, tmp)
        shutil.copy(path, tmp)
        p = subprocess.run([ODEGEN, fname, "-o", "gen"], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        check(p.returncode == 0, "odegen failed on %s:\n%s" % (fname, p.stderr))
        cu = [f for f in os.listdir(os.path.join(tmp, "gen")) if f.endswith(".cu")]   # (the model's C name)
        check(len(cu) == 1, "odegen wrote %s for %s" % (cu, fname))
        src = open(os.path.join(tmp, "gen", cu[0])).read()

    def table(which):
        m = re.search(r"ode_%s_names\[[^]]*\] = \{([^}]*)\}" % which, src)
        return re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)) if m else []
    if defaults is not None:
        fields = table("field")
        m = re.search(r"ode_default_fields\[[^]]*\] = \{([^}]*)\}", src)
        defaults.extend(fields[int(k)] for k in re.findall(r"\d+", m.group(1)))
    nalg = re.search(r"^#define ODE_NALG (\d+)", src, re.M)
    states = table("state")
    return states[:len(states) - int(nalg.group(1))] if nalg else states, table("aux")


def before_done(text):
    """The file up to its done line (XPPAUT: any word that starts with d, then
    a blank and no '=', or the end of the line)."""
    out = []
    for line in text.split("\n"):
        m = re.match(r"\s*[dD]\w*(\s+(.*))?$", line)
        if m and not (m.group(2) or "").startswith(("=", "'", "(", "/")):
            break
        out.append(line)
    return "\n".join(out)


def window_names_freed(text):
    """The file with its own names t0 and t1 (a state `t1'=…`) renamed t0_ and
    t1_ outside @ lines: the appended hook moves odegen's window [t0, t1],
    which a declared t0 or t1 hides."""
    out = []
    for line in text.split("\n"):
        if not line.lstrip().startswith("@"):
            line = re.sub(r"(?i)\b(t[01])\b", r"\1_", line)
        out.append(line)
    return "\n".join(out)


def odegen_variant(text, states, aux, window, nrows, options=None, step=None):
    """The file with one integration per XPPAUT output row appended (and the
    @ options of an odegen=… directive).  With `step` (a fixed-step method's
    dt) each window's end is the previous one plus dt, once per step of the
    window, as XPPAUT forms t (odesol2.c: *tim = t + dt at each step): at a
    jump of the inputs on an output time (heav(mod(t,per) - c)) the window's
    end then falls on XPPAUT's side of it (0.05 added 20 times is
    1.0000000000000002, 0.1 added 10 times 0.9999999999999999).  XPPAUT's
    adaptive methods aim at t0 + k dt (integrate.c): there, and for windows
    of more than 100 steps, the window is added."""
    text = window_names_freed(before_done(text))
    n = int(round(window / step)) if step else 0
    advance = "; ".join(["t1 = t1 + %r" % step] * n) if 0 < n <= 100 else "t1 = t1 + %r" % window
    return text + (
        "\n# appended by tests/xpp/test_corpus.py: one integration per XPPAUT output row\n" +
        ("@ %s\n" % options if options else "") +
        "@ total=%r\n"
        "on end { t0 = t1; %s }\n"
        "repeat record=%d\n"
        "record t, %s\n"
        "done\n") % (window, advance, nrows, ", ".join(window_names_freed(n) for n in states + aux))


def build_variant(path, label, text):
    name = "corpus_" + re.sub(r"[^A-Za-z0-9_]", "_", os.path.splitext(label)[0])
    work = os.path.join(BUILD, name + "-" + BACKEND)
    os.makedirs(work, exist_ok=True)
    for s in sidecars(path):
        shutil.copy(s, work)
    return build(name, text)


# ----------------------------------------------------------------------------- comparison

def tolerance(ref, ulps=64):
    scale = np.max(np.abs(ref), axis=0, keepdims=True)
    return np.abs(ref) * PRINT_REL + ulps * ULP * scale + FLT_MIN


def worst(label, names, got, ref, tol):
    ratio = np.abs(got - ref) / tol
    k, j = np.unravel_index(np.argmax(ratio), ratio.shape)
    return ratio[k, j], "%s: %s at row %d (t=%.8g): odegen %.17g, XPPAUT %.8g, difference %.3g, allowed %.3g" % (
        label, names[j], k + 1, ref[k, 0], got[k, j], ref[k, j], abs(got[k, j] - ref[k, j]), tol[k, j])


def counter(spec):
    """An events=… directive as a function of the columns: events so far per row."""
    m = re.match(r"(column|rises|drops)\((\w[\w.]*)(?:,([-+.\deE]+))?\)$", spec)
    check(m, "bad events directive %r" % spec)
    kind, col, by = m.group(1), m.group(2), float(m.group(3) or 0)

    def count(cols):
        v = cols[col]
        if kind == "column":
            return np.round(v)
        if kind == "rises":
            return np.concatenate([[0], np.cumsum((v[:-1] < 0) & (v[1:] > 0))])
        return np.concatenate([[0], np.cumsum(v[1:] < v[:-1] - by)])
    return count


def xpp_rows(opt):
    """How many rows after the initial one XPPAUT integrates (integrate.c:
    nit = (total + dt/10) / dt truncated, then nit / nout rounded up)."""
    steps = int((opt["total"] + 0.1 * opt["dt"]) / opt["dt"])
    return (steps + opt["nout"] - 1) // opt["nout"]


def compare_rows(label, names, xpp, got, status, opt, meta, xpp_half=None):
    """One output (output.dat or a set's) against odegen's rows; returns a summary."""
    ref = xpp[1:]
    check(ref.shape[1] == len(names), "%s: XPPAUT wrote %d columns, odegen's model has %d (%s)"
          % (label, ref.shape[1], len(names), " ".join(names)))
    dt = opt["dt"] * opt["nout"]
    n = len(ref)
    expected = xpp_rows(opt)
    tol = tolerance(ref, float(meta.get("ulps", 64)))
    if meta.get("laststage"):
        # aux that read a DAE's unknowns: XPPAUT prints them as the Newton solve of its last
        # Runge-Kutta stage left them (my_rhs.c: extra() computes the aux without do_daes), at
        # the state y_n + dt k3, O(dt^3) from the row's: those columns are not compared; the
        # states, which lagging unknowns would move, are
        for c in meta["laststage"].split(","):
            check(c in names, "%s: laststage=%s: no column %s" % (label, meta["laststage"], c))
            tol[:, names.index(c)] = np.inf
    if meta.get("arret"):
        check(len(got) > n and status[n] == "event" and all(s == "finished" for s in status[:n]),
              "%s: odegen should stop (status event) in window %d" % (label, n + 1))
        r, msg = worst(label, names, got[:n], ref, tol)
        check(r <= 1, msg)
        check(ref[-1, 0] < got[n, 0] <= ref[-1, 0] + dt * (1 + 1e-6),
              "%s: odegen stopped at t=%.17g, XPPAUT's last row is t=%.8g" % (label, got[n, 0], ref[-1, 0]))
        return "%d rows before the stop within %.2f of the print tolerance; stop at t=%.6f" % (n, r, got[n, 0])
    stopped = ""
    if n < expected:
        if n + 1 >= opt["maxstor"]:
            stopped = "; XPPAUT's storage full after %d rows (maxstor)" % (n + 1)
        else:
            check(len(got) > n and np.max(np.abs(got[n, 1:])) > opt["bound"],
                  "%s: XPPAUT stopped after %d of %d rows, and odegen's next row is within bound %g"
                  % (label, n, expected, opt["bound"]))
            stopped = "; XPPAUT stopped at its bound %g after %d rows, where odegen's next row leaves it" % (
                opt["bound"], n)
    check(len(got) >= n, "%s: odegen wrote %d rows, XPPAUT %d" % (label, len(got), n))
    got = got[:n]
    check(all(s == "finished" for s in status[:n]), "%s: statuses %s" % (label, sorted(set(status[:n]))))
    if meta.get("measure"):
        # test_real.py's converges: the largest difference of the states, not a verdict (an aux
        # may be a step function of t, heav(t - 15), which rounding of t flips at an output time)
        k = 1 + int(meta["measure"])
        return float(np.max(np.abs(got - ref)[:, 1:k] / (np.max(np.abs(ref[:, 1:k]), axis=0) + FLT_MIN)))
    if opt["meth"] not in FIXED_STEP:
        # adaptive and stiff methods: both programs within their tolerances of the solution,
        # in value and in phase (an oscillator's error in time grows like tol t: 100 tol (1 + t) |y'|);
        # XPPAUT's own error estimated by its run with dt/2 (Richardson: backward Euler is O(dt)).
        # XPPAUT's gear writes a row now and then at the time of its internal step instead of
        # the grid's (e.g. t=9.5713 for 9.5): such rows are left out, and counted.
        grid = opt["t0"] + dt * np.arange(1, n + 1)
        on = np.abs(ref[:, 0] - grid) <= 1e-6 * (1 + np.abs(grid))
        d = np.abs(np.diff(ref, axis=0)) / dt
        speed = np.maximum(np.vstack([d[:1], d]), np.vstack([d, d[-1:]]))
        bound = 100 * (opt["atol"] + opt["tol"] * np.max(np.abs(ref), axis=0, keepdims=True)
                       + opt["tol"] * (1 + np.abs(grid))[:, None] * speed) + tol
        if xpp_half is not None:
            half = xpp_half[2::2][:n]
            check(len(half) == n, "%s: XPPAUT's run with dt/2 wrote %d rows for %d" % (label, len(half), n))
            on &= np.abs(half[:, 0] - grid) <= 1e-6 * (1 + np.abs(grid))
            bound = bound + 3 * np.abs(ref - half)
        check(np.sum(on) >= 0.8 * n, "%s: only %d of XPPAUT's %d rows on the grid" % (label, np.sum(on), n))
        r, msg = worst(label, names, got[on], ref[on], bound[on])
        check(r <= 1, msg)
        return "%d rows x %d columns within %.2f of 100 (atol + tol |y| + tol (1+t) |y'|) + 3 |XPPAUT(dt) - " \
               "XPPAUT(dt/2)|%s%s" % (np.sum(on), len(names), r, stopped,
                                      "; %d rows off XPPAUT's grid left out" % (n - np.sum(on)) if n > np.sum(on) else "")
    if "events" not in meta:
        r, msg = worst(label, names, got, ref, tol)
        check(r <= 1, msg)
        return "%d rows x %d columns, largest difference %.2f of the print tolerance%s" % (n, len(names), r, stopped)
    count = counter(meta["events"])
    cols_x = {nm: np.concatenate([xpp[:1, j], ref[:, j]]) for j, nm in enumerate(names)}
    cols_o = {nm: np.concatenate([xpp[:1, j], got[:, j]]) for j, nm in enumerate(names)}
    cx, co = count(cols_x)[1:], count(cols_o)[1:]
    check(cx[-1] == co[-1] and cx[-1] > 0, "%s: %d events in XPPAUT, %d in odegen" % (label, cx[-1], co[-1]))
    off = np.nonzero(cx != co)[0]
    check(len(off) <= cx[-1], "%s: event counts differ at rows %s" % (label, off[:10] + 1))
    first = int(np.nonzero(cx > 0)[0][0])
    r1, msg = worst(label + " (before the first event)", names, got[:first], ref[:first], tol[:first])
    check(r1 <= 1, msg)
    after = np.ones(n, bool)
    after[:first] = False
    after[off] = False
    d = np.abs(np.diff(ref, axis=0)) / dt
    speed = 1 + np.minimum(np.vstack([d[:1], d]), np.vstack([d, d[-1:]]))
    K = float(meta.get("K", 10))
    r2, msg = worst(label + " (after the first event)", names, got[after], ref[after],
                    (tol + K * dt * dt * speed)[after])
    check(r2 <= 1, msg)
    return "%d events; %d rows before the first within %.2f of the print tolerance, after it within %.2f of " \
           "K dt^2 (1+|y'|), K=%g%s" % (cx[-1], first, r1, r2, K, stopped)


# ----------------------------------------------------------------------------- one file

FORWARD_NOTE = re.compile(r"^[^\n]*?:(\d+):\d+: note: '[^']+' reads the temporary '[^']+' of line (\d+), "
                          r"declared after it", re.M)


def in_dependency_order(path, text):
    """XPPAUT's copy of the file with its temporaries in dependency order (an
    `ordered` directive): XPPAUT computes them in the file's order, so one
    that reads a temporary declared below it gets that one's value from the
    previous evaluation (a stage behind; odegen says so in a note, and
    computes the current value).  Each temporary that odegen's note names is
    moved up before the one that reads it, until no note is left."""
    lines = text.split("\n")
    for _ in range(500):
        with tempfile.TemporaryDirectory() as tmp:
            for s_ in sidecars(path):
                shutil.copy(s_, tmp)
            with open(os.path.join(tmp, os.path.basename(path)), "w") as f:
                f.write("\n".join(lines))
            p = subprocess.run([ODEGEN, "--check", os.path.basename(path)], cwd=tmp, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        m = FORWARD_NOTE.search(p.stderr)
        if not m:
            return "\n".join(lines)
        reader, defined = int(m.group(1)), int(m.group(2))
        check(defined > reader and not lines[defined - 1].rstrip().endswith("\\"),
              "%s: ordered: cannot move line %d before line %d" % (path, defined, reader))
        lines.insert(reader - 1, lines.pop(defined - 1))
    raise Failure("%s: ordered: the temporaries do not settle in dependency order" % path)


XPP_SET = "xpp_directive"     # the set that carries an xpp=… directive's options


def with_options(text, options):
    """XPPAUT's copy of the file with an xpp=… directive's options (or as it
    is): as a set of its own (`set xpp_directive {…}`), not an @ line,
    because XPPAUT 6.11 drops newt_tol, newt_iter, jac_eps and poistop
    given on @ lines (load_eqn.c: set_option clears the flag NEWT_TOL, then
    set_all_vals resets EVEC_ERR, whose flag is still up), while a set
    assigns them after (do_intern_set).  XPPAUT -silent runs the sets in
    order, each from what the ones before it left: the set comes before the
    file's own sets, and its output stands for output.dat where the file has
    none (run_xppaut)."""
    if not options:
        return text
    line = "set %s {%s}" % (XPP_SET, ",".join(options.split()))
    m = re.search(r"(?im)^set\s", text)
    if m:
        return text[:m.start()] + line + "\n" + text[m.start():]
    return before_done(text) + "\n" + line + "\ndone\n"


def only_names(text):
    """The names of XPPAUT's `only` line (form_ode.c, break_up_list: the rest
    of the line split at blanks and commas), or None."""
    m = re.search(r"(?im)^\s*only\s+([^#\n]*)", before_done(text))
    return [w for w in re.split(r"[ \t\r,]+", m.group(1)) if w] if m else None


def check_only(label, only, names, defaults, outs, outs_only):
    """XPPAUT's `only`: its rows hold the columns listed (t, states, aux; others
    skipped), in that order, without t unless listed -- checked against its
    run without the line -- and odegen records the same (its default fields)."""
    lower = [n.lower() for n in names]
    kept = [w for w in only if w.lower() in lower]
    cols = [lower.index(w.lower()) for w in kept]
    for out, rows in outs.items():
        check(out in outs_only and np.array_equal(outs_only[out], rows[:, cols]),
              "%s %s: XPPAUT's rows with only %s are not its columns %s" % (label, out, only, kept))
    check([d.lower() for d in defaults] == [w.lower() for w in kept],
          "%s: odegen records %s by default, XPPAUT's only writes %s" % (label, defaults, kept))
    return "only %s: XPPAUT's columns %s, odegen's record the same" % (",".join(only), ",".join(kept))


def with_total(text, total):
    """The file with `@ total=TOTAL` before its done line (a directive that
    shortens a long run, on both sides)."""
    return before_done(text) + "\n@ total=%r\ndone\n" % total if total else text


def corpus_case(path, label=None, meta=None):
    """('agrees'|'refused', summary) or raises Failure.  `label` names the
    file in messages and builds (default: its base name); `meta` its
    directives (default: its own `# corpus:` lines)."""
    label = label or os.path.basename(path)
    raw = open(path, errors="replace").read()
    meta = directives(raw) if meta is None else meta
    rc, err, sets = odegen_check(path)
    if meta.get("refused"):
        check(rc == 1 and meta["refused"] in err,
              "%s: odegen should refuse it with a message about %r (status %d):\n%s" % (label, meta["refused"], rc, err))
        return "refused", meta["refused"]
    if rc != 0:
        raise Failure("odegen refuses %s:\n%s" % (label, err))
    total = float(meta["total"]) if meta.get("total") else None
    xto = float(meta.get("xpp_timeout") or 120)
    text = with_total(normalized(raw), total)
    opt = xpp_options(text)
    defaults = []
    states, aux = model_names(path, defaults)
    names = ["t"] + states + aux
    if meta.get("measure"):
        meta = dict(meta, measure=len(states))
    only = only_names(raw)
    if only:    # compared on XPPAUT's full rows; its `only` rows are checked against them (check_only)
        text_only = text
        text = re.sub(r"(?im)^\s*only\s[^\n]*", "", text)
    window = opt["dt"] * opt["nout"]
    nrows = min(xpp_rows(opt), opt["maxstor"] - 1)
    runner = build_variant(path, label, odegen_variant(new_format(path, raw), states, aux, window, nrows,
                                                       meta.get("odegen"),
                                                       opt["dt"] if opt["meth"] in FIXED_STEP else None))
    halves = {}
    xtext = with_options(in_dependency_order(path, text) if meta.get("ordered") else text, meta.get("xpp"))
    # (XPPAUT's copy; the bounds stay the file's, opt)
    if meta.get("reference"):
        # XPPAUT's own method is off here: compare with XPPAUT's RK4 at step `reference`
        # instead, on the same output grid (a third, independent integration)
        ref = float(meta["reference"])
        per_row = int(round(opt["dt"] * opt["nout"] / ref))
        outs, log = run_xppaut(path, timeout=xto, text=before_done(xtext) + "\n@ meth=rungekutta, dt=%r, nout=%d, maxstor=%d\ndone\n" % (
            opt["dt"] * opt["nout"] / per_row, per_row, opt["maxstor"]))
    else:
        outs, log = run_xppaut(path, timeout=xto, text=xtext)
    if opt["meth"] not in FIXED_STEP and not meta.get("reference") and not meta.get("measure"):
        # XPPAUT's own error, for its adaptive and stiff methods (a measurement needs none)
        halves, _ = run_xppaut(path, timeout=xto, text=before_done(xtext) + "\n@ dt=%r, maxstor=%d\ndone\n" % (
            opt["dt"] / 2, 2 * opt["maxstor"] + 2))
    summaries = []
    if only:
        outs_only, _ = run_xppaut(path, timeout=xto, text=with_options(text_only, meta.get("xpp")))
        summaries.append(check_only(label, only, names, defaults, outs, outs_only))
    given = set_options(path) if sets else {}
    for k, out in enumerate(sets or ["output"]):
        check(out in outs, "%s: XPPAUT wrote no %s.dat (it wrote %s)" % (label, out, sorted(outs)))
        # XPPAUT -silent runs the sets one after the other, each from the values (parameters,
        # initial values, options) the ones before it left (load_eqn.c, do_intern_set):
        # odegen's --set-name of every set up to this one, in order
        extra = [a for s_ in (sets[:k + 1] if sets else []) for a in ("--set-name", s_)]
        o = dict(opt)
        for s_ in (sets[:k + 1] if sets else []):
            o.update(given.get(s_, {}))
        if o != opt:    # the variant integrates one window per row: keep it, and record the set's rows
            check(o["dt"] == opt["dt"] and o["t0"] == opt["t0"],
                  "%s %s: a set that changes dt or t0 is not compared by this test" % (label, out))
            extra += ["--set", "@total=%r" % window, "--recorded", str(min(xpp_rows(o), o["maxstor"] - 1))]
        r = run(runner, "--quiet", *extra)
        got = r.matrix[:, 2:]     # (by position: names may repeat)
        xpp, status = outs[out], r.status
        if opt["trans"] > opt["t0"] and opt["trans"] > 0:
            # XPPAUT stores the rows from t = trans on (integrate.c: |t| >= TRANS), not the initial
            # one: compare from there, the row before standing for the initial one (a trans of 0
            # keeps every row, from a t0 below 0 too)
            skip = int(np.sum(got[:, 0] < opt["trans"] * (1 - 1e-12)))
            check(skip >= 1, "%s: trans=%g but odegen's first row is at t=%g" % (label, opt["trans"], got[0, 0]))
            xpp = np.vstack([got[skip - 1:skip], xpp])
            got, status = got[skip:], status[skip:]
            o = dict(opt, t0=opt["t0"] + skip * opt["dt"] * opt["nout"],
                     total=opt["total"] - skip * opt["dt"] * opt["nout"])
        summary = compare_rows("%s %s" % (label, out), names, xpp, got, status, o, meta, halves.get(out))
        summaries.append(summary if meta.get("measure") else (out + ": " if sets else "") + summary)
    if meta.get("measure"):
        return "measured", max(summaries)
    return "agrees", "; ".join(summaries)


# ----------------------------------------------------------------------------- driver

def main():
    if not XPPAUT:
        print("xppaut not found (Debian package xppaut): the corpus comparison is skipped")
        return 0
    only = sys.argv[1:]
    files = sorted(f for f in os.listdir(CORPUS) if f.endswith(".ode"))
    chosen = [f for f in files if not only or any(o in f for o in only)]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        futures = {f: pool.submit(corpus_case, os.path.join(CORPUS, f)) for f in chosen}
    results = {}
    for f in chosen:
        try:
            results[f] = futures[f].result()
        except Failure as e:
            results[f] = ("FAILED", str(e))
        except Exception as e:  # a crash of the test is a failure too
            results[f] = ("FAILED", repr(e))
        kind, text = results[f]
        print("%-7s %-26s %s" % ({"agrees": "ok", "FAILED": "FAILED"}.get(kind, kind), f,
                                 text if kind != "FAILED" else text.replace("\n", "\n        ")))
    by = {k: [f for f in chosen if results[f][0] == k] for k in ("agrees", "refused", "FAILED")}
    accepted = len(chosen) - len(by["refused"]) - \
        len([f for f in by["FAILED"] if "odegen refuses" in results[f][1]])
    print("\ncorpus: %d files; odegen accepts %d, of which %d agree with XPPAUT -silent; "
          "%d refused as stated (%s)" % (len(chosen), accepted, len(by["agrees"]), len(by["refused"]),
                                         ", ".join(by["refused"]) or "none"))
    if by["FAILED"]:
        print("corpus: %d FAILED: %s" % (len(by["FAILED"]), ", ".join(by["FAILED"])))
    if not only and len(files) < 40:
        print("corpus: only %d files (at least 40 expected)" % len(files))
        return 1
    return 1 if by["FAILED"] else 0


if __name__ == "__main__":
    sys.exit(main())
