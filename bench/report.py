#!/usr/bin/env python3
"""report.py — bench/BENCHMARKS.md from one run's results.jsonl (bench/run.sh).

Every ratio in the tables comes from the same run on the same GPU."""
import json
import sys
import time
from collections import defaultdict


def load(path):
    rows = []
    for line in open(path):
        line = line.strip()
        if line.startswith("{"):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return rows


def fmt_t(s):
    return "%.3f" % s if s >= 0.01 else "%.4f" % s


def work_precision(rows, w, targets):
    """The work–precision section (bench/workprecision.py's lines)."""
    points = [r for r in rows if "wp" in r and "achieved" in r]
    best = [r for r in rows if "wp_best" in r]
    if not points:
        return
    w("## Work–precision: which method for which accuracy (bench/workprecision.py)\n")
    w("Every adaptive method at tolerances (`toler = atoler`) 1e-6 … 1e-12 and RK4 at four step sizes, "
      "against DOP853 at 1e-13 on the same device.  *Achieved*: the 95th percentile over the systems of "
      "each system's largest error in its recorded values (relative, absolute below 1); Duffing systems "
      "whose reference is chaotic are left out (every method's error is O(1) there after 1024 periods).  "
      "Time: the kernel's.\n")
    for prob in sorted({p["wp"] for p in points}):
        pp = [p for p in points if p["wp"] == prob]
        p0 = pp[0]
        w("### %s: %d systems, %d+%d integrations (%d measured)\n" % (prob, p0["systems"], p0["transient"],
                                                                     p0["record"], p0["measured"]))
        w("| method | tolerance / dt | achieved (p95) | median | kernel time (s) | RHS evals / system |")
        w("|---|---:|---:|---:|---:|---:|")
        for p in pp:
            w("| %s | %s | %.2e | %.2e | %s | %.3g |" % (p["method"], "%g" % p["tol"] if p["tol"] else "dt=%g" % p["dt"],
                                                        p["achieved"], p["achieved_median"], fmt_t(p["seconds"]),
                                                        p["evals"] / p["systems"]))
        bb = [b for b in best if b["wp_best"] == prob]
        if bb:
            w("")
            w("| accuracy | fastest | its time (s) | RKCK45's time (s) | fastest / RKCK45 |")
            w("|---:|---|---:|---:|---:|")
            for b in bb:
                w("| %.0e | %s | %s | %s | %s |" % (b["accuracy"], b["method"], fmt_t(b["seconds"]),
                                                    fmt_t(b["rkck45_seconds"]) if b["rkck45_seconds"] else "not reached",
                                                    "%.2f" % b["ratio"] if b["ratio"] else "—"))
                if b["ratio"]:
                    targets.append("- %s at accuracy %.0e: %s takes %.2f of RKCK45's time (reported)" %
                                   (prob, b["accuracy"], b["method"], b["ratio"]))
        w("")


