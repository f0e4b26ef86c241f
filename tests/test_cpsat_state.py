"""`stateFunction f;` and `alwaysEqual(f, a, v)` (OPL Language Quick Reference, "alwaysEqual") on
CP-SAT.  Each expected optimum is computed here by brute force over every start, size and presence
of the intervals: two intervals asking for different states overlap nowhere (an interval of size 0
asks for nothing: its `[start, end)` is empty)."""
from __future__ import annotations

import itertools
from typing import Any

import pytest

import pyopl

pytest.importorskip("ortools.sat.python.cp_model")

H = 6  # every interval lies in 0..H


def _brute_force(sizes: list, states: list, optional: list, value) -> int:
    """The largest ``value(present, start, size)`` over every schedule in ``0..H`` that keeps
    intervals of different states apart (both present, both of positive size)."""
    n = len(sizes)
    best = None
    choices = []
    for k in range(n):
        opts = [(True, s, z) for z in sizes[k] for s in range(0, H - z + 1)]
        choices.append(opts + ([(False, 0, 0)] if optional[k] else []))
    for sched in itertools.product(*choices):
        ok = True
        for i, j in itertools.combinations(range(n), 2):
            (pi, si, zi), (pj, sj, zj) = sched[i], sched[j]
            if pi and pj and zi > 0 and zj > 0 and states[i] != states[j] and si < sj + zj and sj < si + zi:
                ok = False
                break
        if ok:
            v = value(sched)
            best = v if best is None or v > best else best
    return best


def _model(sizes_text: list, states: list, optional: list, objective: str) -> str:
    lines = ["using CP;", "stateFunction f;"]
    for k, (sz, opt) in enumerate(zip(sizes_text, optional), start=1):
        lines.append("dvar interval a%d %sin 0..%d size %s;" % (k, "optional " if opt else "", H, sz))
    lines.append("maximize %s;" % objective)
    lines.append("subject to {")
    lines += ["  alwaysEqual(f, a%d, %d);" % (k, v) for k, v in enumerate(states, start=1)]
    lines.append("}")
    return "\n".join(lines)


CASES = [
    # three fixed sizes, two states: a1 and a3 (state 1) may overlap, a2 (state 2) must stay apart
    (["3", "2", "4"], [[3], [2], [4]], [1, 2, 1], [False] * 3,
     "-(endOf(a1) + endOf(a2) + endOf(a3))", lambda s: -sum(st + z for _p, st, z in s)),
    # a1 optional: taking it is worth 5 but it cannot fit beside the others at times 0..6
    (["3", "4", "2"], [[3], [4], [2]], [1, 2, 2], [True, False, False],
     "5 * presenceOf(a1) - endOf(a2) - endOf(a3)",
     lambda s: 5 * s[0][0] - (s[1][1] + s[1][2]) - (s[2][1] + s[2][2])),
    # a3's size may be 0: at size 0 it sits anywhere; its size is worth 1 each, its end costs 1
    (["2", "3", "0..3"], [[2], [3], [0, 1, 2, 3]], [1, 2, 3], [False] * 3,
     "2 * sizeOf(a3) - endOf(a1) - endOf(a2)",
     lambda s: 2 * s[2][2] - (s[0][1] + s[0][2]) - (s[1][1] + s[1][2])),
    # the same interval in two states: it must be absent (or of size 0)
    (["2", "1"], [[2], [1]], [1, 2], [True, True], "presenceOf(a1) + presenceOf(a2)", lambda s: s[0][0] + s[1][0]),
]


@pytest.mark.parametrize("sizes_text, sizes, states, optional, objective, value", CASES)
def test_always_equal_matches_brute_force(sizes_text, sizes, states, optional, objective, value):
    r = pyopl.compile_model(_model(sizes_text, states, optional, objective)).solve(threads=1)
    assert r.status == "optimal"
    assert r.objective == _brute_force(sizes, states, optional, value)


def test_hand_worked_cases_of_the_brute_force():
    # case 1: a1 and a3 together on [0, 3) and [0, 4), a2 after them on [4, 6): 3 + 6 + 4 = 13
    assert _brute_force([[3], [2], [4]], [1, 2, 1], [False] * 3, CASES[0][5]) == -13
    # case 3: a1 [0, 2), a2 [2, 5) (or the other way), a3 of size 3 would need 3 free units of the 6
    # beside them: 2 * 0 - 2 - 5 = -7, or size 1 on [5, 6): 2 - 7 = -5
    assert _brute_force([[2], [3], [0, 1, 2, 3]], [1, 2, 3], [False] * 3, CASES[2][5]) == -5


def test_one_interval_in_two_states_is_absent():
    text = ("using CP;\nstateFunction f;\ndvar interval a optional in 0..6 size 2;\nmaximize 2 * presenceOf(a);\n"
            "subject to { alwaysEqual(f, a, 1); alwaysEqual(f, a, 2); }")
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.status == "optimal" and r.objective == 0


