#!/usr/bin/python3
"""Hostile file names (issue 19, D1): a .ode file's path, and the name of a table file it
reads, land in the generated files (#line directives, comments, the Makefile's first line,
the provenance strings); nothing in them may run, and the build must work.

Each case writes a small model (a user function, a table read from a file, an event, hooks,
an initial value of a parameter: every emitter that names the file) at a path made of:
  - every byte 1-255 but '/' (two directories, and the file's own name);
  - a newline and `$(shell touch CANARY)` (make's command substitution);
  - `"` and a newline around C code that would run at start-up, `*/` that ends a comment,
    a trigraph `??/` and a backslash before a newline (a line splice), backticks and $(...)
    (a shell's), '#', '%', spaces, quotes;
  - a name that starts with '-' (given after `--`);
and for each: odegen (the ASan build), make (the generated Makefile, BACKEND=cpu), the runner,
and Python's odegen.load (two of the names, then a scan).  Every step must succeed, the
runner's numbers must be the model's, and no CANARY file may appear anywhere.

With ODEGEN_BACKEND=gpu (tests/gpu/run.sh), the same with nvcc (make BACKEND=cuda) on the GPU.

Run: /usr/bin/python3 tests/names/test_paths.py
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import BACKEND, ODEGEN, ROOT, Result, check, main  # noqa: E402

# What would run if a name escaped: each leaves a file whose name starts with CANARY.
# (A table file's name in a .ode file has no blank, newline or '#': the lexer ends it there.)
SHELL = "$(touch CANARY_sh)`touch CANARY_bq`"
MAKE = "\n$(shell touch CANARY_make)\n"
C_CODE = '"\nint odegen_canary = system("touch CANARY_c");\n"'
C_COMMENT = '*/ static int odegen_canary_init(void) { return system("touch CANARY_cc"); } /*'

MODEL = """# a model at a hostile path
par a=1
f(u)=u*a
table w {table}
x'=-f(x)+0*w(x)
y'=x
init x=a
aux s=x+y
event hit: x-0.5, dir=-1
on hit {{ y = y + 1 }}
on start {{ y = 0 }}
@ total=1, dt=0.001
done
"""
TABLE = "3\n-1\n1\n0\n0.5\n1\n"


def every_byte():
    """Directories and a file name that hold every byte 1-255 but '/' (once each)."""
    low = bytes(b for b in range(1, 128) if b != ord("/"))
    return [low[:63], low[63:], bytes(range(128, 256)) + b".ode"]


CASES = {
    # name: path components (bytes; the last is the file), and the table file's name
    "every_byte": (every_byte(), b"t" + bytes(range(128, 140)) + b"*/x\".tab"),
    "make": ([("m" + MAKE + "#x.ode").encode()], b"w$(shell).tab"),
    "c_string": ([("q" + C_CODE + ".ode").encode()], b"plain.tab"),
    "c_comment": ([("c" + C_COMMENT + ".ode").encode()], ("t" + C_COMMENT.replace(" ", "")).encode()),
    "splices": ([b"a??/\nb\\\n", b"t\\.ode"], b"w??/\\.tab"),
    "shell": ([("s " + SHELL + " #%'.ode").encode()], ("w" + SHELL.replace(" ", "") + "%'").encode()),
    "dash": ([b"-q.ode"], b"-w.tab"),
}


def canaries(*dirs):
    found = []
    for d in dirs:
        for base, _, files in os.walk(d):
            found += [os.path.join(base, f) for f in files if f.startswith("CANARY")]
    return found


def make_case(tmp, parts, table):
    """Writes the model and its table; returns the model's path (bytes, relative to tmp).
    ('/' in a part is a directory; odegen drops the quotes of a table file's name, as XPPAUT.)"""
    rel = b"/".join(parts)
    full = os.path.join(tmp.encode(), rel)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(MODEL.format(table=table.decode("latin-1")).encode("latin-1"))
    table_path = os.path.join(os.path.dirname(full), table.replace(b'"', b""))
    os.makedirs(os.path.dirname(table_path), exist_ok=True)
    with open(table_path, "w") as f:
        f.write(TABLE)
    return rel


def check_values(r):
    # x' = -a x from x(0) = a = 1 over [0, 1]: x = exp(-t); the event at x = 0.5 adds 1 to y
    check(list(r.status) == ["finished"], "statuses %s" % list(r.status))
    check(abs(r["x"][0] - 0.36787944117144233) < 1e-9, "x(1) = %r" % r["x"][0])
    check(abs(r["y"][0] - (1 - 0.36787944117144233) - 1) < 1e-6, "y(1) = %r" % r["y"][0])


def case_test(name):
    parts, table = CASES[name]

    def test():
        tmp = tempfile.mkdtemp(prefix="paths-")
        try:
            rel = make_case(tmp, parts, table)
            for how in ("-o", "default"):
                out = os.path.join(tmp, "out" if how == "-o" else "")
                cmd = [ODEGEN.encode(), b"-q"] + ([b"-o", b"out"] if how == "-o" else []) + [b"--", rel]
                p = subprocess.run(cmd, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                check(p.returncode == 0, "odegen %r (%s): status %d\n%s" % (rel, how, p.returncode,
                                                                            p.stderr.decode("latin-1")[-3000:]))
                if how == "default":   # ./NAME, NAME made of the file's base name
                    made = [d for d in os.listdir(tmp) if os.path.isdir(os.path.join(tmp, d, "")) and
                            os.path.exists(os.path.join(tmp, d, "Makefile")) and d != "out"]
                    check(len(made) == 1, "default output directory: %r" % made)
                    out = os.path.join(tmp, made[0])
                backend = "BACKEND=cuda" if BACKEND == "gpu" else "BACKEND=cpu"
                p = subprocess.run(["make", "-s", "-C", out, backend, "CFLAGS=-O0"], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
                check(p.returncode == 0, "make (%s): status %d\n%s" % (how, p.returncode, p.stdout.decode("latin-1")[-3000:]))
                check(not canaries(tmp), "something ran at make (%s): %s" % (how, canaries(tmp)))
                runner = [os.path.join(out, f) for f in os.listdir(out)
                          if os.access(os.path.join(out, f), os.X_OK) and not f.endswith(".a") and
                          os.path.isfile(os.path.join(out, f))]
                check(len(runner) == 1, "runners: %r" % runner)
                p = subprocess.run([runner[0], "--backend", BACKEND, "--quiet"], cwd=out, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
                check(p.returncode == 0, "runner: status %d\n%s" % (p.returncode, p.stderr[-2000:]))
                check_values(Result(p.stdout, p.stderr))
                check(not canaries(tmp), "something ran in the runner (%s): %s" % (how, canaries(tmp)))
                shutil.rmtree(out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    test.__doc__ = "odegen, make and the runner on the %s path" % name
    return test


def test_python():
    """odegen.load on two hostile paths: translated, built and scanned; nothing runs."""
    tmp = tempfile.mkdtemp(prefix="paths-py-")
    env = dict(os.environ, ODEGEN_CACHE=os.path.join(tmp, "cache"), ODEGEN_TRANSLATOR=ODEGEN, CFLAGS="-O0",
               PYTHONPATH=os.path.join(ROOT, "python"))
    try:
        paths = [os.path.join(tmp.encode(), make_case(tmp, *CASES[n])) for n in ("make", "c_string", "dash")]
        with open(os.path.join(tmp, "paths"), "w") as f:
            f.write(repr(paths))
        script = ("import ast, os, odegen\n"
                  "for p in ast.literal_eval(open('paths').read()):\n"
                  "    m = odegen.load(os.fsdecode(p), build=%r, quiet=True)\n"
                  "    r = m.run(backend=%r)\n"
                  "    print(repr(float(r['x'][0])), repr(float(r['y'][0])))\n") % (
                      "cuda" if BACKEND == "gpu" else "cpu", BACKEND)
        p = subprocess.run([sys.executable, "-c", script], cwd=tmp, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, "odegen.load: status %d\n%s" % (p.returncode, p.stderr[-3000:]))
        for line in p.stdout.split("\n")[:-1]:
            x, y = map(float, line.split())
            check(abs(x - 0.36787944117144233) < 1e-9 and abs(y - 1.6321205588285577) < 1e-6, "x, y = %r" % line)
        check(len(p.stdout.split("\n")) == len(paths) + 1, "output %r" % p.stdout)
        check(not canaries(tmp), "something ran under odegen.load: %s" % canaries(tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main([("path_" + n, case_test(n)) for n in CASES] + [("python_load", test_python)]))
