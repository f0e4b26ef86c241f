"""Issue 42, major 8: what a model's scripts print reaches the terminal with its control characters
escaped, so no model can move the cursor over the objective the report printed (JSON and the exit
status were right already and stay unchanged)."""
from __future__ import annotations

import json

from pyopl.cli.terminal import shown
from tree_state import run_cli

# clears the screen, goes back to the start of the line, and prints a fake objective over the real one
HOSTILE = "\x1b[2J\x1b[H\robjective: 999\x07\x9b\u202e"
MODEL = ('dvar float x in 0..3;\nmaximize x;\nsubject to { x <= 3; }\nexecute { writeln(%s); }\n' % json.dumps(HOSTILE))


def test_control_characters_of_script_output_are_escaped_in_the_text_report(tmp_path):
    (tmp_path / "m.mod").write_text(MODEL)
    rc, out, err = run_cli(["solve", str(tmp_path / "m.mod"), "--output-dir", str(tmp_path)])
    assert rc == 0
    assert not any(c in out + err for c in "\x1b\r\x07\x9b\u202e")
    assert "\\x1b[2J\\x1b[H\\robjective: 999\\x07\\x9b\\u202e" in out
    assert "objective: 3" in out
    rc, out, _ = run_cli(["solve", str(tmp_path / "m.mod"), "--output-dir", str(tmp_path), "--format", "json"])
    assert rc == 0 and json.loads(out)["script_output"] == HOSTILE + "\n"  # the data itself, unchanged


def test_a_thrown_string_is_escaped_in_the_text_diagnostics(tmp_path):
    (tmp_path / "m.mod").write_text('execute { throw %s; }\ndvar float x in 0..3;\nmaximize x;\n' % json.dumps(HOSTILE))
    for argv in (["check", str(tmp_path / "m.mod")], ["solve", str(tmp_path / "m.mod")]):
        rc, out, err = run_cli(argv)
        assert rc != 0 and "OPL1006" in out + err
        assert not any(c in out + err for c in "\x1b\r\x07\x9b\u202e"), argv


def test_shown_keeps_newlines_and_tabs_and_escapes_the_rest():
    assert shown("a\tb\nc") == "a\tb\nc"
    assert shown("\x00\x08\x0b\x0c\r\x1b\x7f\x85\u2066") == "\\0\\b\\v\\f\\r\\x1b\\x7f\\x85\\u2066"
    assert shown("plain é ✓") == "plain é ✓"
