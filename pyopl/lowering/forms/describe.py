"""Values and expressions in words, for diagnostics: a value's OPL type, the names an expression uses."""
from __future__ import annotations

from typing import Any

from ...semantics.values import ArraySlice, OplArray, OplRange, OplSet, OplTuple
from ...syntax import ast as A
from .linear import Leaf, LinExpr, Logic, QuadExpr
from .symbols import DexprArray, VarArray


def type_word(v: Any) -> str:
    """The OPL type of a value, in words, for messages."""
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if isinstance(v, OplTuple):
        return "tuple %s" % v.ttype.name if v.ttype else "tuple"
    if isinstance(v, (OplSet, OplRange)):
        return "set"
    if isinstance(v, (OplArray, ArraySlice, VarArray, DexprArray)):
        return "array"
    if isinstance(v, LinExpr):
        return "decision expression"
    if isinstance(v, QuadExpr):
        return "quadratic expression"
    if isinstance(v, (Leaf, Logic)):
        return "constraint"
    if isinstance(v, list):
        return "array literal"
    if type(v).__name__ == "FloatRange":
        return "float range"
    return _CP_WORDS.get(type(v).__name__, type(v).__name__)


#: the values of ``using CP;`` models, in words (pyopl/lowering/cp/intervals.py, scheduling.py, cp_record.py)
_CP_WORDS = {"CpConstraint": "CP constraint", "IntervalVar": "dvar interval", "Sequence": "dvar sequence",
             "CumulExpr": "cumulative function", "ElementSlice": "partly indexed array"}


def decision_names(node: A.Node) -> list[str]:
    """Names in ``node`` that the caller knows are decisions are found by the evaluator; this
    helper lists all names syntactically (used to word nonlinearity messages)."""
    out: list[str] = []
    stack: list[Any] = [node]  # (pre-order, left to right, without recursion: a chain may be 5,000 long)
    while stack:
        n = stack.pop()
        if isinstance(n, A.Name):
            out.append(n.id)
        elif isinstance(n, A.Node):
            kids: list[Any] = []
            for v in vars(n).values():
                if isinstance(v, list):
                    kids.extend(v)
                else:
                    kids.append(v)
            stack.extend(reversed(kids))
    return out
