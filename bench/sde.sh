#!/usr/bin/env bash
# bench/sde.sh — Euler–Maruyama on the GPU (issue 22): what the noise costs,
# and odegen beside diffrax (JAX) on the same GPU with the same steps.
#
#   bash bench/sde.sh [OUT]      (default bench/out/sde; make bench runs it: BENCH_SDE=0 leaves it out)
#
#   1. Ornstein–Uhlenbeck dx = -x dt + 0.5 dW and a stochastic Duffing
#      oscillator dx = v dt, dv = (x - x^3 - 0.25 v + 0.3 cos t) dt + 0.1 dW,
#      2^20 systems, 1000 steps of dt = 0.01 (euler: Euler–Maruyama), in
#      double and in float; each beside its deterministic twin, the same
#      file with `par w=0` in place of `wiener w` (the same arithmetic, no
#      random numbers): steps per second of each and their ratio, the cost of
#      Philox-4x32-10 and Box–Muller per step.  Kernel time of one scan call
#      (bench/bench_model.c: the solver made and warmed up first).
#   2. DiffEqGPU's published figure, for reference: a linear SDE
#      du = 1.5 u dt + 0.01 u dW, u0 = 0.1, t in [0, 1], dt = 2^-8, GPUEM,
#      8,388,608 trajectories in 716 ms on a V100 (their paper, Utkarsh et
#      al. 2023); odegen the same at 2^23 systems in float (not the same GPU).
#   3. diffrax (bench/sde_diffrax.py): the same OU and Duffing SDEs, Euler with
#      ConstantStepSize, UnsafeBrownianPath, vmap over 2^20 keys, the same
#      1000 steps, timed with block_until_ready after a warm-up.
# Writes OUT/results.jsonl and OUT/sde.md (a table), and prints the table.
set -u
cd "$(dirname "$0")/.."
OUT=${1:-${BENCH_OUT:-bench/out}/sde}
mkdir -p "$OUT"
RES=$OUT/results.jsonl
: >"$RES"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
PY=${PY:-python3}
N=${SDE_N:-1048576}
NLIN=${SDE_NLIN:-8388608}
[ "${BENCH_QUICK:-0}" = 1 ] && N=65536 && NLIN=65536
[ -x build/odegen ] || make build/odegen || exit 1
log() { printf '%s  %s\n' "$(date +%T)" "$*"; }

# model files: NAME with noise and NAME_det without (the noise term's factor a parameter 0)
cat >"$OUT/ou.ode" <<'EOF'
wiener w
par theta=1, sigma=0.5, k=0
x' = -theta*x + sigma*w
init x=1
@ meth=euler, dt=0.01, total=10
EOF
cat >"$OUT/duffing_sde.ode" <<'EOF'
wiener w
par kd=0.25, B=0.3, sigma=0.1, k=0
x' = v
v' = x - x^3 - kd*v + B*cos(t) + sigma*w
init x=0.5, v=0
@ meth=euler, dt=0.01, total=10
EOF
cat >"$OUT/linear.ode" <<'EOF'
# DiffEqGPU's linear SDE: du = 1.5 u dt + 0.01 u dW
wiener w
par p1=1.5, p2=0.01, k=0
u' = p1*u + p2*u*w
init u=0.1
@ meth=euler, dt=0.00390625, total=1, prec=float
EOF
for m in ou duffing_sde; do sed 's/^wiener w$/par w=0/' "$OUT/$m.ode" >"$OUT/${m}_det.ode"; done

