"""A ``forall`` row family in the form the array rows take: ``dexpr``s inlined, tuple patterns as fields.

``forall(v in Nodes) inflow[v] - outflow[v] == b[v]`` with ``dexpr float inflow[v in Nodes] = sum(a in
Arcs : a.dst == v) flow[a]`` means the same rows as the ``forall`` with the dexpr's definition written in
place (its index name read as the loop's iterator), and ``sum(<o, d, c, u> in Arcs : d == v) ...`` the
same as its single-name form (:func:`single_name_form`, below). :func:`inlined_forall` makes
that statement so that :mod:`pyopl.lowering.arrays.vectorised_rows` evaluates it column-wise; the row-by-row
path keeps the statement as written (the reference the differential tests compare with).

A dexpr cell is inlined only where the result is certainly the cell's own value: each index of
``d[i, ...]`` is an iterator of the ``forall`` whose domain is the dexpr's index set itself (so every
key is a cell), the dexpr's dimensions bind plain names, and no name of its definition is captured by
the loop's iterators or the enclosing loops' (anything else is left as written).

Pattern sums: ``sum(<s, d, c, u> in Arcs) c * flow[<s, d, c, u>]`` means ``sum($t in Arcs) $t.c *
flow[$t]`` (:func:`single_name_form`): the array sums take binders of one name only, and a binder that
destructures the set's tuples was summed term by term (a tree walk per element, 4-6x the same sum
written with ``a.cost``: ``benchmarks/mincostflow_shapes.py``).  When the pattern is flat, names every
field of the set's one tuple type in order, binds distinct names that no enclosing loop binds, and the
sum has that one binder, the sum means the same as one over a single name ``$t`` with each pattern
name read as ``$t.field`` and each tuple literal that repeats the pattern in full read as ``$t`` itself
(the element it rebuilds).  The rewrite is made once per node and tuple type; the array path then
evaluates it, or refuses it, as any other.  Anything else returns None and the sum is left as written.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ...syntax import ast as A
from ...syntax.nesting import child_nodes
from ..forms.symbols import DexprArray, DexprScalar

MAX_DEPTH = 8  # dexprs defined through dexprs: inlined this deep at most
MAX_NEST = 200  # operators walked through to find them (the walk recurses: bounded below Python's limit)


def _all_names(n: Any) -> set[str]:
    """Every name used or bound anywhere in ``n`` (names and pattern names)."""
    out: set[str] = set()
    stack = [n]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Name):
            out.add(x.id)
        elif isinstance(x, A.Pattern) and x.name is not None:
            out.add(x.name)
        if isinstance(x, A.Node):
            stack.extend(child_nodes(x))
    return out


def _bound_names(n: Any) -> set[str]:
    """The names that binders anywhere in ``n`` bind (a sum's iterators, pattern names)."""
    out: set[str] = set()
    stack = [n]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Pattern) and x.name is not None:
            out.add(x.name)
        if isinstance(x, A.Node):
            stack.extend(child_nodes(x))
    return out


def _renamed(n: Any, names: dict) -> Any:
    """A copy of ``n`` with each Name in ``names`` replaced by a Name of its new spelling (and a binder's
    pattern of that name, so a sum's own iterator is renamed with its uses)."""
    if isinstance(n, A.Name) and n.id in names:
        return A.Name(n.span, names[n.id])
    if isinstance(n, A.Pattern) and n.name in names:
        return dataclasses.replace(n, name=names[n.name])
    if isinstance(n, A.Node):
        changes = {}
        for f in dataclasses.fields(n):
            v = getattr(n, f.name)
            if isinstance(v, A.Node):
                w = _renamed(v, names)
                if w is not v:
                    changes[f.name] = w
            elif isinstance(v, list) and any(isinstance(x, A.Node) for x in v):
                w = [_renamed(x, names) if isinstance(x, A.Node) else x for x in v]
                if any(a is not b for a, b in zip(w, v)):
                    changes[f.name] = w
        return dataclasses.replace(n, **changes) if changes else n
    return n


