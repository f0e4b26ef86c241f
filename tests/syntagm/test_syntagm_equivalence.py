"""The equivalence check (syntagm.equiv): pairs of models whose truth is known by construction.

Expected optima are worked out by hand in the comments (or by brute force in the test); the
witness points are checked against the models' constraints here, not taken on trust.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import sys

import pytest

from syntagm.equiv.compare import check_texts

# max 3x + 2y, x + y <= 4, x + 3y <= 6, x, y >= 0: vertices (0,0) 0, (4,0) 12, (3,1) 11, (0,2) 4 -> 12 at (4,0)
GOOD = ("dvar float+ x; dvar float+ y;\n"
        "maximize 3*x + 2*y;\n"
        "subject to { ctA: x + y <= 4; ctB: x + 3*y <= 6; }\n")


def verdict(a: str, b: str = GOOD, da: str = "", db: str = "") -> dict:
    return check_texts(a, da, b, db)


def test_scaled_and_negated_rows_are_equivalent_by_structure():
    scaled = ("dvar float+ x; dvar float+ y;\nmaximize 3*x + 2*y;\n"
              "subject to { c1: 2*x + 2*y <= 8; c2: -0.5*x - 1.5*y >= -3; }\n")
    r = verdict(scaled)
    assert (r["verdict"], r["method"]) == ("equivalent", "structure")
    assert r["evidence"]["column_map"] == {"x": "x", "y": "y"}


def test_equality_rows_match_whatever_their_sign_and_scale():
    a = "dvar float+ x; dvar float+ y;\nminimize x + 2*y;\nsubject to { e: x - y == 1; r: x + y >= 3; }\n"
    b = "dvar float+ x; dvar float+ y;\nminimize x + 2*y;\nsubject to { e: 2*y - 2*x == -2; r: 3 <= x + y; }\n"
    assert verdict(a, b)["verdict"] == "equivalent"


PERMUTED_A = ("{string} P = ...; float p[P] = ...; float w[P] = ...; float u[P] = ...;\n"
              "dvar float x[i in P] in 0..u[i];\n"
              "maximize sum(i in P) p[i]*x[i];\n"
              "subject to { cap: sum(i in P) w[i]*x[i] <= 10; }\n")
PERMUTED_A_DATA = 'P = {"a", "b", "c"}; p = [3, 5, 4]; w = [2, 4, 3]; u = [3, 1, 2];\n'
# the same items in the order c, a, b, indexed 1..3, the upper bounds written as constraints
PERMUTED_B = ("int n = ...; range R = 1..n; float p[R] = ...; float w[R] = ...; float u[R] = ...;\n"
              "dvar float+ y[R];\n"
              "maximize sum(i in R) p[i]*y[i];\n"
              "subject to { cap: sum(i in R) w[i]*y[i] <= 10; forall(i in R) ub: y[i] <= u[i]; }\n")
PERMUTED_B_DATA = "n = 3; p = [4, 3, 5]; w = [3, 2, 4]; u = [2, 3, 1];\n"


def test_permuted_indices_and_bounds_written_as_rows_are_equivalent():
    r = verdict(PERMUTED_A, PERMUTED_B, PERMUTED_A_DATA, PERMUTED_B_DATA)
    assert (r["verdict"], r["method"]) == ("equivalent", "structure")
    # item a (p 3, w 2) is y[2], b is y[3], c is y[1]
    assert r["evidence"]["column_map"] == {"y[1]": 'x["c"]', "y[2]": 'x["a"]', "y[3]": 'x["b"]'}
    assert len(r["evidence"]["normalised_B"]) == 3  # the three ub rows became bounds


def test_auxiliary_objective_variable_is_substituted_out():
    aux = ("dvar float+ x; dvar float+ y; dvar float+ profit;\nmaximize profit;\n"
           "subject to { d: profit == 3*x + 2*y; ctA: x + y <= 4; ctB: x + 3*y <= 6; }\n")
    r = verdict(aux)
    assert (r["verdict"], r["method"]) == ("equivalent", "structure")
    steps = r["evidence"]["normalised_A"]
    assert steps[0] == "substituted profit out through its defining equality d"
    # profit >= 0 became 3x + 2y >= 0, implied by x, y >= 0
    assert any(s.startswith("dropped row d: implied") for s in steps)


def test_relaxed_integrality_with_the_same_optimum_is_not_equivalent():
    # the LP optimum (4, 0) is integral, so both optima are 12: only the feasible sets tell them apart,
    # and only under a correspondence of the columns, so the witness is a candidate, not a proof of difference
    ints = GOOD.replace("float+", "int+")
    r = verdict(ints)
    assert r["A"]["objective"] == pytest.approx(12) and r["B"]["objective"] == pytest.approx(12)
    assert (r["verdict"], r["method"]) == ("unknown", "feasible_sets")
    assert r["evidence"]["candidate_witness"]["violates"].startswith("integrality of ")


def test_relaxed_integrality_with_another_optimum_is_different_by_objective():
    lp = "dvar float+ x; dvar float+ y;\nmaximize 5*x + 4*y;\nsubject to { 6*x + 4*y <= 24; x + 2*y <= 6; }\n"
    mip = lp.replace("float+", "int+")
    best = max(5 * x + 4 * y for x, y in itertools.product(range(7), repeat=2) if 6 * x + 4 * y <= 24 and x + 2 * y <= 6)
    r = verdict(mip, lp)  # LP optimum at (3, 1.5): 21
    assert r["A"]["objective"] == pytest.approx(best) and best == 20
    assert (r["verdict"], r["method"]) == ("different", "objective")


def test_dropped_redundant_constraint_is_equivalent():
    # x + 2y <= 8 holds wherever x + y <= 4 and y >= 0... (x + 2y <= 2(x + y) <= 8): the row is implied
    extra = GOOD.replace("}", "r: x + 2*y <= 8; }")
    r = verdict(extra)
    assert (r["verdict"], r["method"]) == ("equivalent", "structure")
    assert r["evidence"]["normalised_A"] == ["dropped row r: implied by the other rows and the bounds (LP)"]


def test_dropped_constraint_with_the_same_optimum_is_not_equivalent():
    dropped = "dvar float+ x; dvar float+ y;\nmaximize 3*x + 2*y;\nsubject to { ctA: x + y <= 4; }\n"
    r = verdict(dropped)
    assert r["A"]["objective"] == pytest.approx(12) == r["B"]["objective"]
    assert r["verdict"] == "unknown" and r["method"] == "feasible_sets"
    w = r["evidence"]["candidate_witness"]
    assert w["in"] == "A" and w["constraint"] == "row ctB (<= 6)"
    x, y = w["point"].get("x", 0.0), w["point"].get("y", 0.0)
    assert x >= -1e-9 and y >= -1e-9 and x + y <= 4 + 1e-9  # feasible in A ...
    assert x + 3 * y > 6 + 1e-6  # ... and breaks ctB


def test_tighter_bound_with_the_same_optimum_is_not_equivalent():
    tight = GOOD.replace("dvar float+ y;", "dvar float y in 0..1;")
    r = verdict(tight)
    assert r["A"]["objective"] == pytest.approx(12)
    assert r["verdict"] == "unknown"
    w = r["evidence"]["candidate_witness"]
    assert w["in"] == "B" and w["constraint"] == "the bound y <= 1" and w["point"]["y"] > 1


def test_renamed_columns_and_a_missing_row_are_matched_by_structure():
    other = ("dvar float+ chairs; dvar float+ tables;\nmaximize 2*chairs + 3*tables;\n"
             "subject to { van: chairs + tables <= 4; }\n")
    r = verdict(other)
    assert r["verdict"] == "unknown"  # optimum 12 both: no witness that holds for every correspondence
    assert r["evidence"]["correspondence"].startswith("an isomorphism of the constraint structures")


def test_fixed_unused_variable_is_dropped():
    fixed = ("dvar float+ x; dvar float+ y; dvar float+ z;\nmaximize 3*x + 2*y;\n"
             "subject to { x + y <= 4; x + 3*y <= 6; z >= 1; z <= 1; }\n")
    r = verdict(fixed)
    assert r["verdict"] == "equivalent"
    assert r["evidence"]["normalised_A"] == ["row <unlabelled #2> became a bound of z",
                                             "row <unlabelled #3> became a bound of z",
                                             "dropped z (in no row and not in the objective)"]


def test_other_objective_is_different_and_quadratic_falls_back_to_solutions():
    wrong = GOOD.replace("3*x", "2*x")  # 8 at (4, 0) or (3, 1)... max 2x + 2y = 8
    r = verdict(wrong)
    assert (r["verdict"], r["method"]) == ("different", "objective")
    q1 = "dvar float x in -5..5; dvar float y in -5..5;\nminimize (x - 1)^2 + (y + 2)^2;\nsubject to { x + y >= 0; }\n"
    q2 = "dvar float b in -5..5; dvar float a in -5..5;\nminimize (a - 1)^2 + (b + 2)^2;\nsubject to { a + b >= 0; }\n"
    r = verdict(q1, q2)
    assert (r["verdict"], r["method"]) == ("equivalent_by_solutions", "solutions")
    assert "quadratic" in r["evidence"]["structure"]


def test_models_that_do_not_compile():
    broken = GOOD.replace("x + 3*y", "x * y * y")
    assert verdict(GOOD, broken)["verdict"] == "unknown"
    r = verdict("dvar float+ x;\nmaximize x + yy;\n")
    assert (r["verdict"], r["method"]) == ("different", "compile")


def test_compare_models_in_the_worker_keeps_the_record_fields():
    from syntagm.bench.equivalence import compare_models

    renamed = ("dvar float+ tables; dvar float+ chairs;\nmaximize 2*chairs + 3*tables;\n"
               "subject to { van: chairs + tables <= 4; hours: 3*chairs + tables <= 6; }\n")
    r = compare_models(renamed, "", GOOD)
    assert r["verdict"] == "equivalent" and r["equivalent"] is True
    assert r["evidence"]["column_map"] == {"x": "tables", "y": "chairs"}
    assert r["generated"]["objective"] == pytest.approx(12) and r["reference"]["status"] == "optimal"


def test_compare_command(tmp_path, capsys):
    from syntagm.cli import main

    (tmp_path / "a.mod").write_text("float cap = ...;\n" + GOOD.replace("<= 4", "<= cap"))
    (tmp_path / "a.dat").write_text("cap = 4;\n")
    (tmp_path / "b.mod").write_text(GOOD.replace("ctB: x + 3*y <= 6; ", ""))
    assert main(["compare", str(tmp_path / "a.mod"), str(tmp_path / "a.dat"), str(tmp_path / "a.mod"),
                 str(tmp_path / "a.dat")]) == 0
    assert capsys.readouterr().out.startswith("equivalent (structure)")
    assert main(["compare", str(tmp_path / "b.mod"), str(tmp_path / "a.mod"), str(tmp_path / "a.dat"),
                 "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "unknown" and out["evidence"]["candidate_witness"]["constraint"] == "row ctB (<= 6)"
    assert main(["compare", str(tmp_path / "a.dat"), str(tmp_path / "a.mod")]) == 2
    assert "does not follow a model file" in capsys.readouterr().err


def test_compare_command_names_the_file_that_does_not_compile(tmp_path, capsys):
    """The reason named ``<model>``/``<data>`` (the worker compiles text), not the user's file."""
    from syntagm.cli import main

    (tmp_path / "a.mod").write_text(GOOD)
    (tmp_path / "broken.mod").write_text("dvar int x; maximize x subject")
    (tmp_path / "d.mod").write_text("int n = ...;\ndvar int+ x; maximize x; subject to { x <= n; }\n")
    (tmp_path / "bad.dat").write_text("n = ;\n")
    assert main(["compare", str(tmp_path / "broken.mod"), str(tmp_path / "a.mod")]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"different (compile): model A does not compile ({tmp_path / 'broken.mod'}:1:")
    assert "<model>" not in out
    assert main(["compare", str(tmp_path / "a.mod"), str(tmp_path / "d.mod"), str(tmp_path / "bad.dat"),
                 "--format", "json"]) == 1
    reason = json.loads(capsys.readouterr().out)["reason"]
    assert reason.startswith(f"model B does not compile ({tmp_path / 'bad.dat'}:1:5: error[OPL0015]")


