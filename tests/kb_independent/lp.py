"""A tiny linear-model builder for the independent checks.

It is intentionally unrelated to pyopl: expressions are dictionaries of
column index -> coefficient, and the model is handed to
``scipy.optimize.milp`` (LP and MILP) or to ``highspy`` (convex QP).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

INF = math.inf


class Expr:
    __slots__ = ("terms", "const")

    def __init__(self, terms=None, const=0.0):
        self.terms = dict(terms or {})
        self.const = float(const)

    @staticmethod
    def of(x):
        if isinstance(x, Expr):
            return x
        return Expr(const=x)

    def copy(self):
        return Expr(self.terms, self.const)

    def __add__(self, other):
        other = Expr.of(other)
        r = self.copy()
        for k, v in other.terms.items():
            r.terms[k] = r.terms.get(k, 0.0) + v
        r.const += other.const
        return r

    __radd__ = __add__

    def __neg__(self):
        return Expr({k: -v for k, v in self.terms.items()}, -self.const)

    def __sub__(self, other):
        return self + (-Expr.of(other))

    def __rsub__(self, other):
        return Expr.of(other) - self

    def __mul__(self, c):
        if isinstance(c, Expr):
            raise TypeError("nonlinear product")
        return Expr({k: v * c for k, v in self.terms.items()}, self.const * c)

    __rmul__ = __mul__

    def __truediv__(self, c):
        return self * (1.0 / c)

    def __le__(self, other):
        e = self - other
        return Con(e, -INF, 0.0)

    def __ge__(self, other):
        e = self - other
        return Con(e, 0.0, INF)

    def __eq__(self, other):  # type: ignore[override]
        e = self - other
        return Con(e, 0.0, 0.0)

    __hash__ = None  # type: ignore[assignment]


@dataclass
class Con:
    expr: Expr
    lo: float
    hi: float


def qsum(items) -> Expr:
    r = Expr()
    for it in items:
        r = r + it
    return r


@dataclass
class Model:
    lb: list = field(default_factory=list)
    ub: list = field(default_factory=list)
    integer: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    obj: Expr = field(default_factory=Expr)
    sense: str = "min"
    quad: dict = field(default_factory=dict)  # (i, j) -> coefficient of x_i x_j in objective

    @property
    def num_vars(self) -> int:
        return len(self.lb)

    def var(self, lb=0.0, ub=INF, integer=False) -> Expr:
        self.lb.append(float(lb))
        self.ub.append(float(ub))
        self.integer.append(1 if integer else 0)
        return Expr({len(self.lb) - 1: 1.0})

    def binary(self) -> Expr:
        return self.var(0, 1, True)

    def vars(self, keys, lb=0.0, ub=INF, integer=False) -> dict:
        return {k: self.var(lb, ub, integer) for k in keys}

    def add(self, con: Con) -> None:
        if not isinstance(con, Con):
            raise TypeError("add() expects a comparison of expressions")
        self.rows.append(con)

    def add_range(self, lo, expr, hi) -> None:
        e = Expr.of(expr)
        self.rows.append(Con(Expr(e.terms), lo - e.const, hi - e.const))

    def minimize(self, e) -> None:
        self.obj, self.sense = Expr.of(e), "min"

    def maximize(self, e) -> None:
        self.obj, self.sense = Expr.of(e), "max"

    def solve(self) -> float:
        n = self.num_vars
        sign = 1.0 if self.sense == "min" else -1.0
        c = np.zeros(n)
        for k, v in self.obj.terms.items():
            c[k] += sign * v
        if self.quad:
            return self._solve_qp(c, sign)
        r, cidx, vals, lo, hi = [], [], [], [], []
        for i, con in enumerate(self.rows):
            for k, v in con.expr.terms.items():
                r.append(i)
                cidx.append(k)
                vals.append(v)
            lo.append(con.lo - con.expr.const)
            hi.append(con.hi - con.expr.const)
        cons = []
        if self.rows:
            A = coo_matrix((vals, (r, cidx)), shape=(len(self.rows), n)).tocsr()
            cons = [LinearConstraint(A, np.array(lo), np.array(hi))]
        res = milp(
            c,
            constraints=cons,
            integrality=np.array(self.integer),
            bounds=Bounds(np.array(self.lb), np.array(self.ub)),
            options={"mip_rel_gap": 1e-9, "time_limit": 60},
        )
        if res.status != 0:
            raise RuntimeError(f"independent model not solved to optimality: {res.message}")
        return sign * float(res.fun) + self.obj.const

    def _solve_qp(self, c, sign) -> float:
        import highspy

        if any(self.integer):
            raise ValueError("QP checks are continuous only")
        n = self.num_vars
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        inf = highspy.kHighsInf
        for j in range(n):
            h.addVar(max(self.lb[j], -inf), min(self.ub[j], inf))
        h.changeColsCost(n, np.arange(n, dtype=np.int32), c)
        for con in self.rows:
            idx = np.array(list(con.expr.terms.keys()), dtype=np.int32)
            val = np.array(list(con.expr.terms.values()), dtype=float)
            lo = con.lo - con.expr.const
            hi = con.hi - con.expr.const
            h.addRow(max(lo, -inf), min(hi, inf), len(idx), idx, val)
        # HiGHS minimises c'x + 1/2 x'Qx with Q given as lower triangle (CSC).
        Q = np.zeros((n, n))
        for (i, j), v in self.quad.items():
            Q[i, j] += sign * v
            Q[j, i] += sign * v
        starts, index, value = [], [], []
        for j in range(n):
            starts.append(len(index))
            for i in range(j, n):
                if Q[i, j] != 0.0:
                    index.append(i)
                    value.append(Q[i, j])
        hess = highspy.HighsHessian()
        hess.dim_ = n
        hess.format_ = highspy.HessianFormat.kTriangular
        hess.start_ = starts + [len(index)]
        hess.index_ = index
        hess.value_ = value
        h.passHessian(hess)
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            raise RuntimeError(f"QP not optimal: {h.modelStatusToString(h.getModelStatus())}")
        return sign * h.getInfo().objective_function_value + self.obj.const

    def add_quadratic(self, coef: float, x: Expr, y: Expr) -> None:
        """Add ``coef * x * y`` (x, y single variables) to the objective."""
        (i,), (j,) = x.terms.keys(), y.terms.keys()
        self.quad[(i, j)] = self.quad.get((i, j), 0.0) + coef
