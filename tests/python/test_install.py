"""tests/python/test_install.py — the Python package installed as Python packages are, and the
example notebook.

  * `pip install ./python` into a fresh virtual environment made with --system-site-packages
    (Debian's numpy), offline: the build backend needs nothing that pip would fetch; the
    package then works from anywhere, with the translator it carries (odegen/bin/odegen) and
    the `odegen` command; its numbers are those of the checkout's package, bit for bit;
  * `pip install -e ./python`: the package runs from the checkout;
  * the wheel's and the package's version are odegen's (generator/base/version.h);
  * examples/first_steps.ipynb runs with Debian's `jupyter nbconvert --execute` on a kernel of
    that environment (python -m ipykernel install), and shows its plots.

  /usr/bin/python3 tests/python/test_install.py [NAME…]

Needs Debian's python3-venv and python3-pip (tools/packages); the notebook jupyter-nbconvert
and python3-ipykernel (skipped without them).  Works in build/tests/install.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from odegen_test import Failure, check, main  # noqa: E402

WORK = os.path.join(ROOT, "build", "tests", "install")
PY = "/usr/bin/python3"   # Debian's: its venv module and numpy
CACHE = os.path.join(ROOT, "build", "tests", "python-cache")   # content-keyed: shared with test_python


def run(cmd, **kw):
    kw.setdefault("env", dict(os.environ, ODEGEN_CACHE=CACHE, PIP_NO_INPUT="1", PIP_RETRIES="0"))
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def venv(name):
    """A fresh virtual environment that sees Debian's packages."""
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    p = run([PY, "-m", "venv", "--system-site-packages", d])
    if p.returncode != 0 and "ensurepip" in p.stdout:
        raise Failure("python3 -m venv needs Debian's python3-venv (sudo apt-get install python3-venv):\n" + p.stdout)
    check(p.returncode == 0, "python3 -m venv failed:\n" + p.stdout)
    return d


SCAN = """
import os, sys, numpy as np, odegen
m = odegen.load(sys.argv[1], quiet=True, build="cpu")
r = m.scan(odegen.grid(k=np.linspace(0.2, 0.3, 7), B=[0.3, 0.4]), transient=3, record=2)
print(os.path.realpath(odegen.__file__))
print(os.path.realpath(odegen._build.translator()))
print(r["y1"].tobytes().hex(), r.status_code.tobytes().hex())
"""


def test_pip_install():
    """pip install ./python in a fresh venv, offline: the package imports from the venv
    anywhere, carries its translator, gives the checkout's numbers, and installs `odegen`."""
    env_dir = venv("venv")
    pip = os.path.join(env_dir, "bin", "pip")
    p = run([pip, "install", "./python"], cwd=ROOT)
    check(p.returncode == 0 and re.search(r"Successfully installed odegen-\d", p.stdout), "pip install ./python:\n" +
          p.stdout[-4000:])
    check("Downloading" not in p.stdout and "Collecting numpy" not in p.stdout, "pip fetched something:\n" + p.stdout)
    elsewhere = os.path.join(WORK, "elsewhere")
    os.makedirs(elsewhere, exist_ok=True)
    model = os.path.join(elsewhere, "osc.ode")
    shutil.copy(os.path.join(ROOT, "models", "duffing.ode"), model)
    python = os.path.join(env_dir, "bin", "python")
    p = run([python, "-c", SCAN, model], cwd=elsewhere)
    check(p.returncode == 0, "the installed package:\n" + p.stdout)
    package, translator, numbers = p.stdout.splitlines()[-3:]
    site = os.path.realpath(os.path.join(env_dir, "lib"))
    check(package.startswith(site) and package.endswith(os.path.join("odegen", "__init__.py")),
          "imported from %s, not the venv" % package)
    check(translator == os.path.join(os.path.dirname(package), "bin", "odegen") and os.access(translator, os.X_OK),
          "the translator is %s, not the package's own" % translator)
    mine = run([PY, "-c", SCAN, model], cwd=elsewhere, env=dict(os.environ, ODEGEN_CACHE=CACHE,
                                                                PYTHONPATH=os.path.join(ROOT, "python")))
    check(mine.returncode == 0 and mine.stdout.splitlines()[-1] == numbers,
          "the installed package and the checkout's give different numbers:\n%s" % mine.stdout[-2000:])
    p = run([os.path.join(env_dir, "bin", "odegen"), model, "-o", os.path.join(elsewhere, "gen")], cwd=elsewhere)
    check(p.returncode == 0 and os.path.exists(os.path.join(elsewhere, "gen", "osc.cu")) and "odegen: wrote" in p.stdout,
          "the venv's odegen command:\n" + p.stdout)
    p = run([os.path.join(env_dir, "bin", "odegen"), model, "--option", "meth=bogus", "--check"], cwd=elsewhere)
    check(p.returncode == 1 and "unknown method 'bogus'" in p.stdout, "odegen's errors through the command: %r"
          % p.stdout)
    print("    pip install ./python: %s; odegen from the venv anywhere, its own translator" % package)


