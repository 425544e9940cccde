"""Lets `import odegen` work from the root of the checkout: loads the package in python/odegen
(run Python there, or put python/ on PYTHONPATH, or import it from anywhere with
sys.path.insert(0, "/path/to/odegen/python"))."""
import importlib.util
import os
import sys

_package = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python", "odegen")
_spec = importlib.util.spec_from_file_location("odegen", os.path.join(_package, "__init__.py"),
                                               submodule_search_locations=[_package])
_module = importlib.util.module_from_spec(_spec)
sys.modules["odegen"] = _module
_spec.loader.exec_module(_module)
