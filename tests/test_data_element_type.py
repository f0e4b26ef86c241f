"""A value of the wrong type inside an array names the element (issue 30: the message named only
the array, so the user had to find the element by hand)."""
from __future__ import annotations

import pyopl

MODEL = "range I = 1..3;\nint a[I] = ...;\ndvar float+ x;\nminimize x;\nsubject to { x >= a[1]; }\n"


def _error(data):
    errs = [d for d in pyopl.check(MODEL, data) if d.is_error]
    assert len(errs) == 1, [(d.code, d.message) for d in errs]
    return errs[0]


def test_a_float_in_int_array_data_names_the_element():
    d = _error("a = [1, 2.5, 3];\n")
    assert d.code == "OPL0403" and d.message.startswith("`a[2]` (an element of `a`) is declared `int`")
    assert "2.5" in d.message and d.span.line == 1


def test_keyed_and_dict_data_name_the_element_too():
    assert _error("a = #[1: 1, 2: 2, 3: 3.25]#;\n").message.startswith("`a[3]`")
    assert _error({"a": [1, 2, "x"]}).message.startswith("`a[3]`")
