"""`first`, `last`, `before` and `prev` on a `dvar sequence` (OPL manual, "Constraints on sequence
variables") on CP-SAT.  Each expected optimum is computed here by brute force: every choice of the
present optional intervals and every order of them, each scheduled as early as possible on one
machine (the objectives are regular, so a left-shifted schedule is optimal for its order)."""
from __future__ import annotations

import itertools

import pytest

import pyopl

pytest.importorskip("ortools.sat.python.cp_model")

DUR = [3, 2, 4, 1]
WEIGHT = [1, 2, 3, 2]
ABSENT = [0, 0, 40, 15]  # the cost of leaving an optional interval out (intervals 3 and 4 are optional)
TYPES = [0, 1, 0, 1]
SETUP = [[0, 2], [1, 0]]  # SETUP[t1][t2]: the time from an interval of type t1 to a later one of type t2

MODEL = """using CP;
range I = 1..4;
int dur[I] = [3, 2, 4, 1];
int w[I] = [1, 2, 3, 2];
int pen[I] = [0, 0, 40, 15];
int ty[I] = [0, 1, 0, 1];
int setup[0..1][0..1] = [[0, 2], [1, 0]];
dvar interval a[i in I] %s size dur[i];
dvar sequence s in a types ty;
minimize sum(i in I) (w[i] * endOf(a[i]) + pen[i] * (1 - presenceOf(a[i])));
subject to {
  %s;
  %s
}
"""


def _best(rule, setup: bool, matrix: list = SETUP, direct: bool = False) -> int:
    """The optimum over every set of present intervals (1 and 2 always) and every order of them
    that ``rule(order)`` accepts (``order``: interval numbers 0..3, first to last); with ``setup``,
    ``matrix[t1][t2]`` separates each interval from every later one, or with ``direct`` from the
    next one only."""
    best = None
    for extra in itertools.product([False, True], repeat=2):
        present = [0, 1] + [k for k, on in zip((2, 3), extra) if on]
        for order in itertools.permutations(present):
            if not rule(list(order)):
                continue
            end: dict = {}
            for pos, j in enumerate(order):
                earlier = order[max(pos - 1, 0):pos] if direct else order[:pos]
                start = max([end[i] + (matrix[TYPES[i]][TYPES[j]] if setup else 0) for i in earlier], default=0)
                end[j] = start + DUR[j]
            cost = sum(WEIGHT[j] * end[j] for j in order) + sum(ABSENT[k] for k in range(4) if k not in order)
            best = cost if best is None or cost < best else best
    return best


def _solve(fn_text: str, setup: bool):
    no_overlap = "noOverlap(s, setup)" if setup else "noOverlap(s)"
    text = MODEL % ("optional(i >= 3)", no_overlap, fn_text)
    return pyopl.compile_model(text).solve(threads=1)


def _first(a):
    return lambda o: a not in o or o[0] == a


def _last(a):
    return lambda o: a not in o or o[-1] == a


def _before(a, b):
    return lambda o: a not in o or b not in o or o.index(a) < o.index(b)


def _prev(a, b):
    return lambda o: a not in o or b not in o or o.index(a) + 1 == o.index(b)


CASES = [
    ("", lambda o: True),
    ("first(s, a[3]);", _first(2)),
    ("first(s, a[1]);", _first(0)),
    ("last(s, a[2]);", _last(1)),
    ("last(s, a[4]);", _last(3)),
    ("before(s, a[3], a[2]);", _before(2, 1)),
    ("before(s, a[4], a[1]); before(s, a[2], a[4]);", lambda o: _before(3, 0)(o) and _before(1, 3)(o)),
    ("prev(s, a[1], a[3]);", _prev(0, 2)),
    ("prev(s, a[3], a[1]); prev(s, a[1], a[2]);", lambda o: _prev(2, 0)(o) and _prev(0, 1)(o)),
    ("first(s, a[3]); last(s, a[4]); prev(s, a[2], a[1]);", lambda o: _first(2)(o) and _last(3)(o) and _prev(1, 0)(o)),
    ("forall(i in 1..3) prev(s, a[i], a[i + 1]);", lambda o: all(_prev(i, i + 1)(o) for i in range(3))),
]


@pytest.mark.parametrize("setup", [False, True])
@pytest.mark.parametrize("fn_text, rule", CASES)
def test_sequence_functions_match_brute_force(fn_text, rule, setup):
    r = _solve(fn_text, setup)
    assert r.status == "optimal"
    assert r.objective == _best(rule, setup)