def flattened_sum(n: A.Aggregate, memo: dict) -> A.Aggregate:
    """``sum(q1) sum(q2) body`` as ``sum(q1, q2) body`` (deeper nests too), or ``n`` itself.

    The same iterations in the same order, each body evaluated in the same bindings, where every binder
    binds one plain name, the names are distinct and no domain names a binder before it (a filter may:
    it is evaluated once its own binder is bound, as in the nest).  The two fold their terms
    differently (the nest adds up each inner sum, then the inner sums), so they agree bit for bit when
    no column repeats within one outer iteration and the body adds no constant: the array paths that
    take a flattened sum (:func:`is_flattened`) check that and step aside otherwise.  ``memo``: a dict
    kept with the compile (the same sum gives the same node, so the per-node caches keep working)."""
    if n.op != "sum" or not (isinstance(n.body, A.Aggregate) and n.body.op == "sum"):
        return n
    return _flattened(n, memo, lambda b: isinstance(b, A.Aggregate) and b.op == "sum",
                      lambda binders, body: A.Aggregate(n.span, "sum", A.Qualifiers(n.quals.span, binders), body))


def flattened_forall(s: A.Forall, memo: dict) -> A.Forall:
    """``forall(q1) forall(q2) body`` as ``forall(q1, q2) body`` (deeper nests too), or ``s`` itself: the
    same rows in the same order, with the same labels (a label inside a ``forall`` is indexed by every
    enclosing loop's value, outermost first), under the conditions of :func:`flattened_sum`, except that
    an inner range or cell may depend on the outer loops (``forall(i in I) forall(j in 1..i)``)."""
    if not isinstance(s.body, A.Forall):
        return s
    return _flattened(s, memo, lambda b: isinstance(b, A.Forall),
                      lambda binders, body: A.Forall(s.span, A.Qualifiers(s.quals.span, binders), body), ragged=True)


def split_binders(s: A.Forall, memo: dict) -> A.Forall:
    """``forall(i, j in S : f)`` as ``forall(i in S, j in S : f)``: the same rows in the same order (the row
    path iterates the product, ``i`` outside, and filters once both are bound), the domain read once per
    binder (it is data). ``ordered i, j in S`` splits the same way with ``ordered`` kept on every binder
    after the first, the mark that it iterates the elements after the one before it (the same domain node:
    :func:`~pyopl.lowering.arrays.row_blocks.binder_names`, ``ragged.bind_after``). ``s`` itself when no
    binder names several plain names."""
    if all(len(b.patterns) == 1 for b in s.quals.binders):
        return s
    hit = memo.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    out = s
    binders = _split(s.quals.binders)
    if binders is not None:
        out = A.Forall(s.span, A.Qualifiers(s.quals.span, binders), s.body)
    memo[id(s)] = (s, out)
    return out


def _split(binders: list) -> list | None:
    """The binders with each one naming several plain names split as :func:`split_binders` splits them;
    None where a binder with several names has a tuple pattern among them."""
    out = []
    for b in binders:
        if len(b.patterns) == 1:
            out.append(b)
            continue
        if any(p.name is None for p in b.patterns):
            return None
        last = len(b.patterns) - 1
        out += [A.Binder(b.span, [p], b.domain, b.filter if k == last else None, b.ordered and k > 0)
                for k, p in enumerate(b.patterns)]
    return out


def _flattened(n: Any, memo: dict, nested: Any, make: Any, ragged: bool = False) -> Any:
    hit = memo.get(id(n))
    if hit is not None and hit[0] is n:
        return hit[1]
    binders, body = list(n.quals.binders), n.body
    while nested(body):
        binders += body.quals.binders
        body = body.body
    if ragged:  # (a `forall`'s `ordered i, j in S[k]`, split: its rows bind j after i, vectorised_rows)
        binders = _split(binders) or [None]
    names: list[str] = []
    out = None
    for k, b in enumerate(binders):
        if b is None or len(b.patterns) != 1 or b.patterns[0].name is None \
                or (b.ordered and not (ragged and k and binders[k - 1].domain is b.domain)):
            break
        if _all_names(b.domain) & set(names) and not (ragged and isinstance(b.domain, (A.RangeLit, A.Index))):
            break  # (a `forall`'s `j in 1..i`, `a in out[v]`: bound per row, ragged.py)
        names.append(b.patterns[0].name)
    else:
        if len(set(names)) == len(names):
            out = make(binders, body)
            memo.setdefault("$flat", set()).add(id(out))
    memo[id(n)] = (n, out or n)
    return out or n


def is_flattened(n: A.Aggregate, memo: dict) -> bool:
    """Whether ``n`` was made by :func:`flattened_sum` with this ``memo``."""
    return id(n) in memo.get("$flat", ())


