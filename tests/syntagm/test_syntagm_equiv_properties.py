"""The equivalence check's invariants (docs/syntagm.md): ``equivalent`` only with a proof,
``different`` only with a witness that holds whatever the correspondence of variables.

Random small models are written as OPL; sound rewrites of them (renamed and reordered variables
and rows, rows scaled by positive and negative factors, auxiliary variables, equalities split
into two inequalities, bounds written as rows) must come out ``equivalent``.  Random
perturbations of pure-integer models in small boxes are judged by brute force over every point
of the box and every permutation of the variables (the oracle, independent of the checker): the
checker must never call ``equivalent`` a pair the oracle separates, nor ``different`` a pair it
matches, and a ``different`` by objective must match the brute-force optima.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syntagm.equiv.compare import check_texts
from syntagm.equiv.normalise import _close


@dataclass
class Model:
    """A small linear model: ``sense`` ``obj @ x``, rows ``(coefs, op, rhs)``, ``lo <= x <= hi``."""
    lo: list[int]
    hi: list[int]
    integer: list[bool]
    rows: list[tuple[list[float], str, float]]
    obj: list[int]
    sense: str = "maximize"
    names: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.lo)


def _term(c: float, name: str, first: bool) -> str:
    sign = "-" if c < 0 else ("" if first else "+")
    return f"{sign} {abs(c):g}*{name}" if not first or c < 0 else f"{abs(c):g}*{name}"


def _expr(coefs: list[float], names: list[str]) -> str:
    terms = [(c, nm) for c, nm in zip(coefs, names) if c]
    if not terms:
        return "0"
    return " ".join(_term(c, nm, k == 0) for k, (c, nm) in enumerate(terms))


@dataclass
class Rewrite:
    """How to write a :class:`Model` (every option keeps the model the same)."""
    var_order: list[int] | None = None
    row_order: list[int] | None = None
    scales: list[float] | None = None
    aux_objective: bool = False
    aux_rows: frozenset = frozenset()
    split_equalities: bool = False
    bounds_as_rows: bool = False
    rename: bool = False


def emit(m: Model, rw: Rewrite = Rewrite()) -> str:
    """The OPL text of ``m`` written as ``rw`` says."""
    names = [f"q{j * 7 % 11}" if rw.rename else f"x{j}" for j in range(m.n)]
    order = rw.var_order or list(range(m.n))
    lines = []
    bound_rows = []
    for j in order:
        kind = "int" if m.integer[j] else "float"
        if rw.bounds_as_rows and not m.integer[j]:
            lines.append(f"dvar float {names[j]};")
            bound_rows += [f"{names[j]} >= {m.lo[j]}", f"{names[j]} <= {m.hi[j]}"]
        else:
            lines.append(f"dvar {kind} {names[j]} in {m.lo[j]}..{m.hi[j]};")
    objective = _expr(m.obj, names)
    if rw.aux_objective:
        lines.append("dvar float total;")
        lines.append(f"{m.sense} total;")
    else:
        lines.append(f"{m.sense} {objective};")
    cons = []
    if rw.aux_objective:
        cons.append(f"total == {objective}")
    flip = {"<=": ">=", ">=": "<=", "==": "=="}
    for i in (rw.row_order or range(len(m.rows))):
        coefs, op, rhs = m.rows[i]
        k = (rw.scales or [1.0] * len(m.rows))[i]
        coefs, rhs = [k * c for c in coefs], k * rhs
        if k < 0:
            op = flip[op]
        lhs = _expr(coefs, names)
        if i in rw.aux_rows:
            lines.append(f"dvar float s{i};")
            cons.append(f"s{i} == {lhs}")
            lhs = f"s{i}"
        if op == "==" and rw.split_equalities:
            cons += [f"{lhs} <= {rhs:g}", f"{lhs} >= {rhs:g}"]
        else:
            cons.append(f"{lhs} {op} {rhs:g}")
    cons += bound_rows
    return "\n".join(lines) + "\nsubject to {\n" + "".join(f"  {c};\n" for c in cons) + "}\n"


@st.composite
def models(draw, integer_only: bool = False, box: int = 6) -> Model:
    """A model with a known feasible point (so it solves: boxes keep it bounded)."""
    n = draw(st.integers(2, 3))
    lo = [draw(st.integers(0, 1)) for _ in range(n)]
    hi = [lo[j] + draw(st.integers(1, box)) for j in range(n)]
    integer = [True] * n if integer_only else [draw(st.booleans()) for _ in range(n)]
    x0 = [draw(st.integers(lo[j], hi[j])) for j in range(n)]
    rows = []
    for _ in range(draw(st.integers(1, 3))):
        coefs = [draw(st.integers(-4, 4)) for _ in range(n)]
        if sum(1 for c in coefs if c) < 2:
            coefs[0], coefs[1] = coefs[0] or 1, coefs[1] or 2
        op = draw(st.sampled_from(["<=", ">=", "=="]))
        act = sum(c * v for c, v in zip(coefs, x0))
        slack = draw(st.integers(0, 3))
        rows.append((coefs, op, act + slack if op == "<=" else act - slack if op == ">=" else act))
    obj = [draw(st.integers(-5, 5)) for _ in range(n)]
    if not any(obj):
        obj[0] = 1
    return Model(lo, hi, integer, rows, obj, draw(st.sampled_from(["maximize", "minimize"])))


@st.composite
def rewrites(draw, m: Model) -> Rewrite:
    """A random combination of sound rewrites of ``m``."""
    return Rewrite(var_order=draw(st.permutations(range(m.n))),
                   row_order=draw(st.permutations(range(len(m.rows)))),
                   scales=[draw(st.sampled_from([1.0, 2.0, 0.5, 3.0, -1.0, -2.0])) for _ in m.rows],
                   aux_objective=draw(st.booleans()),
                   aux_rows=frozenset(i for i in range(len(m.rows)) if m.rows[i][1] != "==" and draw(st.booleans())),
                   split_equalities=draw(st.booleans()), bounds_as_rows=draw(st.booleans()), rename=draw(st.booleans()))


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.data())
def test_sound_rewrites_are_equivalent(data):
    m = data.draw(models())
    rw = data.draw(rewrites(m))
    r = check_texts(emit(m, rw), "", emit(m), "")
    assert r["verdict"] == "equivalent", (emit(m, rw), emit(m), r)


# ---- the brute-force oracle over integer boxes ----

def _points(m: Model) -> dict[tuple[int, ...], float]:
    """Every feasible point of a pure-integer ``m`` with its objective value."""
    ok = {"<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}
    out = {}
    for x in itertools.product(*(range(lo, hi + 1) for lo, hi in zip(m.lo, m.hi))):
        if all(ok[op](sum(c * v for c, v in zip(coefs, x)), rhs) for coefs, op, rhs in m.rows):
            out[x] = sum(c * v for c, v in zip(m.obj, x))
    return out


def oracle(a: Model, b: Model) -> tuple[bool, float | None, float | None]:
    """(whether some permutation of the variables maps a's feasible points and objective values
    onto b's and the senses agree, a's optimum, b's optimum)."""
    pa, pb = _points(a), _points(b)
    best = {"maximize": max, "minimize": min}
    oa = best[a.sense](pa.values()) if pa else None
    ob = best[b.sense](pb.values()) if pb else None
    same = False
    if a.n == b.n and a.sense == b.sense:
        for perm in itertools.permutations(range(a.n)):
            mapped = {tuple(x[perm[k]] for k in range(a.n)): v for x, v in pa.items()}
            if mapped == pb:
                same = True
                break
    return same, oa, ob


@st.composite
def perturbed(draw, m: Model) -> Model:
    """``m`` with one change that may (and usually does) change its feasible set or objective."""
    what = draw(st.sampled_from(["coef", "rhs", "obj", "op", "drop", "bound", "sense"]))
    rows = [(list(c), op, rhs) for c, op, rhs in m.rows]
    i = draw(st.integers(0, len(rows) - 1))
    j = draw(st.integers(0, m.n - 1))
    d = draw(st.sampled_from([-1, 1]))
    if what == "coef":
        rows[i][0][j] += d
    elif what == "rhs":
        rows[i] = (rows[i][0], rows[i][1], rows[i][2] + d)
    elif what == "op":
        rows[i] = (rows[i][0], draw(st.sampled_from([o for o in ("<=", ">=", "==") if o != rows[i][1]])), rows[i][2])
    elif what == "drop" and len(rows) > 1:
        del rows[i]
    if what == "obj":
        obj = list(m.obj)
        obj[j] += d
        return replace(m, rows=rows, obj=obj)
    if what == "bound":
        hi = list(m.hi)
        hi[j] = max(m.lo[j], hi[j] + d)
        return replace(m, rows=rows, hi=hi)
    if what == "sense":
        return replace(m, rows=rows, sense="minimize" if m.sense == "maximize" else "maximize")
    return replace(m, rows=rows)


@SETTINGS
@given(st.data())
def test_perturbations_are_never_called_equivalent_wrongly(data):
    m = data.draw(models(integer_only=True, box=2))
    p = data.draw(perturbed(m))
    rw = data.draw(rewrites(p))
    r = check_texts(emit(p, rw), "", emit(m), "")
    same, op_, om = oracle(p, m)
    if r["verdict"] == "equivalent":
        assert same and op_ is not None, (emit(p, rw), emit(m), r)
    if r["verdict"] == "different":
        assert not same, (emit(p, rw), emit(m), r)
        if r["method"] == "objective":
            assert op_ is not None and om is not None and op_ != om
        if r["method"] == "status":
            assert (op_ is None) != (om is None)


# ---- the cases of issue 47 ----

def test_close_is_false_against_an_infinite_side():
    assert not _close(1.0, float("inf")) and not _close(-float("inf"), float("inf"))
    assert _close(float("inf"), float("inf")) and _close(3.0, 3.0 + 1e-12)


def test_a_greater_equal_row_is_not_read_as_an_equality():
    # y appears only in r, an inequality: x - y >= 1 with 0 <= y <= 5 lets x reach the cap 7 (optimum 7);
    # read as the equality x - y == 1 it would bound x by 6 and match B (optimum 6)
    a = ("dvar float+ x; dvar float y in 0..5;\nmaximize x;\n"
         "subject to { r: x - y >= 1; cap: x <= 7; }\n")
    b = "dvar float x in 1..6;\nmaximize x;\nsubject to { }\n"
    r = check_texts(a, "", b, "")
    assert r["A"]["objective"] == pytest.approx(7) and r["B"]["objective"] == pytest.approx(6)
    assert (r["verdict"], r["method"]) == ("different", "objective")


GOOD = ("dvar float+ x; dvar float+ y;\nmaximize 3*x + 2*y;\n"
        "subject to { ctA: x + y <= 4; ctB: x + 3*y <= 6; }\n")


@pytest.mark.parametrize("extra", [
    "dvar float overtime in 0..0;\n",
    "dvar float overtime;\n",
])
def test_an_infeasible_candidate_is_never_equivalent(extra):
    rows = "over: overtime >= 1; " + ("" if "0..0" in extra else "ob1: overtime >= 0; ob2: overtime <= 0; ")
    a = extra + GOOD.replace("subject to { ", "subject to { " + rows)
    r = check_texts(a, "", GOOD, "")
    assert r["A"]["status"] == "infeasible"
    assert (r["verdict"], r["method"]) == ("different", "status")
    assert check_texts(a, "", a, "")["verdict"] == "unknown"  # both infeasible: nothing to call equivalent


def test_equal_names_with_other_meanings_are_matched_by_structure():
    # B calls the first product y and the second x, and states the bound y <= 4 that A only implies
    b = ("dvar float+ y; dvar float x in 0..4;\nmaximize 3*y + 2*x;\n"
         "subject to { ctA: y + x <= 4; ctB: y + 3*x <= 6; }\n")
    r = check_texts(GOOD, "", b, "")
    assert r["verdict"] == "equivalent", r
    assert r["evidence"]["column_map"] == {"x": "y", "y": "x"}


def test_cost_on_a_zero_variable_and_a_dropped_slack_row_are_not_equivalent():
    # optimum (4, 0): y's cost changes nothing at the optimum; ctB (x + 3y = 4 < 6 there) is slack
    for other in (GOOD.replace("2*y", "1*y"), GOOD.replace(" ctB: x + 3*y <= 6;", "")):
        r = check_texts(other, "", GOOD, "")
        assert r["A"]["objective"] == pytest.approx(12)
        assert r["verdict"] in ("unknown", "equivalent_by_solutions"), r
