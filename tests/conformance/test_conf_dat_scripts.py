"""`.dat` scripting: `prepare { ... }` blocks and `invoke` run on the element once it is read."""
from __future__ import annotations

import pytest

import pyopl

_MOD = """float t[1..3] = ...;
execute { writeln("model sees ", t); }
dvar float+ x;
minimize x;
subject to { x >= t[1] + t[3]; }
"""


def test_prepare_function_converts_minutes_to_hours(tmp_path):
    """OPL Language Quick Reference, "prepare" (and "invoke"): durations given in minutes are
    turned into hours by a function of the data file, before the model reads them: 600 and 150
    minutes are 10 and 2.5 hours, so x >= 12.5."""
    (tmp_path / "m.mod").write_text(_MOD)
    (tmp_path / "m.dat").write_text("""prepare {
  function minutesToHours(arr, name) {
    writeln("before: ", name, " = ", arr);
    for (var k = 1; k <= arr.size; k++) arr[k] = arr[k] / 60;
    return true;
  }
}
t = [600, 240, 150] invoke minutesToHours;
""")
    r = pyopl.solve(tmp_path / "m.mod", tmp_path / "m.dat")
    assert r.objective == pytest.approx(12.5)
    assert r.script_output.splitlines() == ["before: t = [600 240 150]", "model sees [10 4 2.5]"]


def test_invoke_returning_false_refuses_the_data(tmp_path):
    """OPL Language Quick Reference, "invoke": the function's result says whether the data is accepted."""
    (tmp_path / "m.mod").write_text(_MOD)
    (tmp_path / "m.dat").write_text("prepare { function positive(a, n) { for (var k = 1; k <= 3; k++)"
                                    " if (a[k] < 0) return false; return true; } }\n"
                                    "t = [1, -2, 3] invoke positive;\n")
    errs = [d for d in pyopl.check(tmp_path / "m.mod", tmp_path / "m.dat") if d.is_error]
    assert [(d.code, d.line) for d in errs] == [("OPL1063", 2)] and "returned false for `t`" in errs[0].message


def test_invoke_with_scripts_off_is_an_error(tmp_path):
    """With scripts turned off the element would be read differently: error OPL1063, never silence."""
    (tmp_path / "m.mod").write_text("float t[1..3] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= t[1]; }\n")
    (tmp_path / "m.dat").write_text("prepare { function f(a, n) { a[1] = 0; return true; } }\nt = [1, 2, 3] invoke f;\n")
    errs = [d for d in pyopl.check(tmp_path / "m.mod", tmp_path / "m.dat", scripts=False) if d.is_error]
    assert [d.code for d in errs] == ["OPL1063"]


@pytest.mark.parametrize("between", ["// the durations, in minutes\n", "/* minutes; not hours */ // x; y\n",
                                     "s = \"a;b // c\";\n"])
def test_invoke_after_comments_and_strings_finds_its_element(tmp_path, between):
    """A comment line, a `;` inside a comment or a string before `t = [...] invoke f;` does not hide
    the element name: 600, 240 and 150 minutes are 10, 4 and 2.5 hours, so x >= 12.5."""
    (tmp_path / "m.mod").write_text("string s = ...;\n" + _MOD if between.startswith("s =") else _MOD)
    (tmp_path / "m.dat").write_text("prepare { function h(arr, name) { for (var k = 1; k <= arr.size; k++)"
                                    " arr[k] = arr[k] / 60; return true; } }\n" + between +
                                    "t /* ; */ = [600, 240, 150] invoke h;\n")
    r = pyopl.solve(tmp_path / "m.mod", tmp_path / "m.dat")
    assert r.objective == pytest.approx(12.5)
