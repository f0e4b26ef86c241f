"""Typed AST of the OPL model language. Every node carries its source :class:`Span`.

Nodes compare by identity (``eq=False``) so they can key caches.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..diagnostics.diagnostic import Span


@dataclass(eq=False)
class Node:
    span: Span


# ------------------------------------------------------------------ expressions
@dataclass(eq=False)
class Expr(Node):
    pass


@dataclass(eq=False)
class Const(Expr):
    """A literal number, string, boolean, ``infinity`` or ``maxint``."""

    value: Any


@dataclass(eq=False)
class Name(Expr):
    id: str


@dataclass(eq=False)
class Unary(Expr):
    op: str  # "-" or "!"
    operand: Expr


@dataclass(eq=False)
class Binary(Expr):
    """Arithmetic, set, logical and membership operators: ``+ - * / div mod % ^``,
    ``union inter diff symdiff``, ``&& || =>``, ``in``, ``not in``."""

    op: str
    left: Expr
    right: Expr
    op_span: Optional[Span] = None


@dataclass(eq=False)
class Compare(Expr):
    """``a <= b`` or a chain ``lo <= e <= hi``: ``ops[k]`` sits between ``operands[k]`` and ``operands[k+1]``."""

    operands: list[Expr]
    ops: list[str]
    op_spans: list[Span] = field(default_factory=list)


@dataclass(eq=False)
class Conditional(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(eq=False)
class RangeLit(Expr):
    lo: Expr
    hi: Expr


@dataclass(eq=False)
class Index(Expr):
    """``base[i]``, ``base[i, j]``; ``base[i][j]`` nests two Index nodes."""

    base: Expr
    indices: list[Expr]


@dataclass(eq=False)
class Field(Expr):
    base: Expr
    name: str
    name_span: Optional[Span] = None


@dataclass(eq=False)
class Call(Expr):
    func: str
    args: list[Expr]
    func_span: Optional[Span] = None


@dataclass(eq=False)
class Cast(Expr):
    type: str
    arg: Expr


@dataclass(eq=False)
class ArrayLit(Expr):
    items: list[Expr]


@dataclass(eq=False)
class ArrayComp(Expr):
    """``[value | quals]`` or, with ``key``, ``[key : value | quals]``."""

    value: Expr
    quals: "Qualifiers"
    key: Optional[Expr] = None


@dataclass(eq=False)
class SetLit(Expr):
    items: list[Expr]


@dataclass(eq=False)
class SetComp(Expr):
    value: Expr
    quals: "Qualifiers"


@dataclass(eq=False)
class TupleLit(Expr):
    items: list[Expr]


@dataclass(eq=False)
class KeyedArrayLit(Expr):
    pairs: list[tuple[Expr, Expr]]


@dataclass(eq=False)
class Aggregate(Expr):
    """``sum``, ``prod``, ``min``, ``max``, ``and``, ``or`` over qualifiers."""

    op: str
    quals: "Qualifiers"
    body: Expr


@dataclass(eq=False)
class Piecewise(Expr):
    """``piecewise(quals){s1 -> b1; ...; sLast}(x0, y0) arg`` (OPL manual, "piecewise linear functions")."""

    quals: Optional["Qualifiers"]
    slopes: list[Expr]
    breaks: list[Expr]
    last_slope: Expr
    anchor: Optional[tuple[Expr, Expr]]
    arg: Expr


# ------------------------------------------------------------------ iteration
@dataclass(eq=False)
class Pattern(Node):
    """A binder target: a name, or a tuple pattern ``<i, <j, k>>``."""

    name: Optional[str] = None
    items: Optional[list["Pattern"]] = None
    expr: Optional[Expr] = None  # a component that must equal a value: `<n, s.dept> in S`

    def names(self) -> list[str]:
        if self.name is not None:
            return [self.name]
        return [n for p in self.items or [] for n in p.names()]  # an `expr` component binds nothing


@dataclass(eq=False)
class Binder(Node):
    """``pattern in set`` (``names`` holds several for ``i, j in S``), with an optional filter."""

    patterns: list[Pattern]
    domain: Expr
    filter: Optional[Expr] = None
    ordered: bool = False  # `ordered i, j in S`: only pairs with ord(i) < ord(j)


@dataclass(eq=False)
class Qualifiers(Node):
    binders: list[Binder]


# ------------------------------------------------------------------ types and declarations
@dataclass(eq=False)
class TypeRef(Node):
    """A scalar type word (``int``, ``float``, ``string``, ``boolean``, ``int+``, ``float+``)
    or a tuple type name; ``is_set`` for ``{T}``/``setof(T)``, with ``order``."""

    name: str
    is_set: bool = False
    order: Optional[str] = None


@dataclass(eq=False)
class Dim(Node):
    """One ``[...]`` of a declaration: an index set, or ``i in S`` for generic arrays."""

    domain: Expr
    var: Optional[str] = None
    pattern: Optional["Pattern"] = None  # `[<i, j> in Arcs]`: a tuple pattern binding the key's fields

    @property
    def pattern_names(self) -> list[str]:
        return self.pattern.names() if self.pattern is not None else []

    @property
    def binds(self) -> bool:
        """True for a generic dimension (``i in S`` or ``<i, j> in S``) that names the index."""
        return self.var is not None or self.pattern is not None


@dataclass(eq=False)
class Decl(Node):
    name: str
    name_span: Span


@dataclass(eq=False)
class External(Expr):
    """The ``...`` marker: the value comes from a data file."""


@dataclass(eq=False)
class ParamDecl(Decl):
    type: TypeRef
    dims: list[Dim]
    init: Optional[Expr]
    with_clause: list[tuple[str, Expr]] = field(default_factory=list)  # tuple-set `with field in Set`


@dataclass(eq=False)
class RangeDecl(Decl):
    init: Expr  # a RangeLit, or External


@dataclass(eq=False)
class DvarDecl(Decl):
    vtype: str  # int, int+, float, float+, boolean
    dims: list[Dim]
    domain: Optional[Expr]


@dataclass(eq=False)
class DexprDecl(Decl):
    type: TypeRef
    dims: list[Dim]
    expr: Expr


@dataclass(eq=False)
class TupleField(Node):
    name: str
    type: TypeRef
    key: bool = False
    dims: list = field(default_factory=list)  # `int use[Resources];`: an array-valued field


@dataclass(eq=False)
class TupleDecl(Decl):
    fields: list[TupleField]


@dataclass(eq=False)
class PwlDecl(Decl):
    """``pwlFunction f = piecewise{...}(x0, y0);``: ``fn`` is the function with ``arg`` None;
    every call ``f(e)`` becomes ``fn`` applied to ``e`` (see :mod:`pyopl.syntax.pwl`)."""

    fn: Piecewise
    dims: list = field(default_factory=list)


@dataclass(eq=False)
class ConstraintDecl(Decl):
    dims: list[Dim]


@dataclass(eq=False)
class Objective(Node):
    sense: str  # minimize | maximize
    expr: Expr
    name: Optional[str] = None


@dataclass(eq=False)
class ScriptBlock(Node):
    """``execute [NAME] { body }`` or ``main { body }``: ``body`` is the script text between the
    braces, which starts at ``body_line``/``body_column`` of the file (for the script's own spans)."""

    kind: str  # execute | main
    name: Optional[str] = None
    body: str = ""
    body_line: int = 0
    body_column: int = 0


@dataclass(eq=False)
class Using(Node):
    engine: str


@dataclass(eq=False)
class Assert(Node):
    """``assert [name:] [forall(quals)]* expr;`` (``quals`` lists the nested forall qualifiers)."""

    expr: Expr
    name: Optional[str] = None
    quals: list["Qualifiers"] = field(default_factory=list)


@dataclass(eq=False)
class Include(Node):
    path: str


# ------------------------------------------------------------------ constraints
@dataclass(eq=False)
class Stmt(Node):
    pass


@dataclass(eq=False)
class ConsStmt(Stmt):
    """A constraint, optionally labelled (``ct[i]: expr``; ``label`` is a Name or Index)."""

    expr: Expr
    label: Optional[Expr] = None


@dataclass(eq=False)
class Forall(Stmt):
    quals: Qualifiers
    body: Stmt


@dataclass(eq=False)
class IfStmt(Stmt):
    cond: Expr
    then: Stmt
    other: Optional[Stmt] = None


@dataclass(eq=False)
class Block(Stmt):
    stmts: list[Stmt]


@dataclass(eq=False)
class ConstraintsBlock(Node):
    stmts: list[Stmt]


@dataclass(eq=False)
class Model(Node):
    """A parsed ``.mod`` file: items in source order."""

    items: list[Node]
    file: str = "<model>"
    source: str = ""
