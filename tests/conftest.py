"""Test-wide settings.

Property tests run derandomized by default, so that the suite gives the same verdict on every
run (CI included).  ``PYOPL_HYPOTHESIS_PROFILE=ci`` draws a quarter of the examples (CI on
loaded machines); ``PYOPL_HYPOTHESIS_PROFILE=explore`` searches for new failing examples (pin
whatever it finds as a plain test).  See ``tests/property_budget.py``.  No profile has a deadline
or the ``too_slow`` health check: no verdict depends on the machine's speed.

At the end of a run, the reasons tests were skipped are summed up on one line each (most skips
are tests that need ``../shared``, the shared material described in the README).
"""
from __future__ import annotations

import collections

from hypothesis import settings

from property_budget import PROFILE, SPEED_CHECKS

settings.register_profile("default-derandomized", derandomize=True, deadline=None, suppress_health_check=SPEED_CHECKS)
settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=SPEED_CHECKS)
settings.register_profile("explore", derandomize=False, deadline=None, suppress_health_check=SPEED_CHECKS)
settings.load_profile(PROFILE)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line per skip reason, with its count (issue 30: 81 tests skipped silently without ../shared)."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    reasons: collections.Counter = collections.Counter()
    for rep in skipped:
        longrepr = rep.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    terminalreporter.write_sep("-", "skip reasons")
    for reason, n in reasons.most_common():
        terminalreporter.write_line("%4d skipped: %s" % (n, reason))
