#!/usr/bin/python3
"""Real XPPAUT files written by others (issue 20): each run by XPPAUT
(`xppaut FILE -silent`) and by odegen and compared as tests/xpp/test_corpus.py
compares the project's own corpus, with the same tolerances.

The files are public models (XPPAUT's own examples, a NIH lab's published
models, ...) that this repository does not hold: the list, each file's origin
and licence are in tests/xpp/real/MANIFEST.md, and what each one is expected
to do is in tests/xpp/real/expect.txt, one line a file:

    PATH  OUTCOME  [DIRECTIVE ...]      # comment

    PATH       relative to the corpus root
    OUTCOME    agrees             odegen's rows agree with XPPAUT's
               refused="TEXT"     odegen refuses it with a message containing TEXT
               xppaut-fails       XPPAUT 6.11 writes no output for it (odegen's
                                  reading is not compared)
               differs="REASON"   odegen runs it and differs from XPPAUT, for the
                                  reason given (checked to still differ)
               converges          XPPAUT's RK4 at the file's dt, dt/2 and dt/4
                                  (reference=) against odegen's at the same steps:
                                  the largest difference of the states
                                  (relative to each one's largest value) is
                                  beyond XPPAUT's
                                  print and shrinks by a factor between
                                  1.6 and 2.5 at each halving (XPPAUT's delays
                                  are first order, delay_handle.c; odegen's
                                  RK4 is fourth order): checked, and counted
                                  apart from agrees.  With tolerances=T1,T2,T3
                                  (XPPAUT's adaptive or stiff method, where its
                                  error at the file's tolerance is the
                                  difference): XPPAUT at toler=atoler=T1, T2,
                                  T3 against odegen (its own tolerance, or
                                  odegen=): the difference is beyond XPPAUT's
                                  print at T1 and shrinks by at least 1.5 at
                                  each tightening, toward odegen's rows
               unchecked="REASON" odegen accepts it, but the comparison is not run
                                  (the reason: e.g. too big to compile here)
    DIRECTIVE  as test_corpus.py's `# corpus:` lines (events=…, K=…, arret,
               reference=H: XPPAUT's RK4 at step H; xpp="OPTIONS": XPPAUT
               options for XPPAUT's copy only, e.g. tighter tolerances or
               newt_tol; odegen="OPTIONS": @ options for odegen's copy only;
               laststage=COLS: a DAE's aux that XPPAUT prints from its last
               stage, not compared; ordered: XPPAUT's copy with its
               temporaries in dependency order, where XPPAUT would read one
               declared below its reader a stage behind; the bounds stay
               those of the file's own options),
               and total=T: both programs integrate to T only (a long run
               made short; the comparison is the same); xpp_timeout=S: each
               XPPAUT run may take S seconds (120 by default; XPPAUT's cvode at
               1e-14 over 30000 ms takes minutes on a loaded machine); stochastic: the file
               draws random numbers (wiener, ran, markov, gill), so no run of
               it can agree with XPPAUT's row for row: the summary's share of
               agreeing files is of the deterministic ones

The corpus root is $ODEGEN_XPP_REAL, else shared/xpp_real beside the
checkout (../shared/xpp_real); without it, or without xppaut, the test says
so and passes.

It prints the counts the issue asks for: files, XPPAUT runs, odegen accepts,
agree, refused by reason.

Run: /usr/bin/python3 tests/xpp/test_real.py [path-filter…]
"""
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_corpus as tc  # noqa: E402
from odegen_test import ROOT, Failure  # noqa: E402

EXPECT = os.path.join(HERE, "real", "expect.txt")
PRINT_REL = tc.PRINT_REL


def corpus_root():
    for d in (os.environ.get("ODEGEN_XPP_REAL"), os.path.join(ROOT, "..", "shared", "xpp_real")):
        if d and os.path.isdir(d):
            return os.path.abspath(d)
    return None


def expectations():
    """[(path, outcome, argument, directives, line number)] from expect.txt."""
    out = []
    for k, line in enumerate(open(EXPECT), 1):
        line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if not line:
            continue
        words = shlex.split(line)
        path, outcome = words[0], words[1]
        kind, _, arg = outcome.partition("=")
        meta = {}
        for item in words[2:]:
            key, _, value = item.partition("=")
            meta[key] = value if value else True
        if kind == "refused":
            meta["refused"] = arg
        out.append((path, kind, arg, meta, k))
    return out


def xppaut_runs(path, meta, short):
    """Whether XPPAUT 6.11 writes output for the file (with its total=;
    `short`: over 20 output steps only, for the files not compared)."""
    text = tc.normalized(open(path, errors="replace").read())
    total = float(meta["total"]) if meta.get("total") else None
    if short:
        opt = tc.xpp_options(text)
        total = 20 * opt["dt"] * opt["nout"]
    text = tc.with_total(text, total)
    try:
        outs, _ = tc.run_xppaut(path, text, timeout=float(meta.get("xpp_timeout") or 120))
        return bool(outs)
    except Failure:
        return False
    except subprocess.TimeoutExpired:
        return False


