"""A missing Python package: one message with the line that installs it, not a traceback.

Debian's packages (python3-numpy, python3-matplotlib, …) belong to Debian's interpreter,
/usr/bin/python3; the `python3` first on PATH may be another one (pyenv, conda, a venv) that
does not see them.  The message names the interpreter that is running and says which one to
use, or what to install.  It is shown without a traceback when nothing catches it: the
exception's class is printed by its own line through sys.excepthook, anything else goes to the
previous hook.  This module must not import numpy.
"""
import os
import sys

DEBIAN_PYTHON = "/usr/bin/python3"
DEBIAN_SITE = "/usr/lib/python3/dist-packages"


class MissingPackage(ImportError):
    """A package odegen (or one of its examples) needs is not importable; the message says
    how to get it."""


def _debian_has(module):
    return os.path.isdir(os.path.join(DEBIAN_SITE, module.split(".")[0]))


def message(module, debian_package):
    """The text of the MissingPackage for `module` (Debian package `debian_package`)."""
    exe = sys.executable or "python3"
    here = "%s (Python %d.%d)" % (exe, sys.version_info[0], sys.version_info[1])
    text = "odegen: the Python running this, %s, has no module '%s'.\n" % (here, module)
    is_debian = os.path.exists(DEBIAN_PYTHON) and os.path.realpath(exe) == os.path.realpath(DEBIAN_PYTHON)
    if not is_debian and os.path.exists(DEBIAN_PYTHON):
        if _debian_has(module):
            return text + "Debian's Python has it: run this with %s instead of %s." % (DEBIAN_PYTHON, exe)
        return text + ("Install it for Debian's Python with:  sudo apt-get install %s   (or: make deps)\n"
                       "then run this with %s (the python3 first on PATH is another interpreter)."
                       % (debian_package, DEBIAN_PYTHON))
    return text + "Install it with:  sudo apt-get install %s   (or: make deps)" % debian_package


def _hook(previous):
    def hook(kind, value, tb):
        if isinstance(value, MissingPackage):
            sys.stderr.write(str(value) + "\n")
        else:
            previous(kind, value, tb)
    hook.odegen_missing = True
    return hook


def missing(module, debian_package):
    """A MissingPackage to raise; when nothing catches it, only its message is printed."""
    if not getattr(sys.excepthook, "odegen_missing", False):
        sys.excepthook = _hook(sys.excepthook)
    return MissingPackage(message(module, debian_package))


def require(module, debian_package):
    """Imports `module` (e.g. "matplotlib.pyplot"), or raises MissingPackage with the install line."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        raise missing(module.split(".")[0], debian_package) from None
