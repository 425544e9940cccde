#!/usr/bin/env bash
# bench/team.sh — issue 23's benchmarks on one GPU, in one call: systems
# integrated by teams of threads (templates/team*.h) against one system per
# thread, and against MPGOS's coupled-systems solver.  Prints the tables and
# writes them to $OUT/TEAM.md (for bench/BENCHMARKS.md), every measurement to
# $OUT/team.jsonl.
#
#   A  the Duffing chain and ring at 16 … 4096 states (RK4, 4 forcing periods,
#      2^16 systems, 2^14 at 4096): translate + build seconds (target ≤ 30 s),
#      registers / spills / shared memory, kernel seconds, state-steps per
#      second (target at 1024 states ≥ 50% of 16 states'), in the layout the
#      rule picks and in others;
#   B  MPGOS's ring of Duffing units (its tutorial T1: RKCK45 at 1e-8, an event
#      per unit) at 14, 64 and 128 units × 25, 5 and 3 systems, odegen in each
#      layout against MPGOS in each launch configuration, the best of each
#      (target: odegen's kernel ≥ 1.5× MPGOS's); MPGOS is built here, beside
#      the project, from its sources in .mpgos/src (never committed: see below);
#   C  a medium stiff model (30 species: five stiff clusters, Rodas5P) at 2^16
#      systems: one system per thread (its LU written out) against teams;
#   D  the latency of a scan smaller than a wave: the relief valve (30720
#      systems, 7 warps per SM) and Keller–Miksis, one thread per system
#      against teams of 2 and 4 threads;
#   E  how the cost grows with the number of systems: the Duffing chain of 16
#      states (one thread) and of 128 states (the rule's one thread with the
#      arrays as loops, one thread written out, a warp of 32, a block of 128)
#      at 2^8 … 2^18 systems — kernel seconds until the GPU
#      is full (one wave of systems or teams), then linear;
#   F  the scan's size in the layout's rule (check/layout.c: team_by_rule): models
#      of 4, 16, 28 (MPGOS's ring of 14 units), 64 and 256 states at 32 … 32768
#      systems, one thread against teams (over the arrays kept as loops).
#
# Only what the parts in TEAM_PARTS measure is built.  A team integrates a model
# written out, and nvcc's time for a model written out grows fast with its size
# (256 states: about 1 minute alone, 3 under load; 1024: more than 10 minutes):
# part A builds its team layouts at 16 … 256 states, and TEAM_BIG=1 adds those at
# 1024 and 4096 states (each longer than a 10-minute call: for a machine of your
# own).  Every nvcc stops after TEAM_BUILD_TIMEOUT seconds (360): the build is
# reported as not finished and the part goes on.  A failed build prints the tail
# of its logs.  Part B's odegen builds are MPGOS's ring written out, events and all:
# at 128 units (256 states, 128 events) nvcc takes minutes per layout (issue 23: up
# to 9), so B is split by TEAM_B_UNITS (14 64 128) and TEAM_B_LAYOUTS (warp8 warp16
# warp32 block32 block64 block128); TEAM_B_LOOP_LAYOUTS (warp16 warp32 block32 block64
# block128) are the same layouts over the arrays kept as loops, built in seconds (and
# the rule's own layouts: its files declare their scans of 25, 5 and 3 systems, so the
# rule gives a warp of 32, a block of 64 and a block of 128 over the loops).  Part A adds the
# chain's loop form in a warp of 32 and a block of 128 at every size from 64 states.
# In 10-minute calls on 16 cores (JOBS=14; the H100's times of 2026-11-27):
#   TEAM_PARTS="A E" (385 s);  TEAM_PARTS="C D" (131 s);
#   TEAM_PARTS=B TEAM_B_LAYOUTS="block64" (142 s: 14, 64 and 128 units; the written-out 128-unit
#   layouts take nvcc minutes each: TEAM_B_LAYOUTS=" " leaves the written-out ones out).
#
# Environment: BENCH_OUT (bench/out), ARCH (sm_90), JOBS (parallel builds, 8),
# TEAM_PARTS (default "A B C D E F"), TEAM_BIG, TEAM_BUILD_TIMEOUT, TEAM_RUN_TIMEOUT (one
# scan's limit, 120 s), TEAM_B_UNITS, TEAM_B_LAYOUTS, TEAM_B_LOOP_LAYOUTS, TEAM_CHAIN_UNITS
# (part A's sizes in units: "8 32 128 512 2048"), MPGOS (the MPGOS tree: .mpgos/src, made by
#   mkdir -p .mpgos/src && git --git-dir=<the fetched mirror>/.git archive HEAD \
#       SourceCodes Tutorials_CoupledSystems_PerBlock/T1_RingOfDuffingOscillators | tar -x -C .mpgos/src
# on the development machine, and carried to the GPU machine; without it part B
# runs odegen alone).  CUDA_MODULE_LOADING=EAGER: every program's kernels are
# loaded at start-up, out of the timed launches.
set -u
cd "$(dirname "$0")/.."
OUT=${BENCH_OUT:-bench/out}/team
B=$OUT/build
mkdir -p "$B"
RES=$OUT/team.jsonl
: >"$RES"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
JOBS=${JOBS:-8}
PARTS=${TEAM_PARTS:-A B C D E F}
BUILD_TIMEOUT=${TEAM_BUILD_TIMEOUT:-360}
RUN_TIMEOUT=${TEAM_RUN_TIMEOUT:-120}
B_UNITS=${TEAM_B_UNITS:-14 64 128}
B_LAYOUTS=${TEAM_B_LAYOUTS:-warp8 warp16 warp32 block32 block64 block128}
B_LOOP_LAYOUTS=${TEAM_B_LOOP_LAYOUTS:-warp16 warp32 block32 block64 block128}
MPGOS=${MPGOS:-.mpgos/src}
PY=${PY:-python3}
export CUDA_MODULE_LOADING=EAGER
[ -x build/odegen ] || make build/odegen || exit 1
log() { printf '%s  %s\n' "$(date +%T)" "$*"; }
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
now() { date +%s.%N; }

