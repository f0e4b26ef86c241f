"""`using CP;` models on OR-Tools CP-SAT: expected values computed by brute force in Python."""
from __future__ import annotations

import itertools

import pytest

import pyopl

pytest.importorskip("ortools")


def _codes(text: str) -> list[tuple[str, int, int]]:
    try:
        model = pyopl.compile_model(text)
    except pyopl.CompileError as e:
        return [(d.code, d.line, d.column) for d in e.diagnostics]
    r = model.solve(threads=1)
    return [(d.code, d.line, d.column) for d in list(model.diagnostics) + list(r.diagnostics)]


def _queens(n: int) -> list[tuple[int, ...]]:
    """Every n-queens placement (q[i] = column of the queen in row i), by brute force."""
    return [p for p in itertools.permutations(range(1, n + 1))
            if len({p[i] + i for i in range(n)}) == n and len({p[i] - i for i in range(n)}) == n]


QUEENS = """using CP;
int n = %d;
range R = 1..n;
dvar int q[R] in R;
%s
subject to {
  allDifferent(q);
  allDifferent(all(i in R) q[i] + i);
  allDifferent(all(i in R) q[i] - i);
}"""


def _valid(q: dict, n: int) -> bool:
    p = [q[(i,)] for i in range(1, n + 1)]
    return sorted(p) == list(range(1, n + 1)) and all(
        abs(p[i] - p[j]) != j - i for i in range(n) for j in range(i + 1, n))


def test_six_queens_has_four_placements_and_cpsat_finds_a_valid_one():
    assert len(_queens(6)) == 4  # the classic count for n = 6
    r = pyopl.compile_model(QUEENS % (6, "")).solve(threads=1)
    assert r.status == "optimal" and r.solver == "cpsat"
    assert "using CP" in r.extra["solver_choice"]
    assert _valid(r["q"], 6)
    assert tuple(r["q"][(i,)] for i in range(1, 7)) in _queens(6)


def test_queens_optimisation_matches_brute_force():
    # the weighted placement: maximise sum i * q[i] over the 6-queens placements
    best = max(sum((i + 1) * p[i] for i in range(6)) for p in _queens(6))
    r = pyopl.compile_model(QUEENS % (6, "maximize sum(i in R) i * q[i];")).solve(threads=1)
    assert r.status == "optimal"
    assert r.objective == best and r.best_bound == pytest.approx(best)
    assert _valid(r["q"], 6)


def test_three_queens_is_infeasible():
    assert _queens(3) == []
    assert pyopl.compile_model(QUEENS % (3, "")).solve(threads=1).status == "infeasible"


def test_not_equal_strict_and_reified_constraints_match_brute_force():
    m = """using CP;
    dvar int x in 0..4; dvar int y in -2..4; dvar boolean b;
    maximize 3*x - 2*y + 5*b;
    subject to {
      x != 4;
      x + y > 3;
      x - y < 2;
      (x == 3) => b == 0;
      (x == 1) + (y == 2) >= 1;
      !(y == 3);
    }"""
    feasible = [(x, y, b) for x in range(0, 5) for y in range(-2, 5) for b in (0, 1)
                if x != 4 and x + y > 3 and x - y < 2 and (x != 3 or b == 0)
                and (x == 1) + (y == 2) >= 1 and y != 3]
    best = max(3 * x - 2 * y + 5 * b for x, y, b in feasible)
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best
    x, y, b = r["x"], r["y"], r["b"]
    assert (x, y, b) in feasible and 3 * x - 2 * y + 5 * b == best


def test_all_different_over_expressions_and_a_literal_array():
    m = """using CP;
    dvar int x[1..3] in 0..3; dvar int z in 0..3;
    minimize sum(i in 1..3) (i + 1) * x[i] + z;
    subject to { allDifferent(all(i in 1..3) 2 * x[i] - i); allDifferent([x[1], x[2] + x[3], z]); }"""
    best = min((2 * a + 3 * b + 4 * c + z, (a, b, c, z)) for a, b, c, z in itertools.product(range(4), repeat=4)
               if len({2 * a - 1, 2 * b - 2, 2 * c - 3}) == 3 and len({a, b + c, z}) == 3)
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best[0]


