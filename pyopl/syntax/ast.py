"""Typed AST of the OPL model language. Every node carries its source :class:`Span`.

Nodes compare by identity (``eq=False``) so they can key caches. They share the one ``__repr__``
of :class:`Node` (``repr=False``), in dataclass's format: a ``__repr__`` compiled per class was a
fifth of this module's import, which every compile pays.
"""
from __future__ import annotations

import reprlib
from dataclasses import dataclass, field, fields
from typing import Any, Optional

from ..diagnostics.diagnostic import Span


@dataclass(eq=False, repr=False)
class Node:
    """Base of every AST node: ``span`` is where the node's text lies in its file."""

    span: Span

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        """``Name(span=..., id='x')``: every field in order, as dataclass's own ``__repr__`` writes it."""
        return "%s(%s)" % (self.__class__.__qualname__,
                           ", ".join("%s=%r" % (f.name, getattr(self, f.name)) for f in fields(self) if f.repr))


# ------------------------------------------------------------------ expressions
@dataclass(eq=False, repr=False)
class Expr(Node):
    """Base of the expression nodes."""


@dataclass(eq=False, repr=False)
class Const(Expr):
    """A literal number, string, boolean, ``infinity`` or ``maxint``."""

    value: Any


@dataclass(eq=False, repr=False)
class Name(Expr):
    """A bare identifier ``id`` (a declared name, a bound index, or an enum-like string value)."""

    id: str


@dataclass(eq=False, repr=False)
class Unary(Expr):
    """``-operand`` or ``!operand``."""

    op: str  # "-" or "!"
    operand: Expr


@dataclass(eq=False, repr=False)
class Binary(Expr):
    """Arithmetic, set, logical and membership operators: ``+ - * / div mod % ^``,
    ``union inter diff symdiff``, ``&& || =>``, ``in``, ``not in``."""

    op: str
    left: Expr
    right: Expr
    op_span: Optional[Span] = None


@dataclass(eq=False, repr=False)
class Compare(Expr):
    """``a <= b`` or a chain ``lo <= e <= hi``: ``ops[k]`` sits between ``operands[k]`` and ``operands[k+1]``."""

    operands: list[Expr]
    ops: list[str]
    op_spans: list[Span] = field(default_factory=list)


@dataclass(eq=False, repr=False)
class Conditional(Expr):
    """``cond ? then : other``."""

    cond: Expr
    then: Expr
    other: Expr


@dataclass(eq=False, repr=False)
class RangeLit(Expr):
    """A range ``lo..hi``."""

    lo: Expr
    hi: Expr


@dataclass(eq=False, repr=False)
class Index(Expr):
    """``base[i]``, ``base[i, j]``; ``base[i][j]`` nests two Index nodes."""

    base: Expr
    indices: list[Expr]


@dataclass(eq=False, repr=False)
class Field(Expr):
    """``base.name``: a tuple field; ``name_span`` is the span of ``name`` alone."""

    base: Expr
    name: str
    name_span: Optional[Span] = None


@dataclass(eq=False, repr=False)
class Call(Expr):
    """A function call ``func(args)``: a built-in (``abs``, ``card``, ``ord``...) or a pwl function; ``func_span`` spans the name."""

    func: str
    args: list[Expr]
    func_span: Optional[Span] = None


@dataclass(eq=False, repr=False)
class Cast(Expr):
    """A conversion written as a call to a type word: ``int(x)``, ``float(x)``."""

    type: str
    arg: Expr


@dataclass(eq=False, repr=False)
class ArrayLit(Expr):
    """An array literal ``[a, b, c]``."""

    items: list[Expr]


@dataclass(eq=False, repr=False)
class ArrayComp(Expr):
    """``[value | quals]`` or, with ``key``, ``[key : value | quals]``."""

    value: Expr
    quals: "Qualifiers"
    key: Optional[Expr] = None


@dataclass(eq=False, repr=False)
class SetLit(Expr):
    """A set literal ``{a, b, c}``."""

    items: list[Expr]


@dataclass(eq=False, repr=False)
class SetComp(Expr):
    """A set comprehension ``{value | quals}``."""

    value: Expr
    quals: "Qualifiers"


@dataclass(eq=False, repr=False)
class TupleLit(Expr):
    """A tuple literal ``<a, b>``."""

    items: list[Expr]


@dataclass(eq=False, repr=False)
class KeyedArrayLit(Expr):
    """An array literal by key: ``#[k1: v1, k2: v2]#`` (or one keyed cell ``[k : v]``)."""

    pairs: list[tuple[Expr, Expr]]


