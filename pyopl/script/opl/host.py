"""The OPL side of IBM ILOG Script: one :class:`ScriptContext` per model instance, and the
global host object that gives a script every model element by name (as inside IBM's
``with (thisOplModel) { }``).

The context knows the phase (``pre``: before the model is generated, ``post``: after a
solve, ``main``: a ``main`` block), the captured output, the solver settings a script set
(``cplex.tilim``), which data names scripts assigned, and the solution a post-processing
block reads.  Model elements are wrapped by :mod:`pyopl.script.opl.opl_objects`; ``cplex``,
``thisOplModel``, ``Opl`` and the ``IloOpl*`` classes live in :mod:`pyopl.script.flow.opl_runtime`.
"""
from __future__ import annotations

import math
import os
from typing import Any

from ...semantics.values import OplArray, OplRange, OplSet, OplTuple
from .host_errors import HostError, host_error
from .constraint_host import ConstraintHost
from .tuple_slots import field_from_script
from .opl_objects import (VALUE_HOSTS, ArrayHost, DexprHost, DvarHost, SetHost, describe, display, js_number,
                          to_key, to_script)
from .options import DEFAULT_MEMORY, DEFAULT_STEPS, ScriptOptions  # noqa: F401  (defined apart: light to import)
from ..language.values import HostObject, JSArray, JSObject, UNDEFINED, well_formed


_NOWHERE = None  # set below (a span for errors found where no script span is at hand)


