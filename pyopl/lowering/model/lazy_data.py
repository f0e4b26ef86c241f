"""IBM's lazy initialisation of internal data, for models with scripts.

IBM OPL computes internal data (``{int} s2 = {i | i in s1};``) when it is first used, not where
it is declared; external data (``= ...``) comes first and scripts run after it (IBM OPL
Language Reference, "Pitfall of lazy initialization of data" and "Initialization and memory
allocation"). Without scripts the order cannot be seen (data never changes), so pyopl computes
data at its declaration and this module is not used. With scripts it can: a script that changes
``s1`` before anything used ``s2`` must see ``s2`` computed from the changed ``s1``.

pyopl still computes each datum at its declaration (so every diagnostic is where it was), and
keeps a datum *fresh* until something uses it: a later model item naming it (found in its text,
so every fast path of the evaluator is covered), a script reading or assigning it, or the use of
a datum computed from it. A fresh datum is computed again from its declaration when a script
first reads it, and after each pre-processing block for those whose inputs the block names; a
used one keeps its value, as IBM's does once computed (see docs/scripting.md, "Order of
initialisation"). Ranges and generic arrays follow the same rule.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from ...syntax import ast as A
from ..forms.errors import EvalError

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def names_in(node: Any) -> set[str]:
    """Every name written inside ``node`` (an AST node or a list of them): each ``A.Name.id`` and
    each tuple type a declaration names (``{T} S`` reads ``T``: moved before ``T``'s declaration, it
    would find no type)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, list) or isinstance(n, tuple):
            stack.extend(n)
            continue
        if not isinstance(n, A.Node):
            continue
        if isinstance(n, A.Name):
            out.add(n.id)
        elif isinstance(n, A.TypeRef):
            out.add(n.name)
        for f in dataclasses.fields(n):
            v = getattr(n, f.name)
            if isinstance(v, (A.Node, list, tuple)):
                stack.append(v)
    return out


class LazyData:
    """Which internal data of one instance are still fresh (computed, but used by nothing yet)."""

    def __init__(self, inst: Any) -> None:
        self.inst = inst
        self.fresh: dict[str, tuple[A.ParamDecl, set[str]]] = {}  # name -> (declaration, names it reads)
        self.busy: set[str] = set()

    @staticmethod
    def eligible(item: Any) -> bool:
        """A declaration of internal data computed from other data (``int a2 = 2 * a;``,
        ``range R = 1..n;``, a generic array ``a[i in I] = ...``)."""
        if isinstance(item, A.RangeDecl):
            return not isinstance(item.init, A.External)
        return isinstance(item, A.ParamDecl) and item.init is not None and not isinstance(item.init, A.External)

    def after_item(self, item: Any) -> None:
        """``item`` (not a script block) was processed: what it names is used; a datum it declares is fresh."""
        inst = self.inst
        if self.eligible(item) and not inst.after_model:
            sym = inst.symbols.get(item.name)
            if sym is not None and sym.decl is item and sym.kind in ("param", "set", "range"):
                self.fresh[item.name] = (item, names_in(item) - {item.name})
                return
        self.use(names_in(item))

    def use(self, names: set[str]) -> None:
        """These names are used: each fresh one keeps its value from now on, with what it was computed from."""
        stack = [n for n in names if n in self.fresh]
        while stack:
            n = stack.pop()
            entry = self.fresh.pop(n, None)
            if entry is not None:
                stack.extend(d for d in entry[1] if d in self.fresh)

    def first_read(self, name: str) -> None:
        """A script reads ``name``: a fresh datum is computed now (its fresh inputs first), then used."""
        if name not in self.fresh or name in self.busy:
            return
        self._recompute_tree(name)
        self.use({name})

    def assigned(self, name: str) -> None:
        """A script assigns ``name`` as a whole: its value is the script's from now on."""
        self.use({name})

    def after_script(self, body: str) -> None:
        """A pre-processing block ran: recompute every fresh datum whose inputs it may have changed."""
        touched = set(_WORD.findall(body))
        order = list(self.fresh)  # declaration order
        stale = set()
        for n in order:
            if self.fresh[n][1] & (touched | stale):
                stale.add(n)
        for n in order:
            if n in stale and n in self.fresh:
                self._recompute(n)

    def _recompute_tree(self, name: str) -> None:
        for d in sorted(self.fresh[name][1] & set(self.fresh), key=list(self.fresh).index):
            self._recompute_tree(d)
        self._recompute(name)

    def _recompute(self, name: str) -> None:
        from .declarations import process_item

        inst = self.inst
        item = self.fresh[name][0]
        ctx = getattr(inst, "script_ctx", None)
        if ctx is not None:
            ctx.dirty = True
            ctx.invalidate()  # nothing computed from the old values is reused
        old = inst.symbols.pop(name, None)
        self.busy.add(name)
        seen = {(d.code, d.file, d.line, d.column, d.message) for d in inst.reporter.diagnostics}
        n_before = len(inst.reporter.diagnostics)
        try:
            process_item(inst, item)
        except EvalError as e:
            e.report(inst.reporter)
        finally:
            new = inst.reporter.diagnostics[n_before:]  # said once already at the declaration: not again
            inst.reporter.diagnostics[n_before:] = [d for d in new if (d.code, d.file, d.line, d.column, d.message)
                                                     not in seen]
            self.busy.discard(name)
            if name not in inst.symbols and old is not None:
                inst.symbols[name] = old
        if ctx is not None:
            ctx.dirty = True
            ctx.invalidate()


