"""Model text -> typed AST, or syntax diagnostics: the entry points (:func:`parse_model`,
:func:`prepare`) and ``include`` splicing.

Lark LALR(1) with the contextual lexer, grammar compiled once per process (:mod:`.parser_cache`,
from :mod:`.grammars`); the AST is built as Lark reduces (:mod:`.inline_parse`, with the rule
handlers of :mod:`.handlers`), with no parse tree.
Errors are repaired where one token explains them (a missing `;`, `=` for
`==`, a missing `)`), so that one parse reports every independent mistake;
otherwise the parser skips to the end of the statement (:mod:`.recovery`).
"""
from __future__ import annotations

import gc
import os
import re

from ..lazy_names import import_deferring

import_deferring("lark", "regex")  # (its optional `regex` loads when first used: pyopl.lazy_names)
from lark.exceptions import VisitError

from ..diagnostics.diagnostic import Span
from ..diagnostics.reporter import Reporter
from ..files.source_io import SourceProblem, read_source_file, report_problem, resolve_include, take_include
from . import ast as A
from .grammars import grammar_text  # noqa: F401  (re-exported)
from .handlers import _Handlers, _TreeToAst, _unquote  # noqa: F401  (_unquote re-exported: data parsing uses it)
from .inline_parse import _CTX, _InlineHandlers, _ast_parser, _trial_stack
from .parser_cache import lark_parser, make_all_lexer_states
from .pwl import expand_pwl_functions
from .recovery import HeldDiagnostics, drop_broken, parse_with_recovery

_SCRIPT_WORD = re.compile(r"\b(?:execute|main)\b")


def prepare() -> None:
    """Build everything parsing needs, once per process (about 0.3 s): the model and data grammars
    with their lexers, and the parser that builds the AST as it reduces.  Parsing calls this on
    first use; a long-running caller (or a benchmark) may call it up front, which also compiles
    the regular expressions of every lexer state (otherwise compiled as a parse first reaches them)."""
    make_all_lexer_states(lark_parser("dat"))
    make_all_lexer_states(lark_parser("opl"))
    _ast_parser()


def parse_model(text: str, file: str, reporter: Reporter) -> A.Model | None:
    """Parse model text. Returns the AST (possibly after repairs) or None when
    the errors could not be repaired. Script blocks produce a warning each."""
    # A parse allocates many small objects and frees few: the cyclic collector's passes found
    # nothing and took about 40% of a long model's parse, so it is paused (as in api.py).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _parse_model(text, file, reporter, inline=True)
    finally:
        if was_enabled:
            gc.enable()


def _parse_model(text: str, file: str, reporter: Reporter, inline: bool) -> A.Model | None:
    # ``inline=False`` builds Lark's parse tree and transforms it (the fallback, and the reference
    # of tests/test_parse_identity.py).  strip_scripts walks the text character by character;
    # without the words it looks for, it would return the text unchanged.
    if _SCRIPT_WORD.search(text):
        from .scripts import strip_scripts

        stripped, scripts = strip_scripts(text)
    else:
        stripped, scripts = text, []
    for s in scripts:
        span = Span(file, s.line, s.column, s.line, s.column + len(s.kind))
        if not s.closed:
            reporter.emit("syntax-unclosed-script", span,
                          "the `%s` block opened here is never closed" % s.kind,
                          help="add the missing `}`; the braces of a script block must balance")
    ast_parser = _ast_parser() if inline else None
    if ast_parser is None:
        tree, broken = parse_with_recovery(lark_parser("opl"), stripped, file, reporter, text)
        try:
            items = None if tree is None else _TreeToAst(_Handlers(file, reporter, stripped)).transform(tree)
        except VisitError as e:  # a bug in the transformer, not the user's fault
            raise e.orig_exc
    else:
        held = HeldDiagnostics()
        token = _CTX.set(_InlineHandlers(file, held, stripped))  # per parse and thread: nothing shared
        try:
            result, broken = parse_with_recovery(ast_parser, stripped, file, reporter, text, effects=held,
                                                 copy_stack=_trial_stack)
        finally:
            _CTX.reset(token)
        items = None if result is None else result[0]
        for args, kw in held.items if items is not None else ():
            reporter.emit(*args, **kw)
    if items is None:
        return None
    if broken:
        items, top_broken = drop_broken(items, broken)
        if top_broken:  # a declaration was lost: later errors would be noise
            return None
    if any(isinstance(i, A.Include) for i in items):
        items = splice_includes(items, file, reporter, 0)
    if any(isinstance(i, A.PwlDecl) for i in items):
        items = expand_pwl_functions(items, reporter)
    model = A.Model(Span(file, 1, 1, 1, 1), items, file, text)
    if scripts:
        # The stripped text kept each block's place: give each block its body (and where it starts).
        by_place = {(s.line, s.column): s for s in scripts}
        for item in items:
            if isinstance(item, A.ScriptBlock) and item.span.file == file:
                s = by_place.get((item.span.line, item.span.column))
                if s is not None:
                    item.body, item.body_line, item.body_column = s.body, s.body_line, s.body_column
    return model


def splice_includes(items: list, file: str, reporter: Reporter, depth: int) -> list:
    """Replace each ``include "f.mod";`` by the items of ``f.mod`` (OPL manual, "include"). The path is
    relative to the including file's folder and, symbolic links followed, must stay inside that
    folder's tree (:func:`pyopl.files.source_io.resolve_include`, shared with data includes)."""
    out = []
    for item in items:
        if not isinstance(item, A.Include):
            out.append(item)
            continue
        if file.startswith("<"):
            reporter.emit("unsupported-feature", item.span, "`include \"%s\"` in a model given as text is not supported" % item.path,
                          help="compile the model from its path so the included file can be found beside it")
            continue
        root = os.path.dirname(os.path.abspath(file))
        path, why = resolve_include(root, item.path)
        if why == "nul":
            reporter.emit("include-not-found", item.span, "the included file name `%s` holds a NUL byte"
                          % item.path.replace("\0", "\\0"), help="remove the NUL character from the file name")
            continue
        if path is None:
            reporter.emit("include-not-found", item.span, "`%s` is outside the model's folder (symbolic links followed)"
                          % item.path, help="keep included files in the model's folder or below it")
            continue
        if os.path.isdir(path):
            reporter.emit("include-not-found", item.span, "the included `%s` is a folder, not a file" % item.path,
                          help="name the .mod file inside it, e.g. `include \"%s/part.mod\";`" % item.path.rstrip("/"))
            continue
        if not os.path.isfile(path):
            reporter.emit("include-not-found", item.span, "the included file `%s` does not exist" % item.path,
                          help="check the name; it is looked up in %s" % root)
            continue
        if depth >= 8 or _INCLUDING[0] >= 8:
            reporter.emit("include-not-found", item.span, "`include` nests more than 8 deep (a cycle?)",
                          help="remove the circular include")
            continue
        if not take_include(reporter, item.span):  # a budget on the number of includes, not only their depth
            continue
        notes: list = []
        try:
            text = read_source_file(path, notes)[0]
        except SourceProblem as p:
            report_problem(reporter, p, "model", item.span)
            continue
        for note in notes:
            report_problem(reporter, note, "model")
        reporter.sources.setdefault(path, text)  # (its diagnostics show their source lines)
        _INCLUDING[0] += 1
        try:
            sub = parse_model(text, path, reporter)  # splices the file's own includes
        finally:
            _INCLUDING[0] -= 1
        if sub is not None:
            out.extend(sub.items)
    return out


_INCLUDING = [0]  # depth of nested `include` parsing (a cycle stops at 8)
