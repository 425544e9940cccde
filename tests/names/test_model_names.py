#!/usr/bin/python3
"""Model names (issue 19, D14): a model is named after its file (`duffing.ode` is the model
`duffing`), and its name prefixes the library's API (duffing_solver_create, DUFFING_STATE_X,
DUFFING_H, …).  A file named like a family of identifiers that the generated code or its headers
already use (`ode.ode` would make ODE_STATUS_FINISHED twice; MPI_Comm.ode MPI_Comm_set_name) must
still give code that compiles: odegen renames such a model (`m_ode`, with a note saying why).

Which names can meet an identifier is computed here, from the compilers of this machine: the
generated code of a probe model, preprocessed as they see it (NAME.cu as C with OpenMP, again
with -DODE_MPI and mpi.h when mpicc is installed; NAME_main.c with -DODE_HDF5 and hdf5.h when
HDF5 is), gives every identifier declared at file scope (outside braces and parentheses, and
enum constants) and every macro; the probe's own code gives its identifiers (locals too) and
what a model's name prefixes: the suffixes s of NAME_s and S of NAME_S.  A name N is a
candidate when N_s or N_S (N in capitals) is one of those identifiers — the complete list of
names that could clash — and so are, as a control, the first part (before '_') of every
eighth identifier of the generated code, C and C++ keywords, and names that start with '_' or
a digit.

Each candidate becomes FILE.ode (as spelled, and in lower case); odegen must translate it and
the generated code must compile (cc -fsyntax-only: NAME.cu as C with OpenMP, with MPI; the
runner's NAME_main.c with HDF5; a user's program that includes C's, POSIX's and OpenMP's headers,
then NAME.h: unistd.h's W_OK made the models w, r, x and f fail there).

With --nvcc (tests/gpu/run.sh), the candidates are those of nvcc's view of the code (cuda_runtime.h
and its macros) and each is compiled by nvcc -arch=sm_90.

Run: /usr/bin/python3 tests/names/test_model_names.py [--nvcc]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import ROOT, check, main  # noqa: E402

ODEGEN = os.path.join(ROOT, "build", "odegen")   # (the ASan build: tests/errors, tests/names/test_paths)
MODEL = """# every kind of name the API enumerates
par k=0.5
!kk=2*k
x'=-k*x
y'=x
aux energy=x*x
acc hits=0
event cross: x-0.5, dir=-1
on cross { hits = hits + 1 }
@ total=1
done
"""
KEYWORDS = ("auto break case char const continue default do double else enum extern float for goto if inline int "
            "long register restrict return short signed sizeof static struct switch typedef union unsigned void "
            "volatile while bool true false class new delete this template typename namespace main").split()


def output(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", **kw)
    return p.returncode, p.stdout, p.stderr


def flags(cmd):
    rc, out, _ = output(cmd) if shutil.which(cmd[0]) else (1, "", "")
    return out.split() if rc == 0 else None


MPI = flags(["mpicc", "-showme:compile"])
HDF5 = flags(["pkg-config", "--cflags", "hdf5-serial"])
if HDF5 is None and os.path.exists("/usr/include/hdf5.h"):
    HDF5 = []


NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)
WITH_NVCC = "--nvcc" in sys.argv   # (tests/gpu/run.sh: nvcc compiles, and the candidates are nvcc's)
if WITH_NVCC:
    sys.argv.remove("--nvcc")


def compiles():
    """How a generated folder is compiled: (label, compile argv, preprocess argv, which file)."""
    if WITH_NVCC:
        nv = [NVCC, "-arch=sm_90", "-x", "cu", "-Xcompiler", "-fopenmp"]
        return [("nvcc", nv + ["-O0", "-c", "-o", os.devnull], nv + ["-E"], "cu")]
    c = ["cc", "-std=c11", "-fopenmp", "-x", "c"]
    check_only = ["-fsyntax-only", "-Werror=implicit-function-declaration"]
    jobs = [("cc", c + check_only, c + ["-E"], "cu")]
    if MPI is not None:
        jobs.append(("cc with MPI", c + check_only + ["-DODE_MPI"] + MPI, c + ["-DODE_MPI"] + MPI + ["-E"], "cu"))
    main_flags = ["-DODE_HDF5"] + HDF5 if HDF5 is not None else []
    jobs.append(("the runner's main" + (" with HDF5" if HDF5 is not None else ""),
                 ["cc", "-fsyntax-only"] + main_flags, ["cc", "-E"] + main_flags, "main"))
    jobs.append(("a user's program with C's and POSIX's headers", ["cc", "-fsyntax-only", "-fopenmp"],
                 ["cc", "-E", "-fopenmp"], "user"))
    return jobs


# The headers a user's program may include before the model's header (NAME.h is the library's
# API): C11's, POSIX's usual ones and OpenMP's.  unistd.h's W_OK, R_OK, X_OK and F_OK are why:
# the models w, r, x and f had an API whose NAME_OK those macros replace.
USER_HEADERS = ("assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal "
                "stdalign stdarg stdatomic stdbool stddef stdint stdio stdlib stdnoreturn string tgmath "
                "time uchar wchar wctype unistd fcntl dirent dlfcn getopt glob poll pthread sched "
                "semaphore strings termios sys/types sys/stat sys/wait sys/time sys/mman sys/resource "
                "sys/select sys/socket sys/utsname netdb omp").split()


def source(gen, name, which):
    """The file a compile job reads: the generated NAME.cu or NAME_main.c, or a user's program
    (written here) that includes USER_HEADERS, then NAME.h, and calls the library."""
    if which == "cu":
        return os.path.join(gen, name + ".cu")
    if which == "main":
        return os.path.join(gen, name + "_main.c")
    path = os.path.join(gen, "user_of_" + name + ".c")
    with open(path, "w") as f:
        f.write("".join("#include <%s.h>\n" % h for h in USER_HEADERS))
        f.write('#include "%s.h"\nint main(void) { return %s_OK; }\n' % (name, name.upper()))
    return path


def identifiers(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', " ", text)
    text = re.sub(r"'(?:[^'\\\n]|\\.)*'", " ", text)
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    return set(re.findall(r"\b[A-Za-z_]\w*\b", text))


def generate(folder, stem):
    """FOLDER/STEM.ode translated into FOLDER/gen; the model's name, or the failure."""
    with open(os.path.join(folder, stem + ".ode"), "w") as f:
        f.write(MODEL)
    rc, _, err = output([ODEGEN, "-q", stem + ".ode", "-o", "gen"], cwd=folder)
    if rc != 0:
        return None, "odegen: status %d\n%s" % (rc, err[-1500:])
    make = open(os.path.join(folder, "gen", "Makefile")).read()
    return re.search(r"^NAME := (\S+)$", make, re.M).group(1), None