class ScriptContext:
    """Everything the host objects of one model instance share (see the module docstring)."""

    def __init__(self, inst: Any, reporter: Any, model_file: str, options: ScriptOptions | None = None):
        self.inst = inst
        self.reporter = reporter
        self.model_file = model_file
        self.options = options or ScriptOptions(analysis=True)  # nothing written unless a run asks
        from .options import RunMeter

        # the budgets of the run: the model's blocks (and the models `main` makes) share them
        self.meter = getattr(self.options, "meter", None) or RunMeter()
        self.phase = "pre"
        self.out: list[str] = []  # captured output, in order
        self.pre_output = ""  # what pre-processing wrote (shown before anything else)
        self.settings: dict[str, tuple[Any, Any]] = {}  # cplex parameter -> (value, span of the assignment)
        self.assigned: set[str] = set()  # data names scripts assigned
        self.post_blocks: list = []  # execute blocks after the objective/constraints
        self.main_block: Any = None
        self.ir: Any = None  # the generated model (set after build_ir)
        self.result: Any = None  # the solution post-processing reads
        self.script_globals: dict[str, Any] = {}  # names a script created by assignment
        self.runtime: Any = None  # opl_runtime.Runtime, made on first use
        # makes it: opl_runtime.Runtime, set by processing.context_of (opl_runtime imports this module)
        self.make_runtime: Any = None
        self.dirty = False  # data changed since the evaluator's caches were made
        self.files_written: list[str] = []
        self.flow: Any = None  # main_flow.Flow while a `main` block runs
        # pyopl.backends.script_services, set by api.Model.solve (the backends sit above the scripts)
        self.solver_services: Any = None
        self.failed = False  # a script of this context raised an error
        self.fail_only = True  # every script error so far was a `fail()` call (the next blocks still run)

    # ------------------------------------------------------------------ output
    def write(self, text: str) -> None:
        self.out.append(text)

    def output(self) -> str:
        return well_formed("".join(self.out))

    @property
    def model_dir(self) -> str | None:
        """The real path of the folder the model's files are read from: the model file's folder; for a
        model given as text ``options.input_dir`` (the language server's document folder), else None:
        never the current folder (docs/safety.md, "What a script may read")."""
        if self.model_file.startswith("<"):
            folder = getattr(self.options, "input_dir", None)
            return os.path.realpath(folder) if folder else None
        return os.path.realpath(os.path.dirname(os.path.abspath(self.model_file)))

    # ------------------------------------------------------------------ data
    def note_assigned(self, name: str | None) -> None:
        if name:
            self.assigned.add(name)
        self.dirty = True

    def is_model_input(self, name: str) -> bool:
        """Whether ``name`` is model data a post-processing script may not change; data declared
        without initializer (``{Arc} used;``) or as an empty set (``{T} solution = {};``, IBM's
        floatexpr example fills it after the solve) is there for the scripts to fill, after the solve too."""
        if name not in self.inst.symbols or name in getattr(self.inst, "zero_filled", {}):
            return False
        from ...syntax import ast as A

        init = getattr(self.inst.symbols[name].decl, "init", None)
        return not (isinstance(init, A.SetLit) and not init.items)

    def check_writable(self, name: str, span: Any) -> None:
        return None

    def convert_for(self, decl_type: Any, value: Any, label: str, span: Any) -> Any:
        """``value`` checked and converted for an item of declared type ``decl_type``
        (``int``, ``int+``, ``float``, ``float+``, ``string``, ``boolean``)."""
        t = decl_type if isinstance(decl_type, str) else None
        if isinstance(value, HostObject) and t in ("int", "int+", "float", "float+", "boolean"):
            value = value.to_number()
        elif isinstance(value, (JSObject, JSArray)) and t in ("int", "int+", "float", "float+", "boolean"):
            from ..language.convert import to_number

            value = to_number(value)  # ToNumber, as IBM converts: a `Date` gives its time in milliseconds
        if t in ("int", "int+", "float", "float+", "boolean"):
            if isinstance(value, bool):
                value = float(value)
            if not isinstance(value, (int, float)):
                raise host_error("script-value-type", "`%s` is %s, so it cannot take %s" % (
                    label, "an integer" if t.startswith("int") else "a number" if t.startswith("float") else "a boolean",
                    describe(value)), span, help="assign a number")
            if math.isnan(value) or (math.isinf(value) and t.startswith("int")):
                raise host_error("script-value-type", "`%s` cannot take %s" % (label, js_number(value)), span,
                                 help="check the computation: it gave %s" % js_number(value))
            if t.endswith("+") and value < 0:
                raise host_error("script-negative-value", "`%s` is declared `%s`, so it cannot take the negative value %s" % (
                    label, t, js_number(value)), span, help="assign a value >= 0, or declare it `%s`" % t[:-1])
            if t in ("int", "int+", "boolean"):
                if not float(value).is_integer():
                    raise host_error("script-value-type", "`%s` is an integer, so it cannot take %s" % (
                        label, js_number(value)), span,
                        help="round it first, e.g. `Opl.round(...)` or `Opl.floor(...)`, or declare it `float`")
                if t == "boolean" and value not in (0, 1):
                    raise host_error("script-value-type", "`%s` is a boolean, so it takes 0 or 1, not %s" % (
                        label, js_number(value)), span, help="assign 0, 1, true or false")
                from ...lowering.forms.int32 import int_bounds

                lo, hi = int_bounds(self.inst)  # OPL's `int` is 32-bit (maxint = 2147483647); 64-bit with `using CP;`
                if not lo <= value <= hi:
                    raise host_error("script-value-type", "`%s` is an OPL `int` (%d-bit), so it cannot take %s" % (
                        label, 64 if hi > 2 ** 31 else 32, js_number(value)), span,
                        help="keep it within %d..%d, or declare it `float`" % (lo, hi))
                return int(value)
            return float(value)
        if t == "string":
            if isinstance(value, str):
                return well_formed(value)
            raise host_error("script-value-type", "`%s` is a string, so it cannot take %s" % (label, describe(value)), span,
                             help='assign a string, e.g. `"" + value`')
        raise host_error("script-forbidden-assignment", "`%s` holds %s values, which a script cannot assign" % (
            label, "tuple" if isinstance(decl_type, OplTuple) or hasattr(decl_type, "fields") else "set"), span,
            help="change the data it is computed from, or use `add()` on a set")

    def assign_tuple_field(self, host: Any, name: str, value: Any, span: Any) -> None:
        """``t.name = value`` on the tuple host ``host``: the changed tuple put in its place in the model's
        data (:mod:`.tuple_slots`), and ``host`` now holds it."""
        from .tuple_slots import changed_tuple, replace_in_slot

        new = changed_tuple(self, host.value, name, value, span)
        replace_in_slot(self, host.slot, host.value, new, span)
        host.value = new

    def tuple_field_value(self, ftype: Any, value: Any, label: str, span: Any) -> Any:
        """A script value as the value of a tuple field of type ``ftype`` (:func:`.tuple_slots.field_from_script`)."""
        return field_from_script(self, ftype, value, label, span)

    def invalidate(self) -> None:
        """Forget what the evaluator computed from data before a script changed it."""
        if not self.dirty:
            return
        from ...lowering.evaluate.expressions import Evaluator
        from ...lowering.forms.symbols import DexprArray, DexprScalar

        self.inst.ev = Evaluator(self.inst)
        for sym in self.inst.symbols.values():
            if isinstance(sym.value, DexprScalar):
                sym.value.value = None
            elif isinstance(sym.value, DexprArray):
                sym.value.cache.clear()
        self.dirty = False

    # ------------------------------------------------------------------ decisions
    def dvar_dims(self, name: str) -> list:
        v = self.inst.symbols[name].value
        return list(getattr(v, "dims", []))

    def column_of(self, name: str, prefix: tuple, span: Any = None) -> int:
        v = self.inst.symbols[name].value
        if not prefix:  # a scalar decision (or a scalar alias of one): its one column
            return next(iter(v.terms))
        j = v.cols.get(prefix)
        if j is None:  # a sparse array (an index filter in the declaration) without this item
            from .opl_objects import display as show

            raise host_error("script-index-out-of-range", "`%s%s` is not a variable of the model" % (
                name, "".join("[%s]" % show(p, True) for p in prefix)), span or _NOWHERE,
                help="the declaration of `%s` leaves this index out" % name)
        return j

    def set_branching(self, j: int, what: str, v: float, label: str, span: Any) -> None:
        """``x.priority = p`` / ``x.direction = d`` (IBM ILOG Script for OPL, ``IloNumVar``): the branching
        priority (an integer >= 0, higher first) or direction (-1 down, 0 the solver's, 1 up) of column
        ``j`` for the solves of this model; they steer the search only, never the optimum."""
        ok = v.is_integer() and (v >= 0 if what == "priority" else v in (-1, 0, 1))
        if not ok:
            raise host_error("script-value-type", "`%s.%s` takes %s, not %s" % (
                label, what, "an integer >= 0" if what == "priority" else "-1 (down), 0 (solver's choice) or 1 (up)",
                js_number(v)), span, help="CPLEX's branching %s" % what)
        branching = self.__dict__.setdefault("branching", {})
        prio, direction = branching.get(j, (0, 0))
        branching[j] = (int(v), direction) if what == "priority" else (prio, int(v))
        self.__dict__.setdefault("branching_span", span)

    def column_bounds(self, j: int) -> tuple[float, float]:
        if self.ir is not None:
            return float(self.ir.col_lower[j]), float(self.ir.col_upper[j])
        return float(self.inst.cols.lower[j]), float(self.inst.cols.upper[j])

    def set_bound(self, j: int, which: str, v: float, label: str, span: Any) -> None:
        if self.phase == "post":
            raise host_error("script-forbidden-assignment", "the bound of `%s` cannot change after the solve" % label, span,
                             help="set bounds in an `execute` block before the constraints, or in `main` before `cplex.solve()`")
        # what the model builder refuses (OPL0431) is refused here, at the assignment: in `main` the
        # changed bounds go to the solver directly, which would reject them as an internal failure
        word = "lower" if which == "LB" else "upper"
        if math.isnan(v) or v == (math.inf if which == "LB" else -math.inf):
            raise host_error("script-value-type", "the %s bound of `%s` cannot be %s" % (word, label, js_number(v)), span,
                             help="check the computation that gave %s" % js_number(v))
        if (which == "UB" and v >= 1e20) or (which == "LB" and v <= -1e20):  # CPLEX_INFINITY of pyopl.lowering.model.build
            v = math.inf if which == "UB" else -math.inf
        if math.isfinite(v) and abs(v) >= 1e15:  # LARGE_VALUE of pyopl.lowering.model.build
            raise host_error("script-value-type", "the %s bound of `%s` is %s, which no solver can take" % (
                word, label, js_number(v)), span,
                help="write %sInfinity for no bound; finite bounds must be below 1e15 in magnitude" % (
                    "-" if which == "LB" else ""))
        integer = bool(self.ir.col_integer[j]) if self.ir is not None else bool(self.inst.cols.integer[j])
        if integer and math.isfinite(v):
            v = float(math.ceil(v - 1e-9) if which == "LB" else math.floor(v + 1e-9))
        if self.ir is not None:
            arr = self.ir.col_lower if which == "LB" else self.ir.col_upper
            arr[j] = v
        else:
            runs = self.inst.cols.lower if which == "LB" else self.inst.cols.upper
            runs.flat()[j] = v
            implied = getattr(self.inst, "implied", None)
            if implied is not None:  # its kept first-round state started from the old bound
                implied.invalidate()
        self.note_assigned(label.split("[")[0] + "." + which)

    def has_solution(self) -> bool:
        return self.result is not None and self.result.has_solution

    def _need_solution(self, what: str, span: Any) -> None:
        if self.result is None:
            raise host_error("script-no-solution", "%s has no value before the model is solved" % what, span,
                             help="read solution values in an `execute` block after the constraints, or after "
                                  "`cplex.solve()` in `main`")
        if not self.result.has_solution:
            raise host_error("script-no-solution", "%s has no value: the solve ended `%s` without a solution" % (
                what, self.result.status), span, help="test `cplex.solve()` (or `cplex.status`) before reading values")

    def solution_value(self, j: int, label: str, span: Any) -> float:
        if span is not None:
            self._need_solution("`%s`" % label, span)
        elif not self.has_solution():
            return math.nan
        over = self.__dict__.get("_solution_overrides")
        if over is not None and over[0] is self.result and j in over[1]:
            return over[1][j]
        name, key = self.ir.col_name[j], self.ir.col_key[j]
        v = self.result.variables.get(name)
        if v is None:
            return math.nan
        if not isinstance(v, float) and not isinstance(v, int):
            v = v[key] if key else v
        return float(v) if v is not None else math.nan

    def set_solution_value(self, j: int, value: Any, label: str, span: Any) -> None:
        """``x = v`` for a decision in a post-processing script (IBM's lazy-evaluation example): the
        scripts and the post-processing data computed after it read ``v`` as the value of column ``j``;
        the solver's solution, as reported, is unchanged."""
        if self.phase != "post":
            raise host_error("script-forbidden-assignment", "`%s` is a decision variable: its value is the solver's"
                             % label, span, help="bound it instead: `%s.UB = ...;`" % label)
        self._need_solution("`%s`" % label, span)
        v = _num_value(value, label, span)
        over = self.__dict__.get("_solution_overrides")
        if over is None or over[0] is not self.result:
            over = self._solution_overrides = (self.result, {})
        over[1][j] = v
        self._postproc = None  # (post-processing data read later see the new value)
        self.dirty = True

    def reduced_cost(self, name: str, prefix: tuple, label: str, span: Any) -> float:
        self._need_solution("the reduced cost of `%s`" % label, span)
        v = self.result.reduced_costs.get(name)
        if v is None:
            raise host_error("script-no-solution", "the solver reported no reduced cost for `%s` (a MIP has none)" % label,
                             span, help="reduced costs exist for linear programs")
        return float(v if not prefix else v[prefix])

    # ------------------------------------------------------------------ dexprs
    def dexpr_dims(self, name: str) -> list:
        return list(self.inst.symbols[name].value.dims)

    def dexpr_value(self, name: str, key: tuple, span: Any) -> float:
        if span is not None:
            self._need_solution("the dexpr `%s`" % name, span)
        elif not self.has_solution():
            return math.nan
        v = self.result.dexprs.get(name)
        if v is not None:
            try:
                return float(v if not key else v[key])
            except (KeyError, TypeError):
                pass
        from ...lowering.forms.linear import LinExpr, QuadExpr
        from ...lowering.forms.symbols import DexprScalar

        from ...lowering.forms.errors import EvalError

        sym = self.inst.symbols[name].value
        try:
            form = self.inst.dexpr_scalar(sym, span) if isinstance(sym, DexprScalar) else \
                self.inst.dexpr_value(sym, key, sym.decl)
        except EvalError as e:  # a cell the model never used, whose definition cannot be evaluated
            from .solution_values import NONLINEAR_SLUGS, dexpr_at_solution

            if e.slug in NONLINEAR_SLUGS:  # not a linear form (the model never uses it): its value at the solution
                try:
                    return dexpr_at_solution(self, name, key, span)
                except EvalError as e2:
                    e = e2
            cell = name + "".join("[%s]" % display(k, True) for k in key)
            raise host_error(e.slug, "`%s` cannot be computed: %s (its definition, line %d)" % (
                cell, e.message, e.span.line), span, help=e.help) from None
        return self.form_value(form)

    def _dexpr_cells(self, name: str, dims: list) -> dict:
        """``{key: value}`` at the solution for the cells of dexpr array ``name`` that can be computed
        (a cell whose definition cannot be evaluated is left out, as in the reported values). An array of
        more than ``REPORT_CELLS_MAX`` cells gives a mapping that computes each cell when it is read (IBM
        creates a cell where it is used)."""
        from ...lowering.model.build import REPORT_CELLS_MAX
        from .dexpr_cells import LazyCells, product_size

        if product_size(dims) > REPORT_CELLS_MAX:
            return LazyCells(self, name, dims)
        out = {}
        for k in _product(dims):
            try:
                out[k] = self.dexpr_value(name, k, None)
            except HostError:
                continue
        return out

    def form_value(self, form: Any) -> float:
        """The value of a linear (or quadratic) form at the solution."""
        from ...lowering.forms.linear import LinExpr, QuadExpr

        if isinstance(form, QuadExpr):
            return self.form_value(form.lin) + sum(c * self._col(i) * self._col(j) for (i, j), c in form.quad.items())
        if isinstance(form, LinExpr):
            return float(form.const + sum(c * self._col(j) for j, c in form.terms.items()))
        return float(form)

    def _col(self, j: int) -> float:
        return self.solution_value(j, "", None)

    # ------------------------------------------------------------------ constraints
    def _family(self, label: str, text: str, span: Any) -> Any:
        fam = self.ir.families.get(label) if self.ir is not None else None
        if fam is None:
            raise host_error("script-no-solution", "the constraint `%s` was not generated" % text, span,
                             help="label the constraint (`%s: ...`) in a `subject to` block" % label)
        return fam

    def row_of(self, label: str, prefix: tuple, text: str, span: Any) -> int:
        fam = self._family(label, text, span)
        if not prefix and len(fam.rows) == 1:
            return fam.rows[0]
        for key, r in zip(fam.keys, fam.rows):
            if tuple(key) == prefix:
                return r
        raise host_error("script-index-out-of-range", "the constraint `%s` does not exist" % text, span,
                         help="index the constraint with the keys it was generated for")

    def row_value(self, what: str, label: str, prefix: tuple, text: str, span: Any) -> float:
        self._need_solution("the %s of `%s`" % (what, text), span)
        table = self.result.duals if what == "dual" else self.result.slacks
        v = table.get(label)
        if v is None and what == "slack" and self.ir.is_mip and self.result.has_solution and label in self.ir.families:
            v = self._mip_slacks().get(label)  # (a MIP's duals stay an error that names `cplex.solveFixed()`)
        if v is None:
            raise host_error("script-no-solution", "the solver reported no %s for `%s`%s" % (
                what, text, " (a MIP has no duals)" if self.ir.is_mip else ""), span,
                help="duals and slacks exist for linear programs; for a MIP's fixed-LP duals call `cplex.solveFixed()` "
                     "in `main` after the solve, or run `pyopl solve --duals`")
        try:
            return float(v if not isinstance(v, dict) else v[prefix])
        except KeyError:
            raise host_error("script-index-out-of-range", "the constraint `%s` does not exist" % text, span,
                             help="index the constraint with the keys it was generated for") from None

    def _mip_slacks(self) -> dict:
        """Every row's slack at the MIP solution (the solver reports none): the distance from its
        activity to its nearer bound, as for an LP (:func:`pyopl.backends.common.row_slacks`)."""
        import numpy as np

        from ...backends.common import by_family, row_slacks
        from .solve_variants import column_values

        cached = self.__dict__.get("_mip_slack_cache")
        if cached is not None and cached[0] is self.result:
            return cached[1]
        x = column_values(self.ir, self.result)
        slacks = by_family(self.ir, row_slacks(self.ir, np.asarray(self.ir.A @ x, dtype=float)))
        self._mip_slack_cache = (self.result, slacks)
        return slacks

    def row_bound(self, label: str, prefix: tuple, which: str, text: str, span: Any) -> float:
        r = self.row_of(label, prefix, text, span)
        return float(self.ir.row_lower[r] if which == "LB" else self.ir.row_upper[r])

    def set_row_bound(self, label: str, prefix: tuple, which: str, v: float, text: str, span: Any) -> None:
        """``ct.LB = v`` / ``ct.UB = v`` in ``main``: the row's bound for the next solve (±1e20 and
        beyond mean no bound, as CPLEX's infinity)."""
        if math.isnan(v):
            raise host_error("script-value-type", "the bound of `%s` cannot be NaN" % text, span,
                             help="check the computation that gave it")
        r = self.row_of(label, prefix, text, span)
        if which == "UB":
            self.ir.row_upper[r] = math.inf if v >= 1e20 else v
        else:
            self.ir.row_lower[r] = -math.inf if v <= -1e20 else v

    def row_coef(self, label: str, prefix: tuple, j: int, text: str, span: Any) -> float:
        r = self.row_of(label, prefix, text, span)
        return float(self.ir.A[[r], :].toarray()[0][j])

    def set_row_coef(self, label: str, prefix: tuple, j: int, v: float, text: str, span: Any) -> None:
        """``ct.setCoef(x, v)`` in ``main``: the coefficient of column ``j`` in the row, for the next solve."""
        if not math.isfinite(v):
            raise host_error("script-value-type", "the coefficient in `%s` must be a finite number" % text, span,
                             help="check the computation that gave it")
        r = self.row_of(label, prefix, text, span)
        a = self.ir.A.tolil()
        a[r, j] = v
        self.ir.A = type(self.ir.A)(a.tocsr())

    def label_first_keys(self, label: str, prefix: tuple) -> list:
        fam = self.ir.families.get(label) if self.ir is not None else None
        if fam is None:
            return []
        n = len(prefix)
        seen = {}
        for key in fam.keys:
            key = tuple(key)
            if key[:n] == prefix and len(key) > n:
                seen.setdefault(key[n], None)
        return list(seen)

    # ------------------------------------------------------------------ post-processing declarations
    def postproc_value(self, name: str, span: Any) -> Any:
        """A declaration after the model computed from the solution (``float total = sum(i) c[i]*x[i];``,
        ``{int} chosen = {k | k in K: y[k] == 1};``), as IBM computes it after the solve: the
        declaration is evaluated again with each decision variable and dexpr replaced by its value."""
        self._need_solution("`%s`" % name, span)
        cache = getattr(self, "_postproc", None)
        if cache is None or cache[0] is not self.result:
            cache = self._postproc = (self.result, self._compute_postproc())
        v = cache[1].get(name)
        if isinstance(v, _Failed):
            raise host_error("script-unsupported", "`%s` is computed from the solution, and pyopl could not compute it: %s"
                             % (name, v.message), span, help="compute it in the script from the decision values")
        if isinstance(v, OplArray):
            return ArrayHost(self, v, (), "float")
        if isinstance(v, (OplSet, OplRange)):
            return SetHost(self, v, name)
        return to_script(self, v)

    def postsolve_values(self) -> dict:
        """Every post-processing declaration's value computed from the current solution (name ->
        value, or a failure with ``.message``), and each failed post-solve assertion
        (``("#assert", id)`` -> its :class:`EvalError`); cached per result."""
        cache = getattr(self, "_postproc", None)
        if cache is None or cache[0] is not self.result:
            cache = self._postproc = (self.result, self._compute_postproc())
        return cache[1]

    def _compute_postproc(self) -> dict:
        from ...lowering.model.declarations import process_item
        from ...lowering.forms.errors import EvalError
        from ...lowering.model.instance import Symbol
        from ...lowering.forms.symbols import DexprArray, DexprScalar
        from .solution_values import decisions_as_data

        inst = self.inst
        dexprs = {}  # each dexpr's value at the solution, read before any name is replaced
        for name, sym in list(inst.symbols.items()):
            if sym.kind == "dexpr" and isinstance(sym.value, DexprScalar):
                dexprs[name] = Symbol("param", name, self.dexpr_value(name, (), None), sym.decl)
            elif sym.kind == "dexpr" and isinstance(sym.value, DexprArray):
                dims = sym.value.dims
                dexprs[name] = Symbol("param", name, OplArray(name, dims, self._dexpr_cells(name, dims)), sym.decl)
        out: dict = {}
        with decisions_as_data(self) as saved_symbols:
            inst.symbols.update(dexprs)
            post_asserts = {id(a) for a in getattr(inst, "post_asserts", ())}
            for item in inst.model.items:
                name = getattr(item, "name", None)
                if id(item) in post_asserts:  # an assertion after the model, checked on the solution
                    try:
                        process_item(inst, item)
                    except EvalError as e:
                        out[("#assert", id(item))] = e
                    continue
                if not name or saved_symbols.get(name) is None or saved_symbols[name].kind != "postproc":
                    continue
                inst.symbols.pop(name, None)
                try:
                    process_item(inst, item)
                except EvalError as e:
                    out[name] = _Failed(e.message)
                    continue
                new = inst.symbols.get(name)
                out[name] = new.value if new is not None else _Failed("its declaration has errors")
        return out

    def _interval_value(self, iv: Any) -> Any:
        """The solution's :class:`~pyopl.results.intervals.IntervalValue` of the interval variable ``iv``."""
        v = self.result.variables.get(iv.name)
        return v[iv.key] if iv.key else v


