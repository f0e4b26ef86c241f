"""examples/cp/tournament.mod (a single round robin with the fewest breaks) on CP-SAT.  The optimum
is computed independently: by brute force for 4 teams, and for 6 by a different model (a 0/1
variable per pair of teams and round) built directly with ortools' cp_model API; de Werra's bound
(n - 2 breaks for n teams) is met by both.  The printed schedule is checked on its own."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import pyopl

cp_model = pytest.importorskip("ortools.sat.python.cp_model")

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "cp"


def _matchings(teams: list) -> list:
    """Every perfect matching of ``teams`` (a list of pairs)."""
    if not teams:
        return [[]]
    a, rest = teams[0], teams[1:]
    return [[(a, b)] + m for b in rest for m in _matchings([t for t in rest if t != b])]


def _brute_force(n: int) -> int:
    """The fewest breaks of a single round robin of ``n`` teams, each at home at least n/2 - 1 times:
    every sequence of n - 1 disjoint matchings covering all pairs, every choice of home team."""
    teams = list(range(1, n + 1))
    ms = _matchings(teams)
    best = None
    for rounds in itertools.permutations(ms, n - 1):
        pairs = [frozenset(p) for m in rounds for p in m]
        if len(set(pairs)) != n * (n - 1) // 2:
            continue
        games = [(r, p) for r, m in enumerate(rounds) for p in m]
        for hosts in itertools.product([0, 1], repeat=len(games)):
            home = {}
            for (r, (a, b)), h in zip(games, hosts):
                home[(a, r)], home[(b, r)] = (1, 0) if h else (0, 1)
            if any(sum(home[(t, r)] for r in range(n - 1)) < n // 2 - 1 for t in teams):
                continue
            breaks = sum(home[(t, r)] == home[(t, r - 1)] for t in teams for r in range(1, n - 1))
            best = breaks if best is None or breaks < best else best
    return best


def _ortools_direct(n: int) -> int:
    """The same optimum from a 0/1 model written with ortools' cp_model API."""
    m = cp_model.CpModel()
    T, R = range(n), range(n - 1)
    x = {(t, u, r): m.new_bool_var("") for t in T for u in T if t < u for r in R}
    meet = lambda t, u, r: x[(min(t, u), max(t, u), r)]  # noqa: E731
    h = {(t, r): m.new_bool_var("") for t in T for r in R}
    for t in T:
        for r in R:
            m.add(sum(meet(t, u, r) for u in T if u != t) == 1)
        m.add(sum(h[(t, r)] for r in R) >= n // 2 - 1)
    for t in T:
        for u in T:
            if t < u:
                m.add(sum(x[(t, u, r)] for r in R) == 1)
                for r in R:
                    m.add(h[(t, r)] + h[(u, r)] == 1).only_enforce_if(x[(t, u, r)])
    b = []
    for t in T:
        for r in R[1:]:
            v = m.new_bool_var("")
            m.add(v >= h[(t, r)] + h[(t, r - 1)] - 1)
            m.add(v >= 1 - h[(t, r)] - h[(t, r - 1)])
            b.append(v)
    m.minimize(sum(b))
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    assert s.solve(m) == cp_model.OPTIMAL
    return int(s.objective_value)


def test_the_brute_force_meets_de_werras_bound_for_four_teams():
    assert _brute_force(4) == 2


@pytest.mark.parametrize("n", [4, 6])
def test_tournament_optimum_matches_independent_computations(n):
    r = pyopl.compile_model(FOLDER / "tournament.mod", {"n": n}).solve(threads=1)
    expected = _brute_force(n) if n == 4 else _ortools_direct(n)
    assert expected == n - 2  # de Werra: n - 2 breaks at least, and reachable
    assert r.status == "optimal" and r.objective == expected


def test_the_printed_schedule_is_a_round_robin_with_that_many_breaks():
    r = pyopl.compile_model(FOLDER / "tournament.mod", FOLDER / "tournament.dat").solve(threads=1)
    n = 6
    rows = {}
    for line in r.script_output.splitlines():
        if line.startswith("team "):
            head, games = line.split(":")
            rows[int(head.split()[1])] = [(g.startswith("@"), int(g.lstrip("@"))) for g in games.split()]
    assert sorted(rows) == list(range(1, n + 1))
    breaks = 0
    for t, games in rows.items():
        assert sorted(u for _away, u in games) == [u for u in range(1, n + 1) if u != t]
        for k, (away, u) in enumerate(games):
            assert rows[u][k] == (not away, t)  # the opponent meets t in that round, at the other ground
        assert sum(not away for away, _u in games) >= n // 2 - 1
        breaks += sum(games[k][0] == games[k - 1][0] for k in range(1, n - 1))
    assert breaks == r.objective == n - 2
