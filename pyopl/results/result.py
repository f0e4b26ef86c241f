"""Solver results in the user's terms: values keyed by OPL names and index keys."""
from __future__ import annotations

import os

import math
from dataclasses import dataclass, field
from typing import Any

from ..ir import Key, format_key_part

#: The shared status vocabulary of every backend.
STATUSES = (
    "optimal",  # proven optimal (within the MIP gap)
    "feasible",  # a solution exists but optimality was not proven (e.g. a node limit)
    "infeasible",
    "unbounded",
    "infeasible_or_unbounded",  # only when the solver could not tell which
    "time_limit",  # time limit reached; an incumbent may be present
    "interrupted",  # stopped by Ctrl-C (SIGINT); the best solution found so far may be present
    "error",
    "script_error",  # a script (post-processing or `main`) failed: the run failed, whatever a solve said
    "not_solved",  # a `main` block ended without solving anything
    "check_failed",  # the solver returned a point the model's own evaluation rejects (OPL0709)
)

_NO_DUALS = ("the result has no %s (a MIP has them only when solved with `duals=True`, `--duals`; "
             "a solve without a solution has none)")
#: The result's tables by name, as (kind of name, why a table is empty) for their look-up errors.
_BY_NAME = {"duals": ("constraint label", _NO_DUALS % "duals"), "slacks": ("constraint label", _NO_DUALS % "slacks"),
            "reduced_costs": ("decision", _NO_DUALS % "reduced costs")}

#: Statuses of a run that failed as a whole (exit status 1): see :func:`mark_script_failed`.
FAILED_RUN_STATUSES = ("script_error",)


class Values(dict):
    """Values of one indexed OPL name: ``values["Seattle", "Chicago"]`` or ``values["Seattle"]["Chicago"]``.

    Keys are tuples of index values; a one-dimensional array can also be read
    with a plain value (``values[3]``), and a prefix returns a nested view.
    """

    def __init__(self, data: dict[Key, float], dims: int, name: str | None = None, levels: list | None = None):
        super().__init__(data)
        self.dims = dims
        self.name = name  # the OPL name, for error messages
        self.levels = levels  # the index sets' names, for error messages

    def __getitem__(self, key: Any) -> Any:
        if not isinstance(key, tuple):
            key = (key,)
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        if self.dims == 1 and dict.__contains__(self, (key,)):  # one tuple-valued index: use[<"a","b">]
            return dict.__getitem__(self, (key,))
        if 0 < len(key) < self.dims:  # partial key: a view one level down
            n = len(key)
            sub = {k[n:]: v for k, v in self.items() if k[:n] == key}
            if sub:
                return Values(sub, self.dims - n, self.name and self.name + "".join(
                    "[%s]" % format_key_part(k) for k in key),
                    (self.levels or [])[n:] or None)
        full = self._by_key_fields(key)
        if full is not None:
            return dict.__getitem__(self, full)
        from .lookup_errors import unknown_key

        raise unknown_key(self.name, key, dict.keys(self), self.levels)

    def _by_key_fields(self, key: tuple) -> Any:
        """The stored key whose tuple indices match ``key`` on their ``key`` fields, as OPL's
        ``x[<"s","a">]`` finds the element of a keyed tuple set; None when there is none."""
        index = self.__dict__.get("_key_index")
        if index is None:
            index = {}
            for k in dict.keys(self):
                proj = tuple(c.key() if isinstance(c, tuple) and callable(getattr(c, "key", None)) else c for c in k)
                if proj != k:
                    index.setdefault(proj, k)
            self._key_index = index
        for cand in (key, (key,)):
            try:
                if cand in index:
                    return index[cand]
            except TypeError:  # an unhashable key: no match
                return None
        return None

    def to_json(self) -> Any:
        """Nested JSON: {"Seattle": {"Chicago": 1.0}}; tuple elements are written ``<a,b>``."""
        out: dict[str, Any] = {}
        for key, v in self.items():
            if not key:
                return _json_num(v)
            node = out
            for part in key[:-1]:
                node = node.setdefault(_json_key(part), {})
            node[_json_key(key[-1])] = _json_num(v)
        return out


def mark_script_failed(result: "Result") -> "Result":
    """Make ``result`` say the run failed: ``status`` becomes ``script_error`` and the last solve's
    own status moves to ``last_solve_status`` (None when nothing was solved). The one place that
    decides a run's status after scripts; the CLI, MCP and LSP read ``status`` (and
    :attr:`Result.run_failed`). Returns ``result``. Contract: docs/cli.md, "Run status"."""
    if result.status != "script_error":
        result.last_solve_status = None if result.status == "not_solved" else result.status
        result.status = "script_error"
    return result


def _json_key(v: Any) -> str:
    if isinstance(v, str):
        return v
    return format_key_part(v)