def main():
    rows = load(sys.argv[1])
    gpu = open(sys.argv[2]).read().strip() if len(sys.argv) > 2 else ""
    fma = {r["case"]: r for r in rows if r.get("case", "").startswith("fma")}
    device = fma.get("fma64", {}).get("device", gpu.split(",")[0] if gpu else "unknown GPU")
    runs = [r for r in rows if "variant" in r and "seconds" in r]
    errors = [r for r in rows if "error" in r]
    ptx = {r["ptxas"]: r for r in rows if "ptxas" in r}
    peers = [r for r in rows if "peer" in r and "steps_per_s" in r]

    def rate(r):
        return r["steps"] / r["seconds"]

    by = {}
    for r in runs:
        key = (r["variant"], r.get("case", ""), r["N"], r.get("balance", 0))
        by[key] = r
    hand = {(r["case"].replace("handwritten_", ""), r["N"]): r for r in runs if r["variant"] == "handwritten"}
    out = []
    w = out.append
    w("# odegen benchmarks\n")
    w("Device: **%s** (`nvidia-smi`: %s).  Produced by `make bench` (`bench/run.sh`; BENCH_OUT=%s) on %s." %
      (device, gpu or "n/a", "bench/out", time.strftime("%Y-%m-%d")))
    w("All numbers below come from this one run; ratios compare runs of the same run on the same GPU.\n")
    if fma:
        w("Hardware FMA rates measured by `bench/handwritten.cu` (8 dependent chains per thread): "
          "FP64 %.1f TFLOP/s, FP32 %.1f TFLOP/s.\n" % (fma.get("fma64", {}).get("flops_per_s", 0) / 1e12,
                                                      fma.get("fma32", {}).get("flops_per_s", 0) / 1e12))
    w("## Fixed-step and adaptive cases (double precision unless marked)\n")
    w("Time is the kernel's, measured with CUDA events around the one launch of all repetitions "
      "(odegen: `model_stats.kernel_seconds` of one `solver_scan`; hand-written: the same events).  "
      "Steps are accepted steps of all systems; RHS evals per second count every stage.  The copies in and "
      "out that a whole `solver_scan` adds are in results.jsonl (`wall_seconds`).\n")
    w("| case | N | variant | time (s) | system-steps/s | RHS evals/s | vs hand-written | vs torchdiffeq | vs diffrax |")
    w("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    peer_rate = {(p["peer"], p["case"], p["N"]): p["steps_per_s"] for p in peers}
    cases = [("Duffing RK4", "duffing", ["duffing", "duffing_plaintrig", "duffing_nofast", "duffing_float"]),
             ("Duffing RKCK45 1e-9", "duffing", ["duffing_rkck45"]),
             ("Lorenz RK4", "lorenz", ["lorenz", "lorenz_nofast", "lorenz_block32", "lorenz_mb12", "lorenz_float"])]
    targets = []
    for title, base, variants in cases:
        for n in sorted({r["N"] for r in runs if r["variant"] in variants}):
            for v in variants:
                r = by.get((v, "", n, 0))
                if not r:
                    continue
                h = hand.get((base, n)) if "RK4" in title else None
                vs_h = "%.2f×" % (rate(r) / rate(h)) if h else ""
                vs_p = []
                for peer in ("torchdiffeq_rk4", "diffrax_tsit5"):
                    pr = peer_rate.get((peer, base, n))
                    vs_p.append("%.0f×" % (rate(r) / pr) if pr else "")
                w("| %s | %d | %s | %s | %.3e | %.3e | %s | %s | %s |" % (title, n, v, fmt_t(r["seconds"]), rate(r),
                  r["evals"] / r["seconds"], vs_h, vs_p[0], vs_p[1]))
            h = hand.get((base, n)) if "RK4" in title else None
            if h:
                w("| %s | %d | hand-written | %s | %.3e | %.3e | 1.00× | | |" % (title, n, fmt_t(h["seconds"]), rate(h),
                  h["evals"] / h["seconds"]))
    w("")
    # targets
    big = 1048576

    def ratio(a, b):
        return rate(a) / rate(b) if a and b else None

    def target(text, value, limit):
        if value is None:
            targets.append("- %s: not measured" % text)
        else:
            targets.append("- %s: %.2f× (target ≥ %.1f×) — %s" % (text, value, limit, "met" if value >= limit else "NOT met"))
    target("Duffing RK4 vs hand-written at N=2^20, without the time-trigonometry rewrite (--no-time-trig)",
           ratio(by.get(("duffing_plaintrig", "", big, 0)), hand.get(("duffing", big))), 1.0)
    target("Duffing RK4 vs hand-written at N=2^20, with it", ratio(by.get(("duffing", "", big, 0)), hand.get(("duffing", big))), 1.5)
    target("Lorenz RK4 vs hand-written at N=2^20", ratio(by.get(("lorenz", "", big, 0)), hand.get(("lorenz", big))), 1.0)
    target("Duffing RK4 float vs double at N=2^20", ratio(by.get(("duffing_float", "", big, 0)), by.get(("duffing", "", big, 0))), 1.8)
    target("Lorenz RK4 float vs double at N=2^20", ratio(by.get(("lorenz_float", "", big, 0)), by.get(("lorenz", "", big, 0))), 1.8)
    for p in peers:
        base = p["case"]
        r = by.get(({"duffing": "duffing", "lorenz": "lorenz"}[base], "", p["N"], 0))
        if r:
            target("%s vs %s at N=%d" % ("Duffing RK4" if base == "duffing" else "Lorenz RK4", p["peer"], p["N"]),
                   rate(r) / p["steps_per_s"], 50)
    w("## Load balancing (Keller–Miksis and the relief valve)\n")
    w("balance 0: one system per thread; 1: warps take the next 32 systems from a queue; 2: each thread takes "
      "the next system when it finishes one.\n")
    w("| case | repetitions | N | balance | time (s) | system-steps/s | speed-up over balance 0 |")
    w("|---|---|---:|---:|---:|---:|---:|")
    for base in ("keller_miksis", "valve"):
        vr = [r for r in runs if r["variant"] == base]
        for key in sorted({(r["N"], r.get("transient", 0)) for r in vr}):
            group = sorted((r for r in vr if (r["N"], r.get("transient", 0)) == key), key=lambda r: r["balance"])
            plain = next((r for r in group if r["balance"] == 0), None)
            for r in group:
                sp = "%.2f×" % (plain["seconds"] / r["seconds"]) if plain else ""
                w("| %s | %s | %d | %d | %s | %.3e | %s |" % (base, "%d+%d reps" % (r["transient"], r["record"]), r["N"],
                                                             r["balance"], fmt_t(r["seconds"]), rate(r), sp))
                if r["balance"] and plain:
                    targets.append("- %s N=%d: balance %d is %.2f× the plain launch (reported)" %
                                   (base, r["N"], r["balance"], plain["seconds"] / r["seconds"]))
    w("")
    w("## Peers (same problem, same step size, float64; short horizon, see bench/peers.py)\n")
    w("| peer | case | N | time (s) | system-steps/s |")
    w("|---|---|---:|---:|---:|")
    for p in peers:
        w("| %s | %s | %d | %s | %.3e |" % (p["peer"], p["case"], p["N"], fmt_t(p["seconds"]), p["steps_per_s"]))
    for e in (r for r in rows if "peer" in r and "error" in r):
        w("| %s | %s | %s | — | %s |" % (e["peer"], e.get("case", ""), e.get("N", ""), e["error"][:80]))
    w("")
    work_precision(rows, w, targets)
    w("## Registers and local memory (ptxas, the plain kernel)\n")
    w("| variant | registers | stack (bytes) | spill stores | spill loads |")
    w("|---|---:|---:|---:|---:|")
    for v, r in sorted(ptx.items()):
        k = r.get("kernel") or {}
        w("| %s | %s | %s | %s | %s |" % (v, k.get("registers", "?"), k.get("stack", "?"), k.get("spill_stores", "?"),
                                         k.get("spill_loads", "?")))
    w("")
    w("## Targets\n")
    out.extend(targets)
    if errors:
        w("\n## Errors in this run\n")
        for e in errors:
            w("- `%s`" % json.dumps(e)[:300])
    print("\n".join(out))


if __name__ == "__main__":
    main()
