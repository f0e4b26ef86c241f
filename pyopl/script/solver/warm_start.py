"""``IloOplCplexVectors`` and ``IloOplCplexBasis`` (IBM ILOG Script for OPL reference): warm starts
in a ``main`` block.

``IloOplCplexVectors`` (a MIP start; IBM: "support the CPLEX warm start functionality for mixed
integer programming models"):

- ``getStart(cplex)`` saves the solution of the last solve (every column);
- ``attach(vars, values)`` pairs decision variables (an array or one item) with start values (an
  array with the same indices, or a number); once something is attached, only attached
  variables get start values ("only the elements with attachments are taken into account");
- ``setStart(cplex)`` (``setVectors(cplex)`` is the same call, as IBM's warmstart example writes
  it) gives the next solves of the current model that start: the saved solution, which needs a
  model with exactly as many rows and columns (IBM: "can restore MIP start only if the problem
  ... has exactly the number of rows and columns"), or the attached values; returns false (and
  sets ``status``) when it cannot;
- ``deleteStart(cplex)`` removes the start of the current model, ``clear()`` the saved
  solution and the attachments; ``Nrows``, ``Ncols`` (of the saved solution, or the current
  model for attached values) and ``status`` (0 after a call that worked) are properties.

The start reaches each solver through its own warm-start call: HiGHS ``setSolution``, Gurobi's
``Start`` attribute, a CPLEX MIP start, SCIP ``addSol`` (a partial start is completed by the
solver; :class:`pyopl.backends.common.SolveOptions`).

``IloOplCplexBasis`` (an LP basis; IBM: "support the CPLEX warm start functionality for linear
programming models"): ``getBasis(cplex)`` saves the basis of the last LP solve, ``setBasis(cplex)``
makes the next solves of the current model start from it (same rows and columns), ``Nrows``,
``Ncols``, ``status``.  Bases are HiGHS's (simplex statuses of columns and rows): ``getBasis``
returns false after a MIP or after a solve by another solver, and a basis set for a solve that
another solver runs is left unused with a warning (OPL1058).
"""
from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..opl.host_errors import host_error
from ..opl.opl_objects import DvarHost, _arg, _Host, _num, describe, to_script
from ..language.values import UNDEFINED

#: ``status`` after a call that could not be done (CPLEX's own codes are not reproduced)
FAILED = 1.0


def _model(flow: Any, span: Any, what: str) -> Any:
    if flow is None or flow.current is None or flow.current.model is None:
        raise host_error("script-unsupported", "`%s` needs a generated model in `main`" % what, span,
                         help="call `generate()` on a model first (and `cplex.solve()` for a saved solution)")
    return flow.current


class _Warm(_Host):
    """What the two share: the flow, the saved vectors and their dimensions, ``status``."""

    def __init__(self, flow: Any):
        super().__init__(flow.ctx)
        self.flow = flow
        self.nrows = 0.0
        self.ncols = 0.0
        self.status = 0.0

    def _properties(self) -> list[str]:
        return ["Nrows", "Ncols", "status"]

    def get_member(self, name: str, span: Any) -> Any:
        if name == "Nrows":
            return self.nrows
        if name == "Ncols":
            return self.ncols
        if name == "status":
            return self.status
        return self._method(name, span)

    def _done(self, ok: bool) -> bool:
        self.status = 0.0 if ok else FAILED
        return ok

    def _same_shape(self, ir: Any) -> bool:
        return int(self.nrows) == ir.num_rows and int(self.ncols) == ir.num_cols


class VectorsHost(_Warm):
    """``new IloOplCplexVectors()`` (see the module docstring)."""

    type_name = "IloOplCplexVectors"

    def __init__(self, flow: Any):
        super().__init__(flow)
        self.saved: np.ndarray | None = None
        self.pairs: list[tuple[Any, Any, Any]] = []  # (DvarHost, values, span of attach)

    def _methods(self) -> dict[str, Any]:
        return {"attach": self._attach, "getStart": self._get_start,
                "setStart": self._set_start, "setVectors": self._set_start, "deleteStart": self._delete,
                "clear": self._clear, "end": lambda a, s: UNDEFINED}

    def _attach(self, args: list, span: Any) -> Any:
        var, values = _arg(args, 0), _arg(args, 1)
        if not isinstance(var, DvarHost):
            raise host_error("script-value-type", "`attach(vars, values)` needs decision variables first, not %s"
                             % describe(var), span, help="write `vectors.attach(m.x, m.values);`")
        self.pairs.append((var, values, span))
        return UNDEFINED

    def _get_start(self, args: list, span: Any) -> bool:
        from ..opl.solve_variants import column_values

        flow = self.flow
        m = flow.last_model
        res = flow.last_result
        if m is None or m.model is None or res is None or not res.has_solution:
            return self._done(False)
        ir = m.model.ir
        self.saved = column_values(ir, res)
        self.nrows, self.ncols = float(ir.num_rows), float(ir.num_cols)
        return self._done(True)

    def _attached(self, m: Any, span: Any) -> np.ndarray:
        """The start of ``m`` from the attachments: NaN for every column not attached."""
        ir = m.model.ir
        x = np.full(ir.num_cols, np.nan)
        for var, values, at in self.pairs:
            if var.ctx is not m.ctx:
                raise host_error("script-value-type", "`attach`: `%s` belongs to another model than the one `cplex` "
                                 "solves now" % var._label(), at, help="attach the variables of the generated model")
            if var.is_item:
                x[var.column()] = _num(self.ctx, values, at, "the start value of `%s`" % var._label())
                continue
            dims = var.ctx.dvar_dims(var.name)[len(var.prefix):]
            for key in itertools.product(*[list(d) for d in dims]):
                v = values
                for k in key:
                    if not hasattr(v, "get_index"):
                        raise host_error("script-value-type", "`attach`: the values for `%s` must be an array with "
                                         "its indices, not %s" % (var._label(), describe(values)), at,
                                         help="declare `float values[...]` over the same index sets")
                    v = v.get_index(to_script(self.ctx, k), at)
                num = _num(self.ctx, v, at, "a start value of `%s`" % var._label())
                if not math.isfinite(num):
                    raise host_error("script-value-type", "`attach`: the start values must be finite numbers", at,
                                     help="check the array of values")
                x[var.ctx.column_of(var.name, var.prefix + key)] = num
        return x

    def _set_start(self, args: list, span: Any) -> bool:
        m = _model(self.flow, span, "setStart(cplex)")
        ir = m.model.ir
        if self.pairs:
            m.start = self._attached(m, span)
            self.nrows, self.ncols = float(ir.num_rows), float(ir.num_cols)
            return self._done(True)
        if self.saved is None or not self._same_shape(ir):
            return self._done(False)
        m.start = self.saved.copy()
        return self._done(True)

    def _delete(self, args: list, span: Any) -> Any:
        m = _model(self.flow, span, "deleteStart(cplex)")
        m.start = None
        self.status = 0.0
        return UNDEFINED

    def _clear(self, args: list, span: Any) -> Any:
        self.saved, self.pairs = None, []
        self.nrows = self.ncols = self.status = 0.0
        return UNDEFINED