def test_the_brute_force_itself_on_hand_worked_cases():
    # no setup, all present, by weight over duration (Smith's rule): 4, 2, 3, 1 ends 1, 3, 7, 10 ->
    # 2*1 + 2*3 + 3*7 + 1*10 = 39; leaving 3 out costs 40, leaving 4 out 31 + 15 = 46
    assert _best(lambda o: True, False) == 39
    # prev(s, a[1], a[3]): a1 just before a3; 4, 2, 1, 3 ends 1, 3, 6, 10 -> 2 + 6 + 6 + 30 = 44
    assert _best(_prev(0, 2), False) == 44
    # first(s, a[3]) with setups: 3, 4, 2, 1: 3 ends 4, 4 (type 0 -> 1: +2) 7, 2 (1 -> 1) 9, 1 (from
    # 3: +0, from 4 and 2: +1) 13 -> 12 + 14 + 18 + 13 = 57, or a[3] left out: 4, 2, 1 ends 1, 3, 7 ->
    # 2 + 6 + 7 + 40 = 55
    assert _best(_first(2), True) == 55


def test_the_sequence_order_holds_without_no_overlap():
    # without noOverlap the order is free of time, but two intervals cannot both be first:
    # at most one of the optional a[3], a[4] is present
    text = ("using CP;\ndvar interval a[1..2] optional size 1;\ndvar sequence s in a;\n"
            "maximize presenceOf(a[1]) + presenceOf(a[2]);\nsubject to { first(s, a[1]); first(s, a[2]); }")
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.status == "optimal" and r.objective == 1
    # before both ways: the same; prev both ways: the same (a, b, a is not an order)
    for fn in ("before(s, a[1], a[2]); before(s, a[2], a[1]);", "prev(s, a[1], a[2]); prev(s, a[2], a[1]);"):
        r = pyopl.compile_model(text.replace("first(s, a[1]); first(s, a[2]);", fn)).solve(threads=1)
        assert r.status == "optimal" and r.objective == 1
    # and without noOverlap the intervals may overlap in time while ordered in the sequence
    text = ("using CP;\ndvar interval a[1..2] size 3;\ndvar sequence s in a;\nminimize max(i in 1..2) endOf(a[i]);\n"
            "subject to { first(s, a[2]); }")
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.status == "optimal" and r.objective == 3


def test_an_interval_outside_the_sequence_is_opl0629():
    text = ("using CP;\ndvar interval a[1..2] size 1;\ndvar interval b size 1;\ndvar sequence s in a;\n"
            "minimize endOf(b);\nsubject to { first(s, b); }")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    d = e.value.diagnostics[0]
    assert d.code == "OPL0629" and (d.line, d.column) == (6, 23) and "`b` is not an interval of the sequence `s`" in d.message


def test_a_first_argument_that_is_not_a_sequence_is_opl0629():
    text = "using CP;\ndvar interval a[1..2] size 1;\nminimize endOf(a[1]);\nsubject to { before(a, a[1], a[2]); }"
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    d = e.value.diagnostics[0]
    assert d.code == "OPL0629" and (d.line, d.column) == (4, 21) and "takes a `dvar sequence` first" in d.message


def test_a_sequence_function_inside_a_logical_constraint_is_opl0627():
    text = ("using CP;\ndvar interval a[1..2] optional size 1;\ndvar sequence s in a;\nminimize endOf(a[1]);\n"
            "subject to { presenceOf(a[1]) => first(s, a[2]); }")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    d = e.value.diagnostics[0]
    assert d.code == "OPL0627" and "`first` inside a logical constraint" in d.message


def test_the_set_functions_of_the_same_names_still_work():
    text = "using CP;\n{int} S = {4, 6, 9};\ndvar int x in 0..20;\nminimize x;\nsubject to { x >= first(S) + last(S) + prev(S, 9); }"
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.objective == 4 + 9 + 6


# type 0 -> type 0 costs 5, any other change nothing: 0, 1, 0 in a row pays 5 only between all
# successors, not between immediate ones
FAR = [[5, 0], [0, 0]]


@pytest.mark.parametrize("direct", [False, True])
@pytest.mark.parametrize("fn_text, rule", [CASES[0], CASES[2], CASES[8], CASES[9]])
def test_transition_distances_between_all_or_immediate_successors(fn_text, rule, direct):
    text = MODEL.replace("int setup[0..1][0..1] = [[0, 2], [1, 0]];", "int setup[0..1][0..1] = [[5, 0], [0, 0]];")
    text = text % ("optional(i >= 3)", "noOverlap(s, setup, %s)" % ("true" if direct else "false"), fn_text)
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.status == "optimal" and r.objective == _best(rule, True, FAR, direct)


def test_the_two_meanings_of_transition_distances_differ_here():
    # all present, order 4, 3, 2, 1 (types 1, 0, 1, 0): no two type-0 intervals in a row, so with
    # immediate successors nothing is paid: ends 1, 5, 7, 10 -> 2 + 15 + 14 + 10 = 41; between all
    # successors 3 -> 1 pays 5: a1 ends at 13 -> 44
    assert _best(lambda o: True, True, FAR, True) == 41
    assert _best(lambda o: True, True, FAR, False) == 44


