#!/usr/bin/env bash
# tests/gpu/output.sh — the runner's streamed output on a GPU (issue 11), part
# of `make test-gpu`.  Runners generated from models/ and built with nvcc
# (with HDF5 where the Makefile finds it, or from a bundle in .hdf5/ made by
# tools/hdf5_bundle.sh), then:
#   1. the chunk loop on the GPU (two solvers alternating over several chunks,
#      a shorter last chunk) writes the same bytes as one chunk, with and
#      without load balancing, and on two GPUs as on one (when there are two);
#   2. the scan's values made on the device equal the CPU's bit for bit (lin,
#      log and list axes of parameters; the window t0, t1);
#   3. GPU against CPU on short integrations: the same rows and statuses,
#      every value within 1e-9 (only rounding differs: fused multiply-adds,
#      the device's cos);
#   4. the GPU's HDF5 file holds its CSV's numbers bit for bit (check_h5.py,
#      h5py), also for an adaptive model with events (valve);
#   5. SIGTERM during a GPU run: exit status 143, no file left;
#   6. the summary gives CUDA's start-up apart from integration and output.
# Prints one line per check; exit status 0 when all passed.
set -u
cd "$(dirname "$0")/../.." || exit 1
PY=${PY:-python3}
ARCH=${ARCH:-sm_90}
[ -x build/odegen ] || make build/odegen || exit 1
T=$(mktemp -d "${TMPDIR:-/tmp}/odegen-gpu-output.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failed=0
passed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
ok() { passed=$((passed + 1)); echo "ok: $*"; }

. tools/hdf5_vars.sh   # H5VARS, have_h5: the system's HDF5 (pkg-config), else the bundle in .hdf5/ (tools/hdf5_bundle.sh)
$PY -c 'import h5py' 2>/dev/null || { [ $have_h5 = 1 ] && echo "(no h5py for $PY: the HDF5 files are written but not read back)"; }

build() {   # build MODEL: generates and builds build/… into $T/MODEL with nvcc
    build/odegen "models/$1.ode" -o "$T/$1" >/dev/null 2>"$T/$1.log" &&
        make -C "$T/$1" ARCH="$ARCH" "${H5VARS[@]}" >>"$T/$1.log" 2>&1 || { fail "building $1: $(tail -5 "$T/$1.log")"; return 1; }
}
build duffing || exit 1
build valve || exit 1
D=$T/duffing/duffing
V=$T/valve/valve
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')

# 1. Chunks, balancing, devices: the same bytes.
args=(--quiet --backend gpu --scan 'k=lin(0.2,0.3,20000)' --transient 20 --recorded 4 --fields y1,y2,k)
"$D" "${args[@]}" -o "$T/one.csv" && "$D" "${args[@]}" --chunk 3001 -o "$T/chunks.csv" &&
    "$D" "${args[@]}" --chunk 3001 --balance thread -o "$T/balanced.csv" || fail "duffing on the GPU"
cmp -s "$T/one.csv" "$T/chunks.csv" && ok "7 chunks of 3001 (two solvers alternating) = one chunk, byte for byte" ||
    fail "chunks of 3001 differ from one chunk"
cmp -s "$T/one.csv" "$T/balanced.csv" && ok "load-balanced chunks = one chunk" || fail "balanced chunks differ"
if [ "$gpus" -ge 2 ]; then
    "$D" "${args[@]}" --devices 0,1 --chunk 5000 -o "$T/two.csv" && cmp -s "$T/one.csv" "$T/two.csv" &&
        ok "two GPUs = one GPU, byte for byte" || fail "two GPUs differ from one"
fi

# 2. The scan made on the device: the CPU's numbers, exactly.
sargs=(--quiet --scan 'k=log(0.2,0.3,37)' --scan 'B=list(0.1,0.35,0.5)' --scan 'y1=lin(-1,1,11)' --transient 0 --recorded 1
       --fields k,B,t0,t1)
"$D" "${sargs[@]}" --backend gpu -o "$T/scan_gpu.csv" && "$D" "${sargs[@]}" --backend cpu -o "$T/scan_cpu.csv" &&
    cmp -s <(cut -d, -f1-6 "$T/scan_gpu.csv") <(cut -d, -f1-6 "$T/scan_cpu.csv") &&
    ok "scan values and windows made on the GPU = the CPU's, bit for bit ($(($(wc -l <"$T/scan_gpu.csv") - 1)) systems)" ||
    fail "scan values made on the GPU differ from the CPU's: $(diff <(cut -d, -f1-6 "$T/scan_gpu.csv") <(cut -d, -f1-6 "$T/scan_cpu.csv") | head -3)"

# 3. GPU against CPU, short integrations.
cargs=(--quiet --scan 'k=lin(0.2,0.3,4000)' --transient 2 --recorded 3)
compare() {   # compare A.csv B.csv TOL WHAT
    $PY - "$@" <<'EOF'
import csv, sys
a, b, tol, what = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
ra, rb = list(csv.reader(open(a))), list(csv.reader(open(b)))
assert ra[0] == rb[0] and len(ra) == len(rb), "%s: headers or row counts differ" % what
worst = 0.0
for x, y in zip(ra[1:], rb[1:]):
    assert x[:2] == y[:2] and x[-1] == y[-1], "%s: row %s: %s vs %s" % (what, x[:2], x, y)
    for u, v in zip(x[2:-1], y[2:-1]):
        u, v = float(u), float(v)
        worst = max(worst, abs(u - v) / (1 + abs(v)))
assert worst <= tol, "%s: largest difference %.3g > %g" % (what, worst, tol)
print("ok: %s: %d rows, same statuses, largest relative difference %.2g" % (what, len(ra) - 1, worst))
EOF
}
"$D" "${cargs[@]}" --backend gpu -o "$T/short_gpu.csv" && "$D" "${cargs[@]}" --backend cpu -o "$T/short_cpu.csv" &&
    compare "$T/short_gpu.csv" "$T/short_cpu.csv" 1e-9 "Duffing RK4, GPU against CPU" && passed=$((passed + 1)) ||
    fail "Duffing GPU against CPU"
vargs=(--quiet --scan 'q=lin(0.5,8,600)' --transient 2 --recorded 3)
"$V" "${vargs[@]}" --backend gpu -o "$T/valve_gpu.csv" && "$V" "${vargs[@]}" --backend cpu -o "$T/valve_cpu.csv" &&
    compare "$T/valve_gpu.csv" "$T/valve_cpu.csv" 1e-6 "valve (RKCK45, events), GPU against CPU" && passed=$((passed + 1)) ||
    fail "valve GPU against CPU"

# 4. HDF5 on the GPU: its CSV's numbers.
if [ $have_h5 = 1 ]; then
    for m in D V; do
        bin=${!m}
        a=("${args[@]}")
        [ $m = V ] && a=(--quiet --backend gpu --scan 'q=lin(0.5,8,5000)' --transient 20 --recorded 4)
        "$bin" "${a[@]}" --chunk 1500 -o "$T/$m.h5" && "$bin" "${a[@]}" -o "$T/$m.csv" || fail "$(basename "$bin") -o .h5 on the GPU"
        if $PY -c 'import h5py' 2>/dev/null; then
            $PY tests/runtime/check_h5.py "$T/$m.h5" "$T/$m.csv" device=~GPU >"$T/check" && ok "$(basename "$bin"): $(cat "$T/check")" ||
                fail "$(basename "$bin"): HDF5 against CSV: $(cat "$T/check")"
        fi
    done
else
    echo "(no HDF5 for the runners: .h5 on the GPU untested; run tools/hdf5_bundle.sh where Debian's libhdf5-dev is, and carry .hdf5)"
fi

# 5. SIGTERM during a GPU run.
mkdir -p "$T/sig"
set -m
"$D" --quiet --backend gpu --scan 'k=lin(0.2,0.3,1048576)' --transient 1024 --recorded 32 -o "$T/sig/out.csv" 2>"$T/sig.err" &
pid=$!
sleep 3
kill -TERM $pid
wait $pid
rc=$?
set +m
[ $rc = 143 ] && [ -z "$(ls -A "$T/sig")" ] && ok "SIGTERM during a GPU run: status 143, nothing left" ||
    fail "SIGTERM on the GPU: status $rc, left: $(ls -A "$T/sig"), $(cat "$T/sig.err")"

# 6. The summary: CUDA's start-up apart.
"$D" --backend gpu --scan 'k=lin(0.2,0.3,30720)' --transient 8 --recorded 2 -o "$T/s.csv" 2>"$T/summary"
grep -Eq '^duffing: 30720 systems, [0-9]+ steps, [0-9.e+-]+ s \(CUDA start-up [0-9.e+-]+ s apart; integration [0-9.e+-]+ s, output [0-9.e+-]+ s\), GPU' "$T/summary" &&
    ok "summary: $(cat "$T/summary")" || fail "summary: $(cat "$T/summary")"

echo "gpu output: $passed passed, $failed failed"
[ $failed = 0 ]
