"""A tuple whose fields hold an array or a set, taken from one tuple set into another (`{Task} late = {t |
t in Tasks : ...}`) or into a tuple declaration, is the same tuple: IBM's OPL compares array and set
fields by identity ("Limitations on tuples"), so the copy pyopl made when converting the declared value
indexed nothing the first set indexes (OPL0301 "not in the index set" on `x[t]`)."""
from __future__ import annotations

import pyopl

DAT = 'Tasks = { <"a", 2, [1, 0], {"b"}>, <"b", 3, [2, 1], {}>, <"c", 1, [0, 2], {"a"}> };\n'
HEAD = ("tuple Task { key string id; int pt; int dmds[0..1]; {string} succs; }\n{Task} Tasks = ...;\n"
        "{Task} Long = {t | t in Tasks : t.pt >= 2};\n")


def test_a_subset_of_tuples_with_array_fields_indexes_the_arrays_of_the_whole_set():
    # minimise the sum of x over all tasks with x[t] >= t.pt on the long ones (a: 2, b: 3) and x[f] >= 1
    # for the first task (a): by hand 2 + 3 + 0 = 5, x[a] = 2, x[b] = 3, x[c] = 0
    src = HEAD + ("Task f = first(Tasks);\ndvar float+ x[Tasks];\nminimize sum(t in Tasks) x[t];\n"
                  "subject to { forall(t in Long) x[t] >= t.pt; x[f] >= 1; }\n")
    r = pyopl.solve(src, DAT)
    assert r.status == "optimal" and r.objective == 5
    assert sorted(r.variables["x"].values()) == [0, 2, 3]


def test_a_cp_subset_of_such_tuples_indexes_their_intervals():
    # a (size 2, uses 1) and b (size 3, uses 2) under capacity 2 cannot overlap; b, the only task with no
    # successors among the long ones, starts at 1 or later; c (size 1, uses 0 of resource 0) anywhere.
    # By hand: a [0,2) then b [2,5) gives makespan 5; b first ([1,4)) then a ends at 6: the optimum is 5.
    src = "using CP;\n" + HEAD + (
        "{Task} Last = {t | t in Long : card(t.succs) == 0};\ndvar interval itv[t in Tasks] size t.pt;\n"
        "cumulFunction use = sum(t in Tasks : t.dmds[0] > 0) pulse(itv[t], t.dmds[0]);\n"
        "minimize max(t in Tasks) endOf(itv[t]);\n"
        "subject to { use <= 2; forall(t in Last) startOf(itv[t]) >= 1; }\n")
    r = pyopl.solve(src, DAT)
    assert r.status == "optimal" and r.objective == 5
    b = [v for k, v in r.variables["itv"].items() if k[0][0] == "b"][0]
    assert (b.start, b.end) == (2, 5)