def reason_of(message):
    """A refusal's reason, short: the message's first clause."""
    m = re.search(r"error: (.*)", message)
    text = m.group(1) if m else message.strip().split("\n")[0]
    text = re.sub(r"'[^']*'", "'…'", text)
    return re.split(r"[:;(]", text)[0].strip()[:70]


def one(root, path, kind, arg, meta):
    """(outcome seen, xppaut runs, odegen accepts, detail)."""
    full = os.path.join(root, path)
    meta = dict(meta)
    runs = xppaut_runs(full, meta, short=kind not in ("agrees", "differs", "converges", "unchecked"))
    rc, err, _ = tc.odegen_check(full)
    accepts = rc == 0
    if kind == "refused":
        ok = rc == 1 and arg in err
        return ("refused" if ok else "FAILED", runs, accepts,
                reason_of(err) if ok else "expected a refusal about %r, odegen said (status %d):\n%s" % (arg, rc, err))
    if kind == "unchecked":
        return ("unchecked" if accepts else "FAILED", runs, accepts, arg if accepts else "odegen refuses it:\n" + err)
    if kind == "xppaut-fails":
        return ("xppaut-fails" if not runs else "FAILED", runs, accepts,
                "" if not runs else "XPPAUT now runs it: compare it (expect.txt)")
    if not accepts:
        return "FAILED", runs, accepts, "odegen refuses it:\n" + err
    meta.pop("refused", None)
    label = "real_" + re.sub(r"[^A-Za-z0-9_]", "_", os.path.splitext(path)[0])
    if kind == "converges":
        seen, detail = (converges_tolerance if meta.get("tolerances") else converges)(full, label, meta)
        return seen, runs, accepts, detail
    try:
        verdict, detail = tc.corpus_case(full, label, meta)
    except Failure as e:
        if kind == "differs":
            return "differs", runs, accepts, arg
        return "FAILED", runs, accepts, str(e)
    if kind == "differs":
        return "FAILED", runs, accepts, "it agrees now (%s): say so in expect.txt" % detail
    return verdict, runs, accepts, detail


def converges(full, label, meta):
    """(outcome, detail) of a file marked converges: XPPAUT's RK4 at dt, dt/2,
    dt/4 against odegen's RK4 at the same steps; the largest difference (in
    a state's largest value) halves each time (XPPAUT's O(dt) delays)."""
    text = tc.with_total(tc.normalized(open(full, errors="replace").read()),
                         float(meta["total"]) if meta.get("total") else None)
    opt = tc.xpp_options(text)
    if opt["meth"] not in ("r",):
        return "FAILED", "converges: the file's method is %s, not XPPAUT's RK4" % opt["meth"]
    diffs = []
    for k in (1, 2, 4):
        # both at the same step: what is left is XPPAUT's delay scheme (the steps' own error, which a
        # fast transient near RK4's stability limit makes large, is the same on both sides)
        step = ("dt=%r" % (opt["dt"] / k)) if k > 1 else ""
        m = dict(meta, measure=True, reference=repr(opt["dt"] / k),
                 odegen=" ".join(o for o in (meta.get("odegen") or "", step) if o))
        try:
            diffs.append(tc.corpus_case(full, label, m)[1])
        except Failure as e:
            return "FAILED", "converges: XPPAUT at dt/%d: %s" % (k, e)
    detail = "XPPAUT at dt, dt/2, dt/4: %s from odegen at the same steps (states, relative to each one's " \
        "largest value)" % ", ".join("%.3g" % d for d in diffs)
    if diffs[0] <= PRINT_REL:
        return "FAILED", detail + ": it agrees at dt: say so in expect.txt"
    ratios = [diffs[0] / diffs[1], diffs[1] / diffs[2]]
    if not all(1.6 <= r <= 2.5 for r in ratios):
        return "FAILED", detail + ": ratios %.2f, %.2f, not about 2 (XPPAUT's first order)" % tuple(ratios)
    return "converges", detail + " (ratios %.2f, %.2f)" % tuple(ratios)


