"""The statistics a method comparison needs, from counts (no SciPy needed).

- :func:`wilson_interval`: the Wilson score interval of a binomial proportion (Wilson, 1927),
  at 95 % by default (z = 1.959963984540054);
- :func:`mcnemar_exact`: the exact (binomial) two-sided McNemar test on the discordant pairs
  of a paired comparison: ``p = min(1, 2 * P(X <= min(b, c)))`` for ``X ~ Bin(b + c, 1/2)``;
- :func:`cluster_interval`: a percentile bootstrap interval of the mean success rate that
  resamples *problems* (each with all its samples), for samples that are not independent;
- :func:`pass_at_k`: the unbiased estimator of pass@k from ``n`` samples with ``c`` correct
  (Chen et al., 2021, "Evaluating Large Language Models Trained on Code"):
  ``1 - C(n - c, k) / C(n, k)``.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """``(low, high)`` of the Wilson score interval for ``successes`` out of ``n``; ``None`` when ``n == 0``."""
    if n <= 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for ``b`` pairs where only the first method is right and
    ``c`` where only the second is; 1.0 when there is no discordant pair."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """The unbiased pass@k estimate from ``n`` samples of which ``c`` are correct; ``None`` when ``k > n``."""
    if k > n or k <= 0 or n <= 0:
        return None
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def cluster_interval(per_problem: list[list[bool]], level: float = 0.95, resamples: int = 2000,
                     seed: int = 0) -> list[float] | None:
    """``[low, high]`` of a percentile bootstrap interval for the pooled success rate
    (successes / samples) of ``per_problem`` (each problem's sample verdicts), resampling whole
    problems with replacement (a cluster bootstrap), with a fixed ``seed`` so a report is
    reproducible; ``None`` without problems.  A problem's samples move together, so the width
    reflects the number of problems, not of samples."""
    import numpy as np

    if not per_problem:
        return None
    succ = np.array([sum(v) for v in per_problem], dtype=float)
    size = np.array([len(v) for v in per_problem], dtype=float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(per_problem), size=(resamples, len(per_problem)))
    rates = succ[idx].sum(axis=1) / size[idx].sum(axis=1)
    lo, hi = np.quantile(rates, [(1 - level) / 2, 1 - (1 - level) / 2])
    return [round(float(lo), 6), round(float(hi), 6)]
