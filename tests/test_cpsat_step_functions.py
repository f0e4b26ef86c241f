"""`stepFunction F = stepwise{...}`, `F(t)`, `forbidStart`/`forbidEnd`/`forbidExtent`, `startEval`/`endEval`/
`sizeEval`/`lengthEval` and an interval's `intensity` on CP-SAT (OPL Language Quick Reference, "stepwise",
"forbidStart", "startEval", "size"; OPL Language Reference, "Unary constraints on interval variables"),
and the other CP Optimizer constructs of the same round: `alwaysIn` on any cumulative function,
`isomorphism`, `sameCommonSubsequence`.  Each expected optimum is computed here by brute force over
every start, end and presence of the intervals, with the step functions evaluated by a plain Python
function written from IBM's definition."""
from __future__ import annotations

import itertools

import pytest

import pyopl

pytest.importorskip("ortools.sat.python.cp_model")


def step(pairs: list, last: int):
    """IBM's ``stepwise{v1 -> t1; ...; vLast}``: ``v1`` before ``t1``, ``v(k+1)`` from ``t(k)`` on."""
    def f(t: int) -> int:
        v = pairs[0][0] if pairs else last
        for k, (_v, tk) in enumerate(pairs):
            if t >= tk:
                v = pairs[k + 1][0] if k + 1 < len(pairs) else last
        return v
    return f