class _Inliner:
    def __init__(self, ev: Any, s: A.Forall | None, env: dict, patterns: Any, flat: dict):
        self.ev, self.env, self.patterns, self.flat = ev, env, patterns, flat
        self.loop: dict[str, Any] = {}  # the forall's iterators -> their domains' values
        for b in s.quals.binders if s is not None else ():
            if len(b.patterns) == 1 and b.patterns[0].name is not None:
                self.loop[b.patterns[0].name] = b.domain
        self.taken = set(self.loop) | set(env)
        self.changed = False

    def domain_of(self, name: str) -> Any:
        return self.ev.eval_set(self.loop[name], self.env)

    def expr(self, n: Any, depth: int = 0, nest: int = 0) -> Any:
        """``n`` with dexpr cells and names inlined and sums flattened where the array paths can;
        ``depth`` counts dexprs inlined through dexprs, ``nest`` the operators walked through."""
        if depth > MAX_DEPTH or nest > MAX_NEST:
            return n  # (a 5,000-term chain is 5,000 levels deep: past MAX_NEST it stays as written)
        if isinstance(n, A.Aggregate):
            if n.op == "sum":  # `sum(j in {k | k in J : c[i][k] > 0})`, `sum(j in J diff S[i])`: a filter
                m = set_domain_form(self.ev, n, self.taken, self.flat)
                if m is not n:
                    self.changed = True
                    n = m
            flat = flattened_sum(n, self.flat)
            if flat is not n:
                self.changed = True
                return flat
            first = n.quals.binders[0].patterns[0] if n.quals.binders else None
            if first is not None and first.items is not None:
                m = self.patterns(n, self.env, self.taken)  # (a loop's name in the pattern: a condition)
                if m is not None:
                    self.changed = True
                    return m
            return n  # (a sum's body is the array sum's business)
        if isinstance(n, A.Call) and n.func == "card" and len(n.args) == 1 and isinstance(n.args[0], A.SetComp):
            m = card_form(n, self.flat)  # `card({j | j in I : j < i})`: a count of data, per row
            if m is not n:
                self.changed = True
            return m
        if isinstance(n, A.Index) and isinstance(n.base, A.Name):
            m = self._cell(n)
            if m is not None:
                self.changed = True
                return self.expr(m, depth + 1, nest)
        if isinstance(n, A.Name):
            sym = self.ev.inst.symbols.get(n.id)
            if sym is not None and isinstance(sym.value, DexprScalar):
                body = sym.decl.expr
                if not (_all_names(body) & self.taken):
                    self.changed = True
                    return self.expr(body, depth + 1, nest)
            return n
        if isinstance(n, (A.Binary, A.Unary, A.Compare)):
            changes = {}
            for f in dataclasses.fields(n):
                v = getattr(n, f.name)
                if isinstance(v, A.Expr):
                    w = self.expr(v, depth, nest + 1)
                    if w is not v:
                        changes[f.name] = w
                elif isinstance(v, list) and v and all(isinstance(x, A.Expr) for x in v):
                    w = [self.expr(x, depth, nest + 1) for x in v]
                    if any(a is not b for a, b in zip(w, v)):
                        changes[f.name] = w
            return dataclasses.replace(n, **changes) if changes else n
        return n

    def _cell(self, n: A.Index) -> A.Expr | None:
        sym = self.ev.inst.symbols.get(n.base.id)
        if sym is None or not isinstance(sym.value, DexprArray):
            return None
        arr, decl = sym.value, sym.decl
        if len(n.indices) != len(decl.dims) or len(arr.dims) != len(decl.dims):
            return None
        rename = {}
        for k, (ix, dim) in enumerate(zip(n.indices, decl.dims)):
            if not (isinstance(ix, A.Name) and ix.id in self.loop and dim.var is not None and dim.pattern is None):
                return None
            try:
                if self.domain_of(ix.id) is not arr.dims[k]:
                    return None  # (a key outside the dexpr's cells is the row path's error to report)
            except Exception:
                return None
            rename[dim.var] = ix.id
        body = decl.expr
        if len(set(rename.values())) != len(rename):
            return None
        clash = (_all_names(body) - set(rename)) & self.taken
        if clash:  # a name of the definition would be captured by a loop iterator: unless only its own
            symbols = self.ev.inst.symbols  # sums' iterators (`sum(t in T)` in a `forall(p in P, t in T)`)
            if not clash <= _bound_names(body) or any(symbols.get(c) is not None for c in clash):
                return None
            rename.update({c: "$in." + c for c in clash})  # (`$` names cannot be written: no capture)
        return _renamed(body, {k: v for k, v in rename.items() if k != v})