def test_decimal_coefficients_are_scaled_exactly_and_said():
    m = """using CP;
    dvar int x in 0..10; dvar int y in 0..10;
    minimize 1.5 * x + 0.25 * y;
    subject to { 0.3 * x + 0.7 * y >= 2.05; x - 0.5 * y <= 1.5; }"""
    feasible = [(x, y) for x in range(11) for y in range(11) if 30 * x + 70 * y >= 205 and 2 * x - y <= 3]
    best = min(150 * x + 25 * y for x, y in feasible) / 100
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == pytest.approx(best)
    assert "power of ten" in r.extra["cpsat_scaling"]


def test_a_coefficient_with_no_exact_integer_form_is_named():
    cs = _codes("using CP;\nfloat c = sqrt(2);\ndvar int x in 0..3;\nminimize x;\nsubject to { c * x >= 0.5; }")
    assert ("OPL0708", 5, 14) in cs
    r = pyopl.compile_model("using CP;\nfloat c = sqrt(2);\ndvar int x in 0..3;\nminimize x;\n"
                            "subject to { c * x >= 0.5; }").solve()
    assert "1.41421" in r.diagnostics[0].message and r.status == "error"


def test_a_fraction_computed_from_data_scales_by_its_denominator():
    # 1/3 and 1/7 are no decimal: the rows are scaled by 21 (x/3 + y/7 >= 2 is 7x + 3y >= 42)
    r = pyopl.compile_model("using CP;\ndvar int x in 0..20;\ndvar int y in 0..20;\nminimize 2 * x + y;\n"
                            "subject to { x / 3 + y / 7 >= 2; }").solve(threads=1)
    best = min(2 * x + y for x in range(21) for y in range(21) if 7 * x + 3 * y >= 42)
    assert r.status == "optimal" and r.objective == best


def test_mp_constructs_in_a_cp_model_are_diagnosed_where_they_are():
    assert ("OPL0628", 2, 12) in _codes("using CP;\ndvar float x in 0..3;\nminimize x;")


def test_cp_constructs_are_diagnosed_by_name():
    assert ("OPL0626", 3, 14) in _codes("dvar int x[1..3] in 1..3;\nminimize x[1];\nsubject to { allDifferent(x); }")
    cs = _codes("using CP;\ndvar int x[1..3] in 1..3;\nminimize x[1];\nsubject to { distribute(x, x, x); }")
    assert ("OPL0627", 4, 14) in cs
    cs = _codes("using CP;\ndvar int x[1..3] in 1..3;\nminimize x[1];\nsubject to { pack(x, x, x); }")
    assert ("OPL0629", 4, 25) in cs  # the weights (the third argument) must be data



def test_a_cp_model_on_a_mip_solver_is_refused_with_cpsat_named():
    r = pyopl.compile_model("using CP;\ndvar int x in 0..3;\nminimize x;").solve(solver="highs")
    assert r.status == "error" and r.diagnostics[0].code == "OPL0703"
    assert "cpsat" in r.diagnostics[0].help


def test_pure_integer_mp_model_on_cpsat_and_continuous_refused():
    m = "dvar int x in 0..5; dvar int y in 0..5;\nmaximize 2*x + 3*y;\nsubject to { x + 2*y <= 7; 3*x - y <= 6; }"
    best = max(2 * x + 3 * y for x in range(6) for y in range(6) if x + 2 * y <= 7 and 3 * x - y <= 6)
    r = pyopl.compile_model(m).solve(solver="cpsat", threads=1)
    assert r.status == "optimal" and r.objective == best
    r = pyopl.compile_model("dvar float+ x;\nminimize x;\nsubject to { x >= 1; }").solve(solver="cpsat")
    assert r.status == "error" and r.diagnostics[0].code == "OPL0628"


def test_options_reach_cpsat_and_a_bad_one_is_a_diagnostic():
    model = pyopl.compile_model(QUEENS % (8, "maximize sum(i in R) i * q[i];"))
    r = model.solve(time_limit=20, threads=2, seed=7)
    assert r.status == "optimal" and r.extra["workers"] == 2
    best = max(sum((i + 1) * p[i] for i in range(8)) for p in _queens(8))
    assert r.objective == best
    r = model.solve(solver="cpsat", options={"no_such_parameter": 1})
    assert r.status == "error" and r.diagnostics[0].code == "OPL0707"


