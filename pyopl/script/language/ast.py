"""AST of IBM ILOG Script: one dataclass per construct, each with the ``span`` of its text.

Spans are positions in the ``.mod`` file (not in the script body): see
:func:`pyopl.script.engine.parser.parse_script`.  Functions and programs carry their hoisted
``var`` names and function declarations (ECMAScript 3, section 10.1.3: variable
instantiation happens on entry to the function, before its first statement runs).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ...diagnostics.diagnostic import Span

_DC = dict(eq=False, slots=True)


@dataclass(**_DC)
class Node:
    span: Span


# --- expressions -------------------------------------------------------------------------

@dataclass(**_DC)
class Literal(Node):
    value: Any  # float, str, bool, UNDEFINED or NULL (from pyopl.script.language.values)


@dataclass(**_DC)
class Name(Node):
    name: str


@dataclass(**_DC)
class This(Node):
    pass


@dataclass(**_DC)
class ArrayLit(Node):
    items: list  # None for an elision: `[1,,3]` has a hole at 1


@dataclass(**_DC)
class RegexLit(Node):
    """``/body/flags``: a new RegExp object each time it is evaluated (as ES5 and engines do)."""
    body: str
    flags: str


@dataclass(**_DC)
class ObjectLit(Node):
    props: list  # [(key: str, value: Node)]


@dataclass(**_DC)
class FunctionExpr(Node):
    func: "FunctionNode"


@dataclass(**_DC)
class Member(Node):
    obj: Node
    name: str
    name_span: Span


@dataclass(**_DC)
class Index(Node):
    obj: Node
    key: Node


@dataclass(**_DC)
class Call(Node):
    callee: Node
    args: list


@dataclass(**_DC)
class New(Node):
    callee: Node
    args: list


@dataclass(**_DC)
class Update(Node):
    op: str  # "++" or "--"
    prefix: bool
    target: Node


@dataclass(**_DC)
class Unary(Node):
    op: str  # + - ! ~ typeof void delete
    operand: Node


@dataclass(**_DC)
class Binary(Node):
    op: str
    left: Node
    right: Node
    op_span: Span


@dataclass(**_DC)
class Logical(Node):
    op: str  # && or ||
    left: Node
    right: Node


@dataclass(**_DC)
class Conditional(Node):
    test: Node
    then: Node
    other: Node


@dataclass(**_DC)
class Assign(Node):
    op: str  # "=", "+=", ...
    target: Node  # Name, Member or Index
    value: Node


@dataclass(**_DC)
class Sequence(Node):
    exprs: list


# --- statements --------------------------------------------------------------------------

@dataclass(**_DC)
class VarDecl(Node):
    decls: list  # [(name: str, init: Node | None, span: Span)]


@dataclass(**_DC)
class Empty(Node):
    pass


@dataclass(**_DC)
class ExprStmt(Node):
    expr: Node


@dataclass(**_DC)
class Block(Node):
    body: list


@dataclass(**_DC)
class If(Node):
    test: Node
    then: Node
    other: Optional[Node]


@dataclass(**_DC)
class While(Node):
    test: Node
    body: Node


@dataclass(**_DC)
class DoWhile(Node):
    body: Node
    test: Node


@dataclass(**_DC)
class For(Node):
    init: Optional[Node]  # VarDecl or expression
    test: Optional[Node]
    update: Optional[Node]
    body: Node


@dataclass(**_DC)
class ForIn(Node):
    target: Node  # Name (also for `var x`), Member or Index
    obj: Node
    body: Node


@dataclass(**_DC)
class Continue(Node):
    label: Optional[str] = None  # `continue outer;`


@dataclass(**_DC)
class Break(Node):
    label: Optional[str] = None  # `break outer;`


@dataclass(**_DC)
class Labelled(Node):
    """``a: b: statement`` (ECMAScript 3, 12.12): ``labels`` are the names, in order."""
    labels: list
    body: Node


@dataclass(**_DC)
class Return(Node):
    value: Optional[Node]


@dataclass(**_DC)
class With(Node):
    obj: Node
    body: Node


@dataclass(**_DC)
class Case(Node):
    test: Optional[Node]  # None for `default`
    body: list


@dataclass(**_DC)
class Switch(Node):
    disc: Node
    cases: list


@dataclass(**_DC)
class Throw(Node):
    value: Node


@dataclass(**_DC)
class Try(Node):
    block: Block
    catch_name: Optional[str]
    catch_block: Optional[Block]
    finally_block: Optional[Block]


@dataclass(**_DC)
class FunctionNode(Node):
    name: Optional[str]
    params: list  # [str]
    body: list
    var_names: list = field(default_factory=list)  # hoisted `var` names, in order
    functions: list = field(default_factory=list)  # hoisted FunctionDecl nodes


@dataclass(**_DC)
class FunctionDecl(Node):
    func: FunctionNode


@dataclass(**_DC)
class Program(Node):
    body: list
    var_names: list = field(default_factory=list)
    functions: list = field(default_factory=list)
