"""odegen for Python: many copies of an ODE model integrated at once, arrays in and out.

    import numpy as np, odegen
    m = odegen.load("models/duffing.ode")            # translate + build (cached by content)
    r = m.scan({"k": np.linspace(0.2, 0.3, 30720)},  # one array per name, or odegen.grid(...)
               transient=1024, record=32, fields=["y1", "y2"])
    r["y1"].shape        # (30720, 32): systems x recorded integrations
    r.status             # per system and rep, as strings ("finished", "nan", ...)

The model is translated by odegen and built as a shared library (the generated Makefile's
`shared` target), kept in a cache folder ($ODEGEN_CACHE, $XDG_CACHE_HOME/odegen or
~/.cache/odegen) under the hash of the generated source and the build settings, and driven
through its C API (runtime/api.h) with ctypes: on the GPU when one is present, else on the CPU
with OpenMP.  Needs numpy only (Debian: python3-numpy).

Results are held in memory; for results larger than memory use the runner's HDF5 output
(./MODEL -o FILE.h5), which streams them to disk chunk by chunk.
"""
from ._missing import MissingPackage, missing as _missing, require

try:
    import numpy as _numpy  # noqa: F401  (the one dependency)
except ImportError:
    raise _missing("numpy", "python3-numpy") from None

from ._build import BuildError, ModelError, ModelNote, ModelWarning, cache_dir, gpu_present
from ._model import (CODE_OPTIONS, NOISE_OPTIONS, RUNTIME_OPTIONS, STATUS_NAMES, Grid, Model, Names, OdegenError,
                     Result, RunResult, available_memory, grid, load)

__version__ = "0.2.0"   # odegen's (generator/base/version.h; a test keeps them equal)
__all__ = ["load", "grid", "Model", "Result", "RunResult", "Grid", "Names", "ModelError", "BuildError",
           "ModelWarning", "ModelNote",
           "OdegenError", "MissingPackage", "require", "STATUS_NAMES", "RUNTIME_OPTIONS", "NOISE_OPTIONS", "CODE_OPTIONS",
           "cache_dir", "available_memory", "gpu_present"]
