"""Static rules on the AST, before any data is read: decisions where data is needed,
index counts, tuple types, labels, calls, and warnings (shadowing, unused names).

Each rule reports at the smallest span and never more than once per place; the
lowering stage may find the same problem later, and the reporter drops an error
that starts where an earlier one does, so nothing is said twice.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..diagnostics.diagnostic import Edit, Fix, Label, Span
from ..diagnostics.reporter import Reporter, near_miss, one_of, rename_applicability, rename_suggestion
from ..lowering.functions.builtins import BUILTINS, CP_FUNCTIONS, DATA_CP_FUNCTIONS
from ..syntax import ast as A
from .fields import _FIELDS, child_fields

_WORD = re.compile(r"[A-Za-z_]\w*")

#: The CP constraints that pyopl compiles to OR-Tools CP-SAT in a `using CP;` model (docs/cp.md).
CP_SUPPORTED = frozenset("""allDifferent count inverse noOverlap alternative span synchronize startOf endOf sizeOf
lengthOf presenceOf pulse stepAtStart stepAtEnd alwaysIn endBeforeStart endBeforeEnd startBeforeStart startBeforeEnd
startAtStart startAtEnd endAtStart endAtEnd allMinDistance lex pack step before alwaysEqual
allowedAssignments forbiddenAssignments append typeOfNext typeOfPrev startOfNext startOfPrev endOfNext endOfPrev
sizeOfNext sizeOfPrev lengthOfNext lengthOfPrev cumulFunctionValue stateFunctionValue heightAtStart overlapLength subCircuit sameSequence element
forbidStart forbidEnd forbidExtent startEval endEval sizeEval lengthEval strong
alwaysConstant alwaysNoState heightAtEnd isomorphism sameCommonSubsequence
numberOfSegments segmentStart segmentEnd segmentValue""".split())


def _within_0_1(domain: A.Expr) -> bool:
    """``lo..hi`` written with the constants 0 and 1 (``dvar boolean b in 0..1``, ``in 1..1``)."""
    if not isinstance(domain, A.RangeLit):
        return False
    ends = [domain.lo, domain.hi]
    return all(isinstance(e, A.Const) and e.value in (0, 1) and not isinstance(e.value, str) for e in ends) \
        and ends[0].value <= ends[1].value


def uses_cp(model: A.Model) -> bool:
    """Whether ``model`` starts CP Optimizer's semantics with ``using CP;`` (OPL manual, "using")."""
    return any(isinstance(i, A.Using) and i.engine.upper() == "CP" for i in model.items)


_CASTS_AND_MISC = {"int", "float", "staticLexFull", "ftoi", "trunc", "sgn", "sqrt", "exp", "log", "lg", "ln",
                   "sin", "cos", "tan", "abs", "floor", "ceil", "round", "frac", "prev", "next"}


@dataclass
class _Sym:
    """A declared name as the static checks see it: kind, declaration, dimensions, element type, use."""

    kind: str  # param | set | dvar | dexpr | tuple | constraint
    decl: Any
    dims: int = 0
    dim_types: list = field(default_factory=list)  # tuple type of each dimension's index set, or None
    elem: str | None = None  # tuple type of a set's elements
    used: bool = False


def _walk(node: Any) -> Iterator[Any]:
    """Every AST node under ``node`` (pre-order), including ``node``."""
    stack = [node]
    pop, push = stack.pop, stack.append
    node_cls, known = A.Node, _FIELDS
    while stack:
        n = pop()
        if isinstance(n, node_cls):
            yield n
            d = n.__dict__
            names = known.get(n.__class__)
            if names is None or len(d) != names[1]:
                names = child_fields(n)
            else:
                names = names[0]
            for v in (d.values() if names is None else [d[k] for k in names]):
                if isinstance(v, node_cls):
                    push(v)
                elif isinstance(v, (list, tuple)):
                    for x in v:
                        if isinstance(x, node_cls):
                            push(x)
                        elif isinstance(x, tuple):
                            stack.extend(y for y in x if isinstance(y, node_cls))


def _children(node: A.Node) -> Any:
    """``vars(node).values()`` without the fields that never hold a node."""
    names = child_fields(node)
    if names is None:
        return vars(node).values()
    d = node.__dict__
    return [d[k] for k in names]


class _Lazy:
    """A value computed on first use, then kept."""

    def __init__(self, make):
        self.make = make
        self.value = None

    def get(self) -> Any:
        """The value (computed now if this is the first call)."""
        if self.value is None:
            self.value = self.make()
        return self.value


def _binder_names(node: A.Node) -> set[str]:
    out: set[str] = set()
    for n in _walk(node):
        if isinstance(n, A.Pattern):
            out.update(n.names())
    return out