def _cells_ok(reqs: list, place: dict, consts: dict) -> bool:
    """IBM's semantics checked cell by cell (``[t, t + 1)`` for t in 0..H-1): the states each cell may take
    (an ``alwaysEqual`` its state, an ``alwaysConstant`` its chosen one, ``alwaysNoState`` none (-1), an
    ``alwaysIn`` -1 or its range) meet; an aligned point lies strictly inside no defined requirement."""
    spans = {}
    for k, (kind, target, *args) in enumerate(reqs):
        spans[k] = target if isinstance(target, tuple) else place[target]
    for t in range(H):
        allowed = set(range(-1, 5))
        for k, (kind, target, *args) in enumerate(reqs):
            span = spans[k]
            if span is None or not span[0] <= t < span[1]:
                continue
            if kind == "eq":
                allowed &= {args[0]}
            elif kind == "const":
                allowed &= {consts[k]}
            elif kind == "none":
                allowed &= {-1}
            else:
                allowed &= {-1} | set(range(args[0], args[1] + 1))
        if not allowed:
            return False
    for k, (kind, target, *args) in enumerate(reqs):
        if kind not in ("eq", "const") or spans[k] is None or spans[k][0] == spans[k][1]:
            continue
        aligns = args[1:3] if kind == "eq" else args[0:2]
        for point, on in zip(spans[k], aligns):
            if on and any(j != k and spans[j] is not None and reqs[j][0] in ("eq", "const")
                          and spans[j][0] < point < spans[j][1] for j in spans):
                return False
    return True


def _state_brute_force(sizes: list, optional: list, reqs: list, value) -> int:
    best = None
    choices = [[(s, s + z) for z in sz for s in range(0, H - z + 1)] + ([None] if opt else [])
               for sz, opt in zip(sizes, optional)]
    const_keys = [k for k, r in enumerate(reqs) if r[0] == "const"]
    for sched in itertools.product(*choices):
        place = dict(enumerate(sched))
        ok = any(_cells_ok(reqs, place, dict(zip(const_keys, sig)))
                 for sig in itertools.product(range(0, 4), repeat=len(const_keys)))
        if ok:
            v = value(sched)
            best = v if best is None or v > best else best
    return best


def _req_text(kind: str, target: Any, args: list) -> str:
    where = "a%d" % (target + 1) if not isinstance(target, tuple) else "%d, %d" % target
    flags = [("true" if x else "false") for x in args]
    if kind == "eq":
        return "alwaysEqual(f, %s, %s)" % (where, ", ".join([str(args[0])] + flags[1:]))
    if kind == "const":
        return "alwaysConstant(f, %s)" % ", ".join([where] + flags)
    if kind == "none":
        return "alwaysNoState(f, %s)" % where
    return "alwaysIn(f, %s, %d, %d)" % (where, args[0], args[1])


#: (requirements, objective coefficients ``(c_start, c_present)`` per interval): intervals a1 (size 3), a2 and
#: a3 (size 2, optional) in 0..6; each case's optimum changes when any of three of its requirements or
#: its alignments are dropped (checked when the cases were chosen), so each part is tested
STATE_CASES = [
    ([("eq", 1, 2), ("in", 2, 2, 3), ("const", 2, True, True), ("eq", 0, 1, False, False)],
     [(1, 3), (1, 5), (-2, 5)]),
    ([("eq", 0, 1, True, False), ("eq", 1, 2), ("const", 2, False, True), ("eq", (0, 3), 2, False, False)],
     [(1, 5), (1, 0), (-2, 5)]),
    ([("const", 2, False, True), ("in", 1, 2, 2), ("eq", (1, 4), 1, False, False), ("eq", 0, 1, False, True)],
     [(-1, 0), (1, 0), (-1, 5)]),
    ([("none", (2, 3)), ("eq", 0, 1, True, False), ("eq", 1, 1), ("in", (0, 6), 0, 1)],
     [(-1, 0), (-1, 4), (1, 1)]),
]


@pytest.mark.parametrize("reqs, coef", STATE_CASES)
def test_state_function_constraints_match_a_cell_by_cell_brute_force(reqs, coef):
    sizes, optional = [[3], [2], [2]], [False, True, True]
    lines = ["using CP;", "stateFunction f;", "dvar interval a1 in 0..%d size 3;" % H,
             "dvar interval a2 optional in 0..%d size 2;" % H, "dvar interval a3 optional in 0..%d size 2;" % H,
             "maximize %s;" % " + ".join("%d * startOf(a%d) + %d * presenceOf(a%d)" % (cs, k, cp, k)
                                          for k, (cs, cp) in enumerate(coef, start=1)), "subject to {"]
    lines += ["  %s;" % _req_text(k, t, list(a)) for k, t, *a in reqs] + ["}"]
    r = pyopl.compile_model("\n".join(lines)).solve(threads=1)

    def value(s):
        return sum(cs * s[k][0] + cp for k, (cs, cp) in enumerate(coef) if s[k] is not None)
    assert r.status == "optimal" and r.objective == _state_brute_force(sizes, optional, reqs, value)


