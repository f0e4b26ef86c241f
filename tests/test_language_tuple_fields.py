"""Array- and set-valued tuple fields (IBM's `fixed` example shape), checked against brute force."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

import pyopl

MODEL = """
{string} Machines = ...;
{string} Products = ...;
{string} Resources = ...;
int Capacity[Resources] = ...;
int MaxProduction = max(r in Resources) Capacity[r];
int RentingCost[Machines] = ...;
tuple productType {
   int profit;
   {string} machines;
   int use[Resources];
}
productType Product[Products] = ...;
dvar boolean Rent[Machines];
dvar int Produce[Products] in 0..MaxProduction;
maximize sum(p in Products) Product[p].profit * Produce[p] - sum(m in Machines) RentingCost[m] * Rent[m];
subject to {
  forall(r in Resources)
    ctCapacity: sum(p in Products) Product[p].use[r] * Produce[p] <= Capacity[r];
  forall(p in Products, m in Product[p].machines)
    ctMaxProd: Produce[p] <= MaxProduction * Rent[m];
}
"""
DATA = """
Machines = { shirtM shortM pantM };
Products = { shirt shorts pants };
Resources = { labor cloth };
Capacity = [ 150 160 ];
RentingCost = [ 200 150 100 ];
Product = [ <6 {shirtM} [ 3 4 ]> <4 {shortM} [ 2 3 ]> <7 {pantM} [ 6 4 ]> ];
"""


def _brute_force() -> float:
    profit, use, cap, rent = [6, 4, 7], [[3, 4], [2, 3], [6, 4]], [150, 160], [200, 150, 100]
    best = -np.inf
    for rented in itertools.product([0, 1], repeat=3):
        res = milp(-np.array(profit, float), constraints=LinearConstraint(np.array(use, float).T, ub=cap),
                   integrality=np.ones(3), bounds=Bounds(0, [160 * r for r in rented]))
        if res.status == 0:
            best = max(best, -res.fun - sum(a * b for a, b in zip(rent, rented)))
    return best


def test_array_and_set_fields_of_tuples_read_from_data():
    r = pyopl.compile_model(MODEL, DATA).solve()
    assert r.status == "optimal" and r.objective == pytest.approx(_brute_force())


def test_generic_array_field_is_refused():
    (d,) = pyopl.check("tuple T { int a[i in 1..2]; }\ndvar float+ x;\nminimize x;").errors
    assert d.code == "OPL0624" and d.line == 1


def test_array_field_of_the_wrong_length_names_the_field():
    bad = DATA.replace("[ 3 4 ]", "[ 3 4 5 ]")
    errs = pyopl.check(MODEL, bad).errors
    assert errs and errs[0].code == "OPL0404" and "use" in errs[0].message
