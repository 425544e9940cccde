"""A scan's results on the scan's own dimensions, as the runner's HDF5 output lays them out
(runtime/output_h5.c): for Result.save (h5py) and Result.to_xarray (xarray), so that a scan
made in Python and the runner's file read the same.

For odegen.grid(k=…, B=…) the fields are (k, B, rep) with coordinate variables k and B; a
state's initial value y1 is the dimension y1_0 (y1 is the state's end value); a recorded
parameter that the scan varies is its coordinate, not a variable of its own; `system` (each
cell's index in the product) is a coordinate on the scan's dimensions.  Several arrays of one
value per system (not a product) share the dimension `system`, each an auxiliary coordinate
along it; without arrays the one dimension is `system`.  Every variable says what it is
(long_name, odegen_kind, units where known); the file's attributes say where the numbers come
from (those of the runner, its command_line being the Python process's, and `call`)."""
import numpy as np

RESERVED = ("status", "system", "rep", "enum_status")
CONVENTIONS = "CF-1.8"


class Layout:
    """dims: [(name, size)] of the fields, rep last.  coords: {name: (dims, values, attrs)} in
    the file's order (the scan's dimensions, system, rep, then auxiliary ones); scales: the
    names that are dimensions.  variables: {name: (dims, values, attrs)} (fields, then status).
    attrs: the file's attributes (names and numpy types as the runner writes them)."""

    def __init__(self):
        self.dims, self.coords, self.scales, self.variables, self.attrs = [], {}, [], {}, {}


def _dim_name(name, kind, taken):
    base = name if kind == "parameter" else name + "_0"
    while base in taken:
        base += "_scan"
    return base


def layout(result):
    """The Layout of a Result (see the module's text)."""
    about = result.about
    out = Layout()
    reps = result.reps
    fields = list(result.fields)
    kinds = about["inputs"]            # declared name -> "parameter", "initial value", "window start", …
    if result.axes is not None:        # a product: one dimension per axis
        axes = [(name, kinds[name], np.asarray(values, dtype=np.float64)) for name, values in result.axes.items()]
        zipped = []
    else:
        arrays = [name for name in kinds if about["arrays"].get(name)]
        axes = [(arrays[0], kinds[arrays[0]], np.asarray(result.inputs[arrays[0]], dtype=np.float64))] \
            if len(arrays) == 1 else []
        zipped = arrays if len(arrays) > 1 else []

    # A recorded parameter given per system is its coordinate.
    given = [name for name, _, _ in axes] + zipped
    merged = {f for f in fields if f in given and kinds[f] == "parameter" and about["field_about"][f][0] == "parameter"}
    written = [f for f in fields if f not in merged]
    taken = set(RESERVED) | set(written)
    names = {}
    for name in given:
        names[name] = _dim_name(name, kinds[name], taken)
        taken.add(names[name])

    n = result.systems
    shape = tuple(len(v) for _, _, v in axes) if axes else (n,)
    definitions = about["definitions"]
    stride = int(np.prod(shape))
    for name, kind, values in axes:
        stride //= len(values)
        out.coords[names[name]] = ((names[name],), values, {
            "long_name": ("%s" if kind == "parameter" else kind + " of %s") % name,
            "name": name, "target": kind, "definition": definitions[name], "stride": np.int64(stride)})
        out.scales.append(names[name])
        out.dims.append((names[name], len(values)))
    system_dims = tuple(d for d, _ in out.dims) or ("system",)
    out.coords["system"] = (system_dims, np.arange(n, dtype=np.int64).reshape(shape), {
        "long_name": "system: the index in the scan's product", "comment": "the system column of the runner's CSV"})
    if not axes:
        out.scales.append("system")
        out.dims.append(("system", n))
    out.coords["rep"] = (("rep",), np.arange(reps, dtype=np.int32), {
        "long_name": "recorded integration", "comment": "0: the first after the transient ones"})
    out.scales.append("rep")
    out.dims.append(("rep", reps))
    for name in zipped:
        kind = kinds[name]
        out.coords[names[name]] = (("system",), np.asarray(result.inputs[name], dtype=np.float64), {
            "long_name": ("%s" if kind == "parameter" else kind + " of %s") % name,
            "name": name, "target": kind, "definition": definitions[name]})

    dims = tuple(d for d, _ in out.dims)
    real = np.float32 if about["precision"] == "float" else np.float64   # a float model's values are floats
    coordinates = "system" if axes else " ".join(names[z] for z in zipped)
    for f in written:
        kind, meaning, comment, units = about["field_about"][f]
        attrs = {"long_name": meaning, "odegen_kind": kind}
        if comment:
            attrs["comment"] = comment
        if units:
            attrs["units"] = units
        if coordinates:
            attrs["coordinates"] = coordinates
        out.variables[f] = (dims, result[f].reshape(shape + (reps,)).astype(real), attrs)
    status_attrs = {"flag_values": np.arange(len(about["status_names"]), dtype=np.int8),
                    "flag_meanings": " ".join(about["status_names"]), "long_name": "how each integration ended"}
    if coordinates:
        status_attrs["coordinates"] = coordinates
    out.variables["status"] = (dims, result.status_code.reshape(shape + (reps,)).astype(np.int8), status_attrs)

    out.attrs = {
        "Conventions": CONVENTIONS, "model": about["model"], "source": about["source"],
        "source_file": about["source_file"], "options": about["options"], "command_line": about["command_line"],
        "odegen_version": about["odegen_version"], "device": result.device, "precision": about["precision"],
        "scan": "; ".join("%s=%s" % (name, definitions[name]) for name in given),
        "fields": ", ".join(fields), "systems": np.int64(n), "transient": np.int32(about["transient"]),
        "record": np.int32(reps), "call": about["call"]}
    seed = _seed_of(about["options"])
    if seed is not None:   # a model with noise: the random numbers' seed (as the runner writes it)
        out.attrs["seed"] = np.int64(seed)
    return out