def file_scope(text):
    """The identifiers a preprocessed C file declares at file scope (approximately: outside
    braces and parentheses, and the constants of enums), with what declares them."""
    out, depth, paren, enums, after_enum = set(), 0, 0, [], False
    for tok in re.findall(r"[A-Za-z_]\w*|[{}()]", re.sub(r"^\s*#.*$", " ", text, flags=re.M)):
        if tok == "{":
            depth += 1
            if after_enum:
                enums.append(depth)
        elif tok == "}":
            if enums and enums[-1] == depth:
                enums.pop()
            depth -= 1
        elif tok == "(":
            paren += 1
        elif tok == ")":
            paren -= 1
        elif paren == 0 and (depth == 0 or (enums and enums[-1] == depth)):
            out.add(tok)
        after_enum = tok == "enum" or (after_enum and tok not in "{}()")
    return out


def probe():
    """The identifiers a model's name could meet, what it prefixes (NAME_s, NAME_S), and the
    identifiers of the generated code itself."""
    tmp = tempfile.mkdtemp(prefix="names-probe-")
    try:
        name, err = generate(tmp, "zzprobe")
        check(name == "zzprobe", "probe: %s %s" % (name, err))
        gen = os.path.join(tmp, "gen")
        own = identifiers("\n".join(open(os.path.join(gen, f)).read() for f in os.listdir(gen)))
        seen = set(own)
        for label, _, cmd, which in compiles():
            src = source(gen, "zzprobe", which)
            rc, pre, err = output(cmd + [src])
            check(rc == 0, "%s -E: %s" % (label, err[-1000:]))
            seen |= file_scope(pre)
            rc, defs, err = output(cmd + (["-Xcompiler", "-dM"] if WITH_NVCC else ["-dM"]) + [src])
            check(rc == 0, "%s -E -dM: %s" % (label, err[-1000:]))
            seen |= set(re.findall(r"^#define (\w+)", defs, re.M))
        low = {i[len("zzprobe"):] for i in own if i.startswith("zzprobe")}
        up = {i[len("ZZPROBE"):] for i in own if i.startswith("ZZPROBE")}
        seen = {i for i in seen if not i.lower().startswith("zzprobe")}
        own = {i for i in own if not i.lower().startswith("zzprobe")}
        return seen, low, up, own
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def candidates():
    seen, low, up, own = probe()
    names = {"_x", "__y", "_", "3body", "Ode", "ODE", "ode", "odegen", "ODEGEN", "cuda", "omp"}
    if not WITH_NVCC:
        names |= set(KEYWORDS)
    for ident in seen:
        for s in low:
            if ident.endswith(s) and len(ident) > len(s):
                names.add(ident[:-len(s)])
        for s in up:
            if ident.endswith(s) and len(ident) > len(s):
                names.add(ident[:-len(s)])
    # a control of the reasoning above: every eighth first part of the code's own identifiers
    # (with nvcc, whose compiles take a minute each: CUDA's own prefixes instead)
    if WITH_NVCC:
        names |= {"cuda", "CUDA", "cudart", "nv", "NV", "curand", "cub", "thrust", "dim3", "atomic", "warp"}
    else:
        names |= set(sorted({i.split("_")[0] for i in own if "_" in i.strip("_")})[::8])
    names = {n for n in names if re.match(r"[A-Za-z0-9_]+$", n)}
    names |= {n.lower() for n in names}
    return sorted(names), len(seen)


