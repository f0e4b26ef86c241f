"""The skip-reason summary at the end of a run (tests/conftest.py, issue 30: 81 tests skipped
silently in a clone without ../shared)."""
from __future__ import annotations

from pathlib import Path

pytest_plugins = ["pytester"]


def test_the_run_ends_with_one_line_per_skip_reason(pytester):
    here = Path(__file__).resolve().parent
    pytester.makeconftest((here / "conftest.py").read_text())
    pytester.makepyfile(property_budget=(here / "property_budget.py").read_text())
    pytester.makepyfile(test_demo="""
import pytest

@pytest.mark.parametrize("i", range(3))
def test_needs_shared(i):
    pytest.skip("needs ../shared (the shared material, see README)")

def test_other():
    pytest.skip("needs gurobipy")

def test_runs():
    assert True
""")
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=4)
    result.stdout.fnmatch_lines(["*skip reasons*", "   3 skipped: needs ../shared (the shared material, see README)",
                                 "   1 skipped: needs gurobipy"])