@dataclass(eq=False, repr=False)
class Aggregate(Expr):
    """``sum``, ``prod``, ``min``, ``max``, ``and``, ``or`` over qualifiers; ``all`` (an array of expressions, CP)."""

    op: str
    quals: "Qualifiers"
    body: Expr


@dataclass(eq=False, repr=False)
class Piecewise(Expr):
    """``piecewise(quals){s1 -> b1; ...; sLast}(x0, y0) arg`` (OPL manual, "piecewise linear functions")."""

    quals: Optional["Qualifiers"]
    slopes: list[Expr]
    breaks: list[Expr]
    last_slope: Expr
    anchor: Optional[tuple[Expr, Expr]]
    arg: Expr


@dataclass(eq=False, repr=False)
class Stepwise(Expr):
    """``stepwise(quals){v1 -> t1; ...; vLast}``: a step function, ``v1`` before ``t1``, ``v2`` from ``t1``
    to ``t2`` and ``vLast`` from the last ``t`` on (OPL Language Quick Reference, "stepwise",
    "stepFunction"); a value, declared as ``stepFunction F = stepwise{...};``."""

    quals: Optional["Qualifiers"]
    values: list[Expr]
    times: list[Expr]
    last: Expr


# ------------------------------------------------------------------ iteration
@dataclass(eq=False, repr=False)
class Pattern(Node):
    """A binder target: a name, or a tuple pattern ``<i, <j, k>>``."""

    name: Optional[str] = None
    items: Optional[list["Pattern"]] = None
    expr: Optional[Expr] = None  # a component that must equal a value: `<n, s.dept> in S`

    def names(self) -> list[str]:
        if self.name is not None:
            return [self.name]
        return [n for p in self.items or [] for n in p.names()]  # an `expr` component binds nothing


@dataclass(eq=False, repr=False)
class Binder(Node):
    """``pattern in set`` (``names`` holds several for ``i, j in S``), with an optional filter."""

    patterns: list[Pattern]
    domain: Expr
    filter: Optional[Expr] = None
    ordered: bool = False  # `ordered i, j in S`: only pairs with ord(i) < ord(j)


@dataclass(eq=False, repr=False)
class Qualifiers(Node):
    """The comma-separated binders of an aggregate, a ``forall`` or a comprehension."""

    binders: list[Binder]


# ------------------------------------------------------------------ types and declarations
@dataclass(eq=False, repr=False)
class TypeRef(Node):
    """A scalar type word (``int``, ``float``, ``string``, ``boolean``, ``int+``, ``float+``)
    or a tuple type name; ``is_set`` for ``{T}``/``setof(T)``, with ``order``."""

    name: str
    is_set: bool = False
    order: Optional[str] = None


@dataclass(eq=False, repr=False)
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


@dataclass(eq=False, repr=False)
class Decl(Node):
    """Base of the declarations: ``name`` and the span of the name alone."""

    name: str
    name_span: Span


@dataclass(eq=False, repr=False)
class External(Expr):
    """The ``...`` marker: the value comes from a data file."""


@dataclass(eq=False, repr=False)
class ParamDecl(Decl):
    """A data declaration ``type name[dims] = init;`` (``init`` None when declared without a value)."""

    type: TypeRef
    dims: list[Dim]
    init: Optional[Expr]
    with_clause: list[tuple[str, Expr]] = field(default_factory=list)  # tuple-set `with field in Set`


@dataclass(eq=False, repr=False)
class RangeDecl(Decl):
    """``range name = lo..hi;``."""

    init: Expr  # a RangeLit, or External


@dataclass(eq=False, repr=False)
class DvarDecl(Decl):
    """``dvar vtype name[dims] [in domain];``."""

    vtype: str  # int, int+, float, float+, boolean
    dims: list[Dim]
    domain: Optional[Expr]
    #: ``dvar int y[R] = expr;``: an alias whose cells are decisions declared before (OPL manual,
    #: "Initialization of decision variable arrays"); None for a new decision
    alias: Optional[Expr] = None


@dataclass(eq=False, repr=False)
class IntervalDecl(DvarDecl):
    """``dvar interval name[dims] [optional[(cond)]] [in lo..hi] [size s];`` (``using CP;``, OPL manual
    "Interval variables"): ``vtype`` is ``"interval"``, ``domain`` the window of ``in``; ``optional``
    None (present), the constant True (``optional``) or the condition; ``size`` an int or a range;
    ``intensity`` a step function (not compiled)."""

    optional: Optional[Expr] = None
    size: Optional[Expr] = None
    intensity: Optional[Expr] = None  # a step function: refused (OPL0627)


