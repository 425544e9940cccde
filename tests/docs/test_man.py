#!/usr/bin/env python3
"""The man pages (docs/man): they list exactly the options that --help lists, they render
without warnings, and `make install PREFIX=...` installs the translator, the man pages and the
Python package so that the installed odegen translates, builds and runs a model."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from odegen_test import ROOT, check, main  # noqa: E402

ODEGEN = os.path.join(ROOT, "build", "odegen")
MAN = os.path.join(ROOT, "docs", "man")
OPTION = re.compile(r"(?<![\w-])(--?[a-z][a-z-]*)")


def man_options(page):
    """The options a man page describes: the option words of each .TP item's line."""
    text = open(os.path.join(MAN, page)).read().replace("\\-", "-")
    found = set()
    for item in re.findall(r"^\.TP\n(.*)$", text, re.M):
        for word in item.replace('"', " ").replace(",", " ").split():
            if re.fullmatch(r"--?[a-z][a-z-]*|--", word):
                found.add(word)
    return found


def help_options(text):
    """The options a --help text describes: those that start an indented line."""
    found = set()
    for line in text.split("\n"):
        m = re.match(r"\s+(-[a-z-]*|--[a-z][a-z-]*)(?:,\s*(--[a-z-]+))?", line)
        if m:
            found.update(o for o in m.groups() if o)
    return found


def test_translator_page():
    """odegen(1) and odegen --help list the same options."""
    p = subprocess.run([ODEGEN, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    listed = help_options(p.stdout) | {"--"}
    described = man_options("odegen.1")
    check(listed == described, "odegen --help %s, odegen.1 %s" % (sorted(listed - described), sorted(described - listed)))


def test_runner_page():
    """odegen-runner(1) and the runner's help (runtime/runner.c, every build's options) agree."""
    source = open(os.path.join(ROOT, "runtime", "runner.c")).read()
    listed = set(re.findall(r'"  (--[a-z][a-z-]*|-o)\b', source))
    described = man_options("odegen-runner.1")
    check(listed == described, "runner.c's help %s, odegen-runner.1 %s" % (sorted(listed - described),
                                                                           sorted(described - listed)))


def test_pages_render():
    """man renders both pages without a warning."""
    if not shutil.which("man"):
        print("    (man missing: skipped; Debian: man-db)")
        return
    for page in ("odegen.1", "odegen-runner.1"):
        p = subprocess.run(["man", "--warnings", "-l", os.path.join(MAN, page)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=dict(os.environ, MANWIDTH="80"))
        check(p.returncode == 0 and not p.stderr.strip() and "SYNOPSIS" in p.stdout,
              "%s: status %d, %s" % (page, p.returncode, p.stderr[:2000]))


def test_make_install():
    """make install PREFIX=... then the installed odegen on a model end to end, man finds both
    pages, the installed Python package imports and finds the installed translator;
    make uninstall leaves nothing."""
    prefix = tempfile.mkdtemp(prefix="odegen-install-")
    try:
        p = subprocess.run(["make", "-s", "-C", ROOT, "install", "PREFIX=" + prefix], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        check(p.returncode == 0, "make install: status %d\n%s" % (p.returncode, p.stdout[-3000:]))
        odegen = os.path.join(prefix, "bin", "odegen")
        check(os.access(odegen, os.X_OK), "no %s" % odegen)
        work = os.path.join(prefix, "work")
        os.makedirs(work)
        model = os.path.join(work, "decay.ode")
        with open(model, "w") as f:
            f.write("# exponential decay\nx' = -a*x\npar a=1\ninit x=1\n@ total=1, meth=rk4, dt=0.001\ndone\n")
        p = subprocess.run([odegen, "-q", model, "-o", os.path.join(work, "decay")], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        check(p.returncode == 0, "installed odegen: status %d, %s" % (p.returncode, p.stdout))
        p = subprocess.run(["make", "-s", "-C", os.path.join(work, "decay"), "BACKEND=cpu", "HDF5=0"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        check(p.returncode == 0, "make of the installed odegen's output: %s" % p.stdout[-2000:])
        p = subprocess.run([os.path.join(work, "decay", "decay"), "--quiet", "--backend", "cpu", "--transient", "0",
                            "--recorded", "1", "--fields", "x"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        rows = p.stdout.split("\n")
        check(p.returncode == 0 and rows[0] == "system,rep,x,status", "runner: %d %r %s" % (p.returncode, rows[:2],
                                                                                          p.stderr))
        x = float(rows[1].split(",")[2])
        check(abs(x - 0.36787944117144233) < 1e-12, "x(1) = %r, exp(-1) expected" % x)
        for page in ("odegen.1", "odegen-runner.1"):
            check(os.path.exists(os.path.join(prefix, "share", "man", "man1", page)), "%s not installed" % page)
        if shutil.which("man"):
            p = subprocess.run(["man", "-w", "odegen"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, MANPATH=os.path.join(prefix, "share", "man")))
            check(p.returncode == 0 and p.stdout.strip().startswith(prefix), "man -w odegen: %r %r" % (p.stdout,
                                                                                                  p.stderr))
        site = [os.path.join(dp) for dp, dn, fn in os.walk(prefix) if os.path.basename(dp) == "odegen" and
                "__init__.py" in fn]
        check(len(site) == 1, "the Python package under the prefix: %r" % site)
        env = dict(os.environ, PYTHONPATH=os.path.dirname(site[0]), PATH=os.path.join(prefix, "bin") + ":" +
                   os.environ.get("PATH", ""))
        env.pop("ODEGEN_TRANSLATOR", None)
        p = subprocess.run([sys.executable, "-c", "import odegen, odegen._build as b; print(odegen.__file__); "
                            "print(b.translator())"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=env, cwd=work)
        check(p.returncode == 0 and p.stdout.split("\n")[0].startswith(prefix), "import odegen: %r %s" % (
            p.stdout, p.stderr[-2000:]))
        p = subprocess.run(["make", "-s", "-C", ROOT, "uninstall", "PREFIX=" + prefix], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        left = [os.path.join(dp, f) for dp, dn, fn in os.walk(prefix) for f in fn if not dp.startswith(work)]
        check(p.returncode == 0 and not left, "make uninstall: status %d, left %r\n%s" % (p.returncode, left[:10],
                                                                                        p.stdout[-2000:]))
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main([(n[5:], f) for n, f in sorted(globals().items()) if n.startswith("test_")]))
