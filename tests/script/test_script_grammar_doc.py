"""grammar/PyOPL.md's Scripts section and grammar/script.lark cannot drift: every script grammar
rule (and alias) is named in that section, and every script block of its examples parses."""
from __future__ import annotations

import re
from pathlib import Path

from pyopl.script import parse_script
from pyopl.script.engine.parser import script_parser
from pyopl.syntax.scripts import strip_scripts

DOC = (Path(__file__).resolve().parents[2] / "grammar" / "PyOPL.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("## Scripts"):DOC.index("\n## ", DOC.index("## Scripts") + 3)]


def _script_rules() -> set[str]:
    names = set()
    for r in script_parser().rules:
        if r.alias:
            names.add(r.alias)
        elif not r.options.expand1:  # `?` rules are inlined: no node of their own
            n = r.origin.name
            n = n if isinstance(n, str) else n.value
            if not n.startswith("_"):
                names.add(n)
    return names


def test_every_script_rule_is_documented():
    documented = set(re.findall(r"\[([a-z_]+)\]", SECTION))
    rules = _script_rules()
    assert len(rules) >= 60
    assert not sorted(rules - documented), sorted(rules - documented)


def test_script_examples_of_the_reference_parse():
    blocks = re.findall(r"```opl\n(.*?)```", SECTION, re.S)
    bodies = [s for b in blocks for s in strip_scripts(b)[1]]
    assert len(bodies) >= 2
    for s in bodies:
        program = parse_script(s.body, "doc.mod", s.body_line, s.body_column)
        assert not isinstance(program, list), [str(d) for d in program]