class _Failed:
    def __init__(self, message: str):
        self.message = message


def _product(dims: list):
    import itertools

    return itertools.product(*[list(d) for d in dims])


from ...diagnostics.diagnostic import Span as _Span  # noqa: E402

_NOWHERE = _Span("<script>", 1, 1, 1, 2)


class ModelHost(HostObject):
    """The global names of a script: the model's elements (as ``with (thisOplModel)``) and IBM's
    script globals (``cplex``, ``thisOplModel``, ``Opl``, ``writeln``, ``IloOplOutputFile``, ...)."""

    type_name = "IloOplModel"

    def __init__(self, ctx: ScriptContext):
        self.ctx = ctx

    def _runtime(self) -> Any:
        if self.ctx.runtime is None:
            self.ctx.runtime = self.ctx.make_runtime(self.ctx)
        return self.ctx.runtime

    def member_names(self) -> list[str]:
        names = [n for n, s in self.ctx.inst.symbols.items() if s.kind not in ("failed",)]
        if self.ctx.ir is not None:
            names += [n for n in self.ctx.ir.families if n and not n.startswith("#")]
        return sorted(set(names) | set(self._runtime().globals()) | set(self.ctx.script_globals))

    def has_member(self, name: str) -> bool:
        return (name in self.ctx.inst.symbols or name in self._runtime().globals() or name in self.ctx.script_globals
                or (self.ctx.ir is not None and name in self.ctx.ir.families) or name in declared_labels(self.ctx))

    def get_member(self, name: str, span: Any) -> Any:
        g = self._runtime().globals()
        if name in g:
            return g[name]
        if name in self.ctx.script_globals:
            return self.ctx.script_globals[name]
        return element(self.ctx, name, span)

    def name_class(self, name: str) -> str | None:
        """``typeof name`` where the script value is a number but IBM's object is not: a scalar ``dexpr``
        is an ``IloNumExpr`` (IBM's ``typeof.mod`` example)."""
        from ...lowering.forms.symbols import DexprScalar

        sym = self.ctx.inst.symbols.get(name)
        if sym is not None and sym.kind == "dexpr" and isinstance(sym.value, DexprScalar):
            return "IloNumExpr"
        return None

    def set_member(self, name: str, value: Any, span: Any) -> None:
        ctx = self.ctx
        sym = ctx.inst.symbols.get(name)
        if sym is None:
            if name in self._runtime().globals():
                raise host_error("script-forbidden-assignment", "`%s` is a script global of OPL and cannot be replaced" % name,
                                 span, help="choose another name for your variable (`var my%s = ...`)" % name.capitalize())
            ctx.script_globals[name] = value  # an undeclared name: a new global, as ECMAScript does
            return
        lazy = getattr(ctx.inst, "_lazy_data", None)
        if lazy is not None:
            lazy.assigned(name)
        assign_element(ctx, sym, value, span)

    def to_display(self) -> str:
        return "thisOplModel"