def test_a_state_function_without_using_cp_is_opl0626():
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("stateFunction f;\ndvar float+ x;\nminimize x;")
    d = e.value.diagnostics[0]
    assert d.code == "OPL0626" and (d.line, d.column) == (1, 15)


def test_a_negative_state_is_opl0629():
    text = ("using CP;\nstateFunction f;\ndvar interval a in 0..6 size 2;\nminimize endOf(a);\n"
            "subject to { alwaysEqual(f, a, -1); }")
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    d = e.value.diagnostics[0]
    assert d.code == "OPL0629" and (d.line, d.column) == (5, 32) and "non-negative" in d.message


def test_segments_of_a_state_function_after_the_solve():
    # forced: a[1] on [0, 2) and a[2] on [2, 5) in state 1, a[3] on [7, 8) in state 2: segments
    # (-H, 0) -1, [0, 5) 1, [5, 7) -1, [7, 8) 2, [8, H) -1 (IBM's -1: no state)
    import pyopl

    text = """using CP;
    stateFunction f;
    int st[1..3] = [1, 1, 2];
    dvar interval a[i in 1..3] size (i == 2 ? 3 : (i == 1 ? 2 : 1));
    minimize 0;
    subject to {
      forall(i in 1..3) alwaysEqual(f, a[i], st[i]);
      startOf(a[1]) == 0; startOf(a[2]) == 2; startOf(a[3]) == 7;
    }
    int at[t in 0..8] = stateFunctionValue(f, t);
    execute {
      for (var i = 0; i < f.getNumberOfSegments(); i++)
        if (f.getSegmentValue(i) > -1) write(f.getSegmentStart(i), "-", f.getSegmentEnd(i), ":", f.getSegmentValue(i), " ");
      for (var t = 0; t <= 8; t++) write(at[t]);
    }"""
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.status == "optimal"
    assert r.script_output.strip() == "0-5:1 7-8:2 " + "".join(str(v) for v in [1] * 5 + [-1, -1, 2, -1])


@pytest.mark.parametrize("decl, code, at", [
    ("tuple T { int a; int b; int d; }\n{T} M = {<0, 1, 2>};\nstateFunction s[h in 1..2] with M;", "OPL0621", (4, 1)),
    ("tuple T { int a; int b; int d; }\n{T} M = {<0, 1, 2>};\nstateFunction s with M;", "OPL0621", (4, 1)),
])
def test_state_function_arrays_and_transition_distances_have_their_codes(decl, code, at):
    import pyopl

    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("using CP;\n" + decl + "\ndvar interval a size 2;\nminimize endOf(a);")
    d = e.value.diagnostics[0]
    assert (d.code, d.line, d.column) == (code,) + at and len(e.value.diagnostics) == 1


def test_segments_are_cut_at_aligned_points_and_read_a_constant_state():
    text = """using CP;
    stateFunction f;
    dvar interval a in 0..10 size 3;
    dvar interval b in 0..10 size 2;
    dvar interval c in 0..10 size 2;
    minimize 0;
    subject to {
      alwaysEqual(f, a, 4); alwaysEqual(f, b, 4, true, false); alwaysConstant(f, c);
      alwaysIn(f, c, 6, 6);
      startOf(a) == 0; startOf(b) == 3; startOf(c) == 7;
    }
    int at[t in 0..9] = stateFunctionValue(f, t);
    execute {
      for (var i = 0; i < f.getNumberOfSegments(); i++)
        if (f.getSegmentValue(i) > -1) write(f.getSegmentStart(i), "-", f.getSegmentEnd(i), ":", f.getSegmentValue(i), " ");
      for (var t = 0; t <= 9; t++) write(at[t]);
    }"""
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.status == "optimal"  # b is start-aligned: its segment starts at 3 although a (state 4) ends there
    assert r.script_output.strip() == "0-3:4 3-5:4 7-9:6 44444-1-166-1"


def test_an_array_of_state_functions_keeps_each_apart():
    text = """using CP;
    range H = 1..2;
    stateFunction s[H];
    dvar interval a[1..4] in 0..10 size 2;
    minimize max(i in 1..4) endOf(a[i]);
    subject to { forall(i in 1..4) alwaysEqual(s[(i % 2) + 1], a[i], i); }
    execute { for (var h in H) writeln(s[h].getNumberOfSegments(), " ", s[h].getValue(1)); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    # four different states: one function would need 8; two functions (a2, a4 and a1, a3) need 4
    assert r.status == "optimal" and r.objective == 4
    starts = {i: r["a"][i].start for i in range(1, 5)}
    first = {h: min((i for i in range(1, 5) if (i % 2) + 1 == h), key=lambda i: starts[i]) for h in (1, 2)}
    assert r.script_output.split() == ["4", str(first[1]), "4", str(first[2])]
