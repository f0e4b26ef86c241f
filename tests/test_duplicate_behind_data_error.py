"""A name declared twice is reported even when the first declaration's data is wrong (issue 30:
the data error hid the duplicate, which the user found only after fixing the data)."""
from __future__ import annotations

import pyopl

MODEL = "int n = ...;\nint n = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= n; }\n"


def test_the_duplicate_is_reported_beside_the_data_error():
    errs = [d for d in pyopl.check(MODEL, "n = 2.5;\n") if d.is_error]
    assert sorted(d.code for d in errs) == ["OPL0102", "OPL0403"]
    dup = next(d for d in errs if d.code == "OPL0102")
    assert dup.span.line == 2 and dup.span.column == 5 and "`n` is declared twice" in dup.message


def test_fixing_the_duplicate_as_the_help_says_leaves_the_data_error_only():
    fixed = MODEL.replace("int n = ...;\nint n = ...;\n", "int n = ...;\n")  # "remove the second declaration"
    errs = [d for d in pyopl.check(fixed, "n = 2;\n") if d.is_error]
    assert errs == []
