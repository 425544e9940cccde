#!/usr/bin/env bash
# bench/arrays.sh — arrays kept as loops (issue 23 items 1 and 5) on the GPU:
# the Duffing chain of the issue's table (x[1..N]'=v, v[1..N]'=…+c*(x[j-1]-2x[j]+x[j+1]),
# RK4, dt=0.01, 4 periods of 2*pi) at 16 … 4096 states, each as odegen writes it by
# default (written out below 64 elements per array, loops from 64 on) and, up to 256
# states, also in the other form (@ arrays=written / loop): the translation time, the
# nvcc build time of the runner, the kernel's registers, stack and spills (ptxas -v),
# the integration time of SYSTEMS systems on the GPU and state-steps per second.
# One JSON line a case; the issue's table is the reference (16 states 5.2e11
# state-steps/s, 64: 3.8e10, 256: 1.7e10; 1024 did not build in 10 minutes).
#   bench/arrays.sh [OUT]      (ARCH=sm_90, SYSTEMS=65536; NVCC; about 5-10 minutes)
set -u
cd "$(dirname "$0")/.."
OUT=${1:-bench/out/arrays}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
SYSTEMS=${SYSTEMS:-65536}
RES=$OUT/arrays.jsonl
: >"$RES"
[ -x build/odegen ] || make build/odegen || exit 1
chain() {   # chain HALF MODE: the model's text
    printf "# Duffing chain of %d units (bench/arrays.sh)\npar k=0.25, B=0.3, c=0.1\n" "$1"
    printf "x[1..%d]'=v[j]\nv[1..%d]'=x[j]-x[j]^3-k*v[j]+B*cos(t)+c*(x[j-1]-2*x[j]+x[j+1])\n" "$1" "$1"
    printf "x0=0\nx%d=0\nx[1..%d](0)=0.1*sin([j])\n@ meth=rk4, dt=0.01, total=25.132741228718345, arrays=%s\n" \
        $(($1 + 1)) "$1" "$2"
    printf "record x1, v%d\ndone\n" "$1"
}
for half in 8 16 32 64 128 256 512 1024 2048; do
    for mode in auto written loop; do
        [ $mode != auto ] && [ $half -gt 128 ] && continue
        name=chain$((2 * half))_$mode
        d=$OUT/$name
        mkdir -p "$d"
        chain $half $mode >"$d/$name.ode"
        t0=$(date +%s.%N)
        build/odegen "$d/$name.ode" -o "$d/gen" -q || { echo "{\"case\": \"$name\", \"error\": \"odegen\"}" | tee -a "$RES"; continue; }
        t1=$(date +%s.%N)
        form=$(grep -q ODE_TEAM_FOR "$d/gen/$name.cu" && echo loop || echo written)
        timeout 900 make -s -C "$d/gen" BACKEND=cuda NVCC="$NVCC" ARCH="$ARCH" NVCCFLAGS="-O3 -Xptxas -v" \
            >"$d/build.log" 2>&1 || { echo "{\"case\": \"$name\", \"error\": \"build (900 s)\"}" | tee -a "$RES"; continue; }
        t2=$(date +%s.%N)
        regs=$(awk "/Compiling entry function '.*ode_kernel/ {on=1} on && /Used [0-9]+ registers/ {sub(/.*Used /, \"\"); print \$1; exit}" "$d/build.log")
        props=$(grep -A1 "Function properties for .*ode_kernel" "$d/build.log" | tail -1 | tr -s ' ' | sed 's/^ //')
        line=$(timeout 600 "$d/gen/$name" --backend gpu --scan "k=lin(0.2,0.3,$SYSTEMS)" -o "$d/out.csv" 2>&1 | tail -1)
        integ=$(echo "$line" | sed -n 's/.*integration \([0-9.e+-]*\) s.*/\1/p')
        steps=$(echo "$line" | sed -n 's/.* \([0-9]*\) steps.*/\1/p')
        rate=$(awk -v s="$steps" -v n=$((2 * half)) -v i="$integ" 'BEGIN { if (i > 0) printf "%.3g", s * n / i; else print "null" }')
        printf '{"case": "%s", "states": %d, "form": "%s", "translate_s": %.3f, "build_s": %.1f, "registers": "%s", "ptxas": "%s", "systems": %d, "steps": "%s", "integration_s": "%s", "state_steps_per_s": "%s", "runner": "%s"}\n' \
            "$name" $((2 * half)) "$form" "$(awk "BEGIN{print $t1 - $t0}")" "$(awk "BEGIN{print $t2 - $t1}")" "$regs" "$props" \
            "$SYSTEMS" "$steps" "$integ" "$rate" "$(echo "$line" | tr -d '"')" | tee -a "$RES"
    done
done
echo "bench/arrays.sh: $RES"
