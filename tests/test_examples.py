"""The bundled examples solve to optima computed here independently with SciPy."""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, linprog, milp

import pyopl

EX = Path(__file__).resolve().parents[1] / "examples"


def test_transport_example_matches_linprog():
    supply = [400, 300, 350]
    demand = [250, 200, 220, 180]
    cost = np.array([[4.0, 6.5, 2.5, 8.0], [7.0, 2.0, 5.5, 9.5], [3.0, 9.0, 7.5, 4.5]])
    P, M = cost.shape
    A_ub, b_ub = [], []
    for p in range(P):
        row = np.zeros(P * M); row[p * M:(p + 1) * M] = 1
        A_ub.append(row); b_ub.append(supply[p])
    for m in range(M):
        row = np.zeros(P * M); row[m::M] = -1
        A_ub.append(row); b_ub.append(-demand[m])
    ref = linprog(cost.ravel(), A_ub=np.array(A_ub), b_ub=b_ub, bounds=(0, None))
    r = pyopl.compile_model(EX / "transport.mod", EX / "transport.dat").solve()
    assert r.status == "optimal" and r.objective == pytest.approx(ref.fun, rel=1e-9)


def test_staffing_example_matches_milp():
    need = [17, 13, 15, 19, 14, 16, 11]
    wage = [1.0] * 5 + [1.2] * 2
    A = np.zeros((7, 7))
    for d in range(7):
        for s in range(7):
            if (d - s) % 7 <= 4:
                A[d, s] = 1
    ref = milp(wage, constraints=LinearConstraint(A, lb=need), integrality=np.ones(7), bounds=Bounds(0, np.inf))
    r = pyopl.compile_model(EX / "staffing.mod").solve()
    assert r.objective == pytest.approx(ref.fun, rel=1e-9)


def test_facility_example_matches_enumeration_of_open_sites():
    fixed = [500, 420, 610, 380]
    cap = [90, 70, 120, 60]
    dem = [30, 25, 40, 20, 35]
    cost = np.array([[2, 3, 6, 5, 4], [4, 2, 3, 6, 5], [6, 5, 2, 3, 2], [3, 6, 5, 2, 4]], float)
    best = np.inf
    for open_ in itertools.product([0, 1], repeat=4):
        if open_[0] and open_[3]:
            continue  # the coastal rule
        S, C = 4, 5
        A_eq = np.zeros((C, S * C)); A_ub = np.zeros((S, S * C))
        for s in range(S):
            for c in range(C):
                A_eq[c, s * C + c] = 1
                A_ub[s, s * C + c] = 1
        ub = [100 if open_[s] else 0 for s in range(S) for _ in range(C)]
        lp = linprog(cost.ravel(), A_ub=A_ub, b_ub=cap, A_eq=A_eq, b_eq=dem, bounds=list(zip([0] * 20, ub)))
        if lp.status == 0:
            best = min(best, lp.fun + sum(f for f, o in zip(fixed, open_) if o))
    r = pyopl.compile_model(EX / "facility.mod").solve()
    assert r.objective == pytest.approx(best, rel=1e-9)


@pytest.mark.parametrize("source", ["sheet", "sqlite", "csv"])
def test_data_source_examples_match_linprog(source, tmp_path):
    """examples/data-sources: the transport data from a workbook, a SQLite file and CSV files gives
    the optimum of the transport example (linprog above), and the plan goes where the .dat says."""
    pytest.importorskip("openpyxl", reason="openpyxl (extra `sheets`, in `dev`) is not installed")
    import importlib.util
    import shutil

    folder = tmp_path / "ex"
    shutil.copytree(EX / "data-sources", folder, ignore=shutil.ignore_patterns("*.db", "*.out"))
    spec = importlib.util.spec_from_file_location("make_sources", folder / "make_sources.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    make.make_database(folder / "transport.db")
    supply, demand = make.SUPPLY, make.DEMAND
    cost = np.array(make.COST)
    P, M = cost.shape
    A_ub = [np.kron(np.eye(P)[p], np.ones(M)) for p in range(P)] + [-np.tile(np.eye(M)[m], P) for m in range(M)]
    ref = linprog(cost.ravel(), A_ub=np.array(A_ub), b_ub=list(supply) + [-d for d in demand], bounds=(0, None))
    r = pyopl.solve(folder / "transport.mod", folder / ("%s.dat" % source))
    assert r.status == "optimal", [(d.code, d.message) for d in r.diagnostics]
    assert r.objective == pytest.approx(ref.fun, rel=1e-9)
    if source == "sqlite":
        import sqlite3

        rows = sqlite3.connect(folder / "transport.db").execute("SELECT sum(amount) FROM plan").fetchone()
        assert rows[0] == pytest.approx(sum(demand))
    if source == "sheet":
        import openpyxl

        wb = openpyxl.load_workbook(folder / "transport.out" / "transport.xlsx")
        assert wb["plan"]["B6"].value == pytest.approx(ref.fun)
