#!/usr/bin/python3
"""Name clashes: a model whose states, parameters, aux quantities, temporaries,
derived parameters, accessories, events and function arguments are named like
every identifier of the generated code and its runtime, like every macro its
compilers define where the model's code stands, like the keywords of C, C++ and
CUDA, and like odegen's own words (t0, t1, count, status, system, rep), must
translate, compile and run with cc, compile with nvcc -arch=sm_90 when nvcc
is there, and every output must spell the names as declared (issue 9).

Where the names come from (computed here, on this machine, so that a new
compiler or CUDA version is checked too):
  - the identifiers of the generated source of tests/golden/kitchen_sink.ode
    (the templates, the library, the runner; comments and strings left out);
  - the macros `cc -std=c11 -dM -E` and `nvcc -E -Xcompiler -dM` define at the
    generated model's first function (its headers: math.h, stdint.h, the NAME.h
    API, and with nvcc cuda_runtime.h);
  - C, C++ and CUDA keywords, and the names above.
Names a model cannot declare are left out: t, pi, the operator words (if,
then, else, and, or, not), the built-in functions (sin, …: declaring one is
an error that says so), and, names being case-insensitive, all but one
spelling of each.  Names that start with two underscores (the compilers'
own: __GNUC__, __cudaLaunch, …) are renamed by the rule for every name that
starts with '_'; a hundred of them stand for the rest.

The names are dealt round-robin to the roles below, once per rotation, so
that every name is tried in every role; each rotation is one model, built
with cc and run.  Each runner must run to `finished`, its CSV header must
hold the declared spellings of its states, aux quantities and accessories,
and one known value per model is checked (a state decaying as exp(-t)).
nvcc compiles one more model, where every name stands once in a role that is
cheap for it (the C name of a symbol does not depend on its role; what nvcc
adds is CUDA's own names and macros).

The nvcc compile takes minutes (cicc on a model of two thousand names): it
runs with --nvcc, which tests/gpu/run.sh gives; `make test` runs the rest
(the macros nvcc defines are among the names either way, when nvcc is there).

Run: /usr/bin/python3 tests/names/test_names.py [--nvcc]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

os.environ.setdefault("ODEGEN_SANITIZE", "0")
os.environ.setdefault("CFLAGS", "-O0")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import BUILD, ODEGEN, ROOT, Failure, build, check, main, run  # noqa: E402

NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)
WITH_NVCC = "--nvcc" in sys.argv
if WITH_NVCC:
    sys.argv.remove("--nvcc")

KEYWORDS = """auto break case char const continue default do double else enum extern float for goto if inline int
long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
alignas alignof and and_eq asm bitand bitor bool catch char8_t char16_t char32_t class compl concept const_cast
consteval constexpr constinit co_await co_return co_yield decltype delete dynamic_cast explicit export false friend
mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public reinterpret_cast
requires static_assert static_cast template this thread_local throw true try typeid typename using virtual wchar_t
xor xor_eq typeof final override import module threadIdx blockIdx blockDim gridDim warpSize dim3 uint3 float2
double2 __global__ __device__ __host__ __shared__ __constant__ __restrict__ _Bool _Complex""".split()
OWN = """t0 t1 count status system rep steps evals finished ready event nan bound maxsteps equilibrium zeno i j k n s y p d
acc fields record scan repeat transient on start step end global table set done par number init aux""".split()
UNDECLARABLE = {"t", "pi", "if", "then", "else", "and", "or", "not"}
ROLES = ["state", "param", "aux", "temp", "derived", "acc", "event", "arg"]


def builtin_names():
    src = open(os.path.join(ROOT, "generator", "base", "builtins.c")).read()
    return {m.lower() for m in re.findall(r'\{"(\w+)", \d', src)}


def identifiers(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    src = re.sub(r"//[^\n]*", " ", src)
    src = re.sub(r'"(?:[^"\\\n]|\\.)*"', " ", src)
    src = re.sub(r"'(?:[^'\\\n]|\\.)*'", " ", src)
    return set(re.findall(r"\b[A-Za-z_]\w*\b", src))


def macros(cmd, source, suffix):
    """Macro names defined at the model's first function."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe" + suffix)
        with open(path, "w") as f:
            f.write(source)
        p = subprocess.run(cmd + [path], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, "%s failed:\n%s" % (" ".join(cmd), p.stderr[-2000:]))
        return set(re.findall(r"^#define (\w+)", p.stdout, re.M))


def collect():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([ODEGEN, os.path.join(ROOT, "tests", "golden", "kitchen_sink.ode"), "-o", tmp],
                       check=True, stderr=subprocess.DEVNULL)
        src = open(os.path.join(tmp, "kitchen_sink.cu")).read()
        header = os.path.join(tmp, "kitchen_sink.h")
        cut = src.index("model functions")
        head = src[:src.rindex("\n", 0, cut)] + "\n"
        head = head.replace('#include "kitchen_sink.h"', '#include "%s"' % header)
        names = identifiers(src)
        sources = {"cc": macros(["cc", "-std=c11", "-dM", "-E", "-x", "c"], head, ".c")}
        if NVCC:
            sources["nvcc"] = macros([NVCC, "-arch=sm_90", "-E", "-Xcompiler", "-dM", "-x", "cu"], head, ".cu")
    for s in sources.values():
        names |= s
    names |= set(KEYWORDS) | set(OWN)
    skip = UNDECLARABLE | builtin_names() | {"inf", "infinity"}
    chosen, seen, dunder = [], set(), 0
    for name in sorted(names):
        low = name.lower()
        if low in skip or low in seen or low.startswith("kitchen_sink"):
            continue
        if name.startswith("__"):
            dunder += 1
            if dunder % 20:
                continue
        seen.add(low)
        chosen.append(name)
    return chosen, {k: len(v) for k, v in sources.items()}


