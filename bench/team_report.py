#!/usr/bin/env python3
"""team_report.py — bench/team.sh's measurements (team.jsonl) as the tables of
bench/BENCHMARKS.md's section on large and coupled models (issue 23), with
each target and whether it was met.  Standard library only.

    python3 bench/team_report.py team.jsonl [gpu.txt]
"""
import json
import sys
from collections import defaultdict


def load(path):
    runs, mpgos, errors = [], defaultdict(list), []
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        r = json.loads(line)
        if "error" in r:
            errors.append(r)
        elif "mpgos" in r:
            if r["seconds"] > 0:
                mpgos[r["mpgos"]].append(r)
        else:
            runs.append(r)
    return runs, mpgos, errors


def lay(b):
    name = b["layout"] if b["layout"] == "thread" else "%s %d" % (b["layout"], b["team"])
    return name + (", loops" if b.get("arrays") == "loop" else "")


def res(b):
    if b.get("registers") is None:
        return "-"
    return "%d / %d B / %d B" % (b["registers"], b["spills"] or 0, b["smem"] or 0)


def table(w, title, columns, align, rows, intro=None):
    """One section of the report: its heading, INTRO (a paragraph, if any), then a Markdown table
    of COLUMNS (ALIGN: one letter a column, l or r) and ROWS (lists of cells, as strings)."""
    w("### " + title)
    w("")
    if intro:
        w(intro)
        w("")
    w("| " + " | ".join(columns) + " |")
    w("|" + "".join("---:|" if a == "r" else "---|" for a in align))
    for cells in rows:
        w("| " + " | ".join(cells) + " |")


def E_build(E, v):
    return next(r["build"] for r in E if r["variant"] == v)


def E_states(E, v):
    return E_build(E, v)["states"]


