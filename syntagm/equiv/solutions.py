"""Solution evidence: the optimal objectives and the multisets of optimal variable values of
two solved models (the weakest evidence :mod:`.compare` uses, and says so)."""
from __future__ import annotations

from collections import Counter
from typing import Any


def leaves(values: Any) -> list[float]:
    """Every number in a nested dict/list of solution values (booleans and None left out)."""
    if isinstance(values, dict):
        return [x for v in values.values() for x in leaves(v)]
    if isinstance(values, (list, tuple)):
        return [x for v in values for x in leaves(v)]
    if isinstance(values, bool) or values is None:
        return []
    try:
        return [float(values)]
    except (TypeError, ValueError):
        return []


def value_multiset(variables: Any, scale: float, tol: float) -> Counter:
    """The values, each rounded to a grid of ``tol · max(1, scale)``, as a multiset."""
    step = tol * max(1.0, scale)
    return Counter(round(v / step) for v in leaves(variables or {}))


def same_values(a: Any, b: Any, tol: float) -> bool:
    """Whether two solutions' ``variables`` have equal value multisets (rounded as above)."""
    scale = max((abs(v) for v in leaves(a) + leaves(b)), default=1.0)
    return value_multiset(a, scale, tol) == value_multiset(b, scale, tol)
