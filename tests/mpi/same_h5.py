#!/usr/bin/env python3
"""same_h5.py — two HDF5 files of the runner hold the same datasets: the same
names, shapes, types (enum names included) and values, bit for bit (NaN
equal to NaN).  Attributes may differ only where a run's circumstances show
(device, command_line).  Read with h5py alone (Debian's python3-h5py).

    same_h5.py A.h5 B.h5        prints one line; exit status 1 on a difference
"""
import sys

import h5py
import numpy as np

LOCAL = {"device", "command_line"}


def datasets(f):
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj) if isinstance(obj, h5py.Dataset) else None)
    return out


def main():
    a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
    da, db = datasets(a), datasets(b)
    if sorted(da) != sorted(db):
        sys.exit(f"same_h5: FAIL: datasets {sorted(da)} against {sorted(db)}")
    for name in da:
        x, y = da[name], db[name]
        if x.shape != y.shape or x.dtype != y.dtype or h5py.check_enum_dtype(x.dtype) != h5py.check_enum_dtype(y.dtype):
            sys.exit(f"same_h5: FAIL: {name}: {x.shape} {x.dtype} against {y.shape} {y.dtype}")
        u, v = x[...], y[...]
        if u.dtype.kind == "O":   # variable-length strings (the attractor table's kinds)
            same = u.tolist() == v.tolist()
        else:
            same = u.view(np.uint8).tobytes() == v.view(np.uint8).tobytes() if u.size else True
        if not same:
            sys.exit(f"same_h5: FAIL: {name} differs")
    for key in set(a.attrs) | set(b.attrs):
        if key not in LOCAL and str(a.attrs.get(key)) != str(b.attrs.get(key)):
            sys.exit(f"same_h5: FAIL: attribute {key}: {a.attrs.get(key)!r} against {b.attrs.get(key)!r}")
    print(f"same_h5: {len(da)} datasets equal, bit for bit")


main()
