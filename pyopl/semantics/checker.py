"""Static name checks on the AST, before any data is read.

Scopes follow OPL: a global name is visible after its declaration;
iterator names (``forall(i in I)``, ``sum(<a,b> in Arcs)``, generic
dimensions ``x[i in I]``) are visible inside their construct.  Every
undeclared name is reported once per place with the closest known name;
tuple fields are checked where the iterator's tuple type is known.
"""
from __future__ import annotations

import gc
from dataclasses import replace
from typing import Any

from ..diagnostics.diagnostic import Edit, Fix, Label
from ..diagnostics.reporter import Reporter, TooManyErrors, near_miss, one_of, rename_applicability, rename_suggestion
from ..syntax import ast as A
from .fields import child_fields


class _Scope:
    def __init__(self, reporter: Reporter, later: dict[str, A.Node]):
        self.reporter = reporter
        self.globals: dict[str, A.Node] = {}
        self.later = later  # every global declaration, to say "declared later"
        self.tuple_fields: dict[str, list[str]] = {}  # tuple type -> fields
        self.set_elem: dict[str, str] = {}  # set name -> tuple type of its elements
        self.current: A.Node | None = None  # the item being checked
        self.braceless: dict[str, A.Forall] = {}  # iterators of a braceless `forall` before this statement

    def check(self, node: Any, local: dict[str, Any]) -> None:
        if node.__class__ is A.Binary and node.left.__class__ is A.Binary:
            # A chain `a + b + c ...` of any length, walked along its left spine without recursion
            # (in the order of the recursive walk: leftmost operand first, then each right operand).
            rights = []
            while node.__class__ is A.Binary:
                rights.append(node.right)
                node = node.left
            self.check(node, local)
            for r in reversed(rights):
                self.check(r, local)
            return
        if isinstance(node, A.Name):
            self.name(node, local)
        elif isinstance(node, A.Field):
            self.check(node.base, local)
            self.field(node, local)
        elif isinstance(node, (A.Aggregate, A.SetComp, A.ArrayComp)):
            inner = self.quals(node.quals, local)
            if isinstance(node, A.Aggregate):
                self.check(node.body, inner)
            else:
                self.check(node.value, inner)
                if isinstance(node, A.ArrayComp) and node.key is not None:
                    self.check(node.key, inner)
        elif isinstance(node, A.Piecewise):
            inner = self.quals(node.quals, local) if node.quals else local
            for e in node.slopes + node.breaks + [node.last_slope]:
                self.check(e, inner)
            if node.anchor:
                self.check(node.anchor[0], local)
                self.check(node.anchor[1], local)
            self.check(node.arg, local)
        elif isinstance(node, A.Stepwise):
            inner = self.quals(node.quals, local) if node.quals else local
            for e in node.values + node.times:
                self.check(e, inner)
            self.check(node.last, local)
        elif isinstance(node, A.Call):
            for a in node.args:
                self.check(a, local)
        elif isinstance(node, A.KeyedArrayLit):
            for k, v in node.pairs:
                self.check(k, local)
                self.check(v, local)
        elif isinstance(node, A.Node):
            names = child_fields(node)
            d = node.__dict__
            for v in (vars(node).values() if names is None else [d[k] for k in names]):
                if isinstance(v, list):
                    for x in v:
                        if isinstance(x, A.Node):
                            self.check(x, local)
                elif isinstance(v, A.Node) and not isinstance(v, A.Pattern):
                    self.check(v, local)

    def quals(self, q: A.Qualifiers, local: dict[str, Any]) -> dict[str, Any]:
        inner = dict(local)
        for b in q.binders:
            self.check(b.domain, inner)
            elem = self.set_elem.get(b.domain.id) if isinstance(b.domain, A.Name) else None
            for p in b.patterns:
                if p.name is not None:
                    inner[p.name] = elem if len(b.patterns) == 1 else None
                else:
                    for n in p.names():
                        inner.setdefault(n, None)
            if b.filter is not None:
                self.check(b.filter, inner)
        return inner

    def name(self, node: A.Name, local: dict[str, Any]) -> None:
        n = node.id
        if n in local or n in self.globals:
            return
        if n in self.later and self.later[n] is self.current:
            decl = self.current
            slug = "dexpr-cycle" if isinstance(decl, A.DexprDecl) else "self-reference"
            self.reporter.emit(slug, node.span, "`%s` is used in its own declaration" % n,
                               labels=[Label(decl.name_span, "declared here")],
                               help="a declaration cannot refer to itself; compute it from other names")
            return
        if n in self.later:
            decl = self.later[n]
            self.reporter.emit("name-used-before-declaration", node.span,
                               "`%s` is used before its declaration on line %d" % (n, decl.span.line),
                               labels=[Label(getattr(decl, "name_span", decl.span), "declared here")],
                               help="move the declaration of `%s` above this line" % n)
            return
        if n in self.braceless:
            fa = self.braceless[n]
            self.reporter.emit("forall-without-braces", node.span,
                               "`%s` is the iterator of the `forall` on line %d, which covers only the next constraint" % (
                                   n, fa.span.line),
                               labels=[Label(fa.quals.span, "`forall` without braces")],
                               help="put the constraints it should cover in braces: `forall(...) { ...; ...; }`")
            return
        visible = list(local) + list(self.globals)
        best, fix = rename_suggestion(n, visible, node.span)  # several equally close: help only, no fix
        self.reporter.emit("undeclared-name", node.span, "`%s` is not declared" % n,
                           help=("did you mean %s?" % one_of(best[:5])) if best else "declare `%s` before this line" % n,
                           fix=fix)

    def field(self, node: A.Field, local: dict[str, Any]) -> None:
        if not isinstance(node.base, A.Name):
            return
        ttype = local.get(node.base.id)
        fields = self.tuple_fields.get(ttype) if isinstance(ttype, str) else None
        if fields is None or node.name in fields:
            return
        span = node.name_span or node.span
        best, fix = rename_suggestion(node.name, fields, span)
        self.reporter.emit("unknown-field", span, "tuple `%s` has no field `%s`" % (ttype, node.name),
                           help=("did you mean %s?" % one_of(best[:5])) if best else "its fields are %s" % ", ".join("`%s`" % f for f in fields),
                           fix=fix)

    def stmt(self, s: A.Stmt, local: dict[str, Any]) -> None:
        if isinstance(s, A.ConsStmt):
            if s.label is not None and not isinstance(s.label, A.Name):
                lab = s.label
                while isinstance(lab, A.Index):
                    for i in lab.indices:
                        self.check(i, local)
                    lab = lab.base
            self.check(s.expr, local)
        elif isinstance(s, A.Forall):
            self.stmt(s.body, self.quals(s.quals, local))
        elif isinstance(s, A.Block):
            self.stmts(s.stmts, local)
        elif isinstance(s, A.IfStmt):
            self.check(s.cond, local)
            self.stmt(s.then, local)
            if s.other is not None:
                self.stmt(s.other, local)


    def stmts(self, stmts: list, local: dict[str, Any]) -> None:
        """A block's statements; after a `forall` without braces, its iterators are remembered so that
        a later statement using them is told the `forall` covers only the next constraint."""
        saved = dict(self.braceless)
        for x in stmts:
            self.stmt(x, local)
            if isinstance(x, A.Forall) and not isinstance(x.body, (A.Block, A.Forall)):
                for b in x.quals.binders:
                    for p in b.patterns:
                        for n in p.names():
                            if n not in local:
                                self.braceless[n] = x
        self.braceless = saved


