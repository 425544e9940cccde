#!/usr/bin/env bash
# tools/mpi_bundle.sh — Debian's OpenMPI unpacked into one folder, for a
# machine that has a compiler (and nvcc) but no MPI and no network (a GPU
# machine lent bare): `apt-get download` of openmpi-bin, libopenmpi3,
# openmpi-common, libopenmpi-dev (for mpi.h only) and the libraries they need,
# each unpacked with `dpkg -x` (nothing is installed, here or there).
#
#   tools/mpi_bundle.sh [DIR]          # default DIR: .mpi (git-ignored: .git/info/exclude)
#   tools/mpi_bundle.sh --check [DIR]  # that runners built with it use it alone (see below)
#
# Then, wherever DIR is (paths found from the folder itself):
#   . DIR/env.sh                       # PATH, LD_LIBRARY_PATH, OPAL_PREFIX and OpenMPI's other folders
#   make -C MODELDIR MPI=1             # mpicc -showme is the bundle's: MPI_CFLAGS, MPI_LIBS point into DIR
#   mpirun -n 2 MODELDIR/NAME …        # the bundle's mpirun, the bundle's libmpi
# Libraries every Linux has (glibc, libstdc++, zlib, libudev, …) are left out,
# and so are hwloc's plugins (X11, OpenCL, NVML: not needed to bind ranks) and
# ssh (one node).  Debian 12's packages need glibc 2.34 or later there.
#
# --check runs a model built with the bundle under its mpirun, in a mount
# namespace where the system's OpenMPI (its libraries, components, help
# files, configuration and programs) is hidden, and compares every library
# the ranks map against the bundle's: none may come from outside it.
set -eu
CHECK=0
if [ "${1:-}" = --check ]; then
    CHECK=1
    shift
fi
DIR=${1:-.mpi}
ARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)
MULTI=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)