def test_an_enum_option_is_set_by_its_name_and_a_bad_name_lists_the_choices(tmp_path):
    """`--option search_branching=FIXED_SEARCH` (an enum of SatParameters) reaches CP-SAT by name, in
    any case: CP-SAT's own log of its parameters says so; a name it lacks is OPL0707 with the choices
    (before: a pybind11 type error, whatever the name)."""
    log = tmp_path / "cp.log"
    model = pyopl.compile_model(QUEENS % (6, ""))
    r = model.solve(solver="cpsat", threads=1, log_file=str(log), options={"search_branching": "fixed_search"})
    assert r.status == "optimal"
    assert "search_branching: FIXED_SEARCH" in log.read_text()
    r = model.solve(solver="cpsat", options={"search_branching": "sideways"})
    assert r.status == "error" and r.diagnostics[0].code == "OPL0707"
    assert "FIXED_SEARCH" in r.diagnostics[0].message and "sideways" in r.diagnostics[0].message


def test_missing_ortools_is_a_diagnostic_with_the_install_command(monkeypatch):
    from pyopl.backends.cp import cpsat

    monkeypatch.setattr(cpsat, "_cp_model", lambda: None)
    r = pyopl.compile_model("using CP;\ndvar int x in 0..3;\nminimize x;").solve(solver="cpsat")
    assert r.status == "error" and r.diagnostics[0].code == "OPL0702"
    assert 'pip install "pyopl[cp]"' in r.diagnostics[0].help


def test_feasibility_model_without_objective():
    r = pyopl.compile_model("using CP;\ndvar int x in 1..3; dvar int y in 1..3;\nsubject to { x + y == 5; x > y; }").solve()
    assert r.status == "optimal" and (r["x"], r["y"]) == (3, 2) and r.objective is None


def test_log_file_gets_cpsat_log_and_stdout_stays_clean(tmp_path, capfd):
    path = tmp_path / "cp.log"
    r = pyopl.compile_model(QUEENS % (6, "")).solve(threads=1, log_file=str(path))
    assert r.status == "optimal"
    assert "CP-SAT" in path.read_text(encoding="utf-8")
    assert capfd.readouterr().out == ""


def test_abs_min_max_of_integer_decisions_match_brute_force():
    m = """using CP;
    dvar int x in -3..3; dvar int y in -3..3; dvar int z in -3..3;
    minimize abs(x - 2 * y) + maxl(x, z) - min(y, z) + 2 * x;
    subject to { x + y + z == 1; abs(z) >= 1; }"""
    best = min(abs(x - 2 * y) + max(x, z) - min(y, z) + 2 * x
               for x in range(-3, 4) for y in range(-3, 4) for z in range(-3, 4) if x + y + z == 1 and abs(z) >= 1)
    model = pyopl.compile_model(m)
    kinds = [c.kind for c in model.ir.cp_constraints]
    assert kinds.count("abs") == 2 and kinds.count("max") == 1 and kinds.count("min") == 1  # CP-SAT's own
    r = model.solve(threads=1)
    assert r.status == "optimal" and r.objective == best


def test_abs_of_a_decimal_expression_is_scaled_to_integers():
    # |0.5 x - 1.5| = |x - 3| / 2 over the integers of -3..3, pushed up by the maximisation
    m = "using CP;\ndvar int x in -3..3;\nmaximize abs(0.5 * x - 1.5) + x / 4;"
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == max(abs(0.5 * x - 1.5) + x / 4 for x in range(-3, 4))


def test_a_constraint_as_a_value_beside_a_decision_is_reified():
    m = """using CP;
    dvar int x in 0..3; dvar boolean w; dvar boolean v;
    maximize 2 * w + v - x;
    subject to { w == (x == 2); v != (x >= 1); }"""
    best = max(2 * w + v - x for x in range(4) for w in (0, 1) for v in (0, 1)
               if w == (x == 2) and v != (x >= 1))
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best