def check_names(model: A.Model, reporter: Reporter) -> None:
    """Report undeclared names, use before declaration and unknown tuple fields."""
    # The walks allocate many short-lived lists and keep nothing: the cyclic collector's
    # passes over a large model's AST find nothing, so it is paused (as in api.py).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        _check_names(model, reporter)
    finally:
        if was_enabled:
            gc.enable()


#: The declarations that declare a global name (OPL manual, "Declarations"); a piecewise function is
#: expanded and an ``include`` spliced before the checks.
_NAMING = (A.ParamDecl, A.RangeDecl, A.DvarDecl, A.DexprDecl, A.TupleDecl, A.ConstraintDecl)
_BUILTIN_TYPES = ("int", "float", "string", "boolean", "int+", "float+")


def report_duplicate(reporter: Reporter, name: str, where: Any, first_line: int, first: Any) -> None:
    """``duplicate-declaration`` (OPL0102) of ``name`` declared again at span ``where``, first declared at
    span ``first`` on line ``first_line``: the one text the checks and the lowering (``Instance.declare``)
    give it, so the reporter keeps one of the two. Raises :class:`TooManyErrors` at the error budget."""
    reporter.emit("duplicate-declaration", where,
                  "`%s` is declared twice: it was already declared on line %d" % (name, first_line),
                  labels=[Label(first, "first declared here")],
                  help="rename one of them, or remove the second declaration")