class StaticRules:
    def __init__(self, model: A.Model, reporter: Reporter):
        self.model = model
        self.r = reporter
        self.syms: dict[str, _Sym] = {}
        self.tuple_names: set[str] = set()  # the names of syms of kind "tuple" (kept as they are added)
        self.text = model.source or ""
        self.using_cp = uses_cp(model)
        self._nodes: dict[int, list] = {}  # item id -> its nodes in _walk order (items are walked often)

    def nodes(self, item: Any) -> list:
        """``list(_walk(item))``, kept: several rules walk every item and the AST does not change."""
        got = self._nodes.get(id(item))
        if got is None:
            got = self._nodes[id(item)] = list(_walk(item))
        return got

    # ------------------------------------------------------------------ symbol table
    def collect(self) -> None:
        for item in self.model.items:
            if isinstance(item, A.TupleDecl):
                if self.syms.setdefault(item.name, _Sym("tuple", item)).kind == "tuple":
                    self.tuple_names.add(item.name)
            elif isinstance(item, A.ParamDecl):
                kind = "set" if item.type.is_set and not item.dims else "param"
                elem = item.type.name if item.type.is_set else None
                self.syms.setdefault(item.name, _Sym(kind, item, len(item.dims), self._dim_types(item.dims), elem))
            elif isinstance(item, A.RangeDecl):
                self.syms.setdefault(item.name, _Sym("set", item))
            elif isinstance(item, A.DvarDecl):
                self.syms.setdefault(item.name, _Sym("dvar", item, len(item.dims), self._dim_types(item.dims)))
            elif isinstance(item, A.DexprDecl):
                self.syms.setdefault(item.name, _Sym("dexpr", item, len(item.dims), self._dim_types(item.dims)))
            elif isinstance(item, A.ConstraintDecl):
                self.syms.setdefault(item.name, _Sym("constraint", item, len(item.dims)))

    def _dim_types(self, dims: list) -> list:
        out = []
        for d in dims:
            s = self.syms.get(d.domain.id) if isinstance(d.domain, A.Name) else None
            out.append(s.elem if s is not None and s.kind == "set" and s.elem in self._tuples() else None)
        return out

    def _tuples(self) -> set[str]:
        """The declared tuple type names (a set kept by :meth:`collect`: rebuilding it for every
        statement made the check quadratic in the number of declarations)."""
        return self.tuple_names

    # ------------------------------------------------------------------ helpers
    def _decision_names(self, expr: Any, local: set[str]) -> list[A.Name]:
        hits = []
        bound = set(local) | _binder_names(expr)
        for n in _walk(expr):
            if isinstance(n, A.Name) and n.id not in bound:
                s = self.syms.get(n.id)
                if s is not None and s.kind in ("dvar", "dexpr"):
                    hits.append(n)
        return hits

    def _decision(self, slug: str, expr: Any, local: set[str], what: str, help: str) -> bool:
        hits = self._decision_names(expr, local)
        if hits:
            n = hits[0]
            kind = "decision variable" if self.syms[n.id].kind == "dvar" else "decision expression"
            self.r.emit(slug, n.span, "%s cannot depend on the %s `%s`" % (what, kind, n.id), help=help)
            return True
        return False

    # ------------------------------------------------------------------ entry
    def run(self) -> None:
        self.collect()
        self.mark_used()
        after_model = False
        for item in self.model.items:
            if isinstance(item, (A.Objective, A.ConstraintsBlock)):
                after_model = True
            elif after_model and isinstance(item, A.ParamDecl) and self._decision_names(item, set()):
                if item.name in self.syms:  # OPL post-processing: computed from the solution and shown in the results
                    self.syms[item.name].used = True
                continue
            if isinstance(item, (A.ParamDecl, A.DvarDecl, A.DexprDecl, A.ConstraintDecl)):
                self.dims(item)
            if isinstance(item, A.DvarDecl):
                self.dvar(item)
            elif isinstance(item, A.RangeDecl):
                self.range_decl(item)
            elif isinstance(item, A.ParamDecl):
                self.param(item)
            elif isinstance(item, A.Objective):
                self.objective(item)
            elif isinstance(item, A.ConstraintsBlock):
                self.constraints(item)
            elif isinstance(item, A.Assert) and not after_model:  # after the model: checked on the solution
                self._decision("decision-in-assert", item.expr, set(), "an assertion",
                               "assertions check data before solving; state it as a constraint in `subject to` instead")
            self.exprs(item)
        self.unused()

    def dims(self, item: Any) -> None:
        for d in item.dims:
            self._decision("decision-in-dims", d.domain, set(), "the index set of `%s`" % item.name,
                           "index sets are fixed before solving; declare the array over the largest set "
                           "and constrain the unused elements to 0")

    def dvar(self, d: A.DvarDecl) -> None:
        if d.domain is None or d.vtype in ("interval", "sequence"):
            return  # an interval's window is data (checked when lowered); a sequence's domain is intervals
        local = {dim.var for dim in d.dims if dim.var}
        if self._decision("decision-in-dvar-domain", d.domain, local, "the domain of `%s`" % d.name,
                          "write the bound as a constraint instead, e.g. `subject to { %s <= ...; }`" % d.name):
            return
        if d.vtype == "boolean" and not _within_0_1(d.domain):  # `in 0..1` is IBM's own form: allowed
            self.r.emit("boolean-domain", d.domain.span, "the boolean `%s` cannot have a domain: it is 0 or 1" % d.name,
                        help="remove `in ...`, or declare `%s` as `dvar int` with this domain" % d.name)
        elif d.vtype.endswith("+") and isinstance(d.domain, A.RangeLit) and _negative_const(d.domain.lo):
            self.r.emit("domain-sign-conflict", d.domain.lo.span,
                        "`%s` is declared `%s` (not negative), but its domain starts below 0" % (d.name, d.vtype),
                        help="write `%s` without `+` to allow negative values, or start the domain at 0" % d.vtype[:-1])

    def range_decl(self, d: A.RangeDecl) -> None:
        r = d.init
        if isinstance(r, A.RangeLit):
            self._range_literal(r, d.name)

    def _range_literal(self, r: A.RangeLit, name: str | None) -> None:
        for end in (r.lo, r.hi):
            if isinstance(end, A.Const) and isinstance(end.value, float) and not isinstance(end.value, bool):
                self.r.emit("range-bounds-not-int", end.span, "a range's bounds are integers, but this is %s" % _num(end.value),
                            help="use integer bounds; for a continuous interval use a `dvar float x in lo..hi` domain")
                return
        lo, hi = _int_const(r.lo), _int_const(r.hi)
        if lo is not None and hi is not None and lo > hi:
            self.r.emit("empty-range", r.span, "the range %d..%d is empty (%d > %d)" % (lo, hi, lo, hi),
                        help="write `%d..%d` if the bounds are swapped" % (hi, lo))

    def _float_into_int(self, d: A.ParamDecl, init: Any) -> None:
        """``int i = round(4.7);``: IBM types ``round``, ``floor``, ``ceil`` and the other real functions
        ``float`` (OPL language reference, each function's "type"), so an ``int`` declared from one is a
        semantic error there; ``ftoi(...)`` converts.  Looked for at the top of the value (and of each
        array-literal item), through unary minus, ``+ - *`` and both branches of ``?:``."""
        for call in _float_calls(init.items if isinstance(init, A.ArrayLit) else [init]):
            if call.func in self.syms:  # a pwlFunction of the user's that happens to be called so
                continue
            fix = Fix("convert with `ftoi(...)`", (Edit(Span(call.span.file, call.span.line, call.span.column,
                                                              call.span.line, call.span.column), "ftoi("),
                                                    Edit(Span(call.span.file, call.span.end_line, call.span.end_column,
                                                              call.span.end_line, call.span.end_column), ")")),
                      "maybe-incorrect")
            self.r.emit("int-from-float-function", call.span,
                        "`%s` is declared `%s`, but `%s(...)` returns a float in OPL" % (d.name, d.type.name, call.func),
                        help="convert it with `ftoi(%s(...))`, or declare `%s` as `float`" % (call.func, d.name),
                        fix=fix)

    def param(self, d: A.ParamDecl) -> None:
        tname = d.type.name
        if not d.type.is_set and tname not in self.syms and tname not in ("int", "float", "string", "boolean", "int+", "float+"):
            from ..syntax.mistakes import _KEYWORD_WORDS, _SPELLINGS

            good = _SPELLINGS.get(tname.lower()) or near_miss(tname, _KEYWORD_WORDS)
            if good and good in ("minimize", "maximize", "dvar", "dexpr", "forall", "subject to", "constraints", "range",
                                 "tuple"):
                self.r.emit("syntax-misspelled-keyword", d.type.span,
                            "`%s` is not an OPL keyword; did you mean `%s`?" % (tname, good), help="write `%s`" % good,
                            fix=Fix("replace with `%s`" % good, (Edit(d.type.span, good),)))
        init = d.init
        if init is None:
            return
        if not d.type.is_set and tname in ("int", "int+"):
            self._float_into_int(d, init)
        if d.type.is_set and isinstance(init, A.Name):
            other = self.syms.get(init.id)
            if other is not None and other.kind == "set" and other.elem in self._tuples() and \
                    d.type.name in self._tuples() and other.elem != d.type.name:
                self.r.emit("tuple-type-mismatch", init.span,
                            "`%s` is a set of `%s`, but `%s` holds `%s` tuples" % (d.name, d.type.name, init.id, other.elem),
                            help="tuple types differ even when their fields match; declare `%s` as `{%s}`" % (
                                d.name, other.elem))
        if isinstance(init, A.SetLit):
            seen: dict[Any, A.Const] = {}
            for it in init.items:
                if isinstance(it, A.Const) and not isinstance(it.value, bool):
                    key = it.value
                    if key in seen:
                        self.r.emit("duplicate-set-element", it.span, "%s is listed twice in the set `%s`" % (
                            _show(key), d.name), labels=[Label(seen[key].span, "first listed here")],
                                    help="a set holds each value once; remove the repeat",
                                    fix=Fix("remove the repeated element", (Edit(_with_comma(self.text, it.span), ""),)))
                    else:
                        seen[key] = it

    def objective(self, o: A.Objective) -> None:
        e = o.expr
        if isinstance(e, A.Compare):
            self.r.emit("objective-is-comparison", e.span, "the objective is a comparison; it must be a numeric expression",
                        help="minimize or maximize the expression itself and move the comparison into `subject to`")
            return
        if isinstance(e, A.Const):
            return
        if not self._decision_names(e, set()) and not _calls(e, "staticLex"):
            self.r.emit("objective-without-decisions", e.span,
                        "the objective uses no decision variable, so every feasible solution is optimal",
                        help="check that the objective multiplies the data by the decision variables")

    def constraints(self, b: A.ConstraintsBlock) -> None:
        labels: dict[str, A.Node] = {}

        def stmt(s: Any, local: set[str], in_forall: bool) -> None:
            if isinstance(s, A.ConsStmt):
                self.label(s, labels, in_forall)
                self.index_counts(s.expr, local)
            elif isinstance(s, A.Forall):
                inner = local | _binder_names(s.quals)
                body = s.body
                if body is None or (isinstance(body, A.Block) and not body.stmts):
                    self.r.emit("empty-forall", s.span, "this `forall` has no constraint in its body",
                                help="add the constraint after `forall(...)`, or remove the loop")
                else:
                    stmt(body, inner, True)
            elif isinstance(s, A.Block):
                for x in s.stmts:
                    stmt(x, local, in_forall)
            elif isinstance(s, A.IfStmt):
                self._decision("decision-in-if", s.cond, local, "the condition of `if`",
                               "`if` is decided before solving; use a logical constraint, e.g. `b == 1 => x >= 3;`, "
                               "with a binary `b`")
                stmt(s.then, local, in_forall)
                if s.other is not None:
                    stmt(s.other, local, in_forall)

        for s in b.stmts:
            stmt(s, set(), False)

    def label(self, s: A.ConsStmt, labels: dict[str, A.Node], in_forall: bool) -> None:
        lab = s.label
        if lab is None:
            return
        base, k = lab, 0
        while isinstance(base, A.Index):
            k += len(base.indices)
            base = base.base
        if not isinstance(base, A.Name):
            return
        sym = self.syms.get(base.id)
        if sym is not None and sym.kind != "constraint":
            self.r.emit("label-clashes-with-declaration", base.span,
                        "the label `%s` is already the name of a %s" % (base.id, _what(sym.kind)),
                        labels=[Label(sym.decl.name_span, "declared here")],
                        help="give the constraint its own name, e.g. `ct%s`" % base.id[:1].upper() + base.id[1:])
            return
        if sym is not None and sym.kind == "constraint" and k and sym.dims and k != sym.dims:
            self.r.emit("label-index-count", lab.span, "`%s` is declared with %d dimension%s, but the label has %d index%s" % (
                base.id, sym.dims, "" if sym.dims == 1 else "s", k, "" if k == 1 else "es"),
                        labels=[Label(sym.decl.name_span, "declared here")],
                        help="give the label one index per dimension of `constraint %s`" % base.id)
            return
        if k == 0 and not in_forall:
            if base.id in labels:
                self.r.emit("duplicate-label", base.span, "the label `%s` is used twice" % base.id,
                            labels=[Label(labels[base.id].span, "first used here")],
                            help="each constraint needs its own label; rename this one")
            else:
                labels[base.id] = base

    def quals(self, q: A.Qualifiers, local: set[str]) -> set[str]:
        inner = set(local)
        names_here: dict[str, A.Pattern] = {}
        for b in q.binders:
            self._decision("decision-in-iteration", b.domain, inner, "an iteration domain",
                           "iterate over data; to choose elements, use binary variables and constraints")
            for p in b.patterns:
                for sub in _walk(p):
                    if isinstance(sub, A.Pattern) and sub.name is not None:
                        if sub.name in names_here:
                            self.r.emit("duplicate-iterator", sub.span,
                                        "`%s` is bound twice in the same iteration" % sub.name,
                                        labels=[Label(names_here[sub.name].span, "first bound here")],
                                        help="give each iterator its own name")
                        names_here[sub.name] = sub
                        inner.add(sub.name)
            if b.filter is not None:
                self._decision("decision-in-filter", b.filter, inner, "a filter",
                               "filters are evaluated before solving; move the condition into a logical "
                               "constraint, e.g. `b[i] == 1 => ...`")
        return inner

    def index_counts(self, expr: Any, local: set[str]) -> None:
        """Too many or too few indices on declared arrays in a constraint or objective."""
        outer: set[int] = set()
        bound = _Lazy(lambda: _binder_names(expr))
        # a function's argument may be a slice of an array (`allDifferent(x[i])`, IBM's CP functions take
        # a one-dimensional array): lowering checks that the function takes an array there
        slices = {id(a) for c in _walk(expr) if isinstance(c, A.Call) for a in c.args if isinstance(a, A.Index)}
        for n in _walk(expr):
            if not isinstance(n, A.Index) or id(n) in outer:
                continue
            base, k = n, 0
            while isinstance(base, A.Index):
                k += len(base.indices)
                base = base.base
                outer.add(id(base))
            if not isinstance(base, A.Name) or base.id in local or base.id in bound.get():
                continue
            sym = self.syms.get(base.id)
            if sym is None or sym.kind not in ("param", "dvar", "dexpr") or not sym.dims:
                continue
            if k > sym.dims:
                self.r.emit("index-too-many", n.span, "`%s` has %d dimension%s, but %d indices are given" % (
                    base.id, sym.dims, "" if sym.dims == 1 else "s", k),
                            labels=[Label(sym.decl.name_span, "declared here")],
                            help="give one index per dimension")
            elif k < sym.dims and id(n) not in slices:
                self.r.emit("index-too-few", n.span, "`%s` has %d dimensions, but only %d ind%s given" % (
                    base.id, sym.dims, k, "ex is" if k == 1 else "ices are"),
                            labels=[Label(sym.decl.name_span, "declared here")],
                            help="index `%s` down to one element, e.g. `%s`" % (
                                base.id, base.id + "".join("[%s]" % c for c in "ijkl"[:sym.dims])))

    def exprs(self, item: Any) -> None:
        """Rules on every expression of an item: calls, fields of sets, indexing sets, tuple types."""
        local = {d.var for d in getattr(item, "dims", []) if getattr(d, "var", None)}
        types = self._iterator_types(item)
        if isinstance(item, A.Objective):
            self.index_counts(item.expr, set())
        # the item's binder names once, not once per node (that was quadratic in the item's size)
        bound = _Lazy(lambda: {x for n in self.nodes(item) if isinstance(n, A.Pattern) for x in n.names()})
        for n in self.nodes(item):
            if isinstance(getattr(n, "quals", None), A.Qualifiers):
                self.quals(n.quals, local | bound.get())
            if isinstance(n, A.Call):
                self.call(n, local | bound.get())
            elif isinstance(n, A.Field) and isinstance(n.base, A.Name):
                s = self.syms.get(n.base.id)
                if s is not None and s.kind == "set" and n.base.id not in bound.get() | local:
                    self.r.emit("field-of-set", n.base.span,
                                "`%s` is a set; `.%s` applies to one of its tuples" % (n.base.id, n.name),
                                help="iterate over it, e.g. `sum(t in %s) t.%s`" % (n.base.id, n.name))
            elif isinstance(n, A.Index) and isinstance(n.base, A.Name):
                s = self.syms.get(n.base.id)
                if s is not None and s.kind == "set" and s.elem not in self._tuples() and n.base.id not in bound.get() | local:
                    # (a set of tuples indexed by a key, `Arcs[<"a", "b">]`, is OPL's lookup by key)
                    self.r.emit("set-indexed", n.span, "`%s` is a set and cannot be indexed with `[...]`" % n.base.id,
                                help="use `item(%s, k)` for the element at 0-based position k" % n.base.id)
                elif s is not None and s.dim_types:
                    for k, ix in enumerate(n.indices[: len(s.dim_types)]):
                        want = s.dim_types[k]
                        got = types.get(id(ix)) if isinstance(ix, A.Name) else None
                        if want and got and want != got:
                            self.r.emit("tuple-type-mismatch", ix.span,
                                        "`%s` is indexed by `%s` tuples, but `%s` is a `%s`" % (n.base.id, want, ix.id, got),
                                        help="tuple types differ even when their fields match; iterate over "
                                             "a set of `%s`" % want)

    def _iterator_types(self, item: Any) -> dict[int, str]:
        """The tuple type of every name that refers to a tuple iterator, keyed by ``id`` of the
        ``Name`` node.  Scoped as OPL scopes iterators (IBM OPL language reference, "Aggregate
        operators", "forall"): an iterator is known in its own construct only, so the same name
        bound over sets of different tuple types in two sibling aggregates has two types."""
        out: dict[int, str] = {}
        tuples = self._tuples()
        stack: list[tuple[Any, dict]] = [(item, {})]
        while stack:
            n, env = stack.pop()
            if isinstance(n, A.Name):
                got = env.get(n.id)
                if got:
                    out[id(n)] = got
                continue
            if not isinstance(n, A.Node):
                continue
            qs = getattr(n, "quals", None)
            quals = qs if isinstance(qs, list) else [qs] if isinstance(qs, A.Qualifiers) else []
            if quals:
                inner = dict(env)
                for q in quals:
                    for b in q.binders:
                        stack.append((b.domain, dict(inner)))
                        kind = None
                        if isinstance(b.domain, A.Name) and len(b.patterns) == 1 and b.patterns[0].name is not None:
                            s = self.syms.get(b.domain.id)
                            if s is not None and s.kind == "set" and s.elem in tuples:
                                kind = s.elem
                        for p in b.patterns:
                            for x in p.names():
                                inner[x] = None  # shadows an outer tuple iterator of the same name
                        if kind:
                            inner[b.patterns[0].name] = kind
                        if b.filter is not None:
                            stack.append((b.filter, dict(inner)))
                        for p in b.patterns:
                            if p.expr is not None or p.items:
                                stack.append((p, dict(inner)))
                for v in _children(n):
                    if v is qs:
                        continue
                    for x in (v if isinstance(v, (list, tuple)) else [v]):
                        if isinstance(x, A.Node) and x not in quals:
                            stack.append((x, inner))
                continue
            for v in _children(n):
                for x in (v if isinstance(v, (list, tuple)) else [v]):
                    if isinstance(x, A.Node):
                        stack.append((x, env))
                    elif isinstance(x, tuple):
                        stack.extend((y, env) for y in x if isinstance(y, A.Node))
        return out

    def _mentions_decision(self, args: list) -> bool:
        """Whether one of ``args`` names a decision variable or a decision expression."""
        stack = list(args)
        while stack:
            n = stack.pop()
            if isinstance(n, A.Name):
                s = self.syms.get(n.id)
                if s is not None and s.kind in ("dvar", "dexpr", "interval", "sequence"):
                    return True
            if isinstance(n, A.Node):
                for v in _children(n):
                    for x in (v if isinstance(v, (list, tuple)) else [v]):
                        if isinstance(x, A.Node):
                            stack.append(x)
        return False

    def call(self, c: A.Call, local: set[str]) -> None:
        f = c.func
        span = c.func_span or c.span
        if f in local:
            return
        s = self.syms.get(f)
        if s is not None and s.kind in ("param", "dvar", "dexpr") and s.dims:
            fix = None
            end = c.span
            shown = "%s[...]" % f
            if self.text and c.args and end.end_line == end.line:
                line = self.text.split("\n")[span.line - 1]
                if line[span.end_column - 1:span.end_column] == "(":
                    shown = "%s[%s]" % (f, line[span.end_column:end.end_column - 2])  # the user's own indices
                open_at = Span(span.file, span.line, span.end_column, span.line, span.end_column + 1)
                close_at = Span(span.file, end.end_line, end.end_column - 1, end.end_line, end.end_column)
                fix = Fix("index with `[...]`", (Edit(open_at, "["), Edit(close_at, "]")))
            self.r.emit("array-called", span, "`%s` is an array; index it with `[...]`, not `(...)`" % f,
                        help="write `%s`" % shown, fix=fix)
            return
        if self.using_cp and f in CP_SUPPORTED:
            return  # compiled for CP-SAT (pyopl/lowering/cp/constraints.py)
        if self.using_cp and len(c.args) == {"next": 3}.get(f):
            self.r.emit("unsupported-cp-construct", span, "`%s(seq, ...)` on a `dvar sequence` is a CP Optimizer "
                        "constraint that pyopl does not yet compile to CP-SAT" % f,
                        help="order the intervals with precedences (`endBeforeStart(a, b)`) instead")
            return
        if f in DATA_CP_FUNCTIONS and not self._mentions_decision(c.args):
            return  # on data, outside constraints, in CP and CPLEX models alike (pyopl/lowering/functions/builtins.py)
        if f in CP_FUNCTIONS:
            if self.using_cp:
                self.r.emit("unsupported-cp-construct", span,
                            "`%s` is a CP Optimizer constraint that pyopl does not yet compile to CP-SAT" % f,
                            help="pyopl's CP-SAT backend takes integer and boolean variables, linear and logical "
                                 "constraints, `allDifferent` and `count` (see docs/cp.md); reformulate `%s` with those" % f)
                return
            if f in CP_SUPPORTED:
                self.r.emit("cp-needs-using-cp", span,
                            "`%s` is a constraint of constraint programming, and this model has no `using CP;`" % f,
                            help="add `using CP;` as the model's first line to solve it with CP-SAT, or formulate "
                                 "it with linear constraints and binary variables for a MIP solver")
                return
            self.r.emit("unsupported-cp-function", span,
                        "`%s` is a CP Optimizer constraint, which pyopl does not support" % f,
                        help="formulate it with linear constraints and binary variables (for `allDifferent`, "
                             "assignment variables `x[i][v]` with `sum(v in V) x[i][v] == 1`)")
            return
        if f in BUILTINS or f in _CASTS_AND_MISC or s is not None:
            return
        best, fix = rename_suggestion(f, list(BUILTINS), span)  # several equally close: help only
        self.r.emit("unknown-function", span, "`%s` is not a known function" % f,
                    help=("did you mean %s?" % one_of(best[:5])) if best else "OPL functions include abs, card, ord, first, "
                                                                             "last, next, prev, item, floor, ceil, sqrt",
                    fix=fix)

    # ------------------------------------------------------------------ warnings
    def mark_used(self) -> None:
        for item in self.model.items:
            own = getattr(item, "name", None) if isinstance(item, A.Decl) else None
            for n in self.nodes(item):
                if isinstance(n, A.Name) and n.id != own and n.id in self.syms:
                    self.syms[n.id].used = True
                elif isinstance(n, A.Call) and n.func in self.syms:
                    self.syms[n.func].used = True
                elif isinstance(n, A.TypeRef) and n.name in self.syms:
                    self.syms[n.name].used = True
            if isinstance(item, A.ParamDecl) and item.type.name in self.syms:
                self.syms[item.type.name].used = True
            if isinstance(item, A.ScriptBlock):
                # A script that reads or sets a name uses it.  Any word of the body counts (a name
                # only inside a string or comment too): a missed warning costs less than a false one.
                for word in _WORD.findall(item.body):
                    if word in self.syms:
                        self.syms[word].used = True

    def unused(self) -> None:
        if self.r.has_errors:
            return  # a misspelled use makes its declaration look unused: no warning on top of the error
        for name, s in self.syms.items():
            if s.used or s.kind in ("constraint", "tuple"):
                continue
            if s.kind == "dvar":
                self.r.emit("unused-dvar", s.decl.name_span, "the decision variable `%s` is never used" % name,
                            help="use it in the objective or a constraint, or remove it")
            elif s.kind == "param" and getattr(s.decl, "init", None) is not None \
                    and not isinstance(s.decl.init, A.External):
                self.r.emit("unused-declaration", s.decl.name_span, "`%s` is declared but never used" % name,
                            help="remove it, or use it in the model")
            elif s.kind == "dexpr":
                self.r.emit("unused-declaration", s.decl.name_span, "`%s` is declared but never used" % name,
                            help="remove it, or use it in the objective or a constraint")

    def shadowing(self) -> None:
        def visit(node: Any, outer: dict[str, A.Pattern]) -> None:
            if node.__class__ is A.Binary and node.left.__class__ is A.Binary:
                rights = []  # a chain `a + b + c ...`: its left spine without recursion, in the same order
                while node.__class__ is A.Binary:
                    rights.append(node.right)
                    node = node.left
                visit(node, outer)
                for r in reversed(rights):
                    visit(r, outer)
                return
            if isinstance(node, (A.Aggregate, A.SetComp, A.ArrayComp, A.Forall)):
                inner = dict(outer)
                for b in node.quals.binders:
                    for p in b.patterns:
                        for sub in _walk(p):
                            if isinstance(sub, A.Pattern) and sub.name is not None:
                                if sub is not p and sub.name in outer:
                                    # `forall(j in N) sum(<i, j> in Edges)`: a tuple pattern's component that an
                                    # enclosing loop binds *matches* its value (OPL; IBM's TSP example): no shadowing
                                    continue
                                if sub.name not in inner or inner[sub.name] is outer.get(sub.name):
                                    self._shadow(sub, outer)
                                inner[sub.name] = sub
                for v in _children(node):
                    if v is not node.quals:
                        visit(v, inner)
                for b in node.quals.binders:
                    visit(b.domain, outer)
                    if b.filter is not None:
                        visit(b.filter, inner)
                return
            if isinstance(node, A.Node):
                for v in _children(node):
                    visit(v, outer)
            elif isinstance(node, (list, tuple)):
                for x in node:
                    visit(x, outer)

        for item in self.model.items:
            visit(item, {})

    def _shadow(self, p: A.Pattern, outer: dict[str, A.Pattern]) -> None:
        if p.name in outer:
            self.r.emit("shadowed-iterator", p.span, "`%s` hides the iterator `%s` of an enclosing loop" % (p.name, p.name),
                        labels=[Label(outer[p.name].span, "outer `%s` bound here" % p.name)],
                        help="give the inner iterator another name, e.g. `%s2`" % p.name)
        elif p.name in self.syms and self.syms[p.name].kind != "tuple":
            s = self.syms[p.name]
            self.r.emit("shadowed-name", p.span, "the iterator `%s` hides the %s `%s`" % (p.name, _what(s.kind), p.name),
                        labels=[Label(s.decl.name_span, "declared here")],
                        help="rename the iterator; inside the loop `%s` no longer means the declaration" % p.name)


