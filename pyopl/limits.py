"""Work limits of one compilation: how much the compiler may expand before it stops with a diagnostic.

Every input ends, with a model or a diagnostic, in bounded time and memory: the loops that
a model asks for (``sum``, ``forall``, comprehensions, generic arrays, ``asSet``) are counted
against :attr:`Limits.max_work`; expressions nested deeper than :attr:`Limits.max_nesting` and
strings longer than :attr:`Limits.max_string` are refused. The defaults hold every model of the
test corpora with a wide margin; raise them with ``pyopl.compile_model(..., limits=Limits(...))``
or ``pyopl check|solve|export --max-work N``. See ``docs/limits.md``.
"""
from __future__ import annotations

from dataclasses import dataclass

#: Default :attr:`Limits.max_work`: iterations a compilation may expand (minutes of Python work).
DEFAULT_MAX_WORK = 250_000_000
#: Default :attr:`Limits.max_nonzeros`: constraint-matrix nonzeros a compilation may make (2.5 times the
#: largest benchmark family, 2 x 10^7; the model a runaway `forall` makes is far past it).
DEFAULT_MAX_NONZEROS = 50_000_000
#: Default :attr:`Limits.max_set_elements`: elements the sets a model computes may hold in all (union,
#: inter, diff, symdiff, comprehensions, ``union(...)`` aggregates, ``asSet``): about 110 bytes each, 1.1 GB.
DEFAULT_MAX_SET_ELEMENTS = 10_000_000
#: Default :attr:`Limits.max_nesting`: expression nesting levels (a chain ``a + b + c`` is one level).
DEFAULT_MAX_NESTING = 100
#: Default :attr:`Limits.max_string`: characters in one string value.
DEFAULT_MAX_STRING = 1_000_000
#: Default :attr:`Limits.eplin`: CPLEX's "epsilon used in linearization" (parameter ``eplin``).
DEFAULT_EPLIN = 1e-3
#: Elements of one iteration domain, and of a set made from a range by ``asSet`` (fixed; OPL0604).
MAX_ITERATIONS = 50_000_000


@dataclass(frozen=True)
class Limits:
    """Budgets of one compilation.

    ``max_work``: the number of candidate bindings that the model's iterations may examine
    in all (each element of each iteration domain visited by ``sum``, ``prod``, ``min``,
    ``max``, ``forall``, set and array comprehensions and generic arrays counts one, filtered
    out or not; ``asSet`` counts the elements it copies). A single iteration whose size is
    known before it starts (the product of its domains' sizes, up to its first filter or
    dependent domain) is refused before it starts when it would exceed what is left; the
    others are counted as they run. Diagnostic OPL1140.
    ``max_nonzeros``: the nonzeros of the constraint matrix that the constraints may make in all
    (the model's size, which its memory and the solver's follow). Counted as rows are made; a
    top-level `forall` whose candidates are known before it starts is refused early, once the
    nonzeros it made from its first candidates, scaled to all of them, go far past the limit
    (:mod:`pyopl.lowering.forms.size_limit`). Diagnostic OPL1144.
    ``max_set_elements``: the elements that the sets the model computes (``union``, ``inter``,
    ``diff``, ``symdiff``, set comprehensions, ``union(...)`` aggregates, ``asSet``) may hold in all,
    counted before each set is built (its memory). Data sets read from ``.dat`` do not count. OPL1144.
    ``max_nesting``: how deeply expressions may nest (parentheses around a right operand,
    unary signs, indexing inside indexing, aggregates inside aggregates); a left-associative
    chain such as ``a + b + c`` or ``c1 && c2 && c3`` of any length is one level. OPL1141.
    ``max_string``: characters in a string literal or a string computed by ``+``. OPL1142.
    ``eplin``: not a budget but the one numeric setting of the compilation, CPLEX's linearisation
    tolerance (IBM CPLEX Parameters Reference, "epsilon used in linearization", default 1e-3):
    inside a logical constraint a strict comparison or ``!=`` on a continuous expression holds
    with this margin (``x > y`` as ``x >= y + eplin``). A script's ``cplex.eplin = ...`` wins.
    Raises ValueError for a limit that is not a positive integer, or an ``eplin`` that is not a
    positive finite number.
    """

    max_work: int = DEFAULT_MAX_WORK
    max_nonzeros: int = DEFAULT_MAX_NONZEROS
    max_set_elements: int = DEFAULT_MAX_SET_ELEMENTS
    max_nesting: int = DEFAULT_MAX_NESTING
    max_string: int = DEFAULT_MAX_STRING
    eplin: float = DEFAULT_EPLIN

    def __post_init__(self):
        e = self.eplin
        if isinstance(e, bool) or not isinstance(e, (int, float)) or not 0 < e < float("inf"):
            raise ValueError("Limits.eplin must be a positive number, not %r" % (e,))
        for name in ("max_work", "max_nonzeros", "max_set_elements", "max_nesting", "max_string"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError("Limits.%s must be a positive integer, not %r" % (name, v))