def test_editable_and_version():
    """pip install -e ./python runs the checkout's package; the package's version is odegen's."""
    env_dir = venv("venv-editable")
    p = run([os.path.join(env_dir, "bin", "pip"), "install", "-e", "./python"], cwd=ROOT)
    check(p.returncode == 0, "pip install -e ./python:\n" + p.stdout[-4000:])
    p = run([os.path.join(env_dir, "bin", "python"), "-c", "import odegen; print(odegen.__file__, odegen.__version__)"],
            cwd=WORK)
    check(p.returncode == 0, p.stdout)
    where, version = p.stdout.split()[-2:]
    check(os.path.realpath(where) == os.path.join(ROOT, "python", "odegen", "__init__.py"),
          "editable install imports %s" % where)
    header = [os.path.join(d, "version.h") for d, _, files in os.walk(os.path.join(ROOT, "generator"))
              if "version.h" in files]
    check(len(header) == 1, "generator's version.h: %s" % header)
    with open(header[0]) as f:
        odegen_version = re.search(r'#define ODEGEN_VERSION "([^"]+)"', f.read()).group(1)
    check(version == odegen_version, "the package's version %s, odegen's %s" % (version, odegen_version))
    check(any(n.startswith("odegen-%s.dist-info" % version) for n in
              os.listdir(os.path.join(env_dir, "lib", "python%d.%d" % sys.version_info[:2], "site-packages"))),
          "the installed distribution's version")


def test_notebook():
    """examples/first_steps.ipynb: executed by Debian's jupyter nbconvert on a kernel of a venv
    with the package installed; every cell runs, the plots are there, the package is the venv's."""
    if not shutil.which("jupyter") or run([PY, "-c", "import ipykernel, nbconvert"]).returncode != 0:
        print("    (jupyter-nbconvert or python3-ipykernel not installed: skipped; see tools/packages)")
        return
    env_dir = os.path.join(WORK, "venv")
    if not os.path.exists(os.path.join(env_dir, "lib", "python%d.%d" % sys.version_info[:2], "site-packages",
                                       "odegen")):
        env_dir = venv("venv")
        p = run([os.path.join(env_dir, "bin", "pip"), "install", "./python"], cwd=ROOT)
        check(p.returncode == 0, "pip install ./python:\n" + p.stdout[-4000:])
    jupyter_data = os.path.join(WORK, "jupyter")
    shutil.rmtree(jupyter_data, ignore_errors=True)
    env = dict(os.environ, ODEGEN_CACHE=CACHE, JUPYTER_DATA_DIR=jupyter_data, PYDEVD_DISABLE_FILE_VALIDATION="1")
    env.pop("ODEGEN_NOTEBOOK_SIZE", None)
    p = run([os.path.join(env_dir, "bin", "python"), "-m", "ipykernel", "install", "--user", "--name", "odegen-test"],
            env=env)
    check(p.returncode == 0, "ipykernel install:\n" + p.stdout)
    out = os.path.join(WORK, "notebook")
    shutil.rmtree(out, ignore_errors=True)
    p = run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.kernel_name=odegen-test",
             "--ExecutePreprocessor.timeout=600", "--output-dir", out, os.path.join(ROOT, "examples", "first_steps.ipynb")],
            env=env)
    check(p.returncode == 0, "jupyter nbconvert --execute:\n" + p.stdout[-4000:])
    with open(os.path.join(out, "first_steps.ipynb")) as f:
        nb = json.load(f)
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    text = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")) for o in outputs)
    pngs = [base64.b64decode(o["data"]["image/png"]) for o in outputs if "image/png" in o.get("data", {})]
    check(not [o for o in outputs if o["output_type"] == "error"], "a cell failed")
    check(os.path.realpath(env_dir) in text and "odegen 0" in text, "the kernel did not use the venv's package:\n" +
          text[:500])
    check("576 systems x 64 recorded integrations" in text and "Dimensions:" in text and "(k, B, rep)" in text,
          "the scan, the map and the dataset:\n" + text[-3000:])
    check(len(pngs) == 3 and all(png.startswith(b"\x89PNG") and len(png) > 10000 for png in pngs),
          "%d plots" % len(pngs))
    print("    the notebook ran on the venv's kernel: %d plots" % len(pngs))


TESTS = [("test_pip_install", test_pip_install), ("test_editable_and_version", test_editable_and_version),
         ("test_notebook", test_notebook)]   # the notebook uses the first one's venv

if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    sys.exit(main(TESTS))