def try_name(stem):
    tmp = tempfile.mkdtemp(prefix="names-model-")
    try:
        name, err = generate(tmp, stem)
        if err:
            return "%s.ode: %s" % (stem, err)
        gen = os.path.join(tmp, "gen")
        for label, cmd, _, which in compiles():
            src = source(gen, name, which)
            rc, _, out = output(cmd + [src])
            if rc != 0:
                errors = [line for line in out.split("\n") if "error" in line][:3]
                return "%s.ode (model %s): %s fails:\n  %s" % (stem, name, label, "\n  ".join(errors))
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_every_family():
    """every identifier family of the generated code and its headers, as a model's name"""
    names, nseen = candidates()
    with ThreadPoolExecutor(int(os.environ.get("ODEGEN_JOBS", "2"))) as pool:
        failures = [f for f in pool.map(try_name, names) if f]
    print("    %d names tried (families of %d identifiers; %s)" % (
        len(names), nseen, ", ".join(label for label, _, _, _ in compiles())))
    check(not failures, "%d of %d names fail:\n%s" % (len(failures), len(names), "\n".join(failures[:40])))


def test_renamed_with_a_note():
    """ode.ode is the model m_ode, and odegen says why"""
    tmp = tempfile.mkdtemp(prefix="names-note-")
    try:
        with open(os.path.join(tmp, "ode.ode"), "w") as f:
            f.write(MODEL)
        rc, _, err = output([ODEGEN, "ode.ode"], cwd=tmp)
        check(rc == 0, "odegen ode.ode: %d %s" % (rc, err))
        check("the model's name is 'm_ode', from 'ode.ode'" in err, "no note:\n%s" % err)
        check(os.path.exists(os.path.join(tmp, "m_ode", "m_ode.cu")), "files: %s" % os.listdir(tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main([("every_family", test_every_family), ("renamed_with_a_note", test_renamed_with_a_note)]))