def report_duplicates(model: A.Model, reporter: Reporter) -> None:
    """Report each top-level declaration of a name declared earlier (``duplicate-declaration``,
    OPL0102), with the text, span and label the lowering gives it (``Instance.declare``: the reporter
    keeps one of the two), before the name and static checks walk the model.

    Run first by :func:`check_names`, so that a text of thousands of repeated declarations (an LLM
    reply that looped) stops at the reporter's error budget, its summary (OPL0801) saying how many
    more repeat a name, instead of walking every item through every check first. A data declaration
    whose type is no type (``minimise x;``) declares nothing, as in the lowering
    (``pyopl.lowering.model.driver._unknown_type``). Raises :class:`TooManyErrors` at the budget."""
    first: dict[str, A.Decl] = {}
    repeats: list[tuple[A.Decl, A.Decl]] = []
    for item in model.items:
        if not isinstance(item, _NAMING):
            continue
        if isinstance(item, A.ParamDecl) and not item.type.is_set and item.type.name not in _BUILTIN_TYPES \
                and item.type.name not in first:
            continue
        old = first.setdefault(item.name, item)
        if old is not item:
            repeats.append((item, old))
    for k, (item, old) in enumerate(repeats):
        try:
            report_duplicate(reporter, item.name, item.name_span, old.span.line, old.name_span)
        except TooManyErrors:
            left = len(repeats) - k - 1
            if left:
                summary = reporter.diagnostics[-1]
                reporter.diagnostics[-1] = replace(summary, notes=summary.notes + (
                    "%d more declarations repeat a name declared earlier (%d in all); the checks after "
                    "the declarations were not run" % (left, len(repeats)),))
            raise


def _check_names(model: A.Model, reporter: Reporter) -> None:
    report_duplicates(model, reporter)
    later = {}
    for item in model.items:
        if isinstance(item, A.Decl) and item.name not in later:
            later[item.name] = item
    sc = _Scope(reporter, later)
    for item in model.items:
        sc.current = item
        if isinstance(item, A.TupleDecl):
            sc.tuple_fields[item.name] = [f.name for f in item.fields]
        elif isinstance(item, (A.ParamDecl, A.DvarDecl, A.DexprDecl)):
            local: dict[str, Any] = {}
            for dim in item.dims:
                sc.check(dim.domain, local)
                if dim.var is not None:
                    elem = sc.set_elem.get(dim.domain.id) if isinstance(dim.domain, A.Name) else None
                    local[dim.var] = elem
                for n in dim.pattern_names:  # `[<i, j> in S]` (tuple-pattern dimension)
                    local[n] = None
            if isinstance(item, A.ParamDecl):
                for _f, e in item.with_clause:
                    sc.check(e, {})
                if item.init is not None:
                    sc.check(item.init, local)
                if item.type.is_set and item.type.name in sc.tuple_fields:
                    sc.set_elem[item.name] = item.type.name
            elif isinstance(item, A.DvarDecl) and item.domain is not None:
                sc.check(item.domain, local)
            elif isinstance(item, A.DexprDecl):
                sc.check(item.expr, local)
        elif isinstance(item, A.RangeDecl):
            sc.check(item.init, {})
        elif isinstance(item, A.Objective):
            sc.check(item.expr, {})
        elif isinstance(item, A.ConstraintsBlock):
            sc.stmts(item.stmts, {})
        elif isinstance(item, A.Assert):
            local = {}
            for q in item.quals:
                local = sc.quals(q, local)
            sc.check(item.expr, local)
        if isinstance(item, A.Decl):
            sc.globals.setdefault(item.name, item)
    from .static import check_static

    check_static(model, reporter)