def test_mcp_compare_tool_over_stdio():
    pytest.importorskip("mcp")
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def run():
        params = StdioServerParameters(command=sys.executable, args=["-m", "syntagm", "mcp"])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {t.name for t in (await session.list_tools()).tools}
                res = await session.call_tool("compare", {"model_a": GOOD.replace("float+", "int+"), "model_b": GOOD})
                return tools, json.loads(res.content[0].text)

    tools, r = asyncio.run(run())
    assert tools == {"compare"}
    assert r["verdict"] == "unknown" and r["method"] == "feasible_sets"


def test_mcp_compare_refuses_a_nan_time_limit_or_tolerance():
    """`time_limit: "NaN"` answered "compiling took longer than nan s and was stopped"; a NaN
    tolerance made every objective differ. Each is now an answer naming the argument."""
    pytest.importorskip("mcp")
    from syntagm.commands.mcp_server import build_server

    server = build_server()
    a, b = "dvar float x in 0..4;\nmaximize 2*x;\n", "dvar float y in 0..4;\nmaximize y;\n"
    for name in ("time_limit", "tolerance"):
        res = asyncio.run(server.call_tool("compare", {"model_a": a, "model_b": b, name: "NaN"}))
        r = json.loads(res.content[0].text)
        assert r["verdict"] == "unknown" and r["reason"].startswith("`%s` must be a number from" % name)
    # in range: optima 8 (x = 4) and 4 (y = 4) differ
    r = json.loads(asyncio.run(server.call_tool("compare", {"model_a": a, "model_b": b, "time_limit": 20})).content[0].text)
    assert (r["verdict"], r["method"]) == ("different", "objective")


def test_a_structural_search_past_its_budget_falls_back_to_solutions(monkeypatch):
    import syntagm.equiv.structure as structure

    monkeypatch.setattr(structure, "MAX_STEPS", 0)  # every match gives up at once
    renamed = ("dvar float+ u; dvar float+ v;\nmaximize 3*u + 2*v;\n"
               "subject to { ctA: u + v <= 4; ctB: u + 3*v <= 6; }\n")
    r = verdict(renamed)
    # names differ, no structural match is allowed: the optima (12 at (4, 0) both) and value multisets decide
    assert (r["verdict"], r["method"]) == ("equivalent_by_solutions", "solutions")
