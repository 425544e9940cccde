# tests/mpi/checkpoint_checks.sh — what a checkpoint refuses, sourced by
# tests/mpi/run.sh in its folder of checkpoints ($T), with its runner $U (ASan,
# UBSan), scan "${S[@]}", reference ref.csv (ref.h5) and helpers (ok, fail,
# done_in, refuse's E):
#   1. one run at a time: a second run on a checkpoint that a live run holds is
#      refused before it touches anything, and the live run ends as it would;
#   2. a resume under another -o name removes the killed run's temporary file,
#      and a run on the checkpoint replaces one that no index named;
#   3. files of the checkpoint's names that odegen did not write (a file, a
#      symbolic link, a pipe) are refused and left as they are; its own
#      leftovers are used;
#   4. an index that is not a regular file, or larger than an index can be, is
#      refused without being read (under an address-space limit);
#   5. a changed checkpoint is refused, saying what is wrong, and writes no
#      output: a byte of the rows (CSV and HDF5), a block's first system (with
#      and without its checksums redone), `done` raised with its check redone;
#   6. the build is part of the run's identity: a runner built with -ffast-math,
#      or from a generated source of another hash, is refused, naming what
#      differs; the hash changes with the code, not with where the .ode lies.

# Other builds of tests/mpi/uneven.ode (-O1, as $U, but without ASan, which
# cannot run under an address-space limit): with -ffast-math; generated with
# another method; and only generated, from another folder.
(cd "$OLDPWD/tests/mpi" && "$ODEGEN" uneven.ode -o "$T/rel" -q) &&
    "$ODEGEN" "$OLDPWD/tests/mpi/uneven.ode" -o dp -q --option hgrow=4 &&
    "$ODEGEN" "$OLDPWD/tests/mpi/uneven.ode" -o fm -q && cp -r fm gh &&
    make -C fm BACKEND=cpu CFLAGS="-O1 -ffast-math" >fm.log 2>&1 &&
    sed -i 's/^#define ODE_GENERATED_HASH "[0-9a-f]*"/#define ODE_GENERATED_HASH "0123456789abcdef"/' gh/uneven.cu &&
    make -C gh BACKEND=cpu CFLAGS=-O1 >gh.log 2>&1 ||
    fail "building the other runners: $(tail -5 fm.log gh.log 2>&1)"

# killed NAME ARGS…: a checkpoint NAME of the scan with some systems done
# (waits for them), the run killed with SIGKILL.
killed() {
    local name=$1
    shift
    rm -f "$name" "$name.rows"
    "$U" "${S[@]}" --checkpoint "$name" --checkpoint-every 0.1 "$@" >/dev/null 2>&1 &
    local pid=$!
    for _ in $(seq 600); do
        [ "$(done_in "$name")" -gt 0 ] 2>/dev/null && break
        sleep 0.05
    done
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    [ "$(done_in "$name")" -gt 0 ] 2>/dev/null || fail "no systems done in checkpoint $name before the kill"
}

echo "== checkpoints: one run at a time"
# The live run is stopped while the second one tries (so that it is live
# whatever the machine's speed), once with the same output name (whose
# temporary file the second run must not remove), once with another.
rm -f ck ck.rows out.csv out2.csv
"$U" "${S[@]}" --checkpoint ck -o out.csv 2>err1 &
pid=$!
for _ in $(seq 600); do [ -e ck ] && break; sleep 0.05; done
kill -STOP $pid
for o in out.csv out2.csv; do
    timeout 60 "$U" "${S[@]}" --checkpoint ck --resume -o $o 2>err
    rc=$?
    [ $rc = 1 ] && [ "$(cat err)" = "$E checkpoint 'ck' is in use by another run (which holds 'ck.rows')" ] &&
        [ ! -e out2.csv ] && [ -n "$(ls -A | grep '^\.out\.csv\.')" ] && ok ||
        fail "a checkpoint in use, -o $o: status $rc, $(cat err), files: $(ls -A)"
done
kill -CONT $pid
wait $pid
rc=$?
[ $rc = 0 ] && cmp -s out.csv ref.csv && [ ! -e ck ] && [ ! -e ck.rows ] && ok ||
    fail "the live run, after a second one was refused: status $rc, $(cat err1), files: $(ls -A)"

echo "== checkpoints: a resume under another output name removes the killed run's temporary file"
rm -f first.csv second.csv
killed ck -o first.csv
[ -n "$(ls -A | grep '^\.first\.csv\.')" ] || fail "the killed run left no temporary file (nothing to test)"
timeout 300 "$U" "${S[@]}" --checkpoint ck --resume -o second.csv 2>err
rc=$?
[ $rc = 0 ] && cmp -s second.csv ref.csv && [ -z "$(ls -A | grep '^\.first\.csv\.')" ] && [ ! -e ck ] && ok ||
    fail "resumed under another name: status $rc, $(cat err), files: $(ls -A)"

