"""The AST handlers: one method per grammar rule, making a typed AST node (:mod:`.ast`) with its
``Span`` from the rule's children.

The same handlers serve both ways of parsing: while Lark reduces (:class:`_InlineHandlers`, called by
the per-rule callbacks of :mod:`.inline_parse`) and over a finished parse tree (:class:`_TreeToAst`,
the fallback when Lark's internals are not the known ones).  A new construct in the grammar gets its
handler here, named as the rule (or its alias).
"""
from __future__ import annotations

from typing import Any

from ..lazy_names import import_deferring

import_deferring("lark", "regex")  # (its optional `regex` loads when first used: pyopl.lazy_names)
from lark import Token, Transformer, Tree

from ..diagnostics.diagnostic import Edit, Fix, Span
from . import ast as A
from .number_literals import float_literal, shown


def _span(file: str, meta) -> Span:
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(file: str, tok: Token) -> Span:
    if tok.line is None:  # a token inserted by error recovery
        return Span(file, 1, 1, 1, 1)
    return Span(file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok))


class _Handlers:
    """One method per grammar rule or alias, ``(meta, children) -> AST value``, called as Lark
    reduces (:func:`_make_callback`) or over a finished tree (:class:`_TreeToAst`)."""

    def __init__(self, file: str, reporter, source: str = ""):
        self.file = file
        self.reporter = reporter
        self.source = source

    def _s(self, meta) -> Span:
        return _span(self.file, meta)

    def _t(self, tok: Token) -> Span:
        return _tok_span(self.file, tok)

    def _string_value(self, tok: Token) -> str:
        """A STRING token's value, with OPL0931 at each escape OPL does not define."""
        if "\\" not in tok or tok.line is None:
            return _unquote(str(tok))
        return unquote_warning(self.reporter, str(tok), self.file, tok.line, tok.column)

    # --- model items
    def start(self, meta, items):
        out = []
        for i in items:
            if isinstance(i, list):  # `assert { ... }` gives one item per condition
                out.extend(i)
            elif i is not None:
                out.append(i)
        return out

    def empty_item(self, meta, _):
        return None

    def decl(self, meta, c):
        param, type_ref, name, dims, withc, init = c
        if param is not None:
            self.reporter.emit("dialect-param-keyword", self._t(param),
                               "`param` is not OPL; pyopl accepts it and ignores it",
                               help="remove `param`: OPL declares data as `float name[...] = ...;`",
                               fix=Fix("remove `param`", (Edit(Span(self.file, param.line, param.column, param.line,
                                                                    param.column + len("param ")), ""),)))
        return A.ParamDecl(self._s(meta), str(name), self._t(name), type_ref, dims or [], init, withc or [])

    def with_clause(self, meta, c):
        return [pair for item in c for pair in item]

    def with_item(self, meta, c):
        # `with origin, destination in Nodes`: several fields sharing one set
        return [(str(tok), c[-1]) for tok in c[:-1]]

    def float_range_decl(self, meta, c):
        _, name, expr = c
        t = A.TypeRef(self._s(meta), "float", True)
        return A.ParamDecl(self._s(meta), str(name), self._t(name), t, [], expr)

    def float_range_decl_ext(self, meta, c):
        _, name, tok = c
        t = A.TypeRef(self._s(meta), "float", True)
        return A.ParamDecl(self._s(meta), str(name), self._t(name), t, [], A.External(self._t(tok)))

    def range_decl(self, meta, c):
        name, expr = c
        return A.RangeDecl(self._s(meta), str(name), self._t(name), expr)

    def range_decl_ext(self, meta, c):
        name, tok = c
        return A.RangeDecl(self._s(meta), str(name), self._t(name), A.External(self._t(tok)))

    def external(self, meta, c):
        return A.External(self._s(meta))

    def dims(self, meta, c):
        return list(c)

    def dim_set(self, meta, c):
        e = c[0]
        # `[<i, j> in Arcs]` parses as a membership test; it is a tuple-pattern dimension.
        if isinstance(e, A.Binary) and e.op == "in" and isinstance(e.left, A.TupleLit):
            pat = _as_pattern(e.left)
            if pat is not None:
                return A.Dim(self._s(meta), e.right, None, pat)
        return A.Dim(self._s(meta), e)

    def dim_generic(self, meta, c):
        return A.Dim(self._s(meta), c[1], str(c[0]))

    def type_spec(self, meta, c):
        return c[0]

    def set_type(self, meta, c):
        order = c[0] if len(c) == 2 else None
        return A.TypeRef(self._s(meta), c[-1].name, True, order)

    def set_order(self, meta, c):
        return str(c[0])

    def setof_type(self, meta, c):
        """``setof(T)``, ``sorted setof(T)``, ``ordered``/``reversed setof(T)``: as ``{T}`` with that order."""
        order = c[0] if len(c) == 2 else None
        return A.TypeRef(self._s(meta), c[-1].name, True, order)

    def base_type(self, meta, c):
        return A.TypeRef(self._s(meta), str(c[0]))

    def dvar_decl(self, meta, c):
        vtype, name, dims, domain = c
        return A.DvarDecl(self._s(meta), str(name), self._t(name), vtype, dims or [], domain)

    def dvar_alias(self, meta, c):
        vtype, name, dims, alias = c
        return A.DvarDecl(self._s(meta), str(name), self._t(name), vtype, dims or [], None, alias=alias)

    def interval_alias(self, meta, c):
        name, dims, alias = c
        return A.IntervalDecl(self._s(meta), str(name), self._t(name), "interval", dims or [], None, alias=alias)

    def interval_decl(self, meta, c):
        name, dims, *parts = c
        d = A.IntervalDecl(self._s(meta), str(name), self._t(name), "interval", dims or [], None)
        for kind, value in parts:
            setattr(d, kind, value)
        return d

    def iv_optional(self, meta, c):
        return "optional", c[0] if c[0] is not None else A.Const(self._s(meta), True)

    def iv_in(self, meta, c):
        return "domain", c[0]

    def iv_size(self, meta, c):
        return "size", c[0]

    def iv_intensity(self, meta, c):
        return "intensity", c[0]

    def sequence_decl(self, meta, c):
        name, dims, intervals, types = c
        return A.SequenceDecl(self._s(meta), str(name), self._t(name), "sequence", dims or [], intervals, types=types)

    def cumul_decl(self, meta, c):
        name, dims, expr = c
        return A.CumulDecl(self._s(meta), str(name), self._t(name), A.TypeRef(self._s(meta), "cumulFunction"),
                           dims or [], expr)

    def dvar_type(self, meta, c):
        return str(c[0])

    def dexpr_decl(self, meta, c):
        type_ref, name, dims, expr = c
        return A.DexprDecl(self._s(meta), str(name), self._t(name), type_ref, dims or [], expr)

    def tuple_decl(self, meta, c):
        name, *fields = c
        return A.TupleDecl(self._s(meta), str(name), self._t(name), list(fields))

    def tuple_field(self, meta, c):
        key, type_ref, name, dims = c
        return A.TupleField(self._t(name), str(name), type_ref, key is not None, dims or [])

    def constraint_decl(self, meta, c):
        name, dims = c
        return A.ConstraintDecl(self._s(meta), str(name), self._t(name), dims or [])

    def using_decl(self, meta, c):
        return A.Using(self._s(meta), str(c[0]))

    def assert_stmt(self, meta, c):
        name, body = c
        quals, body, inner = _assert_parts(body)
        name = name or inner
        return A.Assert(self._s(meta), body, str(name) if name else None, quals)

    def assert_block(self, meta, c):
        out = []
        for body in c:
            quals, body, inner = _assert_parts(body)
            out.append(A.Assert(body.span, body, str(inner) if inner else None, quals))  # a failure points at its own condition
        return out

    def pwl_decl(self, meta, c):
        name, dims = c[0], c[1]
        fn = self._piecewise(meta, [x for x in c[2:] if x is not None] or [None], False)
        return A.PwlDecl(self._s(meta), str(name), self._t(name), fn, dims or [])

    def assert_forall(self, meta, c):
        return (c[0], c[1])

    def assert_forall_named(self, meta, c):  # `assert forall(k in K) name: cond;` (IBM's labelled form)
        return (c[0], (str(c[1]), c[2]), "named")

    def include_stmt(self, meta, c):
        return A.Include(self._s(meta), self._string_value(c[0]))

    def script_block(self, meta, c):
        kind = str(c[0])
        name = str(c[1]) if len(c) == 3 and c[1] is not None else None
        return A.ScriptBlock(self._s(meta), kind, name)

    def objective(self, meta, c):
        sense, name, expr = c
        return A.Objective(self._s(meta), str(sense.children[0]), expr, str(name) if name else None)

    def objective_eq(self, meta, c):
        sense, name, expr = c
        # `minimize Name = expr;` is not OPL (the label takes `:`), but the intent is unambiguous.
        at = self._t(name)
        self.reporter.emit("dialect-objective-equals", at, "an objective label takes `:`, not `=`",
                           help="write `%s %s: ...`" % (sense.children[0], name))
        return A.Objective(self._s(meta), str(sense.children[0]), expr, str(name))

    def constraints_block(self, meta, c):
        return A.ConstraintsBlock(self._s(meta), [s for s in c if s is not None])

    # --- constraint statements
    def cons(self, meta, c):
        return A.ConsStmt(self._s(meta), c[0])

    def labelled_cons(self, meta, c):
        label, expr = c
        if not _is_label(label):
            self.reporter.emit("syntax-bad-label", label.span,
                               "a constraint label must be a name or an indexed name",
                               help="write a label such as `ctName:` or `ctName[i]:`")
        return A.ConsStmt(self._s(meta), expr, label)

    def forall(self, meta, c):
        return A.Forall(self._s(meta), c[0], c[1])

    def labelled_forall(self, meta, c):
        label, quals, body = c
        # The label names every constraint of the forall: push it down onto unlabelled bodies.
        return A.Forall(self._s(meta), quals, _with_label(body, label))

    def assigned_forall(self, meta, c):
        # The older OPL syntax `constraint ct; ... ct = forall(...) body;` labels the forall's rows.
        label, quals, body = c
        if not _is_label(label):
            self.reporter.emit("syntax-bad-label", label.span, "a constraint label must be a name or an indexed name",
                               help="write a label such as `ct = forall(...) ...;` or `ct[i] = ...;`")
        return A.Forall(self._s(meta), quals, _with_label(body, label))

    def assigned_cons(self, meta, c):
        """``ct = x + y <= 3;`` and ``ct[m] = x[m] <= 3;``: IBM's older syntax labelling a constraint
        (``constraint ct;`` / ``constraint ct[M];`` declared before, as in IBM's ``hopcalls.mod``);
        ``x = 3;`` meant ``x == 3``: said so, and read that way."""
        left, expr = c
        if _is_constraint_like(expr) and _is_label(left):
            return A.ConsStmt(self._s(meta), expr, left)
        at = self._assign_span(left, expr)
        self.reporter.emit("syntax-assign-in-constraint", at, "`=` assigns a value; to compare, use `==`",
                           help="write `==` for an equality constraint", fix=Fix("replace `=` with `==`", (Edit(at, "=="),)))
        return A.ConsStmt(self._s(meta), A.Compare(self._s(meta), [left, expr], ["=="], [at]))

    def _assign_span(self, left: A.Expr, expr: A.Expr) -> Span:
        """The `=` between ``left`` and ``expr`` (the first `=` after ``left`` ends)."""
        lines = self.source.split("\n") if self.source else []
        line, col = left.span.end_line, left.span.end_column
        while 0 < line <= len(lines):
            k = lines[line - 1].find("=", col - 1)
            if k >= 0:
                return Span(self.file, line, k + 1, line, k + 2)
            line, col = line + 1, 1
        return left.span

    def cif(self, meta, c):
        cond, then, other = c
        return A.IfStmt(self._s(meta), cond, then, other)

    def labelled_cif(self, meta, c):
        # `ct: if (c) { ... } else { ... }`: the label names the constraints of both branches
        label, cond, then, other = c
        if not _is_label(label):
            self.reporter.emit("syntax-bad-label", label.span,
                               "a constraint label must be a name or an indexed name",
                               help="write a label such as `ctName:` or `ctName[i]:`")
        return _with_label(A.IfStmt(self._s(meta), cond, then, other), label)

    def cblock(self, meta, c):
        return A.Block(self._s(meta), [s for s in c if s is not None])

    def cempty(self, meta, _):
        return None

    # --- iteration
    def qualifiers(self, meta, c):
        return A.Qualifiers(self._s(meta), _joins(list(c)))

    def qualifier(self, meta, c):
        b, flt = c  # a new Binder: handlers never change a child (trial parses share them)
        return A.Binder(self._s(meta), b.patterns, b.domain, flt, b.ordered)

    def q_name(self, meta, c):
        name, dom = c
        return A.Binder(self._s(meta), [A.Pattern(self._t(name), str(name))], dom)

    def q_names(self, meta, c):
        *names, dom = c
        return A.Binder(self._s(meta), [A.Pattern(self._t(n), str(n)) for n in names], dom)

    def q_pattern(self, meta, c):
        return A.Binder(self._s(meta), [c[0]], c[1])

    def q_ordered(self, meta, c):
        _, *names, dom = c
        return A.Binder(self._s(meta), [A.Pattern(self._t(n), str(n)) for n in names], dom, ordered=True)

    def tuple_pattern(self, meta, c):
        return A.Pattern(self._s(meta), None, list(c))

    def pat_name(self, meta, c):
        return A.Pattern(self._t(c[0]), str(c[0]))

    def pat_field(self, meta, c):
        e: A.Expr = A.Name(self._t(c[0]), str(c[0]))
        for tok in c[1:]:
            e = A.Field(self._s(meta), e, str(tok), self._t(tok))
        return A.Pattern(self._s(meta), None, None, e)

    def pat_string(self, meta, c):
        """A constant in a tuple pattern (``<b, c, "diesel"> in buses``): the component must equal it."""
        return A.Pattern(self._s(meta), None, None, self.string(meta, c))

    def pat_number(self, meta, c):
        return A.Pattern(self._s(meta), None, None, self.number(meta, c))

    def pat_neg_number(self, meta, c):
        return A.Pattern(self._s(meta), None, None, self.neg(meta, [self.number(meta, c)]))

    # --- expressions
    def conditional(self, meta, c):
        return A.Conditional(self._s(meta), *c)

    def implies(self, meta, c):
        return A.Binary(self._s(meta), "=>", c[0], c[1])

    def or_(self, meta, c):
        return A.Binary(self._s(meta), "||", c[0], c[-1])

    def and_(self, meta, c):
        return A.Binary(self._s(meta), "&&", c[0], c[-1])

    def compare(self, meta, c):
        operands = c[0::2]
        toks = [t.children[0] for t in c[1::2]]
        return A.Compare(self._s(meta), operands, [str(t) for t in toks], [self._t(t) for t in toks])

    def in_(self, meta, c):
        return A.Binary(self._s(meta), "in", c[0], c[1])

    def not_in(self, meta, c):
        return A.Binary(self._s(meta), "not in", c[0], c[1])

    def range_lit(self, meta, c):
        return A.RangeLit(self._s(meta), c[0], c[1])

    def _bin(op):  # noqa: N805  (a factory of handler methods, one per binary operator)
        def method(self, meta, c):
            return A.Binary(self._s(meta), op, c[0], c[1])
        return method

    union, diff, symdiff = _bin("union"), _bin("diff"), _bin("symdiff")
    add, sub, mul, div = _bin("+"), _bin("-"), _bin("*"), _bin("/")
    intdiv, mod, inter = _bin("div"), _bin("mod"), _bin("inter")

    def neg(self, meta, c):
        if isinstance(c[0], A.Const) and isinstance(c[0].value, (int, float)) and not isinstance(c[0].value, bool):
            return A.Const(self._s(meta), -c[0].value)
        return A.Unary(self._s(meta), "-", c[0])

    def not_(self, meta, c):
        return A.Unary(self._s(meta), "!", c[0])

    def aggregate(self, meta, c):
        return A.Aggregate(self._s(meta), str(c[0]), c[1], c[2])

    def aggregate_all(self, meta, c):
        # `all(i in I) e`: OPL's array of expressions (an argument of `allDifferent` and the like)
        return A.Aggregate(self._s(meta), "all", c[0], c[1])

    def aggregate_all_indexed(self, meta, c):
        # `all[R](i in I) e` (OPL manual, "Initialization of decision variable arrays"): the cells
        # in order; the index sets in brackets are the ones of the array being declared
        return A.Aggregate(self._s(meta), "all", c[-2], c[-1])

    def piecewise(self, meta, c):
        return self._piecewise(meta, c, True)

    def _piecewise(self, meta, c, has_arg: bool) -> A.Piecewise:
        quals = c[0] if isinstance(c[0], A.Qualifiers) else None
        rest = c[1:] if quals is not None or c[0] is None else c
        rest = [x for x in rest if x is not None]
        arg = rest.pop() if has_arg else None
        anchor = None
        if rest and isinstance(rest[-1], tuple) and rest[-1][0] == "anchor":
            anchor = rest.pop()[1]
        slopes, breaks, last = [], [], None
        for n, (kind, *vals) in enumerate(rest):
            if kind == "sb":
                slopes.append(vals[0])
                breaks.append(vals[1])
            elif n == len(rest) - 1:
                last = vals[0]
            else:  # a lone slope before a `slope -> breakpoint` item
                self._piecewise_shape(vals[0].span, "a slope without a breakpoint is allowed only as the last "
                                      "item", "write `slope -> breakpoint` here, or move this slope to the end")
        if last is None:  # IBM's syntax requires the final slope (OPL language reference, "piecewise")
            self._piecewise_shape(self._s(meta), "this piecewise function has no final slope (the slope after "
                                  "the last breakpoint)", "end the list with the slope that holds past the last "
                                  "breakpoint, e.g. `piecewise{1 -> 5; 2 -> 9; 0}` (0 if the function is flat there)")
            last = A.Const(self._s(meta), 0)  # keeps the later stages going; the error stops the compile
        return A.Piecewise(self._s(meta), quals, slopes, breaks, last, anchor, arg)

    def piecewise_fn(self, meta, c):
        """``piecewise{...}(x0, y0)`` without an argument: the function itself (``endEval(a, piecewise{...}(x0, y0))``)."""
        return self._piecewise(meta, [x for x in c if x is not None] or [None], False)

    def stepwise(self, meta, c):
        """``stepwise(quals){v1 -> t1; ...; vLast}``: the items are the pairs and one last value, as ``piecewise``."""
        fn = self._piecewise(meta, [x for x in c if x is not None] or [None], False)
        return A.Stepwise(fn.span, fn.quals, fn.slopes, fn.breaks, fn.last_slope)

    def _piecewise_shape(self, span: Span, message: str, help: str) -> None:
        """Report a `piecewise{...}` whose items are not `slope -> breakpoint` pairs and one final slope."""
        self.reporter.emit("syntax-piecewise-final-slope", span, message, help=help)

    def pw_slope_break(self, meta, c):
        return ("sb", c[0], c[1])

    def pw_last_slope(self, meta, c):
        return ("last", c[0])

    def pw_anchor(self, meta, c):
        return ("anchor", (c[0], c[1]))

    def pow_(self, meta, c):
        return A.Binary(self._s(meta), "^", c[0], c[1])

    def index(self, meta, c):
        return A.Index(self._s(meta), c[0], list(c[1:]))

    def field(self, meta, c):
        return A.Field(self._s(meta), c[0], str(c[1]), self._t(c[1]))

    def number(self, meta, c):
        text = str(c[0])
        if not any(ch in text for ch in ".eE") and len(text.lstrip("0")) > 309:  # past 1.8e308 (and int()'s digit limit)
            self.reporter.emit("number-too-large", self._t(c[0]), "the number %s...%s (%d digits) is larger than any "
                               "floating-point number" % (text[:6], text[-3:], len(text)),
                               help="use a number below 1.8e308; a huge value is usually a unit or a missing decimal point")
            return A.Const(self._s(meta), 0)
        value = float_literal(text) if any(ch in text for ch in ".eE") else int(text)
        if value is None:  # `1e309`, `1.8e308`: float() gives infinity, silently (issue 33)
            self.reporter.emit("number-too-large", self._t(c[0]), "the number %s is larger than any floating-point "
                               "number (about 1.8e308)" % shown(text),
                               help="use a number below 1.8e308, or `infinity` if no bound is meant")
            return A.Const(self._s(meta), 0)
        return A.Const(self._s(meta), value)

    def string(self, meta, c):
        return A.Const(self._s(meta), self._string_value(c[0]))

    def name(self, meta, c):
        return A.Name(self._s(meta), str(c[0]))

    def infinity(self, meta, c):
        return A.Const(self._s(meta), float("inf"))

    def maxint(self, meta, c):
        return A.Const(self._s(meta), 2**31 - 1)

    def true_(self, meta, c):
        return A.Const(self._s(meta), True)

    def false_(self, meta, c):
        return A.Const(self._s(meta), False)

    def call(self, meta, c):
        name, *args = c
        return A.Call(self._s(meta), str(name), [a for a in args if a is not None], self._t(name))

    def cast(self, meta, c):
        return A.Cast(self._s(meta), str(c[0]), c[1])

    def array_lit(self, meta, c):
        return A.ArrayLit(self._s(meta), [x for x in c if x is not None])

    def array_comp(self, meta, c):
        return A.ArrayComp(self._s(meta), c[0], c[1])

    def array_comp_keyed(self, meta, c):
        return A.ArrayComp(self._s(meta), c[1], c[2], key=c[0])

    def keyed_cell(self, meta, c):
        # `[k : v]`: one keyed cell, the value of a keyed comprehension `[i : [j : v] | i, j in S]`.
        return A.KeyedArrayLit(self._s(meta), [(c[0], c[1])])

    def set_lit(self, meta, c):
        return A.SetLit(self._s(meta), [x for x in c if x is not None])

    def set_comp(self, meta, c):
        return A.SetComp(self._s(meta), c[0], c[1])

    def tuple_lit(self, meta, c):
        return A.TupleLit(self._s(meta), list(c))

    def keyed_array_lit(self, meta, c):
        return A.KeyedArrayLit(self._s(meta), [x for x in c if x is not None])

    def keyed_item(self, meta, c):
        return (c[0], c[1])


