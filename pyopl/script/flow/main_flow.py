"""``main { ... }``: IBM ILOG Script flow control (OPL manual, "Flow control", the ``IloOplModel``,
``IloCplex``, ``IloOplModelSource``/``IloOplModelDefinition``, ``IloOplDataSource`` and
``IloOplDataElements`` classes).

With a ``main`` block, ``Model.solve`` runs the block instead of the plain solve:

- ``thisOplModel.generate()`` makes the model current for ``cplex`` (pyopl compiled it already;
  the pre-processing output is shown at this point, as IBM prints it when generating);
- ``cplex.solve()`` solves the current model with its bounds as they are now (a script may
  change ``thisOplModel.x.UB`` between solves) and returns true when a solution exists;
- ``thisOplModel.postProcess()`` runs the post-processing ``execute`` blocks;
- ``new IloOplModel(def, cplex)`` with ``addDataSource`` (a ``.dat`` file beside the model, or
  ``IloOplDataElements``, e.g. ``thisOplModel.dataElements`` changed by the script) compiles a
  new instance when it is generated, so data changes reach it;
- ``new IloOplModelSource("other.mod")`` reads another model in the same folder (confined as
  ``include`` is).

The result is the last solve's, with the script's output; ``main``'s return value is the exit
status (IBM's ``oplrun`` convention: the number returned, 0 when nothing is returned).
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...semantics.values import OplArray, OplSet
from ..opl.host_errors import host_error
from ..files.input_paths import confined_input as _confined_input
from .main_calls import _MODEL_METHODS, unsupported_calls  # noqa: F401  (run_main's check before it starts)
from ..opl.opl_objects import ArrayHost, _arg, _Host, describe, to_script
from .opl_runtime import print_conflict, resolve_path
from ..files.ops_settings import apply_ops_settings
from ..solver.relaxation import print_relaxation
from ..opl.solve_variants import set_pool_solution
from ..language.values import HostFunction, NULL, UNDEFINED, well_formed


#: warnings of one code from the earlier solves of a `main` block shown in its result (Flow.earlier_warnings)
_EARLIER_WARNINGS_PER_CODE = 10


class Flow:
    """One run of a ``main`` block: the models it made and the last solve."""

    def __init__(self, model: Any, kw: dict, compile_model: Any):
        self.base = model
        self.compile_model = compile_model  # pyopl.api.compile_model, passed in (api imports this module)
        self.ctx = model.script
        self.kw = kw
        self.check_failures: list = []  # OPL0709 of every solve whose solution failed the solution check
        self.solve_warnings: dict = {}  # (code, span, message) -> [the warning, the solves (1-based) that gave it]
        self.current: Any = None  # the ModelObject `cplex` solves (the last generated)
        self.last_result: Any = None
        self.last_model: Any = None
        self.solves = 0
        self.log: list[dict] = []  # one {"model", "status", "objective"} per solve (Result.solves)
        self.pool: list | None = None  # the last solve's pool: [(objective, column values)] (populate)
        self.basis: tuple | None = None  # the last LP solve's basis (HiGHS's column and row statuses)
        self.cp_search: dict | None = None  # cp.startNewSearch(): the solutions cp.next() steps through

    def current_ir(self) -> Any:
        return self.last_model.model.ir if self.last_model is not None and self.last_model.model is not None else None

    def solve(self, span: Any) -> bool:
        m = self.current
        if m is None:
            raise host_error("script-unsupported", "`cplex.solve()` before any model was generated", span,
                             help="call `thisOplModel.generate();` first")
        return bool(self.run(m, span).has_solution)

    def run(self, m: "ModelObject", span: Any, ir: Any = None, **more: Any) -> Any:
        """One solve of ``m`` (its generated problem, or ``ir`` in its place: the fixed LP of
        ``solveFixed``), with the run's solve arguments updated by ``more`` (``pool``, ``solver``);
        the result becomes the model's and ``cplex``'s.  At most 10,000 solves per ``main``."""
        self.solves += 1
        if self.solves > 10_000:
            raise host_error("script-unsupported", "`main` asked for more than 10,000 solves", span,
                             help="check the loop's end condition")
        if ir is None:  # the model's own problem: its MIP start and basis (IloOplCplexVectors, IloOplCplexBasis)
            from ..solver.warm_start import warm_arguments

            more = dict(warm_arguments(self, m, m.model.ir, span, more.get("solver", self.kw.get("solver", "auto"))),
                        **more)
        result = m.model._solve_ir(m.model.ir if ir is None else ir, **dict(self.kw, **more))
        # the solution pool (populate) and an LP's basis: kept here, column vectors being no part of a
        # result's JSON
        self.pool = result.extra.pop("pool", None)
        self.basis = result.extra.pop("basis", None)
        if self.pool is not None:
            result.extra["pool_objectives"] = [None if obj is None else float(obj) for obj, _x in self.pool]
        m.result = result
        m.ctx.result = result
        self.last_result = result
        self.last_model = m
        self.log.append({"model": m.label(), "status": result.status, "objective": result.objective})
        if result.status == "check_failed":  # the run fails at the end, whatever later solves say
            self.check_failures.extend(d for d in result.diagnostics if d.code == "OPL0709")
        for d in result.diagnostics:  # every solve's warnings reach the run's result (earlier_warnings)
            if d.severity == "warning":
                self.solve_warnings.setdefault((d.code, d.span, d.message), [d, []])[1].append(self.solves)
        return result

    def earlier_warnings(self, final: Any) -> list:
        """The warnings of the run's solves that the last solve's result ``final`` does not carry (an
        OPL0712 of the third of ten solves), each once, with a note naming the solves that gave it."""
        have = {(d.code, d.span, d.message) for d in final.diagnostics}
        out: list = []
        per_code: dict = {}  # code -> [its warnings shown, how many more were left out]
        for key, (d, solves) in self.solve_warnings.items():
            if key in have:
                continue
            kept = per_code.setdefault(d.code, [[], 0])
            if len(kept[0]) == _EARLIER_WARNINGS_PER_CODE:  # a loop of 5,000 solves: ten, and a count
                kept[1] += 1
                continue
            shown = ", ".join(str(n) for n in solves[:10]) + (" and %d more" % (len(solves) - 10) if len(solves) > 10
                                                               else "")
            note = "from solve%s %s of the %d the `main` block ran" % ("s" if len(solves) > 1 else "", shown, self.solves)
            kept[0].append(replace(d, notes=tuple(d.notes) + (note,)))
        for code, (kept, more) in per_code.items():
            if more:
                kept[-1] = replace(kept[-1], notes=kept[-1].notes + ("%d more %s warnings of other solves are left out"
                                                                     % (more, code),))
            out.extend(kept)
        return out

    def construct(self, name: str, args: list, span: Any) -> Any:
        """``new <name>(args)`` for the ``main`` classes (:data:`pyopl.script.flow.opl_runtime.MAIN_CLASSES`)."""
        if name == "IloOplModel":
            return self.new_model(args, span)
        if name == "IloOplModelSource":
            return ModelSource(self, args, span)
        if name == "IloOplModelDefinition":
            return ModelDefinition(self, args, span)
        if name == "IloOplDataSource":
            return DataSource(self, args, span)
        if name == "IloOplDataElements":
            return DataElements(self, {}, None)
        if name in ("IloOplCplexVectors", "IloOplCplexBasis"):
            from ..solver.warm_start import BasisHost, VectorsHost

            return VectorsHost(self) if name == "IloOplCplexVectors" else BasisHost(self)
        if name == "IloOplCPSolution":
            from ..solver.cp_search import CPSolution

            return CPSolution(self)
        if name in ("IloOplConflictIterator", "IloOplRelaxationIterator"):
            from ..solver.model_iterators import new_iterator

            return new_iterator(self, name, args, span)
        return self.ctx.runtime.cplex  # IloCplex

    def new_model(self, args: list, span: Any) -> "ModelObject":
        d = _arg(args, 0)
        if not isinstance(d, ModelDefinition):
            raise host_error("script-value-type", "`new IloOplModel(...)` needs a model definition, not %s" % describe(d),
                             span, help="write `new IloOplModel(thisOplModel.modelDefinition, cplex)`")
        return ModelObject(self, d, None)


class ModelSource(_Host):
    """``new IloOplModelSource("other.mod")``: another model file in the model's folder."""

    type_name = "IloOplModelSource"

    def __init__(self, flow: Flow, args: list, span: Any):
        super().__init__(flow.ctx)
        self.path = _confined_input(flow.ctx, _arg(args, 0), span, ".mod")
        self.name = _arg(args, 0)  # as the script gave it (IBM: "the name of this model source")

    def _methods(self) -> dict[str, Any]:
        return {"end": lambda a, s: UNDEFINED}

    def _properties(self) -> list[str]:
        return ["name"]

    def get_member(self, name: str, span: Any) -> Any:
        return self.name if name == "name" else self._method(name, span)