@dataclass(eq=False, repr=False)
class SequenceDecl(DvarDecl):
    """``dvar sequence name[dims] in intervals [types t];`` (OPL manual "Sequence variables"):
    ``vtype`` ``"sequence"``, ``domain`` the array of intervals, ``types`` the optional type array."""

    types: Optional[Expr] = None


@dataclass(eq=False, repr=False)
class DexprDecl(Decl):
    """``dexpr type name[dims] = expr;``."""

    type: TypeRef
    dims: list[Dim]
    expr: Expr


@dataclass(eq=False, repr=False)
class CumulDecl(DexprDecl):
    """``cumulFunction name[dims] = expr;`` (OPL manual "Cumulative functions"): a dexpr whose type
    is ``cumulFunction``, built from ``pulse``, ``stepAtStart`` and ``stepAtEnd``."""


@dataclass(eq=False, repr=False)
class TupleField(Node):
    """One field of a ``tuple`` declaration: ``[key] type name[dims];``."""

    name: str
    type: TypeRef
    key: bool = False
    dims: list = field(default_factory=list)  # `int use[Resources];`: an array-valued field


@dataclass(eq=False, repr=False)
class TupleDecl(Decl):
    """``tuple name { fields }``."""

    fields: list[TupleField]


@dataclass(eq=False, repr=False)
class PwlDecl(Decl):
    """``pwlFunction f = piecewise{...}(x0, y0);``: ``fn`` is the function with ``arg`` None;
    every call ``f(e)`` becomes ``fn`` applied to ``e`` (see :mod:`pyopl.syntax.pwl`)."""

    fn: Piecewise
    dims: list = field(default_factory=list)


@dataclass(eq=False, repr=False)
class ConstraintDecl(Decl):
    """``constraint name[dims];``: a name for labelled constraints declared before use."""

    dims: list[Dim]


@dataclass(eq=False, repr=False)
class Objective(Node):
    """``minimize expr;`` or ``maximize expr;`` (``name`` when labelled ``name: expr``)."""

    sense: str  # minimize | maximize
    expr: Expr
    name: Optional[str] = None


@dataclass(eq=False, repr=False)
class ScriptBlock(Node):
    """``execute [NAME] { body }`` or ``main { body }``: ``body`` is the script text between the
    braces, which starts at ``body_line``/``body_column`` of the file (for the script's own spans)."""

    kind: str  # execute | main
    name: Optional[str] = None
    body: str = ""
    body_line: int = 0
    body_column: int = 0


@dataclass(eq=False, repr=False)
class Using(Node):
    """``using ENGINE;`` (``CP`` or ``CPLEX``)."""

    engine: str


@dataclass(eq=False, repr=False)
class Assert(Node):
    """``assert [name:] [forall(quals)]* expr;`` (``quals`` lists the nested forall qualifiers)."""

    expr: Expr
    name: Optional[str] = None
    quals: list["Qualifiers"] = field(default_factory=list)


@dataclass(eq=False, repr=False)
class Include(Node):
    """``include "path";``: spliced by the parser, absent from a parsed model."""

    path: str


# ------------------------------------------------------------------ constraints
@dataclass(eq=False, repr=False)
class Stmt(Node):
    """Base of the statements inside ``subject to { ... }``."""


@dataclass(eq=False, repr=False)
class ConsStmt(Stmt):
    """A constraint, optionally labelled (``ct[i]: expr``; ``label`` is a Name or Index)."""

    expr: Expr
    label: Optional[Expr] = None


@dataclass(eq=False, repr=False)
class Forall(Stmt):
    """``forall(quals) body``."""

    quals: Qualifiers
    body: Stmt


@dataclass(eq=False, repr=False)
class IfStmt(Stmt):
    """``if (cond) then [else other]`` inside a constraint block."""

    cond: Expr
    then: Stmt
    other: Optional[Stmt] = None


@dataclass(eq=False, repr=False)
class Block(Stmt):
    """``{ stmts }`` inside a constraint block."""

    stmts: list[Stmt]


@dataclass(eq=False, repr=False)
class ConstraintsBlock(Node):
    """``subject to { stmts }`` (also ``constraints { ... }``)."""

    stmts: list[Stmt]


@dataclass(eq=False, repr=False)
class Model(Node):
    """A parsed ``.mod`` file: items in source order."""

    items: list[Node]
    file: str = "<model>"
    source: str = ""