def _rostering_optimum() -> int:
    cost = [[1, 4], [2, 2], [3, 1], [5, 3]]
    pairs = [(a, b) for a in range(4) for b in range(4) if a != b]  # (early, late) nurse of a day
    best = None
    for days in itertools.product(pairs, repeat=4):
        if 0 in days[1]:  # nurse 1 is away on day 2
            continue
        if any(days[d][1] == days[d + 1][0] for d in range(3)):  # early right after late
            continue
        load = [sum(n in day for day in days) for n in range(4)]
        if max(load) > 3:
            continue
        c = sum(cost[e][0] + cost[l][1] for e, l in days)
        best = c if best is None or c < best else best
    return best


def test_examples_cp_solve_to_independently_computed_answers():
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "examples" / "cp"
    r = pyopl.compile_model(folder / "queens.mod", folder / "queens.dat").solve(threads=1)
    assert r.status == "optimal" and _valid(r["queen"], 8)
    r = pyopl.compile_model(folder / "rostering.mod", folder / "rostering.dat").solve(threads=1)
    assert r.status == "optimal" and r.objective == _rostering_optimum()


def test_static_lex_in_a_cp_model_runs_stage_by_stage():
    """min staticLex(x, y) with x + y >= 2 over 0..3: x = 0 first, then y = 2 (worked by hand)."""
    r = pyopl.compile_model("using CP;\ndvar int x in 0..3; dvar int y in 0..3;\nminimize staticLex(x, y);\n"
                            "subject to { x + y >= 2; }").solve()
    assert r.status == "optimal" and r.extra["objectives"] == [0, 2] and (r.variables["x"], r.variables["y"]) == (0, 2)


def test_count_matches_brute_force():
    m = """using CP;
    dvar int x[1..4] in 1..3;
    maximize sum(i in 1..4) i * x[i] - 3 * count(x, 3);
    subject to { count(x, 2) >= 2; count(all(i in 1..4) x[i] + 1, 4) <= 1; }"""
    best = max(sum((i + 1) * p[i] for i in range(4)) - 3 * p.count(3)
               for p in itertools.product(range(1, 4), repeat=4)
               if p.count(2) >= 2 and [q + 1 for q in p].count(4) <= 1)
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best
    x = [r["x"][(i,)] for i in range(1, 5)]
    assert x.count(2) >= 2 and x.count(3) <= 1


def test_count_needs_using_cp():
    cs = _codes("dvar int x[1..3] in 1..3;\nmaximize x[1];\nsubject to { count(x, 2) >= 1; }")
    assert ("OPL0626", 3, 14) in cs


def test_cli_solves_a_cp_model_with_json_on_stdout_and_the_log_elsewhere():
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "examples" / "cp"
    out = subprocess.run([sys.executable, "-m", "pyopl", "solve", str(folder / "queens.mod"), str(folder / "queens.dat"),
                          "--format", "json", "--log", "--threads", "1"], capture_output=True, text=True,
                         env=dict(os.environ), timeout=120)
    d = json.loads(out.stdout)
    assert d["status"] == "optimal" and d["solver"] == "cpsat"
    assert "CP-SAT" in out.stderr  # the search log went to stderr


def test_element_of_data_and_of_decisions_matches_brute_force():
    m = """using CP;
    int cost[1..4] = [7, 2, 9, 4];
    int w[0..2][1..3] = [[1, 5, 2], [3, 0, 6], [4, 4, 1]];
    dvar int pick in 1..6; dvar int row in 0..2; dvar int col in 1..3;
    dvar int y[1..3] in 0..5;
    maximize 2 * w[row][col] - cost[pick] + y[col] - y[1 + 0 * row];
    subject to { cost[pick] >= 3; w[row][col] != 6; y[col] <= col + row; sum(i in 1..3) y[i] <= 6; }"""
    cost, w = [7, 2, 9, 4], [[1, 5, 2], [3, 0, 6], [4, 4, 1]]
    best = None
    for pick, row, col in itertools.product(range(1, 5), range(3), range(1, 4)):  # the element keeps pick in 1..4
        if cost[pick - 1] < 3 or w[row][col - 1] == 6:
            continue
        for y in itertools.product(range(6), repeat=3):
            if y[col - 1] <= col + row and sum(y) <= 6:
                v = 2 * w[row][col - 1] - cost[pick - 1] + y[col - 1] - y[0]
                best = v if best is None or v > best else best
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best
    assert 1 <= r["pick"] <= 4