def _seed_of(options):
    """The seed in an options text ("…, seed=7, noisesub=1"), or None."""
    for item in options.split(", "):
        name, _, value = item.partition("=")
        if name == "seed" and value.isdigit():
            return int(value)
    return None


def save(result, path):
    """Writes the Layout of `result` to the HDF5 file `path` with h5py: the runner's layout,
    dimension scales and types (the status an enum of the committed type enum_status)."""
    from ._missing import require
    h5py = require("h5py", "python3-h5py")
    lay = layout(result)
    names = dict(enumerate(result.about["status_names"]))
    for group in ("attractors", "basins"):   # the runner's groups where there is a table (runtime/output_h5.c)
        if result.attractors is not None and group in set(lay.coords) | set(lay.variables):
            raise ValueError("the field '%s' has the name of the attractor table's group in the file: record it "
                             "under another name (an aux quantity)" % group)
    with h5py.File(path, "w") as f:
        made = {}
        for name, (dims, values, attrs) in lay.coords.items():
            made[name] = f.create_dataset(name, data=values)
            if name in lay.scales:
                made[name].make_scale(name)
        for name, (dims, values, attrs) in lay.coords.items():
            if name not in lay.scales:
                for k, d in enumerate(dims):
                    made[name].dims[k].attach_scale(made[d])
            made[name].attrs.update(attrs)
        f["enum_status"] = h5py.enum_dtype({v: np.int8(k) for k, v in names.items()}, basetype=np.int8)
        for name, (dims, values, attrs) in lay.variables.items():
            if name == "status":
                d = f.create_dataset(name, shape=values.shape, dtype=f["enum_status"])
                d[...] = values
            else:
                d = f.create_dataset(name, data=values)
            for k, dim in enumerate(dims):
                d.dims[k].attach_scale(made[dim])
            d.attrs.update(attrs)
        f.attrs.update(lay.attrs)
        if result.attractors is not None:
            _save_attractors(f, result, h5py)


ATTRACTORS_COMMENT = ("one row per attractor per slice (labels -1: escaped, 0: failed); fraction = systems / the "
                      "slice's systems, fraction_err its binomial standard error")


def _save_attractors(f, result, h5py):
    """The attractor table as the group /attractors, as the runner writes it
    (runtime/output_h5.c): one dataset per column, point, lo and hi as rows x quantities, the
    quantities' names, dist and match as attributes."""
    a, about = result.attractors, result._attractors_about
    quantities = about["quantities"]
    columns = list(a)
    sliced = columns[1]                    # the sliced parameter's name, or slice_value
    rows = len(a["label"])
    g = f.create_group("attractors")
    text = h5py.string_dtype("utf-8")
    g.create_dataset("slice", data=np.asarray(a["slice"], dtype=np.int64).reshape(rows))
    g.create_dataset(sliced, data=np.asarray(a[sliced], dtype=np.float64).reshape(rows))
    g.create_dataset("label", data=np.asarray(a["label"], dtype=np.intc).reshape(rows))
    g.create_dataset("kind", data=np.array([str(k) for k in a["kind"]], dtype=object), dtype=text)
    g.create_dataset("period", data=np.asarray(a["period"], dtype=np.intc).reshape(rows))
    g.create_dataset("systems", data=np.asarray(a["systems"], dtype=np.int64).reshape(rows))
    for name in ("fraction", "fraction_err", "lambda1"):
        g.create_dataset(name, data=np.asarray(a[name], dtype=np.float64).reshape(rows))
    for w in ("point", "lo", "hi"):
        g.create_dataset(w, data=np.array([a["%s_%s" % (w, q)] for q in quantities], dtype=np.float64)
                         .reshape(len(quantities), rows).T)
    g.attrs.create("quantities", np.array(quantities, dtype=object), dtype=text)
    g.attrs["dist"] = np.float64(about["dist"])
    g.attrs["match"] = np.float64(about["match"])
    g.attrs["comment"] = ATTRACTORS_COMMENT


def to_xarray(result):
    """The Layout of `result` as an xarray.Dataset (what xarray reads from the saved file)."""
    from ._missing import require
    xr = require("xarray", "python3-xarray")
    lay = layout(result)
    coords = {name: (dims, values, attrs) for name, (dims, values, attrs) in lay.coords.items()}
    variables = {}
    for name, (dims, values, attrs) in lay.variables.items():
        attrs = dict(attrs)
        attrs.pop("coordinates", None)   # xarray holds them as coordinates
        variables[name] = (dims, values, attrs)
    return xr.Dataset(variables, coords=coords, attrs=lay.attrs)