# ---------------------------------------------------------------- the models, written per size
chain_ode() {   # UNITS: the issue's Duffing chain (fixed ends), RK4
    local u=$1
    printf '%s\n' "# the Duffing chain of issue 23, $u units" "par k=0.25, B=0.3, c=0.1" "par x0=0, x$((u + 1))=0" \
        "x[1..$u]' = v[j]" "v[1..$u]' = x[j] - x[j]^3 - k*v[j] + B*cos(t) + c*(x[j-1] - 2*x[j] + x[j+1])" \
        "x[1..$u](0) = 0.1" "@ meth=rk4, dt=0.01, total=25.132741228718345" "done"
}
ring_ode() {    # UNITS: the same oscillators in a ring (periodic index)
    local u=$1
    printf '%s\n' "# the Duffing ring, $u units" "par k=0.25, B=0.3, c=0.1" \
        "x[0..$((u - 1))]' = v[j]" \
        "v[0..$((u - 1))]' = x[j] - x[j]^3 - k*v[j] + B*cos(t) + c*(shift(x0, mod([j]+$((u - 1)),$u)) - 2*x[j] + shift(x0, mod([j]+1,$u)))" \
        "x[0..$((u - 1))](0) = 0.1" "@ meth=rk4, dt=0.01, total=25.132741228718345" "done"
}
# MPGOS's tutorial ends a system at any unit's second maximum (its event action sets
# UDT = 1, user-defined termination, when the unit's counter reaches 2): stop=2 on each
# unit's event is that rule (without it odegen integrated all of [0, 40 pi], some 60
# times the tutorial's work: the call of 2026-11-27 measured MPGOS / odegen 0.08)
# The file declares the scan that part B runs (the same as the command line's X below), so
# that the layout's rule knows its size (check/layout.c: 25, 5 and 3 systems).
mpgos_ode() {   # UNITS: MPGOS's tutorial T1 (tests/large/duffing_ring.ode at any size), its accessories per unit
    local u=$1 m=$(($1 - 1)) x v
    case $u in 14) x="-8,-4,0,4,8" v="-20,-5,10,25,40" ;; 64) x="-8,-4,0,4,8" v="-20" ;; *) x="-8,0,8" v="-20" ;; esac
    printf '%s\n' "# MPGOS's ring of Duffing units (tutorial T1), $u units" \
        "par B=13.633, w=0.5, G=0.004, C=0.002, k=0.24" \
        "x[0..$m]' = v[j] - G*x[j] + C*(shift(x0, mod([j]+$m,$u)) + shift(x0, mod([j]+1,$u)))" \
        "v[0..$m]' = -k*v[j] + x[j] - x[j]^3 + B*cos(w*t) - G*v[j] + C*(shift(v0, mod([j]+$m,$u)) + shift(v0, mod([j]+1,$u)))" \
        "x[0..$m](0) = -5" "v[0..$m](0) = -5" "acc n[0..$m], xs[0..$m]" \
        "event peak[0..$m]: v[j], dir=-1, stop=2 { n[j] = n[j] + 1; if (n[j] == 2) { xs[j] = x[j] } }" \
        "scan x11=list($x)" "scan v11=list($v)" \
        "@ meth=rkck45, toler=1e-8, atoler=1e-8, dt=0.01, total=125.66370614359172" "done"
}
stiff_ode() {   # five stiff clusters of six species (tests/large/stiff_clusters.ode's, 30 states)
    printf '%s\n' "# five stiff clusters of six species, Rodas5P" "par k=0.2, d=0.05" "%[0..4]" \
        "a[j]' = -(1+10^([j]/2))*a[j] + k*(b[j]*c[j] - a[j]) + d*(shift(a0, 6*mod([j]+1,5)) - 2*a[j] + shift(a0, 6*mod([j]+4,5))) + 1" \
        "b[j]' = k*(a[j] - b[j]*c[j]) - 100*(b[j] - d[j]*e[j])" "c[j]' = k*(a[j] - b[j]*c[j]) - 10*(c[j] - f[j])" \
        "d[j]' = 100*(b[j] - d[j]*e[j]) - 1000*d[j]*f[j]" "e[j]' = 100*(b[j] - d[j]*e[j]) - e[j] + 0.1*a[j]" \
        "f[j]' = 10*(c[j] - f[j]) - 1000*d[j]*f[j] + 0.01*e[j]" "%" "a[0..4](0) = 1" \
        "@ meth=rodas5p, total=1, toler=1e-6, atoler=1e-6, dt=1e-6" "done"
}

