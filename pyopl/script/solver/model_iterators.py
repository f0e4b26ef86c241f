"""``IloOplConflictIterator`` and ``IloOplRelaxationIterator`` (IBM ILOG Script for OPL reference):
a model's conflict and relaxation, one entry at a time.

A ``main`` block reaches them as ``m.conflictIterator`` / ``m.relaxationIterator`` of a generated
model ``m`` (IBM: "the default conflict iterator", made and ended by the model), or with
``new IloOplConflictIterator(m)``.  ``for (var c in iter)`` visits the entries:

- a conflict entry has ``ct`` (the conflicting constraint, null for a variable's bound, which
  pyopl's conflict may also hold; ``dvar`` is then the variable) and ``status``: ``"ConflictMember"`` when the conflict is
  irreducible, ``"ConflictPossibleMember"`` when its search ran out of time (the set may not be
  minimal); the conflict is the one pyopl explains after an infeasible solve (``OPL0704``,
  :mod:`pyopl.backends.explain.iis`), computed on first use when the model was not solved yet;
- a relaxation entry has ``ct``, ``LB``, ``UB`` (the constraint's bounds) and ``relaxedLB``,
  ``relaxedUB`` (its bounds in the relaxation :mod:`pyopl.script.solver.relaxation` computes, as
  ``printRelaxation()`` prints it).

Both are computed lazily and cached, as IBM's are; ``recalculate()`` forgets the cache.
``printConflict()`` / ``printRelaxation()`` return the text as a string.  Preferences
(``attach(cts, prefs)``) and ``excludeConflict()`` are refused with OPL1057: pyopl's conflict and
relaxation treat every labelled constraint alike.
"""
from __future__ import annotations

from typing import Any

from ..opl.host_errors import host_error
from ..opl.opl_objects import ConstraintHost, DvarHost, _arg, _Host, describe
from ..language.values import NULL, UNDEFINED


def _model_of(flow: Any, args: list, span: Any, cls: str) -> Any:
    m = _arg(args, 0)  # a main_flow.ModelObject (which imports this module)
    if not (isinstance(m, _Host) and m.type_name == "IloOplModel" and hasattr(m, "iterators")):
        raise host_error("script-value-type", "`new %s(...)` needs a model, not %s" % (cls, describe(m)), span,
                         help="write `var iter = m.%s;` for a generated model `m`" % (
                             "conflictIterator" if cls == "IloOplConflictIterator" else "relaxationIterator"))
    return m


class _Entry(_Host):
    """One entry of an iterator: read-only properties."""

    def __init__(self, ctx: Any, type_name: str, values: dict[str, Any]):
        super().__init__(ctx)
        self.type_name = type_name
        self.values = values

    def _properties(self) -> list[str]:
        return list(self.values)

    def get_member(self, name: str, span: Any) -> Any:
        if name in self.values:
            return self.values[name]
        return self._method(name, span)


class _Iterator(_Host):
    """What the two iterators share: the model, the cache, ``for-in``, the refused preferences."""

    what = ""

    def __init__(self, model: Any):
        super().__init__(model.flow.ctx)
        self.model = model
        self.cache: list | None = None

    def _need_generated(self, span: Any) -> None:
        if self.model.model is None or not self.model.generated:
            raise host_error("script-unsupported", "`%s` of a model before `generate()`" % self.type_name, span,
                             help="call `generate()` on the model first")

    def _refused(self, name: str):
        def refuse(args: list, span: Any) -> Any:
            raise host_error("script-unsupported", "`%s.%s(...)` is not supported by pyopl" % (self.type_name, name), span,
                             help="pyopl's %s treats every labelled constraint alike (no preferences); label only "
                                  "the constraints that may take part" % self.what)
        return refuse

    def _recalculate(self, args: list, span: Any) -> Any:
        self.cache = None
        return UNDEFINED

    def iter_keys(self):
        return list(self.entries(None))

    def entries(self, span: Any) -> list:
        raise NotImplementedError


class ConflictIteratorHost(_Iterator):
    """``IloOplConflictIterator`` of a generated model (see the module docstring)."""

    type_name = "IloOplConflictIterator"
    what = "conflict"

    def _methods(self) -> dict[str, Any]:
        return {"attach": self._refused("attach"), "excludeConflict": self._refused("excludeConflict"),
                "clearAttachments": lambda a, s: UNDEFINED, "clearAttachements": lambda a, s: UNDEFINED,
                "printConflict": lambda a, s: self._text(s), "recalculate": self._recalculate,
                "end": lambda a, s: UNDEFINED}

    def _conflict(self, span: Any) -> Any:
        self._need_generated(span)
        m = self.model
        res = m.result
        if self.cache is None:
            conflict = getattr(res, "conflict", None) if res is not None else None
            if conflict is None and (res is None or res.status == "infeasible"):
                ir = m.model.ir
                conflict = m.flow.ctx.solver_services.explain_infeasible(
                    ir, "cpsat" if getattr(ir, "engine", "mp") == "cp" else "highs", time_limit=60.0)
            self.cache = [conflict]
        return self.cache[0]

    def entries(self, span: Any) -> list:
        conflict = self._conflict(span)
        if conflict is None:
            return []
        status = "ConflictMember" if conflict.irreducible and not conflict.partial else "ConflictPossibleMember"
        ctx = self.model.ctx
        out = [_Entry(ctx, "IloOplConflict", {"ct": ConstraintHost(ctx, r.label, tuple(r.key)) if r.label else NULL,
                                              "dvar": NULL, "status": status}) for r in conflict.rows]
        out += [_Entry(ctx, "IloOplConflict", {"ct": NULL, "dvar": DvarHost(ctx, b.name, tuple(b.key)), "status": status})
                for b in conflict.bounds]
        return out

    def _text(self, span: Any) -> str:
        conflict = self._conflict(span)
        return conflict.text() + "\n" if conflict is not None else ""


class RelaxationIteratorHost(_Iterator):
    """``IloOplRelaxationIterator`` of a generated model (see the module docstring)."""

    type_name = "IloOplRelaxationIterator"
    what = "relaxation"

    def _methods(self) -> dict[str, Any]:
        return {"attach": self._refused("attach"), "printRelaxation": lambda a, s: self._text(s),
                "recalculate": self._recalculate, "end": lambda a, s: UNDEFINED}

    def _found(self, span: Any) -> list:
        from .relaxation import relaxations

        self._need_generated(span)
        if self.cache is None:
            self.cache = relaxations(self.model, span, "relaxationIterator")
        return self.cache

    def entries(self, span: Any) -> list:
        ctx = self.model.ctx
        ir = self.model.model.ir if self.model.model is not None else None
        out = []
        for i, _name, lo, up, rlo, rup in self._found(span):
            ct = ConstraintHost(ctx, ir.row_label[i], tuple(ir.row_key[i] or ()))
            out.append(_Entry(ctx, "IloOplRelaxation", {"ct": ct, "LB": lo, "UB": up, "relaxedLB": rlo, "relaxedUB": rup}))
        return out

    def _text(self, span: Any) -> str:
        from .relaxation import relaxation_text

        return relaxation_text(self._found(span))


def new_iterator(flow: Any, name: str, args: list, span: Any) -> Any:
    """``new IloOplConflictIterator(m)`` / ``new IloOplRelaxationIterator(m)`` in ``main``."""
    m = _model_of(flow, args, span, name)
    return m.get_member("conflictIterator" if name == "IloOplConflictIterator" else "relaxationIterator", span)
