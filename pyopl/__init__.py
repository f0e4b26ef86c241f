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
"""
from .diagnostics.diagnostic import CompileError, Diagnostic, Fix, Label, Span
from .limits import Limits
from .result import Result, Values
try:  # the API module lands with the evaluator; keep the package importable meanwhile
    from .api import Model, check, check_text, compile_model, compile_text, solve
except ImportError:  # pragma: no cover
    pass

__all__ = ["compile_model", "compile_text", "check", "check_text", "solve", "Model", "Result", "Values", "Diagnostic", "CompileError",
           "Span", "Label", "Fix", "Limits"]
__version__ = "0.1.0"
