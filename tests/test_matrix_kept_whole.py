"""A large matrix of numbers in a ``.dat`` file (``[[...], [...]]``, rows of one length) is read as one
float64 array (``data.parser.UnfilledRows``) and, for a 2-D `float` array declaration of its shape, kept
so (``semantics.values.FloatColumn``): its rows are never made as Python lists.  Everything else about
the data must be as before: the values the model sees, the checks of `float+` and the messages for a
matrix of the wrong shape or type.  Expected optima come from the same model with the data given as a
Python dict, which never takes this path."""
from __future__ import annotations

import random

import pytest

import pyopl
from pyopl import CompileError
from pyopl.data.parser import UnfilledRows
from pyopl.semantics.values import FloatColumn

N, M = 40, 45  # 40 rows: a bulk-read matrix (>= 32 rows, > 4096 characters)


def _matrix(seed: int, negative_at: tuple | None = None, ints: bool = False) -> list[list]:
    rnd = random.Random(seed)
    rows = [[rnd.randint(1, 90) if ints and (i + j) % 2 else round(rnd.uniform(1, 90), 3) for j in range(M)]
            for i in range(N)]
    if negative_at is not None:
        rows[negative_at[0]][negative_at[1]] = -7.5
    return rows


def _dat(rows: list[list], name: str = "cost") -> str:
    body = ",\n".join("  [%s]" % ", ".join(repr(x) for x in r) for r in rows)
    return "%s = [\n%s\n];\n" % (name, body)


_MODEL = """range I = 1..%d; range J = 1..%d;
%s cost[I][J] = ...;
dvar float+ x[I][J] in 0..1;
minimize sum(i in I, j in J) cost[i][j] * x[i][j];
subject to { forall(i in I) ct: sum(j in J) x[i][j] == 1; }
"""


def _model(decl: str = "float", n: int = N, m: int = M) -> str:
    return _MODEL % (n, m, decl)


def test_float_matrix_stays_one_array_and_gives_the_dict_optimum(tmp_path):
    rows = _matrix(1, ints=True)
    dat = tmp_path / "m.dat"
    dat.write_text(_dat(rows))
    model = pyopl.compile_model(_model(), str(dat))
    res = model.solve()
    expected = sum(min(r) for r in rows)  # each row picks its cheapest column
    assert res.status == "optimal" and res.objective == pytest.approx(expected, abs=1e-9)
    via_dict = pyopl.compile_model(_model(), {"cost": rows}).solve()
    assert via_dict.objective == pytest.approx(res.objective, abs=1e-12)


def test_the_declaration_takes_the_array_and_the_rows_are_never_made(tmp_path):
    from pyopl.data.loader import load_data
    from pyopl.diagnostics.reporter import Reporter
    from pyopl.lowering.declarations import _external  # noqa: F401  (the path under test)
    from pyopl.lowering.driver import run as lower_items
    from pyopl.lowering.instance import Instance
    from pyopl.script.flow import processing
    from pyopl.syntax.parser import parse_model

    dat = tmp_path / "m.dat"
    dat.write_text(_dat(_matrix(2)))
    rep = Reporter()
    items = load_data(dat, rep, {}, str(tmp_path))
    raw = items["cost"].raw_value
    assert type(raw) is UnfilledRows and not raw.filled
    inst = Instance(parse_model(_model("float+"), "m.mod", rep), items, rep, script_host=processing)
    lower_items(inst)
    assert not rep.has_errors
    arr = inst.symbols["cost"].value
    assert type(arr.flat) is FloatColumn and not raw.filled  # `float+` checked from the array's minimum
    assert arr.data[(3, 4)] == _matrix(2)[2][3]  # the row-by-row view reads the same numbers


@pytest.mark.parametrize("decl, n, m, expected", [
    ("float+", N, M, "`cost[12][31]`"),  # a negative entry of a `float+` array, at its element
    ("float", N + 1, M, "cost"),  # one row short
    ("float", N, M - 1, "cost"),  # rows one too long
])
def test_bad_matrices_have_the_messages_they_had(tmp_path, decl, n, m, expected):
    rows = _matrix(3, negative_at=(11, 30) if decl == "float+" else None)
    dat = tmp_path / "m.dat"
    dat.write_text(_dat(rows))
    with pytest.raises(CompileError) as fast:
        pyopl.compile_model(_model(decl, n, m), str(dat))
    with pytest.raises(CompileError) as slow:
        pyopl.compile_model(_model(decl, n, m), {"cost": rows})
    assert expected in str(fast.value)
    assert fast.value.diagnostics[0].code == slow.value.diagnostics[0].code


def test_int_matrix_is_made_of_ints(tmp_path):
    rows = [[(i * M + j) % 17 for j in range(M)] for i in range(N)]
    dat = tmp_path / "m.dat"
    dat.write_text(_dat(rows))
    res = pyopl.compile_model(_model("int"), str(dat)).solve()
    assert res.objective == pytest.approx(sum(min(r) for r in rows), abs=1e-12)