def unused_iterators(model: A.Model, rules: StaticRules, reporter: Reporter) -> None:
    """Warn on ``sum(i in I) x`` where the body never mentions ``i`` but does mention a decision."""
    for item in model.items:
        for n in rules.nodes(item):
            if isinstance(n, A.Aggregate) and n.op == "sum":
                names = set()
                for b in n.quals.binders:
                    for p in b.patterns:
                        names.update(p.names())
                used = {m.id for m in _walk(n.body) if isinstance(m, A.Name)}
                used |= {m.id for b in n.quals.binders if b.filter is not None for m in _walk(b.filter) if isinstance(m, A.Name)}
                used |= {m.id for b in n.quals.binders for m in _walk(b.domain) if isinstance(m, A.Name)}
                if names and not (names & used) and rules._decision_names(n.body, set()):
                    reporter.emit("unused-iterator", n.span,
                                  "the iterator%s %s of this `sum` %s not used in its body" % (
                                      "s" if len(names) > 1 else "", ", ".join("`%s`" % x for x in sorted(names)),
                                      "are" if len(names) > 1 else "is"),
                                  help="index the summed term by the iterator, e.g. `x[%s]`" % sorted(names)[0])


def check_static(model: A.Model, reporter: Reporter) -> None:
    """Run every static rule on ``model``."""
    rules = StaticRules(model, reporter)
    rules.run()
    rules.shadowing()
    unused_iterators(model, rules, reporter)
    from .implication import check_implications

    check_implications(model, reporter, rules.nodes)