# ---------------------------------------------------------------- builds
# variant NAME ODE-FILE "ODEGEN-OPTIONS" : translate (timed), nvcc -c the model (timed), link bench_model
variant() {
    local name=$1 ode=$2 opts=$3 d=$B/$1
    rm -rf "$d"
    mkdir -p "$d"
    local t0 t1 t2
    t0=$(now)
    # shellcheck disable=SC2086
    # a team layout over the model written out, unless the variant asks for its arrays as loops
    case "$opts" in *arrays=*) ;; *layout=*) opts="$opts --option arrays=written" ;; esac
    build/odegen "$ode" -q -o "$d/gen" $opts 2>"$d/odegen.log" || { echo "{\"variant\": \"$name\", \"error\": \"odegen\"}" >"$d/build.json"; return 1; }
    t1=$(now)
    local m
    m=$(basename "$d"/gen/*.cu .cu)
    timeout "$BUILD_TIMEOUT" "$NVCC" -O3 -arch="$ARCH" -Xptxas -v -Xcompiler -fopenmp -c "$d/gen/$m.cu" -o "$d/$m.o" \
        2>"$d/ptxas.log"
    local rc=$?
    if [ $rc = 124 ]; then
        echo "nvcc: not finished in $BUILD_TIMEOUT s (TEAM_BUILD_TIMEOUT)" >>"$d/ptxas.log"
        echo "{\"variant\": \"$name\", \"error\": \"nvcc not finished in $BUILD_TIMEOUT s\"}" >"$d/build.json"
        return 1
    elif [ $rc != 0 ]; then
        echo "{\"variant\": \"$name\", \"error\": \"nvcc\"}" >"$d/build.json"
        return 1
    fi
    t2=$(now)
    "$NVCC" -O3 -arch="$ARCH" -Xcompiler -fopenmp -I"$d/gen" -DMODEL="$m" -DUMODEL="$(echo "$m" | tr a-z A-Z)" \
        bench/bench_model.c "$d/$m.o" -o "$d/bench" -lm 2>>"$d/ptxas.log" || return 1
    local layout team
    layout=$(grep -m1 -o '#define ODE_LAYOUT [0-9]' "$d/gen/$m.cu" | grep -o '[0-9]$')
    team=$(grep -m1 -o '#define ODE_TEAM_SIZE [0-9]*' "$d/gen/$m.cu" | grep -o '[0-9]*$')
    $PY - "$name" "$d/ptxas.log" "$(awk "BEGIN{print $t1 - $t0}")" "$(awk "BEGIN{print $t2 - $t1}")" "${layout:-0}" "${team:-1}" \
        "$(grep -m1 -o '#define ODE_NSTATE [0-9]*' "$d/gen/$m.cu" | grep -o '[0-9]*$')" \
        "$(grep -q 'arrays kept as loops' "$d/gen/$m.cu" && echo loop || echo written)" >"$d/build.json" <<'PYEOF'
import json, re, sys
name, log, tr, bu, layout, team, n, arrays = sys.argv[1:]
text = open(log).read()
k = re.search(r"Compiling entry function '(\w*ode_(?:team_)?kernel\w*)' for.*?(\d+) bytes stack frame, (\d+) bytes spill stores, "
              r"(\d+) bytes spill loads\n.*?Used (\d+) registers(?:.*?(\d+) bytes smem)?", text, re.S)
print(json.dumps(dict(variant=name, translate_s=float(tr), build_s=float(bu), layout=["thread", "warp", "block"][int(layout)],
                      team=int(team), states=int(n), arrays=arrays, stack=int(k.group(2)) if k else None,
                      spills=int(k.group(3)) + int(k.group(4)) if k else None, registers=int(k.group(5)) if k else None,
                      smem=int(k.group(6) or 0) if k else None)))
PYEOF
    log "built $name: translate $(awk "BEGIN{printf \"%.2f\", $t1 - $t0}") s, nvcc $(awk "BEGIN{printf \"%.1f\", $t2 - $t1}") s"
}
failed() {  # failed NAME: what the build of NAME left in its logs
    echo "build of $1 failed:"
    local f
    for f in "$B/$1/odegen.log" "$B/$1/ptxas.log"; do
        [ -s "$f" ] && tail -n 6 "$f" | sed "s|^|    $(basename "$f"): |"
    done
    return 0
}
spawn() {   # spawn NAME ODE OPTS: a build in the background, JOBS at once
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    ( variant "$@" || failed "$1" ) &
}
run() {     # run VARIANT TAG N TRANSIENT RECORD BALANCE BLOCK SCAN…: one timed scan (bench_model)
    local v=$1 tag=$2
    shift 2
    local bin=$B/$v/bench line
    if [ ! -x "$bin" ]; then   # (the build's own error where it left one)
        line=$(grep -o '"error": "[^"]*"' "$B/$v/build.json" 2>/dev/null | sed 's/"error": "\(.*\)"/\1/')
        echo "{\"variant\": \"$v\", \"tag\": \"$tag\", \"error\": \"not built${line:+: $line}\"}" >>"$RES"
        return
    fi
    line=$(timeout "$RUN_TIMEOUT" "$bin" "$@" 2>"$B/last.err") ||
        { echo "{\"variant\": \"$v\", \"tag\": \"$tag\", \"error\": \"$(tr -d '"\n' <"$B/last.err" | cut -c1-200)\"}" >>"$RES"; return; }
    printf '{"variant": "%s", "tag": "%s", "build": %s, %s\n' "$v" "$tag" "$(cat "$B/$v/build.json")" "${line#\{}" >>"$RES"
    log "$v ($tag): $(echo "$line" | grep -o '"seconds": [0-9.]*')"
}

mkdir -p "$B/ode"
CHAIN_UNITS=${TEAM_CHAIN_UNITS:-8 32 128 512 2048}   # (a smoke test: TEAM_CHAIN_UNITS=8)
for u in $CHAIN_UNITS 64; do chain_ode "$u" >"$B/ode/chain$u.ode"; ring_ode "$u" >"$B/ode/ring$u.ode"; done
for u in 14 64 128; do mpgos_ode "$u" >"$B/ode/mpgos$u.ode"; done
stiff_ode >"$B/ode/stiff30.ode"
F_SYSTEMS="32 128 512 2048 8192 32768"
for u in 2 8 32 128; do chain_ode "$u" >"$B/ode/F_chain$u.ode"; done
mpgos_ode 14 >"$B/ode/F_mpgos14.ode"

log "builds for parts $PARTS ($JOBS at once; each nvcc at most $BUILD_TIMEOUT s)"
if part A; then
    log "builds: the rule's layout at each size first, two at a time (their translate + build times)"
    for u in $CHAIN_UNITS; do
        while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
        ( variant chain$u "$B/ode/chain$u.ode" "" || failed chain$u ) &
    done
    wait
    log "builds: the other layouts ($JOBS at once)"
    has() { case " $CHAIN_UNITS " in *" $1 "*) return 0 ;; esac; return 1; }
    has 8 && spawn chain8_warp4 "$B/ode/chain8.ode" "--option layout=warp --option team=4"
    has 32 && spawn chain32_warp16 "$B/ode/chain32.ode" "--option layout=warp --option team=16"
    has 32 && spawn chain32_block32 "$B/ode/chain32.ode" "--option layout=block --option team=32"
    has 128 && spawn chain128_warp32 "$B/ode/chain128.ode" "--option layout=warp --option team=32"
    has 128 && spawn chain128_block128 "$B/ode/chain128.ode" "--option layout=block --option team=128"
    if [ "${TEAM_BIG:-0}" = 1 ]; then   # (written out: 1024 and 4096 states)
        has 512 && spawn chain512_block128 "$B/ode/chain512.ode" "--option layout=block --option team=128"
        has 512 && spawn chain512_block512 "$B/ode/chain512.ode" "--option layout=block --option team=512"
        has 2048 && spawn chain2048_block512 "$B/ode/chain2048.ode" "--option layout=block --option team=512"
    fi
    for u in $CHAIN_UNITS; do spawn ring$u "$B/ode/ring$u.ode" ""; done
    # teams over the arrays kept as loops (built in seconds at any size)
    for u in $CHAIN_UNITS; do
        [ "$u" -ge 32 ] || continue
        spawn "chain${u}_loop_warp32" "$B/ode/chain$u.ode" "--option arrays=loop --option layout=warp --option team=32"
        spawn "chain${u}_loop_block128" "$B/ode/chain$u.ode" "--option arrays=loop --option layout=block --option team=128"
    done
fi
if part B; then
    for u in $B_UNITS; do
        spawn mpgos$u "$B/ode/mpgos$u.ode" ""
        for l in $B_LAYOUTS; do
            spawn "mpgos${u}_$l" "$B/ode/mpgos$u.ode" "--option layout=${l%%[0-9]*} --option team=${l##*[a-z]}"
        done
        for l in $B_LOOP_LAYOUTS; do   # the same layouts over the arrays kept as loops
            spawn "mpgos${u}_loop_$l" "$B/ode/mpgos$u.ode" \
                "--option arrays=loop --option layout=${l%%[0-9]*} --option team=${l##*[a-z]}"
        done
    done
fi
if part C; then
    spawn stiff30 "$B/ode/stiff30.ode" ""
    for l in "warp 8" "warp 32" "block 32"; do
        set -- $l
        spawn "stiff30_$1$2" "$B/ode/stiff30.ode" "--option layout=$1 --option team=$2"
    done
fi
if part D; then
    for m in valve keller_miksis; do
        spawn "$m" "models/$m.ode" ""
        for t in 2 4; do spawn "${m}_warp$t" "models/$m.ode" "--option layout=warp --option team=$t"; done
    done
fi
if part E; then
    # part A builds chain8 with the rule (one thread); without part A, E builds it
    part A || spawn chain8 "$B/ode/chain8.ode" ""
    spawn E_chain64 "$B/ode/chain64.ode" ""
    spawn E_chain64_thread "$B/ode/chain64.ode" "--option layout=thread"
    spawn E_chain64_warp32 "$B/ode/chain64.ode" "--option layout=warp --option team=32"
    spawn E_chain64_block128 "$B/ode/chain64.ode" "--option layout=block --option team=128"
fi
# MPGOS, beside the project: its tutorial T1 at each size and launch configuration
MP=$OUT/mpgos
if part B && [ -d "$MPGOS/SourceCodes" ]; then
    rm -rf "$MP" && mkdir -p "$MP" && cp -r "$MPGOS/SourceCodes" "$MP/src"
    # CUDA 13 has no cudaDeviceProp clockRate, memoryClockRate, deviceOverlap: their prints go
    sed -i '/DeviceProperties\.\(clockRate\|memoryClockRate\|deviceOverlap\)/d' "$MP/src/CoupledSystems_PerBlock_Interface.cuh"
    T1=$MPGOS/Tutorials_CoupledSystems_PerBlock/T1_RingOfDuffingOscillators
    # units systems-x tpb spb ne ndo
    for cfg in "14 5 32 3 1 500" "14 5 32 3 1 0" "14 5 32 2 1 0" "14 5 32 1 1 0" "14 5 64 4 1 0" \
               "64 5 64 1 1 0" "64 5 128 2 1 0" "64 5 32 1 1 0" \
               "128 3 128 1 1 0" "128 3 64 1 1 0" "128 3 256 2 1 0" "128 3 128 1 0 0"; do
        set -- $cfg
        case " $B_UNITS " in *" $1 "*) ;; *) continue ;; esac
        name="mp_u$1_t$3_s$4_e$5_d$6"
        mkdir -p "$MP/$name"
        sed -e "s/NumberOfInitialConditionsX = 5;/NumberOfInitialConditionsX = $2;/" \
            -e "s/NumberOfInitialConditionsY = 5;/NumberOfInitialConditionsY = $([ "$1" = 14 ] && echo 5 || echo 1);/" \
            -e "s/NumberOfUnitsPerSystem = 14;/NumberOfUnitsPerSystem = $1;/" \
            -e "s/const int TPB  = 32;/const int TPB  = $3;/" -e "s/const int SPB  = 3;/const int SPB  = $4;/" \
            -e "s/const int NE   = 1;/const int NE   = $5;/" -e "s/const int NDO  = 500;/const int NDO  = $6;/" \
            -e 's/clock_t SimulationStart = clock();/double SimulationStart = mpgos_wall();/' \
            -e 's/clock_t SimulationEnd = clock();/double SimulationEnd = mpgos_wall();/' \
            -e 's|1000.0\*(SimulationEnd-SimulationStart) / CLOCKS_PER_SEC|1000.0*(SimulationEnd-SimulationStart)|' \
            -e 's|^	for (int sid=0; sid<NS; sid++)\r*$|	for (int sid=0; sid<0; sid++)|' \
            "$T1/RingOfDuffingOscillators.cu" >"$MP/$name/ring.cu"
        [ "$6" = 0 ] && sed -i 's/ScanSystem.SolverOption(DenseOutput[A-Za-z]*, [^)]*);//' "$MP/$name/ring.cu"
        [ "$5" = 0 ] && sed -i '/SolverOption(EventDirection/d' "$MP/$name/ring.cu"
        cp "$T1/RingOfDuffingOscillators_SystemDefinition.cuh" "$MP/$name/"
        printf '#include <chrono>\nstatic double mpgos_wall() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }\n' >"$MP/$name/wall.h"
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
        ( cd "$MP/$name" && timeout "$BUILD_TIMEOUT" "$NVCC" -O3 --std=c++14 -arch="$ARCH" -maxrregcount=128 -w -include wall.h -I../src \
              --ptxas-options=-v ring.cu -o ring >build.log 2>&1 || echo "MPGOS build $name failed: $(tail -n 3 build.log)" ) &
    done
elif part B; then
    log "no MPGOS tree at $MPGOS: part B runs odegen alone (see this script's header)"
fi
if part F; then   # model:layouts (thread: the model written out; the teams over the loops)
    for m in chain2:"thread warp4" chain8:"thread warp16 block32" mpgos14:"thread warp32 block64" \
        chain32:"thread warp32 block64" chain128:"warp32 block128 block256"; do
        for l in ${m#*:}; do
            o="--option layout=${l%%[0-9]*}"
            [ "$l" = thread ] || o="$o --option team=${l##*[a-z]} --option arrays=loop"
            spawn "F_${m%%:*}_$l" "$B/ode/F_${m%%:*}.ode" "$o"
        done
    done
fi
wait
log "builds done"

# ---------------------------------------------------------------- runs
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader >"$OUT/gpu.txt" 2>/dev/null
if part A; then
    for u in $CHAIN_UNITS; do
        N=65536
        [ "$u" = 2048 ] && N=16384
        for v in chain$u ring$u $(cd "$B" && ls -d chain${u}_* 2>/dev/null); do
            run "$v" "A" "$N" 0 1 0 0 "k=lin:0.2:0.3:0"
        done
    done
fi
if part B; then
    for u in $B_UNITS; do
        case $u in 14) X="x11=list:-8:-4:0:4:8 v11=list:-20:-5:10:25:40" ;; 64) X="x11=list:-8:-4:0:4:8 v11=list:-20" ;;
            128) X="x11=list:-8:0:8 v11=list:-20" ;; esac
        for v in mpgos$u $(cd "$B" && ls -d mpgos${u}_* 2>/dev/null); do
            # shellcheck disable=SC2086
            run "$v" "B$u" 0 0 1 0 0 $X
        done
    done
    for d in "$MP"/mp_u*/; do
        [ -x "$d/ring" ] || continue
        name=$(basename "$d")
        for rep in 1 2 3; do
            ms=$( (cd "$d" && timeout 120 ./ring >/dev/null 2>&1; grep -o 'Total simulation time: [0-9.e+-]*' Results.txt | grep -o '[0-9.e+-]*$') )
            regs=$(grep -A2 "Compiling entry function" "$d/build.log" | grep -o 'Used [0-9]* registers' | head -1 | grep -o '[0-9]*')
            echo "{\"mpgos\": \"$name\", \"seconds\": $(awk "BEGIN{print ${ms:-0} / 1000}"), \"registers\": ${regs:-0}}" >>"$RES"
        done
        log "MPGOS $name: $(tail -1 "$RES")"
    done
fi
if part C; then
    for v in stiff30 $(cd "$B" && ls -d stiff30_* 2>/dev/null); do run "$v" "C" 65536 0 1 0 0 "k=lin:0.15:0.25:0"; done
fi
if part D; then
    for v in valve valve_warp2 valve_warp4; do run "$v" "D" 30720 256 32 0 0 "q=lin:0.2:10:0"; done
    for v in keller_miksis keller_miksis_warp2 keller_miksis_warp4; do
        run "$v" "D" 0 64 16 0 0 PA1=list:1.1 PA2=list:1.2 f1=log:20:1000:128 f2=log:20:1000:128
    done
fi
if part E; then
    for N in 256 1024 4096 16384 65536 262144; do
        for v in chain8 E_chain64 E_chain64_thread E_chain64_warp32 E_chain64_block128; do run "$v" "E" "$N" 0 1 0 0 "k=lin:0.2:0.3:0"; done
    done
fi
if part F; then
    for N in $F_SYSTEMS; do
        for v in $(cd "$B" && ls -d F_* 2>/dev/null); do run "$v" "F" "$N" 0 1 0 0 "k=lin:0.2:0.3:0"; done
    done
fi
$PY bench/team_report.py "$RES" "$OUT/gpu.txt" | tee "$OUT/TEAM.md"
