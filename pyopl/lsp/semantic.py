"""Semantic tokens (LSP 3.17 ``textDocument/semanticTokens/full``): every name of a model
classified by what it declares, so that an editor colours a data parameter, a decision variable
and an iterator differently even where the grammar alone cannot tell them apart.

The classes (LSP's standard token types and modifiers; the legend is :data:`TOKEN_TYPES`,
:data:`TOKEN_MODIFIERS`):

==========================  ==============================================
what the name is            token type [modifiers]
==========================  ==============================================
decision variable (dvar)    ``variable``
data (scalar or array)      ``parameter`` [readonly]
set, range                  ``type`` (what iterators range over)
tuple type                  ``struct``
tuple field                 ``property``
iterator (``i in S``)       ``variable`` [readonly] (bound, never assigned)
decision expression         ``function`` (an expression of the dvars)
constraint label            ``event``
built-in function           ``function`` [defaultLibrary]
reserved word               ``keyword``
==========================  ==============================================

The name at its declaration also has the ``declaration`` modifier.  Numbers, strings and
comments are left to the TextMate grammar (editors/vscode/).  Inside ``execute``/``main``
blocks only the model's own declared names are classified (the script's words are not OPL's).
In a ``.dat`` file, the names the model declares are classified as in the model.
"""
from __future__ import annotations

from typing import Optional

from ..syntax.words import KEYWORDS
from .analysis import Analysis, contains, lex_names
from .builtins import SIGNATURES
from .positions import LineIndex

TOKEN_TYPES = ["variable", "parameter", "type", "struct", "property", "function", "event", "keyword"]
TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"]
_TYPE = {name: k for k, name in enumerate(TOKEN_TYPES)}
_MOD = {name: 1 << k for k, name in enumerate(TOKEN_MODIFIERS)}
# declaration kind (pyopl.lsp.analysis.DeclInfo.kind) -> (token type, modifiers)
_DECL = {"dvar": ("variable", ()), "param": ("parameter", ("readonly",)), "set": ("type", ()),
         "range": ("type", ()), "tuple": ("struct", ()), "dexpr": ("function", ()), "constraint": ("event", ())}
# words the lexer sees that are types or aggregates rather than reserved words
_MORE_KEYWORDS = {"subject", "to", "forall", "sum", "prod", "setof", "float", "int", "boolean", "string",
                  "dvar", "dexpr", "tuple", "range", "constraint", "execute", "main", "minimize", "maximize"}
# `sum`, `prod` and the like are aggregates: keywords, not library functions
_AGGREGATES = {"sum", "prod"}


def classify(an: Analysis, last: Optional[Analysis] = None) -> list[tuple[int, int, int, str, tuple[str, ...]]]:
    """``[(line, column, end_column, token type, modifiers)]`` for the names of the model text,
    1-based, in text order.  When the text does not parse (mid-typing), declared names are
    classified by ``last``, the last analysis of the document that parsed; other names are
    keywords or built-ins when they are those words, and left out otherwise."""
    decls = an.decls if an.ast is not None or last is None else last.decls
    scripts = [s.span for s in an.scripts]
    binders = {(s.name_span.line, s.name_span.column): s for s in an.scopes}
    by_name: dict[str, list] = {}
    for s in an.scopes:
        by_name.setdefault(s.name, []).append(s)
    field_decls = {(f.span.line, f.span.column): f for hits in an.fields.values() for _t, f in hits}
    out = []
    for t in an.tokens:
        where = (t.line, t.column)
        in_script = any(contains(sp, t.line, t.column) for sp in scripts)
        got = None if in_script else _local(t, where, binders, by_name, field_decls, an)
        if got is None:
            decl = decls.get(t.text) if not t.after_dot else None
            if decl is not None:
                kind, mods = _DECL.get(decl.kind, ("variable", ()))
                if decls is an.decls and (decl.name_span.line, decl.name_span.column) == where:
                    mods += ("declaration",)
                got = (kind, mods)
            elif in_script:
                got = None
            elif t.text in KEYWORDS or t.text in _MORE_KEYWORDS or t.text in _AGGREGATES:
                got = ("keyword", ())
            elif t.text in SIGNATURES and not t.after_dot:
                got = ("function", ("defaultLibrary",))
        if got is not None:
            out.append((t.line, t.column, t.end_column, got[0], got[1]))
    return out


def _local(t, where, binders, by_name, field_decls, an) -> Optional[tuple[str, tuple[str, ...]]]:
    """An iterator or a tuple field at the token, or None."""
    if t.after_dot:
        return ("property", ()) if t.text in an.fields else None
    s = binders.get(where)
    if s is not None and s.name == t.text:
        return ("variable", ("readonly", "declaration"))
    best = None
    for s in by_name.get(t.text, ()):
        if contains(s.span, t.line, t.column):
            size = (s.span.end_line - s.span.line, s.span.end_column - s.span.column)
            if best is None or size <= best[0]:
                best = (size, s)
    if best is not None:
        return ("variable", ("readonly",))
    f = field_decls.get(where)
    if f is not None and getattr(f, "name", None) == t.text:
        return ("property", ("declaration",))
    return None


def classify_data(an: Analysis, data_text: str) -> list[tuple[int, int, int, str, tuple[str, ...]]]:
    """:func:`classify` for a ``.dat`` text of the model of ``an``: the names the model declares,
    as in the model."""
    out = []
    for t in lex_names(data_text):
        decl = an.decls.get(t.text)
        if decl is not None:
            kind, mods = _DECL.get(decl.kind, ("variable", ()))
            out.append((t.line, t.column, t.end_column, kind, mods))
    return out


def encode(an: Analysis, last: Optional[Analysis] = None) -> list[int]:
    """The LSP encoding of :func:`classify`: five integers a token (line delta, start delta in
    UTF-16 units, length, type index, modifier bits), relative to the token before."""
    return _encode(an.model_text, classify(an, last))


def encode_data(an: Analysis, data_text: str) -> list[int]:
    """The LSP encoding of :func:`classify_data`."""
    return _encode(data_text, classify_data(an, data_text))


def _encode(text: str, tokens: list) -> list[int]:
    index = LineIndex(text)
    data: list[int] = []
    prev_line, prev_char = 0, 0
    for line, col, end, kind, mods in tokens:
        ln, ch = index.to_lsp(line, col)
        _ln, ch_end = index.to_lsp(line, end)
        bits = 0
        for m in mods:
            bits |= _MOD[m]
        data += [ln - prev_line, ch - prev_char if ln == prev_line else ch, ch_end - ch, _TYPE[kind], bits]
        prev_line, prev_char = ln, ch
    return data