class ModelDefinition(_Host):
    """``new IloOplModelDefinition(source)`` or ``thisOplModel.modelDefinition``."""

    type_name = "IloOplModelDefinition"

    def __init__(self, flow: Flow, args: list, span: Any, path: str | None = None):
        super().__init__(flow.ctx)
        if path is None:
            src = _arg(args, 0)
            if not isinstance(src, ModelSource):
                raise host_error("script-value-type", "`new IloOplModelDefinition(...)` needs an `IloOplModelSource`, not %s"
                                 % describe(src), span, help='write `new IloOplModelDefinition(new IloOplModelSource("m.mod"))`')
            path = src.path
        self.path = path

    def _methods(self) -> dict[str, Any]:
        return {"end": lambda a, s: UNDEFINED}


class DataSource(_Host):
    """``new IloOplDataSource("file.dat")``: a data file in the model's folder."""

    type_name = "IloOplDataSource"

    def __init__(self, flow: Flow, args: list, span: Any):
        super().__init__(flow.ctx)
        self.path = _confined_input(flow.ctx, _arg(args, 0), span, ".dat")
        self.name = _arg(args, 0)  # as the script gave it (IBM: "the path of the file", property `name`)

    def _methods(self) -> dict[str, Any]:
        return {"end": lambda a, s: UNDEFINED}

    def _properties(self) -> list[str]:
        return ["name"]

    def get_member(self, name: str, span: Any) -> Any:
        return self.name if name == "name" else self._method(name, span)