def test_the_third_argument_of_no_overlap_is_a_boolean():
    text = MODEL % ("", "noOverlap(s, setup, 2)", "")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    d = e.value.diagnostics[0]
    assert d.code == "OPL0629" and (d.line, d.column) == (12, 23) and "third argument of `noOverlap` is a boolean" in d.message


def test_types_from_all_and_type_of_next_against_brute_force():
    # three tasks on one machine; a setup cost paid to the type of the next task (IBM's sched_tcost
    # writes `types all(i in Tasks) type[i]` and `typeOfNext(s, a, last, absent)`)
    import itertools

    import pyopl

    text = """using CP;
    range T = 1..3;
    int d[T] = [2, 3, 1];
    int ty[T] = [0, 1, 1];
    int cost[0..2] = [5, 1, 0];
    dvar interval a[i in T] size d[i];
    dvar sequence s in all(i in T) a[i] types all(i in T) ty[i];
    minimize sum(i in T) cost[typeOfNext(s, a[i], 2, 2)] + 10 * max(i in T) endOf(a[i]) + startOf(a[1]);
    subject to { noOverlap(s); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    ty, cost, d = [0, 1, 1], [5, 1, 0], [2, 3, 1]
    best = None
    for order in itertools.permutations(range(3)):  # back to back is best: an idle gap only adds
        start, t = {}, 0
        for k in order:
            start[k] = t
            t += d[k]
        nxt = [ty[order[p + 1]] if p + 1 < 3 else 2 for p in range(3)]
        v = sum(cost[n] for n in nxt) + 10 * t + start[0]
        best = v if best is None else min(best, v)
    assert r.status == "optimal" and r.objective == best


def test_a_transition_matrix_without_types_uses_positions():
    import pyopl

    # no `types`: interval k has type k (its 0-based position, as IBM types it)
    text = """using CP;
    dvar interval a[1..3] size 1;
    int M[0..2][0..2] = [[0, 5, 1], [1, 0, 5], [5, 1, 0]];
    dvar sequence s in a;
    minimize max(i in 1..3) endOf(a[i]);
    subject to { noOverlap(s, M); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    import itertools

    M = [[0, 5, 1], [1, 0, 5], [5, 1, 0]]
    best = None
    for order in itertools.permutations(range(3)):  # IBM's default: distance to every later interval
        start = {order[0]: 0}
        for p in range(1, 3):
            start[order[p]] = max(start[order[q]] + 1 + M[order[q]][order[p]] for q in range(p))
        v = max(start[k] + 1 for k in range(3))
        best = v if best is None else min(best, v)
    assert r.status == "optimal" and r.objective == best


def test_same_sequence_is_a_permutation_flow_shop():
    # IBM's sched_pflowshop: one sequence per machine, all equal to the first (sameSequence)
    import itertools

    import pyopl

    p = [[3, 2], [1, 4], [2, 2]]
    text = """using CP;
    int p[0..2][0..1] = [[3, 2], [1, 4], [2, 2]];
    dvar interval op[j in 0..2][m in 0..1] size p[j][m];
    dvar sequence s[m in 0..1] in all(j in 0..2) op[j][m];
    minimize max(j in 0..2) endOf(op[j][1]);
    subject to {
      forall(m in 0..1) noOverlap(s[m]);
      forall(j in 0..2) endBeforeStart(op[j][0], op[j][1]);
      sameSequence(s[0], s[1]);
    }"""
    r = pyopl.compile_model(text).solve(threads=1)
    best = None
    for order in itertools.permutations(range(3)):
        e0 = e1 = 0
        for j in order:
            e0 += p[j][0]
            e1 = max(e1, e0) + p[j][1]
        best = e1 if best is None else min(best, e1)
    assert r.status == "optimal" and r.objective == best


def test_same_sequence_forbids_different_orders():
    import pyopl

    base = """using CP;
    dvar interval op[j in 0..2][m in 0..1] size 1;
    dvar sequence s[m in 0..1] in all(j in 0..2) op[j][m];
    dvar sequence t[m in 0..1] in all(j in 0..2) op[2 - j][m];
    minimize max(j in 0..2) endOf(op[j][1]);
    subject to {
      forall(m in 0..1) noOverlap(s[m]);
      first(s[0], op[0][0]); %s
    }"""
    assert pyopl.compile_model(base % "first(s[1], op[2][1]);").solve(threads=1).status == "optimal"
    both = base % "first(s[1], op[2][1]); sameSequence(s[0], s[1]);"
    assert pyopl.compile_model(both).solve(threads=1).status == "infeasible"
    # with arrays: s[0] related to t[1] in reverse (op[j][0] to op[j][1]): job 0 first on both machines
    mapped = base % "sameSequence(s[0], t[1], all(j in 0..2) op[j][0], all(j in 0..2) op[j][1]); first(t[1], op[2][1]);"
    assert pyopl.compile_model(mapped).solve(threads=1).status == "infeasible"