if [ $CHECK = 0 ]; then
    command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
        { echo "mpi_bundle.sh: needs Debian's apt-get and dpkg" >&2; exit 1; }
    # The packages: these four, and what openmpi-bin and libopenmpi3 depend on, but for what every system has.
    BASE='^(libc6|libgcc-s1|libstdc\+\+6|gcc-[0-9]+-base|zlib1g|libcrypt1|liblzma5|libbz2-1\.0|libselinux1|libpcre2-.*|libtinfo6|libuuid1|libudev1|libmd0|libbsd0|libssl3|libatomic1|debconf|cdebconf|dpkg|adduser|passwd|tar|install-info|readline-common|libreadline8|openssh-client|libpam.*|libaudit.*|libsemanage.*|libsepol.*|libnewt.*|libslang.*|libtextwrap.*|libdebian-installer.*|libhwloc-plugins|libx11-.*|libx11|libxau6|libxcb1|libxdmcp6|libxext6|libxnvctrl0|ocl-icd-libopencl1|libicu[0-9]+|libxml2|libedit2|libfido2-.*|libcbor.*|libgssapi-krb5-2|libk5crypto3|libkrb5-3|libkrb5support0|libkeyutils1|libcom-err2|libcap-ng0|libpciaccess0|libacl1|libdb5\.3|libzstd1)$'
    DEPS=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
        --no-enhances openmpi-bin libopenmpi3 | grep -v '^ ' | grep -v '^<' | sort -u | grep -Ev "$BASE")
    PKGS=$(printf '%s\n' $DEPS openmpi-common libopenmpi-dev | sort -u)
    rm -rf "$DIR"
    mkdir -p "$DIR/debs"
    (cd "$DIR/debs" && apt-get download $PKGS >download.log 2>&1) ||
        { echo "mpi_bundle.sh: apt-get download failed:" >&2; cat "$DIR/debs/download.log" >&2; exit 1; }
    for deb in "$DIR"/debs/*.deb; do dpkg -x "$deb" "$DIR"; done
    # What C programs never use: Fortran and Java bindings, OpenSHMEM, documentation.
    L=$DIR/usr/lib/$MULTI
    rm -rf "$DIR/debs" "$DIR"/usr/share/{doc,man,lintian,javascript} "$L/fortran" "$L"/openmpi/include/{openshmem,openmpi} \
        "$L"/libmpi_java* "$L"/libmpi_mpifh* "$L"/libmpi_usempi* "$L"/liboshmem* "$L"/openmpi/lib/lib{mpi_java,mpi_mpifh,mpi_usempi,oshmem}* \
        "$L"/openmpi/lib/openmpi3/*oshmem* "$L"/openmpi/lib/openmpi3/mca_{atomic,memheap,scoll,spml,sshmem}_*
    # mpirun and mpicc are links through /etc/alternatives: links of the bundle's own instead.
    mkdir -p "$DIR/bin"
    ln -sf ../usr/bin/orterun "$DIR/bin/mpirun"
    ln -sf ../usr/bin/orterun "$DIR/bin/mpiexec"
    for w in mpicc mpicxx mpic++; do ln -sf ../usr/bin/opal_wrapper "$DIR/bin/$w"; done
    # Library links that Debian makes through its alternatives too.
    for f in "$L"/openmpi/lib/lib*.so; do [ -e "$L/$(basename "$f")" ] || ln -sf "openmpi/lib/$(basename "$f")" "$L/$(basename "$f")"; done
    cat >"$DIR/env.sh" <<EOF
# Source this file (. $DIR/env.sh) to use the OpenMPI of this folder (tools/mpi_bundle.sh).
B=\$(cd "\$(dirname "\${BASH_SOURCE[0]:-\$0}")" && pwd)
export OPAL_PREFIX=\$B/usr
export OPAL_EXEC_PREFIX=\$B/usr
export OPAL_BINDIR=\$B/usr/bin
export OPAL_LIBDIR=\$B/usr/lib/$MULTI/openmpi/lib
export OPAL_INCLUDEDIR=\$B/usr/lib/$MULTI/openmpi/include
export OPAL_DATADIR=\$B/usr/share
export OPAL_PKGDATADIR=\$B/usr/share/openmpi
export OPAL_SYSCONFDIR=\$B/etc/openmpi
export PATH=\$B/bin:\$B/usr/bin:\$PATH
export LD_LIBRARY_PATH=\$B/usr/lib/$MULTI/openmpi/lib:\$B/usr/lib/$MULTI:\$B/lib/$MULTI\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export PMIX_INSTALL_PREFIX=\$B/usr/lib/$MULTI/pmix2
export PMIX_MCA_mca_base_component_path=\$B/usr/lib/$MULTI/pmix2/lib/pmix
unset B
EOF
    echo "mpi_bundle.sh: $(du -sh "$DIR" | cut -f1) in $DIR ($(printf '%s ' $PKGS)); use it with:"
    echo "  . $DIR/env.sh && make -C MODELDIR MPI=1 && mpirun -n 2 MODELDIR/NAME ..."
    exit 0
fi

# ------------------------------------------------------------------ --check
[ -f "$DIR/env.sh" ] || { echo "mpi_bundle.sh --check: no bundle in $DIR (run tools/mpi_bundle.sh $DIR first)" >&2; exit 1; }
DIR=$(cd "$DIR" && pwd)
unshare -m true 2>/dev/null || { echo "mpi_bundle.sh --check: needs a mount namespace (unshare -m, as root)" >&2; exit 1; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/mpi-bundle-check.XXXXXX")
trap 'rm -rf "$T"' EXIT
cat >"$T/check.sh" <<EOF
set -eu
# Hide the system's OpenMPI: its libraries, components, headers, help files, configuration, programs.
empty=$T/empty
mkdir -p \$empty
for d in /usr/lib/$MULTI/openmpi /usr/share/openmpi /etc/openmpi /usr/lib/$MULTI/pmix2; do
    [ -d \$d ] && mount --bind \$empty \$d
done
for f in /usr/lib/$MULTI/libmpi.so* /usr/lib/$MULTI/libopen-*.so* /usr/lib/$MULTI/libpmix.so* \
         /usr/bin/orterun /usr/bin/orted /usr/bin/opal_wrapper /usr/bin/mpirun.openmpi /usr/bin/mpicc.openmpi; do
    [ -e \$f ] && [ ! -L \$f ] && mount --bind /dev/null \$f
done
. $DIR/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
echo "mpicc: \$(command -v mpicc) -> \$(mpicc -showme:link)"
echo "mpirun: \$(command -v mpirun), \$(mpirun --version | head -1)"
cd $T
$ROOT/build/odegen $ROOT/models/duffing.ode -o duffing -q
make -C duffing BACKEND=cpu MPI=1 >make.log 2>&1 || { tail -20 make.log; exit 1; }
duffing/duffing --quiet --scan 'k=lin(0.2,0.3,400)' --transient 50 --recorded 2 -o one.csv
mpirun -n 2 duffing/duffing --scan 'k=lin(0.2,0.3,400)' --transient 50 --recorded 2 --checkpoint ck -o two.csv
cmp one.csv two.csv && echo "2 ranks: the CSV of one process, byte for byte"
# The libraries the ranks map: every one the bundle has must come from it.
mpirun -n 2 duffing/duffing --quiet --scan 'k=lin(0.2,0.3,4000)' --transient 200 --recorded 1 -o /dev/null &
sleep 2
bad=0
for p in \$(pgrep -f 'duffing/duffing --quiet'); do
    for lib in \$(awk '\$6 ~ /\\.so/ { print \$6 }' /proc/\$p/maps | sort -u); do
        name=\$(basename \$lib)
        case \$lib in $DIR/*) continue ;; esac
        if [ -n "\$(find $DIR -name "\$name" -print -quit)" ]; then echo "outside the bundle: \$lib"; bad=1; fi
    done
    echo "rank \$p maps \$(awk '\$6 ~ /\\.so/ { print \$6 }' /proc/\$p/maps | sort -u | grep -c "^$DIR") libraries of the bundle"
done
wait
[ \$bad = 0 ] && echo "no library of the bundle came from elsewhere"
EOF
unshare -m bash "$T/check.sh"