class DataElements(_Host):
    """``IloOplDataElements``: data values by name (``data.n = 5; data.cap[2] = 7;``) given to a new model."""

    type_name = "IloOplDataElements"

    def __init__(self, flow: Flow, values: dict[str, Any], inst: Any):
        super().__init__(flow.ctx)
        self.values = values
        self.inst = inst  # the instance the values came from (for declared types)
        self.spans: dict[str, Any] = {}  # name -> where the script set it (for the diagnostics of the data)

    def _properties(self) -> list[str]:
        return list(self.values)

    def iter_keys(self):
        """``for (var name in data)``: the names of its data elements (IBM: "iterates on the OPL data
        elements available in this data source")."""
        return list(self.values)

    def get_index(self, key: Any, span: Any) -> Any:
        """``data["n"]``: the data element by name, as ``data.n``."""
        return self.get_member(key, span) if isinstance(key, str) else super().get_index(key, span)

    def _methods(self) -> dict[str, Any]:
        return {"end": lambda a, s: UNDEFINED}

    def get_member(self, name: str, span: Any) -> Any:
        if name in self.values:
            v = self.values[name]
            if isinstance(v, OplArray):
                from ..opl.host import _decl_type

                sym = self.inst.symbols.get(name) if self.inst is not None else None
                return ArrayHost(self.ctx, v, (), _decl_type(sym) if sym is not None else "float")
            return to_script(self.ctx, v)
        return self._method(name, span)

    def set_member(self, name: str, value: Any, span: Any) -> None:
        from ..opl.opl_objects import SetHost, TupleHost

        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, (SetHost, TupleHost)):
            value = value.value
        elif isinstance(value, ArrayHost):
            value = value.array
        elif not isinstance(value, (int, float, str)):
            raise host_error("script-value-type", "data element `%s` cannot take %s" % (name, describe(value)), span,
                             help="assign a number, a string, or an OPL set or array")
        self.values[name] = well_formed(value) if isinstance(value, str) else value
        self.spans.setdefault(name, span)


