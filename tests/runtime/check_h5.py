#!/usr/bin/env python3
"""check_h5.py — the runner's HDF5 file against its CSV of the same run,
read with h5py (Debian's python3-h5py) and, where installed, xarray (with the
h5netcdf and netCDF4 engines): no odegen code.

    check_h5.py FILE.h5 FILE.csv [KEY=VALUE …]

KEY=VALUE: attributes the file must have (a value given as ~TEXT must
contain TEXT).  Checks the layout of runtime/output_h5.c:

  * the fields and `status` lie on the scan's own dimensions, then rep: one
    dimension per scan line (a coordinate variable, an HDF5 dimension scale,
    named after the parameter, or NAME_0 for a state's initial value, with
    the attributes name, target, definition, stride), or `system` without a
    scan; the dimensions' order is the scan's (the first line slowest);
  * every value equals the CSV's bit for bit, the CSV's rows being the
    fields in C order; statuses by their enum names (and CF's flag_values,
    flag_meanings);
  * a recorded scanned parameter is its coordinate (no dataset of its own):
    the CSV's values are the coordinate's at each system, in the model's
    precision;
  * `system` holds each cell's index in the scan's product (the CSV's system);
    `rep` 0 … M-1;
  * each field says what it is (long_name, odegen_kind; units "1" for
    period), and lists `system` in `coordinates` when there is a scan;
  * the file's attributes; xarray sees the same dimensions, coordinates and
    values, and selects by a scanned value (.sel).

Prints one line; exit status 1 on the first difference.
"""
import csv
import sys

import h5py
import numpy as np


def fail(msg):
    print("check_h5: FAIL: " + msg)
    sys.exit(1)


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def scales_of(d):
    """The names of the dimension scales attached to d, one per dimension."""
    names = []
    for dim in d.dims:
        if len(dim) != 1:
            fail("%s: %d scales on a dimension" % (d.name, len(dim)))
        names.append(dim[0].name.lstrip("/"))
    return names


