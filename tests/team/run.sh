#!/usr/bin/env bash
# tests/team/run.sh — a system integrated by a team of threads (templates/team*.h)
# on the CPU, under the host emulation of teams (emulate.c: lanes run in order
# and in reverse order between barriers; lanes at different barriers are reported):
#   1. the loop-form contract (test_contract.c): the model functions of
#      templates/example_team_model.h against the model written out;
#   2. the team integrator against the per-thread integrator (test_integrate.c),
#      loop form against written out, the CPU path and emulated teams of 1, 2, 4,
#      32 and 64 lanes: a model with sums (the example ring: the same bits for a
#      team of one, within 1e-7 otherwise), and MPGOS's ring of Duffing units
#      (no sums: the same bits for every team);
#   3. the window of tests/gpu/team.sh part 2's CPU comparison: the example ring
#      with cos off by 1 or 2 ulps (cos_ulps.h, three hashes: CUDA's cos against
#      glibc's) agrees with itself within 1e-9 over WINDOW_TOTAL per integration;
#      over the long window (total 20) the same difference is printed (it is
#      amplified to ~1e-3: a chaotic ring, not a fault).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${ODE_BUILD:-build/team-tests}
CC=${CC:-gcc}
mkdir -p "$B" || exit 1
WARN="-Wall -Wextra -Wshadow -Werror -Wno-unused-function -Wno-unused-parameter"
# (fortified, as Ubuntu's compilers are by default: emulate.c's switches of stacks must survive it)
FLAGS="-std=c11 -O1 -g -fopenmp -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2 $WARN -Itemplates -Itests/team"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
failed=0
run() {   # run NAME COMMAND…: one check, its output shown
    echo "== $1"
    shift
    "$@" || { echo "FAIL: $*"; failed=$((failed + 1)); }
}
build() { $CC $FLAGS "$@" -lm || { echo "FAIL: build $*"; failed=$((failed + 1)); return 1; }; }

# TEAM_PARTS: which parts run (default all): contract lu integrate window generated;
# TEAM_ONLY=TEXT: of the generated part, only the models whose titles hold TEXT (and not the
# checks of the whole part: the runs, the phase timers, the stencils found)
PARTS=${TEAM_PARTS:-contract lu integrate window generated}
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

part contract && build -c tests/team/ref_written.c -o "$B/ref_written.o" &&
    build tests/team/test_contract.c "$B/ref_written.o" -o "$B/test_contract" &&
    run "the loop-form contract under emulated teams" "$B/test_contract"

# integrate NAME WRITTEN LOOP EXACT SPEC EXPECT [FLAGS…]
integrate() {
    local name=$1 written=$2 loop=$3 exact=$4 spec=$5 expect=$6
    shift 6
    local tag
    tag=$(basename "$loop" .h)
    build "$@" -DMODEL_WRITTEN="\"$written\"" -c tests/team/run_written.c -o "$B/$tag.written.o" &&
        build "$@" -DMODEL_LOOP="\"$loop\"" -c tests/team/run_team.c -o "$B/$tag.team.o" &&
        build -DNAME="\"$name\"" -DEXACT="$exact" -DSPEC="$spec" -DEXPECT="$expect" tests/team/test_integrate.c \
            "$B/$tag.written.o" "$B/$tag.team.o" -o "$B/test_$tag" &&
        run "$name: teams against one thread" "$B/test_$tag"
}
part integrate && integrate "example ring (sums, events, hooks, sin/cos of t), RKCK45" example_team_written.h example_team_model.h 0 \
    '{4, 2, 0.0, 0.2, 20.0, 1, 2}' 'written_acc(3, 0) >= 10 && written_acc(0, 1) > 1'
part integrate && integrate "MPGOS's ring of 14 Duffing units (an event per unit), RKCK45" duffing_ring_written.h duffing_ring.h 1 \
    '{3, 3, 0.002, 0.02, 20.0, 1, 1}' 'written_acc(2, 13) >= 20 && written_steps(0) > 1000'

