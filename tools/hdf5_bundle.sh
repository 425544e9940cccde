#!/usr/bin/env bash
# tools/hdf5_bundle.sh — HDF5's headers and static libraries, copied from this
# machine's Debian packages (libhdf5-dev, libaec-dev, zlib1g-dev) into one
# folder, for a machine that has a compiler but no HDF5 and no network (a GPU
# machine that is lent bare).  About 12 MB.
#
#   tools/hdf5_bundle.sh [DIR]          # default DIR: .hdf5 (git-ignored: add it to .git/info/exclude)
#
# Then, on the other machine, build a generated runner with it:
#   make -C MODELDIR HDF5_CFLAGS=-I$PWD/DIR/include \
#        HDF5_LIBS="$PWD/DIR/lib/libhdf5_hl.a $PWD/DIR/lib/libhdf5.a $PWD/DIR/lib/libsz.a $PWD/DIR/lib/libaec.a $PWD/DIR/lib/libz.a -ldl"
# (the line this script prints at the end).  Static libraries: the runner
# needs nothing of HDF5 at run time.
set -eu
DIR=${1:-.hdf5}
ARCH=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
SRC_INC=/usr/include/hdf5/serial
SRC_LIB=/usr/lib/$ARCH/hdf5/serial
for f in "$SRC_INC/hdf5.h" "$SRC_LIB/libhdf5.a" "$SRC_LIB/libhdf5_hl.a" "/usr/lib/$ARCH/libsz.a" "/usr/lib/$ARCH/libaec.a" \
         "/usr/lib/$ARCH/libz.a"; do
    [ -e "$f" ] || { echo "hdf5_bundle.sh: $f missing: sudo apt-get install libhdf5-dev libaec-dev zlib1g-dev" >&2; exit 1; }
done
rm -rf "$DIR"
mkdir -p "$DIR/include" "$DIR/lib"
cp -L "$SRC_INC"/*.h "$DIR/include/"
cp -L "$SRC_LIB/libhdf5.a" "$SRC_LIB/libhdf5_hl.a" "/usr/lib/$ARCH/libsz.a" "/usr/lib/$ARCH/libaec.a" "/usr/lib/$ARCH/libz.a" "$DIR/lib/"
case $DIR in /*) P=$DIR ;; *) P='$PWD'/$DIR ;; esac
echo "hdf5_bundle.sh: $(du -sh "$DIR" | cut -f1) in $DIR; build with:"
echo "  make -C MODELDIR HDF5_CFLAGS=-I$P/include HDF5_LIBS=\"$P/lib/libhdf5_hl.a $P/lib/libhdf5.a $P/lib/libsz.a $P/lib/libaec.a $P/lib/libz.a -ldl\""