def set_domain_form(ev: Any, n: A.Aggregate, taken: set, memo: dict) -> A.Aggregate:
    """``n`` with each binder over a set built for it written as a filter over the set it is built from,
    or ``n`` itself: ``j in {k | k in D : f(k)}`` as ``j in D : f(j)``, ``j in D diff E`` as
    ``j in D : j not in E`` and ``j in D inter E`` as ``j in D : j in E`` (with the binder's own filter
    ``g`` after it: ``... && g``).

    The same bindings in the same order: the comprehension keeps the elements of ``D`` for which ``f``
    holds, in ``D``'s order (a set has no element twice), ``diff`` those of ``D`` not in ``E`` (``x not
    in E``, the membership the filter tests) and ``inter`` those in it; each ``f`` is evaluated on the same elements, and
    ``g`` where both were before (the array paths evaluate ``f && g`` on every candidate, and step
    aside on any error, so the row path words it). For ``diff``/``inter`` the row path evaluates ``E`` in every
    row, the filter only where ``D`` has an element: so ``D`` must be data free of every loop's names
    (``taken``) and not empty, or ``E`` a literal of constants and the loops' values (which cannot fail). Where a name would be captured (the binder's name used in the set
    expression, the comprehension's name bound again in ``f``), ``n`` is left as written. ``memo``: a
    dict kept with the compile (the same sum gives the same node)."""
    hit = memo.get(("set domains", id(n)))
    if hit is not None and hit[0] is n:
        return hit[1]
    binders, changed = list(n.quals.binders), False
    for k, b in enumerate(binders):
        if len(b.patterns) != 1 or b.patterns[0].name is None or b.ordered:
            continue
        made = _filtered_binder(ev, b, taken)
        if made is not None:
            binders[k], changed = made, True
    out = A.Aggregate(n.span, n.op, A.Qualifiers(n.quals.span, binders), n.body) if changed else n
    memo[("set domains", id(n))] = (n, out)
    return out


def _filtered_binder(ev: Any, b: A.Binder, taken: set) -> A.Binder | None:
    """Binder ``b`` (one named pattern) over the set its domain is built from, the building's filter
    joined to ``b``'s own (``&&``, the building's first); None where :func:`_as_filter` leaves it."""
    made = _as_filter(ev, b.patterns[0].name, b.domain, taken)
    if made is None:
        return None
    dom, f = made
    if b.filter is not None:
        f = b.filter if f is None else A.Binary(b.filter.span, "&&", f, b.filter)
    return A.Binder(b.span, b.patterns, dom, f, False)


def forall_set_domains(ev: Any, s: A.Forall, env: dict, memo: dict) -> A.Forall:
    """``forall(i in I, j in J diff {i})``, ``forall(i in I, j in {k | k in J : c[i][k] > 0})``: ``s`` with each
    binder over a set built from the earlier iterators written as a filter over the set it is built
    from, as :func:`set_domain_form` writes a sum's (the same rows in the same order, with the same
    keys: the loop's values); ``s`` itself where none is. ``memo``: a dict kept with the compile."""
    hit = memo.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    binders, changed = list(s.quals.binders), False
    taken = set(env) | {p.name for b in binders for p in b.patterns if p.name is not None}
    for k, b in enumerate(binders):
        earlier = {p.name for x in binders[:k] for p in x.patterns if p.name is not None}
        if not k or len(b.patterns) != 1 or b.patterns[0].name is None or b.ordered \
                or not (_all_names(b.domain) & earlier):
            continue
        made = _filtered_binder(ev, b, taken)
        if made is not None:
            binders[k], changed = made, True
    out = A.Forall(s.span, A.Qualifiers(s.quals.span, binders), s.body) if changed else s
    memo[id(s)] = (s, out)
    return out


def card_form(n: A.Call, memo: dict) -> A.Expr:
    """``card({v | v in D : f})`` as ``sum(v in D : f) 1``, or ``n`` itself: the comprehension keeps the
    elements of ``D`` (a set: none twice) for which ``f`` holds, so its ``card`` is their count, an int,
    as the sum of the int 1 over them is; the array rows then count each row's iterations
    (``ragged.data_aggregate``). The sum is marked ``written_as_card``: a side holding it is still data
    written without an aggregate, the constant of its range (``forms.constant_side``), as the row path
    reads the call. ``memo``: a dict kept with the compile."""
    hit = memo.get(("card", id(n)))
    if hit is not None and hit[0] is n:
        return hit[1]
    d, out = n.args[0], n
    if isinstance(d.value, A.Name) and len(d.quals.binders) == 1:
        b = d.quals.binders[0]
        if len(b.patterns) == 1 and b.patterns[0].name == d.value.id and not b.ordered:
            out = A.Aggregate(n.span, "sum", d.quals, A.Const(d.value.span, 1))
            out.written_as_card = True  # (a side that is data as written stays so: forms.constant_side)
    memo[("card", id(n))] = (n, out)
    return out