class ModelObject(_Host):
    """An ``IloOplModel``: ``thisOplModel`` in ``main``, or one made with ``new IloOplModel(def, cplex)``."""

    type_name = "IloOplModel"

    def __init__(self, flow: Flow, definition: ModelDefinition | None, model: Any):
        super().__init__(flow.ctx)
        self.flow = flow
        self.definition = definition
        self.model = model  # pyopl Model once generated
        self.ctx = model.script if model is not None else None
        self.sources: list[Any] = []
        self.result: Any = None
        self.generated = False
        self.start: Any = None  # a MIP start for its solves (IloOplCplexVectors.setStart)
        self.basis: Any = None  # an LP basis for its solves (IloOplCplexBasis.setBasis)
        self.iterators: dict[str, Any] = {}  # its conflictIterator and relaxationIterator, made on first use

    def label(self) -> str:
        """The model's name in a run report: ``thisOplModel``, or the file of its definition."""
        if self.definition is None:
            return "thisOplModel"
        return os.path.basename(self.definition.path)

    def _print_conflict(self, args: list, span: Any) -> Any:
        """``m.printConflict()``: the conflict of this model's infeasible solve, as a string (returned, not
        printed: :func:`.opl_runtime.print_conflict`); for a model generated but not solved, the conflict
        its ``conflictIterator`` computes (IBM computes it lazily, and IBM's conflictIterator example
        prints it with ``writeln(opl1.printConflict())`` for a model never solved)."""
        if self.result is None and self.generated and self.model is not None and self.definition is not None:
            return self.get_member("conflictIterator", span)._text(span)
        return print_conflict(self.flow.ctx, self.result or self.flow.last_result)

    def _methods(self) -> dict[str, Any]:
        return {"generate": self._generate, "postProcess": self._post, "printSolution": self._print,
                "addDataSource": self._add_data, "end": lambda a, s: UNDEFINED, "getObjValue": self._obj,
                "hasObjective": lambda a, s: bool(self.model is not None and self.model.ir.sense != "feasibility"),
                "resolvePath": lambda a, s: resolve_path(self.flow.ctx, a, s),
                "convertAllIntVars": lambda a, s: self._convert(s, True),
                "unconvertAllIntVars": lambda a, s: self._convert(s, False),
                "printConflict": self._print_conflict,
                "setPoolSolution": lambda a, s: set_pool_solution(self, a, s),
                "printRelaxation": lambda a, s: print_relaxation(self, s),
                "printExternalData": lambda a, s: self._data_text(True, s),
                "printInternalData": lambda a, s: self._data_text(False, s),
                "applyOpsSettings": lambda a, s: apply_ops_settings(self.flow, a, s),
                "getObjective": self._objective}

    def _objective(self, args: list, span: Any) -> Any:
        """``getObjective()``: the model's objective (:class:`~pyopl.script.opl.solve_variants.ObjectiveHost`)."""
        from ..opl.solve_variants import ObjectiveHost

        if self.model is None or self.model.ir.sense == "feasibility":
            raise host_error("script-no-solution", "`getObjective()` needs a generated model with an objective", span,
                             help="call `generate()` first; a model without `minimize`/`maximize` has no objective")
        return ObjectiveHost(self)

    def _data_text(self, external: bool, span: Any) -> str:
        """``printExternalData()`` / ``printInternalData()``: the data as ``.dat`` text (:mod:`pyopl.script.opl.data_print`)."""
        from ..opl.data_print import data_text

        if self.ctx is None:
            raise host_error("script-no-solution", "`print%sData()` before `generate()`" % (
                "External" if external else "Internal"), span, help="call `generate()` on the model first")
        from .opl_runtime import MAX_OUTPUT

        return data_text(self.ctx, external, span, MAX_OUTPUT)

    def _properties(self) -> list[str]:
        names = ["modelDefinition", "dataElements", "settings", "conflictIterator", "relaxationIterator"]
        if self.ctx is not None:
            from ..opl.host import ModelHost

            names += ModelHost(self.ctx).member_names()
        return names

    def get_member(self, name: str, span: Any) -> Any:
        if name in self._methods():
            return self._method(name, span)
        self._not_a_misspelt_member(name, span)
        if name == "modelDefinition":
            path = self.definition.path if self.definition is not None else next(iter(self.model.sources))
            return ModelDefinition(self.flow, [], span, path=path)
        if name == "dataElements":
            return self._data_elements(span)
        if name == "settings":
            return self.flow.ctx.runtime.settings
        if name in ("conflictIterator", "relaxationIterator"):
            if name not in self.iterators:
                from ..solver.model_iterators import ConflictIteratorHost, RelaxationIteratorHost

                self.iterators[name] = (ConflictIteratorHost if name == "conflictIterator" else RelaxationIteratorHost)(self)
            return self.iterators[name]
        if self.ctx is None:
            raise host_error("script-no-solution", "`%s` is not available before `generate()`" % name, span,
                             help="call `generate()` on the model first")
        from ..opl.host import element

        return element(self.ctx, name, span)

    def _not_a_misspelt_member(self, name: str, span: Any) -> None:
        """Raises OPL1050 for a name that is no element of the model but one or two letters off a method or
        property of ``IloOplModel`` (`m.generat()`: the cause is the method's name, not a missing element)."""
        from ...diagnostics.reporter import edit_distance, near_miss

        props = ["modelDefinition", "dataElements", "settings", "conflictIterator", "relaxationIterator"]
        if name in props or (self.ctx is not None and name in self.ctx.inst.symbols):
            return
        if self.ctx is not None:  # a constraint label is an element too (`m.demand[c].dual`)
            from ..opl.host import declared_labels

            if (self.ctx.ir is not None and name in self.ctx.ir.families) or name in declared_labels(self.ctx):
                return
        methods = list(self._methods())
        best = near_miss(name, methods + props)
        # one or two letters off (docs/scripting.md): `demand` is no misspelling of `end`
        if best is not None and edit_distance(name.lower(), best.lower()) <= 2:
            raise host_error("script-unknown-name", "IloOplModel has no %s `%s`; did you mean `%s`?"
                             % ("method" if best in methods else "property", name, best), span,
                             help="write `%s`" % best)

    def set_member(self, name: str, value: Any, span: Any) -> None:
        if self.ctx is None:
            raise host_error("script-no-solution", "`%s` cannot be set before `generate()`" % name, span,
                             help="give data through `addDataSource(...)` before `generate()`")
        from ..opl.host import ModelHost

        ModelHost(self.ctx).set_member(name, value, span)

    def iter_keys(self):
        """``for (var e in m)``: the names of the model's elements (none before ``generate()``)."""
        from ..opl.host import element_names

        return element_names(self.ctx) if self.ctx is not None else []

    def get_index(self, key: Any, span: Any) -> Any:
        """``m["n"]``: the element by name, as ``m.n``."""
        return self.get_member(key, span) if isinstance(key, str) else super().get_index(key, span)

    def _data_elements(self, span: Any) -> DataElements:
        if self.ctx is None and self.sources:  # the data of its sources, read now (IBM reads them when asked)
            self.model = _compile_sub(self.flow, self, span)
            self.ctx = self.model.script
        if self.ctx is None:
            raise host_error("script-no-solution", "`dataElements` is not available before `generate()`", span,
                             help="call `generate()` first, or use `new IloOplDataElements()`")
        import copy

        inst = self.ctx.inst
        values = {}
        for name in inst.data:
            sym = inst.symbols.get(name)
            if sym is not None and sym.kind in ("param", "set", "range"):
                values[name] = copy.deepcopy(sym.value) if isinstance(sym.value, (OplArray, OplSet)) else sym.value
        return DataElements(self.flow, values, inst)

    def _add_data(self, args: list, span: Any) -> Any:
        src = _arg(args, 0)
        if not isinstance(src, (DataSource, DataElements)):
            raise host_error("script-value-type", "`addDataSource(...)` needs an `IloOplDataSource` or `IloOplDataElements`, "
                             "not %s" % describe(src), span, help='write `new IloOplDataSource("file.dat")`')
        if self.generated:
            raise host_error("script-unsupported", "`addDataSource(...)` after `generate()` has no effect", span,
                             help="add data sources before `generate()`")
        self.sources.append(src)
        return UNDEFINED

    def _generate(self, args: list, span: Any) -> Any:
        flow = self.flow
        if self.model is None:
            self.model = _compile_sub(flow, self, span)
            self.ctx = self.model.script
        elif not self.generated and self.ctx is not None:
            flow.ctx.write(self.ctx.pre_output)
        if self.ctx is not None:
            self.ctx.phase = "main"
            self.ctx.flow = flow
        self.generated = True
        flow.current = self
        return True

    def _convert(self, span: Any, relax: bool) -> Any:
        """``convertAllIntVars()``: the next solves treat every integer decision as continuous (the
        LP relaxation); ``unconvertAllIntVars()`` gives them their integrality back (IBM ILOG Script
        for OPL, IloOplModel)."""
        if self.model is None or not self.generated:
            raise host_error("script-unsupported", "`%s()` before `generate()`" % (
                "convertAllIntVars" if relax else "unconvertAllIntVars"), span, help="call `generate()` first")
        ir = self.model.ir
        if relax:
            if getattr(self, "_integer", None) is None:
                self._integer = ir.col_integer.copy()
            ir.col_integer[:] = False
        elif getattr(self, "_integer", None) is not None:
            ir.col_integer[:] = self._integer
            self._integer = None
        return UNDEFINED

    def _post(self, args: list, span: Any) -> Any:
        if self.ctx is None or self.result is None:
            raise host_error("script-no-solution", "`postProcess()` before the model was solved", span,
                             help="call `cplex.solve()` first")
        from .processing import run_block

        self.ctx.result = self.result
        from .processing import stops_processing

        saved = self.ctx.phase
        self.ctx.fail_only = True
        for block in self.ctx.post_blocks:
            run_block(self.ctx, block, "post")
            if stops_processing(self.ctx):
                break
        self.ctx.phase = saved
        if getattr(self.ctx, "failed", False):
            from ..language.values import ScriptError

            raise ScriptError("script-uncaught-exception", "a post-processing block failed (see the error above)", span,
                              catchable=False)
        return True

    def _print(self, args: list, span: Any) -> Any:
        from .opl_runtime import solution_text

        if self.ctx is None or self.result is None:
            raise host_error("script-no-solution", "`printSolution()` before the model was solved", span,
                             help="call `cplex.solve()` first")
        self.ctx.result = self.result
        self.flow.ctx.write(solution_text(self.ctx))
        return UNDEFINED

    def _obj(self, args: list, span: Any) -> Any:
        if self.result is None or self.result.objective is None:
            raise host_error("script-no-solution", "`getObjValue()` before a solution exists", span,
                             help="call `cplex.solve()` and test its result first")
        return float(self.result.objective)

    def to_display(self) -> str:
        return "[object IloOplModel]"


