"""Incremental re-checking for the editor: parse only the statements an edit touched, and load
the data again only when its text changed.

An editor re-checks after every pause in typing, and most edits change one statement of the
model.  :func:`split_statements` cuts model text into its top-level statements (declarations,
``subject to { ... }``, ``execute { ... }``, ...); :class:`IncrementalParser` parses each
statement on its own and keeps the AST items of every statement, keyed by its text and column.
A statement seen before is not parsed again: its items are reused, their spans moved to the
statement's new line.  Anything unusual falls back to one parse of the whole text, so the
diagnostics are always those of :func:`pyopl.check`:

- the scanner is unsure (an unclosed comment, string, bracket or script block; a ``;`` inside
  brackets; ``include`` or ``pwlFunction``, which reach across statements);
- a statement does not parse cleanly on its own (any syntax error: recovery is whole-text).

Each statement is parsed on its own, preceded by blanks up to its column, and its spans are
then moved down to its line (as for a reused statement), so it gets exactly the lines and columns
it has in the whole text. (It was parsed inside a copy of the whole text with everything before
it blanked: the same result, but each parse then cost the length of the text before it, and the
first analysis of a 60,000-line model was quadratic: issue 33.)

:class:`DataCache` keeps the result of :func:`pyopl.data.loader.load_data` for the last data
texts: loading data does not read the model, so a model-only edit reuses it as it is.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, Optional

from ..diagnostics.diagnostic import Diagnostic, Edit, Fix, Label, Span
from ..diagnostics.reporter import Reporter
from ..syntax import ast as A

# What the scanner must see: comments, strings, brackets, `;`, and the script keywords.
_SIGNIFICANT = re.compile(r'//[^\n]*|/\*.*?\*/|/\*|"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|"|[{}()\[\];]|\b(?:execute|main)\b',
                          re.S)  # (strings as possessive runs: no memory per character)
# Inside a script body (IBM ILOG Script, JavaScript-like): strings in both quotes, comments, braces.
_SCRIPT_SIGNIFICANT = re.compile(r"""//[^\n]*|/\*.*?\*/|/\*|"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'|["'{}]""",
                                 re.S)
_SCRIPT_HEAD = re.compile(r"\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*)?\{")
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
# The head of a statement whose `{ ... }` ends it (no `;` after the brace is needed).
_BLOCK_HEAD = re.compile(r"(?:subject\s+to|constraints|tuple\s+[A-Za-z_][A-Za-z0-9_]*)\s*\Z")
# Words whose statements reach other statements or files: always parse the whole text.
_WHOLE_TEXT = re.compile(r"\b(?:include|pwlFunction)\b")
_OPEN = {"(": ")", "[": "]", "{": "}"}
_NON_BLANK = re.compile(r"\S")
_SEMICOLON = re.compile(r"[ \t]*;")


@dataclass(frozen=True)
class Statement:
    """One top-level statement: ``text[start:end]``, starting at 1-based ``line``, ``column``."""

    start: int
    end: int
    line: int
    column: int


def split_statements(text: str) -> Optional[list[Statement]]:
    """The top-level statements of model text, in order, or None when the scanner is unsure.

    A statement ends at a ``;`` outside all brackets, or at the ``}`` closing the braces of
    ``subject to``, ``constraints``, ``tuple NAME``, ``execute [NAME]`` or ``main`` (with a
    ``;`` right after it, if any).  Comments and whitespace between statements belong to none.
    None: an unclosed comment, string, bracket or script block, a closing bracket that does
    not match, a ``;`` inside parentheses or square brackets, or text after the last statement
    that does not end.  A statement may hold several items (``assert { ... }`` then a
    declaration, say): it is only ever cut where an item ends."""
    out: list[Statement] = []
    stack: list[str] = []
    start = None  # offset of the current statement's first character
    block = False  # the current statement's `{` at depth 0 ends it when closed
    pos = 0
    n = len(text)
    lines = _Lines(text)
    while True:
        m = _SIGNIFICANT.search(text, pos)
        gap_end = m.start() if m else n
        if start is None:
            g = _NON_BLANK.search(text, pos, gap_end)
            if g is not None:
                start = g.start()
        if m is None:
            break
        tok = m.group(0)
        pos = m.end()
        if tok.startswith("//") or (tok.startswith("/*") and len(tok) >= 4):
            continue  # a comment is not the start of a statement
        if tok in ('"', "/*"):
            return None  # unclosed string or comment
        if start is None:
            start = m.start()
        if tok[0] == '"':
            continue  # a string
        if tok in ("execute", "main"):
            if stack:
                continue  # a name inside brackets
            h = _SCRIPT_HEAD.match(text, pos)
            if h is None:
                continue  # not a script block: `main` as a name, or a syntax error the parse reports
            close = _script_end(text, h.end() - 1)
            if close is None:
                return None
            pos = _after_semicolon(text, close + 1)
            out.append(lines.statement(start, pos))
            start, block = None, False
            continue
        if tok in _OPEN:
            if tok == "{" and not stack:
                head = _COMMENTS.sub(" ", text[start:m.start()]).strip()
                block = bool(_BLOCK_HEAD.match(head))
            stack.append(_OPEN[tok])
        elif tok in ")]}":
            if not stack or stack.pop() != tok:
                return None
            if tok == "}" and not stack and block:
                pos = _after_semicolon(text, pos)
                out.append(lines.statement(start, pos))
                start, block = None, False
        else:  # `;`
            if stack:
                if stack[-1] != "}":
                    return None  # `;` inside brackets: a mistake the whole-text parse reports
                continue
            out.append(lines.statement(start, pos))
            start, block = None, False
    if stack or start is not None:
        return None
    return out


