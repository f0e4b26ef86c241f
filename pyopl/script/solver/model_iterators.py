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
``printConflict()`` / ``printRelaxation()`` return the text as a string.  As in OPL, only labelled
constraints take part (the variables' domains and unlabelled rows always hold); ``attach(cts,
prefs)`` (a constraint and a number, or a constraint array and an array of preferences over the
same indices) restricts the search to the attached constraints with those preferences
(:mod:`pyopl.backends.explain.conflict_refiner`, and feasOpt's ``1 / preference`` price per unit of
relaxation); ``clearAttachments()`` forgets them; ``excludeConflict()`` leaves the conflict's
members out of the next refinement, so iterating again gives the next conflict.
"""
from __future__ import annotations

from typing import Any

from ..opl.host_errors import host_error
from ..opl.constraint_host import ConstraintHost
from ..opl.opl_objects import DvarHost, _arg, _Host, _num, describe, to_script
from ..language.values import NULL, UNDEFINED, HostObject


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
        self.prefs: dict[int, float] = {}  # attached preferences, row -> preference

    def _attach(self, args: list, span: Any) -> Any:
        """``attach(cts, prefs)``: the preference of each row of ``cts`` (one constraint and a number, or an
        array of constraints and an array of numbers over the same indices)."""
        self._need_generated(span)
        cts, prefs = _arg(args, 0), _arg(args, 1)
        if not isinstance(cts, ConstraintHost):
            raise host_error("script-value-type", "`%s.attach` takes a labelled constraint (or an array of them), not %s"
                             % (self.type_name, describe(cts)), span, help="write `iter.attach(m.cts, m.prefs);`")
        fam = self.model.model.ir.families.get(cts.label)
        n = len(cts.prefix)
        for key, row in zip(fam.keys if fam is not None else (), fam.rows if fam is not None else ()):
            key = tuple(key)
            if key[:n] != cts.prefix:
                continue
            p = prefs
            for k in key[n:]:
                if not isinstance(p, HostObject):
                    break
                p = p.get_index(to_script(self.ctx, k), span)
            self.prefs[int(row)] = _num(self.ctx, p, span, "the preference of `%s`" % cts.label)
        self.cache = None
        return UNDEFINED

    def _clear(self, args: list, span: Any) -> Any:
        self.prefs, self.cache = {}, None
        return UNDEFINED

    def _need_generated(self, span: Any) -> None:
        if self.model.model is None or not self.model.generated:
            raise host_error("script-unsupported", "`%s` of a model before `generate()`" % self.type_name, span,
                             help="call `generate()` on the model first")

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

    def __init__(self, model: Any):
        super().__init__(model)
        self.excluded: set[int] = set()  # rows of the conflicts excludeConflict() left out

    def _methods(self) -> dict[str, Any]:
        return {"attach": self._attach, "excludeConflict": self._exclude,
                "clearAttachments": self._clear, "clearAttachements": self._clear,
                "printConflict": lambda a, s: self._text(s), "recalculate": self._recalculate,
                "end": lambda a, s: UNDEFINED}

    def _conflict(self, span: Any) -> Any:
        """``(refined, conflict)``: the refined rows (:mod:`pyopl.backends.explain.conflict_refiner`) and the
        :class:`~pyopl.backends.iis.Conflict` naming them; ``(None, None)`` for a feasible model."""
        self._need_generated(span)
        if self.cache is None:
            ir = self.model.model.ir
            services = self.model.flow.ctx.solver_services
            if getattr(ir, "engine", "mp") == "cp":  # CP-SAT's own refiner (pyopl/backends/cp/conflict.py)
                if self.prefs or self.excluded:
                    raise host_error("script-unsupported", "preferences and `excludeConflict` on the conflicts of a "
                                     "`using CP;` model", span, help="read the one conflict without attaching preferences")
                res = self.model.result
                conflict = getattr(res, "conflict", None) if res is not None else None
                if conflict is None and (res is None or res.status == "infeasible"):
                    conflict = services.explain_infeasible(ir, "cpsat", time_limit=60.0)
                self.cache = [(None, conflict)]
                return self.cache[0]
            prefs = dict(self.prefs) if self.prefs else {
                i: 1.0 for i, lab in enumerate(ir.row_label) if lab and not lab.startswith("#")}
            prefs.update({i: -1.0 for i in self.excluded})
            refined = services.refine_conflict(ir, prefs, time_limit=60.0)
            conflict = None
            if refined is not None:
                rows = [(i, services.row_side(ir, i)) for i in refined.forced + refined.members]
                conflict = services.conflict_of(ir, rows, [], "pyopl's conflict refiner", refined.irreducible)
            self.cache = [(refined, conflict)]
        return self.cache[0]

    def _exclude(self, args: list, span: Any) -> Any:
        refined, _conflict = self._conflict(span)
        if refined is not None:
            self.excluded.update(refined.members)
        self.cache = None
        return UNDEFINED

    def entries(self, span: Any) -> list:
        refined, conflict = self._conflict(span)
        if refined is None:
            return [] if conflict is None else self._cp_entries(conflict)
        ctx, ir = self.model.ctx, self.model.model.ir
        member = "ConflictMember" if refined.irreducible else "ConflictPossibleMember"
        return [_Entry(ctx, "IloOplConflict", {"ct": ConstraintHost(ctx, ir.row_label[i], tuple(ir.row_key[i] or ())),
                                               "dvar": NULL, "status": "ConflictPossibleMember" if i in refined.forced
                                               else member})
                for i in refined.forced + refined.members]

    def _cp_entries(self, conflict: Any) -> list:
        """The members of a CP model's conflict (rows and variable bounds, as the CP-SAT refiner names them)."""
        status = "ConflictMember" if conflict.irreducible and not conflict.partial else "ConflictPossibleMember"
        ctx = self.model.ctx
        out = [_Entry(ctx, "IloOplConflict", {"ct": ConstraintHost(ctx, r.label, tuple(r.key)) if r.label else NULL,
                                              "dvar": NULL, "status": status}) for r in conflict.rows]
        out += [_Entry(ctx, "IloOplConflict", {"ct": NULL, "dvar": DvarHost(ctx, b.name, tuple(b.key)), "status": status})
                for b in conflict.bounds]
        return out

    def _text(self, span: Any) -> str:
        _refined, conflict = self._conflict(span)
        return conflict.text() + "\n" if conflict is not None else ""


class RelaxationIteratorHost(_Iterator):
    """``IloOplRelaxationIterator`` of a generated model (see the module docstring)."""

    type_name = "IloOplRelaxationIterator"
    what = "relaxation"

    def _methods(self) -> dict[str, Any]:
        return {"attach": self._attach, "clearAttachments": self._clear, "clearAttachements": self._clear,
                "printRelaxation": lambda a, s: self._text(s), "recalculate": self._recalculate,
                "end": lambda a, s: UNDEFINED}

    def _found(self, span: Any) -> list:
        from .relaxation import relaxations

        self._need_generated(span)
        if self.cache is None:
            self.cache = relaxations(self.model, span, "relaxationIterator", self.prefs or None)
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