def declared_labels(ctx: ScriptContext) -> frozenset:
    """The constraint labels the model's text declares (``ct:``, ``ct[i]:``), found once per context."""
    labels = getattr(ctx, "_declared_labels", None)
    if labels is None:
        import dataclasses

        from ...syntax import ast as MA

        found, stack = set(), list(getattr(getattr(ctx.inst, "model", None), "items", []) or [])
        while stack:
            node = stack.pop()
            if isinstance(node, MA.ConsStmt) and node.label is not None:
                root = node.label
                while isinstance(getattr(root, "base", None), MA.Node) and not isinstance(root, MA.Name):
                    root = root.base
                if isinstance(root, MA.Name):
                    found.add(root.id)
            if isinstance(node, (MA.Stmt, MA.ConstraintsBlock)):
                for f in dataclasses.fields(node):
                    v = getattr(node, f.name)
                    stack.extend(x for x in (v if isinstance(v, list) else [v]) if isinstance(x, MA.Node))
        labels = ctx._declared_labels = frozenset(found)
    return labels


def element_names(ctx: ScriptContext) -> list[str]:
    """What ``for (var e in thisOplModel)`` visits: the names of the model's elements declared so far
    (IBM ILOG Script for OPL, IloOplModel, "Iterating properties: iterates on the OPL elements declared
    before the current execute or main block"), in declaration order: data, decision variables,
    dexprs, then the constraint labels of the generated model.  Tuple types are types, not elements."""
    names = [n for n, s in ctx.inst.symbols.items() if s.kind not in ("tuple", "failed")]
    if ctx.ir is not None:
        seen = set(names)
        names += [n for n in ctx.ir.families if n and not n.startswith("#") and n not in seen]
    return names


