#!/usr/bin/python3
"""make test-gpu: each model's derivatives computed on the GPU agree with the
same generated functions on the CPU (tests/deriv/gpu_agree.cu), for the
models whose derivatives tests/deriv/test_deriv.py checks against finite
differences on the CPU.  Uses build/odegen and nvcc; needs a GPU."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_deriv as td  # noqa: E402

ot = td.ot
td.ODEGEN = os.path.join(td.ROOT, "build", "odegen")   # the GPU machine need not have the ASan build
MODELS = ["tests/deriv/builtins.ode", "tests/golden/kitchen_sink.ode", "models/keller_miksis.ode", "models/valve.ode",
          "models/duffing_lyapunov.ode", "tests/xpp/hodgkin_huxley.ode"]


def agree(rel):
    def test():
        ot.check(td.NVCC is not None, "nvcc not found")
        ode = os.path.join(td.ROOT, rel)
        tag = os.path.splitext(os.path.basename(ode))[0] + "-gpu"
        gen, section = td.generate(ode, tag)
        exe = os.path.join(td.WORK, tag, "gpu_agree")
        p = td.run([td.NVCC, "-O2", "-arch=" + os.environ.get("ARCH", "sm_90"), "-x", "cu",
                    "-DGEN_CU=\"%s\"" % section, "-I", gen, os.path.join(td.HERE, "gpu_agree.cu"), "-o", exe])
        ot.check(p.returncode == 0, "nvcc failed on %s:\n%s" % (rel, p.stderr[-3000:]))
        p = td.run([exe, "8192"])
        print("        " + p.stdout.strip().replace("\n", "\n        "))
        ot.check(p.returncode == 0 and "RESULT ok" in p.stdout, "%s:\n%s%s" % (rel, p.stdout, p.stderr))
    return test


if __name__ == "__main__":
    os.makedirs(td.WORK, exist_ok=True)
    sys.exit(ot.main([("GPU = CPU derivatives " + m, agree(m)) for m in MODELS]))
