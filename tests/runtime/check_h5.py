#!/usr/bin/env python3
"""check_h5.py — the runner's HDF5 file against its CSV of the same run,
read with h5py (Debian's python3-h5py) and, where installed, xarray (with the
h5netcdf and netCDF4 engines): no odegen code.

    check_h5.py FILE.h5 FILE.csv [KEY=VALUE …]

KEY=VALUE: attributes the file must have (a value given as ~TEXT must
contain TEXT).  Checks: one dataset per CSV field and `status`, shaped
(system, rep) with the dimensions named, values equal bit for bit to the
CSV's, statuses by their enum names, the coordinates system and rep, every
scan line as scan_<name> whose values give each system's value of a recorded
scanned field, and the attributes.  Prints one line; exit status 1 on the
first difference.
"""
import csv
import sys

import h5py
import numpy as np


def fail(msg):
    print("check_h5: FAIL: " + msg)
    sys.exit(1)


def main():
    h5_path, csv_path = sys.argv[1], sys.argv[2]
    wanted = dict(a.split("=", 1) for a in sys.argv[3:])
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    fields = header[2:-1]
    systems = 1 + max((int(r[0]) for r in rows), default=-1)
    f = h5py.File(h5_path, "r")
    record = int(f.attrs["record"])
    if int(f.attrs["systems"]) != systems and rows:
        fail("attribute systems = %s, CSV has %d systems" % (f.attrs["systems"], systems))
    systems = int(f.attrs["systems"])
    if len(rows) != systems * record:
        fail("%d CSV rows for %d systems x %d reps" % (len(rows), systems, record))

    enum = h5py.check_enum_dtype(f["status"].dtype)
    if not enum:
        fail("status is not an enum: %s" % f["status"].dtype)
    names = {v: k for k, v in enum.items()}
    status = f["status"][...]
    if status.shape != (systems, record):
        fail("status shape %s" % (status.shape,))
    for name in fields + ["status"]:
        d = f[name]
        if d.shape != (systems, record):
            fail("%s shape %s, expected %s" % (name, d.shape, (systems, record)))
        if [d.dims[0].label, d.dims[1].label] != ["system", "rep"] or \
                [d.dims[0][0].name, d.dims[1][0].name] != ["/system", "/rep"]:
            fail("%s dimensions %s" % (name, [d.dims[0].label, d.dims[1].label]))
    for j, name in enumerate(fields):
        d = f[name]
        if d.dtype != np.float64 and d.dtype != np.float32:
            fail("%s has type %s" % (name, d.dtype))
        got = d[...].astype(np.float64).reshape(-1)
        want = np.array([float(r[2 + j]) for r in rows], dtype=np.float64)
        same = (got.view(np.uint64) == want.view(np.uint64)) | (np.isnan(got) & np.isnan(want))
        if not same.all():
            k = int(np.argmin(same))
            fail("%s of row %d: HDF5 %r, CSV %r" % (name, k, got[k], want[k]))
    st = [names[int(v)] for v in status.reshape(-1)]
    if st != [r[-1] for r in rows]:
        fail("statuses differ from the CSV's")
    if not (f["system"][...] == np.arange(systems)).all() or not (f["rep"][...] == np.arange(record)).all():
        fail("coordinates system/rep")

    axes = sorted(k for k in f.keys() if k.startswith("scan_"))
    for a in axes:
        d = f[a]
        name, stride, values = d.attrs["name"], int(d.attrs["stride"]), d[...]
        if not h5py.h5ds.is_scale(d.id) or d.attrs["NAME"].decode() != a:
            fail("%s is not its own dimension" % a)
        if name in fields and d.attrs["target"] == "parameter":   # a state moves; a parameter stays
            index = (np.arange(systems) // stride) % len(values)
            if not (f[name][:, 0] == values[index].astype(f[name].dtype)).all():
                fail("scan %s: the recorded %s does not match the axis" % (a, name))
    scan = f.attrs["scan"]
    if len(axes) != (scan.count("=") if scan else 0):
        fail("scan attribute %r and axes %s" % (scan, axes))

    for key in ["model", "source", "source_file", "options", "command_line", "odegen_version", "device", "precision",
                "transient"]:
        if key not in f.attrs:
            fail("attribute %s missing" % key)
    for key, value in wanted.items():
        got = str(f.attrs.get(key))
        if (value.startswith("~") and value[1:] not in got) or (not value.startswith("~") and got != value):
            fail("attribute %s = %r, expected %r" % (key, got, value))

    read_by = ["h5py"]
    try:
        import xarray as xr
    except ImportError:
        xr = None
    for engine in ["h5netcdf", "netcdf4"] if xr else []:
        try:
            ds = xr.open_dataset(h5_path, engine=engine)
        except (ImportError, ValueError) as e:
            if "engine" in str(e) or isinstance(e, ImportError):
                continue
            raise
        for name in fields + ["status"]:
            if ds[name].dims != ("system", "rep"):
                fail("xarray (%s): %s has dimensions %s" % (engine, name, ds[name].dims))
            if not np.array_equal(ds[name].values, f[name][...], equal_nan=True):
                fail("xarray (%s): %s differs" % (engine, name))
        for a in axes:
            if ds[a].dims != (a,):
                fail("xarray (%s): %s" % (engine, a))
        ds.close()
        read_by.append("xarray/" + engine)
    print("check_h5: %d systems x %d reps, %d fields, %d scan axes: as the CSV (read with %s)"
          % (systems, record, len(fields), len(axes), ", ".join(read_by)))


if __name__ == "__main__":
    main()