def test_ibm_examples_of_stepwise_values():
    text = """using CP;
    stepFunction f = stepwise {0->3; 2};
    stepFunction F2 = stepwise{ 0->0; 100->20; 60->30; 100 };
    int ii = F2(10);
    dvar interval a size 1;
    minimize endOf(a);
    execute { writeln(f(-1), " ", f(3), " ", f(3.1), " ", ii, " ", F2(25), " ", F2(30)); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    f, F2 = step([(0, 3)], 2), step([(0, 0), (100, 20), (60, 30)], 100)
    assert r.script_output.split() == [str(x) for x in (f(-1), f(3), f(3), F2(10), F2(25), F2(30))]
    assert r.script_output.split() == ["0", "2", "2", "100", "60", "100"]


def test_intensity_counts_the_working_units_and_forbid_start_end():
    text = """using CP;
    stepFunction W = stepwise{ 100 -> 5; 0 -> 7; 100 -> 12; 0 -> 14; 100 };
    dvar interval a in 0..30 size 8 intensity W;
    dvar interval b in 0..30 size 3 intensity W;
    minimize endOf(a) + 2 * endOf(b);
    subject to { forbidStart(a, W); forbidEnd(b, W); forbidStart(b, W); endBeforeStart(a, b); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    W = step([(100, 5), (0, 7), (100, 12), (0, 14)], 100)

    def fits(s, e, size):  # size * 100 == integral of W over [s, e)
        return sum(W(t) for t in range(s, e)) == 100 * size
    best = min(ea + 2 * eb for sa in range(31) for ea in range(sa, 31) if W(sa) and fits(sa, ea, 8)
               for sb in range(ea, 31) if W(sb) for eb in range(sb, 31) if fits(sb, eb, 3) and W(eb - 1))
    assert r.status == "optimal" and r.objective == best == 10 + 2 * 15  # a: 0-4 and 7-9; b: 10, 11 and 14
    a, b = r["a"], r["b"]
    assert fits(a.start, a.end, 8) and fits(b.start, b.end, 3) and a.size == 8 and b.size == 3


def test_forbid_extent_and_the_eval_expressions_match_brute_force():
    text = """using CP;
    int n = 3;
    int T[i in 1..n] = 3 * i;
    int V[i in 1..n+1] = (i % 2) * 100;
    stepFunction G = stepwise(i in 1..n){ V[i] -> T[i]; V[n+1] };
    stepFunction C[k in 1..2] = stepwise{ 5 * k -> 4; 1 -> 8; 7 };
    dvar interval a in 0..12 size 3;
    dvar interval b optional in 0..12 size 2..6;
    maximize startEval(a, C[1]) + endEval(b, C[2], -3) + sizeEval(b, C[1]) + lengthEval(a, G) + presenceOf(b);
    subject to { forbidExtent(b, G); forbidEnd(a, G); endBeforeStart(a, b); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    G = step([(100, 3), (0, 6), (100, 9)], 0)
    C = {k: step([(5 * k, 4), (1, 8)], 7) for k in (1, 2)}
    best = None
    for sa in range(0, 10):
        ea = sa + 3
        if not G(ea - 1):
            continue
        options = [(False, 0, 0)] + [(True, sb, eb) for sb in range(ea, 13) for eb in range(sb + 2, min(sb + 6, 12) + 1)]
        for pb, sb, eb in options:
            if pb and any(G(t) == 0 for t in range(sb, eb)):
                continue
            v = C[1](sa) + (C[2](eb) if pb else -3) + (C[1](eb - sb) if pb else 0) + G(3) + int(pb)
            best = v if best is None else max(best, v)
    assert r.status == "optimal" and r.objective == best


def test_an_optional_interval_with_no_allowed_start_is_absent():
    text = """using CP;
    stepFunction Z = stepwise{ 0 -> 100; 1 };
    dvar interval a optional in 0..50 size 2;
    maximize presenceOf(a);
    subject to { forbidStart(a, Z); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    assert r.status == "optimal" and r.objective == 0  # Z is 0 on the whole window: a cannot start
    r = pyopl.compile_model(text.replace("0..50", "0..150")).solve(threads=1)
    assert r.status == "optimal" and r.objective == 1 and r["a"].start >= 100  # (IBM: a constraint as its 0/1 value)


@pytest.mark.parametrize("body, code, at, words", [
    ("stepFunction H = stepwise{ 100 -> 5; 50 -> 7; 100 };\ndvar interval a size 3 intensity H;\nminimize endOf(a);",
     "OPL0627", (3, 34), "intensity of 50%"),
    ("dvar int x in 0..5;\nminimize x;\nsubject to { x >= stepwise{1 -> 2; 3} x; }", "OPL0622", (4, 19), "stepwise"),
    ("int n = 3;\ndvar int x in 0..5;\nminimize x;\nsubject to { x >= stepwise(i in 1..n){100 -> i; 0} x; }",
     "OPL0622", (5, 19), "stepwise"),
    ("stepFunction H = stepwise{ 1 -> 2.5; 0 };\ndvar interval a size 3;\nminimize endOf(a);\n"
     "subject to { forbidStart(a, H); }", "OPL0629", (5, 29), "integer"),
    ("dvar interval a size 3;\ndvar int x in 0..3;\nminimize endOf(a);\nsubject to { forbidStart(a, x); }",
     "OPL0629", (5, 29), "stepFunction"),
])
def test_refusals_name_the_construct_at_its_place(body, code, at, words):
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model("using CP;\n" + body)
    d = e.value.diagnostics[0]
    assert (d.code, (d.line, d.column)) == (code, at) and words in d.message, d


def _level(events: list, t: int) -> int:
    """A cumulative function at ``t``: ``events`` are ``(time, height)`` steps (a pulse is two)."""
    return sum(h for at, h in events if at <= t)


def test_always_in_with_steps_a_lower_bound_and_an_interval_window_matches_brute_force():
    text = """using CP;
    dvar interval p in 0..8 size 2;
    dvar interval c1 in 0..8 size 1;
    dvar interval c2 in 0..8 size 2;
    dvar interval w optional in 0..8 size 3;
    cumulFunction level = step(0, 4) + stepAtEnd(p, 3) - stepAtStart(c1, 4) - stepAtStart(c2, 2);
    cumulFunction busy = pulse(p, 1) + pulse(c1, 1) + pulse(c2, 1);
    maximize 10 * presenceOf(w) - endOf(c2) - 2 * endOf(c1) - startOf(p);
    subject to {
      alwaysIn(level, 1, 9, 1, 4);
      alwaysIn(busy, w, 2, 3);
    }"""
    r = pyopl.compile_model(text).solve(threads=1)
    best = None
    for sp, s1, s2 in itertools.product(range(7), range(8), range(7)):
        level = [(0, 4), (sp + 2, 3), (s1, -4), (s2, -2)]
        busy = [(sp, 1), (sp + 2, -1), (s1, 1), (s1 + 1, -1), (s2, 1), (s2 + 2, -1)]
        if any(_level(level, t) < 0 for t in range(-1, 10)) or any(not 1 <= _level(level, t) <= 4 for t in range(1, 9)):
            continue  # IBM: a cumul function in an alwaysIn is never negative; in 1..4 on [1, 9)
        for sw in [None] + list(range(6)):
            if sw is not None and any(not 2 <= _level(busy, t) <= 3 for t in range(sw, sw + 3)):
                continue
            v = 10 * (sw is not None) - (s2 + 2) - 2 * (s1 + 1) - sp
            best = v if best is None else max(best, v)
    assert r.status == "optimal" and r.objective == best


def test_isomorphism_matches_brute_force():
    text = """using CP;
    dvar interval a[i in 1..2] in 0..6 size i + 1;
    dvar interval b[1..3] optional in 0..6 size 2..3;
    maximize 5 * startOf(a[2]) - 2 * startOf(a[1]) + sum(j in 1..3) (j * presenceOf(b[j]) - endOf(b[j]));
    subject to { isomorphism(a, b); noOverlap(b); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    best = None
    a_opts = [[(s, s + z) for s in range(0, 7 - z)] for z in (2, 3)]
    b_opts = [None] + [(s, s + z) for z in (2, 3) for s in range(0, 7 - z)]
    for a in itertools.product(*a_opts):
        for b in itertools.product(b_opts, repeat=3):
            present = [x for x in b if x is not None]
            if len(present) != 2 or sorted(present) != sorted(a):
                continue  # a one-to-one correspondence with equal starts and ends
            if present[0][0] < present[1][1] and present[1][0] < present[0][1]:
                continue  # noOverlap(b)
            v = 5 * a[1][0] - 2 * a[0][0] + sum((j + 1) - x[1] for j, x in enumerate(b) if x is not None)
            best = v if best is None else max(best, v)
    assert r.status == "optimal" and r.objective == best


def test_same_common_subsequence_matches_brute_force():
    text = """using CP;
    int d[1..3] = [2, 1, 2];
    dvar interval a[i in 1..3] optional in 0..7 size d[i];
    dvar interval b[i in 1..3] optional in 0..7 size 1;
    dvar sequence p1 in a;
    dvar sequence p2 in b;
    maximize sum(i in 1..3) (3 * presenceOf(a[i]) + 8 * presenceOf(b[i]) - endOf(b[i])) - 3 * startOf(a[3]) + 3 * startOf(b[3]);
    subject to {
      noOverlap(p1); noOverlap(p2);
      forall(i in 1..3) endBeforeStart(a[i], b[i]);
      sameCommonSubsequence(p1, p2);
    }"""
    r = pyopl.compile_model(text).solve(threads=1)
    d = [2, 1, 2]
    a_opts = [[None] + [(s, s + d[i]) for s in range(0, 8 - d[i])] for i in range(3)]
    b_opts = [None] + [(s, s + 1) for s in range(0, 7)]

    def apart(xs):
        xs = [x for x in xs if x is not None]
        return all(x[1] <= y[0] or y[1] <= x[0] for x, y in itertools.combinations(xs, 2))
    best = None
    for a in itertools.product(*a_opts):
        if not apart(a):
            continue
        for b in itertools.product(b_opts, repeat=3):
            if not apart(b) or any(a[i] and b[i] and a[i][1] > b[i][0] for i in range(3)):
                continue
            both = [i for i in range(3) if a[i] and b[i]]
            if sorted(both, key=lambda i: a[i][0]) != sorted(both, key=lambda i: b[i][0]):
                continue  # the common pairs in the same order on both machines (without it the optimum is 36, not 35)
            v = sum(3 * bool(a[i]) + 8 * bool(b[i]) - (b[i][1] if b[i] else 0) for i in range(3)) \
                - 3 * (a[2][0] if a[2] else 0) + 3 * (b[2][0] if b[2] else 0)
            best = v if best is None else max(best, v)
    assert r.status == "optimal" and r.objective == best


def test_eval_of_a_pwl_function_matches_brute_force():
    text = """using CP;
    int d[1..3] = [3, 2, 4];
    pwlFunction ETCost = piecewise { -1->10; 1 } (10, 0);
    pwlFunction Half = piecewise { 0.5->4; -1.5 } (0, 1);
    dvar interval a[i in 1..3] in 0..16 size d[i];
    dvar interval b optional in 0..20 size 2;
    minimize sum(i in 1..3) endEval(a[i], ETCost) + startEval(b, Half, 7.5) - 3 * presenceOf(b)
             + 2 * lengthEval(b, Half);
    subject to { noOverlap(a); }"""
    r = pyopl.compile_model(text).solve(threads=1)

    def et(t):  # IBM's V-shaped earliness/tardiness cost (OPL Language Quick Reference, "endEval")
        return abs(t - 10)

    def half(t):
        return 1 + 0.5 * t if t <= 4 else 3 - 1.5 * (t - 4)
    d = [3, 2, 4]
    best_a = min(sum(et(s[i] + d[i]) for i in range(3)) for s in itertools.product(range(0, 17), repeat=3)
                 if all(s[i] + d[i] <= 16 for i in range(3))
                 and all(s[i] + d[i] <= s[j] or s[j] + d[j] <= s[i] for i, j in itertools.combinations(range(3), 2)))
    best_b = min([7.5] + [half(s) - 3 + 2 * half(2) for s in range(0, 19)])
    assert r.status == "optimal" and r.objective == pytest.approx(best_a + best_b, abs=1e-9)


def test_ibm_inline_piecewise_in_end_eval():
    text = """using CP;
    int dd[1..2] = [6, 9];
    dvar interval a[i in 1..2] size 4;
    minimize sum(i in 1..2) endEval(a[i], piecewise{ -1->dd[i]; 1 } (dd[i], 0));
    subject to { noOverlap(a); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    best = min(abs(s1 + 4 - 6) + abs(s2 + 4 - 9) for s1 in range(0, 20) for s2 in range(0, 20)
               if s1 + 4 <= s2 or s2 + 4 <= s1)
    assert r.status == "optimal" and r.objective == best == 1


def test_alternative_with_a_decided_cardinality_and_span_synchronize_edge_cases_match_brute_force():
    text = """using CP;
    dvar int c in 0..3;
    dvar interval a optional in 0..6 size 2;
    dvar interval b[1..3] optional in 0..6 size 2;
    dvar interval s optional in 0..8;
    dvar interval t[1..2] optional in 0..8 size 1;
    dvar interval y optional in 0..8 size 1;
    maximize 4 * presenceOf(a) - 4 * c + sum(j in 1..3) j * presenceOf(b[j]) - lengthOf(s)
             + 3 * presenceOf(t[1]) + 2 * presenceOf(t[2]) - 2 * presenceOf(y) + startOf(t[2]) - startOf(t[1]);
    subject to {
      alternative(a, b, c);
      span(s, t);
      synchronize(y, t);
      noOverlap(t);
    }"""
    r = pyopl.compile_model(text).solve(threads=1)
    # alternative: a absent -> every b absent; a present -> c >= 1 of b present, each equal to a
    best_alt = None
    for c in range(4):
        for a in [None] + list(range(5)):
            for pres in itertools.product([0, 1], repeat=3):
                if a is None and any(pres):
                    continue
                if a is not None and (c < 1 or sum(pres) != c):
                    continue  # IBM: a present picks a non-empty set of c intervals
                v = 4 * (a is not None) - 4 * c + sum((j + 1) * p for j, p in enumerate(pres))
                best_alt = v if best_alt is None else max(best_alt, v)
    # span: s present iff some t is, from the first start to the last end; synchronize: present t with y
    best_rest = None
    for t1, t2, y in itertools.product([None] + list(range(8)), repeat=3):
        ts = [x for x in (t1, t2) if x is not None]
        if t1 is not None and t2 is not None and abs(t1 - t2) < 1:
            continue  # noOverlap(t)
        if y is not None and any(x != y for x in ts):
            continue  # synchronize(y, t)
        length = (max(ts) + 1 - min(ts)) if ts else 0
        v = -length + 3 * (t1 is not None) + 2 * (t2 is not None) - 2 * (y is not None) \
            + (t2 if t2 is not None else 0) - (t1 if t1 is not None else 0)
        best_rest = v if best_rest is None else max(best_rest, v)
    assert r.status == "optimal" and r.objective == best_alt + best_rest


def test_transition_matrix_and_next_prev_expressions_with_absent_values_match_brute_force():
    text = """using CP;
    int ty[1..3] = [0, 1, 1];
    int M[0..1][0..1] = [[0, 2], [3, 1]];
    dvar interval a[i in 1..3] optional in 0..9 size i;
    dvar sequence p in a types ty;
    maximize sum(i in 1..3) 6 * presenceOf(a[i]) - endOf(a[3]) + 2 * typeOfNext(p, a[1], 5, 7)
             + startOfPrev(p, a[2], -1, 4) - endOfNext(p, a[3], 3, 2);
    subject to { noOverlap(p, M); }"""
    r = pyopl.compile_model(text).solve(threads=1)
    ty, M, size = [0, 1, 1], [[0, 2], [3, 1]], [1, 2, 3]
    best = None
    for st in itertools.product([None] + list(range(10)), repeat=3):
        iv = {i: (st[i], st[i] + size[i]) for i in range(3) if st[i] is not None}
        if any(e > 9 for _s, e in iv.values()):
            continue
        order = sorted(iv, key=lambda i: iv[i][0])
        ok = all(iv[x][1] + M[ty[x]][ty[y]] <= iv[y][0] for k, x in enumerate(order) for y in order[k + 1:])
        if not ok:
            continue  # IBM: the distance separates an interval from every later one of the sequence

        def nxt(i, last, absent, what):
            if i not in iv:
                return absent
            k = order.index(i)
            return last if k == len(order) - 1 else what(order[k + 1])

        def prv(i, first, absent, what):
            if i not in iv:
                return absent
            k = order.index(i)
            return first if k == 0 else what(order[k - 1])
        v = sum(6 for i in iv) - (iv[2][1] if 2 in iv else 0) + 2 * nxt(0, 5, 7, lambda j: ty[j]) \
            + prv(1, -1, 4, lambda j: iv[j][0]) - nxt(2, 3, 2, lambda j: iv[j][1])
        best = v if best is None else max(best, v)
    assert r.status == "optimal" and r.objective == best


def test_pulse_over_a_fixed_interval_matches_brute_force():
    text = """using CP;
    range options = 1..6;
    dvar interval itvs[options] optional in 1..4 size 1;
    cumulFunction c = sum(o in options) pulse(itvs[o], 1) + pulse(1, 2, 1) + pulse(3, 3, 5);
    maximize sum(o in options) (2 * presenceOf(itvs[o]) - startOf(itvs[o]));
    subject to { c <= 2; }"""
    r = pyopl.compile_model(text).solve(threads=1)
    best = None
    for starts in itertools.product([None, 1, 2, 3], repeat=6):
        load = {t: sum(1 for s in starts if s == t) + (1 if t == 1 else 0) for t in (1, 2, 3)}
        if max(load.values()) > 2:
            continue  # pulse(1, 2, 1) holds one unit on [1, 2); pulse(3, 3, 5) is empty
        v = sum(2 - s for s in starts if s is not None)  # (without pulse(1, 2, 1): 2)
        best = v if best is None else max(best, v)
    assert r.status == "optimal" and r.objective == best


def test_segments_of_a_cumul_function_in_post_processing_and_scripts():
    text = """using CP;
    dvar interval a in 0..10 size 3;
    dvar interval b in 0..10 size 2;
    cumulFunction f = pulse(a, 2) + pulse(b, 1, 4) + step(5, 1);
    maximize heightAtStart(b, f) - startOf(a);
    subject to { startOf(b) == 1; f <= 6; }
    int n = numberOfSegments(f);
    int v[i in 0..n-1] = segmentValue(f, i);
    int st[i in 0..n-1] = segmentStart(f, i);
    int en[i in 0..n-1] = segmentEnd(f, i);
    int at4 = cumulFunctionValue(f, 4);
    execute {
      for (var i = 0; i < f.getNumberOfSegments(); i++) write(f.getSegmentStart(i), "-", f.getSegmentEnd(i), ":", f.getSegmentValue(i), " ");
      writeln(f.getValue(2), " ", at4);
    }"""
    r = pyopl.compile_model(text).solve(threads=1)
    # a on [0, 3) at 2, b on [1, 3) at its greatest height 4 (6 in all), the step 1 from 5 on
    H = 1073741823
    segs = [(-H, 0, 0), (0, 1, 2), (1, 3, 6), (3, 5, 0), (5, H, 1)]
    assert r.status == "optimal" and r.objective == 4
    assert r.script_output.split() == ["%d-%d:%d" % s for s in segs] + ["6", "0"]
    out = pyopl.compile_model(text.replace("execute {", "execute { writeln(n, v, st, en);")).solve(threads=1)
    assert out.script_output.splitlines()[0] == "5%s%s%s" % (
        "[" + " ".join(str(s[2]) for s in segs) + "]", "[" + " ".join(str(s[0]) for s in segs) + "]",
        "[" + " ".join(str(s[1]) for s in segs) + "]")