build() {   # build VARIANT FILE [odegen flags…]
    local v=$1 file=$2 d=$OUT/$1
    shift 2
    rm -rf "$d"
    build/odegen "$file" -o "$d" -q "$@" 2>"$d.log" || { echo "odegen failed on $v: $(cat "$d.log")"; return 1; }
    local name
    name=$(basename "$d"/*.cu .cu)
    "$NVCC" -O3 -arch="$ARCH" -Xptxas -v -Xcompiler -fopenmp -c "$d/$name.cu" -o "$d/$name.o" 2>"$d/ptxas.log" &&
        "$NVCC" -O3 -arch="$ARCH" -Xcompiler -fopenmp -I"$d" -DMODEL="$name" -DUMODEL="$(echo "$name" | tr a-z A-Z)" \
            bench/bench_model.c "$d/$name.o" -o "$d/bench" -lm 2>>"$d.log" || { echo "nvcc failed on $v"; return 1; }
}
log "building"
pids=""
for m in ou ou_det duffing_sde duffing_sde_det; do
    build "$m" "$OUT/$m.ode" &
    pids="$pids $!"
    build "${m}_float" "$OUT/$m.ode" --precision float &
    pids="$pids $!"
done
build linear "$OUT/linear.ode" &
pids="$pids $!"
wait $pids

run() {   # run VARIANT N: one JSON line with the variant's name, its registers and the steps per second
    local v=$1 n=$2 d=$OUT/$1
    [ -x "$d/bench" ] || { echo "{\"sde\": \"$v\", \"error\": \"not built\"}" >>"$RES"; return; }
    local line regs
    line=$(timeout 300 "$d/bench" "$n" 0 1 0 0 "k=lin:0:1:0" 2>"$d/err") ||
        { echo "{\"sde\": \"$v\", \"error\": \"$(tr -d '"\n' <"$d/err" | cut -c1-200)\"}" >>"$RES"; return; }
    regs=$(grep -A2 "ode_kernel[^_]" "$d/ptxas.log" | grep -o 'Used [0-9]* registers' | head -1 | grep -o '[0-9]*')
    printf '{"sde": "%s", "registers": %s, %s\n' "$v" "${regs:-null}" "${line#\{}" >>"$RES"
    log "$v N=$n: $(echo "$line" | grep -o '"seconds": [0-9.e-]*')"
}
for v in ou ou_det duffing_sde duffing_sde_det ou_float ou_det_float duffing_sde_float duffing_sde_det_float; do
    run "$v" "$N"
done
run linear "$NLIN"

log "diffrax (JAX) on the same GPU"
timeout 900 $PY bench/sde_diffrax.py "$N" >>"$RES" 2>"$OUT/diffrax.err" ||
    echo "{\"sde\": \"diffrax\", \"error\": \"bench/sde_diffrax.py failed: $(tail -3 "$OUT/diffrax.err" | tr -d '"\n' | cut -c1-300)\"}" >>"$RES"

$PY - "$RES" >"$OUT/sde.md" <<'PYEOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {r.get("sde"): r for r in rows}
def rate(r):
    return r["steps"] / r["seconds"] if r and "seconds" in r and r["seconds"] > 0 else None
print("### SDEs: Euler–Maruyama, the cost of the noise, diffrax (bench/sde.sh)\n")
print("Kernel time of one scan of N systems, 1000 steps of dt = 0.01 each; the deterministic twin is the same "
      "file with `par w=0` for `wiener w`.\n")
print("| model | precision | N | registers | seconds | steps/s | deterministic twin: seconds | steps/s | noise / deterministic |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for m in ("ou", "duffing_sde"):
    for p in ("", "_float"):
        a, b = by.get(m + p), by.get(m + "_det" + p)
        if not a or "seconds" not in a:
            print("| %s | %s | | | %s | | | | |" % (m, p[1:] or "double", (a or {}).get("error", "missing")))
            continue
        ra, rb = rate(a), rate(b)
        print("| %s | %s | %d | %s | %.4g | %.3g | %s | %s | %s |" % (
            m, p[1:] or "double", a["N"], a.get("registers"), a["seconds"], ra,
            "%.4g" % b["seconds"] if b and "seconds" in b else "–", "%.3g" % rb if rb else "–",
            "%.2f" % (a["seconds"] / b["seconds"]) if b and "seconds" in b else "–"))
lin = by.get("linear")
print("\nDiffEqGPU's figure (published, V100): linear SDE, GPUEM, 8,388,608 trajectories, 256 steps: 716 ms.")
if lin and "seconds" in lin:
    print("odegen, the same SDE and steps in float, %d systems on this GPU: %.4g s (%.3g steps/s)."
          % (lin["N"], lin["seconds"], rate(lin)))
else:
    print("odegen's run: %s" % (lin or {}).get("error", "missing"))
dx = [r for r in rows if r.get("sde") == "diffrax"]
if dx:
    print("\n| diffrax (same GPU, same steps) | precision | N | seconds | steps/s | odegen seconds | odegen / diffrax |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in dx:
        if "error" in r:
            print("| %s | | | %s | | | |" % (r.get("model", "all"), r["error"]))
            continue
        o = by.get(r["model"] + ("" if r["precision"] == "double" else "_float"))
        os_ = o["seconds"] if o and "seconds" in o else None
        print("| %s | %s | %d | %.4g | %.3g | %s | %s |" % (r["model"], r["precision"], r["N"], r["seconds"],
              r["N"] * r["steps"] / r["seconds"], "%.4g" % os_ if os_ else "–",
              "%.3g" % (os_ / r["seconds"]) if os_ else "–"))
PYEOF
cat "$OUT/sde.md"
