"""Names of a package imported on first use (PEP 562), so importing the package stays cheap."""
from __future__ import annotations

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
