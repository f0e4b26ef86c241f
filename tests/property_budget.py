"""How many examples each property test draws, and the one place that scales it.

The profile comes from ``PYOPL_HYPOTHESIS_PROFILE`` (read in ``tests/conftest.py``):

- ``default-derandomized`` (default): the counts as written in each test;
- ``ci``: a quarter of them (at least 10), for loaded CI machines (issue 30: the suite took 18
  minutes on two loaded cores);
- ``explore``: four times as many, not derandomized, to search for new failing examples.

Every profile has ``deadline=None`` and suppresses the ``too_slow`` health check, so no verdict
depends on the machine's speed.  A test writes ``@settings(max_examples=examples(300), ...)``.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck

PROFILE = os.environ.get("PYOPL_HYPOTHESIS_PROFILE", "default-derandomized")
_SCALE = {"ci": 0.25, "explore": 4.0}.get(PROFILE, 1.0)

#: health checks no test may depend on: they measure the machine's speed
SPEED_CHECKS = [HealthCheck.too_slow]


def examples(n: int) -> int:
    """``n`` examples scaled by the profile (at least 10)."""
    return max(10, int(n * _SCALE))