def _state_function_host(ctx: Any, v: Any) -> Any:
    from .intervals import StateFunctionHost

    return StateFunctionHost(ctx, v.name, v)


def _cumul_function_host(ctx: Any, v: Any, name: str = "cumulFunction") -> Any:
    from .intervals import CumulFunctionHost

    return CumulFunctionHost(ctx, name, v)


def step_function_host(name: str, f: Any) -> Any:
    """A ``stepFunction`` as a script function of one number (pyopl/lowering/cp/step_functions.py)."""
    from ..language.convert import to_number
    from ..language.values import HostFunction

    def call(interp: Any, this: Any, args: list, span: Any) -> Any:
        v = f(to_number(args[0]) if args else float("nan"))
        return float(v)
    return HostFunction(name, call, length=1)


VALUE_HOSTS["StateFunction"] = _state_function_host  # (pyopl/lowering/cp/state_functions.py)
VALUE_HOSTS["StepFunction"] = lambda ctx, v: step_function_host("stepFunction", v)  # (pyopl/lowering/cp/step_functions.py)
VALUE_HOSTS["CumulExpr"] = _cumul_function_host  # (pyopl/lowering/cp/scheduling.py)


def element(ctx: ScriptContext, name: str, span: Any) -> Any:
    """The model element ``name`` as a script value (numbers and strings plain, the rest host objects)."""
    from ...lowering.forms.symbols import DexprArray, DexprScalar

    lazy = getattr(ctx.inst, "_lazy_data", None)
    if lazy is not None and name in lazy.fresh:  # IBM computes internal data at its first use (lazy_data.py)
        lazy.first_read(name)
    sym = ctx.inst.symbols.get(name)
    if sym is None:
        if ctx.ir is not None and name in ctx.ir.families:
            return ConstraintHost(ctx, name)
        if name in declared_labels(ctx):  # declared, but no row: not "undefined", which the user would not understand
            raise host_error("script-constraint-without-row", "the constraint `%s` generated no row: it always holds "
                             "(a bound of `infinity`) or its `forall` ranges over nothing" % name, span,
                             help="check the data of `%s`, or do not read it from the script" % name)
        from ...diagnostics.reporter import did_you_mean

        hint = did_you_mean(name, ModelHost(ctx).member_names())
        raise host_error("script-unknown-name", "`%s` is not declared in the model or the script" % name, span,
                         help=hint or "declare it with `var %s = ...;` in the script, or in the model" % name)
    k = sym.kind
    if k in ("param",):
        v = sym.value
        if type(v).__name__ == "StateFunction":  # (pyopl/lowering/cp/state_functions.py)
            from .intervals import StateFunctionHost

            return StateFunctionHost(ctx, name, v)
        if type(v).__name__ == "StepFunction":  # `F(t)` in a script (IBM: `writeln(F2(25))`)
            return step_function_host(name, v)
        if isinstance(v, OplArray):
            return ArrayHost(ctx, v, (), _decl_type(sym))
        from ...lowering.cp.state_functions import StateFunction

        if isinstance(v, StateFunction):  # (never its Python form in a script's output)
            raise host_error("script-unknown-name", "`%s` is a `stateFunction`, which scripts cannot read yet" % name,
                             span, help="read the interval variables instead (`a.start`, `a.end`, `a.present`)")
        return to_script(ctx, v, ("scalar", sym) if isinstance(v, OplTuple) else None)
    if k in ("set", "range"):
        return SetHost(ctx, sym.value, name)
    if k == "dvar":
        return DvarHost(ctx, name)
    if k == "dexpr":
        if isinstance(sym.value, DexprScalar):
            return ctx.dexpr_value(name, (), span)
        if isinstance(sym.value, DexprArray):
            return DexprHost(ctx, name)
    if k == "label":
        return ConstraintHost(ctx, name)
    if k == "postproc":
        return ctx.postproc_value(name, span)
    if k == "interval":
        from .intervals import IntervalHost

        return IntervalHost(ctx, name)
    if k == "sequence":
        from .intervals import SequenceHost

        return SequenceHost(ctx, name, sym.value)
    if k == "cumul":
        if isinstance(sym.value, OplArray):
            return ArrayHost(ctx, sym.value, (), None)
        return _cumul_function_host(ctx, sym.value, name)
    if k == "tuple":
        raise host_error("script-unknown-name", "`%s` is a tuple type, not a value" % name, span,
                         help="use a set of `%s` tuples, or one of its elements" % name)
    raise host_error("script-unknown-name", "`%s` has no value (its declaration failed)" % name, span,
                     help="fix the error reported at its declaration first")


