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

from typing import TYPE_CHECKING, Any

from .lazy_names import lazy_getattr

#: public name -> the module (relative to this package) that defines it
_LAZY = {
    "Model": ".api", "check": ".api", "check_text": ".api", "compile_model": ".api", "compile_text": ".api",
    "solve": ".api",
    "CompileError": ".diagnostics.diagnostic", "Diagnostic": ".diagnostics.diagnostic", "Fix": ".diagnostics.diagnostic",
    "Label": ".diagnostics.diagnostic", "Span": ".diagnostics.diagnostic",
    "Limits": ".limits",
    "Result": ".results.result", "Values": ".results.result",
}

if TYPE_CHECKING:  # for type checkers and editors; at run time __getattr__ imports on first use
    from .api import Model, check, check_text, compile_model, compile_text, solve
    from .diagnostics.diagnostic import CompileError, Diagnostic, Fix, Label, Span
    from .limits import Limits
    from .results.result import Result, Values


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use and keep the name in this module (PEP 562)."""
    return lazy_getattr(globals(), __name__, _LAZY, name)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext pyopl`` in IPython or Jupyter: the ``%%opl`` cell magic (:mod:`pyopl.magic`)."""
    from .magic import load_ipython_extension as load

    load(ipython)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["compile_model", "compile_text", "check", "check_text", "solve", "Model", "Result", "Values", "Diagnostic", "CompileError",
           "Span", "Label", "Fix", "Limits"]
__version__ = "0.1.0"