echo "== checkpoints: files of its names that odegen did not write are refused and left alone"
printf 'not a checkpoint\n' >keep
# other NAME 'message' ARGS…: refused with status 1 and the message; `keep`,
# NAME (a file or a link) and the absence of the others as they were.
other() {
    local name=$1 want=$2
    shift 2
    local before
    before=$(ls -l --time-style=+ "$name" 2>&1)
    rm -f out.csv
    timeout 60 "$U" "${S[@]}" -o out.csv "$@" 2>err
    local rc=$?
    if [ $rc = 1 ] && [ "$(cat err)" = "$E $want" ] && [ "$(cat keep)" = "not a checkpoint" ] &&
        [ "$(ls -l --time-style=+ "$name" 2>&1)" = "$before" ] && [ ! -e out.csv ] &&
        [ -z "$(ls -A | grep -E '^(ck|ck\.rows|ck\.tmp)$' | grep -vx "$name")" ]; then
        ok
    else
        fail "$name, odegen's or not: $* -> status $rc, $(cat err) (wanted: $want), keep: $(cat keep), files: $(ls -A)"
    fi
}
rm -f ck ck.rows ck.tmp
cp keep ck.rows
other ck.rows "'ck.rows' exists and was not written by odegen: refusing to overwrite it; remove it or give another --checkpoint name" \
    --checkpoint ck
other ck.rows "'ck.rows' exists and was not written by odegen: refusing to overwrite it; remove it or give another --checkpoint name" \
    --checkpoint ck --resume
rm ck.rows
ln -s keep ck.rows
other ck.rows "'ck.rows' is a symbolic link, not a file this checkpoint wrote: refusing to write through it; remove it or give another --checkpoint name" \
    --checkpoint ck
rm ck.rows
mkfifo ck.rows
other ck.rows "'ck.rows' is not a regular file, not one this checkpoint wrote: refusing to write to it; give another --checkpoint name" \
    --checkpoint ck
rm ck.rows
ln -s keep ck
other ck "checkpoint 'ck' is a symbolic link: give the checkpoint's own name" --checkpoint ck --resume
rm ck
cp keep ck.tmp
other ck.tmp "cannot write checkpoint 'ck': 'ck.tmp' exists and was not written by odegen; remove it or give another --checkpoint name" \
    --checkpoint ck
rm ck.tmp
# Its own leftovers: the log of a run whose index was removed, the index's
# temporary file of a commit that was killed.
killed ck
rm ck
printf 'odegen checkpoint 2\nkilled while written' >ck.tmp
timeout 300 "$U" "${S[@]}" --checkpoint ck -o out.csv 2>err && cmp -s out.csv ref.csv &&
    [ -z "$(ls -A | grep -E '^ck(\.rows|\.tmp)?$')" ] && ok || fail "odegen's own leftovers: $(cat err), files: $(ls -A)"
# … and killed between making the temporary index and writing it: empty, or a beginning of the mark
# (the MPI runner ended by --mpi-timeout left one so, and its resume refused it as another's)
for left in "" "odegen chec"; do
    killed ck
    rm ck
    printf '%s' "$left" >ck.tmp
    timeout 300 "$U" "${S[@]}" --checkpoint ck -o out.csv 2>err && cmp -s out.csv ref.csv &&
        [ -z "$(ls -A | grep -E '^ck(\.rows|\.tmp)?$')" ] && ok ||
        fail "a temporary index of ${#left} bytes left by a kill: $(cat err), files: $(ls -A)"
done

# A run killed after making its temporary output, before its index named it (too short a moment
# to hit by timing; made here by removing the index and log that a later kill left): the
# temporary's name comes from the checkpoint's, so the next run on the checkpoint replaces it.
killed ck -o out.csv
left=$(ls -A | grep '^\.out\.csv\.')
rm -f ck ck.rows out.csv
timeout 300 "$U" "${S[@]}" --checkpoint ck -o out.csv 2>err && cmp -s out.csv ref.csv && [ -n "$left" ] &&
    [ -z "$(ls -A | grep '^\.out\.csv\.')" ] && ok ||
    fail "a killed run's temporary ('$left') not named by an index: $(cat err), files: $(ls -A)"

echo "== checkpoints: an index that is not a regular file, or too large, is refused unread"
rm -f ck ck.rows
mkfifo ck
timeout 60 "$U" "${S[@]}" --checkpoint ck --resume -o out.csv 2>err
rc=$?
[ $rc = 1 ] && [ "$(cat err)" = "$E checkpoint 'ck' is not a regular file: give the checkpoint's own name" ] &&
    [ ! -e ck.rows ] && ok || fail "a pipe as the index: status $rc, $(cat err)"
rm -f ck
# 4 GiB (sparse) under a 2 GiB address-space limit: a runner that read it
# whole would fail for memory.  (The runners built without ASan, which cannot
# run under such a limit.)
for lead in '' 'odegen checkpoint 2\n'; do
    rm -f ck ck.rows out.csv
    printf "$lead" >ck
    truncate -s 4G ck
    [ -n "$lead" ] && want="checkpoint 'ck' is damaged: 4294967296 bytes, more than the 64 MiB an index can take; remove it to start again" ||
        want="'ck' is not an odegen checkpoint (it does not begin as one): remove it to start again, or give another --checkpoint file"
    (ulimit -v 2000000; exec timeout 60 fm/uneven "${S[@]}" --checkpoint ck --resume -o out.csv) 2>err
    rc=$?
    [ $rc = 1 ] && [ "$(cat err)" = "$E $want" ] && [ ! -e out.csv ] && ok ||
        fail "a 4 GiB index${lead:+ that begins as one}: status $rc, $(cat err)"
