#!/usr/bin/env python3
"""The manual cannot rot: README.md and docs/*.md are read as a user reads them.
  - every link between them, and to the repository's files, leads somewhere (the file exists;
    an anchor is a heading of that page, as GitHub names it);
  - every model written out in them (a fenced block holding equations, ```ode or plain) is
    translated by odegen --check, and where the block says which file it is (models/NAME.ode,
    examples/...), it is that file's text;
  - every command in them that translates one of the repository's models (odegen or build/odegen
    on models/NAME.ode) runs, into a temporary folder;
  - every Python session in them (>>> lines) runs, from the checkout, on the CPU (its printed
    values are not compared: they depend on the machine's speed and the scans' sizes);
  - the README stays short (at most 250 lines) and every page of docs/ is in the manual's table
    of contents (docs/README.md)."""
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from odegen_test import ROOT, check, main  # noqa: E402

ODEGEN = os.path.join(ROOT, "build", "odegen")
FENCE = re.compile(r"^(```|~~~)(\w*)")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
EQUATION = re.compile(r"^\s*(\w+'\s*=|d\w+/dt\s*=|\w+\(t\+1\)\s*=)", re.M)


def pages():
    return [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def blocks(path):
    """(line number, info string, text) of each fenced block."""
    out, info, start, body = [], None, 0, []
    for n, line in enumerate(open(path).read().split("\n"), 1):
        m = FENCE.match(line)
        if m and info is None:
            info, start, body = m.group(2), n, []
        elif m:
            out.append((start, info, "\n".join(body) + "\n"))
            info = None
        elif info is not None:
            body.append(line)
    return out


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    found, seen, fenced = set(), {}, False
    for line in open(path).read().split("\n"):
        if FENCE.match(line):
            fenced = not fenced
        m = None if fenced else re.match(r"^#{1,6} (.*)$", line)
        if m:
            a = slug(m.group(1))
            n = seen.get(a, 0)
            seen[a] = n + 1
            found.add(a if n == 0 else "%s-%d" % (a, n))
    return found


def outside_code(path):
    """The page's lines outside fenced blocks and inline code."""
    fenced = False
    for n, line in enumerate(open(path).read().split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield n, re.sub(r"`[^`]*`", "", line)


def test_links():
    """Every relative link of README.md and docs/*.md leads to a file, and to a heading there."""
    bad, count = [], 0
    for page in pages():
        for n, line in outside_code(page):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue
                count += 1
                path, _, anchor = target.partition("#")
                file = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                where = "%s:%d: %s" % (os.path.relpath(page, ROOT), n, target)
                if not os.path.exists(file):
                    bad.append(where + " (no such file)")
                elif anchor and file.endswith(".md") and anchor not in anchors(file):
                    bad.append(where + " (no such heading)")
    check(not bad, "%d broken links:\n%s" % (len(bad), "\n".join(bad)))
    print("    %d links checked" % count)


def test_models_translate():
    """Every model written out in the pages is translated by odegen --check."""
    tmp = tempfile.mkdtemp(prefix="docs-models-")
    bad, count = [], 0
    for page in pages():
        for line, info, text in blocks(page):
            if info not in ("", "ode") or not EQUATION.search(text) or text.lstrip().startswith("$"):
                continue
            if info == "" and not re.search(r"^\s*(par|init|p|i|aux|done|@|global|event|number)\b", text, re.M):
                continue   # an equation quoted in prose, not a model
            count += 1
            model = os.path.join(tmp, "m%d.ode" % count)
            with open(model, "w") as f:
                f.write(text)
            p = subprocess.run([ODEGEN, "--check", model], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, cwd=ROOT)
            if p.returncode != 0:
                bad.append("%s:%d:\n%s" % (os.path.relpath(page, ROOT), line, p.stdout.strip()))
    check(not bad, "%d of %d models in the manual do not translate:\n%s" % (len(bad), count, "\n".join(bad)))
    print("    %d models translated" % count)


def test_commands_translate():
    """Every command of the pages that translates one of the repository's models runs."""
    tmp = tempfile.mkdtemp(prefix="docs-commands-")
    bad, count = [], 0
    for page in pages():
        for line, info, text in blocks(page):
            for command in text.split("\n"):
                m = re.match(r"^\s*\$?\s*(?:\S*/)?odegen\s+(.*)$", command)
                if not m:
                    continue
                # A model named by its file alone (duffing.ode) is the repository's models/ one.
                words = [os.path.join("models", w) if w.endswith(".ode") and "/" not in w and
                         os.path.exists(os.path.join(ROOT, "models", w)) else w
                         for w in m.group(1).split("#")[0].split()]
                files = [w for w in words if w.endswith(".ode")]
                if not files or not all(os.path.exists(os.path.join(ROOT, f)) for f in files):
                    continue   # a model of the user's: not ours to run
                count += 1
                args = []
                skip = False
                for w in words:
                    if skip:
                        skip = False
                        continue
                    if w == "-o":
                        skip = True
                        continue
                    args.append(w)
                out = os.path.join(tmp, "c%d" % count)
                p = subprocess.run([ODEGEN] + args + ([] if "--print" in args or "--check" in args else ["-o", out]),
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
                if p.returncode != 0:
                    bad.append("%s:%d: %s\n%s" % (os.path.relpath(page, ROOT), line, command.strip(), p.stdout))
    check(not bad, "%d of %d commands fail:\n%s" % (len(bad), count, "\n".join(bad)))
    print("    %d translations run" % count)


SESSION_RUNNER = """
import json, sys, traceback
steps = json.load(open(sys.argv[1]))
scope = {"__name__": "__main__"}
for source, shown in steps:
    try:
        exec(compile(source, "<docs>", "single"), scope)
    except Exception as e:
        if type(e).__name__ not in shown:   # the page shows this error: it is the example
            traceback.print_exc()
            sys.exit("the statement %r raised %s; the page shows %r" % (source, type(e).__name__, shown))
"""


def statements(text):
    """A Python session's statements (>>> and its ... lines) with the text shown after each."""
    steps = []
    for line in text.split("\n"):
        if line.startswith(">>>"):
            steps.append([line[4:], ""])
        elif line.startswith("...") and steps and not steps[-1][1]:
            steps[-1][0] += "\n" + line[4:]
        elif steps:
            steps[-1][1] += line + "\n"
    return [(src + "\n" if "\n" in src else src, shown) for src, shown in steps]


def test_python_sessions():
    """Every Python session (>>> lines) of the pages runs, statement by statement as the
    interpreter would, on the CPU, from the checkout; a statement may raise only the error the
    page shows after it."""
    import json
    tmp = tempfile.mkdtemp(prefix="docs-python-")
    runner = os.path.join(tmp, "session.py")
    with open(runner, "w") as f:
        f.write(SESSION_RUNNER)
    bad, count = [], 0
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), ODEGEN_BACKEND="cpu", ODEGEN_TRANSLATOR=ODEGEN,
               ODEGEN_CACHE=os.path.join(tmp, "cache"), MPLBACKEND="Agg")
    for page in pages():
        for line, info, text in blocks(page):
            steps = statements(text)
            if not steps:
                continue
            count += 1
            script = os.path.join(tmp, "s%d.json" % count)
            with open(script, "w") as f:
                json.dump(steps, f)
            # In a folder of its own (what a session writes stays out of the checkout), where
            # models/ and examples/ are the checkout's, as the pages' paths expect.
            cwd = os.path.join(tmp, "cwd%d" % count)
            os.makedirs(cwd)
            for d in ("models", "examples"):
                os.symlink(os.path.join(ROOT, d), os.path.join(cwd, d))
            p = subprocess.run([sys.executable, runner, script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, cwd=cwd, env=env, timeout=900)
            if p.returncode != 0:
                bad.append("%s:%d:\n%s" % (os.path.relpath(page, ROOT), line, p.stdout[-2000:]))
    check(not bad, "%d of %d Python sessions fail:\n%s" % (len(bad), count, "\n".join(bad)))
    print("    %d Python sessions run" % count)


def test_short_readme_and_contents():
    """The README fits in about 250 lines; docs/README.md lists every page of docs/."""
    n = len(open(os.path.join(ROOT, "README.md")).read().split("\n"))
    check(n <= 250, "README.md has %d lines" % n)
    contents = open(os.path.join(ROOT, "docs", "README.md")).read()
    missing = [os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))
               if os.path.basename(p) != "README.md" and "(%s)" % os.path.basename(p) not in contents]
    check(not missing, "pages missing from docs/README.md: %s" % missing)


if __name__ == "__main__":
    sys.exit(main([(n[5:], f) for n, f in sorted(globals().items()) if n.startswith("test_")]))