# the window (see the header; tests/gpu/team.sh's SHORTX is this scan): one ring written out,
# cos exact and off by up to 1 or 2 ulps
WINDOW_TOTAL=0.5
if part window && build -c tests/team/run_scan.c -o "$B/run_scan.o"; then
    w="-DMODEL_WRITTEN=\"example_team_written.h\""
    for v in "exact" "1 11" "2 22" "2 33"; do
        read -r ulps seed <<<"$v"
        inc=""
        [ "$ulps" != exact ] && inc="-include tests/team/cos_ulps.h -DCOS_ULPS=$ulps -DCOS_SEED=$seed"
        tag=${v// /_}
        build $w $inc -c tests/team/run_written.c -o "$B/ring_$tag.o" && build "$B/run_scan.o" "$B/ring_$tag.o" -o "$B/ring_$tag" ||
            continue
        for total in $WINDOW_TOTAL 20.0; do "$B/ring_$tag" "$B/ring_$tag.$total.bin" 512 2 0.0 0.2 $total 1 2 || echo "FAIL: ring $v"; done
    done
    build -o "$B/compare" tests/team/compare.c
    for tag in 1_11 2_22 2_33; do
        run "the example ring, cos off by ulps ($tag), total $WINDOW_TOTAL: within 1e-9" \
            "$B/compare" "$B/ring_$tag.$WINDOW_TOTAL.bin" "$B/ring_exact.$WINDOW_TOTAL.bin" 1e-9
        echo "   (total 20, not asserted: $("$B/compare" "$B/ring_$tag.20.0.bin" "$B/ring_exact.20.0.bin" 1e-9))"
    done
fi

# the loop-form LU (team_lu.h) on random matrices: dense, and bands
for k in "-DLU_KIND=0 -DN=37 -DKL=0 -DKU=0" "-DLU_KIND=1 -DN=50 -DKL=2 -DKU=3" "-DLU_KIND=1 -DN=40 -DKL=5 -DKU=1"; do
    rm -f "$B/lu.txt"
    part lu && build $k tests/team/test_lu.c -o "$B/test_lu" && run "the loop-form LU ($k)" "$B/test_lu" "$B/lu.txt" &&
        run "the loop-form LU against LAPACK ($k)" /usr/bin/python3 tests/team/lu_lapack.py "$B/lu.txt"
done

ROOT=$PWD
[ -x build/odegen ] || make -s build/odegen || exit 1
# generated NAME ODE SPEC EXPECT [ODEGEN-OPTIONS…]: the model generated for one thread per
# system and in loop form (the options: a layout), compared as above (EXACT: a written-out
# model's sums are its equations', the same in every lane).  GEN_TEAM=loop: the team's side
# keeps its arrays as loops (each lane its indices of an array line), GEN_REF=loop the
# thread's too (where the loop form's sums or constants differ from the written-out ones in
# the last bits), GEN_EXACT=0 for sums over arrays (another order in a team of two or more).
generated() {
    local name=$1 ode=$2 spec=$3 expect=$4
    shift 4
    local tag g ref=${GEN_REF:-written} team=${GEN_TEAM:-written} exact=${GEN_EXACT:-1}
    case "$name" in *"${TEAM_ONLY:-}"*) ;; *) return 0 ;; esac   # (TEAM_ONLY=TEXT: the models whose names hold it)
    tag=$(basename "$ode" .ode)_$team
    g="$ROOT/$B/gen"
    mkdir -p "$g"
    cp "$ode" "$g/${tag}_w.ode" && cp "$ode" "$g/${tag}_t.ode" || return
    (cd "$g" && "$ROOT/build/odegen" "${tag}_w.ode" -q -o "${tag}_w" --option layout=thread --option arrays="$ref" &&
        "$ROOT/build/odegen" "${tag}_t.ode" -q -o "${tag}_t" --option arrays="$team" "$@") || { failed=$((failed + 1)); return; }
    build -g0 -Wno-maybe-uninitialized -I"$g/${tag}_w" -DGENERATED="\"$g/${tag}_w/${tag}_w.cu\"" \
            -c tests/team/run_generated.c -o "$B/$tag.gw.o" &&
        build -g0 -Wno-maybe-uninitialized -I"$g/${tag}_t" -DGENERATED="\"$g/${tag}_t/${tag}_t.cu\"" \
            -c tests/team/run_generated.c -o "$B/$tag.gt.o" &&
        build -DNAME="\"$name\"" -DEXACT="$exact" -DSPEC="$spec" -DEXPECT="$expect" ${GEN_SIZES:+-DSIZES=$GEN_SIZES} \
            tests/team/test_integrate.c "$B/$tag.gw.o" "$B/$tag.gt.o" -lpthread -o "$B/test_gen_$tag" &&
        run "$name: generated, teams against one thread" "$B/test_gen_$tag"
}
part generated && generated "sums whose bounds are parameters, shifts by parameters (RK4)" tests/xpp/sums/sum_bounds.ode \
    '{8, 0, 1.0, 8.0, 2.0, 0, 1}' 'written_steps(0) > 10' --option layout=warp --option team=4
part generated && generated "the relief valve (events with stop, an impact, hooks), RKCK45" models/valve.ode \
    '{4, 0, 1.0, 9.0, 1e10, 3, 2}' 'written_steps(0) > 100' --option layout=warp --option team=4
part generated && generated "the Brusselator, 64 cells (Rodas5P, a band LU after renumbering)" tests/large/brusselator.ode \
    '{2, 1, 2.5, 3.5, 2.0, 0, 1}' 'written_steps(1) > 10' --option layout=block --option team=32
part generated && generated "eight stiff clusters of six species (Rodas5P, the sparse LU)" tests/large/stiff_clusters.ode \
    '{2, 0, 0.1, 0.3, 1.0, 0, 1}' 'written_steps(1) > 10' --option layout=warp --option team=8
part generated && generated "a stiff hub and 48 leaves (Rodas5P, the dense LU in loop form)" tests/large/stiff_hub.ode \
    '{2, 0, 0.3, 0.7, 1.0, 0, 1}' 'written_steps(1) > 10' --option layout=warp --option team=16