def test_element_over_an_index_set_with_holes():
    m = """using CP;
    {int} S = {2, 5, 9};
    int v[S] = [10, 30, 20];
    dvar int k in 0..10;
    maximize v[k] - k;"""
    best = max(val - k for k, val in ((2, 10), (5, 30), (9, 20)))
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best and r["k"] == 5


def test_inverse_matches_brute_force():
    m = """using CP;
    range R = 1..4;
    dvar int f[R] in R; dvar int g[R] in R;
    maximize sum(i in R) i * f[i] * 1 + 2 * g[1] - g[3];
    subject to { inverse(f, g); f[1] != 4; g[2] <= 2; }"""
    best = None
    for f in itertools.permutations(range(1, 5)):
        g = [0] * 4
        for i, fi in enumerate(f):
            g[fi - 1] = i + 1
        if f[0] != 4 and g[1] <= 2:
            v = sum((i + 1) * f[i] for i in range(4)) + 2 * g[0] - g[2]
            best = v if best is None or v > best else best
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best
    f, g = r["f"], r["g"]
    assert all(g[f[i]] == i for i in range(1, 5))


def test_max_of_decisions_in_a_cp_model_is_cpsat_max_equality():
    m = """using CP;
    dvar int x[1..3] in 0..9;
    minimize max(i in 1..3) (x[i] + i) + 2 * min(i in 1..3) x[i] - minl(x[1], x[2] - 3);
    subject to { sum(i in 1..3) x[i] >= 10; }"""
    best = min(max(a + 1, b + 2, c + 3) + 2 * min(a, b, c) - min(a, b - 3)
               for a, b, c in itertools.product(range(10), repeat=3) if a + b + c >= 10)
    model = pyopl.compile_model(m)
    assert [c.kind for c in model.ir.cp_constraints].count("max") == 1
    r = model.solve(threads=1)
    assert r.status == "optimal" and r.objective == best


def test_all_different_over_a_sum_takes_the_sum_s_whole_range():
    # the auxiliary variable of `y + z` ranges over 0..6 (a bug once gave it 0..0, and this model no solution)
    m = """using CP;
    dvar int x in 0..0; dvar int y in 0..3; dvar int z in 0..3;
    maximize y + z;
    subject to { allDifferent([x, y + z]); }"""
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == 6


def test_all_min_distance_matches_brute_force():
    m = """using CP;
    dvar int x[1..3] in 0..6;
    minimize sum(i in 1..3) i * x[i];
    subject to { allMinDistance(x, 2); x[1] >= 1; }"""
    best = min(a + 2 * b + 3 * c for a, b, c in itertools.product(range(7), repeat=3)
               if a >= 1 and abs(a - b) >= 2 and abs(a - c) >= 2 and abs(b - c) >= 2)
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best


def test_lex_matches_brute_force():
    m = """using CP;
    dvar int x[1..3] in 0..2; dvar int y[1..3] in 0..2;
    maximize 9 * x[1] + 3 * x[2] + x[3] - 2 * y[1] - y[2] - y[3];
    subject to { lex(x, y); lex(y, [2, 0, 1]); }"""
    best = max(9 * x[0] + 3 * x[1] + x[2] - 2 * y[0] - y[1] - y[2]
               for x in itertools.product(range(3), repeat=3) for y in itertools.product(range(3), repeat=3)
               if x <= y and y <= (2, 0, 1))  # Python compares tuples lexicographically
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best


def test_pack_matches_brute_force():
    m = """using CP;
    range Bins = 1..3; range Items = 1..4;
    int weight[Items] = [4, 3, 2, 2];
    dvar int load[Bins] in 0..6;
    dvar int where[Items] in Bins;
    dvar int used in 0..3;
    minimize 10 * used + sum(b in Bins) b * load[b];
    subject to { pack(load, where, weight, used); where[1] != where[2]; }"""
    w = [4, 3, 2, 2]
    best = None
    for where in itertools.product(range(1, 4), repeat=4):
        load = [sum(w[i] for i in range(4) if where[i] == b) for b in (1, 2, 3)]
        if max(load) > 6 or where[0] == where[1]:
            continue
        v = 10 * sum(1 for x in load if x > 0) + sum((b + 1) * load[b] for b in range(3))
        best = v if best is None or v < best else best
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best


