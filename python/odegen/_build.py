"""From a .ode file to a loaded shared library: translate, build once, cache.

Every load runs the translator (milliseconds) into a fresh folder of the cache; the cache key
is the SHA-256 of what it wrote (the generated source embeds the model, its options, the
precision and the translator's templates, so any change of the model, the options or odegen
gives another key) and of how it is built (compiler, backend, flags).  A key already in the
cache is loaded as it is; a new one is built in its temporary folder under an exclusive lock
(fcntl.flock) and renamed into place when complete, so that two processes building the same
model build it once and never see half a library.

The cache is $ODEGEN_CACHE, else $XDG_CACHE_HOME/odegen, else ~/.cache/odegen; removing it is
always safe.  The translator is $ODEGEN_TRANSLATOR, else build/odegen of the checkout this
package belongs to (made with `make build/odegen` when missing or out of date), else the one
an installed package carries (odegen/bin/odegen: pip install builds it), else `odegen` on PATH.
"""
import ctypes
import errno
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECIPE = "odegen-python-build-1"   # changes when the way the library is built changes


class ModelError(Exception):
    """The .ode file has errors; the message is the translator's (file:line:col, the line, a
    caret under the problem), every error of the file in one message."""

    def __init__(self, text, path=None):
        super().__init__(text)
        self.path = path
        self.text = text


class BuildError(RuntimeError):
    """The generated source did not build (the message ends with the compiler's output)."""


class ModelWarning(UserWarning):
    """A warning of the translator about the model, shown through Python's warnings module
    when the model is loaded: file:line:col, the message, the line and a caret."""


class ModelNote(ModelWarning):
    """A note of the translator (how odegen reads what XPPAUT reads otherwise, an option it
    ignores, …): warnings.simplefilter("ignore", odegen.ModelNote) hides notes only."""


def diagnostics(text):
    """The translator's warnings and notes (its standard error when it succeeded) as a list of
    (kind, message), kind "warning" or "note", each message with its context lines (the
    source line and the caret, which start with blanks)."""
    found = []
    for line in text.splitlines():
        if found and (line[:1].isspace() or not line):
            found[-1][1].append(line)
            continue
        kind = re.search(r": (warning|note): ", line)
        found.append((kind.group(1) if kind else "note", [line]))
    return [(kind, "\n".join(lines).rstrip("\n")) for kind, lines in found]


