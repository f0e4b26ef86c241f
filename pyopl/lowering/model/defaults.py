"""Data declared without an initializer (``int n;``, ``float w[R];``, ``{int} picked;``).

IBM OPL accepts these: the element holds its type's default value (0, 0.0, ``""``, the empty set,
a tuple of defaults) until a pre-processing script, ``main`` or a post-processing script assigns it
(OPL Language Reference, "Data types" and "Initialization of data"). pyopl keeps that meaning and
warns only where the default would silently shape the model: the element is used, directly or
through other declarations, by the objective, the constraints or the decisions, and nothing
anywhere assigns it.
"""
from __future__ import annotations

from typing import Any, Callable

from ...syntax import ast as A
from ..forms.budget import names_in

_MODEL_ITEMS = (A.Objective, A.ConstraintsBlock, A.DvarDecl, A.DexprDecl)


def used_by_model(model: A.Model) -> set[str]:
    """Names the model's objective, constraints, decision domains and ``dexpr``s use, directly or
    through the declarations they use (the closure over data declarations' initializers and index
    sets). Returns a set of declared names."""
    deps: dict[str, set[str]] = {}
    start: set[str] = set()
    for item in model.items:
        if isinstance(item, _MODEL_ITEMS):
            start |= names_in(item)
        elif isinstance(item, (A.ParamDecl, A.RangeDecl)):
            deps[item.name] = names_in(item)
    seen: set[str] = set()
    stack = list(start)
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(deps.get(n, ()))
    return seen


def warn_defaults(inst: Any, assigned: Callable[[str], bool]) -> None:
    """Warn, for each element ``inst.zero_filled`` holds, when the model uses it (see
    :func:`used_by_model`) and ``assigned(name)`` is false (no script sets it anywhere):
    OPL0414 for an array, OPL0413 for a scalar, set or tuple."""
    zero = getattr(inst, "zero_filled", {})
    if not zero:
        return
    used = used_by_model(inst.model)
    for name, decl in zero.items():
        if name not in used or assigned(name):
            continue
        if decl.dims:
            inst.reporter.emit("data-uninitialised", decl.name_span,
                               "`%s` has no initializer and nothing assigns it, but the model uses it: "
                               "every element keeps its default value (0, \"\" or the empty set)" % name,
                               help="give it a value in the model or the data, e.g. `%s = ...;`" % name)
        else:
            inst.reporter.emit("data-no-value", decl.name_span,
                               "`%s` has no initializer and nothing assigns it, but the model uses it: "
                               "it keeps its default value" % name,
                               help="give it a value (`= ...;` and the data file, or `= value;`), "
                                    "or assign it in an `execute` block before the model")
