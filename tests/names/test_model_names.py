#!/usr/bin/python3
"""Model names (issue 19, D14): a model is named after its file (`ode.ode` is the model `ode`),
and its name prefixes the library's API (ode_solver_create, ODE_STATUS_FINISHED, ODE_H, …).
A file named like a family of identifiers that the generated code or its headers already use
(`ode_`, `ODE_` of odegen's own code, `MPI_` of mpi.h, `F_OK` of unistd.h, …) must still give
code that compiles: odegen renames such a model (`m_ode`, with a note) or its name is harmless.

The identifiers are those of the generated code itself, preprocessed as the compilers see it:
NAME.cu as C with OpenMP (and again with -DODE_MPI and mpi.h, when mpicc is installed), and
NAME_main.c with -DODE_HDF5 and hdf5.h (when HDF5 is installed), with the macros they define.
A family is every prefix of such an identifier that ends before a '_' (ODE, ODE_STATUS).
Candidates for a model's name:
  - every family of the first level (the part before the first '_'), as spelled and in lower
    case (the API has both forms: NAME_solver_create and NAME_STATE_X);
  - every deeper family that would meet an identifier of the code: NAME_s or NAME_S, for the
    suffixes s and S that a model's name prefixes (learnt from a probe model), is one of them;
  - names that start with '_' or a digit, and the C and C++ keywords.
Each becomes FILE.ode; odegen must translate it and the generated code must compile (cc
-fsyntax-only: NAME.cu as C with OpenMP, and with MPI; NAME_main.c with HDF5).

Run: /usr/bin/python3 tests/names/test_model_names.py
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


def compiles():
    """The compile commands (cc -fsyntax-only) for a generated folder: (label, argv, file)."""
    c = ["cc", "-std=c11", "-fopenmp", "-x", "c", "-fsyntax-only", "-Werror=implicit-function-declaration"]
    jobs = [("cc", c, "cu")]
    if MPI is not None:
        jobs.append(("cc with MPI", c + ["-DODE_MPI"] + MPI, "cu"))
    jobs.append(("the runner's main" + (" with HDF5" if HDF5 is not None else ""),
                 ["cc", "-fsyntax-only"] + (["-DODE_HDF5"] + HDF5 if HDF5 is not None else []), "main"))
    return jobs


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


def probe():
    """Every identifier the code and its headers see, and what a model's name prefixes."""
    tmp = tempfile.mkdtemp(prefix="names-probe-")
    try:
        name, err = generate(tmp, "zzprobe")
        check(name == "zzprobe", "probe: %s %s" % (name, err))
        gen = os.path.join(tmp, "gen")
        texts = [open(os.path.join(gen, f)).read() for f in os.listdir(gen)]
        seen = set()
        for label, cmd, which in compiles():
            src = os.path.join(gen, "zzprobe.cu" if which == "cu" else "zzprobe_main.c")
            cmd = [a for a in cmd if a not in ("-fsyntax-only", "-Werror=implicit-function-declaration")]
            rc, pre, err = output(cmd + ["-E", src])
            check(rc == 0, "%s -E: %s" % (label, err[-1000:]))
            seen |= identifiers(pre)
            rc, defs, err = output(cmd + ["-E", "-dM", src])
            check(rc == 0, "%s -E -dM: %s" % (label, err[-1000:]))
            seen |= set(re.findall(r"^#define (\w+)", defs, re.M))
        own = identifiers("\n".join(texts))
        low = {i[len("zzprobe"):] for i in own if i.startswith("zzprobe")}
        up = {i[len("ZZPROBE"):] for i in own if i.startswith("ZZPROBE")}
        seen = {i for i in seen if not i.lower().startswith("zzprobe")}
        return seen, low, up
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def candidates():
    seen, low, up = probe()
    names = set(KEYWORDS) | {"_x", "__y", "_", "3body", "Ode", "ODE", "ode", "odegen", "ODEGEN"}
    for ident in seen:
        parts = ident.split("_")
        for k in range(1, len(parts)):
            fam = "_".join(parts[:k])
            if not re.match(r"[A-Za-z][A-Za-z0-9_]*$", fam):
                continue
            if k == 1:
                names |= {fam, fam.lower()}
            elif {fam + s for s in low} & seen or {fam.upper() + s for s in up} & seen:
                names |= {fam, fam.lower()}
    # (names differing only in case make the same files on a case-insensitive disk: tried apart)
    return sorted(names), len(seen)


def try_name(stem):
    tmp = tempfile.mkdtemp(prefix="names-model-")
    try:
        name, err = generate(tmp, stem)
        if err:
            return "%s.ode: %s" % (stem, err)
        gen = os.path.join(tmp, "gen")
        for label, cmd, which in compiles():
            src = os.path.join(gen, name + (".cu" if which == "cu" else "_main.c"))
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
        len(names), nseen, ", ".join(label for label, _, _ in compiles())))
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