def main():
    runs, mpgos, errors = load(sys.argv[1])
    gpu = open(sys.argv[2]).read().strip() if len(sys.argv) > 2 else "?"
    out = []
    w = out.append
    w("## Large and coupled models (issue 23): `bash bench/team.sh`")
    w("")
    w("Device: %s.  One call; kernel seconds from `bench_model` (the library's scan, CUDA events), "
      "MPGOS's from its tutorial's own timer around `Solve()` (wall clock), best of 3." % gpu)
    w("")
    # ---------------------------------------------------------------- A
    A = [r for r in runs if r["tag"] == "A"]
    if A:
        rows = []
        base = None
        best = {}
        for r in sorted(A, key=lambda r: (r["variant"].startswith("ring"), r["build"]["states"], r["variant"])):
            b = r["build"]
            ss = b["states"] * r["steps"] / r["seconds"] if r["seconds"] > 0 else 0
            kind = "ring" if r["variant"].startswith("ring") else "chain"
            if kind == "chain" and b["states"] == 16 and "_" not in r["variant"]:
                base = ss
            key = (kind, b["states"])
            best[key] = max(best.get(key, 0), ss)
            rule = "" if "_" in r["variant"] else " (rule)"
            rows.append([kind, "%d" % b["states"], lay(b) + rule, "%.1f + %.1f" % (b["translate_s"], b["build_s"]),
                         res(b), "%d" % r["N"], "%.4g" % r["seconds"], "%.3g" % ss])
        table(w, "The Duffing chain and ring at 16 … 4096 states (RK4, 4 periods)",
              ["model", "states", "layout", "translate + build s", "registers / spills / smem", "systems", "kernel s",
               "state-steps/s"], "lrlrlrrr", rows)
        w("")
        slow = [r["variant"] for r in A if "_" not in r["variant"] and r["build"]["translate_s"] + r["build"]["build_s"] > 30]
        w("Translate + build ≤ 30 s at every size (the rule's layout, built two at a time): **%s**%s." % (
            "met" if not slow else "not met", "" if not slow else " (" + ", ".join(slow) + ")"))
        if base:
            for kind in ("chain", "ring"):
                if (kind, 1024) in best:
                    ratio = best[(kind, 1024)] / base
                    w("%s, 1024 states: state-steps/s %.3g = %.0f%% of the 16-state chain's (one thread per system), "
                      "target ≥ 50%%: **%s**." % (kind, best[(kind, 1024)], 100 * ratio, "met" if ratio >= 0.5 else "not met"))
        w("")
    # ---------------------------------------------------------------- B
    B = [r for r in runs if r["tag"].startswith("B")]
    if B:
        rows = []
        for u in (14, 64, 128):
            mine = [r for r in B if r["tag"] == "B%d" % u]
            theirs = {k: min(x["seconds"] for x in v) for k, v in mpgos.items() if k.startswith("mp_u%d_" % u)}
            depth = max(len(mine), len(theirs))
            mk = sorted(mine, key=lambda r: r["seconds"])
            tk = sorted(theirs.items(), key=lambda kv: kv[1])
            for i in range(depth):
                a = mk[i] if i < len(mk) else None
                t = tk[i] if i < len(tk) else None
                rows.append(["%d × %d" % (u, a["N"]) if a and i == 0 else "",
                             lay(a["build"]) + ("" if "_" in a["variant"] else " (rule)") if a else "",
                             res(a["build"]) if a else "", "%.5g" % a["seconds"] if a else "",
                             t[0].replace("mp_u%d_" % u, "") if t else "", "%.5g" % t[1] if t else ""])
            if mk and tk:
                ratio = tk[0][1] / mk[0]["seconds"]
                rows.append(["**%d units: MPGOS best / odegen best**" % u, "", "", "", "",
                             "**%.2f** (target ≥ 1.5: %s)" % (ratio, "met" if ratio >= 1.5 else "not met")])
        table(w, "Side by side with MPGOS's coupled-systems solver (ring of Duffing units, RKCK45 1e-8, an event per unit)",
              ["units × systems", "odegen layout", "registers / spills / smem", "odegen kernel s", "MPGOS configuration",
               "MPGOS s"], "lllrlr", rows)
        w("")
        w("MPGOS configurations: t = threads per block, s = systems per block, e = events per unit, d = dense-output "
          "points (500: as the tutorial ships).")
        w("")
    # ---------------------------------------------------------------- C
    C = [r for r in runs if r["tag"] == "C"]
    if C:
        ref = next((r for r in C if r["variant"] == "stiff30"), None)
        table(w, "A medium stiff model (30 species, five stiff clusters, Rodas5P 1e-6) at 2^16 systems",
              ["layout", "registers / spills / smem", "kernel s", "systems/s", "against one thread"], "llrrr",
              [[lay(r["build"]), res(r["build"]), "%.4g" % r["seconds"], "%.3g" % (r["N"] / r["seconds"]),
                "%.2f" % (ref["seconds"] / r["seconds"]) if ref else "-"]
               for r in sorted(C, key=lambda r: r["seconds"])])
        w("")
    # ---------------------------------------------------------------- D
    D = [r for r in runs if r["tag"] == "D"]
    if D:
        rows = []
        for m in ("valve", "keller_miksis"):
            rs = [r for r in D if r["variant"].startswith(m)]
            ref = next((r for r in rs if r["variant"] == m), None)
            for r in rs:
                rows.append([m, "%d" % r["N"], lay(r["build"]), res(r["build"]), "%.4g" % r["seconds"],
                             "%.2f" % (ref["seconds"] / r["seconds"]) if ref else "-"])
        table(w, "Scans smaller than a wave: one thread against teams of 2 and 4 threads",
              ["model", "systems", "layout", "registers / spills", "kernel s", "against one thread"], "lrllrr", rows)
        w("")
    # ---------------------------------------------------------------- E
    E = [r for r in runs if r["tag"] == "E"]
    if E:
        cols = sorted({r["variant"] for r in E}, key=lambda v: (E_states(E, v), v))
        rows = []
        for n in sorted({r["N"] for r in E}):
            cells = []
            for v in cols:
                r = next((x for x in E if x["variant"] == v and x["N"] == n), None)
                cells.append("%.4g s (%.3g)" % (r["seconds"], r["build"]["states"] * r["steps"] / r["seconds"])
                             if r and r["seconds"] > 0 else "-")
            rows.append(["%d" % n] + cells)
        table(w, "How the cost grows with the number of systems (Duffing chain, RK4, 4 periods)",
              ["systems"] + ["%d states, %s" % (E_states(E, v), lay(E_build(E, v))) for v in cols], "r" * (len(cols) + 1),
              rows, intro="Kernel seconds (and state-steps per second) against the number of systems: flat while the "
              "GPU is not full, then linear; the knee is one wave (the resident threads, or teams, of every SM).")
        w("")
    # ---------------------------------------------------------------- F
    F = [r for r in runs if r["tag"] == "F"]
    if F:
        models = sorted({r["variant"].split("_")[1] for r in F}, key=lambda m: (E_states(F, next(
            x["variant"] for x in F if x["variant"].split("_")[1] == m)), m))
        rows = []
        for m in models:
            mine = [r for r in F if r["variant"].split("_")[1] == m]
            for n in sorted({r["N"] for r in mine}):
                at = sorted((r for r in mine if r["N"] == n and r["seconds"] > 0), key=lambda r: r["seconds"])
                if not at:
                    continue
                thread = next((r for r in at if r["build"]["layout"] == "thread"), None)
                rows.append([m, "%d" % at[0]["build"]["states"], "%d" % n,
                             "; ".join("%s %.3g" % (lay(r["build"]), 1e3 * r["seconds"]) for r in at),
                             lay(at[0]["build"]),
                             "%.2f" % (thread["seconds"] / at[0]["seconds"]) if thread else "-"])
        table(w, "The scan's size: one thread against teams (kernel ms, fastest first)",
              ["model", "states", "systems", "layouts", "fastest", "one thread / fastest"], "lrrllr", rows,
              intro="The layout's rule gives a model of 24 states or more a team for a declared scan of at most "
              "4096 systems (check/layout.c); one thread is the model written out, the teams run over the loops.")
        w("")
    if errors:
        w("Errors: " + "; ".join("%s %s: %s" % (e.get("variant", ""), e.get("tag", ""), e["error"]) for e in errors))
    print("\n".join(out))


if __name__ == "__main__":
    main()