def _after_semicolon(text: str, pos: int) -> int:
    """``pos``, or just past a ``;`` that follows it after blanks."""
    m = _SEMICOLON.match(text, pos)
    return m.end() if m else pos


def _script_end(text: str, open_at: int) -> Optional[int]:
    """Offset of the ``}`` closing the script body opened at ``open_at``, or None if unclosed."""
    depth = 0
    for m in _SCRIPT_SIGNIFICANT.finditer(text, open_at):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth == 0:
                return m.start()
        elif tok in ('"', "'", "/*"):
            return None
    return None


class _Lines:
    """Line numbers of increasing offsets, counted from the last one asked (linear in all)."""

    def __init__(self, text: str):
        self.text, self.offset, self.line = text, 0, 1

    def statement(self, start: int, end: int) -> Statement:
        self.line += self.text.count("\n", self.offset, start)
        self.offset = start
        return Statement(start, end, self.line, start - (self.text.rfind("\n", 0, start) + 1) + 1)


# ---------------------------------------------------------------- moving spans
def _moved_span(s: Any, lines: int) -> Any:
    if type(s) is not Span:
        return s
    return Span(s.file, None if s.line is None else s.line + lines, s.column,
                None if s.end_line is None else s.end_line + lines, s.end_column)


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _moved(obj: Any, lines: int) -> Any:
    """A copy of an AST value with every span ``lines`` lines further down (nodes are copied,
    other values shared: the cached tree is never changed)."""
    t = type(obj)
    if t in _PLAIN:
        return obj
    if t is Span:
        return _moved_span(obj, lines)
    if t is list:
        return [v if type(v) in _PLAIN else _moved(v, lines) for v in obj]
    if t is tuple:
        return tuple(v if type(v) in _PLAIN else _moved(v, lines) for v in obj)
    if isinstance(obj, A.Node):
        new = object.__new__(t)
        new.__dict__ = {k: v if type(v) in _PLAIN else _moved(v, lines) for k, v in obj.__dict__.items()}
        if t is A.ScriptBlock and obj.body_line:
            new.body_line = obj.body_line + lines
        return new
    return obj


def moved_diagnostic(d: Diagnostic, lines: int) -> Diagnostic:
    """``d`` with its span, labels and fix edits ``lines`` lines further down."""
    if not lines:
        return d
    fix = d.fix
    if fix is not None:
        fix = Fix(fix.message, tuple(Edit(_moved_span(e.span, lines), e.replacement) for e in fix.edits),
                  fix.applicability)
    return replace(d, span=_moved_span(d.span, lines),
                   labels=tuple(Label(_moved_span(lab.span, lines), lab.message) for lab in d.labels), fix=fix)


def replay(reporter: Reporter, d: Diagnostic) -> None:
    """Add a diagnostic found earlier to ``reporter`` as :meth:`Reporter.emit` would have (only
    warnings and notes are replayed: a statement with an error is never reused)."""
    key = (d.code, d.span.file, d.span.line, d.span.column, d.message)
    if key not in reporter._seen:
        reporter._seen.add(key)
        reporter.diagnostics.append(d)

#: A statement is parsed alone padded to its column; past this column the whole text is parsed
#: instead (``;;;;...`` on one line: the padding summed over statements grew with their square).
MAX_COLUMN = 256


# ---------------------------------------------------------------- the parser
@dataclass
class _Parsed:
    line: int  # where the statement started when it was parsed
    items: list
    diagnostics: list


