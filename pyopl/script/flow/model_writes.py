"""Which model elements a script block *may* change, read from its AST without running it.

Used only for a block that is not run (``--no-scripts``): if the block may change data or
bounds the model uses, skipping it is the error OPL1059, not a warning, so the model solved
without it never silently differs from IBM's.  The answer errs on the side of "may set":

- a target of ``=``, ``+=``, ``++``, ``for (... in ...)`` rooted at a model element
  (``w = ..``, ``w[i] = ..``, ``x[i].UB = ..``, ``thisOplModel.w[i] = ..``, ``data.n = ..``);
- a call of a mutating set method (``S.add(e)``, ``addOnly``, ``remove``, ``clear``);
- a model element that *escapes* as a value (an argument of a function, the value of a
  ``var`` or an assignment, an item of an array or object literal, a returned value): the
  script may change it through the other name (``var a = w; a[1] = 2;``, ``f(w)``).
  Arguments of ``write``/``writeln`` and of ``Opl.*`` functions only read;
- ``thisOplModel`` escaping or indexed with a computed name: every element the block names.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterable

from ..language import ast as A

_MUTATORS = {"add", "addOnly", "remove", "clear"}
_READERS = {"write", "writeln"}
_MODEL = "thisOplModel"


def _element(node: Any, names: set[str]) -> str | None:
    """The model element ``node`` denotes as a whole (``w`` or ``thisOplModel.w``), else None."""
    if isinstance(node, A.Name) and node.name in names:
        return node.name
    if isinstance(node, A.Member) and isinstance(node.obj, A.Name) and node.obj.name == _MODEL and node.name in names:
        return node.name
    return None


def _root(node: Any, names: set[str]) -> str | None:
    """The model element at the root of an access chain (``w[i][j]``, ``x[i].UB``, ``data.n``).

    A member named like a model element on any object (``data.n``, ``m2.w``) counts: data
    elements and other model instances carry the model's names."""
    while True:
        e = _element(node, names)
        if e is not None:
            return e
        if isinstance(node, A.Member):
            if node.name in names:
                return node.name
            node = node.obj
        elif isinstance(node, A.Index):
            node = node.obj
        else:
            return None


def _children(node: Any) -> Iterable[Any]:
    for f in dataclasses.fields(node):
        if f.name == "span" or f.name.endswith("_span"):
            continue
        v = getattr(node, f.name)
        items = v if isinstance(v, (list, tuple)) else (v,)
        for it in items:
            if isinstance(it, A.Node):
                yield it
            elif isinstance(it, tuple):  # VarDecl (name, init, span), ObjectLit (key, value)
                for sub in it:
                    if isinstance(sub, A.Node):
                        yield sub


def _escaping(node: Any) -> list[Any]:
    """The sub-expressions of ``node`` whose value is kept or handed on (not only read)."""
    if isinstance(node, A.Call):
        callee = node.callee
        if isinstance(callee, A.Name) and callee.name in _READERS:
            return []
        if isinstance(callee, A.Member) and isinstance(callee.obj, A.Name) and callee.obj.name == "Opl":
            return []
        return list(node.args)
    if isinstance(node, A.New):
        return list(node.args)
    if isinstance(node, A.VarDecl):
        return [init for _, init, _ in node.decls if init is not None]
    if isinstance(node, A.Assign):
        return [node.value]
    if isinstance(node, A.ArrayLit):
        return list(node.items)
    if isinstance(node, A.ObjectLit):
        return [v for _, v in node.props]
    if isinstance(node, (A.Return, A.Throw)):
        return [node.value] if node.value is not None else []
    if isinstance(node, A.Conditional):
        return [node.then, node.other]
    if isinstance(node, A.Logical):
        return [node.left, node.right]
    if isinstance(node, A.Sequence):
        return list(node.exprs[-1:])
    return []


def may_set(program: A.Program, names: Iterable[str], scalars: Iterable[str] = ()) -> set[str]:
    """The names among ``names`` (model elements) that running ``program`` may change.

    ``scalars``: the names among them that hold a single number or string, which a script copies
    (``var k = n;`` cannot change ``n``), so handing them on is not a change."""
    names = set(names)
    copied = set(scalars)
    found: set[str] = set()
    mentioned: set[str] = set()
    model_escapes = False
    stack: list[Any] = [program]
    while stack:
        node = stack.pop()
        e = _element(node, names)
        if e is not None:
            mentioned.add(e)
        if isinstance(node, A.Member) and node.name in names:
            mentioned.add(node.name)
        if isinstance(node, A.Literal) and isinstance(node.value, str) and node.value in names:
            mentioned.add(node.value)  # thisOplModel["w"]
        target = getattr(node, "target", None) if isinstance(node, (A.Assign, A.Update, A.ForIn)) else None
        if target is not None:
            r = _root(target, names)
            if r is not None:
                found.add(r)
        if isinstance(node, A.Call) and isinstance(node.callee, A.Member) and node.callee.name in _MUTATORS:
            r = _root(node.callee.obj, names)
            if r is not None:
                found.add(r)
        for v in _escaping(node):
            while isinstance(v, A.Sequence) and v.exprs:
                v = v.exprs[-1]
            e = _element(v, names)
            if e is not None and e not in copied:
                found.add(e)
            if isinstance(v, A.Name) and v.name == _MODEL:
                model_escapes = True
        if isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.name == _MODEL:
            model_escapes = True
        if isinstance(node, A.With) and not (isinstance(node.obj, A.Name) and node.obj.name == _MODEL):
            model_escapes = True  # `with (x) { ... }` may make a model element's name resolve elsewhere
        stack.extend(_children(node))
    if model_escapes:
        found |= mentioned
    return found


def assigns(body: str, name: str) -> bool:
    """Whether script text assigns ``name`` (``name = ``, ``name[..] = ``, ``name.UB = ``, ``name.add(``),
    by its text: used to decide whether a *skipped* or *failed* block would have changed the model."""
    pat = r"\b%s\b(\s*\[[^\]]*\])*(\s*\.\s*(UB|LB|ub|lb))?\s*(=(?!=)|\+=|-=|\*=|/=|\+\+|--)|\b%s\s*\.\s*(add|addOnly|remove|clear)\s*\(" % (
        re.escape(name), re.escape(name))
    return re.search(pat, body) is not None
