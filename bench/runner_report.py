#!/usr/bin/env python3
"""runner_report.py — the section of BENCHMARKS.md on issue 11's targets, from
the results.jsonl of one `make bench` run: the runner's wall time (HDF5 and
CSV) against the kernel of the same case, and the library's scan call
against its kernel.

    runner_report.py RESULTS.jsonl >> BENCHMARKS.md

Kernel times are bench_model's (`seconds`: CUDA events around the one launch);
runner times are the runner's own summary (its wall time after CUDA's
start-up, which is reported apart and not counted).  MPGOS's times are the
issue's reference (one H200, double precision, integration and copies of what
is recorded), to be re-measured side by side at review."""
import sys

from report import load   # results.jsonl, line by line (bench/report.py)

CASES = [  # name, variant, transient, record, balance, MPGOS s, runner wall before (issue 11)
    ("duffing_rk4", "Duffing RK4, 2^20, 1024+32", "duffing", 1024, 32, 5.78, 36.0),
    ("duffing_rkck45", "Duffing RKCK45 1e-9, 2^20, 1024+32", "duffing_rkck45", 1024, 32, 4.27, 30.5),
    ("lorenz", "Lorenz RK4, 2^20, t <= 10", "lorenz", 0, 1, 0.0043, 1.91),
    ("valve", "relief valve, 30720, 1024+32", "valve", 1024, 32, 1.34, 3.05),
    ("keller_miksis", "Keller-Miksis, 65536, 1024+64", "keller_miksis", 1024, 64, 8.16, 22.4),
]
H5_TARGET = {"duffing_rk4": 1.25, "keller_miksis": 1.25}   # HDF5 wall <= 1.25 x kernel


def mark(ok):
    return "met" if ok else "**not met**"


def main():
    rows = load(sys.argv[1])
    runners = {(r["runner"], r["format"]): r for r in rows if "runner" in r}
    kernels = {}
    for r in rows:
        if "variant" in r and "seconds" in r and r.get("balance", 0) == 0:
            key = (r["variant"], r.get("transient"), r.get("record"))
            if key not in kernels or r["N"] > kernels[key]["N"]:
                kernels[key] = r   # the largest N of the case
    out = []
    w = out.append
    w("\n## The whole run: the runner against its kernel (issue 11)\n")
    w("Runner: the generated program writing its whole output to the disk of the GPU machine (`-o FILE.h5`, "
      "then `-o FILE.csv`), its own wall time after CUDA's start-up (reported apart, not counted); integration "
      "and output are its summary's (they overlap: the next chunk integrates while the last is written).  "
      "Kernel: `bench_model`'s CUDA-event time of the one launch of the same scan.  MPGOS: the issue's reference "
      "(integration and copies of what is recorded, same H200), to re-measure side by side.  Targets: HDF5 wall "
      "<= 1.25x kernel (Duffing RK4, Keller-Miksis), MPGOS / HDF5 wall >= 1.2 (every case), CSV wall <= 2x HDF5 "
      "wall.\n")
    w("| case | kernel s | HDF5 wall s (integration, output) | HDF5 / kernel | MPGOS s / HDF5 wall | "
      "CSV wall s (output) | CSV / HDF5 | CUDA start-up s | wall before (CSV) |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, label, variant, transient, record, mpgos, before in CASES:
        k = kernels.get((variant, transient, record))
        h5, csv = runners.get((name, "h5"), {}), runners.get((name, "csv"), {})
        ks = k["seconds"] if k else None
        hw, cw = h5.get("wall"), csv.get("wall")

        def cell(v, f="%.3g"):
            return f % v if isinstance(v, (int, float)) else "n/a"
        r_h5 = "%s (%s, %s)" % (cell(hw), cell(h5.get("integration")), cell(h5.get("output"))) if hw else \
            h5.get("error", "n/a")
        ratio = hw / ks if hw and ks else None
        target = H5_TARGET.get(name)
        r_ratio = cell(ratio, "%.2f") + (" (%s)" % mark(ratio <= target) if ratio and target else "")
        r_mpgos = cell(mpgos / hw, "%.2f") + (" (%s)" % mark(mpgos / hw >= 1.2)) if hw else "n/a"
        r_csv = "%s (%s)" % (cell(cw), cell(csv.get("output"))) if cw else csv.get("error", "n/a")
        r_cr = cell(cw / hw, "%.2f") + (" (%s)" % mark(cw / hw <= 2)) if cw and hw else "n/a"
        w("| %s | %s | %s | %s | %s | %s | %s | %s | %.3g |" % (label, cell(ks), r_h5, r_ratio, r_mpgos, r_csv, r_cr,
                                                                 cell(h5.get("startup") or csv.get("startup")), before))
    lor = kernels.get(("lorenz", 0, 1))
    w("")
    if lor and lor.get("again_wall_seconds"):
        ratio = lor["again_wall_seconds"] / lor["again_seconds"]
        w("Library: `scan` on Lorenz, %d systems, a second call on the same solver (the first, with its copies "
          "in, excluded): %.4f s for a %.4f s kernel, %.2fx (target <= 1.5: %s); the first call took %.4f s."
          % (lor["N"], lor["again_wall_seconds"], lor["again_seconds"], ratio, mark(ratio <= 1.5),
             lor["wall_seconds"]))
    else:
        w("Library: no second Lorenz scan call in the results (bench_model without BENCH_AGAIN).")
    w("\nThe CPU path's CSV speed is printed by `make test` (tests/runtime/generated.sh), not here.\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
