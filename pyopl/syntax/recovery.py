"""Syntax errors: name them in words, repair one-token mistakes, and keep parsing.

Lark calls ``on_error`` with the interactive parser positioned at the bad
token.  We try, in order, repairs that explain the error with one token
(insert `;`, `=` -> `==`, insert `)`/`]`), checking each on a copy of the
parser; a repair that takes is applied and recorded with a fix-it.  When
none takes, the error is reported and tokens are skipped up to the end of
the statement, without reporting the follow-on errors that skipping causes.
"""
from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from ..lazy_names import import_deferring

import_deferring("lark", "regex")  # (its optional `regex` loads when first used: pyopl.lazy_names)
from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..diagnostics.diagnostic import Edit, Fix, Label, Span
from ..diagnostics.reporter import Reporter, TooManyErrors
from . import ast as A
from .brackets import _OPENERS, _open_stack, unclosed_bracket  # noqa: F401  (unclosed_bracket re-exported)
from .words import KEYWORDS, describe_expected, short_token, token_text

#: ``stepwise{...}`` (or ``stepwise(quals){...}``) just before the point a parse stopped: IBM's inline form
_STEPWISE_APPLIED = re.compile(r"\b(stepwise)\s*(\([^{}]*\))?\s*\{[^{}]*\}\s*\Z")

if TYPE_CHECKING:  # (the mistake catalogue loads on the first syntax error: a clean parse never needs it)
    from .mistakes import Context

_CLOSER_TERMINAL = {")": "RPAR", "]": "RSQB", "}": "RBRACE"}


def _offset(text: str, line: int, col: int) -> int:
    pos = 0
    for _ in range(line - 1):
        pos = text.index("\n", pos) + 1
    return pos + col - 1


