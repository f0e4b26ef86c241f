"""The work budget of one compilation (:class:`pyopl.limits.Limits`): iterations counted, huge
expansions refused before they start, powers and strings checked before they are computed.

What counts (``Limits.max_work``): every candidate binding an iteration examines, filtered out or
not. :meth:`Budget.charge` is called once per level of an iteration with that level's domain size
(no cost per element); :func:`upfront_size` multiplies the sizes of an iteration's domains that are
known before it starts (up to the first filter or dependent domain), so that ``sum(i in R, j in R)``
over 10^10 pairs is refused before its first pair. The NumPy fast paths charge the same sizes
before they allocate.
"""
from __future__ import annotations

import math
from typing import Any

from ...limits import Limits
from ...syntax import ast as A
from ...syntax.nesting import child_nodes
from .errors import EvalError

_HELP = ("check the index sets' sizes (a model this large is usually a mistake); to allow more, pass "
         "`--max-work N` to `pyopl check|solve|export`, or `limits=pyopl.Limits(max_work=N)` to the API")
#: A power whose result would need this many bits or more is refused before it is computed: no
#: double holds it (OPL's float is a double, its int 32-bit), and Python would spend time and memory on it.
MAX_POWER_BITS = 1024


def what(node: Any) -> str:
    """How a diagnostic names the expansion ``node`` (``this `sum```, ``this `forall```, ...)."""
    if isinstance(node, A.Aggregate):
        return "this `%s`" % node.op
    name = type(node).__name__
    if name.startswith("Forall"):
        return "this `forall`"
    if isinstance(node, A.SetComp):
        return "this set comprehension"
    if isinstance(node, A.ArrayComp):
        return "this array comprehension"
    if isinstance(node, A.Call):
        return "`%s`" % node.func
    if isinstance(node, A.Binary):
        return "this `%s`" % node.op
    return "this iteration"


