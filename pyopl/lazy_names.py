"""Names of a package imported on first use (PEP 562), so importing the package stays cheap; and
installed modules registered without running their code until first use (:class:`DeferredModule`).

Lark imports the third-party ``regex`` module at its own import when it is installed (for its
``regex=True`` option, which pyopl never uses): 7-13 ms, a tenth of a small solve's own start-up.
The ``pyopl`` command (its own process) registers an installed ``regex`` that nobody has imported
yet as a :class:`DeferredModule` (:func:`defer_import`): ``import regex`` (Lark's, or anyone's)
gives it at once, and its first attribute use imports the real module and takes over its names.
A program that imports pyopl keeps its ``sys.modules`` as it is: pyopl imports Lark through
:func:`import_deferring`, which lets Lark keep a deferred ``regex`` and takes it out of
``sys.modules`` again afterwards. Lark still sees ``regex`` installed and uses it as before
(``tests/test_startup_lazy.py``).

The standard library's ``importlib.util.LazyLoader`` would load the module at once here: on
Python 3.11 the ``import`` statement itself reads ``__spec__``, which it counts as a use.
"""
from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import Any


def lazy_getattr(namespace: dict, package: str, table: dict[str, str], name: str) -> Any:
    """The package-level ``__getattr__`` of ``package`` (whose globals are ``namespace``): imports the
    module ``table[name]`` (relative to ``package``), keeps ``name`` in the package's globals and
    returns it.  Raises ``AttributeError`` for a name not in ``table``."""
    where = table.get(name)
    if where is None:
        raise AttributeError("module %r has no attribute %r" % (package, name))
    value = getattr(import_module(where, package), name)
    namespace[name] = value
    return value



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


def import_deferring(name: str, optional: str) -> None:
    """Import the module ``name`` (Lark) with the installed module ``optional`` (``regex``), when
    nobody has imported it yet, standing as a :class:`DeferredModule` while ``name`` loads: ``name``
    keeps that module, which imports the real one on its first use.  Afterwards ``optional`` is
    taken out of ``sys.modules`` again unless something used it meanwhile, so the program's
    modules are as they were (a later ``import regex`` loads the real module, which the deferred
    one then takes over too).  Does nothing when ``name`` is imported already."""
    if name in sys.modules:
        return
    added = optional not in sys.modules
    if added:
        defer_import(optional)
    try:
        import_module(name)
    finally:
        if added and type(sys.modules.get(optional)) is DeferredModule \
                and "_pyopl_real_module" not in vars(sys.modules[optional]):
            del sys.modules[optional]


def import_without(name: str, optional: str) -> Any:
    """Import and return the module ``name`` (texttable) taking its own fallback for the optional
    module ``optional`` (``wcwidth``) when nobody has imported that yet: while ``name`` loads,
    ``sys.modules[optional]`` is None, which makes ``import optional`` raise ImportError (the
    import system's documented way to block a module), then the entry is taken out again so a
    later ``import optional`` by the program loads it as usual.  When ``optional`` is loaded
    already, ``name`` uses it.  Does nothing new when ``name`` is imported already."""
    if name in sys.modules:
        return sys.modules[name]
    blocked = optional not in sys.modules
    if blocked:
        sys.modules[optional] = None  # type: ignore[assignment]
    try:
        return import_module(name)
    finally:
        if blocked and optional in sys.modules and sys.modules[optional] is None:
            del sys.modules[optional]