def test_static_lex_objectives_in_priority_order_match_brute_force():
    """``staticLex`` on CP-SAT: each objective in turn, the earlier ones held at their optimum; the
    optimum of every stage is the lexicographic maximum over all feasible points, found by brute force."""
    m = """using CP;
    dvar int x in 0..3; dvar int y in 0..3; dvar int z in 0..3;
    maximize staticLex(x + y + z, 2 * x - y, z);
    subject to { x + 2 * y + 3 * z <= 7; x != y; }"""
    points = [(x, y, z) for x in range(4) for y in range(4) for z in range(4) if x + 2 * y + 3 * z <= 7 and x != y]
    best = max((x + y + z, 2 * x - y, z) for x, y, z in points)
    r = pyopl.compile_model(m).solve(solver="cpsat", threads=1)
    assert r.status == "optimal" and r.extra["objectives"] == list(best) and r.objective == best[0]
    x, y, z = (r.variables[n] for n in "xyz")
    assert (x + y + z, 2 * x - y, z) == best


def test_allowed_and_forbidden_assignments_match_brute_force():
    """``allowedAssignments(T, x, y)`` keeps (x, y) among T's tuples, ``forbiddenAssignments`` out of
    them, over any integer expressions (IBM's Quick Reference example, with an objective added)."""
    m = """using CP;
    tuple C { int a; int b; }
    {C} possibles = {<1, 1>, <2, 4>, <3, 0>};
    {C} forbidden = {<3, 5>, <2, 4>};
    dvar int x in 0..5; dvar int y in 0..5; dvar int z in 0..5;
    maximize x + y + 2 * z;
    subject to { allowedAssignments(possibles, x, y); forbiddenAssignments(forbidden, x + 1, z); }"""
    allowed, banned = {(1, 1), (2, 4), (3, 0)}, {(3, 5), (2, 4)}
    best = max(x + y + 2 * z for x in range(6) for y in range(6) for z in range(6)
               if (x, y) in allowed and (x + 1, z) not in banned)
    r = pyopl.compile_model(m).solve(threads=1)
    assert r.status == "optimal" and r.objective == best
    assert (r.variables["x"], r.variables["y"]) in allowed and (r.variables["x"] + 1, r.variables["z"]) not in banned


def test_assignments_with_tuples_of_the_wrong_arity_are_named():
    m = """using CP;
    tuple T { int a; int b; int c; }
    {T} ok = {<1, 2, 3>};
    dvar int x in 0..5; dvar int y in 0..5;
    minimize x;
    subject to { allowedAssignments(ok, x, y); }"""
    with pytest.raises(pyopl.CompileError) as e:
        pyopl.compile_model(m)
    d = e.value.diagnostics[0]
    assert d.code == "OPL0629" and "<1, 2, 3>" in d.message and "2 integer field(s)" in d.message and d.line == 6


