"""pyopl: a compiler for the OPL modelling language, solved with HiGHS or Gurobi.

Quick use::

    import pyopl
    model = pyopl.compile_model("plan.mod", data="plan.dat")   # or model text, data text or a dict
    result = model.solve(solver="highs", time_limit=30)
    result.status, result.objective, result["ship"]["Seattle", "Chicago"]
    pyopl.check(model_text, data_text)                         # -> list of Diagnostic
    pyopl.compile_text(llm_text, data_text)                    # a string is only ever text, never a path

User mistakes never raise Python errors from deep inside: :func:`compile_model`
raises :class:`CompileError` carrying every :class:`Diagnostic`, and
:func:`check` returns them.

The names below are imported on first use (PEP 562), so ``import pyopl`` stays cheap: NumPy,
Lark and the solvers load only when a model is compiled or solved.
"""
from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

from .deferred_import import defer_import

if "lark" not in sys.modules:  # Lark's optional `regex` loads on first use, not with Lark (see there)
    defer_import("regex")

#: public name -> the module (relative to this package) that defines it
_LAZY = {
    "Model": ".api", "check": ".api", "check_text": ".api", "compile_model": ".api", "compile_text": ".api",
    "solve": ".api",
    "CompileError": ".diagnostics.diagnostic", "Diagnostic": ".diagnostics.diagnostic", "Fix": ".diagnostics.diagnostic",
    "Label": ".diagnostics.diagnostic", "Span": ".diagnostics.diagnostic",
    "Limits": ".limits",
    "Result": ".result", "Values": ".result",
}

if TYPE_CHECKING:  # for type checkers and editors; at run time __getattr__ imports on first use
    from .api import Model, check, check_text, compile_model, compile_text, solve
    from .diagnostics.diagnostic import CompileError, Diagnostic, Fix, Label, Span
    from .limits import Limits
    from .result import Result, Values


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use and keep the name in this module (PEP 562)."""
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError("module 'pyopl' has no attribute %r" % name)
    value = getattr(import_module(where, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["compile_model", "compile_text", "check", "check_text", "solve", "Model", "Result", "Values", "Diagnostic", "CompileError",
           "Span", "Label", "Fix", "Limits"]
__version__ = "0.1.0"