done
rm -f ck ck.rows

echo "== checkpoints: a changed checkpoint is refused, saying what is wrong, and writes nothing"
rm -f .out.csv.* .out.h5.*   # (killed runs' of the tests before)
killed ck
cp ck ck.index
cp ck.rows ck.log
# damaged 'message regex' OUTPUT: --resume refused with status 1 and the
# message (one line), no OUTPUT; the checkpoint then put back.
damaged() {
    local want=$1 out=$2
    rm -f "$out"
    timeout 300 "$U" "${S[@]}" --checkpoint ck --resume -o "$out" 2>err
    local rc=$?
    if [ $rc = 1 ] && grep -Eq -- "^$E $want\$" err && [ "$(wc -l <err)" = 1 ] && [ ! -e "$out" ] &&
        [ -z "$(ls -A | grep "^\.$out\.")" ]; then
        ok
    else
        fail "a changed checkpoint: status $rc, $(cat err) (wanted /$want/), files: $(ls -A)"
    fi
    cp ck.index ck
    cp ck.log ck.rows
}
DAMAGED="checkpoint 'ck' is damaged:"
AGAIN="; remove it to start again"
forge() { $PY "$FORGE" ck "$@" || fail "forge_checkpoint.py ck $*"; }
forge byte 100    # a byte of the first block's rows
damaged "$DAMAGED the block at byte 24 of 'ck.rows' \(systems 0 to [0-9]+\) does not match its checksum$AGAIN" out.csv
forge byte 24     # the first block's first system, 0 -> 1
damaged "$DAMAGED the block at byte 24 of 'ck.rows' \(systems 1 to [0-9]+\) does not match its checksum$AGAIN" out.csv
forge first 0 5   # the same block's, 0 -> 5, with every checksum and the index redone
damaged "$DAMAGED the block at byte 24 of 'ck.rows' holds system 5, rep 0, where system 0, rep 0 comes next$AGAIN" out.csv
n=$(done_in ck)
forge done $((n + 55))   # done raised, the index's check redone
damaged "$DAMAGED its index says $((n + 55)) systems are done, but 'ck.rows' holds the rows of $n$AGAIN" out.csv
if [ $have_h5 = 1 ]; then
    killed ck -o out.h5
    cp ck ck.index
    cp ck.rows ck.log
    forge byte 100
    damaged "$DAMAGED the block at byte 24 of 'ck.rows' \(systems 0 to [0-9]+\) does not match its checksum$AGAIN" out.h5
fi
rm -f ck ck.rows ck.index ck.log .out.*

echo "== checkpoints: the build is part of the run's identity"
# Another build of the same generated source, with -ffast-math; the same
# model generated with another method (--option: the .ode text unchanged).
# (-O1 as $U, without ASan: the other facts of the build are the same.)
killed ck
cp ck ck.index
# refused_by RUNNER 'message regex': --resume refused with status 1, the checkpoint unchanged, no output.
refused_by() {
    rm -f out.csv
    timeout 300 "$1" "${S[@]}" --checkpoint ck --resume -o out.csv 2>err
    local rc=$?
    [ $rc = 1 ] && grep -Eq -- "$2" err && [ "$(wc -l <err)" = 1 ] && cmp -s ck ck.index && [ ! -e out.csv ] && ok ||
        fail "resumed by $1: status $rc, $(cat err) (wanted /$2/)"
}
refused_by fm/uneven "^$E checkpoint 'ck' is of another run: build 'fast-math=no, finite-math-only=no, associative-math=no, reciprocal-math=no, no-signed-zeros=no' in the checkpoint, 'fast-math=yes, finite-math-only=yes, associative-math=yes, reciprocal-math=yes, no-signed-zeros=yes' in this run; give"
# A generated source of another hash (as another odegen's: here the same
# code with the hash line changed), built as $U was.
refused_by gh/uneven "^$E checkpoint 'ck' is of another run: generated 'source hash [0-9a-f]{16}' in the checkpoint, 'source hash 0123456789abcdef' in this run; give"
# The hash: of the code (another @ option's code has another), not of where
# the .ode file lies (a path in comments and #line only).
h1=$(grep '^#define ODE_GENERATED_HASH' plain/uneven.cu)
h2=$(grep '^#define ODE_GENERATED_HASH' rel/uneven.cu)
h3=$(grep '^#define ODE_GENERATED_HASH' dp/uneven.cu)
[ -n "$h1" ] && [ "$h1" = "$h2" ] && ! cmp -s plain/uneven.cu rel/uneven.cu && [ -n "$h3" ] && [ "$h3" != "$h1" ] && ok ||
    fail "the generated hash: '$h1' (from its folder), '$h2' (from another), '$h3' (hgrow=4)"
rm -f ck ck.rows ck.index keep
