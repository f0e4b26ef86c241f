"""The CP constraints of the IR (``ir.cp_constraints``, ``ir.intervals``) as CP-SAT's own constraints.

Each :class:`~pyopl.lowering.cp.constraints.CpConstraint` kind maps to one CP-SAT call (``ortools.sat.python.cp_model``):
``allDifferent`` -> ``add_all_different``, ``element`` -> ``add_element``, ``inverse`` ->
``add_inverse``, ``max``/``min`` -> ``add_max_equality``/``add_min_equality``, ``abs`` ->
``add_abs_equality``, ``linear_if`` -> a
linear constraint with ``only_enforce_if``, ``noOverlap`` -> ``add_no_overlap`` (with a transition
matrix: a disjunction per pair of intervals, IBM's default meaning where the distance separates an
interval from every later one; with ``next`` true, the successor arcs of the sequence's circuit,
pyopl/backends/cp/sequences.py), ``sequence`` (``first``/``last``/``before``/``prev``) -> that circuit, ``cumul`` -> ``add_cumulative`` (pulses of non-negative height) or
``add_reservoir_constraint_with_active`` (steps); every interval variable -> ``new_interval_var`` /
``new_optional_interval_var`` over its start, size and end columns.  Coefficients are made integer
exactly as for rows (:mod:`pyopl.backends.cpsat_scale`).
"""
from __future__ import annotations

from typing import Any

from ..cpsat_scale import NotIntegral, inner_bounds, scale_for, scaled
from .sequences import make_circuit, post, post_neighbour, tie_to_time


class Refused(Exception):
    """A model CP-SAT cannot take; ``slug``, ``message``, ``help``, ``span`` make its diagnostic."""

    def __init__(self, slug: str, message: str, help: str, span: Any = None) -> None:
        super().__init__(message)
        self.slug, self.message, self.help, self.span = slug, message, help, span


def not_integral(e: NotIntegral, where: str, span: Any) -> Refused:
    """The ``cpsat-non-integral`` refusal for the coefficient of ``e`` in ``where``."""
    from ...semantics.values import show

    if e.too_large:
        msg = "the coefficient %s in %s is too large for CP-SAT's exact integers once scaled" % (show(e.value), where)
    else:
        msg = "the coefficient %s in %s is not a whole number after scaling by any power of ten up to 10^6, " \
              "and CP-SAT takes integer coefficients only" % (show(e.value), where)
    return Refused("cpsat-non-integral", msg, "round the data to the precision you mean (e.g. `round(100 * c) / 100`)"
                   " or change the units so that the coefficients are whole numbers", span)


def _domain(v: Any) -> tuple[int, int]:
    """``(lowest, highest)`` value of the CP-SAT variable ``v`` (its proto's repeated field takes no
    negative index: ``d[-1]`` reads element 0), or of ``v`` itself when it is an ``int`` (a column
    given to CP-SAT as a constant: the size of an interval of fixed size)."""
    if v.__class__ is int:
        return v, v
    d = v.proto.domain
    return int(d[0]), int(d[len(d) - 1])


def _bounds_of(e: Any) -> tuple[int, int]:
    """``(lowest, highest)`` of what :meth:`Builder._affine` returns: a variable or ``coef * v + k``."""
    if e.__class__ is int or hasattr(e, "proto"):
        return _domain(e)
    lo, hi = _domain(e.expression)
    k, off = int(e.coefficient), int(e.offset)
    return min(k * lo, k * hi) + off, max(k * lo, k * hi) + off


def labels(named_keys: Any, fmt: Any) -> list[str]:
    """``name[fmt(k1)][fmt(k2)]...`` for each ``(name, key)`` of ``named_keys``, in order; an index part
    that is an ``int`` or a ``str`` is formatted once (a job shop's 2,000 columns share 70 of them)."""
    parts: dict = {}
    out = []
    for name, key in named_keys:
        for k in key:
            t = k.__class__
            if t is int or t is str:
                p = parts.get((t, k))
                if p is None:
                    p = parts[(t, k)] = "[%s]" % fmt(k)
            else:
                p = "[%s]" % fmt(k)
            name += p
        out.append(name)
    return out


