#!/usr/bin/env bash
# bench/registers.sh — the register budget of every case's kernel, and the
# event checks' slope bound (issue 11): builds the five models of the issue's
# table with __launch_bounds__(128, MIN_BLOCKS) for MIN_BLOCKS 1 (up to 255
# registers), 4 (128) and 8 (64) beside the default (templates/driver.h
# picks it from the model), and the two models with events also with
# -DODE_EVENT_BOUNDS=0 (every step's extension scanned at its check points);
# times each through the C API (bench_model.c, the issue's sizes) and prints
# one JSON line per run (registers and spills from ptxas with it).
#   bench/registers.sh [OUT]        (ARCH=sm_90; about 2 minutes on one H200)
set -u
cd "$(dirname "$0")/.."
OUT=${1:-bench/out/registers}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
RES=$OUT/registers.jsonl
: >"$RES"
[ -x build/odegen ] || make build/odegen || exit 1
KM="PA1=list:0.5:1.1 PA2=list:0.7:1.2 f1=log:20:1000:128 f2=log:20:1000:128"
declare -A ARGS=(
    [duffing]="1048576 1024 32 0 0 k=lin:0.2:0.3:0"
    [duffing_rkck45]="1048576 1024 32 0 0 k=lin:0.2:0.3:0"
    [lorenz]="1048576 0 1 0 0 rho=lin:0:21:0"
    [valve]="30720 1024 32 0 0 q=lin:0.2:10:0"
    [keller_miksis]="0 1024 64 0 0 $KM"
)
MODELS="duffing duffing_rkck45 lorenz valve keller_miksis"
variants_of() {   # name:defines (commas for spaces)
    echo "default: mb1:-DODE_MIN_BLOCKS=1 mb4:-DODE_MIN_BLOCKS=4 mb8:-DODE_MIN_BLOCKS=8"
    case $1 in valve | keller_miksis) echo "nobounds:-DODE_EVENT_BOUNDS=0" ;; esac
}
for m in $MODELS; do
    build/odegen "models/$m.ode" -o "$OUT/$m/gen" -q || exit 1
    for vd in $(variants_of "$m"); do
        v=${vd%%:*}
        defs=${vd#*:}
        d=$OUT/$m/$v
        mkdir -p "$d"
        (
            "$NVCC" -O3 -arch="$ARCH" ${defs//,/ } -Xptxas -v -Xcompiler -fopenmp -c "$OUT/$m/gen/$m.cu" -o "$d/m.o" \
                2>"$d/ptxas.log" &&
                "$NVCC" -O3 -arch="$ARCH" -Xcompiler -fopenmp -I"$OUT/$m/gen" -DMODEL="$m" -DUMODEL="$(echo "$m" | tr a-z A-Z)" \
                    bench/bench_model.c "$d/m.o" -o "$d/bench" -lm 2>>"$d/ptxas.log" || echo "build of $m $v failed"
        ) &
        [ "$(jobs -r | wc -l)" -ge "$(nproc)" ] && wait -n
    done
done
wait
for m in $MODELS; do
    for vd in $(variants_of "$m"); do
        v=${vd%%:*}
        defs=${vd#*:}
        d=$OUT/$m/$v
        regs=$(awk "/Compiling entry function '_Z10ode_kernel9/ {on=1} on && /Used [0-9]+ registers/ {sub(/.*Used /, \"\"); print \$1; exit}" "$d/ptxas.log")
        spill=$(grep -A1 "Function properties for _Z10ode_kernel9" "$d/ptxas.log" | grep -o "[0-9]* bytes spill stores, [0-9]* bytes spill loads")
        line=$(timeout 120 "$d/bench" ${ARGS[$m]} 2>"$d/err") || line="{\"error\": \"$(tr -d '"\n' <"$d/err" | cut -c1-200)\"}"
        printf '{"case": "%s", "variant": "%s", "defines": "%s", "registers": "%s", "spills": "%s", %s\n' \
            "$m" "$v" "$defs" "$regs" "$spill" "${line#\{}" | tee -a "$RES"
    done
done
# The table, as bench/BENCHMARKS.md shows it (OUT/registers.md).
${PY:-python3} - "$RES" >"$OUT/registers.md" <<'PYEOF'
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
cols = ["default", "mb1", "mb4", "mb8", "nobounds"]
print("\n### Register budgets and the event bound (`bench/registers.sh`)\n")
print("`bench_model`, the issue's sizes; `__launch_bounds__(128, MIN_BLOCKS)`: 1 → up to 255 registers, 4 → 128, "
      "8 → 64; default: what templates/driver.h picks; nobounds: `-DODE_EVENT_BOUNDS=0`. Seconds (registers, spill stores).\n")
print("| case | " + " | ".join(cols) + " |")
print("|---|" + "---|" * len(cols))
for case in dict.fromkeys(r["case"] for r in rows):
    cells = []
    for c in cols:
        r = next((r for r in rows if r["case"] == case and r["variant"] == c), None)
        if r is None:
            cells.append("")
        elif "seconds" not in r:
            cells.append("error")
        else:
            spill = re.match(r"(\d+)", r.get("spills") or "0")
            cells.append("%.4g (%s%s)" % (r["seconds"], r["registers"],
                                         ", %s B" % spill.group(1) if spill and spill.group(1) != "0" else ""))
    print("| %s | %s |" % (case, " | ".join(cells)))
PYEOF