# ---------------------------------------------------------------------- small helpers
#: OPL functions of type ``float`` whatever their argument (IBM OPL language reference, "round",
#: "floor", "ceil"...: "type float"); pyopl evaluates the first three to ints, IBM does not.
_FLOAT_FUNCTIONS = frozenset({"round", "floor", "ceil", "frac", "sqrt", "exp", "log", "ln", "lg", "pow",
                              "sin", "cos", "tan"})


def _float_calls(exprs: list) -> list:
    """The calls of :data:`_FLOAT_FUNCTIONS` that make the value of each of ``exprs`` a float: at the
    top, under unary minus, either operand of ``+ - *``, either branch of ``?:``."""
    out, stack = [], list(exprs)
    while stack:
        e = stack.pop()
        if isinstance(e, A.Call) and e.func in _FLOAT_FUNCTIONS:
            out.append(e)
        elif isinstance(e, A.Unary) and e.op in ("-", "+"):
            stack.append(e.operand)
        elif isinstance(e, A.Binary) and e.op in ("+", "-", "*"):
            stack.extend((e.right, e.left))
        elif isinstance(e, A.Conditional):
            stack.extend((e.other, e.then))
    return out


def _negative_const(e: Any) -> bool:
    if isinstance(e, A.Unary) and e.op == "-" and isinstance(e.operand, A.Const):
        v = e.operand.value
        return isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0
    return isinstance(e, A.Const) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool) and e.value < 0


