"""A deliberately small reader for OPL ``.dat`` files, used only by the
independent checks of the knowledge base (it does not share code with pyopl).

Supported: ``name = value;`` with numbers, strings, arrays ``[...]`` (nested),
sets ``{...}`` and tuples ``<...>``; ``//`` and ``/* */`` comments.
Arrays become Python lists, sets become lists (order kept), tuples become
Python tuples.
"""
from __future__ import annotations

import re
from pathlib import Path

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<num>[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)
      | (?P<str>"(?:[^"\\]|\\.)*")
      | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
      | (?P<sym>[\[\]{}<>,;=])
    )""",
    re.VERBOSE,
)


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _tokens(text: str):
    pos = 0
    text = _strip_comments(text)
    out = []
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"cannot read .dat near {text[pos:pos + 30]!r}")
        pos = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
    return out


def parse(text: str) -> dict:
    toks = _tokens(text)
    i = 0

    def value():
        nonlocal i
        kind, tok = toks[i]
        if kind == "num":
            i += 1
            return float(tok) if any(c in tok for c in ".eE") else int(tok)
        if kind == "str":
            i += 1
            return tok[1:-1]
        closing = {"[": "]", "{": "}", "<": ">"}.get(tok)
        if closing is None:
            raise ValueError(f"unexpected token {tok!r}")
        i += 1
        items = []
        while toks[i][1] != closing:
            items.append(value())
            if toks[i][1] == ",":
                i += 1
        i += 1
        return tuple(items) if tok == "<" else items

    out = {}
    while i < len(toks):
        kind, name = toks[i]
        if kind != "name" or toks[i + 1][1] != "=":
            raise ValueError(f"expected 'name =' at token {name!r}")
        i += 2
        out[name] = value()
        if i < len(toks) and toks[i][1] == ";":
            i += 1
    return out


def load(path: Path | str) -> dict:
    return parse(Path(path).read_text())
