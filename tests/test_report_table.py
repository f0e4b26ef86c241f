"""The text report's constraint table sizes its columns to their content (issue 30: long labels
pushed the dual and slack columns out of line); `texttable` lays it out, and never wraps a label."""
from __future__ import annotations

import pyopl
from pyopl.results.report import text_report

MODEL = """range I = 1..3;
dvar float+ x[I];
minimize sum(i in I) x[i];
subject to {
  forall(i in I) aVeryLongConstraintLabelThatGoesOnAndOnForever: x[i] >= i * 1234567.125;
  short: x[1] + x[2] >= 1;
}
"""


def _table(text: str) -> list[str]:
    lines = text.split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith("constraints"))
    return lines[start:]


def test_columns_line_up_under_their_headers_whatever_the_label_length():
    r = pyopl.compile_model(MODEL).solve()
    table = _table(text_report(r))
    head = table[0]
    dual_end, slack_end = head.index("dual") + 4, head.index("slack") + 5
    assert len(table) == 5
    for row in table[1:]:
        label, dual, slack = row.split()
        assert row.startswith("  ") and label in ("short",) + tuple(
            "aVeryLongConstraintLabelThatGoesOnAndOnForever[%d]" % i for i in (1, 2, 3))
        assert row.index(dual, len(label) + 2) + len(dual) == dual_end  # right-aligned under "dual"
        assert row.rstrip().endswith(slack) and len(row.rstrip()) == slack_end
    # the slack of `short` by hand: x1 + x2 = 1234567.125 + 2469134.25, minus 1
    assert table[-1].split() == ["short", "0", "3703700.375"]


def test_a_long_table_is_cut_with_a_count():
    r = pyopl.compile_model(MODEL).solve()
    table = _table(text_report(r, max_rows=2))
    assert len(table) == 4 and table[-1] == "  ... and 2 more"


def test_a_label_past_eighty_characters_is_not_wrapped():
    """(texttable wraps at 80 characters unless told not to: a 120-character label stays on its line)"""
    label = "c" + "x" * 119
    r = pyopl.compile_model("dvar float+ y; minimize y; subject to { %s: y >= 2.5; }" % label).solve()
    table = _table(text_report(r))
    assert len(table) == 2 and table[1].split() == [label, "1", "0"]