def _split_lex_model() -> str:
    """A market-split instance (5 rows, 40 binaries) as a `using CP;` model with two objectives: its
    first stage is not proved optimal within a second, though an incumbent comes at once."""
    import random

    rng = random.Random(7)
    a = [[rng.randrange(100) for _ in range(40)] for _ in range(5)]
    d = [sum(r) // 2 for r in a]
    return """using CP;
int a[1..5][1..40] = [%s];
int d[1..5] = [%s];
dvar boolean x[1..40];
dvar int dev[1..5][1..2] in 0..100000;
minimize staticLex(sum(i in 1..5, k in 1..2) dev[i][k], x[1]);
subject to { forall(i in 1..5) sum(j in 1..40) a[i][j] * x[j] - dev[i][1] + dev[i][2] == d[i]; }
""" % (",".join("[%s]" % ",".join(map(str, r)) for r in a), ",".join(map(str, d)))


@pytest.mark.parametrize("limit, build_s, no_solution", [
    (1.0, 0.3, False),  # the first stage gets the 0.7 s left and runs it out (an incumbent comes at once)
    (0.2, 0.3, True),   # building took the whole limit: the first stage gets 0 s, no solution
])
def test_cp_stop_at_the_limit_given_to_the_solver_is_time_limit(monkeypatch, limit, build_s, no_solution):
    """Issue 45: when building the CP-SAT model takes part of the time limit, CP-SAT is given what is
    left; its stop there is `time_limit` (was `feasible`, or `interrupted` with exit 130 without a
    solution, from comparing against the whole limit)."""
    import time as clock

    from pyopl.backends.cp import cpsat
    from pyopl.cli import exit_codes

    real = cpsat.build

    def slow_build(*args):  # a large model's build, simulated
        clock.sleep(build_s)
        return real(*args)

    monkeypatch.setattr(cpsat, "build", slow_build)
    r = pyopl.compile_model(_split_lex_model()).solve(solver="cpsat", time_limit=limit, threads=1)
    assert r.status == "time_limit", (r.status, r.objective, r.extra.get("cpsat_status"))
    assert r.objective is None or not no_solution
    assert exit_codes.for_result(r.status, r.objective is not None) != exit_codes.INTERRUPTED


def test_cp_time_limit_counts_the_build(monkeypatch):
    """The time CP-SAT is given is what building its model left of ``time_limit``: the whole solve
    keeps to the limit (CP Optimizer's limit likewise covers its whole run)."""
    import time as clock

    from pyopl.backends.cp import cpsat

    real = cpsat.build
    monkeypatch.setattr(cpsat, "build", lambda *a: (clock.sleep(0.4), real(*a))[1])
    one = _split_lex_model().replace("staticLex(sum(i in 1..5, k in 1..2) dev[i][k], x[1])",
                                     "sum(i in 1..5, k in 1..2) dev[i][k]")
    r = pyopl.compile_model(one).solve(solver="cpsat", time_limit=0.8, threads=1)
    assert r.status == "time_limit" and r.objective is not None
    assert r.solve_time_s < 0.8 + 0.3, r.solve_time_s  # 0.4 s building + about 0.4 s searching


def test_integer_abs_without_using_cp_solves_on_cpsat():
    # issue 42 (minor): `--solver cpsat` refused `abs` of an integer expression in a model without
    # `using CP;` (OPL0628: its auxiliary column was continuous); the optimum by brute force
    import itertools

    import pyopl

    text = ("dvar int x in -5..5;\ndvar int y in -5..5;\nminimize abs(x - 3) + 2 * abs(y + 2);\n"
            "subject to { x + y >= 4; }\n")
    best = min(abs(x - 3) + 2 * abs(y + 2) for x, y in itertools.product(range(-5, 6), repeat=2) if x + y >= 4)
    for solver in ("cpsat", "highs"):
        r = pyopl.solve(text, source="text", solver=solver)
        assert r.status == "optimal" and r.objective == best, (solver, r.status, r.message)


def test_an_optimum_at_the_default_domain_of_an_undeclared_decision_is_not_called_optimal():
    """Before: `using CP; dvar int x; maximize x;` was `optimal, 2147483647`: the value is only the
    maxint bound CP-SAT gives a decision without a domain (the model has no optimum; CP Optimizer's
    default domain is wider still). It is now `feasible` with OPL0710 at the declaration, the help
    naming `x`; a decision the rows bound (x >= 3, minimised through `y - x`) stays `optimal`."""
    r = pyopl.compile_model("using CP;\ndvar int x;\nmaximize x;\n").solve()
    assert r.status == "feasible" and r.last_solve_status == "optimal" and r.objective == 2147483647
    [d] = [d for d in r.diagnostics if d.code == "OPL0710"]
    assert (d.span.line, d.span.column) == (2, 10) and "`x` <= 2147483647" in d.message and "`x`" in d.help
    r = pyopl.compile_model("using CP;\ndvar int x;\ndvar int y in 0..10;\nmaximize y - x;\n"
                            "subject to { x >= 3; x + y <= 12; }").solve()
    assert r.status == "optimal" and r.objective == 6  # x = 3, y = 9 by hand
    assert not [d for d in r.diagnostics if d.code == "OPL0710"]
