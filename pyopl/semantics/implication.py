"""The operands of `=>` must be conditions: a number there is `>=` typed as `=>`.

OPL's `=>` is logical implication between constraints or booleans (OPL manual,
"Logical constraints"). `x + y => 3` reads like a constraint, but as an
implication it would treat both sides as truth values and silently solve another
model, so a numeric operand is an error. When both sides are numbers the fix is
certain: the user meant `>=`.
"""
from __future__ import annotations

from typing import Any

from ..diagnostics.diagnostic import Edit, Fix, Span
from ..diagnostics.reporter import Reporter
from ..syntax import ast as A

_ARITH = frozenset({"+", "-", "*", "/", "div", "mod", "%", "^"})
_NUMERIC_CALLS = frozenset({"abs", "maxl", "minl", "floor", "ceil", "round", "sqrt", "exp", "log", "card", "ord"})
_NUMBER_TYPES = frozenset({"int", "int+", "float", "float+"})


def _numeric_names(model: A.Model) -> set[str]:
    """Decisions and dexprs whose values are numbers (not `boolean`): names that cannot be a condition."""
    out = set()
    for item in model.items:
        if isinstance(item, A.DvarDecl) and item.vtype in _NUMBER_TYPES:
            out.add(item.name)
        elif isinstance(item, A.DexprDecl) and item.type.name in _NUMBER_TYPES:
            out.add(item.name)
    return out


def _numeric_data(model: A.Model) -> set[str]:
    """Scalar and array data of type int or float: a number, though an int may stand for a 0/1 flag."""
    return {item.name for item in model.items
            if isinstance(item, A.ParamDecl) and not item.type.is_set and item.type.name in _NUMBER_TYPES}


def _is_number(e: Any, numeric: set[str]) -> bool:
    """True when ``e`` is certainly a numeric expression (never a constraint or a boolean)."""
    if isinstance(e, A.Const):
        return isinstance(e.value, (int, float)) and not isinstance(e.value, bool)
    if isinstance(e, A.Unary):
        return e.op == "-"
    if isinstance(e, A.Binary):
        return e.op in _ARITH
    if isinstance(e, A.Aggregate):
        return e.op in ("sum", "prod")
    if isinstance(e, (A.Piecewise,)):
        return True
    if isinstance(e, A.Call):
        return e.func in _NUMERIC_CALLS
    base = e
    while isinstance(base, A.Index):
        base = base.base
    return isinstance(base, A.Name) and base.id in numeric


def _arrow_span(text: str, left: A.Node, right: A.Node, file: str) -> Span | None:
    """The span of the `=>` token between ``left`` and ``right`` (the AST keeps no token for it)."""
    lines = text.splitlines()
    line, col = left.span.end_line, left.span.end_column
    while 1 <= line <= len(lines) and (line, col) <= (right.span.line, right.span.column):
        k = lines[line - 1].find("=>", col - 1)
        if k >= 0 and (line, k + 1) < (right.span.line, right.span.column):
            return Span(file, line, k + 1, line, k + 3)
        line, col = line + 1, 1
    return None


def check_implications(model: A.Model, reporter: Reporter, nodes) -> None:
    """Report every `=>` with a numeric operand (code OPL1160).

    ``nodes(item)`` lists an item's AST nodes (``StaticRules.nodes``). The fix `>=` is
    machine-applicable when both operands are numeric, and shown only otherwise.
    """
    numeric = _numeric_names(model)
    data = _numeric_data(model) | numeric
    text = model.source or ""
    for item in model.items:
        if not isinstance(item, (A.ConstraintsBlock, A.Objective, A.DexprDecl, A.Assert, A.ParamDecl)):
            continue
        for n in nodes(item):
            if not (isinstance(n, A.Binary) and n.op == "=>"):
                continue
            left, right = _is_number(n.left, numeric), _is_number(n.right, numeric)
            if not (left or right):
                continue
            arrow = n.op_span or _arrow_span(text, n.left, n.right, n.span.file) or n.span
            bad = n.left if left else n.right
            what = _source(text, bad.span) or "this expression"
            # `decisions => data` (`x + y => cap`) is `>=` too: a number on one side, numeric data on the other
            if (left or _is_number(n.left, data)) and (right or _is_number(n.right, data)):
                fix = Fix("replace `=>` with `>=`", (Edit(arrow, ">="),), "machine-applicable")
                reporter.emit("implication-of-numbers", arrow,
                              "`=>` is implication, but `%s` and `%s` are numbers, not conditions" % (
                                  what, _source(text, n.right.span) or "the right side"),
                              help="write `>=` for greater than or equal", fix=fix)
            else:
                reporter.emit("implication-of-numbers", arrow,
                              "`=>` is implication, but `%s` is a number, not a condition" % what,
                              help="both sides of `=>` must be constraints or booleans, e.g. `b == 1 => x >= 3`;"
                                   " for greater than or equal write `>=`")


def _source(text: str, span: Span) -> str:
    """The source text of a one-line ``span``, shortened to 40 characters; '' when it spans lines."""
    lines = text.splitlines()
    if not (1 <= span.line <= len(lines)):
        return ""
    line = lines[span.line - 1]
    s = line[span.column - 1:span.end_column - 1 if span.line == span.end_line else len(line)].strip()
    if span.line != span.end_line:
        s += " ..."  # the expression goes on over the next lines
    return s if len(s) <= 40 else s[:37] + "..."