_HANDLERS = {k: f for k, f in vars(_Handlers).items() if not k.startswith("_") and callable(f)}


class _TreeToAst(Transformer):
    """The handlers over a finished parse tree: the path taken if this Lark's internals are unknown."""

    def __init__(self, handlers: _Handlers):
        super().__init__()
        self._h = handlers

    def __default__(self, data, children, meta):
        f = _HANDLERS.get(data)
        return Tree(data, children, meta) if f is None else f(self._h, meta, children)


class _InlineHandlers(_Handlers):
    """The handlers while Lark parses: ``meta`` is the (first, last) token of the node."""

    def _s(self, meta) -> Span:
        a, b = meta
        return Span(self.file, a.line, a.column, b.end_line, b.end_column)


def _as_pattern(e: A.Expr) -> "A.Pattern | None":
    """A tuple literal of names (possibly nested) as a tuple pattern; None if it holds anything else."""
    if isinstance(e, A.Name):
        return A.Pattern(e.span, e.id)
    if isinstance(e, A.TupleLit):
        items = [_as_pattern(x) for x in e.items]
        return None if any(p is None for p in items) else A.Pattern(e.span, None, items)
    return None


def _with_label(stmt: A.Stmt, label: A.Expr) -> A.Stmt:
    """``stmt`` with ``label`` on each unlabelled constraint in it (new nodes where it changes)."""
    if isinstance(stmt, A.ConsStmt) and stmt.label is None:
        return A.ConsStmt(stmt.span, stmt.expr, label)
    if isinstance(stmt, A.Forall):
        return A.Forall(stmt.span, stmt.quals, _with_label(stmt.body, label))
    if isinstance(stmt, A.Block):
        return A.Block(stmt.span, [_with_label(s, label) for s in stmt.stmts])
    if isinstance(stmt, A.IfStmt):
        other = None if stmt.other is None else _with_label(stmt.other, label)
        return A.IfStmt(stmt.span, stmt.cond, _with_label(stmt.then, label), other)
    return stmt


