#!/usr/bin/env bash
# tests/noise/repro.sh — a system's random numbers, and so its whole result,
# never depend on how the work is split (issue 22, item 1).  One model with
# every kind of draw (Wiener increments, ran() and normal() of the
# right-hand side, of an aux, of an event's block, of a hook, of an
# accessory's initial value, a markov chain; events that shorten steps: the
# Brownian bridge), and one on the fixed-step fast path (weak2), each run
#   1. with --chunk 1, 7 and all, and 1 and 2 OpenMP threads: the same CSV,
#      byte for byte; another seed changes it, --seed N is --set seed=N;
#   2. killed with SIGKILL and resumed from its checkpoint: the same CSV; a
#      checkpoint of another seed is refused, saying so;
#   3. with mpirun -n 1 and -n 3 (make MPI=1; skipped without mpicc and
#      mpirun): the same CSV;
#   4. the library: a pool entry draws as the runner's system of its index,
#      whatever slot it lands in (tests/noise/pool_test.c).
# Exit status 0 when everything passed.
set -u
cd "$(dirname "$0")/../.." || exit 1
source tests/lib/suite.sh
suite_start noise                         # ODEGEN, T, fail, ok (tests/lib/suite.sh)
ROOT=$PWD
unset OMP_NUM_THREADS
ENV_NOISE='^\[hwloc/linux\] failed to find sysfs cpu topology directory, aborting linux discovery\.$'

cat >"$T/draws.ode" <<'EOF'
# every kind of draw, events that shorten steps, a markov chain
wiener w
par mu=1.2, sig=0.4, k=0
q = normal(0, 0.05)
v' = mu*(1 + z) + sig*w + q - 0.1*v
u' = -u + 0.2*w
aux jitter = v + ran(0.01)
acc spikes, first=normal(0, 1)
global 1 v-1 {v = ran(0.1); spikes = spikes + 1}
on end { u = u + normal(0, 0.001) }
markov z 2
{0} {0.3}
{0.6} {0}
@ meth=euler, dt=0.01, total=5
repeat transient=1, record=2
record v, u, z, jitter, spikes, first
done
EOF
cat >"$T/fast.ode" <<'EOF'
# the fixed-step fast path (no events): weak order 2, two Wiener processes
wiener w1, w2
par k=0
x' = -x + 0.5*y + 0.3*y*w1
y' = -0.5*x - y + 0.3*x*w2
init x=1, y=0.5
@ meth=weak2, dt=0.05, total=2
repeat record=2
done
EOF

SAN="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
build() {   # build NAME DIR MAKEARGS…
    local name=$1 dir=$2
    shift 2
    (cd "$T" && "$ODEGEN" "$name.ode" -o "$dir" -q) && make -C "$T/$dir" BACKEND=cpu "$@" >"$T/$dir.log" 2>&1 ||
        { fail "building $dir: $(tail -5 "$T/$dir.log")"; return 1; }
}

