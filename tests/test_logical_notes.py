"""The notes on logical constraints' helper columns (``#[x[1] >= 5]`` in explanations) are written when
first read (``pyopl/lowering/linearise/notes.py``), with the text they had when written at once: each
expected note below is written by hand from the rule (OPL names, the constant moved right, ``%g``
numbers, ``&&``/``||`` between parts, a nested condition's note bracketed)."""
from __future__ import annotations

import copy
import pickle

import pyopl
from pyopl.backends.explain.iis import column_text
from pyopl.lowering.linearise.notes import ColumnNotes, LeafNote

MODEL = """
dvar float x[1..2] in 0..100; dvar int y in -5..7; dvar boolean b;
minimize x[1];
subject to {
  (x[1] <= 10) || (x[1] >= 20);
  ((x[1] + 2.5 * x[2] - 1 >= 4) && (y == 3)) || (b == 1);
  (((x[1] >= 1) || (-x[2] >= -50)) && (y <= 0)) || (x[2] <= 0.5 * x[1]);
}
"""
# columns: x[1] 0, x[2] 1, y 2, b 3; then the helper columns in the order the literals are made
EXPECTED = {
    4: "x[1] <= 10", 5: "x[1] >= 20",
    6: "x[1] + 2.5 * x[2] >= 5", 7: "y == 3", 8: "x[1] + 2.5 * x[2] >= 5 && y == 3",
    9: "x[1] >= 1", 10: "-x[2] >= -50", 11: "x[1] >= 1 || -x[2] >= -50", 12: "y <= 0",
    13: "(x[1] >= 1 || -x[2] >= -50) && y <= 0", 14: "-0.5 * x[1] + x[2] <= 0",
}


def _raw(notes) -> dict:
    return {j: dict.__getitem__(notes, j) for j in dict.keys(notes)}


def test_notes_are_written_when_read_with_the_rules_text():
    ir = pyopl.compile_model(MODEL).ir
    assert isinstance(ir.col_notes, ColumnNotes)
    assert not any(isinstance(v, str) for v in _raw(ir.col_notes).values())  # none written while lowering
    assert ir.col_notes.get(13) == EXPECTED[13]  # reading one writes it, and the nested note it names
    assert isinstance(_raw(ir.col_notes)[13], str) and isinstance(_raw(ir.col_notes)[11], str)
    assert isinstance(_raw(ir.col_notes)[4], LeafNote)
    assert dict(ir.col_notes) == EXPECTED
    assert ir.col_notes.get(3) is None and ir.col_notes.get(3, "-") == "-"  # b itself: the literal, no note


def test_every_way_of_reading_gives_text():
    for read in (dict, lambda n: dict(n.items()), lambda n: dict(zip(n, n.values())), lambda n: {**n},
                 lambda n: pickle.loads(pickle.dumps(n)), copy.deepcopy, lambda n: dict(n.copy())):
        notes = pyopl.compile_model(MODEL).ir.col_notes
        got = read(notes)
        assert got == EXPECTED and all(type(v) is str for v in dict.values(got)), read
    notes = pyopl.compile_model(MODEL).ir.col_notes
    assert notes == EXPECTED and repr(notes) == repr(EXPECTED)


def test_an_explanation_names_a_helper_column_by_its_note():
    ir = pyopl.compile_model(MODEL).ir
    assert column_text(ir, 8) == "#[x[1] + 2.5 * x[2] >= 5 && y == 3]"
    assert column_text(ir, 13, limit=20) == "#[(x[1] >= 1 || -x[...]"  # the first 17 characters
    assert column_text(ir, 0) == "x[1]"