def _int_const(e: Any) -> int | None:
    if isinstance(e, A.Const) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return e.value
    if isinstance(e, A.Unary) and e.op == "-" and isinstance(e.operand, A.Const) and isinstance(e.operand.value, int) \
            and not isinstance(e.operand.value, bool):
        return -e.operand.value
    return None


def _calls(e: Any, name: str) -> bool:
    return any(isinstance(n, A.Call) and n.func == name for n in _walk(e))


def _num(v: float) -> str:
    return "%g" % v


def _show(v: Any) -> str:
    return '"%s"' % v if isinstance(v, str) else str(v)


def _what(kind: str) -> str:
    return {"param": "data declaration", "set": "set", "dvar": "decision variable", "dexpr": "dexpr",
            "tuple": "tuple type", "constraint": "constraint label"}.get(kind, kind)


def _with_comma(text: str, span: Span) -> Span:
    """``span`` widened to take the ``,`` (and blanks) before it, for deleting a list element."""
    lines = text.split("\n")  # as diagnostics count lines: a fix must land where they point
    if span.line != span.end_line or not (1 <= span.line <= len(lines)):
        return span
    line = lines[span.line - 1]
    k = span.column - 2
    while k >= 0 and line[k] == " ":
        k -= 1
    if k >= 0 and line[k] == ",":
        return Span(span.file, span.line, k + 1, span.end_line, span.end_column)
    return span