def _decl_type(sym: Any) -> Any:
    t = getattr(getattr(sym.decl, "type", None), "name", None)
    if getattr(getattr(sym.decl, "type", None), "is_set", False):
        return "{%s}" % t
    return t


def _num_value(value: Any, label: str, span: Any) -> float:
    from ..language.convert import to_number

    v = value.to_number() if isinstance(value, HostObject) else to_number(value)
    if math.isnan(v):
        raise host_error("script-value-type", "`%s` cannot take %s" % (label, describe(value)), span,
                         help="assign a number")
    return float(v)


def assign_element(ctx: ScriptContext, sym: Any, value: Any, span: Any) -> None:
    """``name = value`` for a model element: scalars of primitive type only (and, after the solve, a
    scalar decision's value as the post-processing reads it: :meth:`ScriptContext.set_solution_value`)."""
    name = sym.name
    if sym.kind == "dvar" and ctx.phase == "post" and not ctx.dvar_dims(name):
        ctx.set_solution_value(ctx.column_of(name, ()), value, name, span)
        return
    if sym.kind == "param" and not isinstance(sym.value, (OplArray, OplSet, OplTuple)):
        ctx.check_writable(name, span)
        sym.value = ctx.convert_for(_decl_type(sym), value, name, span)
        ctx.note_assigned(name)
        return
    what = {"set": "a set", "range": "a range", "dvar": "a decision variable", "dexpr": "a dexpr",
            "label": "a constraint", "tuple": "a tuple type"}.get(sym.kind, "an array" if isinstance(sym.value, OplArray)
                                                                    else "a tuple" if isinstance(sym.value, OplTuple) else "data")
    help = {"dvar": "bound it instead: `%s.UB = ...;` (or `.LB`)" % name,
            "range": "declare the range from data a script sets first: `range R = 1..n;`",
            "set": "change it element by element with `%s.add(...)`" % name}.get(
        sym.kind, "assign its items, e.g. `%s[i] = ...;`" % name if isinstance(sym.value, OplArray) else
        "only scalars, array items and decision bounds can be assigned")
    raise host_error("script-forbidden-assignment", "`%s` is %s and cannot be assigned as a whole" % (name, what), span,
                     help=help)


def show_values(args: list) -> str:
    """The text ``writeln(a, b, ...)`` prints: each argument shown as IBM OPL does, side by side, with
    one space before a set that follows another argument (IBM, "Sorted and ordered sets":
    ``writeln("ordered union = ", s)`` prints ``ordered union =  {3 5 1 4 2}``)."""
    return "".join((" " if k and _is_set(a) else "") + display(a) for k, a in enumerate(args))


def _is_set(v: Any) -> bool:
    """An OPL set (not a range) as a script sees it: the set itself or its ``IloOplSet`` host object."""
    if isinstance(v, SetHost):
        v = v.value
    return isinstance(v, OplSet)


__all__ = ["ScriptContext", "ScriptOptions", "ModelHost", "element", "assign_element", "show_values", "to_key",
           "UNDEFINED"]
