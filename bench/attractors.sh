#!/usr/bin/env bash
# bench/attractors.sh — issue 24's benchmarks, on a machine with a GPU:
#  1. basins of a 3-D system on a 251^3 grid (15.8 million initial values, the
#     size of Attractors.jl issue #67): Lorenz-84 at F = 6.886, G = 1.347,
#     a = 0.255, b = 4 on its Poincaré section (models/lorenz84_basins.ode
#     without `lyapunov`), 100 transient and 100 recorded crossings, the whole
#     grid in one run of the runner (--last: one row a system, to a CSV file
#     that is deleted afterwards): wall time (goal: under a minute), the
#     attractor table;
#  2. the cost of the statement: the same run with the same model without
#     `attractor` (plain; goal: attractor <= 1.3 x plain, wall time);
#  3. the labels' agreement with a CPU run (the same nvcc-built runner,
#     --backend cpu) on the subgrid of every 25th value of each axis (11^3 =
#     1331 systems): labels compared through the attractors they name (the
#     representative points of the two tables, matched by distance).
# Prints one line per item and writes BENCH_OUT/attractors.jsonl (default
# bench/out), the two tables (attractors_gpu.attractors.csv,
# attractors_cpu.attractors.csv) and the runners' summaries (attractors.log).
#   N=101 bash bench/attractors.sh                        # a smaller grid
#   BENCH_BACKEND=cpu N=12 SUB=4 bash bench/attractors.sh   # a smoke test without a GPU
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${BENCH_OUT:-bench/out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=${TMPDIR:-/tmp}/odegen-bench-attractors.$$
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
N=${N:-251}
SUB=${SUB:-25}
ON=${BENCH_BACKEND:-gpu}
ARCH=${ARCH:-sm_90}
PY=${PY:-python3}
[ -x build/odegen ] || make build/odegen >/dev/null
LOG=$OUT/attractors.log
: > "$LOG"

variant() {   # variant NAME: WORK/NAME.ode
    local base=models/lorenz84_basins.ode
    case $1 in
        attractor) sed -e '/^lyapunov/d' -e 's/^record .*/record attractor/' $base ;;
        plain)     sed -e '/^lyapunov/d' -e '/^attractor/d' -e 's/^record .*/record x/' $base ;;
    esac > "$WORK/$1.ode"
}

build() {   # build NAME: WORK/NAME/NAME, the runner
    variant "$1"
    (cd "$WORK" && "$ROOT/build/odegen" -q "$1.ode" -o "$1")
    if [ "$ON" = cpu ]; then make -s -C "$WORK/$1" BACKEND=cpu >/dev/null; else make -s -C "$WORK/$1" ARCH="$ARCH" >/dev/null; fi
}

scan=(--scan "x=lin(-1,3,$N)" --scan "y=lin(-2,3,$N)" --scan "z=lin(-2,3,$N)")
timed() {   # timed NAME BACKEND OUTPUT ARGS…: wall seconds of one run
    local name=$1 backend=$2 out=$3 t0 t1
    shift 3
    t0=$(date +%s.%N)
    "$WORK/$name/$name" --backend "$backend" --last -o "$out" "$@" 2>>"$LOG"
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

build attractor
build plain
echo "== attractor, $N^3 on the $ON" >> "$LOG"
t_att=$(timed attractor "$ON" "$WORK/att.csv" "${scan[@]}")
cp "$WORK/att.attractors.csv" "$OUT/attractors_gpu.attractors.csv"
echo "== plain, $N^3 on the $ON" >> "$LOG"
t_plain=$(timed plain "$ON" "$WORK/plain.csv" "${scan[@]}")
ratio=$(awk -v a="$t_att" -v b="$t_plain" 'BEGIN { printf "%.3f", a / b }')
printf 'basins of Lorenz-84 on a %d^3 grid (%d systems), %s: %s s with `attractor`, %s s plain (ratio %s; goals: < 60 s, <= 1.3)\n' \
    "$N" "$((N * N * N))" "$ON" "$t_att" "$t_plain" "$ratio"
grep -A6 "attractors (dist" "$LOG" | grep -v "^==" | head -7

# The CPU on the subgrid: values i = 0, SUB, 2 SUB, … of each axis, as the runner computes lin.
lists=$("$PY" - "$N" "$SUB" <<'PYEOF'
import sys
n, sub = int(sys.argv[1]), int(sys.argv[2])
def lin(a, b, i):
    return a if i == 0 else b if i == n - 1 else i * ((b - a) / (n - 1)) + a
idx = list(range(0, n, sub))
print(" ".join("%s=list(%s)" % (k, ",".join(repr(lin(a, b, i)) for i in idx))
               for k, (a, b) in zip("xyz", ((-1.0, 3.0), (-2.0, 3.0), (-2.0, 3.0)))))
PYEOF
)
sub=()
for l in $lists; do sub+=(--scan "$l"); done
echo "== attractor, the subgrid on the CPU" >> "$LOG"
t_cpu=$(timed attractor cpu "$WORK/cpu.csv" "${sub[@]}")
cp "$WORK/cpu.attractors.csv" "$OUT/attractors_cpu.attractors.csv"
"$PY" - "$WORK/att.csv" "$WORK/cpu.csv" "$OUT/attractors_gpu.attractors.csv" "$OUT/attractors_cpu.attractors.csv" \
    "$N" "$SUB" "$t_att" "$t_plain" "$t_cpu" "$ON" "$OUT/attractors.jsonl" <<'PYEOF'
import csv, json, math, sys
att, cpu, tg, tc, n, sub, t_att, t_plain, t_cpu, on, jsonl = sys.argv[1:]
n, sub = int(n), int(sub)
def table(p):
    rows = [r for r in csv.DictReader(open(p)) if int(r["label"]) > 0 and int(r["systems"]) > 0]
    return {int(r["label"]): r for r in rows}
g, c = table(tg), table(tc)
q = [k[6:] for k in next(iter(g.values())) if k.startswith("point_")]
def dist(a, b):
    return max(abs(float(a["lo_" + k]) - float(b["lo_" + k])) + abs(float(a["hi_" + k]) - float(b["hi_" + k])) for k in q)
same = {lc: min(g, key=lambda lg: dist(g[lg], rc)) for lc, rc in c.items()}   # CPU label -> GPU label
labels_g = {}
with open(att) as f:
    next(f)
    for line in f:
        s, _, lab, _ = line.split(",")
        labels_g[int(s)] = int(lab)
idx = list(range(0, n, sub))
m = len(idx)
agree = total = 0
with open(cpu) as f:
    next(f)
    for line in f:
        s, _, lab, _ = line.split(",")
        s, lab = int(s), int(lab)
        i, j, k = s // (m * m), (s // m) % m, s % m
        gs = (idx[i] * n + idx[j]) * n + idx[k]
        total += 1
        agree += same.get(lab, lab) == labels_g[gs]
rec = {"benchmark": "attractors", "backend": on, "grid": n, "systems": n ** 3, "seconds_attractor": float(t_att),
       "seconds_plain": float(t_plain), "ratio": float(t_att) / float(t_plain), "cpu_subgrid": total,
       "cpu_seconds": float(t_cpu), "agreement": agree / total,
       "attractors_gpu": [{k: g[l][k] for k in ("label", "kind", "period", "systems", "fraction", "fraction_err")} for l in g]}
open(jsonl, "w").write(json.dumps(rec) + "\n")
print("labels on the %d-system subgrid: GPU and CPU agree on %d (%.2f%%); CPU %s s" % (total, agree, 100 * agree / total, t_cpu))
PYEOF