def _compile_sub(flow: Flow, m: ModelObject, span: Any) -> Any:
    """Compile the model of ``m`` (its definition's file) with its data sources; its scripts share
    ``main``'s output."""
    from ...diagnostics.diagnostic import CompileError

    path = m.definition.path
    data: list[Any] = []
    for src in m.sources:
        if isinstance(src, DataSource):
            data.append(Path(src.path))
        else:
            data.append(dict(src.values))
    opts = flow.ctx.options
    if not data and os.path.realpath(path) == os.path.realpath(next(iter(flow.base.sources))) and flow.base.data is not None:
        data = flow.base.data  # (IBM needs the data again; the model's own data is the natural default)
    from ..opl.host import ScriptOptions

    from ..files.output_files import output_root

    # the models of `main` write where `main` writes: its output folder, not one beside their own file
    root = output_root(flow.ctx)
    sub_opts = ScriptOptions(opts.max_steps, opts.max_memory, root, opts.enabled, keep_instance=True,
                             analysis=opts.analysis)
    sub_opts.default_output = root is not None and (not opts.output_dir or opts.default_output)
    sub_opts.meter = flow.ctx.meter  # its scripts spend the run's budgets
    sub_opts.max_written = opts.max_written
    sub_opts.input_dir = opts.input_dir
    try:
        base_name = next(iter(flow.base.sources))
        # a model given as text (`<model>`) has no file: its own text is compiled again
        own_text = path == base_name and not os.path.isfile(path) and isinstance(flow.base.sources[base_name], str)
        model = flow.compile_model(flow.base.sources[base_name] if own_text else Path(path), data or None,
                                    scripts=sub_opts)
    except CompileError as e:
        _report(flow, e.diagnostics, m.sources)
        first = next((d for d in e.diagnostics if d.is_error), None)
        raise host_error("script-model-failed", "the model `%s` did not compile%s" % (
            os.path.basename(path), ": %s" % first.message if first else ""), span,
            help="fix the errors reported for `%s`" % os.path.basename(path)) from None
    _report(flow, model.warnings, m.sources)
    model.script.reporter = flow.ctx.reporter
    model.script.out = flow.ctx.out  # one output stream for the whole `main`
    flow.ctx.write(model.script.pre_output)
    model.script.runtime = None
    return model


