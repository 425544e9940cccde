# tools/hdf5_vars.sh — sourced by the GPU tests and benchmarks: the make
# variables that build a generated runner with HDF5 where the system has none
# but the bundle in .hdf5/ does (tools/hdf5_bundle.sh).  Sets H5VARS (an
# array, empty when the system's HDF5 serves or there is none) and have_h5 (1
# when the runners will have HDF5).
H5VARS=()
have_h5=0
if pkg-config --exists hdf5-serial 2>/dev/null || pkg-config --exists hdf5 2>/dev/null; then
    have_h5=1
elif [ -f .hdf5/include/hdf5.h ]; then
    H5VARS=(HDF5_CFLAGS=-I$PWD/.hdf5/include
            "HDF5_LIBS=$PWD/.hdf5/lib/libhdf5_hl.a $PWD/.hdf5/lib/libhdf5.a $PWD/.hdf5/lib/libsz.a $PWD/.hdf5/lib/libaec.a $PWD/.hdf5/lib/libz.a -ldl")
    have_h5=1
fi