class IncrementalParser:
    """Parses model text statement by statement, reusing the statements it has seen.

    ``parse(text, file, reporter)`` returns what :func:`pyopl.syntax.parser.parse_model` returns
    for the whole text, with the same diagnostics.  ``stats`` counts, for the last parse,
    statements ``reused`` (of which ``moved``: on other lines than when last seen, so copied with
    their spans moved, and kept so) and ``parsed``, and ``whole`` (1 when the whole text was
    parsed).  The cached trees are never changed: an analysis may still hold them.
    Not thread-safe: one parse at a time (the server analyses on one worker thread)."""

    def __init__(self, max_entries: int = 4096):
        self.max_entries = max_entries
        self.cache: OrderedDict[tuple, _Parsed] = OrderedDict()
        self.stats = {"reused": 0, "moved": 0, "parsed": 0, "whole": 0}

    def parse(self, text: str, file: str, reporter: Reporter) -> Optional[A.Model]:
        from ..syntax.parser import parse_model

        self.stats = {"reused": 0, "moved": 0, "parsed": 0, "whole": 0}
        statements = None if _WHOLE_TEXT.search(text) else split_statements(text)
        if statements is not None and any(st.column > MAX_COLUMN for st in statements):
            statements = None  # statements far along one line: padding each to its column was quadratic
        items: Optional[list] = None
        if statements is not None:
            items = self._by_statement(text, file, statements, reporter)
        if items is None:
            self.stats["whole"] = 1
            return parse_model(text, file, reporter)
        return A.Model(Span(file, 1, 1, 1, 1), items, file, text)

    def _by_statement(self, text: str, file: str, statements: list[Statement],
                      reporter: Reporter) -> Optional[list]:
        from ..syntax.parser import parse_model

        items: list = []
        found: list[Diagnostic] = []
        for st in statements:
            key = (file, text[st.start:st.end], st.column)
            got = self.cache.get(key)
            if got is None:
                # the statement alone, at its column on line 1 (then moved to its line, as a reused
                # one is): its own length, never the text before it, so the first analysis is linear
                sub = Reporter(reporter.max_errors)
                try:
                    model = parse_model(" " * (st.column - 1) + text[st.start:st.end], file, sub)
                except Exception:  # the whole-text parse decides what the user sees
                    return None
                if model is None or sub.has_errors or any(isinstance(i, (A.Include, A.PwlDecl)) for i in model.items):
                    return None
                got = _Parsed(1, model.items, list(sub.diagnostics))
                self.stats["parsed"] += 1
                if st.line > 1:
                    got = _Parsed(st.line, _moved(got.items, st.line - 1),
                                  [moved_diagnostic(d, st.line - 1) for d in got.diagnostics])
                self.cache[key] = got
            else:
                self.cache.move_to_end(key)
                self.stats["reused"] += 1
                lines = st.line - got.line
                if lines:  # keep the moved copy: the next re-check finds it where it now is
                    got = self.cache[key] = _Parsed(st.line, _moved(got.items, lines),
                                                    [moved_diagnostic(d, lines) for d in got.diagnostics])
                    self.stats["moved"] += 1
            items.extend(got.items)
            found.extend(got.diagnostics)
        while len(self.cache) > self.max_entries:
            self.cache.popitem(last=False)
        for d in found:
            replay(reporter, d)
        return items


# ---------------------------------------------------------------- the data
class DataCache:
    """The last few results of :func:`pyopl.data.loader.load_data` that had no error, keyed by
    the data texts and where includes are looked up.  Loading data does not read the model, so
    the items serve any model (the instance only reads them).  An entry holds the items, the
    warnings loading gave and the source texts it added.  Data with errors is loaded every time
    (its errors count against the reporter's ``max_errors`` as they are found)."""

    def __init__(self, max_entries: int = 4):
        self.max_entries = max_entries
        self.cache: OrderedDict[tuple, tuple[dict, list, dict]] = OrderedDict()
        self.hits = 0

    def load(self, data: Any, reporter: Reporter, sources: dict, base_dir: str, *, source: str = "auto",
             include_dir: Optional[str] = None) -> dict:
        """:func:`~pyopl.data.loader.load_data`, from the cache for data text (a str or a list of
        str) seen before; other data (files, dicts) is loaded every time."""
        from ..data.loader import load_data

        texts = data if isinstance(data, (list, tuple)) else [data]
        if data is None or not all(isinstance(t, str) for t in texts):
            return load_data(data, reporter, sources, base_dir, source=source, include_dir=include_dir)
        key = (tuple(texts), base_dir, source, include_dir)
        got = self.cache.get(key)
        if got is None:
            sub = Reporter(reporter.max_errors)
            before = dict(sources)
            items = load_data(data, sub, sources, base_dir, source=source, include_dir=include_dir)
            if sub.has_errors:  # again, on the real reporter, errors counted as usual
                for k in set(sources) - set(before):
                    del sources[k]
                sources.update(before)
                return load_data(data, reporter, sources, base_dir, source=source, include_dir=include_dir)
            got = (items, list(sub.diagnostics), {k: v for k, v in sources.items() if before.get(k) is not v})
            self.cache[key] = got
            while len(self.cache) > self.max_entries:
                self.cache.popitem(last=False)
        else:
            self.hits += 1
            self.cache.move_to_end(key)
        items, warnings, added = got
        for d in warnings:
            replay(reporter, d)
        sources.update(added)
        return items
