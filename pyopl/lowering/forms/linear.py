"""Linear and quadratic forms over decision-variable columns, and constraint records."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...diagnostics.diagnostic import Span


class LinExpr:
    """``sum(coef[j] * x[j]) + const``; ``terms`` maps column index -> coefficient."""

    __slots__ = ("terms", "const")

    def __init__(self, terms: dict[int, float] | None = None, const: float = 0.0):
        self.terms = terms if terms is not None else {}
        self.const = const

    @staticmethod
    def var(col: int) -> "LinExpr":
        return LinExpr({col: 1.0}, 0.0)

    def copy(self) -> "LinExpr":
        return LinExpr(dict(self.terms), self.const)

    def iadd(self, other: Any, sign: float = 1.0) -> "LinExpr":
        """In place ``self += sign * other`` (other: number or LinExpr)."""
        if isinstance(other, LinExpr):
            t = self.terms
            for j, c in other.terms.items():
                t[j] = t.get(j, 0.0) + sign * c
            self.const += sign * other.const
        else:
            self.const += sign * other
        return self

    def scaled(self, k: float) -> "LinExpr":
        return LinExpr({j: c * k for j, c in self.terms.items()}, self.const * k)

    @property
    def is_constant(self) -> bool:
        return not any(self.terms.values())

    def __repr__(self) -> str:
        return "LinExpr(%r, %r)" % (self.terms, self.const)


class QuadExpr:
    """``lin + sum(q[(i, j)] * x[i] * x[j])`` with ``i <= j``."""

    __slots__ = ("lin", "quad")

    def __init__(self, lin: LinExpr | None = None, quad: dict[tuple[int, int], float] | None = None):
        self.lin = lin if lin is not None else LinExpr()
        self.quad = quad if quad is not None else {}

    def iadd(self, other: Any, sign: float = 1.0) -> "QuadExpr":
        if isinstance(other, QuadExpr):
            self.lin.iadd(other.lin, sign)
            for k, c in other.quad.items():
                self.quad[k] = self.quad.get(k, 0.0) + sign * c
        else:
            self.lin.iadd(other, sign)
        return self

    def scaled(self, k: float) -> "QuadExpr":
        return QuadExpr(self.lin.scaled(k), {p: c * k for p, c in self.quad.items()})

    def copy(self) -> "QuadExpr":
        return QuadExpr(self.lin.copy(), dict(self.quad))


def multiply(a: LinExpr, b: LinExpr) -> QuadExpr:
    """Product of two linear forms as a quadratic form."""
    q: dict[tuple[int, int], float] = {}
    for i, ci in a.terms.items():
        for j, cj in b.terms.items():
            key = (i, j) if i <= j else (j, i)
            q[key] = q.get(key, 0.0) + ci * cj
    lin = LinExpr()
    lin.iadd(b.scaled(a.const))
    lin.iadd(LinExpr(dict(a.terms), 0.0).scaled(b.const))
    lin.const = a.const * b.const
    return QuadExpr(lin, q)


@dataclass
class Leaf:
    """A linear constraint ``lo <= expr <= hi`` (``expr`` carries its constant).

    ``integral`` says the expression takes integer values only (integer
    columns with integer coefficients), so strict comparisons and negations
    are exact (``e < b`` becomes ``e <= b - 1``).
    """

    expr: LinExpr
    lo: float
    hi: float
    integral: bool
    span: Span
    text: str = ""
    strict: Any = None  # an open bound (`e < b` on a continuous e): the error to raise if enforced as is


@dataclass
class Logic:
    """A logical combination of constraints: ``and``, ``or``, ``not``, ``implies``, ``iff``."""

    op: str
    args: list[Any]
    span: Span


@dataclass
class Cons:
    """A constraint produced by one statement instance, with its label and index key."""

    body: Any  # Leaf or Logic
    label: str
    key: tuple
    span: Span
    extra: dict = field(default_factory=dict)
