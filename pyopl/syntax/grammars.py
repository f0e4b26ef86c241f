"""The grammar files' text: ``pyopl/grammar/<name>.lark`` (package data of ``pyopl.grammar``, in the wheel too).

A leaf module, read by the parser-table cache (:mod:`.parser_cache`) and the script parser.
"""
from __future__ import annotations

import functools
from importlib import resources


@functools.lru_cache(maxsize=None)
def grammar_text(name: str) -> str:
    """Text of ``pyopl/grammar/<name>.lark`` (package data of ``pyopl.grammar``, in the wheel too)."""
    return resources.files("pyopl.grammar").joinpath(name + ".lark").read_text(encoding="utf-8")