def _line_col(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def previous_token_end(text: str, offset: int) -> int:
    """Offset just past the last non-blank, non-comment character before ``offset``."""
    i = offset
    while i > 0:
        line_start = text.rfind("\n", 0, i) + 1
        segment = text[line_start:i]
        cut = _comment_start(segment)
        if cut is not None:
            segment = segment[:cut]
        stripped = segment.rstrip()
        if stripped:
            return line_start + len(stripped)
        i = line_start - 1
    return 0


def _comment_start(segment: str) -> int | None:
    in_str = False
    for k, ch in enumerate(segment):
        if ch == '"':
            in_str = not in_str
        elif not in_str and segment.startswith("//", k):
            return k
    return None


@functools.lru_cache(maxsize=None)
def _keyword_types(parser: Lark) -> dict[str, str]:
    """Keyword text -> terminal name (``"dvar"`` -> ``"DVAR"``), for re-typing tokens."""
    out = {}
    for t in parser.terminals:
        if t.pattern.type == "str":
            out[t.pattern.value] = t.name
    return out



class _Restart(Exception):
    """Abort this parse: blank the statement at ``offset`` (or apply ``edit``) and parse again."""

    def __init__(self, offset: int, replace: tuple[int, int, str] | None = None):
        super().__init__(offset)
        self.offset = offset
        self.replace = replace


def _is_block_brace(text: str, pos: int) -> bool:
    before = text[:pos].rstrip()
    if before.endswith((")", "{", "}", ";", "else", " to", "\tto", "\nto", "constraints")):
        return True
    words = before.split()
    return len(words) >= 2 and words[-2] == "tuple"


#: What stands between the braces of a set type, `{int}`, `{string}`, `{Arc}`: one name.
_SET_TYPE = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*")


def statement_bounds(text: str, offset: int) -> tuple[int, int, bool]:
    """(start, end, top_level) of the statement holding ``offset``: from after the previous
    statement's end to its own `;` (inclusive) or to the `}` that closes its block (exclusive)."""
    stack = _open_stack(text, offset)
    k = -1
    for idx in range(len(stack) - 1, -1, -1):
        if stack[idx][0] == "{" and _is_block_brace(text, stack[idx][1]):
            k = idx
            break
    top = k < 0 or text[:stack[k][1]].split()[-2:-1] == ["tuple"]
    base = stack[k][1] + 1 if k >= 0 else 0
    start, depth, i = base, 0, base
    opened: list[int] = []  # where each open bracket is, to tell a block's `}` from a value's
    while i < offset:
        ch = text[i]
        if ch in "([{":
            depth += 1
            opened.append(i)
        elif ch in ")]}":
            depth = max(depth - 1, 0)
            at = opened.pop() if opened else -1
            # a block's `}` ends a statement; the `}` of `piecewise{...}`, of a set value or of a set
            # type (`{int} S = ...`: one name between the braces) does not
            if ch == "}" and depth == 0 and (at < 0 or _is_block_brace(text, at)) and \
                    not _SET_TYPE.fullmatch(text, at + 1, i):
                start = i + 1
        elif ch == ";" and depth == 0:
            start = i + 1
        i += 1
    d = len(stack) - (k + 1)
    end, i = len(text), offset
    while i < len(text):
        ch = text[i]
        if ch == '"':
            j = text.find('"', i + 1)
            if j < 0:
                break
            i = j + 1
            continue
        if ch in "([{":
            d += 1
        elif ch in ")]}":
            if d == 0:
                end = i
                break
            d -= 1
        elif ch == ";" and d <= 0:
            end = i + 1
            break
        i += 1
    return start, max(end, offset + 1), top


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + "".join(c if c == "\n" else " " for c in text[start:end]) + text[end:]


class _Recovery:
    def __init__(self, text: str, file: str, reporter: Reporter, kind: str, keywords: dict[str, str], effects=None,
                 copy_stack=None):
        self.keywords = keywords
        self.effects = effects
        self.copy_stack = copy_stack
        self.text = text
        self.file = file
        self.reporter = reporter
        self.kind = kind  # "model" or "data"
        self.panic = False
        self.repaired_only = True
        self.final_tree = None
        self.errors = 0
        self.broken: list[tuple[int, int]] = []  # (line, column) where statements were skipped
        self.panic_limit = -1

    def span_at(self, offset: int, width: int = 1) -> Span:
        line, col = _line_col(self.text, offset)
        return Span(self.file, line, col, line, col + width)

    def tok_span(self, tok: Token) -> Span:
        if tok.type == "$END" or tok.line is None:
            end = len(self.text.rstrip())
            return self.span_at(max(end - 1, 0))
        short = short_token(tok)
        if short != str(tok):  # a long or catch-all token: the span is the part the message quotes
            lead = len(str(tok)) - len(str(tok).lstrip())
            return Span(self.file, tok.line, tok.column + lead, tok.line, tok.column + lead + max(len(short), 1))
        return Span(self.file, tok.line, tok.column, tok.end_line or tok.line,
                    tok.end_column or tok.column + max(len(tok), 1))

    # ------------------------------------------------------------------ entry point
    def on_error(self, e: UnexpectedInput) -> bool:
        self.errors += 1
        if self.errors > 60:
            self.reporter.emit("syntax-too-many-errors", self.span_at(len(self.text) - 1 if self.text else 0),
                               "too many syntax errors; parsing stopped",
                               help="fix the first errors and compile again")
            return False
        if isinstance(e, UnexpectedCharacters):
            return self.bad_character(e)
        if isinstance(e, UnexpectedToken):
            return self.bad_token(e)
        return False

    def bad_character(self, e: UnexpectedCharacters) -> bool:
        offset = e.pos_in_stream
        ch = self.text[offset] if offset < len(self.text) else ""
        self.repaired_only = False
        span = self.span_at(offset)
        data = self.kind == "data"
        if ch == '"':
            self.reporter.emit("syntax-data-unclosed-string" if data else "syntax-unclosed-string", span,
                               "this string is never closed", help='end the string with `"` on the same line',
                               fix=Fix('close the string', (Edit(self._line_end(offset), '"'),), "maybe-incorrect"))
            raise _Restart(offset)
        if self.text.startswith("/*", offset):
            self.reporter.emit("syntax-unclosed-comment", span, "this `/*` comment is never closed",
                               help="close the comment with `*/`")
            return False
        line_end = self.text.find("\n", offset)
        line_end = len(self.text) if line_end < 0 else line_end
        self._typographic(offset)
        if ch == "'" and not data:
            close = self.text.find("'", offset + 1, line_end)
            if close > 0:
                self.reporter.emit("syntax-single-quotes", self.span_at(offset, close + 1 - offset),
                                   "strings are written with double quotes in OPL", help="write `\"...\"`",
                                   fix=Fix("use double quotes", (Edit(self.span_at(offset), '"'), Edit(self.span_at(close), '"'))))
                raise _Restart(offset, (offset, close + 1, '"' + self.text[offset + 1:close] + '"'))
        if ch == "&" and not data and not self.text.startswith("&&", offset):
            self.reporter.emit("syntax-single-ampersand", span, "`&` is not OPL; logical and is `&&`", help="write `&&`",
                               fix=Fix("replace `&` with `&&`", (Edit(span, "&&"),)))
            raise _Restart(offset)
        if ch == "#" and not self.text.startswith(("#[", "#<"), offset):
            self.reporter.emit("syntax-hash-comment", span, "`#` does not start a comment in OPL; comments start with `//`",
                               help="write `//`", fix=Fix("replace `#` with `//`", (Edit(span, "//"),)))
            raise _Restart(offset, (offset, line_end, " " * (line_end - offset)))
        self.reporter.emit("syntax-data-unexpected-character" if data else "syntax-unexpected-character", span,
                           "the character `%s` is not allowed here" % ch,
                           help="remove it; names use letters, digits and `_` only",
                           fix=Fix("remove `%s`" % ch, (Edit(span, ""),), "maybe-incorrect"))
        raise _Restart(offset, (offset, offset + 1, " "))

    def _typographic(self, offset: int) -> None:
        """A typographic character at ``offset`` (an en dash, a curly quote, `≤`...: text pasted from a word
        processor or a PDF): report it with its ASCII spelling as the fix, and parse again with that spelling
        in its place (so the rest of the statement is checked, not dropped); nothing when it is another one."""
        from .words import TYPOGRAPHIC

        ch = self.text[offset:offset + 1]
        if ch not in TYPOGRAPHIC:
            return
        ascii_, what = TYPOGRAPHIC[ch]
        span = self.span_at(offset)
        self.repaired_only = False
        line_end = self.text.find("\n", offset)
        close = self.text.find("\u201d", offset + 1, len(self.text) if line_end < 0 else line_end)
        if ch in "\u201c\u201e" and close > 0:  # a curly-quoted string: both quotes in one fix
            edits = (Edit(span, '"'), Edit(self.span_at(close), '"'))
            self.reporter.emit("syntax-typographic-character", self.span_at(offset, close + 1 - offset),
                               "curly quotes are not OPL's `\"`; text pasted from a word processor or a PDF often "
                               "has them", help='write `"...."`', fix=Fix('use `"`', edits))
            raise _Restart(offset, (offset, close + 1, '"' + self.text[offset + 1:close] + '"'))
        self.reporter.emit("syntax-typographic-character", span,
                           "`%s` (%s) is not OPL's `%s`; text pasted from a word processor or a PDF often has it"
                           % (ch, what, ascii_), help="write `%s`" % ascii_,
                           fix=Fix("replace `%s` with `%s`" % (ch, ascii_), (Edit(span, ascii_),)))
        a, b = offset, offset + 1
        if len(ascii_) == 2:  # keep the columns of what follows: take in a blank beside it where there is one
            if self.text[b:b + 1] in (" ", "\t"):
                b += 1
            elif offset and self.text[a - 1] in (" ", "\t"):
                a -= 1
        raise _Restart(offset, (a, b, ascii_))

    def _line_end(self, offset: int) -> Span:
        end = self.text.find("\n", offset)
        end = len(self.text) if end < 0 else end
        while end > offset and self.text[end - 1] in " \t\r":
            end -= 1
        if end > offset + 1 and self.text[end - 1] == ";":
            end -= 1
        return self.span_at(end, 0)

    def _context(self, tok: Token, expected: set[str]) -> Context:
        from .mistakes import Context, blank_comments

        at = tok.start_pos if tok.start_pos is not None else _offset(self.text, tok.line, tok.column)
        prev_end = previous_token_end(self.text, at)
        m = None
        import re

        for m in re.finditer(r'\.\.\.|[A-Za-z_][A-Za-z0-9_]*\+?|\d+(?:\.\d*)?|"[^"\n]*"|\S', self.text[max(prev_end - 80, 0):prev_end]):
            pass
        prev = m.group(0) if m else ""
        prev_at = (max(prev_end - 80, 0) + m.start()) if m else 0
        if prev.endswith("+") and prev not in ("int+", "float+"):
            prev, prev_at = "+", prev_at + len(prev) - 1
        start, _end, _top = statement_bounds(self.text, at)
        stack = _open_stack(self.text, at)
        in_cons = any(c == "{" and re.search(r"(\bto|\bconstraints)\s*$", self.text[:p]) for c, p in stack)
        return Context(self.text, self.kind, str(tok), tok.type, at, self.tok_span(tok), prev, prev_at, expected,
                       bool(in_cons), blank_comments(self.text[start:at]))

    def bad_token(self, e: UnexpectedToken) -> bool:
        tok, ip = e.token, e.interactive_parser
        if tok.type == "NAME" and str(tok).isalpha() and str(tok) in self.keywords:
            # The contextual lexer fell back to NAME for a keyword it did not expect here.
            tok = Token(self.keywords[str(tok)], str(tok), tok.start_pos, tok.line, tok.column,
                        tok.end_line, tok.end_column, tok.end_pos)
        expected = set(e.expected or ())
        if tok.type == "$END":
            return self.at_end(tok, ip, expected)
        if tok.type == "REST" and tok.start_pos is not None:  # a data file's catch-all token
            self._typographic(tok.start_pos + len(str(tok)) - len(str(tok).lstrip()))
        if str(tok) == "/" and self.text.startswith("/*", tok.start_pos or 0):
            self.reporter.emit("syntax-unclosed-comment", self.tok_span(tok), "this `/*` comment is never closed",
                               help="close the comment with `*/`")
            return False
        from .mistakes import match_mistake

        ctx = self._context(tok, expected)
        mistake = match_mistake(ctx)
        if mistake is not None:
            self.reporter.emit(mistake.slug, mistake.span, mistake.message, help=mistake.help, fix=mistake.fix,
                               labels=getattr(mistake, "labels", ()))
            self.repaired_only = False
            raise _Restart(ctx.at)
        prev_end = previous_token_end(self.text, _offset(self.text, tok.line, tok.column))
        new_line = self.text.count("\n", prev_end, _offset(self.text, tok.line, tok.column)) > 0
        if ("SEMICOLON" in expected or new_line) and self._missing_semicolon(tok, ip):
            return True
        if str(tok) == "=" and self.kind == "model" and \
                ("COLON" in expected or self._try(ip, [Token(self.keywords.get("==", "EQUAL"), "==")])):
            span = self.tok_span(tok)
            self.reporter.emit("syntax-assign-in-constraint", span,
                               "`=` assigns a value; to compare, use `==`",
                               help="write `==` for an equality constraint",
                               fix=Fix("replace `=` with `==`", (Edit(span, "=="),)))
            raise _Restart(ctx.at)
        for closer in (")", "]"):
            if self._missing_closer(tok, ip, closer):
                return True
        self.report_unexpected(tok, expected)
        self.repaired_only = False
        raise _Restart(ctx.at)

    def start_panic(self, tok: Token) -> None:
        """Skip tokens up to the end of the statement without reporting what skipping breaks."""
        self.broken.append((tok.line, tok.column))
        self.panic = True
        ends = [k for k in (self.text.find(";", tok.start_pos), self.text.find("}", tok.start_pos)) if k >= 0]
        self.panic_limit = min(ends) if ends else len(self.text)

    # ------------------------------------------------------------------ repairs
    def _copy(self, ip):
        """A copy of the parser to try tokens on; Lark deep-copies its value stack, ``copy_stack``
        (when given) copies just what the parser's callbacks may change."""
        if self.copy_stack is None:
            return ip.copy()
        try:
            trial = ip.copy(deepcopy_values=False)
        except TypeError:  # a Lark without the option
            trial = ip.copy()
        trial.parser_state.value_stack = self.copy_stack(ip.parser_state.value_stack)
        return trial

    def _try(self, ip, tokens) -> bool:
        trial = self._copy(ip)
        mark = self.effects.mark() if self.effects is not None else 0
        try:
            for t in tokens:
                trial.feed_token(t)
        except UnexpectedInput:
            return False
        finally:  # a trial's reductions must leave no trace
            if self.effects is not None:
                self.effects.rollback(mark)
        return True

    def _try_feed(self, ip, inserted, then: Token | None = None) -> bool:
        tokens = list(inserted) + ([then] if then is not None else [])
        if not self._try(ip, tokens):
            return False
        for t in tokens:
            ip.feed_token(t)
        return True

    def _missing_semicolon(self, tok: Token, ip) -> bool:
        at = _offset(self.text, tok.line, tok.column)
        end = previous_token_end(self.text, at)
        if not self._try_feed(ip, [Token("SEMICOLON", ";")], tok):
            return False
        applied = _STEPWISE_APPLIED.search(self.text, 0, end) if self.kind == "model" else None
        if applied is not None:  # `stepwise{...} x`: IBM's inline form, which pyopl does not take
            self.reporter.emit("unsupported-stepwise", self.span_at(applied.start(1), 8),
                "`stepwise{...}` applied to an expression is not supported: a step function is declared "
                "(`stepFunction F = stepwise{...};`) and used as `F(t)` on data or by `forbidStart`, `startEval`, "
                "`intensity`", help="declare the function with `stepFunction` and use it by name")
            return True
        span = self.span_at(end)
        span = Span(span.file, span.line, span.column, span.line, span.column + 1)
        what = "declaration or statement" if self.kind == "model" else "data assignment"
        slug = "syntax-missing-semicolon" if self.kind == "model" else "syntax-data-missing-semicolon"
        self.reporter.emit(slug, span, "missing `;` at the end of this %s" % what,
                           labels=[Label(self.tok_span(tok), "the next statement starts here")],
                           help="add `;` here",
                           fix=Fix("insert `;`", (Edit(Span(span.file, span.line, span.column, span.line, span.column), ";"),),
                                   "maybe-incorrect" if _after_header(self.text, end) else "machine-applicable"))
        return True

    def _missing_closer(self, tok: Token, ip, closer: str) -> bool:
        name = _CLOSER_TERMINAL[closer]
        if not self._try_feed(ip, [Token(name, closer)], tok):
            return False
        at = _offset(self.text, tok.line, tok.column)
        opened = unclosed_bracket(self.text, at)
        end = previous_token_end(self.text, at)
        ins = self.span_at(end)
        labels = []
        if opened and opened[0] == {")": "(", "]": "["}[closer]:
            span = self.span_at(opened[1])
            labels.append(Label(self.tok_span(tok), "expected `%s` before this" % closer))
        else:
            span = ins
        self.reporter.emit("syntax-unclosed-bracket", span,
                           "this `%s` is never closed: `%s` expected before %s" % (
                               {")": "(", "]": "["}[closer], closer, token_text(tok)),
                           labels=labels, help="add `%s` where the expression ends" % closer,
                           fix=Fix("insert `%s`" % closer, (Edit(Span(ins.file, ins.line, ins.column, ins.line, ins.column), closer),),
                                   "maybe-incorrect"))
        return True

    def at_end(self, tok: Token, ip, expected: set[str]) -> bool:
        if self.panic:
            self.final_tree = None
            return False
        opened = unclosed_bracket(self.text, len(self.text))
        if opened:
            closer = _OPENERS[opened[0]]
            span = self.span_at(opened[1])
            self.reporter.emit("syntax-unexpected-eof", span,
                               "the file ends before this `%s` is closed" % opened[0],
                               help="add the missing `%s`" % closer,
                               fix=Fix("append `%s`" % closer, (Edit(self.span_at(len(self.text), 0), "\n" + closer),),
                                       # a block left open at the end of the file: closing it there is certain
                                       "machine-applicable" if closer == "}" else "maybe-incorrect"))
            trial = self._copy(ip)
            try:
                trial.feed_token(Token(_CLOSER_TERMINAL[closer], closer))
                self.final_tree = trial.feed_eof(tok)
            except UnexpectedInput:
                self.final_tree = None
            return False
        if "SEMICOLON" in expected:
            end = previous_token_end(self.text, len(self.text))
            span = self.span_at(max(end - 1, 0))
            self.reporter.emit("syntax-missing-semicolon" if self.kind == "model" else "syntax-data-missing-semicolon",
                               span, "missing `;` at the end of the file",
                               help="add `;`", fix=Fix("insert `;`", (Edit(self.span_at(end, 0), ";"),)))
            trial = self._copy(ip)
            try:
                trial.feed_token(Token("SEMICOLON", ";"))
                self.final_tree = trial.feed_eof(tok)
            except UnexpectedInput:
                self.final_tree = None
            return False
        self.reporter.emit("syntax-unexpected-eof", self.tok_span(tok),
                           "the file ends in the middle of a statement; expected %s" % describe_expected(expected),
                           help="complete the statement")
        return False

    def report_unexpected(self, tok: Token, expected: set[str]) -> None:
        span = self.tok_span(tok)
        slug = "syntax-unexpected-token" if self.kind == "model" else "syntax-data-unexpected-token"
        word = str(tok)
        help_text = "expected %s here" % describe_expected(expected)
        if word in KEYWORDS and "NAME" in expected:
            self.reporter.emit("syntax-reserved-word", span,
                               "`%s` is a reserved word and cannot be used as a name" % word,
                               help="rename it, for example `%s_` or `my%s`" % (word, word.capitalize()))
            return
        if self.kind == "data" and word[:1] in ("{", "[") and not self.text[:tok.start_pos].strip() and _is_json(self.text):
            self.reporter.emit(slug, span, "this data is JSON, not OPL data (`.dat`)", help=(
                "write each value as `name = value;` (`Plants = {\"Lyon\", \"Porto\"};`, `cost = [[4, 6.5], "
                "[7, 2]];`), or pass the JSON's values from Python: `pyopl.solve(model, json.load(open(...)))` "
                "takes the dict (docs/solvers.md, \"Data from pandas and NumPy\")"))
            return
        self.reporter.emit(slug, span, "unexpected %s; expected %s" % (token_text(tok), describe_expected(expected)),
                           help=help_text)


def _is_json(text: str) -> bool:
    """Whether ``text`` is one JSON object or array (a `.json` file given where `.dat` data goes)."""
    import json

    try:
        return isinstance(json.loads(text), (dict, list))
    except (ValueError, RecursionError):
        return False


class HeldDiagnostics:
    """Diagnostics held back until a parse is final (``effects`` of :func:`parse_with_recovery`).

    A parser whose reductions report (the model parser's AST handlers) reduces also in trial
    parses and in attempts that are restarted; only the parse that is kept may speak, after
    every syntax error, as when its tree was transformed once the parse was over.
    """

    def __init__(self):
        self.items: list = []

    def emit(self, *args, **kw) -> None:
        """Record one diagnostic (the :meth:`Reporter.emit` signature)."""
        self.items.append((args, kw))

    def restart(self) -> None:
        """A new attempt begins: what the previous one said is void."""
        self.items.clear()

    def mark(self) -> int:
        """Where a trial parse starts."""
        return len(self.items)

    def rollback(self, mark: int) -> None:
        """Forget what a trial parse said."""
        del self.items[mark:]


def parse_with_recovery(parser: Lark, text: str, file: str, reporter: Reporter, original: str | None = None,
                        kind: str = "model", effects=None, copy_stack=None):
    """Parse ``text``; returns ``(tree or None, broken)``.

    One-token mistakes are repaired in place (with a fix-it).  Any other error is
    reported, the statement holding it is blanked out (positions kept) and the text
    parsed again, so every independent error is reported once and nothing that
    follows from a half-parsed statement is.  ``tree`` is None when a top-level
    statement had to be dropped (later stages would only report its absence).
    ``broken`` lists the (line, column) places of dropped statements.
    ``effects`` (optional) hears of each new attempt (``restart()``) and wraps each trial
    parse in ``mark()``/``rollback(mark)``, for parsers whose callbacks have side effects.
    ``copy_stack`` (optional) copies a value stack for a trial parse instead of a deep copy.
    """
    keywords = _keyword_types(parser)
    broken: list[tuple[int, int]] = []
    top_dropped = False
    for _attempt in range(61):
        if effects is not None:
            effects.restart()
        rec = _Recovery(text, file, reporter, kind, keywords, effects, copy_stack)
        try:
            tree = parser.parse(text, on_error=rec.on_error)
        except TooManyErrors:
            raise
        except _Restart as r:
            if r.replace is not None:
                a, b, new = r.replace
                text = text[:a] + new + text[b:]
                continue
            start, end, top = statement_bounds(text, r.offset)
            if not text[start:end].strip():  # nothing left to drop: stop here
                return None, broken
            broken.append(_line_col(text, r.offset))
            top_dropped = top_dropped or top
            text = _blank(text, start, end)
            continue
        except UnexpectedInput:
            tree = rec.final_tree
        return (None if top_dropped else tree), broken
    reporter.emit("syntax-too-many-errors", Span(file, 1, 1, 1, 2), "too many syntax errors; parsing stopped",
                  help="fix the first errors and compile again")
    return None, broken


def _covers(span: Span, pos: tuple[int, int]) -> bool:
    if pos[0] is None or span.end_column is None:
        return False
    return (span.line, span.column) <= pos < (span.end_line, span.end_column)


def drop_broken(items: list, broken: list[tuple[int, int]]) -> tuple[list, bool]:
    """Remove statements that error recovery skipped through; report if a top-level item was hit."""
    top_broken = False
    kept = []
    for item in items:
        hit = any(_covers(item.span, p) for p in broken)
        if isinstance(item, A.ConstraintsBlock) and hit:
            item.stmts = _drop_stmts(item.stmts, broken)
            kept.append(item)
        elif hit:
            top_broken = True
        else:
            kept.append(item)
    return kept, top_broken


def _drop_stmts(stmts: list, broken) -> list:
    out = []
    for s in stmts:
        if not any(_covers(s.span, p) for p in broken):
            out.append(s)
        elif isinstance(s, A.Block):
            s.stmts = _drop_stmts(s.stmts, broken)
            out.append(s)
    return out


def _after_header(text: str, end: int) -> bool:
    """True when offset ``end`` follows the `)` of an `if (...)` or `forall(...)` header: a `;` there
    would end the statement and change what the model means (the body would run unconditionally)."""
    k = end - 1
    while k >= 0 and text[k] in " \t\r\n":
        k -= 1
    if k < 0 or text[k] != ")":
        return False
    depth = 0
    while k >= 0:
        if text[k] == ")":
            depth += 1
        elif text[k] == "(":
            depth -= 1
            if depth == 0:
                break
        k -= 1
    head = text[max(0, k - 12):k].rstrip()
    return head.endswith("if") or head.endswith("forall") or head.endswith("while")
