#!/usr/bin/env python3
"""tools/split_readme.py — moves the sections of a long README.md into the manual's pages
(docs/*.md), one page per subject, without losing a line: every line of the README after its
introduction lands in exactly one page (checked before anything is written), headings keep
their level (so their anchors do not change), links between sections point to the page that
now holds the anchor, and links to the repository's files get the docs/ folder's "../".

    tools/split_readme.py README.md docs      # writes docs/PAGE.md for every page in PAGES

Used once, to make docs/ from the README of 2026-11 (issue 21); kept because a section added
to the README later can be moved the same way (give the README that section only).
"""
import collections
import os
import re
import sys

# (page, title, what the page is about, headings that open it): a "## " section goes to the page
# whose pattern matches it; a "### " subsection goes with its section unless a pattern of
# another page matches it.  Patterns are matched against the heading's text.
PAGES = [
    ("setup.md", "Set-up", "the two commands, what they install, the tests", [r"^Set-up"]),
    ("language.md", "The .ode language", "every XPPAUT statement odegen reads and odegen's extensions",
     [r"^The `\.ode` language", r"^XPPAUT statements", r"^odegen's extensions", r"^Options \(`@`\)",
      r"^Decisions worth knowing", r"^File names are text", r"^Limits of the translator"]),
    ("options.md", "Run-time options", "dt, t0, total, tolerances, maxsteps, bound without a rebuild",
     [r"^Run-time options"]),
    ("methods.md", "Methods, events, samples, precision", "the integration methods and what they guarantee",
     [r"^Methods", r"^Stability of the fixed-step", r"^Stiff methods", r"^Events on the continuous",
      r"^Trajectory samples", r"^Single precision"]),
    ("noise.md", "Noise and stochastic equations", "wiener, normal, ran; SDE methods; seeds",
     [r"(?i)noise|stochastic|random|\bSDE"]),
    ("delays.md", "Delays", "delay(x, tau): history, ring buffer, breaking points", [r"(?i)\bdelay"]),
    ("maps.md", "Maps", "x(t+1)=…: iterated maps", [r"(?i)\bmaps?\b|discrete"]),
    ("constraints.md", "Algebraic constraints", "0=… with solve: index-1 DAEs",
     [r"(?i)constraint|algebraic|\bDAE"]),
    ("large-models.md", "Large and coupled models", "arrays as loops, networks (special), teams of threads",
     [r"(?i)large|coupled|network|\bteam|arrays? (stay|kept|as loops)|layout"]),
    ("derivatives.md", "Derivatives", "the Jacobian and other derivatives in the generated code",
     [r"^Derivatives"]),
    ("lyapunov.md", "Lyapunov exponents and periods", "lyapunov N, period: what is computed and checked",
     [r"^Lyapunov exponents"]),
    ("attractors.md", "Attractors and basins", "attractor: fingerprints, basin maps, continuation",
     [r"^Attractors"]),
    ("runner.md", "The runner", "the generated program: scans, fields, outputs (CSV, HDF5)", [r"^The runner"]),
    ("clusters.md", "Clusters: MPI and checkpoints", "mpirun, checkpoints, Slurm, scaling",
     [r"^Clusters"]),
    ("library.md", "The C library", "embedding the generated library in a C program", [r"^Embedding the library"]),
    ("python.md", "Python", "the odegen package: load, scan, results, notebooks", [r"^Python"]),
    ("examples.md", "Examples", "the paper's test cases and more, end to end", [r"^Examples"]),
    ("performance.md", "Performance, GPU tests and benchmarks", "make test-gpu, make bench, what was measured",
     [r"^GPU tests and benchmarks"]),
    ("architecture.md", "Architecture", "the translator's stages, the templates, the runtime", [r"^Architecture"]),
]

FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^(#{2,6}) (.*)$")
LINK = re.compile(r"(!?\[[^\]]*\]\()([^)\s]+)(\))")


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces to -."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def page_of(text, level, current, section):
    """A "## " section's page; a "### " subsection's: its section's, except in the language
    section (language.md), whose subsections go to the page of their subject."""
    if level == 3 and section != "language.md":
        return current
    for page, _, _, patterns in PAGES:
        if any(re.search(p, text) for p in patterns):
            return page
    if level == 2:
        return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] + ".md"
    return section


def split(lines):
    """The README's intro (lines before the first "## "), and [(page, [lines])] in order."""
    intro, parts = [], []
    page, section, fenced = None, None, False
    for line in lines:
        if FENCE.match(line):
            fenced = not fenced
        m = None if fenced else HEADING.match(line)
        if m and len(m.group(1)) in (2, 3):
            level = len(m.group(1))
            new = page_of(m.group(2), level, page, section)
            if level == 2:
                section = new
            if level == 2 or new != page:
                page = new
                parts.append((page, []))
        if page is None:
            intro.append(line)
        else:
            parts[-1][1].append(line)
    return intro, parts


def anchors_by_page(parts):
    where, seen = {}, collections.Counter()
    for page, lines in parts:
        fenced = False
        for line in lines:
            if FENCE.match(line):
                fenced = not fenced
            m = None if fenced else HEADING.match(line)
            if m:
                a = slug(m.group(2))
                n = seen[a]
                seen[a] += 1
                where.setdefault(a if n == 0 else "%s-%d" % (a, n), page)
    return where


def relink(line, page, where):
    def fix(m):
        target = m.group(2)
        if target.startswith("#"):
            owner = where.get(target[1:])
            if owner is None:
                raise SystemExit("split_readme: a link to a missing anchor: %s" % target)
            return m.group(1) + (target if owner == page else owner + target) + m.group(3)
        if re.match(r"^[a-z]+:", target) or target.startswith("/"):
            return m.group(0)
        return m.group(1) + "../" + target + m.group(3)
    return LINK.sub(fix, line)


def main(readme, out):
    lines = open(readme).read().split("\n")
    intro, parts = split(lines)
    where = anchors_by_page(parts)
    pages = collections.OrderedDict()
    for page, chunk in parts:
        pages.setdefault(page, []).extend(relink(line, page, where) for line in chunk)
    # Every line after the intro in exactly one page: the pages' lines, links undone, are the
    # README's lines.
    undone = []
    for page, body in pages.items():
        for line in body:
            undone.append(re.sub(r"(\]\()(?:\.\./)?(?:[a-z0-9-]+\.md)?(#[^)]*|[^)#]*)", lambda m: m.group(1) + m.group(2),
                                 line))
    moved = [line for line in lines[len(intro):]]
    if collections.Counter(undone) != collections.Counter(
            re.sub(r"(\]\()(#[^)]*|[^)#]*)", lambda m: m.group(1) + m.group(2), x) for x in moved):
        raise SystemExit("split_readme: the pages do not hold the README's lines exactly once")
    titles = {p: (t, what) for p, t, what, _ in PAGES}
    os.makedirs(out, exist_ok=True)
    for page, body in pages.items():
        title, _ = titles.get(page, (body[0].lstrip("# ").strip(), ""))
        while body and body[-1] == "":
            body.pop()
        with open(os.path.join(out, page), "w") as f:
            f.write("# %s\n\n*Part of the [odegen manual](README.md).*\n\n" % title)
            f.write("\n".join(body) + "\n")
    print("split_readme: %d lines of %s into %d pages: %s" % (len(moved), readme, len(pages), ", ".join(pages)))
    return [(p, titles.get(p, (p, ""))) for p in pages]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