def main():
    h5_path, csv_path = sys.argv[1], sys.argv[2]
    wanted = dict(a.split("=", 1) for a in sys.argv[3:])
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    fields = header[2:-1]
    f = h5py.File(h5_path, "r")
    record = int(f.attrs["record"])
    systems = int(f.attrs["systems"])
    if len(rows) != systems * record:
        fail("%d CSV rows for %d systems x %d reps" % (len(rows), systems, record))
    if text(f.attrs["fields"]) != ", ".join(fields):
        fail("attribute fields = %r, the CSV's are %s" % (f.attrs["fields"], fields))

    # The dimensions: the scan's lines, slowest first, then rep.
    axes = sorted((k for k in f.keys() if isinstance(f[k], h5py.Dataset) and "target" in f[k].attrs),
                  key=lambda k: -int(f[k].attrs["stride"]))
    for a in axes:
        d = f[a]
        name, target = text(d.attrs["name"]), text(d.attrs["target"])
        want = name if target == "parameter" else name + "_0"
        if not (a == want or (a.startswith(want) and set(a[len(want):].split("_scan")) == {""})):
            fail("the dimension of %s's scan line (%s) is named %s" % (name, target, a))
        if not h5py.h5ds.is_scale(d.id) or text(d.attrs["NAME"]) != a or d.ndim != 1:
            fail("%s is not its own dimension" % a)
        if not text(d.attrs["definition"]) or "long_name" not in d.attrs:
            fail("%s: attributes %s" % (a, dict(d.attrs)))
    dims = (axes or ["system"]) + ["rep"]
    shape = tuple(len(f[a]) for a in axes) if axes else (systems,)
    if int(np.prod(shape)) != systems:
        fail("the dimensions %s hold %d systems, not %d" % (dims, int(np.prod(shape)), systems))
    stride = 1
    for a in reversed(axes):
        if int(f[a].attrs["stride"]) != stride:
            fail("%s: stride %s, expected %d" % (a, f[a].attrs["stride"], stride))
        stride *= len(f[a])
    scan = text(f.attrs["scan"])
    if len(axes) != (scan.count("=") if scan else 0):
        fail("scan attribute %r and axes %s" % (scan, axes))

    # system and rep.
    system = f["system"]
    if system.dtype != np.int64 or system.shape != shape or \
            (scales_of(system) != axes if axes else not h5py.h5ds.is_scale(system.id)):
        fail("system: %s %s, dimensions %s" % (system.shape, system.dtype, [len(d) for d in system.dims]))
    if not (system[...] == np.arange(systems).reshape(shape)).all():
        fail("system does not hold each cell's index in the scan's product")
    if not h5py.h5ds.is_scale(f["rep"].id) or not (f["rep"][...] == np.arange(record)).all():
        fail("rep")

    # Fields and status.
    enum = h5py.check_enum_dtype(f["status"].dtype)
    if not enum:
        fail("status is not an enum: %s" % f["status"].dtype)
    names = {v: k for k, v in enum.items()}
    if text(f["status"].attrs["flag_meanings"]).split() != [names[k] for k in sorted(names)] or \
            list(f["status"].attrs["flag_values"]) != sorted(names):
        fail("status: flag_values and flag_meanings")
    merged = []
    for name in fields + ["status"]:
        if name not in f or name in axes:
            scanned = [a for a in axes if text(f[a].attrs["name"]) == name and text(f[a].attrs["target"]) == "parameter"]
            if not scanned:
                fail("no dataset for the field %s" % name)
            merged.append((name, scanned[0]))
            continue
        d = f[name]
        if d.shape != shape + (record,) or scales_of(d) != dims:
            fail("%s: shape %s on %s, expected %s on %s" % (name, d.shape, scales_of(d), shape + (record,), dims))
        if axes and text(d.attrs.get("coordinates", "")) != "system":
            fail("%s: coordinates %r" % (name, d.attrs.get("coordinates")))
        if name != "status":
            if d.dtype != np.float64 and d.dtype != np.float32:
                fail("%s has type %s" % (name, d.dtype))
            kind = text(d.attrs.get("odegen_kind", ""))
            if not kind or not text(d.attrs.get("long_name", "")):
                fail("%s does not say what it is: %s" % (name, dict(d.attrs)))
            if (kind == "period") != (text(d.attrs.get("units", "")) == "1"):
                fail("%s (%s): units %r" % (name, kind, d.attrs.get("units")))
    real = np.float32 if text(f.attrs["precision"]) == "float" else np.float64
    for j, name in enumerate(fields):
        want = np.array([float(r[2 + j]) for r in rows], dtype=np.float64)
        merge = [a for n, a in merged if n == name]
        if merge:
            got = f[merge[0]][...].astype(real).astype(np.float64)
            got = np.repeat(np.broadcast_to(got.reshape([-1 if a == merge[0] else 1 for a in axes]), shape), record)
        else:
            got = f[name][...].astype(np.float64).reshape(-1)
        same = (got.view(np.uint64) == want.view(np.uint64)) | (np.isnan(got) & np.isnan(want))
        if not same.all():
            k = int(np.argmin(same))
            fail("%s of row %d: HDF5 %r, CSV %r" % (name, k, got[k], want[k]))
    st = [names[int(v)] for v in f["status"][...].reshape(-1)]
    if st != [r[-1] for r in rows]:
        fail("statuses differ from the CSV's")
    if [int(r[0]) for r in rows] != list(np.repeat(system[...].reshape(-1), record)):
        fail("the CSV's system column is not the file's system")

    for key in ["model", "source", "source_file", "options", "command_line", "odegen_version", "device", "precision",
                "transient", "Conventions"]:
        if key not in f.attrs:
            fail("attribute %s missing" % key)
    for key, value in wanted.items():
        got = text(f.attrs.get(key))
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
        for name in [n for n in fields if n in f and n not in axes] + ["status"]:
            if ds[name].dims != tuple(dims):
                fail("xarray (%s): %s has dimensions %s" % (engine, name, ds[name].dims))
            if not np.array_equal(ds[name].values, f[name][...], equal_nan=True):
                fail("xarray (%s): %s differs" % (engine, name))
        for a in axes:
            if ds[a].dims != (a,) or a not in ds.coords or not np.array_equal(ds[a].values, f[a][...]):
                fail("xarray (%s): coordinate %s" % (engine, a))
        if "system" not in ds.coords:
            fail("xarray (%s): system is not a coordinate" % engine)
        if axes and record:
            a, i = axes[0], len(f[axes[0]]) - 1
            picked = ds["status"].sel({a: f[a][i]})
            if not np.array_equal(picked.values, f["status"][i]):
                fail("xarray (%s): .sel(%s=…)" % (engine, a))
        ds.close()
        read_by.append("xarray/" + engine)
    print("check_h5: %d systems x %d reps on %s, %d fields (%d as coordinates): as the CSV (read with %s)"
          % (systems, record, "(" + ", ".join(dims) + ")", len(fields), len(merged), ", ".join(read_by)))


if __name__ == "__main__":
    main()