def _report(flow: Flow, diags: Any, sources: list) -> None:
    """The diagnostics of a model made by ``main``, into ``main``'s reporter: one about a data element an
    ``IloOplDataElements`` gave (a dict to the compiler, `<data dict>:1:1`) is placed where the script set
    it; each diagnostic is reported once, however many models ``main`` makes with the same data."""
    import dataclasses
    import re

    spans: dict[str, Any] = {}
    for src in sources:
        if isinstance(src, DataElements):
            spans.update(src.spans)
    have = {(d.code, d.span, d.message) for d in flow.ctx.reporter.diagnostics}
    for d in diags:
        if d.file == "<data dict>":
            name = next((n for n in re.findall(r"`([^`]+)`", d.message) if n in spans), None)
            if name is not None:
                d = dataclasses.replace(d, span=spans[name])
        if (d.code, d.span, d.message) not in have:
            have.add((d.code, d.span, d.message))
            flow.ctx.reporter.diagnostics.append(d)


def run_main(model: Any, kw: dict, compile_model: Any) -> Any:
    """Run the model's ``main`` block; returns the last solve's Result with the script output,
    the block's exit status (``script_exit``) and its diagnostics.  ``compile_model`` is
    :func:`pyopl.api.compile_model` (passed in: the api imports this module), used for the models
    the block makes from files."""
    from ...diagnostics.reporter import Reporter
    from ...results.result import Result
    from .processing import run_block

    ctx = model.script
    flow = Flow(model, kw, compile_model)
    ctx.flow = flow
    ctx.reporter = Reporter(100)
    ctx.out = []
    ctx.failed = False
    rt = ctx.runtime
    if rt is None:
        from .opl_runtime import Runtime

        rt = ctx.runtime = Runtime(ctx)
    rt.cplex.flow = flow
    rt.this_model = ModelObject(flow, None, model)
    rt._globals = None
    from ..engine.parser import parse_script

    program = parse_script(ctx.main_block.body, ctx.main_block.span.file, ctx.main_block.body_line,
                           ctx.main_block.body_column)
    problems = unsupported_calls(program) if not isinstance(program, list) else []
    if problems:  # refuse before anything is solved
        ctx.reporter.diagnostics.extend(e.to_diagnostic() for e in problems)
        ctx.failed = True
        value = None
    else:
        value = run_block(ctx, ctx.main_block, "main")
    result = flow.last_result
    if result is None:
        why = ("the `main` block stopped at a script error before any solve" if getattr(ctx, "failed", False)
               else "the `main` block solved nothing")
        result = Result("not_solved", solver=kw.get("solver", "highs"), message=why)
    result.script_output = ctx.output()
    diags = ctx.reporter.sorted()
    result.diagnostics = list(result.diagnostics) + flow.earlier_warnings(result) + diags
    result.solves = list(flow.log)
    if flow.check_failures and result.status not in ("check_failed", "script_error"):
        result.last_solve_status = result.status  # an earlier solve's solution failed the model's check
        result.status = "check_failed"
        result.diagnostics = list(result.diagnostics) + flow.check_failures
    if isinstance(value, (bool, int, float, str)) and not getattr(ctx, "failed", False):
        result.main_return = value
    result.solved_model = flow.log[-1]["model"] if flow.log else None
    if flow.last_model is not None and flow.last_model.model is not None:
        result.solved_ir = flow.last_model.model.ir  # (a sub-model's size for the report's `model:` line)
    if getattr(ctx, "failed", False):
        from ...results.result import mark_script_failed

        mark_script_failed(result)  # the run failed, whatever the last solve said (docs/cli.md, "Run status")
        result.script_exit = 1
    elif isinstance(value, bool):
        result.script_exit = int(value)
    elif isinstance(value, (int, float)):
        # the script engine's number-to-int conversion (ECMAScript ToInt32): 2.9 -> 2; NaN and
        # Infinity -> 0 (an `int(Infinity)` here was an internal error, exit 3)
        from ..language.convert import to_int32

        result.script_exit = to_int32(value)
    else:
        result.script_exit = 0
    return result
