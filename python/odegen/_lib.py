"""ctypes over the C API of a generated model (runtime/api.h, every name prefixed by the
model's: duffing_solver_create, …).  Only declarations here: argument and result types, the
constants of api.h, and the two structs that cross the boundary."""
import ctypes
from ctypes import POINTER, c_char_p, c_double, c_int, c_long, c_longlong, c_size_t, c_ulonglong, c_void_p

# api.h's constants (the same for every model).
OK = 0
ERR_STOPPED = -9
KIND_STATE, KIND_PARAM, KIND_ACC, KIND_AUX, KIND_DERIVED, KIND_EVENT, KIND_FIELD = range(7)
KIND_T, KIND_T0, KIND_T1, KIND_STATUS, KIND_STEPS, KIND_EVALS = range(7, 13)
BACKEND_AUTO, BACKEND_CPU, BACKEND_GPU = 0, 1, 2
# The statuses in code order (templates/system.h's list, which every library reports through
# model_status_name: Library checks that its own are these).
STATUS_NAMES = ("ready", "finished", "event", "equilibrium", "maxsteps", "bound", "nan", "singular", "zeno",
                "empty", "unstable", "history", "dae_failed")
NSTATUS = len(STATUS_NAMES)

PROGRESS_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_long, c_long)
RECORD_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_int, c_void_p)


class Pool(ctypes.Structure):
    """model_pool: structure-of-arrays problems, value k of entry j at [k * size + j]."""
    _fields_ = [("size", c_long), ("t0", c_void_p), ("t1", c_void_p), ("states", c_void_p),
                ("params", c_void_p), ("acc", c_void_p), ("status", c_void_p), ("t", c_void_p)]


class Stats(ctypes.Structure):
    """model_stats."""
    _fields_ = [("steps", c_ulonglong), ("evals", c_ulonglong), ("count", c_long * NSTATUS),
                ("kernel_seconds", c_double), ("lyap_trace_off", c_long)]


class Attractor(ctypes.Structure):
    """model_attractor: one row of an attractor table."""
    _fields_ = [("slice", c_longlong), ("label", c_int), ("kind", c_int), ("period", c_int), ("lambda1", c_double),
                ("systems", c_longlong), ("slice_systems", c_longlong), ("fraction", c_double),
                ("fraction_err", c_double)]


# name: (result type, argument types)
_FUNCTIONS = {
    "strerror": (c_char_p, [c_int]),
    "modelname": (c_char_p, []),
    "count": (c_int, [c_int]),
    "name": (c_char_p, [c_int, c_int]),
    "index": (c_int, [c_int, c_char_p]),
    "default": (c_double, [c_int, c_int]),
    "default_fields": (c_int, [POINTER(c_int)]),
    "default_repeat": (None, [POINTER(c_int), POINTER(c_int)]),
    "scan_count": (c_int, []),
    "scan_line": (c_int, [c_int, POINTER(c_int), POINTER(c_int), POINTER(c_long)]),
    "scan_value": (c_double, [c_int, c_long]),
    "status_name": (c_char_p, [c_int]),
    "field_about": (c_int, [c_int] + [POINTER(c_char_p)] * 4),
    "source": (c_char_p, []),
    "source_path": (c_char_p, []),
    "odegen_version": (c_char_p, []),
    "precision": (c_char_p, []),
    "solver_options_text": (c_int, [c_void_p, c_char_p, c_size_t]),
    "gpu_count": (c_int, []),
    "gpu_error": (c_char_p, []),
    "gpu_info": (c_int, [c_int, c_char_p, c_size_t, POINTER(c_size_t), POINTER(c_size_t)]),
    "solver_create": (c_int, [POINTER(c_void_p), c_int, c_int, POINTER(c_int), c_int]),
    "solver_free": (None, [c_void_p]),
    "solver_error": (c_char_p, [c_void_p]),
    "solver_size": (c_int, [c_void_p]),
    "solver_backend": (c_int, [c_void_p]),
    "solver_describe": (c_char_p, [c_void_p]),
    "solver_estimate": (c_int, [c_long, c_int, c_int, c_int, POINTER(c_size_t), POINTER(c_size_t)]),
    "solver_set_progress": (c_int, [c_void_p, PROGRESS_FN, c_void_p]),
    "option_count": (c_int, []),
    "option_name": (c_char_p, [c_int]),
    "option_default": (c_int, [c_char_p, POINTER(c_double)]),
    "solver_set_option": (c_int, [c_void_p, c_char_p, c_double]),
    "solver_get_option": (c_int, [c_void_p, c_char_p, POINTER(c_double)]),
    "solver_set_fields": (c_int, [c_void_p, POINTER(c_int), c_int]),
    "solver_load": (c_int, [c_void_p, POINTER(Pool), c_long, c_int, c_int]),
    "solver_store": (c_int, [c_void_p, POINTER(Pool), c_long, c_int, c_int]),
    "solver_run": (c_int, [c_void_p]),
    "solver_scan": (c_int, [c_void_p, c_int, c_int, RECORD_FN, c_void_p]),
    "solver_recorded_values": (c_int, [c_void_p, c_int, c_int, c_int, c_int, c_void_p, c_long]),
    "solver_recorded_statuses": (c_int, [c_void_p, c_int, c_int, c_int, c_void_p, c_long]),
    "solver_stats": (c_int, [c_void_p, POINTER(Stats)]),
    "attractor_quantities": (c_int, [POINTER(c_int)]),
    "attractor_kind_name": (c_char_p, [c_int]),
    "attractor_dist": (c_double, []),
    "attractor_match": (c_double, []),
    "attractors_create": (c_int, [POINTER(c_void_p), c_longlong]),
    "attractors_free": (None, [c_void_p]),
    "attractors_group": (c_int, [c_void_p, c_void_p, c_longlong]),
    "attractors_count": (c_int, [c_void_p]),
    "attractors_row": (c_int, [c_void_p, c_int, POINTER(Attractor), c_void_p, c_void_p, c_void_p]),
    "attractors_label": (c_int, [c_void_p, c_longlong, POINTER(c_int)]),
    "basin_entropy": (c_int, [c_void_p, c_int, c_void_p, c_int, POINTER(c_double), POINTER(c_double),
                              POINTER(c_longlong), POINTER(c_longlong)]),
    "basin_uncertainty": (c_int, [c_void_p, c_int, c_void_p, c_int, c_void_p, c_void_p, POINTER(c_double),
                                  POINTER(c_double)]),
}


class Library:
    """The functions of one generated model's shared library, without the prefix:
    lib.solver_create(…) calls duffing_solver_create(…)."""

    def __init__(self, path, prefix):
        self.path = path
        self.prefix = prefix
        self.dll = ctypes.CDLL(path)
        for name, (restype, argtypes) in _FUNCTIONS.items():
            fn = getattr(self.dll, "%s_%s" % (prefix, name))
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)
        theirs = tuple(self.text(self.status_name(k)) for k in range(NSTATUS + 1))
        if theirs != STATUS_NAMES + ("unknown",):
            raise ImportError("%s was built by another version of odegen (its statuses: %s; this package's: %s): "
                              "translate the model again" % (path, ", ".join(theirs), ", ".join(STATUS_NAMES)))

    def text(self, raw):
        return raw.decode("utf-8", "replace") if raw is not None else None

    def names(self, kind):
        return tuple(self.text(self.name(kind, i)) for i in range(self.count(kind)))