def cache_dir():
    """Where built models are kept."""
    if os.environ.get("ODEGEN_CACHE"):
        return os.environ["ODEGEN_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "odegen")


_translator = None


def _up_to_date():
    """Whether the checkout's build/odegen is up to date (make -q)."""
    return subprocess.run(["make", "-s", "-q", "-C", ROOT, "build/odegen"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def _is_script(path):
    """Whether path is a script (the `odegen` command pip installs runs this package)."""
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return True


def translator():
    """The odegen translator to run: $ODEGEN_TRANSLATOR; else the checkout's build/odegen when
    this package runs from an odegen checkout (made first when out of date); else the one an
    installed package carries (odegen/bin/odegen, built by pip install); else `odegen` on PATH."""
    global _translator
    if _translator:
        return _translator
    if os.environ.get("ODEGEN_TRANSLATOR"):
        _translator = os.environ["ODEGEN_TRANSLATOR"]
        return _translator
    if os.path.exists(os.path.join(ROOT, "Makefile")) and os.path.isdir(os.path.join(ROOT, "generator")):
        if not _up_to_date():
            os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
            with open(os.path.join(ROOT, "build", ".translator.lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)   # one make at a time: two would race on its files
                if not _up_to_date():
                    sys.stderr.write("odegen: building the translator (make -C %s build/odegen)\n" % ROOT)
                    p = subprocess.run(["make", "-s", "-C", ROOT, "build/odegen"], stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True)
                    if p.returncode != 0:
                        raise BuildError("building the translator failed (make -C %s build/odegen):\n%s"
                                         % (ROOT, p.stdout[-4000:]))
        _translator = os.path.join(ROOT, "build", "odegen")
        return _translator
    carried = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "odegen")
    if os.access(carried, os.X_OK):
        _translator = carried
        return _translator
    found = shutil.which("odegen")
    if not found or _is_script(found):
        raise BuildError("no odegen translator: set ODEGEN_TRANSLATOR to its path, install the package with pip "
                         "from an odegen checkout (pip install ./python), or use it from the checkout")
    _translator = found
    return _translator


def nvcc():
    """The CUDA compiler the generated Makefile would use, or None."""
    found = shutil.which("nvcc")
    if found:
        return found
    return "/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None


def gpu_present():
    """(True, "") when this machine has an NVIDIA GPU that CUDA could use, else (False, why).

    Told cheaply, without a CUDA call (which would cost time, and break CUDA in processes
    that this one forks later): the NVIDIA driver's device nodes /dev/nvidia0, /dev/nvidia1, …
    (a container sees only the GPUs it was given) or WSL's /dev/dxg, the driver's library
    libcuda.so.1 (what the CUDA runtime loads), and CUDA_VISIBLE_DEVICES not hiding every
    device.  A wrong "yes" costs only an nvcc build; the library then reports "no GPU"."""
    try:
        nodes = [n for n in os.listdir("/dev") if n.startswith("nvidia") and n[6:].isdigit()]
    except OSError:
        nodes = []
    if not nodes and not os.path.exists("/dev/dxg"):
        return False, "no NVIDIA GPU device (/dev/nvidia0, …)"
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None and visible.strip() in ("", "-1", "NoDevFiles"):
        return False, "CUDA_VISIBLE_DEVICES=%r hides every GPU" % visible
    try:
        ctypes.CDLL("libcuda.so.1")   # loads the driver's library only: no CUDA call
    except OSError:
        return False, "no NVIDIA driver library (libcuda.so.1)"
    return True, ""


def _option_args(options):
    args = []
    for name, value in options.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError("option names are words like 'dt', not %r" % (name,))
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError("option %s: a number or a word (meth=rkck45), not %r" % (name, value))
        text = value if isinstance(value, str) else repr(value if isinstance(value, int) else float(value))
        args += ["--option", "%s=%s" % (name, text)]
    return args


def _translate(path, precision, options, into):
    cmd = [translator(), "-o", into, "-q"]
    if precision:
        cmd += ["--precision", precision]
    cmd += _option_args(options)
    cmd += ["--", path]   # a path that starts with '-' is a file, not an option
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode == 1 and "error" in p.stderr:
        raise ModelError(p.stderr.rstrip("\n"), path)
    if p.returncode != 0:
        raise BuildError("%s failed (exit status %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    name = None
    with open(os.path.join(into, "Makefile")) as f:
        for line in f:
            if line.startswith("NAME := "):
                name = line[len("NAME := "):].strip()
    if not name:
        raise BuildError("the generated Makefile in %s names no model" % into)
    return name, p.stderr


def _key(gen, build_vars):
    h = hashlib.sha256(RECIPE.encode() + b"\0")
    for name in sorted(os.listdir(gen)):
        h.update(name.encode() + b"\0")
        with open(os.path.join(gen, name), "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    for k in sorted(build_vars):
        h.update(("%s=%s\0" % (k, build_vars[k])).encode())
    return h.hexdigest()


def _build_vars(build):
    """The make variables of a build: backend, compilers and flags (all in the cache key).
    "auto" builds what the machine can run: with nvcc (GPU and CPU) where there is a GPU and
    nvcc, else with the C compiler (CPU; seconds, where nvcc takes minutes)."""
    if build not in ("auto", "cpu", "cuda"):
        raise ValueError("build must be 'auto', 'cpu' or 'cuda', not %r" % (build,))
    cuda = nvcc()
    if build == "cuda" and not cuda:
        raise BuildError("build='cuda' needs nvcc (not on PATH, nor in /usr/local/cuda/bin)")
    backend = "cuda" if build == "cuda" or (build == "auto" and cuda and gpu_present()[0]) else "cpu"
    v = {"BACKEND": backend, "CC": os.environ.get("CC", "cc")}
    if backend == "cuda":
        v["NVCC"] = cuda
        v["ARCH"] = os.environ.get("ARCH", "sm_90")
    for k in ("CFLAGS", "NVCCFLAGS", "LDFLAGS"):
        if os.environ.get(k):
            v[k] = os.environ[k]
    return v


class Built:
    """A model in the cache: its folder, name, library, and whether this call built it."""

    def __init__(self, folder, name, built, notes, backend):
        self.folder = folder
        self.name = name
        self.library = os.path.join(folder, "lib%s.so" % name)
        self.built = built
        self.notes = notes
        self.backend = backend


def _build(work, name, build_vars, quiet):
    if not quiet:
        what = "with nvcc (GPU and CPU)" if build_vars["BACKEND"] == "cuda" else "with %s (CPU)" % build_vars["CC"]
        if build_vars["BACKEND"] == "cpu" and nvcc():
            what = "with %s (CPU; no GPU here, so not nvcc: %s)" % (build_vars["CC"], gpu_present()[1])
        sys.stderr.write("odegen: building %s %s (once; cached in %s)\n" % (name, what, cache_dir()))
        sys.stderr.flush()
    cmd = ["make", "-s", "-C", work, "shared"] + ["%s=%s" % kv for kv in sorted(build_vars.items())]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(work, "build.log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + p.stdout)
    if p.returncode != 0:
        raise BuildError("building %s failed (%s):\n%s" % (name, " ".join(cmd), p.stdout[-6000:]))


def build(path, precision=None, options=None, build="auto", quiet=False):
    """Translates `path` and returns the Built model, from the cache or built now."""
    if precision not in (None, "double", "float"):
        raise ValueError("precision must be 'double' or 'float', not %r" % (precision,))
    if not os.path.isfile(path):
        raise FileNotFoundError(errno.ENOENT, "no such .ode file", path)
    build_vars = _build_vars(build)
    root = cache_dir()
    tmp_root = os.path.join(root, ".tmp")
    os.makedirs(tmp_root, exist_ok=True)
    work = tempfile.mkdtemp(prefix="new-", dir=tmp_root)
    try:
        name, notes = _translate(path, precision, dict(options or {}), work)
        key = _key(work, build_vars)
        final = os.path.join(root, "%s-%s" % (name, key[:32]))
        built = False
        if not os.path.exists(os.path.join(final, "lib%s.so" % name)):
            locks = os.path.join(root, ".locks")
            os.makedirs(locks, exist_ok=True)
            with open(os.path.join(locks, os.path.basename(final) + ".lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)   # released when the file closes
                if not os.path.exists(os.path.join(final, "lib%s.so" % name)):
                    _build(work, name, build_vars, quiet)
                    if os.path.isdir(final):       # damaged by hand (its library removed)
                        shutil.rmtree(final)
                    os.rename(work, final)         # atomic: the folder appears complete
                    built = True
        return Built(final, name, built, notes, build_vars["BACKEND"])
    finally:
        if os.path.isdir(work):
            shutil.rmtree(work, ignore_errors=True)
