"""An installed module registered in ``sys.modules`` without running its code until first use.

Lark imports the third-party ``regex`` module at its own import when it is installed (for its
``regex=True`` option, which pyopl never uses): 13 ms, a tenth of a small solve's own start-up.
So ``import pyopl`` registers an installed ``regex`` that nobody has imported yet as a
:class:`DeferredModule`: ``import regex`` (Lark's, or anyone's) gives it at once, and its first
attribute use imports the real module and takes over its names. Lark still sees ``regex``
installed and uses it as before (``tests/test_startup_lazy.py``).

The standard library's ``importlib.util.LazyLoader`` would load the module at once here: on
Python 3.11 the ``import`` statement itself reads ``__spec__``, which it counts as a use.
"""
from __future__ import annotations

import sys
import types


class DeferredModule(types.ModuleType):
    """An installed module not imported yet: its spec and file are set, so ``import`` takes it
    as loaded; the first read of any other name imports the real module in its place (in
    ``sys.modules`` too) and copies its names here, so later reads find them directly."""

    def __getattr__(self, name: str):
        real = self.__dict__.get("_pyopl_real_module")
        if real is None:
            import importlib

            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            real = importlib.import_module(self.__name__)
            self.__dict__.update(real.__dict__)
            self.__dict__["_pyopl_real_module"] = real
        return getattr(real, name)


def defer_import(name: str) -> None:
    """Register the installed top-level module ``name`` as a :class:`DeferredModule`, unless it
    is imported already or not installed."""
    if name in sys.modules:
        return
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)  # (sets __spec__, __file__...; runs none of its code)
    # A package's __path__ is left to the real module: importing a submodule reads it, which
    # loads the package first, as a plain import would.
    module.__dict__.pop("__path__", None)
    module.__class__ = DeferredModule
    sys.modules[name] = module
