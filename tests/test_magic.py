"""The `%%opl` cell magic (issue 48), run through IPython's own test shell
(`IPython.testing.globalipapp`): `%load_ext pyopl`, the options, the displayed diagnostics,
result and Gantt chart."""
from __future__ import annotations

import pytest

pytest.importorskip("IPython", reason="IPython (extra `notebook`, in `dev`) runs the magic")

from IPython.testing.globalipapp import get_ipython  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402

# By hand: maximise 3x + 2y with x + y <= 4, x + 3y <= 6, x, y >= 0: x = 4, y = 0, objective 12.
LP = """float cap = ...;
dvar float+ x;
dvar float+ y;
maximize 3 * x + 2 * y;
subject to { x + y <= cap; x + 3 * y <= 6; }
"""


@pytest.fixture(scope="module")
def ip():
    shell = get_ipython()
    # a notebook front end shows HTML and images; IPython's test shell only text, unless told
    shell.display_formatter.active_types = ["text/plain", "text/html", "image/png"]
    shell.run_line_magic("load_ext", "pyopl")
    return shell


def test_the_magic_solves_the_cell_with_data_from_a_file_and_keeps_the_result(ip, tmp_path):
    dat = tmp_path / "cap.dat"
    dat.write_text("cap = 4;\n")
    with capture_output() as out:
        ip.run_cell_magic("opl", "--data %s --solver highs --time-limit 10 -o res" % dat, LP)
    r = ip.user_ns["res"]
    assert r.status == "optimal" and r.objective == pytest.approx(12)
    assert r["x"] == pytest.approx(4) and r["y"] == pytest.approx(0)
    htmls = [o.data.get("text/html", "") for o in out.outputs]
    assert any("optimal" in h and "12" in h for h in htmls)  # the result's table


def test_data_from_a_notebook_variable(ip):
    ip.user_ns["mydata"] = {"cap": 2}
    with capture_output():
        ip.run_cell_magic("opl", "--data mydata -o r2", LP)
    # cap 2: x = 2, y = 0 gives 6 (y would give 2 per unit of cap, x gives 3)
    assert ip.user_ns["r2"].objective == pytest.approx(6)


def test_mistakes_show_rendered_diagnostics_with_the_source_line(ip):
    ip.user_ns.pop("bad", None)
    with capture_output() as out:
        ip.run_cell_magic("opl", "-o bad", "dvar float+ x;\nminimize x + capacty;\n")
    assert "bad" not in ip.user_ns
    shown = "\n".join(o.data.get("text/html", "") for o in out.outputs)
    assert "OPL0101" in shown and "capacty" in shown and "2 | minimize x + capacty;" in shown


def test_a_cp_schedule_shows_its_gantt_chart(ip):
    pytest.importorskip("ortools", reason="OR-Tools (extra `cp`) runs `using CP;` models")
    pytest.importorskip("matplotlib", reason="matplotlib (extra `plot`) draws the chart")
    model = "using CP;\ndvar interval a in 0..10 size 2;\ndvar interval b in 0..10 size 3;\n" \
            "minimize endOf(b);\nsubject to { endBeforeStart(a, b); }\n"
    with capture_output() as out:
        ip.run_cell_magic("opl", "--solver cpsat -o cp", model)
    assert ip.user_ns["cp"].objective == 5  # a at [0, 2), b at [2, 5)
    assert any("image/png" in o.data for o in out.outputs)  # the figure, as IPython shows matplotlib figures


def test_an_unknown_option_is_refused_by_the_magic(ip):
    from IPython.core.error import UsageError

    with pytest.raises(UsageError):
        ip.run_cell_magic("opl", "--sover highs", LP)


def test_a_refused_quadratic_constraint_is_said_once(ip):
    """The cell showed the compile's OPL1163 warning beside the solve's OPL1163 error for the same
    non-convex constraint (x^2 >= 0.5 on [0, 1]: the feasible set [0.7071, 1] is not convex, by hand)."""
    with capture_output() as out:
        ip.run_cell_magic("opl", "", "dvar float x in 0..1;\nmaximize x;\nsubject to { x*x >= 0.5; }\n")
    shown = "\n".join(o.data.get("text/html", "") or o.data.get("text/plain", "") for o in out.outputs)
    assert shown.count("OPL1163") == 1 and "error[OPL1163]" in shown