def interval_labels(ivs: list) -> list[str]:
    """``iv.label()`` of each interval (``a[1]["x"]``)."""
    from ...ir import format_key_part

    return labels(((iv.name, iv.key) for iv in ivs), lambda k: format_key_part(k, ", "))


class Builder:
    """Adds the IR's intervals and CP constraints to the CP-SAT model ``m`` over the column variables ``xs``."""

    def __init__(self, m: Any, xs: list) -> None:
        self.m, self.xs = m, xs
        self.intervals: list = []  # CP-SAT's interval variables, one per IR interval
        self.ivs: list = []  # the IR's intervals
        self._true = None
        self.circuits: dict = {}  # sequence name -> its Circuit (pyopl/backends/cp/sequences.py)

    def prepare(self, constraints: list) -> None:
        """A circuit for each sequence that ``first``, ``last``, ``before`` or ``prev`` use, or a
        ``noOverlap(p, M, true)`` (made before any ``noOverlap`` on it is added, which ties the circuit
        to time); call after :meth:`add_intervals`."""
        for c in constraints:
            pair = c.kind in ("sameSequence", "sameCommonSubsequence")
            wanted = c.kind in ("sequence", "neighbour") or pair or (c.kind == "noOverlap" and c.data.get("direct"))
            if wanted and c.data["seq"] not in self.circuits:
                self.circuits[c.data["seq"]] = make_circuit(self, c.data["intervals"])
            if pair and c.data["seq2"] not in self.circuits:
                self.circuits[c.data["seq2"]] = make_circuit(self, c.data["intervals2"])

    def add_intervals(self, ivs: list) -> None:
        """One CP-SAT interval per :class:`~pyopl.lowering.cp.constraints.intervals.IntervalVar`, in order; a size
        column fixed to one value (``size 5``) is given as that constant."""
        m, xs = self.m, self.xs
        self.ivs = ivs
        labels = interval_labels(ivs)
        for iv, label in zip(ivs, labels):
            col = iv.size if getattr(iv, "length", None) is None else iv.length  # (with an intensity: the length)
            lo, hi = _domain(xs[col])
            size = lo if lo == hi else xs[col]  # a fixed size: a constant, as a direct build writes it
            if iv.presence is None:
                self.intervals.append(m.new_interval_var(xs[iv.start], size, xs[iv.end], label))
            else:
                self.intervals.append(m.new_optional_interval_var(xs[iv.start], size, xs[iv.end],
                                                                  xs[iv.presence], label))

    def add(self, c: Any) -> None:
        """The constraint ``c`` (a ``CpConstraint``); raises :class:`Refused`."""
        getattr(self, "_" + c.kind)(c)

    # ------------------------------------------------------------------ helpers
    def _exprs(self, c: Any, pairs: list, what: str) -> list:
        """The affine expressions ``pairs`` (``(terms, const)``) scaled to integers together."""
        try:
            f = scale_for([v for terms, const in pairs for v in list(terms.values()) + [const]])
        except NotIntegral as e:
            raise not_integral(e, "this `%s`" % what, c.span) from None
        if f != 1:
            raise Refused("cpsat-non-integral", "`%s` over expressions with fractional coefficients has no exact "
                          "integer form" % what, "use integer coefficients", c.span)
        return [self._affine(terms, const) for terms, const in pairs]

    def _affine(self, terms: dict, const: float) -> Any:
        """``sum(terms) + const`` as one variable plus a constant (CP-SAT's global constraints take affine
        expressions): a longer sum gets an integer variable of its own."""
        xs = self.xs
        terms = {j: int(round(v)) for j, v in terms.items() if v}
        k = int(round(const))
        if not terms:
            return k
        if len(terms) == 1:
            (j, v), = terms.items()
            return v * xs[j] + k
        lo = sum(v * _domain(xs[j])[0 if v > 0 else 1] for j, v in terms.items())
        hi = sum(v * _domain(xs[j])[1 if v > 0 else 0] for j, v in terms.items())
        aux = self.m.new_int_var(lo, hi, "")
        self.m.add(aux == sum(v * xs[j] for j, v in terms.items()))
        return aux + k

    def _literal(self, col: int, value: bool) -> Any:
        x = self.xs[col]
        return x if value else x.Not()

    def true(self) -> Any:
        """A literal fixed to true (the activity of an event of an interval that is always present)."""
        if self._true is None:
            self._true = self.m.new_bool_var("true")
            self.m.add(self._true == 1)
        return self._true

    def _present(self, k: int) -> Any:
        iv = self.ivs[k]
        return self.true() if iv.presence is None else self.xs[iv.presence]

    # ------------------------------------------------------------------ kinds
    def _posted(self, c: Any) -> None:
        return None  # made of rows and conditional rows already added

    def _allDifferent(self, c: Any) -> None:
        try:
            f = scale_for([v for terms, const in c.exprs for v in list(terms.values()) + [const]])
        except NotIntegral as e:
            raise not_integral(e, "this `allDifferent`", c.span) from None
        self.m.add_all_different([self._affine({j: scaled(v, f) for j, v in terms.items()}, scaled(const, f))
                                  for terms, const in c.exprs])

    def _element(self, c: Any) -> None:
        m = self.m
        idx = self._exprs(c, [c.data["index"]], "element")[0]
        vals = self._exprs(c, c.exprs, "element")
        pos = c.data["positions"]
        if pos == list(range(pos[0], pos[0] + len(pos))):
            index = idx - pos[0] if pos[0] else idx
        else:  # the index set has holes: a position p with index == pos[p]
            index = m.new_int_var(0, len(pos) - 1, "")
            m.add_element(index, pos, idx)
        m.add_element(index, vals, self._exprs(c, [c.data["target"]], "element")[0])

    def _inverse(self, c: Any) -> None:
        n, off = c.data["n"], c.data["offset"]
        exprs = self._exprs(c, c.exprs, "inverse")
        shifted = []
        for e in exprs:
            v = self.m.new_int_var(0, n - 1, "")
            self.m.add(v == e - off)
            shifted.append(v)
        self.m.add_inverse(shifted[:n], shifted[n:])

    def _allowedAssignments(self, c: Any) -> None:
        self.m.add_allowed_assignments(self._exprs(c, c.exprs, "allowedAssignments"), c.data["tuples"])

    def _forbiddenAssignments(self, c: Any) -> None:
        self.m.add_forbidden_assignments(self._exprs(c, c.exprs, "forbiddenAssignments"), c.data["tuples"])

    def _max(self, c: Any) -> None:
        self.m.add_max_equality(self.xs[c.data["target"]], self._exprs(c, c.exprs, "max"))

    def _min(self, c: Any) -> None:
        self.m.add_min_equality(self.xs[c.data["target"]], self._exprs(c, c.exprs, "min"))

    def _product(self, c: Any) -> None:
        """``target == a * b`` (pyopl/lowering/linearise/cp_arith.py)."""
        a, b = self._exprs(c, c.exprs, "product")
        self.m.add_multiplication_equality(self.xs[c.data["target"]], [a, b])

    def _nonzero(self, e: Any, positive: bool) -> Any:
        """A variable equal to the affine ``e`` whose domain leaves out 0 (and the negatives when
        ``positive``: then it is ``|e|``), so that CP-SAT's division and modulo accept it as a divisor;
        an int ``e`` stays an int."""
        if isinstance(e, int):
            return abs(e) if positive else e
        lo, hi = _bounds_of(e)
        if positive:
            v = self.m.new_int_var(1, max(abs(lo), abs(hi), 1), "")
            self.m.add_abs_equality(v, e)
            return v
        from ortools.util.python import sorted_interval_list

        dom = [[a, b] for a, b in ((lo, min(hi, -1)), (max(lo, 1), hi)) if a <= b]
        v = self.m.new_int_var_from_domain(sorted_interval_list.Domain.from_intervals(dom), "")
        self.m.add(v == e)
        return v

    def _div(self, c: Any) -> None:
        """``target == a div b`` (truncated toward zero, ``b != 0``)."""
        a, b = self._exprs(c, c.exprs, "div")
        self.m.add_division_equality(self.xs[c.data["target"]], a, self._nonzero(b, False))

    def _mod(self, c: Any) -> None:
        """``target == a mod b`` with the sign of ``a`` (C's ``%``: ``a mod b == a mod |b|``, ``b != 0``)."""
        a, b = self._exprs(c, c.exprs, "mod")
        self.m.add_modulo_equality(self.xs[c.data["target"]], a, self._nonzero(b, True))

    def _in(self, c: Any) -> None:
        """``e in S`` as the literal of ``c.data["literal"]``: ``e`` in the ranges of ``S`` when it is
        true, in the rest of ``e``'s domain when it is false (pyopl/lowering/linearise/cp_arith.py)."""
        from ortools.util.python import sorted_interval_list

        Domain = sorted_interval_list.Domain
        e = self._exprs(c, c.exprs, "in")[0]
        b = self.xs[c.data["literal"]]
        inside = Domain.from_intervals([list(r) for r in c.data["ranges"]])
        if isinstance(e, int):
            self.m.add(b == int(inside.contains(e)))
            return
        lo, hi = _bounds_of(e)
        outside = inside.complement().intersection_with(Domain(lo, hi))
        self.m.add_linear_expression_in_domain(e, inside).only_enforce_if(b)
        self.m.add_linear_expression_in_domain(e, outside).only_enforce_if(b.Not())

    def _subCircuit(self, c: Any) -> None:
        """``subCircuit(next)``: a literal per arc ``i -> j`` equivalent to ``next[i] == j`` and CP-SAT's
        circuit over them (self-loops leave an element out)."""
        m = self.m
        nexts = self._exprs(c, c.exprs, "subCircuit")
        n = len(nexts)
        arcs = []
        for i, e in enumerate(nexts):
            m.add_linear_constraint(e, 0, n - 1)  # a position of the array
            for j in range(n):
                lit = m.new_bool_var("")
                m.add(e == j).only_enforce_if(lit)
                m.add(e != j).only_enforce_if(lit.Not())
                arcs.append((i, j, lit))
        if n:
            m.add_circuit(arcs)

    def _abs(self, c: Any) -> None:
        self.m.add_abs_equality(self.xs[c.data["target"]], self._exprs(c, c.exprs, "abs")[0])

    def _linear_if(self, c: Any) -> None:
        d = c.data
        terms = d["terms"]
        try:
            f = scale_for(list(terms.values()))
        except NotIntegral as e:
            raise not_integral(e, "this constraint", c.span) from None
        lo, hi = inner_bounds(d["lo"], d["hi"], f)
        expr = sum(scaled(v, f) * self.xs[j] for j, v in terms.items() if v)
        lits = [self._literal(col, val) for col, val in d["when"]]
        if isinstance(expr, int):
            if (lo is not None and expr < lo) or (hi is not None and expr > hi):
                self.m.add_bool_or([lit.Not() for lit in lits])
            return
        if lo is not None and hi is not None:
            ct = self.m.add_linear_constraint(expr, lo, hi)
        elif lo is not None:
            ct = self.m.add(expr >= lo)
        elif hi is not None:
            ct = self.m.add(expr <= hi)
        else:
            return
        ct.only_enforce_if(lits)

    def _sequence(self, c: Any) -> None:
        post(self, self.circuits[c.data["seq"]], c)

    def _sameSequence(self, c: Any) -> None:
        """``sameSequence``: corresponding intervals present together, and the two circuits equal arc by arc."""
        m, d = self.m, c.data
        one, two = self.circuits[d["seq"]], self.circuits[d["seq2"]]
        node2 = {0: 0}
        for i, j in d["pairs"]:
            node2[i + 1] = j + 1
            m.add(self._present(one.intervals[i]) == self._present(two.intervals[j]))
        for (u, v), lit in one.arcs.items():
            m.add(lit == two.arcs[(node2[u], node2[v])])

    def _sameCommonSubsequence(self, c: Any) -> None:
        """``sameCommonSubsequence``: for two pairs with all four intervals present, the order of the first
        intervals in one sequence (their circuit's ranks) is the order of the second ones in the other."""
        m, d = self.m, c.data
        one, two = self.circuits[d["seq"]], self.circuits[d["seq2"]]
        pairs = d["pairs"]
        for x in range(len(pairs)):
            for y in range(x + 1, len(pairs)):
                (i1, j1), (i2, j2) = pairs[x], pairs[y]
                present = [self._present(one.intervals[i1]), self._present(one.intervals[i2]),
                           self._present(two.intervals[j1]), self._present(two.intervals[j2])]
                first = m.new_bool_var("")
                m.add(one.ranks[i1] + 1 <= one.ranks[i2]).only_enforce_if([first] + present)
                m.add(two.ranks[j1] + 1 <= two.ranks[j2]).only_enforce_if([first] + present)
                m.add(one.ranks[i2] + 1 <= one.ranks[i1]).only_enforce_if([first.Not()] + present)
                m.add(two.ranks[j2] + 1 <= two.ranks[j1]).only_enforce_if([first.Not()] + present)

    def _neighbour(self, c: Any) -> None:
        post_neighbour(self, self.circuits[c.data["seq"]], c)

    def _noOverlap(self, c: Any) -> None:
        ks = c.data["intervals"]
        self.m.add_no_overlap([self.intervals[k] for k in ks])
        circuit = self.circuits.get(c.data.get("seq"))
        if circuit is not None:
            tie_to_time(self, circuit, c.data.get("matrix"), c.data.get("types"))
        if "matrix" not in c.data or c.data.get("direct"):
            return  # (with `next` true the circuit's arcs carry the distances)
        matrix, types = c.data["matrix"], c.data["types"]
        m, ivs, xs = self.m, self.ivs, self.xs
        for a in range(len(ks)):
            for b in range(a + 1, len(ks)):
                i, j = ivs[ks[a]], ivs[ks[b]]
                dij, dji = matrix.get((types[a], types[b]), 0), matrix.get((types[b], types[a]), 0)
                if not dij and not dji:
                    continue  # the plain noOverlap above says it
                both = [self._present(ks[a]), self._present(ks[b])]
                first = m.new_bool_var("")
                m.add(xs[i.end] + dij <= xs[j.start]).only_enforce_if([first] + both)
                m.add(xs[j.end] + dji <= xs[i.start]).only_enforce_if([first.Not()] + both)
                if circuit is not None:  # the same order as the sequence's
                    m.add(circuit.ranks[a] + 1 <= circuit.ranks[b]).only_enforce_if([first] + both)
                    m.add(circuit.ranks[b] + 1 <= circuit.ranks[a]).only_enforce_if([first.Not()] + both)

    def _height(self, h: Any) -> Any:
        """A height of a cumulative function: a number, or ``sign * column`` for a chosen one
        (:class:`~pyopl.lowering.cp.constraints.scheduling.VarHeight`)."""
        return h if isinstance(h, int) else h.sign * self.xs[h.col]

    def _cumul(self, c: Any) -> None:
        d = c.data
        events, lo, hi, window = d["events"], d["lo"], d["hi"], d["window"]
        if isinstance(hi, tuple):  # `f <= e`, e a decision expression: pulses only, CP-SAT's affine capacity
            if window is not None or not all(kind == "pulse" and h >= 0 for kind, _k, h in events):
                raise Refused("unsupported-cp-construct", "a cumulative function bounded by a decision expression "
                              "is compiled for sums of pulses of non-negative height", "bound it by a number, or "
                              "use pulses only", c.span)
            cap = self._exprs(c, [hi], "cumulFunction")[0]
            self.m.add_cumulative([self.intervals[k] for _kind, k, _h in events],
                                  [self._height(h) for _kind, _k, h in events], cap)
            return
        if all(kind == "pulse" and h >= 0 for kind, _k, h in events) and (lo is None or lo <= 0):
            if hi is None:
                return  # a sum of non-negative pulses is never below 0
            demands = [self._height(h) for _kind, _k, h in events]
            ivs = [self.intervals[k] for _kind, k, _h in events]
            cap = hi
            if window is not None:  # the bound only inside the window: a block there takes the rest of the capacity
                cap = max(hi, sum(abs(h) for _kind, _k, h in events))
                if window[0] == "interval":  # [start(a), end(a)) while a is present: a itself is the block
                    if cap > hi:
                        ivs.append(self.intervals[window[1]])
                        demands.append(cap - hi)
                else:
                    t0, t1 = window
                    if cap > hi and t1 > t0:
                        ivs.append(self.m.new_fixed_size_interval_var(t0, t1 - t0, ""))
                        demands.append(cap - hi)
            self.m.add_cumulative(ivs, demands, cap)
            return
        total = sum(abs(h) for _kind, _k, h in events)
        if window is None:
            # IBM (OPL Language Quick Reference, "step"): "a cumulfunction is constrained to be non-negative if it
            # is involved in a <= or alwaysIn constraint"
            lo_level = (0 if hi is not None else -total) if lo is None else lo
            hi_level = total if hi is None else hi
            if lo_level > 0 or hi_level < 0:
                raise Refused("unsupported-cp-construct", "this bound on a cumulative function excludes its level 0 "
                              "before the first event (%s..%s), which CP-SAT's reservoir cannot say" % (
                                  lo_level, hi_level), "bound the level with `f <= capacity` (capacity >= 0) or "
                              "`f >= level` (level <= 0), or use `alwaysIn` over a window", c.span)
        times, changes, actives = [], [], []
        for kind, k, h in events:
            if kind == "step":  # at the fixed time k
                times.append(k); changes.append(h); actives.append(self.true())
                continue
            iv, act = self.ivs[k], self._present(k)
            if kind in ("pulse", "stepAtStart"):
                times.append(self.xs[iv.start]); changes.append(self._height(h)); actives.append(act)
            if kind in ("pulse", "stepAtEnd"):
                times.append(self.xs[iv.end]); changes.append(self._height(-1 * h if kind == "pulse" else h))
                actives.append(act)
        if window is None:
            self.m.add_reservoir_constraint_with_active(times, changes, actives, lo_level, hi_level)
            return
        self._always_in(times, changes, actives, total, lo, hi, window)

    def _always_in(self, times: list, changes: list, actives: list, total: int, lo: Any, hi: Any, window: tuple) -> None:
        """``alwaysIn(f, window, lo, hi)`` for any cumulative function (steps, negative heights, ``lo > 0``):
        the level of ``f`` is within ``-total..total`` everywhere, so a reservoir over ``f``'s events plus a
        shift ``d`` on the window (a step of ``d`` at its start and ``-d`` at its end, both at a fixed time
        or at the interval's start and end while it is present) bounds ``f`` inside the window only: with
        ``d = total - hi``, ``f + d <= total`` is ``f <= hi`` there and always true outside; with
        ``d = -total - lo``, ``f + d >= -total`` is ``f >= lo``.  One reservoir per bound."""
        if window[0] == "interval":
            iv = self.ivs[window[1]]
            t0, t1, act = self.xs[iv.start], self.xs[iv.end], self._present(window[1])
        else:
            t0, t1, act = window[0], window[1], self.true()
            if t1 <= t0:
                return  # an empty window constrains nothing
        if any(not isinstance(x, int) or x < 0 for x in changes):  # IBM: f >= 0 everywhere once in an alwaysIn
            self.m.add_reservoir_constraint_with_active(times, changes, actives, 0, max(total, 0))
        shifts = []
        if hi is not None and hi < total:
            shifts.append(total - hi)  # f + d <= total inside: f <= hi
        if lo is not None and lo > 0:
            shifts.append(-total - lo)  # f + d >= -total inside: f >= lo
        for d in shifts:
            self.m.add_reservoir_constraint_with_active(times + [t0, t1], changes + [d, -d], actives + [act, act],
                                                        -total, total)
