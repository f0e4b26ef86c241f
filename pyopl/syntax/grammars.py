"""The grammar files' text: ``grammar/<name>.lark`` at the top of the repository, installed as the
package ``pyopl.grammar`` (editable installs and the wheel alike: see ``setup.py``).

A leaf module, read by the parser-table cache (:mod:`.parser_cache`) and the script parser.
"""
from __future__ import annotations

import functools
from importlib import resources


@functools.lru_cache(maxsize=None)
def grammar_text(name: str) -> str:
    """Text of ``grammar/<name>.lark`` at the top of the repository, installed as the
package ``pyopl.grammar`` (editable installs and the wheel alike: see ``setup.py``)."""
    return resources.files("pyopl.grammar").joinpath(name + ".lark").read_text(encoding="utf-8")