def lazy_of(inst: Any) -> LazyData | None:
    """The instance's :class:`LazyData` (made on first use) when it has scripts; None otherwise."""
    if not getattr(inst, "has_scripts", False):
        return None
    lz = getattr(inst, "_lazy_data", None)
    if lz is None:
        lz = inst._lazy_data = LazyData(inst)
    return lz


_DATA_DECLS = (A.ParamDecl, A.TupleDecl, A.RangeDecl)


def external_first(items: list) -> list:
    """``items`` in IBM's order for a model with scripts: external data (``= ...``) declared after
    the first pre-processing script moves, with the data declarations it needs, to just before
    that script (IBM initialises external data before any script runs). Anything needing a
    declaration that is not data (a ``dvar``, a constraint) stays where it is."""
    first = next((k for k, it in enumerate(items) if isinstance(it, A.ScriptBlock) and it.kind != "main"), None)
    if first is None:
        return items
    end = next((k for k, it in enumerate(items) if isinstance(it, (A.Objective, A.ConstraintsBlock))), len(items))
    if end <= first:
        return items
    later = items[first + 1:end]
    by_name = {getattr(it, "name", None): k for k, it in enumerate(later) if isinstance(it, _DATA_DECLS)}
    hoist: set[int] = set()
    for k, it in enumerate(later):
        if not (isinstance(it, (A.ParamDecl, A.RangeDecl)) and isinstance(it.init, A.External)):
            continue
        need, stack, ok = {k}, [k], True
        while stack and ok:
            j = stack.pop()
            node = later[j]
            parts = ([node.type, node.dims] if isinstance(node, A.ParamDecl) else []) if j == k else [node]
            for n in names_in(parts):
                if n in by_name and by_name[n] < j and by_name[n] not in need:
                    need.add(by_name[n])
                    stack.append(by_name[n])
                elif n not in by_name and any(getattr(x, "name", None) == n for x in later[:j]):
                    ok = False  # declared after the script by something that is not data
        if ok:
            hoist |= need
    if not hoist:
        return items
    moved = [it for k, it in enumerate(later) if k in hoist]
    rest = [it for k, it in enumerate(later) if k not in hoist]
    return items[:first] + moved + [items[first]] + rest + items[end:]

