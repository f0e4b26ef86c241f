"""Solver results in the user's terms: values keyed by OPL names and index keys."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from .ir import Key, format_key_part

#: The shared status vocabulary of every backend.
STATUSES = (
    "optimal",  # proven optimal (within the MIP gap)
    "feasible",  # a solution exists but optimality was not proven (e.g. a node limit)
    "infeasible",
    "unbounded",
    "infeasible_or_unbounded",  # only when the solver could not tell which
    "time_limit",  # time limit reached; an incumbent may be present
    "error",
)


class Values(dict):
    """Values of one indexed OPL name: ``values["Seattle", "Chicago"]`` or ``values["Seattle"]["Chicago"]``.

    Keys are tuples of index values; a one-dimensional array can also be read
    with a plain value (``values[3]``), and a prefix returns a nested view.
    """

    def __init__(self, data: dict[Key, float], dims: int):
        super().__init__(data)
        self.dims = dims

    def __getitem__(self, key: Any) -> Any:
        if not isinstance(key, tuple):
            key = (key,)
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        if 0 < len(key) < self.dims:  # partial key: a view one level down
            n = len(key)
            sub = {k[n:]: v for k, v in self.items() if k[:n] == key}
            if sub:
                return Values(sub, self.dims - n)
        raise KeyError(key)

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


def _json_key(v: Any) -> str:
    if isinstance(v, str):
        return v
    return format_key_part(v)


def _json_num(v: float | None) -> float | None:
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

    def __getitem__(self, name: str) -> Any:
        if name in self.variables:
            return self.variables[name]
        return self.dexprs[name]

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
        for name in ("duals", "slacks", "reduced_costs"):
            if getattr(self, name):
                out[name] = conv(getattr(self, name))
        if self.message:
            out["message"] = self.message
        if self.diagnostics:
            out["diagnostics"] = [d.to_dict() for d in self.diagnostics]
        out.update(self.extra)
        return out

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(), **kw)
