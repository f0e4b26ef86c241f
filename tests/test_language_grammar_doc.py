"""grammar/PyOPL.md and grammar/opl.lark cannot drift: every `opl` block in the reference parses
without errors, every grammar rule is named in it, and it stays compact (<= ~6,000 tokens)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import pyopl
from pyopl.syntax.parser import lark_parser

DOC = Path(__file__).resolve().parents[1] / "grammar" / "PyOPL.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```opl\n(.*?)```", TEXT, re.S)


def _rule_names() -> set[str]:
    names = set()
    for r in lark_parser("opl").rules:
        n = r.origin.name
        n = n if isinstance(n, str) else n.value
        if not n.startswith("_"):
            names.add(n)
        if r.alias:
            names.add(r.alias)
    return names


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_every_example_in_the_reference_compiles(k):
    errors = [d for d in pyopl.check(BLOCKS[k]) if d.is_error and d.code != "OPL0401"]  # `...` without data
    assert not errors, [(d.code, d.message, d.span.line) for d in errors]


def test_every_grammar_rule_is_documented():
    documented = set(re.findall(r"\[([a-z_]+)\]", TEXT))
    missing = sorted(_rule_names() - documented)
    assert not missing, missing


def test_reference_is_compact():
    assert len(TEXT) / 4 <= 6000  # about four characters per token
    assert len(BLOCKS) >= 5