def _json_num(v: float | None) -> float | None:
    if hasattr(v, "to_json"):  # an interval's value (pyopl.results.intervals.IntervalValue)
        return v.to_json()
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return None
    return v


@dataclass
class Result:
    """The outcome of a solve.

    ``status`` is one of :data:`STATUSES`; ``objective`` is the objective value
    in the model's sense (``None`` without a solution); ``variables`` maps each
    ``dvar`` name to a float (scalar) or a :class:`Values` (indexed);
    ``dexprs`` the same for ``dexpr`` declarations. ``solve_time_s`` is the
    solver's wall-clock time in seconds. ``duals``, ``slacks`` (by constraint
    label) and ``reduced_costs`` (by dvar name) are filled for continuous
    models where the solver provides them.
    """

    status: str
    objective: float | None = None
    variables: dict[str, Any] = field(default_factory=dict)
    dexprs: dict[str, Any] = field(default_factory=dict)
    solve_time_s: float = 0.0
    solver: str = "highs"
    best_bound: float | None = None
    mip_gap: float | None = None
    duals: dict[str, Any] = field(default_factory=dict)
    slacks: dict[str, Any] = field(default_factory=dict)
    reduced_costs: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    diagnostics: list = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    nodes: int | None = None  # branch-and-bound nodes (MIP)
    iterations: int | None = None  # simplex (+ barrier) iterations
    ray: dict[str, float] = field(default_factory=dict)  # unbounded: OPL column label -> direction
    conflict: Any = None  # infeasible: a pyopl.backends.explain.iis.Conflict, when computed
    #: name -> the name of each index after its OPL index set (DataFrame index levels)
    index_names: dict[str, list] = field(default_factory=dict, repr=False)
    script_output: str | None = None  # what the model's scripts printed (None: the model has no scripts)
    script_exit: int | None = None  # a `main` block's exit status (its return value), when it ran
    #: the status of the last solve when ``status`` describes the run instead (``script_error``); else None
    last_solve_status: str | None = None
    #: a `main` run: one ``{"model", "status", "objective"}`` per solve, in order (``[]`` otherwise)
    solves: list = field(default_factory=list)
    #: a `main` run: the model the values and objective come from (the last solve's), else None
    solved_model: str | None = None
    #: a `main` run: the value of its `return` (a number, boolean or string; None without one)
    main_return: Any = None
    #: a `main` run: the IR of the model the last solve solved (a sub-model's, not the main model's);
    #: read by the text report's `model:` line, not part of the JSON
    solved_ir: Any = field(default=None, repr=False, compare=False)
    #: a CP model with interval variables: what its Gantt chart shows (pyopl.results.gantt.Schedule)
    schedule: Any = field(default=None, repr=False, compare=False)
    #: the solver's values of every column (NumPy), for the solution check; not part of the JSON
    column_values: Any = field(default=None, repr=False, compare=False)
    #: the solver's integrality tolerance, with which integer values were rounded for the report
    int_tol: float | None = field(default=None, repr=False, compare=False)

    def __setattr__(self, name: str, value: Any) -> None:
        """``duals``, ``slacks`` and ``reduced_costs`` given as a plain dict are kept as
        :class:`~pyopl.results.lookup_errors.NamedValues`, so ``result.duals["ctSuply"]`` says which
        labels exist (a bare ``KeyError`` did)."""
        what = _BY_NAME.get(name)
        if what is not None and type(value) is dict:
            from .lookup_errors import NamedValues

            value = NamedValues(value, what[0], what[1])
        object.__setattr__(self, name, value)

    def __getitem__(self, name: str) -> Any:
        """The value of decision or dexpr ``name``: a number, or :class:`Values` by index key.
        Raises :class:`pyopl.results.lookup_errors.UnknownName` (a KeyError) naming the closest name."""
        if name in self.variables:
            v = self.variables[name]
        elif name in self.dexprs:
            v = self.dexprs[name]
        else:
            from .lookup_errors import unknown_name

            raise unknown_name(name, list(self.variables) + list(self.dexprs))
        if isinstance(v, Values):
            v.name = name
            v.levels = self.index_names.get(name) or v.levels
        return v

    def __contains__(self, name: object) -> bool:
        """``"ship" in result``: whether ``name`` is a decision or dexpr with a value. Without it Python
        tried ``result[0]``, ``result[1]``... and raised "no decision or dexpr `0`"."""
        return name in self.variables or name in self.dexprs

    @property
    def run_failed(self) -> bool:
        """True when the run as a whole failed (a script error after or between solves)."""
        return self.status in FAILED_RUN_STATUSES

    @property
    def has_solution(self) -> bool:
        return self.objective is not None or bool(self.variables)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: status, objective, variables (name -> nested values), solve_time_s, ..."""

        def conv(d: dict[str, Any]) -> dict[str, Any]:
            return {k: (v.to_json() if isinstance(v, Values) else _json_num(v)) for k, v in d.items()}

        out = {
            "status": self.status,
            "objective": _json_num(self.objective),
            "solver": self.solver,
            "solve_time_s": self.solve_time_s,
            "variables": conv(self.variables),
            "dexprs": conv(self.dexprs),
        }
        if self.best_bound is not None:
            out["best_bound"] = _json_num(self.best_bound)
        if self.mip_gap is not None:
            out["mip_gap"] = _json_num(self.mip_gap)
        for name in ("nodes", "iterations"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        for name in ("duals", "slacks", "reduced_costs"):
            if getattr(self, name):
                out[name] = conv(getattr(self, name))
        if self.ray:
            out["ray"] = dict(self.ray)
        if self.conflict is not None:
            out["conflict"] = self.conflict.to_dict()
        if self.message:
            out["message"] = self.message
        if self.script_output is not None:
            out["script_output"] = self.script_output
        if self.script_exit is not None:
            out["script_exit"] = self.script_exit
        if self.last_solve_status is not None:
            out["last_solve_status"] = self.last_solve_status
        if self.solves:
            out["solves"] = [dict(s, objective=_json_num(s.get("objective"))) for s in self.solves]
        if self.solved_model is not None:
            out["solved_model"] = self.solved_model
        if self.main_return is not None:
            out["main_return"] = _json_num(self.main_return) if isinstance(self.main_return, float) else self.main_return
        if self.diagnostics:
            out["diagnostics"] = [d.to_dict() for d in self.diagnostics]
        out.update(self.extra)
        return out

    def to_json(self, **kw: Any) -> str:
        """:meth:`to_dict` as JSON text (keyword arguments go to :func:`json.dumps`)."""
        import json  # (here: a solve that prints text never loads it)

        return json.dumps(self.to_dict(), **kw)

    def rows(self) -> list[tuple[str, str, Key, float | None]]:
        """One ``(kind, name, index key, value)`` per value: kinds ``variable``, ``dexpr``,
        ``dual``, ``slack``, ``reduced_cost``; the key is ``()`` for a scalar."""
        out = []
        for kind, table in (("variable", self.variables), ("dexpr", self.dexprs), ("dual", self.duals),
                            ("slack", self.slacks), ("reduced_cost", self.reduced_costs)):
            for name, v in table.items():
                if isinstance(v, Values):
                    out += [(kind, name, k, x) for k, x in v.items()]
                else:
                    out.append((kind, name, (), v))
        return out

    def to_csv(self, path: Any = None) -> str:
        """A long CSV table ``kind,name,index,index_1..index_K,value``: ``index`` in OPL notation
        (``["Seattle"]["Chicago"]``), then one column per index component (``Seattle``, ``Chicago``;
        a tuple index takes one column per field, ``a``, ``b``; empty past a name's own indices).

        Returns the text; also writes it to ``path`` when given."""
        from .dataframes import csv_rows, csv_text

        header, rows = csv_rows(self)
        text = csv_text([header] + rows)
        if path is not None:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        return text

    def to_dataframe(self, name: str | None = None, kind: str | None = None) -> Any:
        """A pandas DataFrame (pandas is optional: ImportError with a clear message without it).

        Without ``name``: the long table of :meth:`rows` with columns ``kind``, ``name``,
        ``index`` (the key tuple), ``value``, filtered by ``kind`` when given. With ``name``:
        one row per index key, indexed by the name's index sets (a MultiIndex for several;
        levels named after the OPL index sets, ``ship`` -> ``Plants``, ``Markets``; a tuple index
        gives one level per field, named after the fields, ``x[Arcs]`` -> ``o``, ``d``), with the
        columns that exist for it: ``value`` (a dvar or dexpr), ``reduced_cost`` (a dvar of an
        LP), ``dual`` and ``slack`` (a constraint label). With ``kind`` too: that kind only,
        in a column ``value``."""
        from .dataframes import result_frame

        return result_frame(self, name, kind)

    def gantt(self, path: Any = None, title: str | None = None) -> Any:
        """The schedule of a ``using CP;`` solve as a matplotlib ``Figure`` (IBM Studio's Gantt chart):
        one row per resource (``noOverlap`` group or sequence, else per interval), a bar per present
        interval, each bounded cumulative function as a step profile below; written to ``path``
        (``.png``, ``.svg`` or ``.html``) when given. Raises
        :class:`pyopl.results.gantt.GanttUnavailable` (with what to do) without matplotlib (the
        ``plot`` extra), interval variables or a solution. See docs/cp.md, "Gantt charts"."""
        from .gantt import figure, save

        fig = figure(self, self.schedule, title)
        if path is not None:
            save(fig, os.fspath(path))
        return fig

    def _repr_html_(self) -> str:
        """A readable table for notebooks: status, objective, then the values of each name."""
        from .notebook import result_html

        return result_html(self)
