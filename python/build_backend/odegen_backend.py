"""odegen_backend — the PEP 517 build backend of the odegen Python package, in the standard
library alone, so that `pip install ./python` works offline (no setuptools or wheel to fetch
into pip's isolated build environment: pyproject.toml requires nothing).

A wheel holds the package (odegen/*.py) and the translator built for this machine
(odegen/bin/odegen, by `make build/odegen` in the odegen checkout this folder belongs to, or in
the sources an sdist carries): the installed package needs no checkout, and the `odegen`
command in the environment runs that translator.  Its tag is py3-none-PLATFORM (the translator
is a program of this platform; the Python code is plain).  An editable install
(`pip install -e ./python`) is a .pth file naming this folder: the package then runs from
the checkout and its translator is the checkout's build/odegen.

The metadata comes from pyproject.toml's [project] table (read with tomllib) and the version
from odegen/__init__.py's __version__.
"""
import base64
import csv
import hashlib
import io
import os
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile

try:
    import tomllib                  # Python 3.11
except ImportError:                 # older: Debian's and Ubuntu's python3-tomli
    import tomli as tomllib

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # python/
CHECKOUT = os.path.dirname(HERE)
SDIST_SOURCES = "odegen-src"   # in an sdist: the translator's sources
TRANSLATOR_SOURCES = ["Makefile", "generator", "runtime", "templates", "tools/embed.c"]


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    with open(os.path.join(HERE, "odegen", "__init__.py")) as f:
        project["version"] = re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)
    return project


def _metadata(project):
    lines = ["Metadata-Version: 2.1", "Name: %s" % project["name"], "Version: %s" % project["version"],
             "Summary: %s" % project["description"], "Requires-Python: %s" % project["requires-python"]]
    lines += ["License: %s" % project["license"]["text"]] if "license" in project else []
    lines += ["Requires-Dist: %s" % r for r in project.get("dependencies", [])]
    for extra, requires in project.get("optional-dependencies", {}).items():
        lines.append("Provides-Extra: %s" % extra)
        lines += ['Requires-Dist: %s; extra == "%s"' % (r, extra) for r in requires]
    text = "\n".join(lines) + "\n"
    if project.get("readme"):
        with open(os.path.join(HERE, project["readme"])) as f:
            text += "Description-Content-Type: text/markdown\n\n" + f.read()
    return text


def _tag():
    return "py3-none-" + re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def _dist_info(project):
    return "%s-%s.dist-info" % (project["name"], project["version"])


def _translator_sources():
    """The folder to run `make build/odegen` in: the checkout, or an sdist's copy of it."""
    for root in (os.path.join(HERE, SDIST_SOURCES), CHECKOUT):
        if all(os.path.exists(os.path.join(root, p)) for p in TRANSLATOR_SOURCES):
            return root
    raise RuntimeError("odegen: the translator's sources (%s) are neither in %s nor in %s: install the package "
                       "from an odegen checkout (pip install ./python)" % (", ".join(TRANSLATOR_SOURCES), CHECKOUT,
                                                                          os.path.join(HERE, SDIST_SOURCES)))


def _build_translator():
    """Builds the translator with the checkout's Makefile (a C compiler, flex and bison);
    returns its path."""
    root = _translator_sources()
    sys.stderr.write("odegen: building the translator (make -C %s build/odegen)\n" % root)
    p = subprocess.run(["make", "-s", "-C", root, "build/odegen"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError("odegen: building the translator failed (make -C %s build/odegen; it needs make, a C "
                           "compiler, flex and bison: sudo apt-get install build-essential flex bison):\n%s"
                           % (root, p.stdout[-4000:]))
    return os.path.join(root, "build", "odegen")


class _Wheel:
    """A wheel being written: files with their hashes for RECORD."""

    def __init__(self, path):
        self.zip = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
        self.records = []

    def add(self, name, data, executable=False):
        info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))   # the same bytes from build to build
        info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16   # pip wants the file type too
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.records.append((name, "sha256=" + digest, str(len(data))))

    def close(self, dist_info):
        record = io.StringIO()
        writer = csv.writer(record, lineterminator="\n")
        writer.writerows(self.records + [(dist_info + "/RECORD", "", "")])
        info = zipfile.ZipInfo(dist_info + "/RECORD", date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = (stat.S_IFREG | 0o644) << 16
        self.zip.writestr(info, record.getvalue())
        self.zip.close()


def _dist_info_files(project, tag):
    scripts = project.get("scripts", {})
    files = {"METADATA": _metadata(project),
             "WHEEL": "Wheel-Version: 1.0\nGenerator: odegen_backend\nRoot-Is-Purelib: false\nTag: %s\n" % tag}
    if scripts:
        files["entry_points.txt"] = "[console_scripts]\n" + "".join("%s = %s\n" % kv for kv in scripts.items())
    return files


def _write_wheel(wheel_directory, editable):
    project = _project()
    tag = _tag()
    name = "%s-%s-%s.whl" % (project["name"], project["version"], tag)
    dist_info = _dist_info(project)
    wheel = _Wheel(os.path.join(wheel_directory, name))
    if editable:
        wheel.add("odegen_editable.pth", (HERE + "\n").encode())
    else:
        translator = _build_translator()
        package = os.path.join(HERE, "odegen")
        for f in sorted(os.listdir(package)):
            if f.endswith(".py"):
                with open(os.path.join(package, f), "rb") as src:
                    wheel.add("odegen/" + f, src.read())
        with open(translator, "rb") as src:
            wheel.add("odegen/bin/odegen", src.read(), executable=True)
    for f, text in _dist_info_files(project, tag).items():
        wheel.add(dist_info + "/" + f, text.encode())
    wheel.close(dist_info)
    return name


# ------------------------------------------------------------------ PEP 517 / PEP 660 hooks

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project = _project()
    dist_info = os.path.join(metadata_directory, _dist_info(project))
    os.makedirs(dist_info, exist_ok=True)
    for f, text in _dist_info_files(project, _tag()).items():
        with open(os.path.join(dist_info, f), "w") as out:
            out.write(text)
    return os.path.basename(dist_info)


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, editable=False)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, editable=True)


def build_sdist(sdist_directory, config_settings=None):
    """python/ (the package, this backend, pyproject.toml) with the translator's sources in
    odegen-src/, so that a wheel can be built from it alone."""
    project = _project()
    base = "%s-%s" % (project["name"], project["version"])
    name = base + ".tar.gz"
    root = _translator_sources()
    with tempfile.TemporaryDirectory() as tmp:
        top = os.path.join(tmp, base)
        shutil.copytree(HERE, top, ignore=shutil.ignore_patterns("__pycache__", SDIST_SOURCES, "*.egg-info"))
        for p in TRANSLATOR_SOURCES:
            src, dst = os.path.join(root, p), os.path.join(top, SDIST_SOURCES, p)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            (shutil.copytree if os.path.isdir(src) else shutil.copy2)(src, dst)
        with open(os.path.join(top, "PKG-INFO"), "w") as f:
            f.write(_metadata(project))
        with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
            tar.add(top, arcname=base)
    return name