# teams over arrays kept as loops (each lane its indices of an array line)
part generated && GEN_TEAM=loop generated "the Duffing chain, 128 states as loops (RK4)" tests/team/chain64.ode \
    '{4, 0, 0.2, 0.3, 2.0, 0, 1}' 'written_steps(0) > 10' --option layout=warp --option team=32
part generated && GEN_TEAM=loop generated "MPGOS's ring of 64 units as loops, an event per unit (RKCK45)" \
    tests/team/ring64.ode '{3, 3, 0.002, 0.02, 20.0, 1, 1}' 'written_acc(2, 30) >= 3 && written_steps(0) > 100' \
    --option layout=block --option team=64
part generated && GEN_TEAM=loop generated "events of array lines as loops: a run, no run, runs of two (RKCK45)" \
    tests/team/event_runs.ode '{3, 0, 0.5, 1.5, 10.0, 0, 1}' 'written_steps(0) > 10' --option layout=warp --option team=8
if part generated && [ -z "${TEAM_ONLY:-}" ]; then   # … and the runs that comparison went through are the ones meant (emit_runs.c)
    f="$ROOT/$B/gen/event_runs_loop_t/event_runs_loop_t.cu"
    got="$(grep -o 'events [a-z]*[0-9]* … [a-z]*[0-9]*, .*one loop over' "$f" | cut -d, -f1 | tr '\n' ' ')"
    got="$got/ $(grep -o 'events [a-z]*[0-9]* … [a-z]*[0-9]* .*one body over' "$f" | cut -d' ' -f2-4 | tr '\n' ' ')"
    want="events pk0 … pk7 events sq0 … sq1 events sq2 … sq3 events sq4 … sq5 events sq6 … sq7 / pk0 … pk7 lv0 … lv7 sq0 … sq1 sq2 … sq3 sq4 … sq5 sq6 … sq7 "
    if [ "$got" = "$want" ]; then echo "events of array lines: the runs expected"
    else echo "FAILED: events of array lines: runs $got, expected $want"; failed=$((failed + 1)); fi
fi
if part generated && [ -z "${TEAM_ONLY:-}" ]; then   # the phase timers of bench/team_phases.py still find their places in a team kernel
    f="$ROOT/$B/gen/ring64_loop_t/ring64_loop_t.cu"
    cp "$f" "$B/phases.cu" && ${PY:-python3} bench/team_phases.py "$B/phases.cu" && [ "$(grep -c 'PB(' "$B/phases.cu")" = 15 ] &&
        echo "bench/team_phases.py: 15 places timed in the ring's team kernel" ||
        { echo "FAILED: bench/team_phases.py on the ring's team kernel"; failed=$((failed + 1)); }
fi
# (GEN_SIZES: the emulated teams; tiles of 8, 4, 2 and 1 positions, and 16 and 32 lanes that keep the loop form's)
part generated && GEN_TEAM=loop GEN_SIZES=0,1,2,4,8,16,32 generated "a stencil in tiles: a ring and a chain two wide, 8 positions (RK4)" \
    tests/team/tile_stencil.ode '{4, 0, 0.2, 0.4, 4.0, 0, 1}' 'written_steps(0) > 10' --option layout=warp --option team=4
part generated && GEN_TEAM=loop generated "a Hodgkin-Huxley cable of 100 compartments as loops, an event (DOPRI5)" \
    tests/large/hh_cable.ode '{2, 0, 0.5, 1.0, 2.0, 0, 1}' 'written_steps(0) > 10' --option layout=block --option team=128
part generated && GEN_TEAM=loop GEN_REF=loop GEN_EXACT=0 generated "Kuramoto's 100 oscillators as loops, mean fields by sums (DOPRI5)" \
    tests/large/kuramoto.ode '{3, 0, 0.5, 3.0, 5.0, 0, 1}' 'written_steps(0) > 10' --option layout=warp --option team=32
part generated && GEN_TEAM=loop GEN_REF=loop GEN_EXACT=0 generated "a special (conv) of an array temporary, a mean field, as loops" \
    tests/team/special_ring.ode '{3, 0, 0.1, 0.3, 5.0, 0, 1}' 'written_steps(0) > 10' --option layout=warp --option team=16

if part generated && [ -z "${TEAM_ONLY:-}" ]; then   # the stencils the generator found (emit_tile.c): the chain, the rings, not Kuramoto's sums
    tiles=""
    for t in tile_stencil chain64 ring64 kuramoto; do
        f="$ROOT/$B/gen/${t}_loop_t/${t}_loop_t.cu"
        tiles="$tiles $(grep -m1 -o 'define ODE_TILE_LEN [0-9]*' "$f" | cut -d' ' -f3)/$(grep -m1 -o 'define ODE_TILE_HALO [0-9]*' "$f" | cut -d' ' -f3)"
    done
    if [ "$tiles" = " 8/2 64/1 64/1 0/" ]; then echo "tiles: the stencils found (length/halo:$tiles)"
    else echo "FAILED: tiles: length/halo$tiles, expected 8/2 64/1 64/1 0/ (kuramoto: sums, no tiles)"; failed=$((failed + 1)); fi
fi

[ $failed = 0 ] && echo "team: all passed" || echo "team: $failed FAILED"
exit $((failed != 0))