def _is_constraint_like(e: A.Expr) -> bool:
    if isinstance(e, A.Compare):
        return True
    if isinstance(e, A.Binary) and e.op in ("&&", "||", "=>"):
        return True
    return isinstance(e, A.Unary) and e.op == "!"


def _is_label(e: A.Expr) -> bool:
    if isinstance(e, A.Name):
        return True
    return isinstance(e, A.Index) and _is_label(e.base)


#: OPL string escapes (as in C, which the OPL language reference follows): the one-letter ones
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\", "'": "'"}
_OCTAL, _HEX = "01234567", "0123456789abcdefABCDEF"


def _unquote(s: str, unknown: list | None = None) -> str:
    """The value of a string literal (with its quotes): a backslash before a line break joins the
    lines; escapes as in C (``\\n``, ``\\t``,
    ``\\r``, ``\\b``, ``\\f``, ``\\"``, ``\\\\``, octal ``\\ooo``, hex ``\\xhh``); a backslash
    before any other character stands for that character, as IBM's parser reads it. ``unknown``,
    when given, gets ``(offset of the backslash in s, the character after it)`` for each such escape
    (``\\u``, ``\\q``, ``\\x`` without a hex digit; ``\\'``, same value either way, is not one)."""
    body = s[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        if body[i] != "\\" or i + 1 >= len(body):
            out.append(body[i])
            i += 1
            continue
        c = body[i + 1]
        if c in "\r\n":  # `\` at the end of a line continues the string on the next (IBM: both lines, joined)
            i += 3 if body.startswith("\r\n", i + 1) else 2
            continue
        if c in _OCTAL:  # up to three octal digits
            j = i + 1
            while j < min(i + 4, len(body)) and body[j] in _OCTAL:
                j += 1
            out.append(chr(int(body[i + 1:j], 8)))
            i = j
        elif c == "x" and i + 2 < len(body) and body[i + 2] in _HEX:  # one or two hex digits
            j = i + 2
            while j < min(i + 4, len(body)) and body[j] in _HEX:
                j += 1
            out.append(chr(int(body[i + 2:j], 16)))
            i = j
        else:
            if unknown is not None and c not in _ESCAPES:
                unknown.append((i + 1, c))
            out.append(_ESCAPES.get(c, c))
            i += 2
    return "".join(out)


def unquote_warning(reporter: Any, literal: str, file: str, line: int, column: int) -> str:
    """The value of the string ``literal`` (:func:`_unquote`), with warning OPL0931 at each escape
    IBM's OPL does not define, its span the two characters (``\\u``) at ``line``/``column`` (where
    the literal's opening quote is, 1-based) plus the offset. IBM's table ("Strings" in the OPL
    language reference): ``\\b \\t \\n \\f \\r \\" \\\\ \\ooo \\xXX`` and a backslash before a line
    break. The value stays IBM's (the backslash dropped): the warning only says so."""
    unknown: list = []
    value = _unquote(literal, unknown)
    for off, c in unknown:
        before = literal[:off]
        at_line = line + before.count("\n")
        at_col = column + off if "\n" not in before else off - before.rfind("\n")
        shown = c if c.isprintable() else repr(c)[1:-1]
        if c == "x":
            fix = "`\\x` takes one or two hex digits (`\\x41` is `A`); to keep the backslash, write `\\\\`"
        elif c == "u":
            fix = "OPL has no `\\u` escape: write the character itself (files are read as UTF-8)"
        else:
            fix = "to keep the backslash, write `\\\\` (or `/` in a file path)"
        reporter.emit("string-unknown-escape", Span(file, at_line, at_col, at_line, at_col + 2),
                      "`\\%s` is not an OPL string escape: it is read as `%s`, the backslash dropped" % (shown, shown),
                      help=fix + "; OPL's escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\ooo (octal) \\xXX (hex)")
    return value


def _joins(binders: list) -> list:
    """Binders with each name of a tuple pattern that an *earlier* binder of the same iteration
    bound turned into an equality component (``<o,h,s> in T, <o,h,d> in R``: the second ``o`` and
    ``h`` must equal the first), the join IBM's examples rely on. New nodes only: handlers never
    change a child. A repeated plain iterator (``i in I, i in J``) stays as it is (OPL0116)."""
    bound: set[str] = set()
    out = []
    for b in binders:
        pats = [_join_pattern(p, bound) if p.items is not None else p for p in b.patterns]
        if any(p is not q for p, q in zip(pats, b.patterns)):
            b = A.Binder(b.span, pats, b.domain, b.filter, b.ordered)
        for p in pats:
            bound.update(p.names())
        out.append(b)
    return out


def _join_pattern(p, bound: set):
    if p.name is not None:
        return A.Pattern(p.span, None, None, A.Name(p.span, p.name)) if p.name in bound else p
    if p.items is None:
        return p
    items = [_join_pattern(q, bound) for q in p.items]
    return p if all(a is b for a, b in zip(items, p.items)) else A.Pattern(p.span, None, items)


def _assert_parts(body):
    """An assertion body as (forall qualifiers, condition, label or None): ``assert_forall`` gives
    ``(quals, body)``, ``assert_forall_named`` ``(quals, (label, body), "named")``."""
    quals, name = [], None
    while isinstance(body, tuple):
        quals.append(body[0])
        body = body[1]
        if isinstance(body, tuple) and len(body) == 2 and isinstance(body[0], str):
            name, body = body
    return quals, body, name