for model in draws fast; do
    build $model $model CFLAGS="$SAN" || continue
    R=$T/$model/$model
    S=(--quiet --scan 'k=lin(0,1,600)')
    timeout 300 "$R" "${S[@]}" -o "$T/$model.ref.csv" || { fail "$model: reference run"; continue; }
    echo "== $model: $(($(wc -l <"$T/$model.ref.csv") - 1)) rows"
    # 1. chunks and threads
    for way in "--chunk 1" "--chunk 7" "--chunk 600" "--chunk 7 threads=1" "--chunk 64 threads=2"; do
        threads=${way#*threads=}
        [ "$threads" = "$way" ] && threads=
        args=${way%% threads=*}
        OMP_NUM_THREADS=${threads:-2} timeout 300 "$R" "${S[@]}" $args -o "$T/$model.x.csv" &&
            cmp -s "$T/$model.x.csv" "$T/$model.ref.csv" && ok || fail "$model $way: not the reference CSV"
    done
    echo "   --chunk 1, 7, 600; 1 and 2 threads: the reference CSV byte for byte"
    timeout 300 "$R" "${S[@]}" --seed 99 -o "$T/$model.s99.csv" && ! cmp -s "$T/$model.s99.csv" "$T/$model.ref.csv" &&
        ok || fail "$model: --seed 99 gives the reference CSV"
    timeout 300 "$R" "${S[@]}" --set seed=99 --chunk 13 -o "$T/$model.set99.csv" &&
        cmp -s "$T/$model.set99.csv" "$T/$model.s99.csv" && ok || fail "$model: --set seed=99 is not --seed 99"
    echo "   --seed 99 changes every row; --set seed=99 --chunk 13 writes what --seed 99 does"

    # 2. killed and resumed
    killed() {   # killed ARGS…: a run with a checkpoint, killed with SIGKILL once systems are done
        # (up to 3 tries: on a loaded machine a run can end between two looks at its checkpoint)
        for _try in 1 2 3; do
            rm -f ck ck.rows out.csv
            OMP_NUM_THREADS=1 "$R" --quiet "$@" --chunk 20 --checkpoint ck --checkpoint-every 0 -o out.csv 2>err &
            local pid=$!
            for _ in $(seq 600); do grep -q '^done: [1-9]' ck 2>/dev/null && break; sleep 0.02; done
            kill -9 $pid 2>/dev/null
            wait $pid 2>/dev/null
            done_at=$(sed -n 's/^done: //p' ck 2>/dev/null)
            [ -e ck ] && return 0
        done
        fail "$model: the run ended before SIGKILL, 3 times: no checkpoint to resume"
        return 1
    }
    cd "$T" || exit 1
    killed "${S[@]:1}"
    timeout 300 "$R" "${S[@]}" --chunk 20 --checkpoint ck --resume -o out.csv 2>err
    if cmp -s out.csv "$model.ref.csv" && [ ! -e ck ]; then
        ok
        echo "   killed after ${done_at:-0} systems, resumed: the reference CSV"
    else
        fail "$model resumed: not the reference CSV ($(cat err))"
    fi
    # (a scan 100 times larger: on a loaded machine the 600 systems could end before the kill,
    # leaving no checkpoint to refuse)
    killed --scan 'k=lin(0,1,60000)'
    "$R" --quiet --scan 'k=lin(0,1,60000)' --chunk 20 --seed 5 --checkpoint ck --resume -o out.csv 2>err
    rc=$?
    if [ $rc = 1 ] && grep -q "checkpoint 'ck' is of another run: options '.*seed=12345678.*' in the checkpoint, '.*seed=5.*' in this run" err; then
        ok
        echo "   a checkpoint of another seed is refused: $(cut -c1-100 err)…"
    else
        fail "$model: resumed with another seed: status $rc, $(cat err)"
    fi
    rm -f ck ck.rows out.csv
    cd "$ROOT" || exit 1

    # 3. MPI
    if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
        build $model $model.mpi MPI=1 CFLAGS=-O2 || continue
        for n in 1 3; do
            timeout 300 mpirun -n $n "$T/$model.mpi/$model" "${S[@]}" --chunk 50 -o "$T/$model.mpi$n.csv" 2>"$T/err"
            rc=$?
            grep -Ev "$ENV_NOISE" "$T/err" >"$T/err.clean"
            [ $rc = 0 ] && [ ! -s "$T/err.clean" ] && cmp -s "$T/$model.mpi$n.csv" "$T/$model.ref.csv" && ok ||
                fail "$model: mpirun -n $n: status $rc, $(cat "$T/err.clean"), $(cmp "$T/$model.mpi$n.csv" "$T/$model.ref.csv" 2>&1)"
        done
        echo "   mpirun -n 1 and -n 3: the reference CSV"
    else
        echo "   (MPI: mpicc or mpirun not found: skipped)"
    fi
done

# 4. the library's pools: an entry draws as the runner's system of its index
if build draws lib CFLAGS=-O2; then
    cc -O2 -std=c11 -I"$T/lib" -o "$T/pool_test" "$ROOT/tests/noise/pool_test.c" "$T/lib/libdraws.a" -fopenmp -lm \
        2>"$T/cc.log" || fail "pool_test: $(cat "$T/cc.log")"
    "$T/draws/draws" --quiet --scan 'k=lin(0,1,600)' --recorded 2 --fields v,u,z,spikes,k -o "$T/pool_ref.csv" &&
        "$T/pool_test" "$T/pool_ref.csv" && ok || fail "the library's pools do not draw as the runner's systems"
fi

echo "noise reproducibility: $passed passed, $failed failed"
[ $failed = 0 ]
