"""Gantt charts of CP schedules (issue 48): the figure's bars and profiles are read back from its
matplotlib artists and compared with the schedule worked out by hand."""
from __future__ import annotations

import csv
import io
import sys

import pytest

import pyopl

pytest.importorskip("ortools", reason="OR-Tools (extra `cp`) runs `using CP;` models")
pytest.importorskip("matplotlib", reason="matplotlib (extra `plot`, in `dev`) draws the charts")

# By hand: `t[1]` (3) must end before `t[2]` (2) starts, both in the sequence m; minimising endOf(t[2])
# puts t[1] at [0, 3) and t[2] at [3, 5). The optional `c` costs 10 when present, so it is absent (objective 6 with d's start).
# `d` (4) runs on its own row; it only has to start at 1 or later and end by 5: minimising also its
# start puts it at [1, 5). The cumul f = pulse(t[1], 2) + pulse(t[2], 1) + pulse(d, 1) <= 3 is 0 before 0,
# 2 on [0, 1), 3 on [1, 3), 2 on [3, 5), 0 after.
MODEL = """using CP;
int sz[1..2] = [3, 2];
dvar interval t[i in 1..2] in 0..20 size sz[i];
dvar interval c optional in 0..20 size 1;
dvar interval d in 1..5 size 4;
dvar sequence m in all(i in 1..2) t[i];
cumulFunction f = pulse(t[1], 2) + pulse(t[2], 1) + pulse(d, 1);
minimize endOf(t[2]) + 10 * presenceOf(c) + startOf(d);
subject to {
  noOverlap(m);
  endBeforeStart(t[1], t[2]);
  f <= 3;
}
"""


@pytest.fixture(scope="module")
def solved():
    r = pyopl.compile_model(MODEL, source="text").solve()
    assert r.status == "optimal" and r.objective == 6, (r.status, r.objective)
    return r


def _bars(ax):
    """(row, left, width) of each bar of the Gantt axes."""
    from matplotlib.patches import Rectangle

    return sorted((round(p.get_y() + p.get_height() / 2), p.get_x(), p.get_width())
                  for p in ax.patches if isinstance(p, Rectangle))


def test_bars_sit_where_the_schedule_puts_them_and_absent_intervals_are_left_out(solved):
    fig = solved.gantt()
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["m", "c", "d"]  # the sequence's row, then the intervals no group holds
    assert _bars(ax) == [(0, 0, 3), (0, 3, 2), (2, 1, 4)]  # c (row 1) is absent: no bar
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == ["d", "t[1]", "t[2]"]


def test_the_cumul_profile_is_a_step_line_with_its_bound(solved):
    fig = solved.gantt()
    axp = fig.axes[1]
    assert axp.get_ylabel() == "f"
    line = next(ln for ln in axp.get_lines() if ln.get_drawstyle() == "steps-post")
    pts = list(zip(line.get_xdata(), line.get_ydata()))
    assert pts == [(0, 2), (1, 3), (3, 2), (5, 0), (5, 0)]
    bound = [ln for ln in axp.get_lines() if ln.get_linestyle() == "--"]
    assert len(bound) == 1 and list(bound[0].get_ydata()) == [3, 3]


@pytest.mark.parametrize("ext, head", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".html", b"<!DOCTYPE html>")])
def test_the_chart_is_written_as_png_svg_or_html(solved, tmp_path, ext, head):
    target = tmp_path / ("plan" + ext)
    solved.gantt(target)
    data = target.read_bytes()
    assert data.startswith(head)
    if ext != ".png":
        assert b"<svg" in data


def test_the_command_line_draws_it_and_refuses_what_it_cannot(tmp_path, capsys):
    from pyopl.cli import main

    (tmp_path / "s.mod").write_text(MODEL)
    assert main(["solve", str(tmp_path / "s.mod"), "--gantt", str(tmp_path / "s.png"), "--quiet"]) == 0
    assert (tmp_path / "s.png").read_bytes().startswith(b"\x89PNG")
    assert main(["solve", str(tmp_path / "s.mod"), "--gantt", str(tmp_path / "s.txt"), "--quiet"]) == 2
    assert ".png, .svg or .html" in capsys.readouterr().err
    (tmp_path / "lp.mod").write_text("dvar float+ x;\nminimize x;\n")
    assert main(["solve", str(tmp_path / "lp.mod"), "--gantt", str(tmp_path / "lp.png"), "--quiet"]) == 2
    assert "no interval variables" in capsys.readouterr().err
    assert not (tmp_path / "lp.png").exists()


def test_without_matplotlib_the_message_says_what_to_install(solved, monkeypatch):
    from pyopl.results.gantt import GanttUnavailable

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails as where it is not installed
    with pytest.raises(GanttUnavailable, match=r'pip install "pyopl\[plot\]"'):
        solved.gantt()


def test_names_with_dollars_are_drawn_as_written(tmp_path):
    # matplotlib reads a pair of `$` as mathtext: `a$\frac{$b` failed the chart ("internal error: ValueError")
    r = pyopl.solve('using CP;\n{string} T = {"cost $5", "a$\\\\frac{$b"};\ndvar interval t[T] size 2;\n'
                    "minimize max(i in T) endOf(t[i]);\nsubject to { noOverlap(t); }\n")
    assert r.status == "optimal" and r.objective == 4  # two intervals of size 2, one after the other
    fig = r.gantt()
    drawn = sorted(t._preprocess_math(t.get_text())[0] for t in fig.axes[0].texts)
    assert all(math is False for math in (t._preprocess_math(t.get_text())[1] for t in fig.axes[0].texts))
    # the text as written, each name an OPL string literal (its backslash escaped, as the results print it)
    assert drawn == sorted('t["%s"]' % s for s in ("cost $5", "a$\\\\frac{$b"))
    r.gantt(tmp_path / "g.png")
    assert (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"


def test_labels_escape_quotes_and_backslashes_as_opl_literals():
    # a name holding `"` was drawn `t["a"b"]`, which reads back as no OPL key: each label is now the
    # key's OPL literal (`"a\\"b"`), as the text and CSV results write it; a noOverlap label indexed by
    # such a key too. Two intervals of size 2 in one noOverlap: objective 4 (by hand).
    r = pyopl.solve('using CP;\n{string} T = {"a\\"b", "c\\\\d"};\ndvar interval t[T] size 2;\n'
                    'minimize max(i in T) endOf(t[i]);\n'
                    'subject to { forall(k in {"q\\"r"}) ct[k]: noOverlap(all(i in T) t[i]); }\n')
    assert r.status == "optimal" and r.objective == 4
    fig = r.gantt()
    assert sorted(t.get_text() for t in fig.axes[0].texts) == ['t["a\\"b"]', 't["c\\\\d"]']
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ['ct["q\\"r"]']
    rows = list(csv.reader(io.StringIO(r.to_csv())))  # the CSV's index column: the same OPL text
    assert sorted(row[2] for row in rows[1:] if row[1] == "t") == ['["a\\"b"]', '["c\\\\d"]']