class BasisHost(_Warm):
    """``new IloOplCplexBasis()`` (see the module docstring)."""

    type_name = "IloOplCplexBasis"

    def __init__(self, flow: Any):
        super().__init__(flow)
        self.saved: tuple | None = None
        flow.wants_basis = True  # from now on the LP solves of `main` keep their final basis

    def _methods(self) -> dict[str, Any]:
        return {"getBasis": self._get_basis, "setBasis": self._set_basis, "attach": self._attach,
                "end": lambda a, s: UNDEFINED}

    def _attach(self, args: list, span: Any) -> Any:
        raise host_error("script-unsupported", "`IloOplCplexBasis.attach(...)` is not supported by pyopl", span,
                         help="save and restore the whole basis with `getBasis(cplex)` and `setBasis(cplex)`")

    def _get_basis(self, args: list, span: Any) -> bool:
        flow = self.flow
        basis = getattr(flow, "basis", None)
        m = flow.last_model
        if basis is None or m is None or m.model is None:
            return self._done(False)
        self.saved = basis
        self.nrows, self.ncols = float(len(basis[1])), float(len(basis[0]))
        return self._done(True)

    def _set_basis(self, args: list, span: Any) -> bool:
        m = _model(self.flow, span, "setBasis(cplex)")
        if self.saved is None or not self._same_shape(m.model.ir):
            return self._done(False)
        m.basis = self.saved
        return self._done(True)


def warm_arguments(flow: Any, m: Any, ir: Any, span: Any, solver: str) -> dict:
    """The warm-start arguments of a solve of ``m`` (its generated problem ``ir``): ``start`` and
    ``basis`` set by the objects above, and ``keep_basis`` (an LP's final basis is kept for
    ``getBasis`` once the block has made an ``IloOplCplexBasis``).  A basis for a solve another solver than HiGHS runs is left out with OPL1058."""
    kw: dict[str, Any] = {"keep_basis": bool(getattr(flow, "wants_basis", False)) and not ir.is_mip}
    start = getattr(m, "start", None)
    if start is not None and len(start) == ir.num_cols:
        kw["start"] = start
    basis = getattr(m, "basis", None)
    if basis is not None and len(basis[0]) == ir.num_cols and len(basis[1]) == ir.num_rows:
        if solver in ("highs", "auto"):
            kw["basis"] = basis
        else:
            flow.ctx.reporter.emit("script-setting-ignored", span,
                                   "the basis set by `IloOplCplexBasis.setBasis` is unused: the solver `%s` runs this "
                                   "solve, and pyopl's bases are HiGHS's" % solver, help="solve with `--solver highs`")
    return kw


def mip_start_values(m: Any, dvars: Any, values: Any, span: Any) -> np.ndarray:
    """``cplex.addMIPStart(dvars, values)`` for the model ``m``: a start value for each column (NaN
    where none is given). ``dvars`` is a decision variable item or array; ``values`` a number (an
    item), an OPL array over the same indices, or a script array in the order of the variables' keys."""
    from ..language.values import JSArray

    if not isinstance(dvars, DvarHost):
        raise host_error("script-value-type", "`cplex.addMIPStart(dvars, values)` needs decision variables first, not %s"
                         % describe(dvars), span, help="write `cplex.addMIPStart(opl.x, opl.values);`")
    if isinstance(values, JSArray) and not dvars.is_item:
        ir = m.model.ir
        x = np.full(ir.num_cols, np.nan)
        dims = dvars.ctx.dvar_dims(dvars.name)[len(dvars.prefix):]
        keys = list(itertools.product(*[list(d) for d in dims]))
        if len(values.items) != len(keys):
            raise host_error("script-value-type", "`cplex.addMIPStart`: %d values for the %d variables of `%s`" % (
                len(values.items), len(keys), dvars._label()), span, help="give one value per variable, in key order")
        for key, v in zip(keys, values.items):
            num = _num(dvars.ctx, v, span, "a start value of `%s`" % dvars._label())
            if not math.isfinite(num):
                raise host_error("script-value-type", "`cplex.addMIPStart`: the start values must be finite numbers", span,
                                 help="check the array of values")
            x[dvars.ctx.column_of(dvars.name, dvars.prefix + key)] = num
        return x
    vec = VectorsHost(m.flow)
    vec.pairs = [(dvars, values, span)]
    return vec._attached(m, span)
