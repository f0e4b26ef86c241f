"""Shapes of expression trees that more than one evaluation path reads the same way.

A leaf module (it imports only the AST), shared by the tree walk (:mod:`pyopl.lowering.evaluate.expressions`) and the
closures (:mod:`pyopl.lowering.evaluate.compiled`): both must see an index chain or an operator spine identically, or their
results could differ.
"""
from __future__ import annotations

from ...syntax import ast as A

#: A left-associative chain with more operators than this is evaluated in a loop (`Evaluator._fold_chain`);
#: shorter ones keep the recursive walk, which tries each operand's closure.
CHAIN_LOOP = 24


def long_spine(node: A.Binary) -> list[A.Binary] | None:
    """The operators of ``node``'s left spine from the innermost out, when there are more than
    :data:`CHAIN_LOOP` of them; None otherwise."""
    spine, n = [], node
    while n.__class__ is A.Binary:
        spine.append(n)
        n = n.left
    if len(spine) <= CHAIN_LOOP:
        return None
    spine.reverse()
    return spine


def index_chain(node: A.Index) -> tuple[A.Expr, list[tuple[A.Index, A.Expr]]]:
    """``a[i][j]`` -> (``a``, [(node holding ``i``, ``i``), (node holding ``j``, ``j``)]), left to right."""
    steps: list[tuple[A.Index, A.Expr]] = []
    n: A.Expr = node
    while isinstance(n, A.Index):
        steps[:0] = [(n, i) for i in n.indices]
        n = n.base
    return n, steps


def binder_equalities(f: A.Expr, name: str):
    """The other side of ``f`` where ``f`` is ``name.field == other`` or ``name == other`` (either
    order): yields ``(field, other)``, ``field`` None for the element itself (a filter's usable equality)."""
    if not (isinstance(f, A.Compare) and f.ops == ["=="] and len(f.operands) == 2):
        return
    for mine, other in (f.operands, f.operands[::-1]):
        if isinstance(mine, A.Field) and isinstance(mine.base, A.Name) and mine.base.id == name:
            yield mine.name, other
        elif isinstance(mine, A.Name) and mine.id == name:
            yield None, other


def conjuncts(e: A.Expr) -> list[A.Expr]:
    """The operands of a chain of ``&&`` (``e`` itself when it is not one), left to right."""
    out, stack = [], [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Binary) and n.op == "&&":
            stack.append(n.right)
            stack.append(n.left)
        else:
            out.append(n)
    return out