def _as_filter(ev: Any, name: str, d: A.Expr, taken: set) -> tuple[A.Expr, A.Expr | None] | None:
    """(the set to iterate, the filter) for a binder of ``name`` over ``d`` (see :func:`set_domain_form`)."""
    if isinstance(d, A.SetComp) and isinstance(d.value, A.Name) and len(d.quals.binders) == 1:
        b = d.quals.binders[0]
        if len(b.patterns) != 1 or b.patterns[0].name != d.value.id or b.ordered:
            return None
        v = d.value.id
        if name in _all_names(b.domain) or (v != name and name in _all_names(d)):
            return None  # (the binder's name would capture a name of the set expression)
        if b.filter is None or v == name:
            return b.domain, b.filter
        if v in _bound_names(b.filter):
            return None
        return b.domain, _renamed(b.filter, {v: name})
    if isinstance(d, A.Binary) and d.op in ("diff", "inter") and name not in _all_names(d):
        symbols = ev.inst.symbols
        if isinstance(d.right, A.SetLit) and all(isinstance(x, A.Const) or (isinstance(x, A.Name) and x.id in taken)
                                                 for x in d.right.items):
            pass  # `nb[i] diff {i}`: a literal of the loop's values cannot fail, wherever it is evaluated
        elif any(x in taken or getattr(symbols.get(x), "kind", None) not in ("param", "set", "range")
                 for x in _all_names(d.left)):
            return None
        else:
            try:
                if not len(ev.eval_set(d.left, {})):
                    return None
            except Exception:  # (the row path words it)
                return None
        return d.left, A.Binary(d.span, "not in" if d.op == "diff" else "in", A.Name(d.span, name), d.right)
    return None


def inlined_forall(ev: Any, s: A.Forall, env: dict, patterns: Any, memo: dict, flat: dict) -> A.Forall:
    """``s`` with its constraint's dexpr cells inlined, pattern sums in single-name form and nested sums
    flattened (:func:`flattened_sum`), or ``s`` itself when nothing applies. ``patterns(node, env)``: the
    single-name form of a pattern sum, or None; ``memo``, ``flat``: dicts kept with the compile (the same
    rewrite gives the same statement node, so the array paths' per-node caches keep working)."""
    cons = s.body
    if not isinstance(cons, A.ConsStmt):
        return s
    inl = _Inliner(ev, s, env, patterns, flat)
    new = inl.expr(cons.expr)
    if not inl.changed:
        return s
    key = (id(s), _fingerprint(new))
    hit = memo.get(key)
    if hit is not None and hit[0] is s:
        return hit[1]
    out = A.Forall(s.span, s.quals, dataclasses.replace(cons, expr=new))
    memo[key] = (s, out)
    return out


def inlined_expr(ev: Any, expr: A.Expr, patterns: Any, memo: dict, flat: dict) -> A.Expr:
    """An objective ``expr`` with its scalar dexprs inlined (``minimize total;`` with ``dexpr float total =
    sum(...)``), pattern sums in single-name form and nested sums flattened, or ``expr`` itself; as
    :func:`inlined_forall` without a loop (so no dexpr array cell is inlined)."""
    inl = _Inliner(ev, None, {}, patterns, flat)
    new = inl.expr(expr)
    if not inl.changed:
        return expr
    key = (id(expr), _fingerprint(new))
    hit = memo.get(key)
    if hit is not None and hit[0] is expr:
        return hit[1]
    memo[key] = (expr, new)
    return new


def _fingerprint(n: Any) -> tuple:
    """The shape of a rewritten expression: its node types and names in walk order (equal for equal rewrites)."""
    out: list = []
    stack = [n]
    while stack:
        x = stack.pop()
        out.append(type(x).__name__)
        if isinstance(x, A.Name):
            out.append(x.id)
        elif isinstance(x, A.Field):
            out.append(x.name)
        elif isinstance(x, A.Const):
            out.append(repr(getattr(x, "value", None)))
        elif isinstance(x, A.Aggregate):
            out.append(id(x))  # (single-name forms are cached nodes)
            continue
        if isinstance(x, A.Node):
            stack.extend(child_nodes(x))
    return tuple(out)


