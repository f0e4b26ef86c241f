"""Rows of docs/conformance.md whose check needs more than one model: the words IBM reserves for
future use, the named-tuple form of `.dat` files (each field exactly once) and a data file that
includes another (IBM, "Summary table of OPL keywords", "Initializing tuples", "Data files").
Expected values are worked out by hand from the data."""
from __future__ import annotations

import pytest

import pyopl


def _diags(tmp_path, mod: str, dat: str | None = None) -> tuple[list, object]:
    (tmp_path / "m.mod").write_text(mod, encoding="utf-8")
    dat_path = None
    if dat is not None:
        dat_path = tmp_path / "m.dat"
        dat_path.write_text(dat, encoding="utf-8")
    try:
        m = pyopl.compile_model(tmp_path / "m.mod", dat_path)
    except pyopl.CompileError as e:
        return list(e.diagnostics), None
    r = m.solve()
    return list(m.diagnostics) + list(r.diagnostics), r


@pytest.mark.parametrize("word", ["initial", "template"])
def test_words_reserved_for_future_use_cannot_name_a_declaration(word, tmp_path):
    """IBM: "The keywords initial and template are reserved for future use" and "You cannot use OPL
    reserved words as variable names": the name is refused where it is declared."""
    diags, _ = _diags(tmp_path, "int %s = 3;\ndvar float+ x;\nminimize x + %s;\n" % (word, word))
    hit = [d for d in diags if d.code == "OPL0103"]
    assert hit and hit[0].is_error and word in hit[0].message
    assert (hit[0].span.line, hit[0].span.column) == (1, 5)


POINT = "tuple point { int x; int y; }\npoint p = ...;\ndvar float x;\nminimize x;\nsubject to { x == 10 * p.x + p.y; }\n"


@pytest.mark.parametrize("data, code", [
    ("p = #<y: 1, x: 2>#;", None),            # IBM's example: x = 2, y = 1, so 21
    ("p = #<x: 1, x: 2, y: 3>#;", "OPL0428"),  # x twice
    ("p = #<y: 1>#;", "OPL0409"),              # x missing
    ("p = #<x: 1, y: 2, z: 3>#;", "OPL0410"),  # no field z
])
def test_a_named_tuple_gives_each_field_exactly_once(data, code, tmp_path):
    """IBM, "Initializing tuples": the fields of `#<...>#` come in any order, "OPL checks whether all
    fields are initialized exactly once"; a field the tuple does not have is an error too."""
    diags, r = _diags(tmp_path, POINT, data)
    if code is None:
        assert not [d for d in diags if d.is_error]
        assert r.objective == pytest.approx(21.0)
    else:
        assert code in [d.code for d in diags if d.is_error], [(d.code, d.message) for d in diags]


def test_a_data_file_includes_another(tmp_path):
    """`include "other.dat";` in a data file reads the other file's values too (n = 1 here, m = 5 there)."""
    (tmp_path / "other.dat").write_text("m = 5;\n", encoding="utf-8")
    diags, r = _diags(tmp_path, "int n = ...;\nint m = ...;\ndvar float x;\nminimize x;\nsubject to { x == n + 10 * m; }\n",
                      'include "other.dat";\nn = 1;\n')
    assert not [d for d in diags if d.is_error], [(d.code, d.message) for d in diags]
    assert r.objective == pytest.approx(51.0)


@pytest.mark.parametrize("name", ["cumulFunctionValue", "stateFunctionValue", "segmentStart", "segmentEnd",
                                  "segmentValue", "numberOfSegments"])
def test_the_segment_readers_in_a_script_are_refused_by_name_unless_the_script_defines_them(name, tmp_path):
    """IBM's readers of a solved cumul or state function, called from a script, are refused with
    OPL1057 naming them (not "not defined"); a script function of the same name is the script's own."""
    base = "using CP;\ndvar interval a in 0..10 size 2;\nminimize startOf(a);\n"
    diags, _ = _diags(tmp_path, base + "execute { writeln(%s(1)); }\n" % name)
    hit = [d for d in diags if d.code == "OPL1057"]
    assert hit and name in hit[0].message and "a.start" in (hit[0].help or "")
    diags, r = _diags(tmp_path, base + "execute { function %s(t) { return t * 2; } writeln(%s(4)); }\n" % (name, name))
    assert not [d for d in diags if d.is_error] and r.script_output.strip() == "8"
