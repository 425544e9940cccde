#!/usr/bin/env bash
# bench/dde.sh — delays on the GPU (issue 22, item 3): Mackey–Glass (tau = 17,
# RK4, dt = 0.05, 2^20 systems over beta in [0.19, 0.21], t in [0, 300]):
#   odegen with delay(x, tau)      the generated runner (its ring of stored steps)
#   odegen without the delay       the same right-hand side reading x(t): the cost of the past
#   dde_handwritten.cu             per-thread RK4 + a cubic Hermite ring of (x, x') by hand
# One JSON line each (kernel or integration seconds, the ring's bytes, x at
# the end of systems 0, N/2 and N-1, which the two delayed runs must share to
# rounding: the same steps, breaking points on the grid).  On a GPU machine:
#   bash bench/dde.sh OUT            (OUT/results.jsonl; BENCH_QUICK=1: 2^15 systems)
set -u
cd "$(dirname "$0")/.."
OUT=${1:-bench/out}
RES=$OUT/dde.jsonl
B=$OUT/dde
mkdir -p "$B"
ARCH=${ARCH:-sm_90}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
N=1048576
[ "${BENCH_QUICK:-0}" = 1 ] && N=32768
STEPS=6000
log() { printf '%s  %s\n' "$(date +%T)" "$*"; }

cat >"$B/mg_delay.ode" <<'ODE'
# Mackey-Glass, tau = 17
par beta=0.2, gamma=0.1, tau=17
xd=delay(x,tau)
x'=beta*xd/(1+xd^10)-gamma*x
x(0)=0.5
@ delay=17, meth=rk4, dt=0.05, total=300
done
ODE
cat >"$B/mg_plain.ode" <<'ODE'
# Mackey-Glass's right-hand side without the delay (x read now)
par beta=0.2, gamma=0.1
x'=beta*x/(1+x^10)-gamma*x
init x=0.5
@ meth=rk4, dt=0.05, total=300
done
ODE
for m in mg_delay mg_plain; do
    build/odegen -q "$B/$m.ode" -o "$B/$m" && make -s -C "$B/$m" ARCH="$ARCH" >"$B/$m.log" 2>&1 ||
        { echo "build of $m failed: $(tail -3 "$B/$m.log")"; exit 1; }
done
"$NVCC" -O3 -arch="$ARCH" -Xptxas -v bench/dde_handwritten.cu -o "$B/dde_handwritten" 2>"$B/handwritten.ptxas" ||
    { cat "$B/handwritten.ptxas"; exit 1; }

for m in mg_delay mg_plain; do
    "$B/$m/$m" --backend gpu --scan "beta=lin(0.19,0.21,$N)" -o "$B/$m.csv" 2>"$B/$m.err" ||
        { echo "$m failed: $(tail -3 "$B/$m.err")"; continue; }
    ${PY:-python3} - "$m" "$N" "$B/$m.csv" "$(tail -1 "$B/$m.err" | tr -d '"\\')" >>"$RES" <<'PYEOF'
import json, re, sys
name, n, path, summary = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = {}
want = {0, n // 2, n - 1}
with open(path) as f:
    next(f)
    for line in f:
        k = int(line.split(",", 1)[0])
        if k in want:
            rows[k] = float(line.split(",")[2])
m = re.search(r"integration ([0-9.e+-]+) s", summary)
print(json.dumps(dict(case="odegen_" + name, N=n, seconds=float(m.group(1)) if m else None, x_first=rows.get(0),
                      x_mid=rows.get(n // 2), x_last=rows.get(n - 1), summary=summary)))
PYEOF
    log "$m: $(tail -1 "$B/$m.err")"
done
"$B/dde_handwritten" "$N" "$STEPS" >>"$RES" && log "handwritten: $(tail -1 "$RES")"
grep -h "registers\|spill" "$B/handwritten.ptxas" | sed 's/^/handwritten ptxas: /'
cat "$RES"
