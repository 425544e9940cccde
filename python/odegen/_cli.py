"""The `odegen` command of an installed package (pip install ./python): runs the translator
the package carries, with the command line it was given (`odegen --help`)."""
import os
import sys

from . import _build


def main():
    exe = _build.translator()
    os.execv(exe, [exe] + sys.argv[1:])