def converges_tolerance(full, label, meta):
    """(outcome, detail) of a file marked converges tolerances=T1,T2,T3: XPPAUT's
    own (adaptive or stiff) method at toler=atoler=T1, T2, T3 against odegen's
    rows; the largest difference (in a state's largest value) shrinks by at
    least 1.5 at each tightening: XPPAUT moves toward odegen's solution."""
    tols = [float(x) for x in meta["tolerances"].split(",")]
    if len(tols) < 3 or any(b >= a for a, b in zip(tols, tols[1:])):
        return "FAILED", "converges: tolerances=%s: three or more, each tighter than the last" % meta["tolerances"]
    diffs = []
    for tol in tols:
        m = dict(meta, measure=True, xpp=" ".join(o for o in (meta.get("xpp") or "", "tol=%r atol=%r" % (tol, tol)) if o))
        m.pop("tolerances")
        try:
            diffs.append(tc.corpus_case(full, label, m)[1])
        except Failure as e:
            return "FAILED", "converges: XPPAUT at tol=atol=%g: %s" % (tol, e)
    detail = "XPPAUT at tol=atol=%s: %s from odegen (states, relative to each one's largest value)" % (
        ", ".join("%g" % t for t in tols), ", ".join("%.3g" % d for d in diffs))
    if diffs[0] <= PRINT_REL:
        return "FAILED", detail + ": it agrees at %g: say so in expect.txt" % tols[0]
    ratios = [a / b if b > 0 else float("inf") for a, b in zip(diffs, diffs[1:])]
    if not all(r >= 1.5 for r in ratios):
        return "FAILED", detail + ": ratios %s, not each >= 1.5 (XPPAUT not moving toward odegen)" % (
            ", ".join("%.2f" % r for r in ratios))
    return "converges", detail + " (ratios %s)" % ", ".join("%.2f" % r for r in ratios)


def main():
    root = corpus_root()
    if not tc.XPPAUT or not root:
        print("real XPPAUT corpus: %s: skipped" % ("xppaut not found" if not tc.XPPAUT else
                                                  "no corpus (set ODEGEN_XPP_REAL, or shared/xpp_real)"))
        return 0
    only = sys.argv[1:]
    cases = [c for c in expectations() if not only or any(o in c[0] for o in only)]
    missing = [c[0] for c in cases if not os.path.exists(os.path.join(root, c[0]))]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(one, root, *c[:4]) for c in cases if c[0] not in missing]
    results = []
    for c, f in zip([c for c in cases if c[0] not in missing], futures):
        try:
            r = f.result()
        except Exception as e:  # a crash of the test is a failure too
            r = ("FAILED", False, False, repr(e))
        results.append((c, r))
        seen, runs, accepts, detail = r
        print("%-12s %-48s %s" % ({"agrees": "ok"}.get(seen, seen), c[0], detail.replace("\n", "\n             ")))
    n = len(results)
    runs = [r for r in results if r[1][1]]
    accepted = [r for r in results if r[1][2]]
    agree = [r for r in results if r[1][0] == "agrees"]
    runs_accepted = [r for r in runs if r[1][2]]
    reasons = {}
    for c, r in results:
        if r[0] == "refused":
            reasons[r[3]] = reasons.get(r[3], 0) + 1
    print("\nreal XPPAUT corpus: %d files; XPPAUT runs %d; odegen accepts %d (%d of those XPPAUT runs); "
          "%d agree with XPPAUT -silent (%.0f%% of the files XPPAUT runs, %.0f%% of those both run); %d converge; "
          "%d differ as expected; %d not compared; %d XPPAUT cannot run" % (
              n, len(runs), len(accepted), len(runs_accepted), len(agree),
              100.0 * len(agree) / max(1, len(runs)), 100.0 * len(agree) / max(1, len(runs_accepted)),
              len([r for r in results if r[1][0] == "converges"]),
              len([r for r in results if r[1][0] == "differs"]),
              len([r for r in results if r[1][0] == "unchecked"]),
              len([r for r in results if r[1][0] == "xppaut-fails"])))
    determ = [r for r in runs if not r[0][3].get("stochastic")]
    d_agree = [r for r in determ if r[1][0] == "agrees"]
    print("of the %d files XPPAUT runs, %d are deterministic: %d of those agree row for row (%.0f%%; %d with "
          "XPPAUT's options tightened by xpp=, %d with XPPAUT's temporaries in dependency order (ordered), %d with a "
          "DAE's aux of unknowns left out by laststage=); "
          "%d converge (XPPAUT's difference shrinks with its step or its tolerance); %d differ" % (
              len(runs), len(determ), len(d_agree), 100.0 * len(d_agree) / max(1, len(determ)),
              len([r for r in d_agree if r[0][3].get("xpp")]),
              len([r for r in d_agree if r[0][3].get("ordered")]),
              len([r for r in d_agree if r[0][3].get("laststage")]),
              len([r for r in determ if r[1][0] == "converges"]),
              len([r for r in determ if r[1][0] == "differs"])))
    print("refused by reason: " + "; ".join("%d %s" % (v, k) for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])))
    failed = [c[0] for c, r in results if r[0] == "FAILED"]
    if missing:
        print("real XPPAUT corpus: %d listed files missing from %s: %s" % (len(missing), root, ", ".join(missing)))
    if failed:
        print("real XPPAUT corpus: %d FAILED: %s" % (len(failed), ", ".join(failed)))
    return 1 if failed or missing else 0


if __name__ == "__main__":
    sys.exit(main())