class Budget:
    """The work left to one compilation. ``used`` counts candidate bindings examined so far."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.max_work = limits.max_work
        self.used = 0
        self.exhausted = False  # set once the count ran past the budget: the compilation stops there
        self.held = 0  # elements of the sets the model computed so far (Limits.max_set_elements)

    def refuse_size(self, size: int, node: Any, shape: list[int] | None = None) -> None:
        """Raise the work-limit diagnostic at ``node`` when an expansion of ``size`` candidates,
        known before it starts, exceeds what is left of the budget."""
        if size <= self.max_work - self.used:
            return
        if size <= self.max_work:
            self.exhausted = True  # it fits a whole budget: what was spent before leaves too little
        dims = " (%s)" % " x ".join(f"{n:,}" for n in shape) if shape and len(shape) > 1 else ""
        left = self.max_work - self.used
        raise EvalError("work-limit", node.span, "%s would examine %s combinations%s, more than the work budget "
                        "allows (%s%s)" % (what(node), _count(size), dims, f"{left:,}",
                                           " left of %s" % f"{self.max_work:,}" if left != self.max_work else ""),
                        help=_HELP)

    def charge(self, n: int, node: Any) -> None:
        """Count ``n`` candidate bindings of ``node``'s iteration; past the budget, raise the
        work-limit diagnostic at ``node`` and mark the budget exhausted."""
        self.used += n
        if self.used > self.max_work:
            self.exhausted = True
            raise EvalError("work-limit", node.span, "the model's iterations have examined more than %s combinations "
                            "in all, the work budget; %s went past it" % (f"{self.max_work:,}", what(node)),
                            help=_HELP)

    def hold(self, n: int, node: Any, made: int | None = None) -> None:
        """Count a computed set of ``n`` elements about to be built at ``node`` (its memory); past
        ``Limits.max_set_elements`` in all, raise the size-limit diagnostic (OPL1144) at ``node``
        before the set is made, and stop the compilation. ``made``: for a set counted in parts as
        it grows (a comprehension), its elements so far, ``n`` included (the message said "would
        make a set of 4,096 elements", the last part, of a comprehension that had made 10 million)."""
        limit = getattr(self.limits, "max_set_elements", None)
        if limit is None:
            return
        self.held += n
        if self.held > limit:
            self.exhausted = True
            before = self.held - n
            if made is not None and made > n:
                size = "has made %s elements so far" % _count(made)
            else:
                size = "would make a set of %s elements" % _count(n)
            raise EvalError("size-limit", node.span, "%s %s%s, past the size limit for "
                            "the sets a model computes (%s elements in all)" % (
                                what(node), size, ", which brings the computed sets to %s" % _count(self.held)
                                if before else "", f"{limit:,}"),
                            help="check the sets' sizes (a set this large is usually a mistake); to allow more, pass "
                                 "`limits=pyopl.Limits(max_set_elements=N)` to the API")

    def room(self) -> int:
        """Elements the computed sets may still hold."""
        limit = getattr(self.limits, "max_set_elements", None)
        return (limit - self.held) if limit is not None else 1 << 62

    def spend(self, n: int, node: Any) -> None:
        """:meth:`refuse_size` then :meth:`charge`: ``n`` elements about to be built at ``node``."""
        self.refuse_size(n, node)
        self.charge(n, node)

    def check_string(self, s: str, node: Any) -> str:
        """``s``, or the string-limit diagnostic at ``node`` when it is longer than allowed."""
        if len(s) > self.limits.max_string:
            raise EvalError("string-limit", node.span, "this string has %s characters, more than pyopl allows (%s)" % (
                f"{len(s):,}", f"{self.limits.max_string:,}"),
                help="keep long texts out of the model; to allow more, pass `limits=pyopl.Limits(max_string=N)`")
        return s


def binder_size(b: A.Binder, n: int) -> int:
    """Candidates a binder with a domain of ``n`` elements examines (``i, j in S``: every pair)."""
    k = len(b.patterns)
    if k == 1:
        return n
    return math.comb(n, k) if b.ordered else n ** k


def power_bits(a: Any, b: Any) -> float:
    """About how many bits ``a ** b`` needs (0 when it cannot grow: a zero or negative exponent, a base of 0 or ±1)."""
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return 0.0
    try:
        mag = abs(a)
        if b <= 0 or mag in (0, 1) or mag != mag or b != b:
            return 0.0
        return float(b) * math.log2(mag)
    except (OverflowError, ValueError):
        return math.inf


def check_power(node: Any, a: Any, b: Any) -> None:
    """Refuse ``a ^ b`` (value-overflow at ``node``) before computing it when the result needs
    :data:`MAX_POWER_BITS` bits or more: no double holds it, and Python would spend time and memory on it."""
    bits = power_bits(a, b)
    if bits >= MAX_POWER_BITS:
        raise EvalError("value-overflow", node.span, "this power is too large to compute (about 2^%s)" % (
            f"{bits:,.0f}" if bits != math.inf else "infinity"),
            help="check the data's magnitude: the largest float is about 1.8e308 (2^1024)")


def domain_len(domain: Any) -> int:
    """Elements of an iteration domain (0 for one without a length: iterating it reports the error)."""
    try:
        return len(domain)
    except TypeError:
        return 0


def names_in(expr: Any) -> set[str]:
    """Every name an expression mentions (walked without recursion)."""
    out: set[str] = set()
    stack = [expr]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Name):
            out.add(n.id)
            continue
        stack.extend(child_nodes(n))
    return out


def bound_before(quals: A.Qualifiers) -> list[bool]:
    """For each binder: whether its domain uses a name bound by an earlier binder of ``quals``."""
    out, bound = [], set()
    for b in quals.binders:
        out.append(bool(names_in(b.domain) & bound))
        for p in b.patterns:
            bound.update(p.names())
    return out


def _count(n: int) -> str:
    """``n`` with thousands separators, or its order of magnitude past 10**18 (a range such as
    ``1..1e300`` has 301 digits of elements)."""
    return f"{n:,}" if n < 10 ** 18 else "about 10^%d" % (len(str(n)) - 1)