# ---------------------------------------------------------------------- pattern sums
_NAME = PATTERN_NAME = "$t"  # `$` names cannot be written in OPL: no clash with the user's


def single_name_form(ev: Any, node: A.Aggregate | A.Forall, env: dict, cache: dict, vcache: Any,
                     not_covered: tuple, taken: Any = ()) -> A.Aggregate | A.Forall | None:
    """The equivalent single-name sum of ``node`` (see the module), or None when it does not apply; a
    ``forall(<i, j> in S) ct: ...`` the same way (its rows' keys, ``(i, j)``, are then the fields of ``$t``
    in order: :mod:`.vectorised_rows` makes them so).

    ``cache``: a dict kept with the compile's VectorCache, ``id(node) -> (node, ttype, rewritten)``;
    ``vcache``: that VectorCache; ``not_covered``: the exceptions that mean "not this path"
    (``vectorised.NOT_COVERED``, passed in so this module does not import its caller).

    In a sum, a pattern name an enclosing loop binds (``env``, or ``taken``: a ``forall``'s iterators) is a
    condition on that field (``sum(<i, k> in Arcs)`` in ``forall(k in Nodes)``, OPL's rule): it becomes
    ``$t.f == k``, before the sum's own filter, as the row path matches it before filtering."""
    if len(node.quals.binders) != 1:
        return None
    b = node.quals.binders[0]
    if len(b.patterns) != 1 or b.ordered or b.patterns[0].items is None:
        return None
    items = b.patterns[0].items
    names = [p.name for p in items]
    conds = {n for n in names if n is not None and (n in env or n in taken) and not n.startswith("$")}
    if any(n is None for n in names) or len(set(names)) != len(names) or (conds and isinstance(node, A.Forall)):
        return None
    try:
        domain = ev.eval_set(b.domain, env)
    except not_covered:
        return None  # the term-by-term path reports it
    ttype = vcache.domain(domain).ttype
    if ttype is None or len(ttype.fields) != len(names) or not vcache._one_tuple_type(domain):
        return None
    hit = cache.get(id(node))
    if hit is not None and hit[0] is node and hit[1] is ttype and hit[3] == conds:
        return hit[2]
    fields = {n: f for n, f in zip(names, ttype.fields) if n not in conds}
    span = b.span
    try:
        filt = None if b.filter is None else _pattern_renamed(b.filter, fields, names)
        for n, f in reversed(list(zip(names, ttype.fields))):
            if n in conds:  # `$t.f == k`, the first conjunct (as the row path matches the pattern first)
                eq = A.Compare(span, [A.Field(span, A.Name(span, _NAME), f, span), A.Name(span, n)], ["=="])
                filt = eq if filt is None else A.Binary(span, "&&", eq, filt)
        new_binder = A.Binder(span, [A.Pattern(span, name=_NAME)], b.domain, filt)
        quals = A.Qualifiers(node.quals.span, [new_binder])
        body = _pattern_renamed(node.body, fields, names)
        out = A.Forall(node.span, quals, body) if isinstance(node, A.Forall) else \
            A.Aggregate(node.span, node.op, quals, body)
    except _Nested:
        out = None
    cache[id(node)] = (node, ttype, out, conds)
    return out


def _pattern_renamed(n: Any, fields: dict, names: list) -> Any:
    """A copy of expression ``n`` with the pattern's names as fields of ``$t`` and full pattern literals as ``$t``."""
    if isinstance(n, A.Name) and n.id in fields:
        return A.Field(n.span, A.Name(n.span, _NAME), fields[n.id], n.span)
    if isinstance(n, A.TupleLit) and [getattr(i, "id", None) for i in n.items] == names \
            and all(isinstance(i, A.Name) for i in n.items):
        return A.Name(n.span, _NAME)
    if isinstance(n, A.Pattern) and (n.name in fields or n.items is not None):
        raise _Nested()  # a nested binder rebinds one of the names (or is a pattern, whose form is `$t` too)
    if isinstance(n, A.Node):
        changes = {}
        for f in dataclasses.fields(n):
            v = getattr(n, f.name)
            if isinstance(v, A.Node):
                changes[f.name] = _pattern_renamed(v, fields, names)
            elif isinstance(v, list) and any(isinstance(x, A.Node) for x in v):
                changes[f.name] = [_pattern_renamed(x, fields, names) if isinstance(x, A.Node) else x for x in v]
        return dataclasses.replace(n, **changes) if changes else n
    return n


class _Nested(Exception):
    pass
