"""Non-linear integer arithmetic on decisions in ``using CP;`` models (pyopl/lowering/linearise/cp_arith.py):
each optimum checked against brute force over the same domains (IBM's integer semantics: ``div``
truncates toward zero, ``mod`` has the dividend's sign)."""
import itertools
import math

import pytest

import pyopl

pytest.importorskip("ortools")


def _td(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _cmod(a, b):
    return int(math.fmod(a, b))


def _sgn(v):
    return (v > 0) - (v < 0)


def _solve(text):
    return pyopl.compile_model(text).solve(threads=1)


def test_products_div_mod_and_sgn_in_objective_and_constraints():
    r = _solve("""using CP;
    dvar int x in -5..7; dvar int y in -3..4; dvar int q; dvar int s;
    maximize x*y + 3*(x div y) - (x mod y) + sgn(x - y);
    subject to { x*y <= 12; q == x div y; s == x mod y; x*x*y >= -40; }""")
    best = max(x * y + 3 * _td(x, y) - _cmod(x, y) + _sgn(x - y)
               for x in range(-5, 8) for y in range(-3, 5) if y and x * y <= 12 and x * x * y >= -40)
    assert r.status == "optimal" and r.objective == best
    x, y = r["x"], r["y"]
    assert r["q"] == _td(x, y) and r["s"] == _cmod(x, y)


def test_a_product_inside_logical_constraints_and_counts():
    r = _solve("""using CP;
    dvar int a[1..3] in -2..3;
    minimize sum(i in 1..3) a[i];
    subject to {
      (a[1] * a[2] >= 4) || (a[2] * a[3] <= -4);
      (a[1] * a[3] == 0) => a[2] >= 1;
      count(all(i in 1..2) a[i] * a[i + 1], 6) >= 0;
    }""")
    best = min(sum(a) for a in itertools.product(range(-2, 4), repeat=3)
               if (a[0] * a[1] >= 4 or a[1] * a[2] <= -4) and (a[0] * a[2] != 0 or a[1] >= 1))
    assert r.status == "optimal" and r.objective == best


def test_length_times_presence_of_an_optional_interval():
    # each task is done (its length counts) or not; lengthOf * presenceOf is the length when present
    r = _solve("""using CP;
    int d[1..3] = [3, 4, 5];
    dvar interval t[i in 1..3] optional in 0..9 size d[i];
    maximize sum(i in 1..3) lengthOf(t[i]) * presenceOf(t[i]) - 2 * sum(i in 1..3) presenceOf(t[i]);
    subject to { noOverlap(t); }""")
    best = max(sum(d - 2 for d, p in zip((3, 4, 5), ps) if p) for ps in itertools.product((0, 1), repeat=3)
               if sum(d for d, p in zip((3, 4, 5), ps) if p) <= 9)
    assert r.status == "optimal" and r.objective == best


def test_powers_with_a_decision_base_or_exponent():
    r = _solve("""using CP;
    dvar int x in -4..4; dvar int e in 0..6;
    maximize x^3 - pow(2, e) + pow(x, 2);
    subject to { x^3 <= 30; pow(2, e) >= x * 3; }""")
    best = max(x ** 3 - 2 ** e + x ** 2 for x in range(-4, 5) for e in range(7) if x ** 3 <= 30 and 2 ** e >= 3 * x)
    assert r.status == "optimal" and r.objective == best


def test_rounding_functions_of_a_decision_quotient():
    r = _solve("""using CP;
    dvar int x in -7..8;
    dvar int f; dvar int c; dvar int t;
    maximize 10 * floor(x / 3) - 7 * ceil(x / 4) + ftoi(x / 2.5) - x;
    subject to { f == floor(x / 3); c == ceil(x / 4); t == ftoi(x / 2.5); }""")
    best = max(10 * math.floor(x / 3) - 7 * math.ceil(x / 4) + math.trunc(x / 2.5) - x for x in range(-7, 9))
    assert r.status == "optimal" and r.objective == best
    x = r["x"]
    assert (r["f"], r["c"], r["t"]) == (math.floor(x / 3), math.ceil(x / 4), math.trunc(x / 2.5))


def test_a_product_with_a_decimal_factor_is_scaled_back():
    # IBM's floatexpr: i * (1 + k/100) == j, minimise k/100 + sum_{i=1..10} k/i
    r = _solve("""using CP;
    dvar int i in 1..100; dvar int j in 1..100; dvar int k in 1..99;
    dexpr float kf = k/100;
    dexpr float ar[i in 1..10] = k/i;
    minimize kf + sum(i in 1..10) ar[i];
    subject to { i*(1+kf) == j; }""")
    h = sum(1 / n for n in range(1, 11)) + 0.01
    ks = [k for k in range(1, 100) if any((i * (100 + k)) % 100 == 0 and i * (100 + k) // 100 <= 100
                                          for i in range(1, 101))]
    assert r.status == "optimal" and r.objective == pytest.approx(min(ks) * h)


def _errors(text):
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(text)
    return e.value.diagnostics


def test_refusals_name_the_reason():
    d = _errors("using CP;\ndvar int x in 1..9;\nminimize x;\nsubject to { sqrt(x) >= 2; }")[0]
    assert (d.code, d.line, d.column) == ("OPL0627", 4, 14) and "float" in d.message
    d = _errors("using CP;\ndvar int x; dvar int y; dvar int z;\nminimize x * y * z;")[0]
    assert (d.code, d.line) == ("OPL0627", 3) and "64-bit" in d.message
    d = _errors("using CP;\ndvar int x in 1..9; dvar int y in 1..3;\nminimize x / y;")[0]
    assert d.code == "OPL0503" and "`y`" in d.message and "div" in d.help


def test_append_in_all_different_count_and_interval_constraints():
    # IBM's example appends two `all` slices; here a slice, an element and a scalar, checked by brute force
    r = _solve("""using CP;
    dvar int x[1..2] in 0..3; dvar int y[1..2] in 0..3; dvar int z in 0..3;
    minimize 3 * x[1] + x[2] + 2 * y[1] + y[2] + z;
    subject to { allDifferent(append(x, y[2], z)); count(append(x, y), 0) <= 1; }""")
    best = min(3 * a + b + 2 * c + d + e for a, b, c, d, e in itertools.product(range(4), repeat=5)
               if len({a, b, d, e}) == 4 and [a, b, c, d].count(0) <= 1)
    assert best is not None and r.status == "optimal" and r.objective == best
    r = _solve("""using CP;
    dvar interval a[1..2] size 3; dvar interval b size 2; dvar interval c[1..2] size 4;
    dvar sequence s in append(a, b);
    minimize max(i in 1..2) endOf(c[i]) + max(i in 1..2) endOf(a[i]) + endOf(b);
    subject to { noOverlap(s); noOverlap(append(c, b)); }""")
    # a1, a2, b share one machine (ends 3, 6 and b's 8 at best: 3+6+... ), c1, c2, b another
    import itertools as it
    best = None
    for order in it.permutations(["a1", "a2", "b"]):
        t, end = 0, {}
        for k in order:
            t += 2 if k == "b" else 3
            end[k] = t
        eb = end["b"]
        # c1, c2 (4 each) on the second machine with b fixed at [eb-2, eb): earliest ends
        cands = []
        for co in it.permutations(["c1", "c2"]):
            t2, ends = 0, []
            for _k in co:
                if t2 < eb and t2 + 4 > eb - 2:
                    t2 = max(t2, eb)
                t2 += 4
                ends.append(t2)
            cands.append(max(ends))
        v = min(cands) + max(end["a1"], end["a2"]) + eb
        best = v if best is None else min(best, v)
    assert r.status == "optimal" and r.objective == best


def test_membership_of_a_decision_in_a_set_or_range():
    r = _solve("""using CP;
    {int} squares = {1, 4, 9};
    dvar int x[1..3] in 0..9;
    maximize sum(i in 1..3) 10 * (x[i] in {3, 4, 5}) - x[1] - x[2] - x[3] + 7 * ((x[1] / 2) in {2});
    subject to {
      x[1] in squares;
      x[2] not in 2..7;
      (x[3] in {0, 5}) || x[1] == x[2];
      (x[1] div 2) in 1..4;
    }""")
    best = max(10 * sum(v in (3, 4, 5) for v in x) - sum(x) + 7 * (x[0] / 2 == 2)
               for x in itertools.product(range(10), repeat=3)
               if x[0] in (1, 4, 9) and not 2 <= x[1] <= 7 and (x[2] in (0, 5) or x[0] == x[1])
               and 1 <= x[0] // 2 <= 4)
    assert r.status == "optimal" and r.objective == best


def test_key_only_tuple_lookup_in_ord():
    # IBM's generateOnePairing writes ord(airports, <"HNL">) over tuples keyed by their name
    r = _solve("""using CP;
    tuple A { key string name; int t; }
    {A} airports = {<"OGG", 10>, <"HNL", 20>, <"LIH", 5>};
    int at = ord(airports, <"HNL">) + 10 * ord(airports, <"LIH", 5>);
    dvar int x in 0..100;
    minimize x;
    subject to { x >= at; }""")
    assert r.status == "optimal" and r.objective == 1 + 10 * 2


def test_sub_circuit_against_brute_force():
    # next[i]: the city after i (0-based); a city left out (next[i] == i) costs 6
    d = [[0, 3, 9, 4], [3, 0, 2, 8], [9, 2, 0, 5], [4, 8, 5, 0]]
    r = _solve("""using CP;
    int d[0..3][0..3] = %s;
    dvar int x[0..3] in 0..3;
    minimize sum(i in 0..3) (d[i][x[i]] + 6 * (x[i] == i));
    subject to { subCircuit(x); x[0] != 0; }""" % str(d).replace("[", "[").replace("]", "]"))

    def one_circuit(nxt):
        inside = [i for i in range(4) if nxt[i] != i]
        if not inside:
            return True
        seen, i = set(), inside[0]
        while i not in seen:
            seen.add(i)
            i = nxt[i]
        return seen == set(inside) and sorted(nxt[i] for i in inside) == sorted(inside)

    best = min(sum(d[i][n[i]] + 6 * (n[i] == i) for i in range(4))
               for n in itertools.product(range(4), repeat=4) if n[0] != 0 and one_circuit(n))
    assert r.status == "optimal" and r.objective == best


def test_element_of_a_flattened_array():
    # IBM's example: element(all(i, j in 1..5) x[i, j], 12) == false, here with a decision position too
    r = _solve("""using CP;
    int w[0..5] = [4, 9, 2, 7, 5, 1];
    dvar boolean x[1..3, 1..3];
    dvar int p in 0..5;
    maximize sum(i, j in 1..3) x[i, j] + element(all(k in 0..5) w[k], p) - 2 * p;
    subject to { element(all(i, j in 1..3) x[i, j], 4) == false; element(all(i, j in 1..3) x[i, j], p) == 1; }""")
    w = [4, 9, 2, 7, 5, 1]
    best = max(8 + w[p] - 2 * p for p in range(6) if p != 4)
    assert r.status == "optimal" and r.objective == best


def test_a_dexpr_array_indexed_by_a_decision():
    r = _solve("""using CP;
    int v[1..4] = [5, 2, 8, 3];
    dvar int y[1..4] in 0..3;
    dexpr int cost[i in 1..4] = v[i] + y[i];
    dvar int k in 1..4;
    minimize cost[k] + 2 * k - sum(i in 1..4) y[i];""")
    best = min(v + y + 2 * k - s for k, v in zip(range(1, 5), [5, 2, 8, 3]) for y in range(4)
               for s in [y + 9])  # the other three y at 3 each: -9 - y(k)
    best = min(v + yk + 2 * k - (yk + 9) for k, v in zip(range(1, 5), [5, 2, 8, 3]) for yk in range(4))
    assert r.status == "optimal" and r.objective == best


def test_decimal_data_indexed_by_a_decision_is_scaled():
    r = _solve("""using CP;
    float w[1..4] = [0.5, 1.25, 0.75, 2.5];
    dvar int k in 1..4;
    dvar int j in 1..4;
    maximize w[k] - w[j] / 2 - k / 4;
    subject to { k != j; }""")
    w = [0.5, 1.25, 0.75, 2.5]
    best = max(w[k - 1] - w[j - 1] / 2 - k / 4 for k in range(1, 5) for j in range(1, 5) if k != j)
    assert r.status == "optimal" and r.objective == pytest.approx(best)


def test_a_logical_constraint_over_an_unbounded_decision_is_enforced_natively():
    # no bound on x, so no big-M: CP-SAT enforces the rows by the literal itself
    r = _solve("""using CP;
    dvar int x; dvar int y in 0..5;
    minimize x - 20 * y;
    subject to { (y >= 3) => x >= 50; !(y >= 3) => x >= 7; }""")
    best = min((50 if y >= 3 else 7) - 20 * y for y in range(6))
    assert r.status == "optimal" and r.objective == best
