"""Progress updates from SCIP and CPLEX (issue 48), as HiGHS and Gurobi give them: the callable
passed as `progress=` gets the elapsed time, the incumbent, the bound and the node count, and the
last incumbent it sees is the optimum (worked out by hand)."""
from __future__ import annotations

import importlib.util

import pytest

import pyopl

# By hand: values 10, 13, 7, 8, 4 with weights 5, 6, 4, 4, 2 and capacity 12: {2, 4, 5} weighs 12
# and is worth 25; no other subset within 12 reaches 25 (checked in the test by enumeration).
KNAPSACK = """int n = 5;
int v[1..n] = [10, 13, 7, 8, 4];
int w[1..n] = [5, 6, 4, 4, 2];
dvar boolean take[1..n];
maximize sum(i in 1..n) v[i] * take[i];
subject to { sum(i in 1..n) w[i] * take[i] <= 12; }
"""


def _best() -> int:
    import itertools

    v, w = [10, 13, 7, 8, 4], [5, 6, 4, 4, 2]
    return max(sum(a * b for a, b in zip(v, pick)) for pick in itertools.product([0, 1], repeat=5)
               if sum(a * b for a, b in zip(w, pick)) <= 12)


@pytest.mark.parametrize("solver, module", [("scip", "pyscipopt"), ("cplex", "cplex")])
def test_mip_progress_reaches_the_callable(solver, module):
    if importlib.util.find_spec(module) is None:
        pytest.skip("%s is not installed" % module)
    seen: list[dict] = []
    r = pyopl.compile_model(KNAPSACK, source="text").solve(solver=solver, progress=seen.append,
                                                            options={"presolving/maxrounds": 0} if solver == "scip"
                                                            else {"preprocessing.presolve": 0})
    assert r.status == "optimal" and r.objective == _best() == 25
    assert seen, "no progress update"
    assert all(u["elapsed_s"] >= 0 and "nodes" in u for u in seen)
    incumbents = [u["incumbent"] for u in seen if u.get("incumbent") is not None]
    assert incumbents and max(incumbents) <= 25 + 1e-9  # never better than the optimum (maximising)



class _Broken(Exception):
    pass


@pytest.mark.parametrize("solver, module", [("highs", "highspy"), ("scip", "pyscipopt"), ("cplex", "cplex"),
                                            ("gurobi", "gurobipy")])
def test_a_progress_function_that_raises_stops_the_solve_and_its_error_reaches_the_caller(solver, module):
    """Raised inside the solver's callback, the caller's error was lost: HiGHS answered status `error`
    ("kSolveError"), SCIP printed tracebacks and failed with "SCIP: unspecified error!". It is raised
    by `solve` once the solver has returned; the model then solves as before (25 by enumeration)."""
    if importlib.util.find_spec(module) is None:
        pytest.skip("%s is not installed" % module)
    calls = []

    def broken(update):
        calls.append(update)
        raise _Broken("the caller's own bug")

    model = pyopl.compile_model(KNAPSACK, source="text")
    opts = {"scip": {"presolving/maxrounds": 0}, "cplex": {"preprocessing.presolve": 0},
            "gurobi": {"Presolve": 0}}.get(solver)  # (without presolve each calls progress at least once)
    with pytest.raises(_Broken, match="the caller's own bug"):
        model.solve(solver=solver, progress=broken, options=opts)
    assert len(calls) == 1  # not called again once it failed
    assert model.solve(solver=solver).objective == _best() == 25


def test_a_progress_that_is_not_callable_is_a_type_error():
    with pytest.raises(TypeError, match="progress is a function of one dict"):
        pyopl.compile_model(KNAPSACK, source="text").solve(progress=5)
