"""Model: scans and runs of a generated model through its shared library (SPEC §5b).

A scan's systems are a pool (structure of arrays, one row per parameter or initial value)
loaded into a solver a slice at a time (model_solver_load); each slice is one
model_solver_scan, whose recorded values are copied column by column straight into the result
arrays (model_solver_recorded_values with a stride).  The slice size comes from the memory
there is, as in the runner; everything is checked before anything large is allocated.
"""
import ctypes
import difflib
import math
import os
import shlex
import sys
import time
import warnings
from collections.abc import Mapping

import numpy as np

from . import _build, _layout, _lib, _progress
from ._build import ModelWarning

INT_MAX = 2 ** 31 - 1
STATUS_NAMES = _lib.STATUS_NAMES

# Options the solver takes at run time, with no rebuild (api.h's model_solver_set_option).
RUNTIME_OPTIONS = ("dt", "t0", "total", "toler", "atoler", "dtmin", "dtmax", "maxsteps", "bound")
# … and those of a model with noise (wiener, markov, ran, normal): the random numbers' seed,
# and Wiener increments summed per step (the Brownian path of dt/noisesub; docs/noise.md).
NOISE_OPTIONS = ("seed", "noisesub")
# Options that change the generated code: odegen.load(options=…) takes them (a build each).
CODE_OPTIONS = ("meth", "prec", "hgrow", "hshrink", "evsteps", "evtol", "evpoints", "delay", "poimap", "poivar", "poipln",
                "poisgn", "poistop", "newt_tol", "newt_iter")
_OPTION_ALIASES = {"tol": "toler", "atol": "atoler", "bounds": "bound", "method": "meth"}   # XPPAUT's spellings

CPU_CHUNK = 1000000       # most systems per slice on the CPU (as the runner)
GPU_CHUNK = 4000000       # most systems per slice and GPU


class OdegenError(RuntimeError):
    """The library refused or failed: the message is its own (model_solver_error); `code`
    is api.h's return code."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class Names:
    """The names of a model, as declared: states, parameters, accessories, aux, derived
    (derived parameters), events, and fields (what a scan can record)."""

    def __init__(self, lib):
        self.states = lib.names(_lib.KIND_STATE)
        self.parameters = lib.names(_lib.KIND_PARAM)
        self.accessories = lib.names(_lib.KIND_ACC)
        self.aux = lib.names(_lib.KIND_AUX)
        self.derived = lib.names(_lib.KIND_DERIVED)
        self.events = lib.names(_lib.KIND_EVENT)
        self.fields = lib.names(_lib.KIND_FIELD)

    def __repr__(self):
        parts = ["%s=(%s)" % (k, ", ".join(getattr(self, k)))
                 for k in ("states", "parameters", "accessories", "aux", "derived", "events", "fields")
                 if getattr(self, k)]
        return "Names(%s)" % ", ".join(parts)


class Grid:
    """The Cartesian product of 1-D arrays, one per name, the last varying fastest (as the
    .ode file's scan lines): system i is the i-th combination in C order."""

    def __init__(self, axes):
        if not axes:
            raise ValueError("odegen.grid() needs at least one name=array")
        self.axes = {}
        for name, values in axes.items():
            a = _column(name, values)
            if a.ndim == 0:
                a = a.reshape(1)
            self.axes[name] = a
        self.shape = tuple(len(a) for a in self.axes.values())
        self.size = math.prod(self.shape)

    def column(self, name):
        """The values of axis `name` for every system, in system order."""
        k = list(self.axes).index(name)
        view = [1] * len(self.shape)
        view[k] = self.shape[k]
        return np.broadcast_to(self.axes[name].reshape(view), self.shape).reshape(-1)

    def __repr__(self):
        return "odegen.grid(%s)  # %d systems" % (
            ", ".join("%s=<%d values>" % (k, len(v)) for k, v in self.axes.items()), self.size)


def grid(axes=None, **named):
    """A scan over every combination of the given values, the last name varying fastest:
    odegen.grid(k=np.linspace(0.2, 0.3, 100), B=[0.3, 0.4]) is 200 systems (k[0], B=0.3),
    (k[0], B=0.4), (k[1], B=0.3), …  A dict may be given instead of keywords."""
    merged = dict(axes or {})
    for k, v in named.items():
        if k in merged:
            raise ValueError("'%s' is given twice" % k)
        merged[k] = v
    return Grid(merged)


def _column(name, values):
    """values as a finite float64 array of 0 or 1 dimensions (ValueError otherwise)."""
    if not isinstance(name, str):
        raise TypeError("names are strings, not %r" % (name,))
    try:
        a = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("'%s': numbers are needed, not %r" % (name, values)) from None
    if a.ndim > 1:
        raise ValueError("'%s' must be a number or a 1-D array, not an array of shape %s" % (name, a.shape))
    if a.ndim == 1 and len(a) == 0:
        raise ValueError("'%s' has no values" % name)
    bad = ~np.isfinite(a)
    if bad.any():
        where = "" if a.ndim == 0 else "[%d]" % int(np.flatnonzero(bad)[0])
        raise ValueError("%s%s is %s: values must be finite" % (name, where, a.reshape(-1)[bad.reshape(-1)][0]))
    return a


def available_memory():
    """Bytes of host memory this process can still get (MemAvailable, less a cgroup's limit)."""
    avail = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
    except OSError:
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError):
            avail = 1 << 30
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            limit = f.read().strip()
        if limit != "max":
            with open("/sys/fs/cgroup/memory.current") as f:
                used = int(f.read().strip())
            avail = min(avail, max(0, int(limit) - used))
    except (OSError, ValueError):
        pass
    return avail


def _size(nbytes):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20)):
        if nbytes >= scale:
            return "%.1f %s" % (nbytes / scale, unit)
    return "%.0f KiB" % (nbytes / 1024)


class _Table(Mapping):
    """Arrays by field name (case-insensitive, as in the .ode language), plus statuses."""

    def __init__(self, arrays, codes):
        self._arrays = arrays
        self._lower = {k.lower(): k for k in arrays}
        self.status_code = codes
        self._status = None

    def __getitem__(self, name):
        key = self._lower.get(name.lower()) if isinstance(name, str) else None
        if key is None:
            raise KeyError(self._missing(name))
        return self._arrays[key]

    def _missing(self, name):
        return "no field %r here (these are: %s)" % (name, ", ".join(self._arrays) or "none")

    def __iter__(self):
        return iter(self._arrays)

    def __len__(self):
        return len(self._arrays)

    @property
    def status(self):
        """The statuses as strings ("finished", "event", "nan", …), same shape as status_code."""
        if self._status is None:
            self._status = np.array(STATUS_NAMES)[self.status_code]
        return self._status