CHEAP = ["param", "aux", "temp", "derived", "acc", "arg"]


def model_text(names, rotation):
    """One model: name i in role ROLES[(i + rotation) % len(ROLES)]; rotation
    None: the cheap roles only (for nvcc), with a few states and events."""
    roles = {r: [] for r in ROLES}
    for i, name in enumerate(names):
        if rotation is None:
            role = "state" if i % 40 == 0 else "event" if i % 40 == 1 else CHEAP[i % len(CHEAP)]
        else:
            role = ROLES[(i + rotation) % len(ROLES)]
        if role == "event" and (len(roles["event"]) >= 60 or name.lower() in ("start", "step", "end")):
            role = "aux"    # at most 64 events; `on start` is a hook, not an event
        roles[role].append(name)
    lines = ["# tests/names: every name of the generated code and its compilers, as a user's name",
             "zz_decay'=-zz_decay", "init zz_decay=1"]
    for s in roles["state"]:
        lines.append("%s'=-0.5*%s" % (s, s))
    if roles["state"]:
        lines.append("init " + ", ".join("%s=1" % s for s in roles["state"]))
    for k in range(0, len(roles["param"]), 20):
        lines.append("par " + ", ".join("%s=0.%d" % (p, 1 + (k + i) % 9) for i, p in enumerate(roles["param"][k:k + 20])))
    first_state = roles["state"][0] if roles["state"] else "zz_decay"
    for d in roles["derived"]:
        lines.append("!%s=%s*2" % (d, roles["param"][0] if roles["param"] else "1"))
    for tmp in roles["temp"]:
        lines.append("%s=%s*0.5" % (tmp, first_state))
    # every parameter, derived parameter and temporary is read by the right-hand side
    reads = roles["param"] + roles["derived"] + roles["temp"]
    for k in range(0, len(reads), 40):
        lines.append("zz_sum%d'=-zz_sum%d+1e-6*(%s)" % (k, k, "+".join(reads[k:k + 40])))
    for a in roles["aux"]:
        lines.append("aux %s=%s+zz_decay" % (a, first_state))
    for k in range(0, len(roles["acc"]), 20):
        lines.append("acc " + ", ".join("%s=%d" % (a, i) for i, a in enumerate(roles["acc"][k:k + 20])))
    if roles["acc"]:
        lines.append("on step { %s = %s + 1 }" % (roles["acc"][0], roles["acc"][0]))
    for e in roles["event"]:
        lines.append("event %s: zz_decay - 0.5, dir=-1" % e)
    for k in range(0, len(roles["arg"]), 8):
        args = roles["arg"][k:k + 8]
        lines.append("zz_f%d(%s)=%s" % (k, ",".join(args), "+".join(args)))
        lines.append("zz_g%d'=-zz_g%d+1e-9*zz_f%d(%s)" % (k, k, k, ",".join("1" for _ in args)))
    lines += ["@ meth=rk4, dt=0.01, total=1", "record zz_decay, %s" % ", ".join(
        (roles["state"][:30] + roles["aux"][:30] + roles["acc"][:30]) or ["zz_decay"]), "done", ""]
    return "\n".join(lines), roles


NAMES = []


def rotation_test(rotation):
    def test():
        text, roles = model_text(NAMES, rotation)
        runner = build("names_r%d" % rotation, text)
        r = run(runner, "--quiet")
        check(set(r.status) == {"finished"}, "statuses %s" % sorted(set(r.status)))
        want = ["zz_decay"] + (roles["state"][:30] + roles["aux"][:30] + roles["acc"][:30])
        check(r.header[2:-1] == want, "header %s, declared %s" % (r.header[2:12], want[:10]))
        check(abs(r["zz_decay"][0] - np.exp(-1.0)) < 1e-9, "zz_decay(1) = %r" % r["zz_decay"][0])
    test.__doc__ = "rotation %d: every name in role %s, … (cc)" % (rotation, ROLES[rotation % len(ROLES)])
    return test


def test_nvcc():
    """Every name once, compiled by nvcc -arch=sm_90 (compile only)."""
    if not NVCC or not WITH_NVCC:
        print("    %s: skipped (tests/gpu/run.sh runs it)" % ("nvcc not found" if not NVCC else "without --nvcc"))
        return
    text, _ = model_text(NAMES, None)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "names_nvcc.ode"), "w") as f:
            f.write(text)
        p = subprocess.run([ODEGEN, "names_nvcc.ode", "-o", "gen"], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, "odegen failed:\n%s" % p.stderr[-3000:])
        p = subprocess.run([NVCC, "-arch=sm_90", "-O0", "-Xcompiler", "-fopenmp", "-c", "-o", os.devnull,
                            "names_nvcc.cu"], cwd=os.path.join(tmp, "gen"), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, "nvcc failed:\n%s" % p.stderr[-3000:])


if __name__ == "__main__":
    NAMES, counts = collect()
    print("names: %d (identifiers of the generated source, keywords, odegen's words; macros: %s)" % (
        len(NAMES), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    sys.exit(main([("rotation_%d" % r, rotation_test(r)) for r in range(len(ROLES))] + [("nvcc", test_nvcc)]))