class Result(_Table):
    """What a scan recorded: result[field] is an array (systems × recorded integrations),
    result.status likewise (strings; result.status_code: the numbers of odegen.STATUS_NAMES).

    With an `attractor` line: attractors, the attractor table as a dict of arrays (one entry
    per row; columns as the runner's FILE.attractors.csv: slice, the sliced parameter, label,
    kind, period, systems, fraction, fraction_err, lambda1, point_Q, lo_Q, hi_Q); else None.
    basin_entropy(box) and uncertainty_exponent(ks) measure the basin maps of a grid scan.

    Also: inputs (the values given per system, by name), axes and gridded(field) for a scan
    given as odegen.grid(…), counts (systems per final status), steps, evals, device,
    seconds (wall time of the scan), kernel_seconds (integration only), lyap_trace_off (`lyapunov N`
    with N the number of states: systems whose lyap_trace_err is off, as the RuntimeWarning says);
    save(path) writes the runner's HDF5 layout (the scan's own dimensions, coordinates, what each
    field is, provenance), to_xarray() the same as an xarray.Dataset."""

    def __init__(self, model, arrays, codes, inputs, axes, stats, device, seconds, about=None):
        super().__init__(arrays, codes)
        self.model = model
        self.about = about
        self.systems, self.reps = codes.shape
        self.fields = tuple(arrays)
        self.inputs = inputs
        self.axes = axes
        self.counts = {STATUS_NAMES[k]: int(c) for k, c in enumerate(stats["count"]) if c}
        self.steps = stats["steps"]
        self.evals = stats["evals"]
        self.kernel_seconds = stats["kernel_seconds"]
        self.lyap_trace_off = stats["lyap_trace_off"]
        self.device = device
        self.seconds = seconds
        self.attractors = None
        self._attractors_about = None   # the table's quantities, dist and match (Result.save writes them)
        self._lib = None

    def _missing(self, name):
        text = super()._missing(name)
        if isinstance(name, str) and any(k.lower() == name.lower() for k in self.inputs):
            text += "; '%s' was scanned: its value per system is result.inputs['%s']" % (name, name)
        return text

    def gridded(self, name):
        """result[name] shaped as the grid: (len(axis 1), len(axis 2), …, reps)."""
        if self.axes is None:
            raise ValueError("the scan was not given as odegen.grid(...): there is no grid shape")
        shape = tuple(len(v) for v in self.axes.values())
        return self[name].reshape(shape + (self.reps,))

    def _label_grids(self):
        """The labels of the last rep as grids: (parameter values or [None], grids), one grid a
        slice (a grid of initial values per parameter value) or the whole grid."""
        if self.attractors is None or self.axes is None:
            raise ValueError("basin measures need a model with an `attractor` line and a scan given as odegen.grid")
        labels = np.ascontiguousarray(self["attractor"][:, -1], dtype=np.intc)
        shape = [len(v) for v in self.axes.values()]
        names = list(self.axes)
        sliced = [k for k in self.attractors if k not in ("slice", "label", "kind", "period", "systems", "fraction",
                                                          "fraction_err", "lambda1", "slice_value")
                  and not k.startswith(("point_", "lo_", "hi_"))]
        if sliced:
            cut = names.index(sliced[0]) + 1
            grid = shape[cut:]
            values = [v for v in np.asarray(self.axes[sliced[0]])]
            n = int(np.prod(grid))
            return values, [labels[i * n:(i + 1) * n].reshape(grid) for i in range(len(labels) // n)]
        return [None], [labels.reshape(shape)]

    def basin_entropy(self, box=5):
        """The basin entropy of each basin map (Daza et al. 2016; api.h's model_basin_entropy):
        a dict of arrays per slice: basin_entropy (S_b), boundary_basin_entropy (S_bb; above
        ln 2: a fractal boundary), boxes, boundary_boxes; boxes of `box` grid points a side."""
        values, grids = self._label_grids()
        out = {k: [] for k in ("basin_entropy", "boundary_basin_entropy", "boxes", "boundary_boxes")}
        for g in grids:
            g = np.ascontiguousarray(g, dtype=np.intc)
            shape = (ctypes.c_longlong * g.ndim)(*g.shape)
            sb, sbb = ctypes.c_double(), ctypes.c_double()
            nb, nbb = ctypes.c_longlong(), ctypes.c_longlong()
            if self._lib.basin_entropy(g.ctypes.data, g.ndim, shape, box, ctypes.byref(sb), ctypes.byref(sbb),
                                       ctypes.byref(nb), ctypes.byref(nbb)) != _lib.OK:
                raise ValueError("box %r: a whole number from 1 to the grid's shortest side %d" % (box, min(g.shape)))
            for k, v in zip(out, (sb.value, sbb.value, nb.value, nbb.value)):
                out[k].append(v)
        return {k: np.array(v) for k, v in out.items()}

    def uncertainty_exponent(self, ks=(1, 2, 3, 4, 6, 8)):
        """The uncertainty exponent of each basin map's boundary (api.h's
        model_basin_uncertainty): a dict of arrays per slice: exponent (alpha: 1 for a smooth
        boundary, below 1 for a fractal one), exponent_err, and uncertain (slices x len(ks)):
        the fraction of grid points with a neighbour of another label ks[j] steps away."""
        values, grids = self._label_grids()
        ks = np.ascontiguousarray(ks, dtype=np.intc)
        out = {"exponent": [], "exponent_err": [], "uncertain": []}
        for g in grids:
            g = np.ascontiguousarray(g, dtype=np.intc)
            shape = (ctypes.c_longlong * g.ndim)(*g.shape)
            f = np.empty(len(ks))
            a, e = ctypes.c_double(), ctypes.c_double()
            if self._lib.basin_uncertainty(g.ctypes.data, g.ndim, shape, len(ks), ks.ctypes.data, f.ctypes.data,
                                           ctypes.byref(a), ctypes.byref(e)) != _lib.OK:
                raise ValueError("ks must be whole numbers of at least 1")
            out["exponent"].append(a.value)
            out["exponent_err"].append(e.value)
            out["uncertain"].append(f)
        return {k: np.array(v) for k, v in out.items()}

    def save(self, path):
        """Writes the results to the HDF5 file `path` (h5py: Debian's python3-h5py) as the
        runner's `-o FILE.h5` lays them out: the fields on the scan's own dimensions, each
        scanned name a coordinate, `system`, `rep`, the status as an enum with CF's flags, what
        each field is, and the provenance (the model's source, options in force, device, the
        Python call); with an `attractor` line, the attractor table as the group /attractors
        (the runner's datasets and attributes).  Readable by h5py, xarray (engine="h5netcdf"
        or "netcdf4"), MATLAB."""
        _layout.save(self, os.fspath(path))

    def to_xarray(self):
        """The results as an xarray.Dataset (Debian's python3-xarray), as xarray reads the file
        that save() writes: r.to_xarray().y1.sel(k=0.25, method="nearest")."""
        return _layout.to_xarray(self)

    def __repr__(self):
        counts = ", ".join("%s %d" % kv for kv in self.counts.items())
        return "<odegen.Result %s: %d systems x %d recorded integrations; fields %s; %s; %s, %.3g s>" % (
            self.model, self.systems, self.reps, ", ".join(self.fields) or "none", counts, self.device,
            self.seconds)


class RunResult(_Table):
    """The end of one integration of each system: run_result[name] for every state and
    accessory and for t, t0, t1 (arrays over the systems), status likewise."""

    def __init__(self, model, arrays, codes, inputs, stats, device, seconds):
        super().__init__(arrays, codes)
        self.model = model
        self.systems = len(codes)
        self.inputs = inputs
        self.counts = {STATUS_NAMES[k]: int(c) for k, c in enumerate(stats["count"]) if c}
        self.steps = stats["steps"]
        self.evals = stats["evals"]
        self.device = device
        self.seconds = seconds

    def __repr__(self):
        counts = ", ".join("%s %d" % kv for kv in self.counts.items())
        return "<odegen.RunResult %s: %d systems; %s; %s>" % (self.model, self.systems, counts, self.device)


class _Systems:
    """The systems of a scan or run: how many, and per name the value(s) given (an array of
    one value per system, a number for all, or for a grid a function that makes the array:
    nothing of the scan's size exists before its memory has been checked)."""

    def __init__(self, n, columns, axes):
        self.n = n
        self.columns = columns   # declared name -> (kind, index, values)
        self.axes = axes

    def _values(self, v):
        return v() if callable(v) else v

    def inputs(self):
        return {name: np.broadcast_to(self._values(v), (self.n,)) for name, (_, _, v) in self.columns.items()}

    def rows(self, kind, count, defaults):
        """The pool array of `kind` (count rows × n), or None when nothing of it was given."""
        given = [(i, v) for (k, i, v) in self.columns.values() if k == kind]
        if not given:
            return None
        a = np.empty((count, self.n))
        a[:] = np.asarray(defaults, dtype=np.float64).reshape(count, 1)
        for i, v in given:
            a[i] = self._values(v)
        return a


class _AttractorTable:
    """A scan's attractor table (api.h's model_attractors), grouped slice by slice as the
    scan goes; columns() gives it as the runner's FILE.attractors.csv has it."""

    def __init__(self, lib, slice_size, slice_name, slice_values):
        self.lib = lib
        self.handle = ctypes.c_void_p()
        self.slice_name, self.slice_values = slice_name, slice_values
        if lib.attractors_create(ctypes.byref(self.handle), slice_size) != _lib.OK:
            raise MemoryError("cannot create the attractor table")
        codes = (ctypes.c_int * max(1, lib.count(_lib.KIND_FIELD)))()
        self.nq = lib.attractor_quantities(codes)
        self.quantities = [lib.text(lib.name(_lib.KIND_FIELD, codes[k])) for k in range(self.nq)]

    def columns(self):
        lib, nq = self.lib, self.nq
        n = lib.attractors_count(self.handle)
        cols = {k: [] for k in ("slice", self.slice_name or "slice_value", "label", "kind", "period", "systems",
                                "fraction", "fraction_err", "lambda1")}
        pts = {w: np.empty((n, nq)) for w in ("point", "lo", "hi")}
        row = _lib.Attractor()
        for r in range(n):
            lib.attractors_row(self.handle, r, ctypes.byref(row), pts["point"][r].ctypes.data,
                               pts["lo"][r].ctypes.data, pts["hi"][r].ctypes.data)
            cols["slice"].append(row.slice)
            cols[self.slice_name or "slice_value"].append(
                self.slice_values[row.slice % len(self.slice_values)] if self.slice_name else np.nan)
            cols["label"].append(row.label)
            cols["kind"].append(lib.text(lib.attractor_kind_name(row.kind)))
            cols["period"].append(row.period)
            cols["systems"].append(row.systems)
            cols["fraction"].append(row.fraction)
            cols["fraction_err"].append(row.fraction_err)
            cols["lambda1"].append(row.lambda1)
        out = {k: np.array(v) for k, v in cols.items()}
        for w, a in pts.items():
            for k, q in enumerate(self.quantities):
                out["%s_%s" % (w, q)] = a[:, k].copy()
        return out

    def free(self):
        self.lib.attractors_free(self.handle)
        self.handle = None


def _attractor_table(lib, systems, record):
    """The table of a scan of a model with `attractor` (None without, or without records).
    Slices as the runner's: a grid whose first names are parameters and last ones initial
    values is grouped per combination of the parameters (continuation)."""
    if record == 0 or lib.attractor_quantities(None) == 0:
        return None
    size, name, values = 0, None, None
    if systems.axes is not None:
        kinds = [systems.columns[k][0] for k in systems.axes]
        names = list(systems.axes)
        first_state = len(kinds)
        while first_state > 0 and kinds[first_state - 1] == _lib.KIND_STATE:
            first_state -= 1
        if 0 < first_state < len(kinds) and all(k == _lib.KIND_PARAM for k in kinds[:first_state]):
            size = int(np.prod([len(systems.axes[k]) for k in names[first_state:]]))
            name = names[first_state - 1]
            values = np.asarray(systems.axes[name], dtype=np.float64)
    return _AttractorTable(lib, size, name, values)


def _ptr(a):
    return None if a is None else a.ctypes.data


class Model:
    """A model translated and built as a shared library (from odegen.load).

    names          the model's names (states, parameters, accessories, aux, …, fields)
    defaults       {name: value} of the parameters and initial values
    scan(…)        many systems, transient then recorded integrations, arrays back
    run(…)         one integration of each system, end states back
    default_scan() the file's scan lines as an odegen.grid (or {} when there are none)
    """

    def __init__(self, built, path, precision, method, options, build, quiet):
        self._built = built
        self.path = path
        self.name = built.name
        self.precision = precision
        self.method = method
        self.options = dict(options or {})
        self._run_seeds = set()     # the seeds run() used (a model with noise: a warning on a repeat)
        self.library = built.library
        self.built = built.built
        self.notes = built.notes
        self._build, self._quiet = build, quiet
        self._lib = _lib.Library(built.library, built.name)
        self.names = Names(self._lib)
        lib = self._lib
        self.defaults = {n: lib.default(_lib.KIND_PARAM, i) for i, n in enumerate(self.names.parameters)}
        self.defaults.update({n: lib.default(_lib.KIND_STATE, i) for i, n in enumerate(self.names.states)})
        t, r = ctypes.c_int(), ctypes.c_int()
        lib.default_repeat(ctypes.byref(t), ctypes.byref(r))
        self.transient, self.record = t.value, r.value
        codes = (ctypes.c_int * max(1, len(self.names.fields)))()
        nf = lib.default_fields(codes)
        self.fields = tuple(self.names.fields[codes[f]] for f in range(nf))
        self._variants = {}
        self._gpu = None   # the same model built with nvcc, when a CPU-built one is asked for the GPU

    def __repr__(self):
        return "<odegen.Model %s (%s): states %s; parameters %s>" % (
            self.name, self.path, ", ".join(self.names.states), ", ".join(self.names.parameters) or "none")

    # ------------------------------------------------------------------ the machine

    @property
    def gpus(self):
        """Number of usable CUDA devices (0 without one, or when built without CUDA)."""
        return self._lib.gpu_count()

    def _on_gpu(self, backend):
        """The model that runs a call with `backend`: this one, or for backend="gpu" on a
        library built for the CPU (load's choice where it saw no GPU, or build="cpu"), the
        same model built with nvcc (once; cached) — where a GPU is present."""
        if backend != "gpu" or self._built.backend == "cuda":
            return self
        present, why = _build.gpu_present()
        if not present:
            raise OdegenError("no GPU (%s); this model was built for the CPU" % why)
        if self._gpu is None:
            self._gpu = load(self.path, self.precision, self.method, self.options, build="cuda", quiet=self._quiet)
        return self._gpu

    def _backend(self, backend, devices):
        if backend not in ("auto", "cpu", "gpu"):
            raise ValueError("backend must be 'auto', 'cpu' or 'gpu', not %r" % (backend,))
        gpus = self._lib.gpu_count()
        if devices is not None:
            if backend == "cpu":
                raise ValueError("devices= goes with the GPU backend, not backend='cpu'")
            devices = [int(d) for d in devices]
            if not devices or len(set(devices)) != len(devices):
                raise ValueError("devices: a list of distinct CUDA device numbers, not %r" % (devices,))
        if backend == "auto":
            backend = "gpu" if gpus > 0 or devices else "cpu"
        if backend == "cpu":
            return _lib.BACKEND_CPU, []
        if gpus == 0:
            raise OdegenError("no GPU (%s)" % self._lib.text(self._lib.gpu_error()))
        devices = devices if devices is not None else list(range(gpus))
        for d in devices:
            if not 0 <= d < gpus:
                raise OdegenError("no CUDA device %d (%d present: 0 to %d)" % (d, gpus, gpus - 1))
        return _lib.BACKEND_GPU, devices

    # ------------------------------------------------------------------ names

    def _suggest(self, name, candidates):
        close = difflib.get_close_matches(name.lower(), [c.lower() for c in candidates], n=1, cutoff=0.6)
        if not close:
            return ""
        return "; did you mean '%s'?" % next(c for c in candidates if c.lower() == close[0])

    def _input(self, name):
        """(declared name, kind, index) of a parameter, an initial value, or t0 / t1."""
        if not isinstance(name, str):
            raise TypeError("names are strings, not %r" % (name,))
        lib, key = self._lib, name.encode("utf-8", "replace")
        for kind in (_lib.KIND_PARAM, _lib.KIND_STATE):
            i = lib.index(kind, key)
            if i >= 0:
                return lib.text(lib.name(kind, i)), kind, i
        if name.lower() in ("t0", "t1"):
            return name.lower(), _lib.KIND_T0 if name.lower() == "t0" else _lib.KIND_T1, 0
        for kind, noun in ((_lib.KIND_ACC, "an accessory (it starts from its acc expression)"),
                           (_lib.KIND_AUX, "an aux quantity"), (_lib.KIND_DERIVED, "a derived parameter"),
                           (_lib.KIND_EVENT, "an event")):
            if lib.index(kind, key) >= 0:
                raise ValueError("cannot give '%s': it is %s; only parameters, initial values of states, "
                                 "t0 and t1 can be given" % (name, noun))
        raise ValueError("unknown name '%s'%s (parameters: %s; states: %s)" % (
            name, self._suggest(name, self.names.parameters + self.names.states),
            ", ".join(self.names.parameters) or "none", ", ".join(self.names.states)))

    def _field_codes(self, fields):
        if fields is None:
            fields = self.fields
        if isinstance(fields, str):
            fields = [f.strip() for f in fields.split(",")]
        codes, seen = [], set()
        for f in fields:
            if not isinstance(f, str):
                raise TypeError("fields are names, not %r" % (f,))
            code = self._lib.index(_lib.KIND_FIELD, f.encode("utf-8", "replace"))
            if code < 0:
                raise ValueError("unknown field '%s'%s (fields: %s)" % (
                    f, self._suggest(f, self.names.fields), ", ".join(self.names.fields)))
            if code in seen:
                raise ValueError("field '%s' is listed twice" % self.names.fields[code])
            seen.add(code)
            codes.append(code)
        return codes

    def default_scan(self):
        """The file's scan lines as an odegen.grid (their product), or {} (one system)."""
        lib, axes = self._lib, {}
        for line in range(lib.scan_count()):
            kind, index, count = ctypes.c_int(), ctypes.c_int(), ctypes.c_long()
            lib.scan_line(line, ctypes.byref(kind), ctypes.byref(index), ctypes.byref(count))
            axes[lib.text(lib.name(kind.value, index.value))] = np.array(
                [lib.scan_value(line, i) for i in range(count.value)])
        return Grid(axes) if axes else {}

    def _systems(self, values):
        if values is None:
            values = self.default_scan()
        if isinstance(values, Grid):
            columns, axes = {}, {}
            for name, axis in values.axes.items():
                declared, kind, index = self._input(name)
                if declared in columns:
                    raise ValueError("'%s' is given twice" % declared)
                columns[declared] = (kind, index, lambda name=name: values.column(name))
                axes[declared] = axis
            return _Systems(values.size, columns, axes)
        if not isinstance(values, Mapping):
            raise TypeError("the systems are a dict of values per name ({'k': array, 'B': 0.3}) or "
                            "odegen.grid(k=..., B=...), not %s" % type(values).__name__)
        columns, n, first = {}, None, None
        for name, v in values.items():
            declared, kind, index = self._input(name)
            if declared in columns:
                raise ValueError("'%s' is given twice" % declared)
            a = _column(declared, v)
            if a.ndim == 1:
                if n is not None and len(a) != n:
                    raise ValueError("the arrays have different lengths (%s: %d, %s: %d); one system per "
                                     "position, or odegen.grid(...) for every combination"
                                     % (first, n, declared, len(a)))
                n, first = len(a), declared
            columns[declared] = (kind, index, a)
        return _Systems(n or 1, columns, None)

    # ------------------------------------------------------------------ options

    def with_options(self, **options):
        """This model translated with other `@` options (a build of its own, cached):
        m.with_options(meth="rkck45").  Run-time options (dt, toler, …) need no build: give
        them to scan(options=…) or run(options=…)."""
        merged = dict(self.options)
        merged.update(options)
        key = tuple(sorted((k, repr(v)) for k, v in merged.items()))
        if key not in self._variants:
            self._variants[key] = load(self.path, self.precision, self.method, merged, build=self._build,
                                       quiet=self._quiet)
        return self._variants[key]

    @property
    def has_noise(self):
        """Whether the model draws random numbers (wiener, markov, ran, normal): it then takes
        the run-time options seed and noisesub (scan(seed=…), run(seed=…))."""
        v = ctypes.c_double()
        return self._lib.option_default(b"seed", ctypes.byref(v)) == _lib.OK

    def _option_names(self):
        return RUNTIME_OPTIONS + (NOISE_OPTIONS if self.has_noise else ())

    def option_defaults(self):
        """{name: value} of the run-time options in the file (its `@` lines, else odegen's
        defaults): what scan and run use unless given options=."""
        out, v = {}, ctypes.c_double()
        for name in self._option_names():
            self._lib.option_default(name.encode(), ctypes.byref(v))
            out[name] = v.value
        return out

    def _with_seed(self, options, seed):
        """options with seed= folded in (scan's and run's seed argument)."""
        if seed is None:
            return options
        if not self.has_noise:
            raise ValueError("seed: the model draws no random numbers (it has no wiener, markov, ran or normal)")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 53:
            raise ValueError("seed must be a whole number from 0 to 2**53 - 1, not %r" % (seed,))
        merged = dict(options or {})
        if any(str(k).lower() == "seed" for k in merged):
            raise ValueError("seed is given twice (seed= and options={'seed': …})")
        merged["seed"] = int(seed)
        return merged

    def _runtime_options(self, options):
        """scan(options=…) / run(options=…) as (name, value) pairs in the order a solver takes
        them, each checked by the library (ValueError with its reason) before anything runs."""
        if not options:
            return []
        if not isinstance(options, Mapping):
            raise TypeError("options: a dict such as {'dt': 0.005}")
        given = {}
        for k, v in options.items():
            if not isinstance(k, str):
                raise TypeError("option names are strings such as 'dt', not %r" % (k,))
            name = _OPTION_ALIASES.get(k.lower(), k.lower())
            if name in CODE_OPTIONS:
                raise ValueError("option %r cannot change from one scan to the next; run-time options are %s. "
                                 "Give it to odegen.load(path, options={%r: ...}) (or method=, precision=)"
                                 % (k, ", ".join(RUNTIME_OPTIONS), k))
            if name in NOISE_OPTIONS and not self.has_noise:
                raise ValueError("option %r: the model draws no random numbers (it has no wiener, markov, ran or "
                                 "normal)" % k)
            if name not in self._option_names():
                names = self._option_names()
                raise ValueError("unknown option %r; the run-time options are %s (and odegen.load(path, "
                                 "options=…) takes %s)%s" % (k, ", ".join(names), ", ".join(CODE_OPTIONS),
                                                            self._suggest(k, names + CODE_OPTIONS)))
            if name in given:
                raise ValueError("option '%s' is given twice" % name)
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise TypeError("option %s: a number, not %r" % (name, v))
            given[name] = float(v)
        items = list(given.items())
        file = self.option_defaults()
        if "dtmin" in given and "dtmax" in given and given["dtmin"] > file["dtmax"]:
            items.sort(key=lambda item: item[0] != "dtmax")   # raise dtmax first (dtmin <= dtmax at every step)
        probe = self._solver(1, _lib.BACKEND_CPU, [], None, [])
        try:
            for name, value in items:
                if self._lib.solver_set_option(probe, name.encode(), value) != _lib.OK:
                    raise ValueError(self._lib.text(self._lib.solver_error(probe)))
        finally:
            self._lib.solver_free(probe)
        return items

    # ------------------------------------------------------------------ memory and slices

    def _slice_size(self, n, backend, devices, record, nfield, chunk, held):
        """Systems per solver, from the memory there is (as the runner); MemoryError when even
        the results (`held` bytes) do not fit."""
        lib = self._lib
        usable = 0.75 * available_memory()
        if held > usable:
            raise MemoryError(
                "the results of %d systems x %d recorded integrations of %d fields need %s of memory, more than "
                "the %s this process may use (3/4 of what is available); scan fewer systems at a time, or use "
                "the runner with HDF5 output (./MODEL -o FILE.h5), which streams results larger than memory"
                % (n, record, nfield, _size(held), _size(usable)))
        probe = 1 << 20
        dev_b, host_b = ctypes.c_size_t(), ctypes.c_size_t()
        rc = lib.solver_estimate(probe, len(devices), record, nfield, ctypes.byref(dev_b), ctypes.byref(host_b))
        if rc != _lib.OK:
            raise OdegenError("cannot estimate the memory of a solver (%s)" % lib.text(lib.strerror(rc)), rc)
        per_host = host_b.value / probe
        if per_host > usable - held:
            raise MemoryError("one system recording %d integrations of %d fields needs %s of host memory, more "
                              "than the %s left" % (record, nfield, _size(per_host), _size(usable - held)))
        size = (usable - held) / per_host
        if backend == _lib.BACKEND_GPU:
            smallest, at = None, devices[0]
            for d in devices:
                free = ctypes.c_size_t()
                if lib.gpu_info(d, None, 0, ctypes.byref(free), None) == _lib.OK and \
                        (smallest is None or free.value < smallest):
                    smallest, at = free.value, d
            smallest = smallest or 0
            usable_dev = max(0.0, smallest - (0.1 * smallest + 256 * 1024 * 1024))
            per_dev = dev_b.value / probe
            if per_dev > usable_dev:
                raise MemoryError("one system recording %d integrations of %d fields needs %s of device memory, "
                                  "more than the %s usable on GPU %d" % (record, nfield, _size(per_dev),
                                                                        _size(usable_dev), at))
            size = min(size, min(usable_dev / per_dev, GPU_CHUNK) * len(devices))
        else:
            size = min(size, CPU_CHUNK)
        if chunk is not None:
            if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
                raise ValueError("chunk: a whole number of systems, at least 1, not %r" % (chunk,))
            size = min(size, chunk)
        size = max(1, min(int(size), INT_MAX))
        if size >= n:
            return n
        slices = -(-n // size)
        return -(-n // slices)   # even slices: the last is not a sliver

    def _solver(self, count, backend, devices, watch, options):
        lib = self._lib
        s = ctypes.c_void_p()
        devs = (ctypes.c_int * max(1, len(devices)))(*devices)
        rc = lib.solver_create(ctypes.byref(s), count, backend, devs if devices else None, len(devices))
        for name, value in options:
            if rc == _lib.OK:
                rc = lib.solver_set_option(s, name.encode(), value)
        if rc != _lib.OK:
            message = lib.text(lib.solver_error(s))
            lib.solver_free(s)
            if rc == -3:
                raise MemoryError(message)
            raise OdegenError(message, rc)
        if watch is not None:
            lib.solver_set_progress(s, watch.callback, None)
        return s

    def _fail(self, s, rc, watch):
        if rc == _lib.ERR_STOPPED:
            watch.check()
        raise OdegenError(self._lib.text(self._lib.solver_error(s)), rc)

    @staticmethod
    def _whole(name, value, low=0):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= INT_MAX:
            raise ValueError("%s must be a whole number from %d to %d, not %r" % (name, low, INT_MAX, value))
        return int(value)

    def _pool(self, systems, n, options):
        """The model_pool of all the systems (n entries), and the arrays it points into; the
        windows not given are [t0, t0 + total] of the options in force."""
        lib = self._lib
        opt = self.option_defaults()
        opt.update(options)
        p = systems.rows(_lib.KIND_PARAM, len(self.names.parameters),
                         [lib.default(_lib.KIND_PARAM, i) for i in range(len(self.names.parameters))])
        y = systems.rows(_lib.KIND_STATE, len(self.names.states),
                         [lib.default(_lib.KIND_STATE, i) for i in range(len(self.names.states))])
        t0 = systems.rows(_lib.KIND_T0, 1, [opt["t0"]])
        t1 = systems.rows(_lib.KIND_T1, 1, [opt["t0"] + opt["total"]])
        if t0 is not None or t1 is not None:   # (the options' own window the library checks)
            start = t0[0] if t0 is not None else np.full(n, opt["t0"])
            end = t1[0] if t1 is not None else np.full(n, opt["t0"] + opt["total"])
            empty = np.flatnonzero(~(end > start))
            if len(empty):
                raise ValueError("empty window (t1 <= t0, or not a number) in %d of %d systems: %s%s; e.g. system %d "
                                 "has t0 = %r, t1 = %r" % (len(empty), n, ", ".join(map(str, empty[:10])),
                                                           ", ..." if len(empty) > 10 else "", empty[0],
                                                           float(start[empty[0]]), float(end[empty[0]])))
        pool = _lib.Pool(size=n, params=_ptr(p), states=_ptr(y), t0=_ptr(t0), t1=_ptr(t1))
        return pool, (p, y, t0, t1)   # the arrays must outlive the pool

    # ------------------------------------------------------------------ scan

    def scan(self, values=None, *, transient=None, record=None, fields=None, backend="auto", devices=None,
             chunk=None, progress=None, options=None, seed=None):
        """Integrates many systems: `transient` integrations of each, discarded, then `record`
        integrations after each of which `fields` are recorded (the state carries over).

        values    the systems: a dict of values per name (parameters, initial values of states,
                  t0, t1), 1-D arrays of one length (one system per position) or numbers (the
                  same for all): {"k": np.linspace(0.2, 0.3, 1000), "B": 0.3}; or
                  odegen.grid(k=…, B=…) for every combination (the last name fastest); default:
                  the file's scan lines (the runner's default).  Names not given keep the
                  model's values.
        transient, record   default: the file's `repeat` line
        fields    names of recordable quantities (default: the file's `record` line)
        backend   "auto" (a GPU when one is present, else the CPU: the runner's choice), "gpu",
                  "cpu"; devices: the CUDA devices (default: all)
        chunk     most systems per solver (default: as many as memory allows)
        progress  None: a text bar on an interactive terminal; False: none; a callable
                  progress(done, total)
        options   run-time options, no rebuild: {"dt": 0.005}; any of dt, t0, total, toler,
                  atoler, dtmin, dtmax, maxsteps, bound (odegen.RUNTIME_OPTIONS; the file's
                  values otherwise: Model.option_defaults()); checked before anything runs
        seed      a model with noise: the random numbers' seed (options={"seed": …}; default
                  the file's @ seed, else 12345678).  System i draws as the runner's system i
                  (its index here), so a scan of the runner's systems in its order gives its
                  numbers bit for bit

        Returns a Result: result["y1"] has shape (systems, record); result.status likewise.
        Ctrl-C stops the scan (KeyboardInterrupt) and leaves the model usable.

        The results are held in memory (checked before anything is allocated: MemoryError
        with the sizes when they do not fit).  For results larger than memory, use the
        runner's HDF5 output (./MODEL -o FILE.h5), which streams them chunk by chunk."""
        on = self._on_gpu(backend)
        if on is not self:
            return on.scan(values, transient=transient, record=record, fields=fields, backend=backend,
                           devices=devices, chunk=chunk, progress=progress, options=options, seed=seed)
        options = self._with_seed(options, seed)
        opts = self._runtime_options(options)
        lib = self._lib
        transient = self._whole("transient", self.transient if transient is None else transient)
        record = self._whole("record", self.record if record is None else record)
        if transient + record > INT_MAX:
            raise ValueError("transient + record must be at most %d" % INT_MAX)
        codes = self._field_codes(fields)
        systems = self._systems(values)
        n = systems.n
        be, devices = self._backend(backend, devices)
        nfield = len(codes)
        held = n * (record * (8 * nfield + 1) + 8 * (len(self.names.parameters) + len(self.names.states) + 2 +
                                                     len(systems.columns)))
        size = self._slice_size(n, be, devices, record, nfield, chunk, held)

        out = {self.names.fields[c]: np.empty((n, record)) for c in codes}
        columns = list(out.values())
        status = np.empty((n, record), dtype=np.int8)
        column = np.empty(size, dtype=np.intc)
        code_array = (ctypes.c_int * max(1, nfield))(*codes)

        table = _attractor_table(lib, systems, record)

        def scan_slice(s, base, count):
            rc = lib.solver_scan(s, transient, record, _lib.RECORD_FN(), None)
            if rc == _lib.OK and table:   # the labels into the field attractor, before it is read
                rc = lib.attractors_group(table.handle, s, base)
            for rep in range(record if rc == _lib.OK else 0):
                for slot, a in enumerate(columns):   # straight into column rep of rows base…
                    lib.solver_recorded_values(s, rep, slot, 0, count, a.ctypes.data + 8 * (base * record + rep), record)
                lib.solver_recorded_statuses(s, rep, 0, count, column.ctypes.data, 1)
                status[base:base + count, rep] = column[:count]
            return rc

        start = time.monotonic()
        try:
            totals, device = self._in_slices(systems, size, be, devices, progress, opts, scan_slice,
                                             lambda s: lib.solver_set_fields(s, code_array, nfield))
            attractors = table.columns() if table else None
            attractors_about = {"quantities": list(table.quantities), "dist": lib.attractor_dist(),
                                "match": lib.attractor_match()} if table else None
        finally:
            if table:
                table.free()
        about = self._about(values, systems, codes, transient, record, totals["options"], options)
        if totals["lyap_trace_off"]:   # the runner's warning (runtime/runner.c)
            warnings.warn("%s: in %d of %d systems the sum of the Lyapunov exponents is off the mean trace of the "
                          "Jacobian by more than 10^-3 of the spectrum (field lyap_trace_err): the smallest exponents "
                          "are not to be trusted; tighten toler and atoler, or bound dtmax"
                          % (self.name, totals["lyap_trace_off"], n), RuntimeWarning, stacklevel=2)
        result = Result(self.name, out, status, systems.inputs(), systems.axes, totals, device,
                        time.monotonic() - start, about)
        result.attractors = attractors
        result._attractors_about = attractors_about
        result._lib = lib
        return result

    _TARGETS = {_lib.KIND_PARAM: "parameter", _lib.KIND_STATE: "initial value", _lib.KIND_T0: "window start",
                _lib.KIND_T1: "window end"}

    def _about(self, values, systems, codes, transient, record, options_text, options):
        """What Result.save and to_xarray write besides the numbers: what each field and each
        given name is, and where the numbers come from (the runner's attributes)."""
        lib = self._lib
        fields = [self.names.fields[c] for c in codes]
        field_about = {}
        for c, name in zip(codes, fields):
            texts = [ctypes.c_char_p() for _ in range(4)]   # kind, meaning, comment, units
            lib.field_about(c, *[ctypes.byref(t) for t in texts])
            field_about[name] = tuple(lib.text(t.value) for t in texts)
        inputs = {name: self._TARGETS[kind] for name, (kind, _, _) in systems.columns.items()}
        arrays = {name: callable(v) or np.ndim(v) == 1 for name, (_, _, v) in systems.columns.items()}

        def definition(name):   # the runner's is the scan line as given: "lin(0.2, 0.3, 7)"
            if systems.axes is not None:
                return ("the model's scan line (%d values)" if values is None else "%d values given to Model.scan") \
                    % len(systems.axes[name])
            if sum(arrays.values()) == 1:
                return "%d values given to Model.scan" % systems.n
            return "one value per system, given to Model.scan"
        definitions = {name: definition(name) for name in inputs if arrays[name]}
        return {
            "model": self.name, "source": lib.text(lib.source()), "source_file": lib.text(lib.source_path()),
            "odegen_version": lib.text(lib.odegen_version()), "precision": lib.text(lib.precision()),
            "options": options_text, "transient": transient, "fields": fields, "field_about": field_about,
            "inputs": inputs, "arrays": arrays, "definitions": definitions, "status_names": STATUS_NAMES,
            "command_line": " ".join(shlex.quote(a) for a in [sys.executable or "python3"] + sys.argv),
            "call": self._call_text(values, systems, transient, record, fields, options)}

    def _call_text(self, values, systems, transient, record, fields, options):
        """The scan's call, as text: odegen.load('models/duffing.ode').scan({'k': <37 values
        from 0.2 to 0.3>, 'B': 0.35}, transient=5, record=3, fields=['y1'])."""
        def short(v):
            a = np.asarray(v, dtype=np.float64)
            if a.ndim == 0:
                return repr(float(a))
            if len(a) <= 4:
                return "[%s]" % ", ".join(repr(float(x)) for x in a)
            return "<%d values from %r to %r>" % (len(a), float(a[0]), float(a[-1]))
        if values is None:
            given = ""
        elif systems.axes is not None:
            given = "odegen.grid(%s)" % ", ".join("%s=%s" % (k, short(v)) for k, v in systems.axes.items())
        else:
            given = "{%s}" % ", ".join("%r: %s" % (k, short(v)) for k, (_, _, v) in systems.columns.items())
        load_args = [repr(self.path)] + ["%s=%r" % kv for kv in (("precision", self.precision),
                                                                 ("method", self.method)) if kv[1] is not None]
        if self.options:
            load_args.append("options=%r" % (self.options,))
        args = ([given] if given else []) + ["transient=%d" % transient, "record=%d" % record,
                                             "fields=%r" % (fields,)]
        if options:
            args.append("options=%r" % (dict(options),))
        return "odegen.load(%s).scan(%s)" % (", ".join(load_args), ", ".join(args))

    def _in_slices(self, systems, size, backend, devices, progress, options, work, setup=None):
        """Loads the systems into solvers `size` at a time (the last slice may be smaller: a
        solver of its size) with the run-time options, and calls work(solver, first system,
        count) on each, which returns api.h's code; returns the statistics and the device's
        description."""
        lib, n = self._lib, systems.n
        pool, keep = self._pool(systems, n, dict(options))
        totals = {"count": [0] * _lib.NSTATUS, "steps": 0, "evals": 0, "kernel_seconds": 0.0, "options": "",
                  "lyap_trace_off": 0}
        device, s = "", None
        with _progress.Watch(self.name, n, progress) as watch:
            try:
                for base in range(0, n, size):
                    count = min(size, n - base)
                    if s is None or lib.solver_size(s) != count:
                        lib.solver_free(s)
                        s = None
                        s = self._solver(count, backend, devices, watch, options)
                        if setup:
                            setup(s)
                        device = lib.text(lib.solver_describe(s))
                        text = ctypes.create_string_buffer(1024)
                        if lib.solver_options_text(s, text, len(text)) == _lib.OK:
                            totals["options"] = lib.text(text.value)
                    rc = lib.solver_load(s, ctypes.byref(pool), base, 0, count)
                    if rc == _lib.OK:
                        rc = work(s, base, count)
                    if rc != _lib.OK:
                        self._fail(s, rc, watch)
                    self._add_stats(s, totals)
                    watch.chunk_done(count)
            finally:
                lib.solver_free(s)
        del keep   # the pool's arrays lived until here
        return totals, device

    def _add_stats(self, s, totals):
        st = _lib.Stats()
        self._lib.solver_stats(s, ctypes.byref(st))
        for k in range(_lib.NSTATUS):
            totals["count"][k] += st.count[k]
        totals["steps"] += st.steps
        totals["evals"] += st.evals
        totals["kernel_seconds"] += st.kernel_seconds
        totals["lyap_trace_off"] += st.lyap_trace_off

    # ------------------------------------------------------------------ run

    def run(self, values=None, *, backend="auto", devices=None, chunk=None, progress=None, options=None,
            seed=None):
        """One integration of each system over its window [t0, t1] (default: [t0, t0 + total]
        of the run-time options); values as for scan (default: one system at the model's values).
        Returns a RunResult: result["y1"] (one value per system) for every state and
        accessory, and t, t0, t1; result.status.  Chain runs by passing end states back as
        initial values.  options: run-time options, as for scan.

        seed: a model with noise draws, in every run(), the numbers of a scan's first
        integration (system i: the runner's system i); chained runs therefore need a seed
        each (run(…, seed=k) for the k-th), else they repeat one noise path: a warning says
        so when a run repeats the seed of an earlier one.  scan(transient=, record=) chains
        integrations with fresh noise itself."""
        on = self._on_gpu(backend)
        if on is not self:
            return on.run(values, backend=backend, devices=devices, chunk=chunk, progress=progress, options=options,
                          seed=seed)
        options = self._with_seed(options, seed)
        if self.has_noise:
            used = dict(self.option_defaults())
            used.update({str(k).lower(): v for k, v in (options or {}).items()})
            if used["seed"] in self._run_seeds:
                warnings.warn("run() with seed %d again: it draws the same noise as the earlier run() with that "
                              "seed (chained runs need run(…, seed=k), a seed each)" % used["seed"], ModelWarning,
                              stacklevel=2)
            self._run_seeds.add(used["seed"])
        opts = self._runtime_options(options)
        lib = self._lib
        systems = self._systems(values if values is not None else {})
        n = systems.n
        be, devices = self._backend(backend, devices)
        ns, na = len(self.names.states), len(self.names.accessories)
        held = n * 8 * (2 * (ns + len(self.names.parameters)) + na + 6 + len(systems.columns))
        size = self._slice_size(n, be, devices, 0, 0, chunk, held)

        states, acc = np.empty((ns, n)), np.empty((na, n)) if na else None
        t, t0, t1 = np.empty(n), np.empty(n), np.empty(n)
        status = np.empty(n, dtype=np.intc)
        store = _lib.Pool(size=n, states=_ptr(states), acc=_ptr(acc), t=_ptr(t), t0=_ptr(t0), t1=_ptr(t1),
                          status=_ptr(status))

        def run_slice(s, base, count):
            rc = lib.solver_run(s)
            return rc if rc != _lib.OK else lib.solver_store(s, ctypes.byref(store), base, 0, count)

        start = time.monotonic()
        totals, device = self._in_slices(systems, size, be, devices, progress, opts, run_slice)
        arrays = {name: states[k] for k, name in enumerate(self.names.states)}
        arrays.update({name: acc[k] for k, name in enumerate(self.names.accessories)})
        arrays.update({"t": t, "t0": t0, "t1": t1})
        return RunResult(self.name, arrays, status.astype(np.int8), systems.inputs(), totals, device,
                         time.monotonic() - start)


def _warn(message, category):
    """warnings.warn, attributed to the first caller outside this package (the user's line)."""
    here = os.path.dirname(os.path.abspath(__file__))
    level, frame = 2, sys._getframe(1)
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == here:
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def load(path, precision=None, method=None, options=None, *, build="auto", quiet=False):
    """Translates the .ode file at `path` and builds it as a shared library (once: the build
    is cached by content in ~/.cache/odegen), then loads it.

    precision  "double" or "float" (default: the file's `@ prec`, else double)
    method     an integration method (the file's `@ meth` otherwise), e.g. "rkck45": one of
               odegen's names or XPPAUT's spelled out (an unknown name is a ModelError)
    options    {name: value} of `@` options, as if written at the end of the file
               (e.g. {"dt": 0.005, "total": 100}); an unknown name is a ModelError
    build      "auto": what this machine can run — with nvcc (GPU and CPU) where a GPU and
               nvcc are present, else with the C compiler (CPU); "cpu"; "cuda".  A model
               built for the CPU that is asked for backend="gpu" is built with nvcc then.
    quiet      no message when a build starts

    Errors in the file raise odegen.ModelError, whose message is the translator's: every
    error with its file:line:col, the line and a caret under the problem.  The translator's
    warnings and notes are shown as Python warnings (odegen.ModelWarning, odegen.ModelNote;
    Python's filters show each once), and kept in Model.notes."""
    opts = dict(options or {})
    if method is not None:
        if not isinstance(method, str):
            raise TypeError("method is a name such as 'rk4' or 'rkck45'")
        opts["meth"] = method
    built = _build.build(os.fspath(path), precision, opts, build, quiet)
    for kind, message in _build.diagnostics(built.notes):
        _warn(message, _build.ModelWarning if kind == "warning" else _build.ModelNote)
    return Model(built, os.fspath(path), precision, method, options, build, quiet)
